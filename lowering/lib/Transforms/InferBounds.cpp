//===- InferBounds.cpp - The window each intermediate stage must compute --===//
//
// Gives every arvr.stage without sizes (a function scheduled compute_root)
// the window its readers need: for each `arvr.access` of the stage, the
// range of each coordinate is found by the bounds analysis of Ranges.h
// (the rules arvr-check-bounds and the interior versions use too) over the
// reader's own window, the ranges of reduction variables and the kernel's
// scalars, as values computed before the reader; the union over all
// readers becomes the stage's origin and sizes. Halos
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
#include "../Utils/Ranges.h"
#include "../Utils/Translation.h"
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

/// The ranges of the coordinates of the accesses inside one reader stage,
/// by the rules of Ranges.h over the reader's window, emitted at
/// `builder`'s insertion point as index values: the reader's coordinates
/// range over its window, reduction variables between their bounds, and
/// what is computed before the reader is fixed.
class WindowRanges : public ranges::IrRanges {
public:
  WindowRanges(OpBuilder &builder, StageOp reader)
      : IrRanges(builder, reader.getLoc(),
                 {/*asIndex=*/true, /*oneSidedClamps=*/true,
                  /*truncationsKeepRanges=*/true}),
        reader(reader) {}

  /// The range of the index or integer `value`; failure if it depends on
  /// something other than coordinates, reduction variables and values of
  /// the kernel's body.
  FailureOr<ranges::Range<Value>> range(Value value) {
    RangeT r = rangeOf(value);
    if (!r.lo || !r.hi)
      return failure();
    return r;
  }

private:
  Value index(int64_t v) { return constant(v, b.getIndexType()); }

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

  std::optional<RangeT> leaf(Value value) override {
    if (isAvailable(value))
      return RangeT{asEnd(value), asEnd(value)};
    auto arg = dyn_cast<BlockArgument>(value);
    if (!arg)
      return std::nullopt;
    Operation *owner = arg.getOwner()->getParentOp();
    if (owner == reader.getOperation()) {
      // A coordinate of the reader: its window.
      unsigned dim = arg.getArgNumber();
      Value first = reader.getOrigin().empty() ? index(0)
                                               : Value(reader.getOrigin()[dim]);
      if (!isAvailable(first) || !isAvailable(reader.getSizes()[dim]))
        return RangeT();
      Value last = arith::SubIOp::create(
          b, arg.getLoc(),
          b.createOrFold<arith::AddIOp>(arg.getLoc(), first,
                                        reader.getSizes()[dim]),
          index(1));
      return RangeT{first, last};
    }
    if (auto reduce = dyn_cast<ReduceOp>(owner))
      return RangeT{rangeOf(reduce.getLower()).lo,
                    rangeOf(reduce.getUpper()).hi};
    return RangeT();
  }

  /// A pure op of values known before the reader (an image's size read
  /// inside it: `src.height - 1` as a reduction's bound) is the same
  /// there: computed again at the insertion point.
  RangeT fallback(Value value, RangeT found) override {
    Operation *def = value.getDefiningOp();
    if (def && def->getNumRegions() == 0 && def->getNumOperands() > 0 &&
        isPure(def) && llvm::all_of(def->getOperands(), [&](Value operand) {
          return isAvailable(operand);
        })) {
      Value again = asEnd(
          b.clone(*def)->getResult(cast<OpResult>(value).getResultNumber()));
      return {again, again};
    }
    return found;
  }

  Value fixed(Value value) override {
    return isAvailable(value) ? asEnd(value) : Value();
  }

  StageOp reader;
};

/// The stage of the kernel's body that contains `op`.
static StageOp getTopLevelStage(Operation *op, Block *body) {
  while (op && op->getBlock() != body)
    op = op->getParentOp();
  return dyn_cast_or_null<StageOp>(op);
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
      if (!translationOf(coords[dim], reader, dim).isTranslated()) {
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
    WindowRanges intervals(builder, getTopLevelStage(access, body));
    Value coords[3] = {access.getX(), access.getY(), access.getC()};
    for (int dim = 0; dim < 3; ++dim) {
      FailureOr<ranges::Range<Value>> range = intervals.range(coords[dim]);
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
