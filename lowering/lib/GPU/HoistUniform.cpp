//===- HoistUniform.cpp - What every thread computes alike, once ----------===//
//
// In a gpu.launch, a computation of the kernel's parameters alone (a
// rotation's sines and cosines from its angles, a focal length's
// reciprocal) is the same for every point, yet sits in each point's code,
// often inside a guard (`scf.if` of a point in range, of an interior
// sample): each thread computes it once per point and channel, and CSE
// cannot merge copies in sibling regions. This pass moves such operations
// to the top of the launch body, where CSE keeps one: each thread computes
// them once. An operation moves when it has no memory effects, is
// speculatable (no integer division that may trap), has no regions, is
// neither a terminator nor a constant (constants stay where the
// canonicalizer and the sinking of index computations want them), gives no
// index (addresses and bounds are cheap, and the passes before matched them
// where they are), and each operand is defined outside the launch, is a
// constant or comes from an operation that moves. Ids (gpu.thread_id, ...)
// never move, nor does anything computed from them or from loads. Values do
// not change: the same operations on the same operands.
//
//===----------------------------------------------------------------------===//

#include "arvr/Lowering/Passes.h"

#include "../Utils/LaunchInvariants.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/CSE.h"

#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRHOISTUNIFORM
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;

namespace {

/// Moves the uniform operations of `launch`'s body, in order, to the top
/// of its entry block; returns how many moved.
unsigned hoist(gpu::LaunchOp launch) {
  SmallVector<Operation *> moving = arvr::launchInvariants(
      launch,
      [](Operation *op) {
        return !op->getNumRegions() && op->getNumOperands() != 0 &&
               !op->hasTrait<OpTrait::IsTerminator>() &&
               !llvm::any_of(op->getResultTypes(), llvm::IsaPred<IndexType>) &&
               !matchPattern(op, m_Constant()) && isMemoryEffectFree(op) &&
               isSpeculatable(op);
      },
      [](Value) { return true; });
  // Before the first operation of the entry block that stays: those that
  // move keep their order (a definition before its uses).
  llvm::SmallPtrSet<Operation *, 32> uniform(moving.begin(), moving.end());
  Operation *anchor = &launch.getBody().front().front();
  while (uniform.contains(anchor))
    anchor = anchor->getNextNode();
  arvr::moveInvariants(moving, launch.getBody(), anchor);
  return moving.size();
}

struct ArvrHoistUniformPass
    : public arvr::impl::ArvrHoistUniformBase<ArvrHoistUniformPass> {
  void runOnOperation() override {
    bool changed = false;
    getOperation().walk([&](gpu::LaunchOp launch) {
      if (hoist(launch))
        changed = true;
    });
    if (!changed)
      return markAllAnalysesPreserved();
    // One copy of each: the copies now lie side by side in one block.
    IRRewriter rewriter(&getContext());
    DominanceInfo &dominance = getAnalysis<DominanceInfo>();
    eliminateCommonSubExpressions(rewriter, dominance, getOperation());
  }
};

} // namespace
