//===- InferBounds.cpp - The window each intermediate stage must compute --===//
//
// Gives every arvr.stage without sizes (a function scheduled compute_root)
// the window its readers need: for each `arvr.access` of the stage, the
// range of each coordinate is found by interval arithmetic over the reader's
// own window, the ranges of reduction variables and the kernel's scalars;
// the union over all readers becomes the stage's origin and sizes. Halos
// come out of it: a read at `y + j` for j in -r..r widens the window by r
// rows on each side.
//
// Preconditions: stages are in the kernel's body, each after the stages it
// reads; canonicalisation has folded constant divisors. Stages are handled
// from the last to the first, so every reader's window is known when its
// producer is reached. A coordinate that is not built from + - *, min, max,
// select, division by a positive constant, values widened from u8/u16
// (whose range is their type's: a table indexed by a pixel value) and
// clamps (whose range is their bounds', whatever they clamp) is an error at
// the read. A stage computed in shared memory must
// be read by one stage, at its (x, y) plus uniform offsets, so that each
// tile of the reader needs a tile of the stage of a fixed size.
//
//===----------------------------------------------------------------------===//

#include "../Utils/AffineIndex.h"
#include "arvr/Dialect/ArvrDialect.h"
#include "arvr/Lowering/Passes.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRINFERBOUNDS
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;
using namespace mlir::arvr;

namespace {

/// An inclusive range [lo, hi] of index values, computed in the kernel's
/// body before the readers.
struct Interval {
  Value lo, hi;
};

/// Interval arithmetic over the coordinates of the accesses inside one
/// reader stage, emitting the bounds at `builder`'s insertion point.
class IntervalBuilder {
public:
  IntervalBuilder(OpBuilder &builder, StageOp reader)
      : b(builder), reader(reader) {}

  /// The range of the index or integer `value`; failure if it depends on
  /// something other than coordinates, reduction variables and values of
  /// the kernel's body.
  FailureOr<Interval> range(Value value) {
    auto it = cache.find(value);
    if (it != cache.end())
      return it->second;
    FailureOr<Interval> result = compute(value);
    if (succeeded(result))
      cache[value] = *result;
    return result;
  }

private:
  Value index(int64_t v) {
    return arith::ConstantIndexOp::create(b, reader.getLoc(), v);
  }
  Value toIndex(Value v) {
    if (v.getType().isIndex())
      return v;
    return arith::IndexCastOp::create(b, v.getLoc(), b.getIndexType(), v);
  }
  Interval point(Value v) {
    Value i = toIndex(v);
    return {i, i};
  }
  Value min(Value l, Value r) {
    return arith::MinSIOp::create(b, reader.getLoc(), l, r);
  }
  Value max(Value l, Value r) {
    return arith::MaxSIOp::create(b, reader.getLoc(), l, r);
  }

  /// Whether `value` is defined before the insertion point, in the body.
  bool isAvailable(Value value) {
    Block *block = b.getInsertionBlock();
    if (auto arg = dyn_cast<BlockArgument>(value))
      return arg.getOwner() == block;
    Operation *def = value.getDefiningOp();
    return def->getBlock() == block &&
           (b.getInsertionPoint() == block->end() ||
            def->isBeforeInBlock(&*b.getInsertionPoint()));
  }

  FailureOr<Interval> compute(Value value) {
    FailureOr<Interval> result = computeByArithmetic(value);
    if (succeeded(result))
      return result;
    // A pure op of values known before the reader (an image's size read
    // inside it: `src.height - 1` as a reduction's bound) is the same
    // there: computed again at the insertion point.
    Operation *def = value.getDefiningOp();
    if (def && def->getNumRegions() == 0 && def->getNumOperands() > 0 &&
        isPure(def) && llvm::all_of(def->getOperands(), [&](Value operand) {
          return isAvailable(operand);
        }))
      return point(
          b.clone(*def)->getResult(cast<OpResult>(value).getResultNumber()));
    return failure();
  }

