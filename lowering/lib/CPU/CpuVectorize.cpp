//===- CpuVectorize.cpp - Columns of a CPU loop as vector lanes -----------===//
//
// arvr-cpu-vectorize: short loops inside loops unrolled, then an innermost
// scf.for of step 1 without results whose body is straight-line loads,
// stores and elementwise arithmetic (an interior run of arvr-cpu-interior)
// becomes a loop over groups of `lanes` iterations in vector registers,
// then the original loop over what is left. A value the loop's variable
// does not reach stays scalar; one it does becomes a vector<lanes x T>,
// each lane computing what its iteration computed. Reads and writes are
// classified by their index (Access): the variable plus a fixed value,
// contiguous; interleaved pixels' channels, one load of whole pixels and
// shuffles (writes: once every channel is written); S x, a window and a
// shuffle; x / K, a window and a shuffle per remainder; anything else a
// gather (reads only). Where every channel computes the same from its own,
// the lanes run over elements instead (no shuffles). The same operations
// run on the same values, so results are bit-identical.
//
//===----------------------------------------------------------------------===//

#include "arvr/Lowering/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRCPUVECTORIZE
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;

namespace {

/// Elementwise ops a lane computes exactly as a scalar does (no library
/// calls whose vector form could differ).
bool isLaneOp(Operation *op) {
  if (op->getDialect()->getNamespace() == "arith")
    return op->hasTrait<OpTrait::Elementwise>();
  return isa<math::FmaOp, math::SqrtOp, math::AbsFOp, math::AbsIOp,
             math::FloorOp, math::CeilOp, math::RoundOp, math::RoundEvenOp,
             math::TruncOp, math::CopySignOp>(op);
}

bool isScalar(Type type) { return type.isIntOrIndexOrFloat(); }

/// A cast that keeps "the variable plus a fixed value" for an index: both
/// sides at least 32 bits wide, wider than any extent, so where every lane's
/// index is inside its memref, lane i's is lane 0's plus i.
bool isWideCast(Operation *op) {
  if (!isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
           arith::ExtUIOp, arith::TruncIOp>(op))
    return false;
  auto wide = [](Type t) {
    return t.isIndex() || t.getIntOrFloatBitWidth() >= 32;
  };
  return wide(op->getOperand(0).getType()) && wide(op->getResult(0).getType());
}

/// How a read or write of the lanes reaches memory.
struct Access {
  enum Kind { Unit, Pixels, Gather, Quotient, Strided } kind;
  SmallVector<Value> indices; // Lane 0's, in the memref or its view.
  int64_t channel = 0, channels = 1;
  /// Quotient: the index (x + k) / divisor, lane 0's numerator; pixels of
  /// `channels` where channels > 1 (channel `channel`).
  int64_t divisor = 1;
  Value numerator;
  /// Strided: the index S (x + k) + k', S > 1 (pyramids' 2x).
  int64_t stride = 1;
};

/// The writes of one pixel's channels, made together.
struct PixelStore {
  SmallVector<Value> channels; // Each lane's value, by channel.
  unsigned written = 0;
};

class Vectorizer {
public:
  Vectorizer(scf::ForOp loop, int64_t lanes) : loop(loop), lanes(lanes) {}

