//===- CompactBorders.cpp - Border loops' invariant mirrors, once ---------===//
//
// arvr-specialize-interior splits a launch's body into an interior version
// and a border version (the else branch of the `scf.if` it marks
// `arvr.interior`). The border version runs only in the blocks (or
// threads) at an image's edges, yet it is most of the device code LLVM
// compiles, and each tap of a stencil there carries its boundary
// handling (a mirror's `scf.if` with its remainder). Where the taps are a
// loop (a 5x5 window's rows), a tap column's mirror is the same in every
// iteration, yet no pass moves it out: MLIR's loop-invariant code motion
// moves only speculatable ops, and an `scf.if` or a remainder is not;
// LLVM unrolls the loop and keeps each copy's branches. This pass moves
// them: an op without memory effects (its regions' ops included), each
// operand defined outside the loop or by an op that moves, leaves an
// `scf.for` that runs at least once (static trip count >= 1), even when it
// is not speculatable: the loop would have run it at least once, on the
// same operands, so running it once before gives the same value and traps
// no more. The CSE that follows merges the copies of sibling loops (a
// point's channels). pyr_down: 65 -> 45 branches a level kernel, PTX
// 6218 -> 5692 lines; on an H100 (2026-12-06 09:54) 4K batch 8 53.59 ->
// 51.48 us, batch 1 74.19 -> 69.17, 1080p batch 1 35.87 -> 33.74.
//
// Keeping the border's loops rolled as well (an LLVM loop annotation that
// disables unrolling) was tried: pyr_down's PTX 3473 lines and its build
// 0.84 -> 0.65 s, but pyr_down 12-15% slower than with this pass alone at
// batch 1 (38.80 against 33.74 us at 1080p: its small levels' threads are
// mostly border threads, and a rolled loop's loads no longer issue
// together), NV12 1-2% slower at batch 1: not done.
//
// The interior version is untouched (there unrolling lets neighbouring
// points share reads). Values do not change.
//
//===----------------------------------------------------------------------===//

#include "arvr/Lowering/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRCOMPACTBORDERS
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;

namespace {

/// Moves what `loop` computes alike in every iteration before it, when it
/// runs at least once.
void hoistInvariants(scf::ForOp loop) {
  std::optional<APInt> trips = loop.getStaticTripCount();
  if (!trips || trips->isZero())
    return;
  moveLoopInvariantCode(
      {&loop.getRegion()},
      [&](Value value, Region *) { return loop.isDefinedOutsideOfLoop(value); },
      [](Operation *op, Region *) {
        return !op->hasTrait<OpTrait::IsTerminator>() && isMemoryEffectFree(op);
      },
      [&](Operation *op, Region *) { loop.moveOutOfLoop(op); });
}

/// Compacts the border version `border` (the else region of an
/// `arvr.interior` split).
void compact(Region &border) {
  // Innermost loops first, so that what leaves an inner loop may leave the
  // loops around it too.
  SmallVector<scf::ForOp> loops;
  border.walk<WalkOrder::PostOrder>(
      [&](scf::ForOp loop) { loops.push_back(loop); });
  for (scf::ForOp loop : loops)
    hoistInvariants(loop);
}

struct ArvrCompactBordersPass
    : public arvr::impl::ArvrCompactBordersBase<ArvrCompactBordersPass> {
  void runOnOperation() override {
    getOperation().walk([&](scf::IfOp split) {
      if (split->hasAttr(arvr::kInteriorAttrName) &&
          split->getParentOfType<gpu::LaunchOp>())
        compact(split.getElseRegion());
    });
  }
};

} // namespace