  FailureOr<Interval> computeByArithmetic(Value value) {
    if (isAvailable(value))
      return point(value);
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      Operation *owner = arg.getOwner()->getParentOp();
      if (owner == reader.getOperation()) {
        // A coordinate of the reader: its window.
        unsigned dim = arg.getArgNumber();
        Value first = reader.getOrigin().empty()
                          ? index(0)
                          : Value(reader.getOrigin()[dim]);
        if (!isAvailable(first) || !isAvailable(reader.getSizes()[dim]))
          return failure();
        Value last = arith::SubIOp::create(
            b, arg.getLoc(),
            b.createOrFold<arith::AddIOp>(arg.getLoc(), first,
                                          reader.getSizes()[dim]),
            index(1));
        return Interval{first, last};
      }
      if (auto reduce = dyn_cast<ReduceOp>(owner)) {
        FailureOr<Interval> lower = range(reduce.getLower());
        FailureOr<Interval> upper = range(reduce.getUpper());
        if (failed(lower) || failed(upper))
          return failure();
        return Interval{lower->lo, upper->hi};
      }
      return failure();
    }

    Operation *op = value.getDefiningOp();
    Location loc = op->getLoc();
    IntegerAttr constant;
    if (matchPattern(value, m_Constant(&constant)))
      return point(index(constant.getInt()));
    if (isa<arith::IndexCastOp, arith::ExtSIOp, arith::TruncIOp>(op))
      return range(op->getOperand(0));
    // A value widened from an unsigned type of fewer bits (a u8 or u16
    // pixel: a table read at `lut(i32(src(x, y, c)))`) lies within that
    // type, whatever it is.
    if (isa<arith::ExtUIOp, arith::IndexCastUIOp>(op)) {
      Type from = getElementTypeOrSelf(op->getOperand(0).getType());
      unsigned bits = from.isIndex() ? 64 : from.getIntOrFloatBitWidth();
      if (bits < 32)
        return Interval{index(0), index((int64_t(1) << bits) - 1)};
    }
    // |e| for e in [lo, hi]: [max(lo, -hi, 0), max(-lo, hi)].
    if (isa<math::AbsIOp>(op)) {
      FailureOr<Interval> e = range(op->getOperand(0));
      if (failed(e))
        return failure();
      Value zero = index(0);
      Value negLo = arith::SubIOp::create(b, loc, zero, e->lo);
      Value negHi = arith::SubIOp::create(b, loc, zero, e->hi);
      return Interval{max(max(e->lo, negHi), zero), max(negLo, e->hi)};
    }
    if (op->getNumOperands() == 3 && isa<arith::SelectOp>(op)) {
      FailureOr<Interval> t = range(op->getOperand(1));
      FailureOr<Interval> f = range(op->getOperand(2));
      if (failed(t) || failed(f))
        return failure();
      return Interval{min(t->lo, f->lo), max(t->hi, f->hi)};
    }
    if (op->getNumOperands() != 2)
      return failure();
    // Where an operand has no range, a clamp still has its bounds'.
    FailureOr<Interval> l = range(op->getOperand(0));
    if (failed(l))
      return clampRange(op);
    // Division and remainder by a positive constant (an unsigned remainder
    // is in [0, k - 1] whatever the dividend).
    IntegerAttr divisor;
    if (isa<arith::RemUIOp>(op) &&
        matchPattern(op->getOperand(1), m_Constant(&divisor)) &&
        divisor.getInt() > 0)
      return Interval{index(0), index(divisor.getInt() - 1)};
    if (isa<arith::FloorDivSIOp, arith::DivSIOp, arith::RemSIOp>(op)) {
      if (!matchPattern(op->getOperand(1), m_Constant(&divisor)) ||
          divisor.getInt() <= 0)
        return failure();
      Value k = index(divisor.getInt());
      if (isa<arith::RemSIOp>(op))
        return Interval{index(1 - divisor.getInt()),
                        index(divisor.getInt() - 1)};
      if (isa<arith::FloorDivSIOp>(op))
        return Interval{arith::FloorDivSIOp::create(b, loc, l->lo, k),
                        arith::FloorDivSIOp::create(b, loc, l->hi, k)};
      return Interval{arith::DivSIOp::create(b, loc, l->lo, k),
                      arith::DivSIOp::create(b, loc, l->hi, k)};
    }
    FailureOr<Interval> r = range(op->getOperand(1));
    if (failed(r))
      return clampRange(op);
    if (isa<arith::AddIOp>(op))
      return Interval{arith::AddIOp::create(b, loc, l->lo, r->lo),
                      arith::AddIOp::create(b, loc, l->hi, r->hi)};
    if (isa<arith::SubIOp>(op))
      return Interval{arith::SubIOp::create(b, loc, l->lo, r->hi),
                      arith::SubIOp::create(b, loc, l->hi, r->lo)};
    if (isa<arith::MinSIOp>(op))
      return Interval{min(l->lo, r->lo), min(l->hi, r->hi)};
    if (isa<arith::MaxSIOp>(op))
      return Interval{max(l->lo, r->lo), max(l->hi, r->hi)};
    if (isa<arith::MulIOp>(op)) {
      // By a constant factor: scale the ends (swapped when negative).
      for (int side = 0; side < 2; ++side) {
        IntegerAttr factor;
        if (!matchPattern(op->getOperand(side), m_Constant(&factor)))
          continue;
        const Interval &other = side == 0 ? *r : *l;
        Value k = index(factor.getInt());
        Value a = arith::MulIOp::create(b, loc, other.lo, k);
        Value z = arith::MulIOp::create(b, loc, other.hi, k);
        return factor.getInt() >= 0 ? Interval{a, z} : Interval{z, a};
      }
      // The extremes of a product are among the products of the ends.
      Value products[4] = {arith::MulIOp::create(b, loc, l->lo, r->lo),
                           arith::MulIOp::create(b, loc, l->lo, r->hi),
                           arith::MulIOp::create(b, loc, l->hi, r->lo),
                           arith::MulIOp::create(b, loc, l->hi, r->hi)};
      return Interval{
          min(min(products[0], products[1]), min(products[2], products[3])),
          max(max(products[0], products[1]), max(products[2], products[3]))};
    }
    return failure();
  }