  /// Whether the loop qualifies; finds what varies over it.
  bool analyse();
  /// Builds the vector loop before the loop and starts the loop after it;
  /// false, with nothing changed, where an access has no vector form.
  bool build();

private:
  VectorType vectorType(Type t) { return VectorType::get({lanes}, t); }
  bool isFixed(Value v) { return !varying.contains(v); }
  bool buildOp(Operation *op, OpBuilder &b);
  bool buildLanes(OpBuilder &b);
  bool findFlatChannels();
  bool sameUpToChannel(Value a, Value b, int64_t channelA, int64_t channelB);
  bool isPixelAccess(Value memref, ValueRange indices);
  bool buildLoad(memref::LoadOp load, OpBuilder &b);
  bool buildStore(memref::StoreOp store, OpBuilder &b);
  Value vectorOf(Value v, OpBuilder &b);
  Value loadQuotient(Value memref, const Access &a, VectorType type,
                     OpBuilder &b);
  Value flatView(Value memref, bool pixels);
  /// The memref, or its view of pixels where `a` indexes that.
  Value viewFor(Value memref, const Access &a) {
    return a.indices.size() <
                   size_t(cast<MemRefType>(memref.getType()).getRank())
               ? flatView(memref, true)
               : memref;
  }
  Access access(Value memref, ValueRange indices, OpBuilder &b);
  /// Where `matches` holds for the innermost index, the others fixed, or
  /// for the one before a constant channel of a memref whose last size is
  /// static and at most 4 (interleaved pixels): lane 0's indices, in the
  /// memref or its view of pixels, and the channel.
  std::optional<Access> placed(Value memref, ValueRange indices,
                               function_ref<bool(Value)> matches,
                               Access::Kind kind, OpBuilder &b);
  Value gatherIndex(Value memref, ValueRange indices, OpBuilder &b);

  scf::ForOp loop;
  int64_t lanes;
  DenseSet<Value> varying, unitStride;
  /// Values S x plus a fixed value, S a constant from 2 to 8: S.
  DenseMap<Value, int64_t> strided;
  /// Values (x + k) / K: the numerator (of unit stride) and K.
  DenseMap<Value, std::pair<Value, int64_t>> quotient;
  IRMapping scalar;               // Fixed values, and lane 0's of the rest.
  DenseMap<Value, Value> vectors; // Each lane's value.
  DenseMap<std::pair<Value, char>, Value> views; // Flat views, made once.
  DenseMap<Value, Operation *> storeKey;         // A memref -> its first store.
  llvm::MapVector<Operation *, PixelStore> pixelStores;
  Operation *viewPoint = nullptr; // Where views are made: before the loops.
  /// Channels flat: the lanes run over consecutive elements of interleaved
  /// pixels (channel, then pixel) rather than over pixels, when every
  /// channel computes the same from its own channel; only channel 0's ops
  /// are built, `channels` times, each a vector `flatStep` elements on.
  int64_t flatChannels = 0, flatStep = 0;
  DenseSet<Operation *> channelZero;
  DenseMap<std::pair<Value, Value>, bool> same;
};

bool Vectorizer::analyse() {
  if (loop.getNumResults() != 0)
    return false;
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!step || *step != 1 || !loop.getInductionVar().getType().isIndex())
    return false;
  varying.insert(loop.getInductionVar());
  unitStride.insert(loop.getInductionVar());
  DenseSet<Value> loaded, stored;
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (op.getNumRegions() != 0)
      return false;
    bool varies =
        !llvm::all_of(op.getOperands(), [&](Value v) { return isFixed(v); });
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      if (!store.getMemRefType().getLayout().isIdentity() ||
          !isFixed(store.getMemRef()))
        return false;
      // One write per place, or per pixel: every store to a memref at the
      // same indices, or at the same but the last, a constant in both (its
      // channel), so that no two lanes' writes overlap.
      auto [it, first] = storeKey.try_emplace(store.getMemRef(), &op);
      ValueRange firstIndices = cast<memref::StoreOp>(it->second).getIndices();
      if (!first && !llvm::equal(store.getIndices(), firstIndices) &&
          !(llvm::equal(store.getIndices().drop_back(),
                        firstIndices.drop_back()) &&
            getConstantIntValue(store.getIndices().back()) &&
            getConstantIntValue(firstIndices.back())))
        return false;
      stored.insert(store.getMemRef());
      continue;
    }
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      if (!load.getMemRefType().getLayout().isIdentity() ||
          !isScalar(load.getType()) || !isFixed(load.getMemRef()))
        return false;
      loaded.insert(load.getMemRef());
    } else if (!isMemoryEffectFree(&op) ||
               !llvm::all_of(op.getResultTypes(), isScalar) ||
               (varies && !isLaneOp(&op))) {
      return false;
    }
    if (!varies)
      continue;
    for (Value result : op.getResults())
      varying.insert(result);
    // The variable plus a fixed value stays so through + and - of fixed
    // values and wide casts.
    auto unit = [&](unsigned i) {
      return unitStride.contains(op.getOperand(i));
    };
    auto fixedAt = [&](unsigned i) { return isFixed(op.getOperand(i)); };
    if ((isa<arith::AddIOp>(op) &&
         ((unit(0) && fixedAt(1)) || (fixedAt(0) && unit(1)))) ||
        (isa<arith::SubIOp>(op) && unit(0) && fixedAt(1)) ||
        (isWideCast(&op) && unit(0)))
      unitStride.insert(op.getResult(0));
    // S (x + k) + k': through products by a constant, + and - of fixed
    // values and wide casts.
    auto stride = [&](unsigned i) -> int64_t {
      return unit(i) ? 1 : strided.lookup(op.getOperand(i));
    };
    auto factor = [&](unsigned i) {
      return getConstantIntValue(op.getOperand(i)).value_or(0);
    };
    int64_t s = 0;
    if (isa<arith::AddIOp>(op))
      s = fixedAt(1) ? stride(0) : fixedAt(0) ? stride(1) : 0;
    else if (isa<arith::SubIOp>(op) && fixedAt(1))
      s = stride(0);
    else if (isWideCast(&op))
      s = stride(0);
    else if (isa<arith::MulIOp>(op))
      s = fixedAt(1) ? stride(0) * factor(1) : stride(1) * factor(0);
    if (s > 1 && s <= 8)
      strided[op.getResult(0)] = s;
    // (x + k) / K, K a constant (unsigned: arvr-cpu-interior's, of values
    // proved >= 0), through wide casts.
    int64_t k = 0; // A constant right operand, or 0.
    if (op.getNumOperands() == 2)
      k = getConstantIntValue(op.getOperand(1)).value_or(0);
    if (isa<arith::DivUIOp>(op) && unit(0) && k > 1)
      quotient[op.getResult(0)] = {op.getOperand(0), k};
    else if (isa<arith::ShRUIOp>(op) && unit(0) && k > 0 && k < 16)
      quotient[op.getResult(0)] = {op.getOperand(0), int64_t(1) << k};
    else if (isWideCast(&op) && quotient.count(op.getOperand(0)))
      quotient[op.getResult(0)] = quotient.lookup(op.getOperand(0));
  }
  // A memref both read and written could carry values between iterations.
  return llvm::none_of(stored, [&](Value m) { return loaded.contains(m); });
}

