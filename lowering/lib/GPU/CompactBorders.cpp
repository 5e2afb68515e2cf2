//===- CompactBorders.cpp - Border versions kept small
//---------------------===//
//
// arvr-specialize-interior splits a launch's body into an interior version
// and a border version (the else branch of the `scf.if` it marks
// `arvr.interior`). The border version runs only in the blocks (or
// threads) at an image's edges, yet it is most of the device code LLVM
// compiles: each tap of a stencil carries its boundary handling (a mirror's
// `scf.if` with its remainder), and LLVM's full unrolling then copies every
// loop over taps as many times as it runs (pyr_down: 150 of a level
// kernel's 255 byte loads were its border's). This pass makes a border
// version small, in two steps:
//
// 1. What a loop computes the same in every iteration moves before it: an
//    op without memory effects (its regions' ops included), each operand
//    defined outside the loop or by an op that moves, leaves an `scf.for`
//    that runs at least once (static trip count >= 1), even when it is not
//    speculatable (an `scf.if` choosing a mirrored column, a remainder):
//    the loop would have run it at least once, on the same operands, so
//    running it once before gives the same value and traps no more. A
//    tap column's mirrored coordinate is so computed once a column, not
//    once a tap row; the CSE that follows merges the copies of sibling
//    loops (a point's channels).
// 2. Each `scf.for` left in the border version carries an LLVM loop
//    annotation that disables unrolling (`loop_annotation`, the name
//    scf-to-cf and cf-to-llvm carry onto the loop's latch branch as
//    `llvm.br`'s own attribute): the border keeps one copy of a loop's
//    body.
//
// The interior version is untouched (there unrolling lets neighbouring
// points share reads). Values do not change.
//
//===----------------------------------------------------------------------===//

#include "arvr/Lowering/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRCOMPACTBORDERS
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;

namespace {

/// The attribute scf-to-cf copies from an `scf.for` onto its latch branch
/// (those whose value is an LLVM dialect attribute, under their own name),
/// which cf-to-llvm then passes on as `llvm.br`'s `loop_annotation`.
constexpr llvm::StringLiteral kLoopAnnotation = "loop_annotation";

/// Moves what `loop` computes alike in every iteration before it, when it
/// runs at least once; returns how many ops moved.
size_t hoistInvariants(scf::ForOp loop) {
  std::optional<APInt> trips = loop.getStaticTripCount();
  if (!trips || trips->isZero())
    return 0;
  return moveLoopInvariantCode(
      {&loop.getRegion()},
      [&](Value value, Region *) { return loop.isDefinedOutsideOfLoop(value); },
      [](Operation *op, Region *) {
        return !op->hasTrait<OpTrait::IsTerminator>() && isMemoryEffectFree(op);
      },
      [&](Operation *op, Region *) { loop.moveOutOfLoop(op); });
}

/// Compacts the border version `border` (the else region of an
/// `arvr.interior` split).
void compact(Region &border, LLVM::LoopAnnotationAttr keepLoop) {
  // Innermost loops first, so that what leaves an inner loop may leave the
  // loops around it too.
  SmallVector<scf::ForOp> loops;
  border.walk<WalkOrder::PostOrder>(
      [&](scf::ForOp loop) { loops.push_back(loop); });
  for (scf::ForOp loop : loops) {
    hoistInvariants(loop);
    loop->setAttr(kLoopAnnotation, keepLoop);
  }
}

struct ArvrCompactBordersPass
    : public arvr::impl::ArvrCompactBordersBase<ArvrCompactBordersPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    auto noUnroll = LLVM::LoopUnrollAttr::get(
        context, /*disable=*/BoolAttr::get(context, true), IntegerAttr(),
        BoolAttr(), BoolAttr(), LLVM::LoopAnnotationAttr(),
        LLVM::LoopAnnotationAttr(), LLVM::LoopAnnotationAttr());
    auto keepLoop = LLVM::LoopAnnotationAttr::get(
        context, BoolAttr(), LLVM::LoopVectorizeAttr(),
        LLVM::LoopInterleaveAttr(), noUnroll, LLVM::LoopUnrollAndJamAttr(),
        LLVM::LoopLICMAttr(), LLVM::LoopDistributeAttr(),
        LLVM::LoopPipelineAttr(), LLVM::LoopPeeledAttr(),
        LLVM::LoopUnswitchAttr(), BoolAttr(), BoolAttr(), FusedLoc(),
        FusedLoc(), {});
    getOperation().walk([&](scf::IfOp split) {
      if (split->hasAttr(arvr::kInteriorAttrName) &&
          split->getParentOfType<gpu::LaunchOp>())
        compact(split.getElseRegion(), keepLoop);
    });
  }
};

} // namespace