  /// The range of a clamp whatever the value clamped (for a value without
  /// a range: where it has one, interval arithmetic is tighter):
  /// min(max(e, lo), hi) lies in [min(lo, hi), hi], max(min(e, hi), lo) in
  /// [lo, max(lo, hi)] (either operand order); failure for other ops, or
  /// where the bounds' ranges are unknown.
  FailureOr<Interval> clampRange(Operation *op) {
    bool minOfMax = isa<arith::MinSIOp>(op);
    if (!minOfMax && !isa<arith::MaxSIOp>(op))
      return failure();
    for (int side = 0; side < 2; ++side) {
      Operation *inner = op->getOperand(side).getDefiningOp();
      if (!inner || (minOfMax ? !isa<arith::MaxSIOp>(inner)
                              : !isa<arith::MinSIOp>(inner)))
        continue;
      FailureOr<Interval> outer = range(op->getOperand(1 - side));
      if (failed(outer))
        return failure();
      for (Value bound : inner->getOperands()) {
        FailureOr<Interval> first = range(bound);
        if (failed(first))
          continue;
        return minOfMax ? Interval{min(first->lo, outer->lo), outer->hi}
                        : Interval{outer->lo, max(first->hi, outer->hi)};
      }
    }
    return failure();
  }

  OpBuilder &b;
  StageOp reader;
  DenseMap<Value, Interval> cache;
};

/// The stage of the kernel's body that contains `op`.
static StageOp getTopLevelStage(Operation *op, Block *body) {
  while (op && op->getBlock() != body)
    op = op->getParentOp();
  return dyn_cast_or_null<StageOp>(op);
}

/// How a coordinate of a read depends on the reader's coordinate `dim`.
enum class Dependence { Uniform, Translated, Other };

/// Whether `value`, inside `reader`, is the reader's coordinate `dim` plus
/// something uniform over the reader (constants, kernel values, reduction
/// variables): then a tile of the reader reads a tile of the stage of the
/// same size plus a fixed halo.
static Dependence dependenceOn(Value value, StageOp reader, unsigned dim) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (owner == reader.getOperation())
      return arg.getArgNumber() == dim ? Dependence::Translated
                                       : Dependence::Other;
    if (isa<ReduceOp>(owner))
      return Dependence::Uniform;
    return reader->isAncestor(owner) ? Dependence::Other : Dependence::Uniform;
  }
  Operation *op = value.getDefiningOp();
  if (!reader->isAncestor(op))
    return Dependence::Uniform;
  if (isa<arith::IndexCastOp, arith::ExtSIOp, arith::TruncIOp>(op))
    return dependenceOn(op->getOperand(0), reader, dim);
  SmallVector<Dependence, 2> operands;
  for (Value operand : op->getOperands())
    operands.push_back(dependenceOn(operand, reader, dim));
  if (llvm::all_of(operands,
                   [](Dependence d) { return d == Dependence::Uniform; }))
    return op->getNumRegions() ? Dependence::Other : Dependence::Uniform;
  if (isa<arith::AddIOp>(op) &&
      llvm::is_contained(operands, Dependence::Uniform) &&
      llvm::is_contained(operands, Dependence::Translated))
    return Dependence::Translated;
  if (isa<arith::SubIOp>(op) && operands[0] == Dependence::Translated &&
      operands[1] == Dependence::Uniform)
    return Dependence::Translated;
  return Dependence::Other;
}