Value Vectorizer::flatView(Value memref, bool pixels) {
  Value &view = views[{memref, pixels}];
  if (view)
    return view;
  OpBuilder b(viewPoint);
  int64_t rank = cast<MemRefType>(memref.getType()).getRank();
  SmallVector<ReassociationIndices> groups;
  if (pixels) { // The last two dimensions as one.
    for (int64_t d = 0; d + 2 < rank; ++d)
      groups.push_back({d});
    groups.push_back({rank - 2, rank - 1});
  } else if (rank > 1) { // All as one.
    groups.push_back(llvm::to_vector(llvm::seq<int64_t>(0, rank)));
  } else {
    return view = memref;
  }
  view = memref::CollapseShapeOp::create(b, loop.getLoc(), memref, groups);
  return view;
}

std::optional<Access> Vectorizer::placed(Value memref, ValueRange indices,
                                         function_ref<bool(Value)> matches,
                                         Access::Kind kind, OpBuilder &b) {
  auto type = cast<MemRefType>(memref.getType());
  size_t rank = indices.size();
  std::optional<int64_t> channel =
      rank ? getConstantIntValue(indices.back()) : std::nullopt;
  int64_t channels = type.getShape().back();
  for (bool pixels : {false, true}) {
    if (rank < 1 + size_t(pixels))
      break;
    size_t at = rank - 1 - pixels;
    if (!matches(indices[at]) ||
        !llvm::all_of(indices.take_front(at),
                      [&](Value v) { return isFixed(v); }) ||
        (pixels &&
         (!channel || ShapedType::isDynamic(channels) || channels > 4)))
      continue;
    Access a{kind};
    a.indices = llvm::map_to_vector(indices.take_front(at + 1), [&](Value v) {
      return scalar.lookupOrDefault(v);
    });
    if (pixels) {
      Location loc = loop.getLoc();
      a.indices.back() = arith::MulIOp::create(
          b, loc, a.indices.back(),
          arith::ConstantIndexOp::create(b, loc, channels));
      a.channel = *channel;
      a.channels = channels;
    }
    return a;
  }
  return std::nullopt;
}

Access Vectorizer::access(Value memref, ValueRange indices, OpBuilder &b) {
  if (flatChannels) { // Element C (x + k) + c of lane 0, c = its step's.
    Location loc = loop.getLoc();
    SmallVector<Value> flat =
        llvm::map_to_vector(indices.drop_back(),
                            [&](Value v) { return scalar.lookupOrDefault(v); });
    flat.back() = arith::AddIOp::create(
        b, loc,
        arith::MulIOp::create(
            b, loc, flat.back(),
            arith::ConstantIndexOp::create(b, loc, flatChannels)),
        arith::ConstantIndexOp::create(b, loc, flatStep));
    return {Access::Pixels, flat, -1, flatChannels};
  }
  // The variable plus a fixed value, innermost or at interleaved pixels.
  if (std::optional<Access> a = placed(
          memref, indices, [&](Value v) { return unitStride.contains(v); },
          Access::Unit, b)) {
    if (a->channels > 1 || a->indices.size() < indices.size())
      a->kind = Access::Pixels;
    return *a;
  }
  // A coordinate times S (a pyramid's 2x): lane i at element S i of a
  // window from lane 0's to the last lane's (pixels).
  Value found;
  auto record = [&](DenseMap<Value, int64_t> &map) {
    return [&](Value v) { return map.count(v) ? (found = v, true) : false; };
  };
  if (std::optional<Access> a =
          placed(memref, indices, record(strided), Access::Strided, b)) {
    a->stride = strided.lookup(found);
    return *a;
  }
  // A coordinate divided (chroma at x / 2): lane i at element
  // ((x + k) + i) / K of a window of whole pixels.
  auto isQuotient = [&](Value v) {
    if (!quotient.count(v))
      return false;
    int64_t divisor = quotient.lookup(v).second;
    return divisor <= lanes && lanes % divisor == 0 ? (found = v, true) : false;
  };
  if (std::optional<Access> a =
          placed(memref, indices, isQuotient, Access::Quotient, b)) {
    auto [numerator, divisor] = quotient.lookup(found);
    a->divisor = divisor;
    a->numerator = scalar.lookupOrDefault(numerator);
    return *a;
  }
  return {Access::Gather, {}};
}

/// Each lane's index into the flat view of `memref` (row-major).
Value Vectorizer::gatherIndex(Value memref, ValueRange indices, OpBuilder &b) {
  Location loc = loop.getLoc();
  Value flat;
  for (auto [d, index] : llvm::enumerate(indices)) {
    Value lanesIndex = vectorOf(index, b);
    if (flat) {
      Value size = memref::DimOp::create(b, loc, memref, d);
      flat = arith::MulIOp::create(
          b, loc, flat,
          vector::BroadcastOp::create(b, loc, lanesIndex.getType(), size));
      flat = arith::AddIOp::create(b, loc, flat, lanesIndex);
    } else {
      flat = lanesIndex;
    }
  }
  return flat;
}

Value Vectorizer::vectorOf(Value v, OpBuilder &b) {
  Value &lanesValue = vectors[v];
  if (!lanesValue) // Fixed: the same in every lane.
    lanesValue = vector::BroadcastOp::create(
        b, v.getLoc(), vectorType(v.getType()), scalar.lookupOrDefault(v));
  return lanesValue;
}