/// A stage computed in shared memory on the GPU is read by one stage (which
/// may be in shared memory too: a chain), at that stage's (x, y) plus
/// uniform offsets; false (reported) otherwise.
static bool checkSharedReads(StageOp stage, ArrayRef<AccessOp> reads) {
  Block *body = stage->getBlock();
  StageOp reader = getTopLevelStage(reads.front(), body);
  for (AccessOp access : reads) {
    if (getTopLevelStage(access, body) != reader) {
      access.emitError("stage '")
          << stage.getName()
          << "' is computed in shared memory, in the tiles of one reader, "
             "but is also read by '"
          << getTopLevelStage(access, body).getName() << "'";
      return false;
    }
    Value coords[2] = {access.getX(), access.getY()};
    for (unsigned dim = 0; dim < 2; ++dim)
      if (dependenceOn(coords[dim], reader, dim) != Dependence::Translated) {
        access.emitError("stage '")
            << stage.getName() << "' is computed in shared memory, so it must "
            << "be read at the reader's " << (dim ? "y" : "x")
            << " plus a uniform offset (like f(x + i, y)); compute it at the "
               "root instead";
        return false;
      }
  }
  return true;
}

/// Moves the pure, region-free ops computing `value` in the kernel's body
/// before `point` (their operands first), so that `value` is available
/// there; false if it depends on something that cannot move.
static bool hoistBefore(Value value, Operation *point) {
  Operation *def = value.getDefiningOp();
  if (!def) // An argument: of the kernel, or else not available there.
    return cast<BlockArgument>(value).getOwner() == point->getBlock();
  if (def->getBlock() != point->getBlock())
    return false;
  if (def->isBeforeInBlock(point))
    return true;
  if (def == point || def->getNumRegions() || !isMemoryEffectFree(def))
    return false;
  for (Value operand : def->getOperands())
    if (!hoistBefore(operand, point))
      return false;
  def->moveBefore(point);
  return true;
}

/// Whether `value` is never negative, as a sum of sizes (of images, or
/// clamped at 0) times positive constants plus a constant >= 0.
static bool isNonNegative(Value value) {
  Linear form = linearize(value);
  return form.offset >= 0 && llvm::all_of(form.terms, [](auto &term) {
           auto [v, scale] = term;
           if (scale <= 0)
             return false;
           if (v.template getDefiningOp<DimOp>())
             return true;
           auto max = v.template getDefiningOp<arith::MaxSIOp>();
           APInt bound;
           return max &&
                  (matchPattern(max.getRhs(), m_ConstantInt(&bound)) ||
                   matchPattern(max.getLhs(), m_ConstantInt(&bound))) &&
                  !bound.isNegative();
         });
}