/// `values` (one vector per channel) interleaved: lane i's channels, then
/// lane i + 1's.
static Value interleave(ArrayRef<Value> values, int64_t lanes, OpBuilder &b,
                        Location loc) {
  Value all = values.front();
  int64_t size = lanes;
  for (Value next : values.drop_front()) {
    all = vector::ShuffleOp::create(
        b, loc, all, next,
        llvm::to_vector(llvm::seq<int64_t>(0, size + lanes)));
    size += lanes;
  }
  int64_t channels = values.size();
  SmallVector<int64_t> order(size);
  for (int64_t i = 0; i < lanes; ++i)
    for (int64_t c = 0; c < channels; ++c)
      order[i * channels + c] = c * lanes + i;
  return vector::ShuffleOp::create(b, loc, all, all, order);
}

bool Vectorizer::buildLoad(memref::LoadOp load, OpBuilder &b) {
  Location loc = load.getLoc();
  Value memref = load.getMemRef();
  VectorType type = vectorType(load.getType());
  Access a = access(memref, load.getIndices(), b);
  Value result;
  if (a.kind == Access::Unit) {
    result = vector::LoadOp::create(b, loc, type, memref, a.indices);
  } else if (a.kind == Access::Strided) {
    int64_t c = a.channels, span = c * (a.stride * (lanes - 1) + 1);
    Value wide = vector::LoadOp::create(
        b, loc, VectorType::get({span}, type.getElementType()),
        viewFor(memref, a), a.indices);
    SmallVector<int64_t> lane(lanes);
    for (int64_t i = 0; i < lanes; ++i)
      lane[i] = c * a.stride * i + a.channel;
    result = vector::ShuffleOp::create(b, loc, wide, wide, lane);
  } else if (a.kind == Access::Quotient) {
    result = loadQuotient(memref, a, type, b);
  } else if (a.kind == Access::Pixels && a.channel < 0) {
    result =
        vector::LoadOp::create(b, loc, type, flatView(memref, true), a.indices);
  } else if (a.kind == Access::Pixels) {
    auto wideType =
        VectorType::get({a.channels * lanes}, type.getElementType());
    Value wide = vector::LoadOp::create(b, loc, wideType,
                                        flatView(memref, true), a.indices);
    SmallVector<int64_t> lane(lanes);
    for (int64_t i = 0; i < lanes; ++i)
      lane[i] = a.channel + i * a.channels;
    result = vector::ShuffleOp::create(b, loc, wide, wide, lane);
  } else {
    Value index = gatherIndex(memref, load.getIndices(), b);
    Value view = flatView(memref, false);
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value all = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(vectorType(b.getI1Type()), true));
    Value none = arith::ConstantOp::create(
        b, loc, type, cast<TypedAttr>(b.getZeroAttr(type)));
    result = vector::GatherOp::create(b, loc, type, view, ValueRange{zero},
                                      index, all, none);
  }
  vectors[load.getResult()] = result;
  return true;
}

/// Lanes reading element (n + i) / K (of channel c of pixels of C, C > 1):
/// the L / K elements (pixels) from n / K, and the one the last lane reads
/// (inside, as every lane's is: a window one longer could pass the end),
/// then, for each remainder r of n by K, a shuffle taking lane i's, chosen
/// by r.
Value Vectorizer::loadQuotient(Value memref, const Access &a, VectorType type,
                               OpBuilder &b) {
  Location loc = loop.getLoc();
  int64_t k = a.divisor, c = a.channels, pixels = lanes / k;
  Type element = type.getElementType();
  Value view = viewFor(memref, a);
  Value window = vector::LoadOp::create(
      b, loc, VectorType::get({c * pixels}, element), view, a.indices);
  // n mod K and the last lane's pixel, n / K + (n mod K + L - 1) / K, in
  // the numerator's type.
  Type numType = a.numerator.getType();
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(numType, v));
  };
  Value r = arith::RemUIOp::create(b, loc, a.numerator, constant(k));
  Value extra = arith::DivUIOp::create(
      b, loc, arith::AddIOp::create(b, loc, r, constant(lanes - 1)),
      constant(k));
  Value extraIndex =
      numType.isIndex()
          ? extra
          : arith::IndexCastUIOp::create(b, loc, b.getIndexType(), extra)
                .getResult();
  Value cIndex = arith::ConstantIndexOp::create(b, loc, c);
  SmallVector<Value> lastIndices = a.indices;
  Value q0 =
      c > 1 ? Value(arith::DivUIOp::create(b, loc, a.indices.back(), cIndex))
            : a.indices.back();
  lastIndices.back() = arith::MulIOp::create(
      b, loc, arith::AddIOp::create(b, loc, q0, extraIndex), cIndex);
  Value last = vector::LoadOp::create(b, loc, VectorType::get({c}, element),
                                      view, lastIndices);
  Value both = vector::ShuffleOp::create(
      b, loc, window, last,
      llvm::to_vector(llvm::seq<int64_t>(0, c * (pixels + 1))));
  Value result;
  for (int64_t rem = k - 1; rem >= 0; --rem) {
    SmallVector<int64_t> order(lanes);
    for (int64_t i = 0; i < lanes; ++i)
      order[i] = c * ((rem + i) / k) + a.channel;
    Value lanesValue = vector::ShuffleOp::create(b, loc, both, both, order);
    result = result
                 ? Value(arith::SelectOp::create(
                       b, loc,
                       arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                             r, constant(rem)),
                       lanesValue, result))
                 : lanesValue;
  }
  return result;
}

bool Vectorizer::buildStore(memref::StoreOp store, OpBuilder &b) {
  Location loc = store.getLoc();
  Value memref = store.getMemRef();
  Access a = access(memref, store.getIndices(), b);
  Value value = vectorOf(store.getValue(), b);
  if (a.kind == Access::Unit) {
    vector::StoreOp::create(b, loc, value, memref, a.indices);
    return true;
  }
  if (a.kind != Access::Pixels)
    return false; // No scatter: lanes may write the same place.
  if (a.channel < 0) {
    vector::StoreOp::create(b, loc, value, flatView(memref, true), a.indices);
    return true;
  }
  PixelStore &pixel = pixelStores[storeKey.lookup(memref)];
  if (pixel.channels.empty())
    pixel.channels.resize(a.channels);
  if (pixel.channels[a.channel])
    return false; // A channel written twice.
  pixel.channels[a.channel] = value;
  if (++pixel.written < a.channels)
    return true;
  vector::StoreOp::create(b, loc, interleave(pixel.channels, lanes, b, loc),
                          flatView(memref, true), a.indices);
  return true;
}

bool Vectorizer::buildOp(Operation *op, OpBuilder &b) {
  bool fixed =
      llvm::all_of(op->getResults(), [&](Value v) { return isFixed(v); });
  if (flatChannels && !(fixed && !isa<memref::StoreOp>(op)) &&
      !unitStride.contains(op->getNumResults() ? op->getResult(0) : Value()) &&
      !channelZero.contains(op))
    return true; // Another channel's: channel 0's steps compute it.
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return buildStore(store, b);
  if (llvm::all_of(op->getResults(), [&](Value v) { return isFixed(v); })) {
    b.clone(*op, scalar);
    return true;
  }
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return buildLoad(load, b);
  if (quotient.count(op->getResult(0)) || strided.count(op->getResult(0)))
    b.clone(*op, scalar); // Lane 0's value, for indices.
  if (unitStride.contains(op->getResult(0))) {
    b.clone(*op, scalar); // Lane 0's value, for indices.
    if (flatChannels)
      return true; // Used by indices alone (sameUpToChannel checked).
  }
  OperationState state(op->getLoc(), op->getName());
  for (Value operand : op->getOperands())
    state.addOperands(vectorOf(operand, b));
  for (Type type : op->getResultTypes())
    state.addTypes(vectorType(type));
  state.propertiesAttr = op->getPropertiesAsAttribute();
  state.addAttributes(op->getDiscardableAttrDictionary().getValue());
  Operation *lanesOp = b.create(state);
  for (auto [from, to] : llvm::zip(op->getResults(), lanesOp->getResults()))
    vectors[from] = to;
  return true;
}