/// Sizes `stage` from its readers; false (reported) if it cannot.
static bool inferWindow(StageOp stage) {
  if (stage.getInlined()) {
    stage.emitError("stage '")
        << stage.getName() << "' is inline: run arvr-inline-stages first";
    return false;
  }
  Block *body = stage->getBlock();
  SmallVector<AccessOp> reads;
  for (Operation *user : stage.getResult().getUsers()) {
    auto access = dyn_cast<AccessOp>(user);
    if (!access) {
      user->emitError("cannot infer the window of stage '")
          << stage.getName() << "': it is used by '" << user->getName()
          << "', not only read";
      return false;
    }
    reads.push_back(access);
  }
  if (reads.empty()) {
    stage.erase(); // Never read: nothing to compute.
    return true;
  }
  if (stage.getGpuShared() && !checkSharedReads(stage, reads))
    return false;

  // The bounds are computed just before the first reader, and the stage
  // moves there, so that it sees the readers' windows.
  Operation *first = nullptr;
  for (AccessOp access : reads) {
    StageOp reader = getTopLevelStage(access, body);
    if (!reader || !reader.hasSizes()) {
      access.emitError("cannot infer the window of stage '")
          << stage.getName() << "': this read is not inside a stage whose "
          << "window is known";
      return false;
    }
    if (!first || reader->isBeforeInBlock(first))
      first = reader;
  }
  // The readers' windows must be known there: a later reader's window
  // (another output's size, say) is computed before the first reader.
  for (AccessOp access : reads) {
    StageOp reader = getTopLevelStage(access, body);
    for (Value bound :
         llvm::concat<Value>(reader.getSizes(), reader.getOrigin()))
      if (!hoistBefore(bound, first)) {
        access.emitError("cannot infer the window of stage '")
            << stage.getName() << "': the window of its reader '"
            << reader.getName() << "' is not computed from kernel values";
        return false;
      }
  }
  OpBuilder builder(first);
  Location loc = stage.getLoc();
  Value lo[3], hi[3];
  for (AccessOp access : reads) {
    IntervalBuilder intervals(builder, getTopLevelStage(access, body));
    Value coords[3] = {access.getX(), access.getY(), access.getC()};
    for (int dim = 0; dim < 3; ++dim) {
      FailureOr<Interval> range = intervals.range(coords[dim]);
      if (failed(range)) {
        InFlightDiagnostic diag =
            access.emitError("cannot infer which part of '");
        // A function's coordinates have the names its definition gives
        // them (`row(j)`): say which one by its place.
        diag << stage.getName() << "' this read needs: its "
             << (dim == 0   ? "first"
                 : dim == 1 ? "second"
                            : "third")
             << " coordinate must be built from the reader's coordinates, "
                "reduction variables, uniform values and u8 or u16 values "
                "with + - * / min max clamp abs; compute '"
             << stage.getName() << "' inline instead";
        return false;
      }
      lo[dim] = lo[dim]
                    ? arith::MinSIOp::create(builder, loc, lo[dim], range->lo)
                    : range->lo;
      hi[dim] = hi[dim]
                    ? arith::MaxSIOp::create(builder, loc, hi[dim], range->hi)
                    : range->hi;
    }
  }
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  SmallVector<Value, 3> sizes;
  for (int dim = 0; dim < 3; ++dim) {
    // [0, n - 1] is n elements, n an image size: say so plainly, so later
    // passes see the window is the image's (e.g. all of its channels).
    auto last = hi[dim].getDefiningOp<arith::SubIOp>();
    if (matchPattern(lo[dim], m_Zero()) && last &&
        matchPattern(last.getRhs(), m_One()) &&
        last.getLhs().getDefiningOp<DimOp>()) {
      sizes.push_back(last.getLhs());
      continue;
    }
    Value extent = arith::AddIOp::create(
        builder, loc, arith::SubIOp::create(builder, loc, hi[dim], lo[dim]),
        one);
    // Clamped at 0 unless it cannot be negative (an image size plus a fixed
    // halo): then a reader's tile of the stage has a size known when
    // compiling (arvr-map-to-gpu).
    sizes.push_back(
        isNonNegative(extent)
            ? extent
            : arith::MaxSIOp::create(builder, loc, extent, zero).getResult());
  }
  stage->moveBefore(first);
  stage.getSizesMutable().assign(sizes);
  stage.getOriginMutable().assign(ValueRange{lo[0], lo[1], lo[2]});
  return true;
}

struct ArvrInferBoundsPass
    : public arvr::impl::ArvrInferBoundsBase<ArvrInferBoundsPass> {
  void runOnOperation() override {
    bool ok = true;
    getOperation().walk([&](KernelOp kernel) {
      if (kernel.getBody().empty())
        return;
      SmallVector<StageOp> stages(kernel.getBody().front().getOps<StageOp>());
      for (StageOp stage : llvm::reverse(stages))
        if (!stage.hasSizes())
          ok = inferWindow(stage) && ok;
    });
    if (!ok)
      signalPassFailure();
  }
};

} // namespace