bool Vectorizer::build() {
  findFlatChannels();
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  Value lower = loop.getLowerBound(), upper = loop.getUpperBound();
  Value step = arith::ConstantIndexOp::create(b, loc, lanes);
  Value count = arith::MaxSIOp::create(
      b, loc, arith::SubIOp::create(b, loc, upper, lower),
      arith::ConstantIndexOp::create(b, loc, 0));
  Value whole = arith::SubIOp::create(
      b, loc, count, arith::RemUIOp::create(b, loc, count, step));
  Value middle = arith::AddIOp::create(b, loc, lower, whole);
  auto lanesLoop = scf::ForOp::create(b, loc, lower, middle, step);
  viewPoint = lanesLoop;
  b.setInsertionPoint(lanesLoop.getBody()->getTerminator());
  Value first = lanesLoop.getInductionVar();
  scalar.map(loop.getInductionVar(), first);
  bool built = true;
  if (flatChannels) { // Channel 0's ops, one step per channel.
    for (int64_t step = 0; step < flatChannels && built; ++step) {
      flatStep = step * lanes;
      vectors.clear();
      built = buildLanes(b);
    }
  } else {
    SmallVector<Attribute> offsets = llvm::map_to_vector(
        llvm::seq<int64_t>(0, lanes),
        [&](int64_t i) -> Attribute { return b.getIndexAttr(i); });
    VectorType indexLanes = vectorType(b.getIndexType());
    vectors[loop.getInductionVar()] = arith::AddIOp::create(
        b, loc, vector::BroadcastOp::create(b, loc, indexLanes, first),
        arith::ConstantOp::create(b, loc,
                                  DenseElementsAttr::get(indexLanes, offsets)));
    built = buildLanes(b) && llvm::all_of(pixelStores, [](auto &entry) {
              return entry.second.written == entry.second.channels.size();
            });
  }
  if (!built) { // What was made before the loop folds away unused.
    lanesLoop.erase();
    return false;
  }
  loop.getLowerBoundMutable().assign(middle);
  return true;
}

bool Vectorizer::buildLanes(OpBuilder &b) {
  return llvm::all_of(loop.getBody()->without_terminator(),
                      [&](Operation &op) { return buildOp(&op, b); });
}

bool Vectorizer::isPixelAccess(Value memref, ValueRange indices) {
  size_t rank = indices.size();
  auto type = cast<MemRefType>(memref.getType());
  return rank >= 2 && getConstantIntValue(indices.back()) &&
         !type.isDynamicDim(rank - 1) &&
         unitStride.contains(indices[rank - 2]) &&
         llvm::all_of(indices.drop_back(2),
                      [&](Value v) { return isFixed(v); });
}

/// Whether `a` (of channel `channelA`) computes for its channel what `b`
/// does for `channelB`: the same ops on the same fixed values, reading
/// pixels at the same place, each its own channel.
bool Vectorizer::sameUpToChannel(Value a, Value b, int64_t channelA,
                                 int64_t channelB) {
  if (a == b) // A varying value shared by channels is the pixel's.
    return isFixed(a);
  if (isFixed(a) || isFixed(b))
    return false;
  auto [it, fresh] = same.try_emplace({a, b}, false);
  if (!fresh)
    return it->second;
  Operation *opA = a.getDefiningOp(), *opB = b.getDefiningOp();
  if (!opA || !opB || opA->getName() != opB->getName() ||
      opA->getAttrDictionary() != opB->getAttrDictionary() ||
      opA->getNumOperands() != opB->getNumOperands())
    return false;
  if (auto loadA = dyn_cast<memref::LoadOp>(opA)) {
    auto loadB = cast<memref::LoadOp>(opB);
    ValueRange ia = loadA.getIndices(), ib = loadB.getIndices();
    bool ok = loadA.getMemRef() == loadB.getMemRef() &&
              isPixelAccess(loadA.getMemRef(), ia) &&
              loadA.getMemRefType().getShape().back() == flatChannels &&
              llvm::equal(ia.drop_back(), ib.drop_back()) &&
              getConstantIntValue(ia.back()) == channelA &&
              getConstantIntValue(ib.back()) == channelB;
    if (ok)
      channelZero.insert(opA);
    return same[{a, b}] = ok;
  }
  for (auto [x, y] : llvm::zip(opA->getOperands(), opB->getOperands()))
    if (!sameUpToChannel(x, y, channelA, channelB))
      return false;
  channelZero.insert(opA);
  return same[{a, b}] = true;
}

/// Whether every store writes whole interleaved pixels of C channels and
/// every channel's value is channel 0's computed from its own channel:
/// then the lanes can run over elements, with no shuffles.
bool Vectorizer::findFlatChannels() {
  SmallVector<memref::StoreOp> stores;
  for (Operation &op : loop.getBody()->without_terminator())
    if (auto store = dyn_cast<memref::StoreOp>(op))
      stores.push_back(store);
  if (stores.empty())
    return false;
  int64_t channels = stores.front().getMemRefType().getShape().back();
  if (ShapedType::isDynamic(channels) || channels < 2)
    return false;
  flatChannels = channels;
  DenseMap<Value, SmallVector<memref::StoreOp>> byMemref;
  for (memref::StoreOp store : stores) {
    if (!isPixelAccess(store.getMemRef(), store.getIndices()) ||
        store.getMemRefType().getShape().back() != channels)
      return flatChannels = 0, false;
    byMemref[store.getMemRef()].push_back(store);
  }
  for (auto &[memref, group] : byMemref) {
    SmallVector<memref::StoreOp> byChannel(channels);
    for (memref::StoreOp store : group) {
      int64_t c = *getConstantIntValue(store.getIndices().back());
      if (c < 0 || c >= channels || byChannel[c])
        return flatChannels = 0, false;
      byChannel[c] = store;
    }
    if (llvm::is_contained(byChannel, memref::StoreOp()))
      return flatChannels = 0, false;
    channelZero.insert(byChannel[0]);
    // Against channel 1 first, which marks channel 0's ops.
    for (int64_t c = 1; c < channels; ++c)
      if (!sameUpToChannel(byChannel[0].getValue(), byChannel[c].getValue(), 0,
                           c))
        return flatChannels = 0, channelZero.clear(), false;
  }
  return true;
}

struct ArvrCpuVectorizePass
    : public arvr::impl::ArvrCpuVectorizeBase<ArvrCpuVectorizePass> {
  using ArvrCpuVectorizeBase::ArvrCpuVectorizeBase;

  void runOnOperation() override {
    if (lanes < 2) {
      getOperation().emitError("lanes must be at least 2");
      return signalPassFailure();
    }
    // Short loops inside a loop (a stencil's taps left as a loop over a
    // few rows), unrolled: straight-line code the lanes can run. The same
    // operations in the same order: the same bits.
    SmallVector<scf::ForOp> inner;
    getOperation().walk([&](scf::ForOp loop) {
      std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound()),
                             upper = getConstantIntValue(loop.getUpperBound()),
                             step = getConstantIntValue(loop.getStep());
      std::optional<int64_t> trips;
      if (lower && upper && step && *step > 0)
        trips = (std::max<int64_t>(*upper - *lower, 0) + *step - 1) / *step;
      bool flat =
          llvm::all_of(loop.getBody()->without_terminator(),
                       [](Operation &op) { return op.getNumRegions() == 0; });
      if (loop->getParentOfType<scf::ForOp>() && trips && *trips <= 8 && flat)
        inner.push_back(loop);
    });
    for (scf::ForOp loop : inner)
      (void)loopUnrollFull(loop);
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops) {
      Vectorizer vectorizer(loop, lanes);
      if (vectorizer.analyse())
        vectorizer.build();
    }
  }
};

} // namespace
