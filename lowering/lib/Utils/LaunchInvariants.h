//===- LaunchInvariants.h - What a launch computes alike for all threads --===//
//
// The operations of a gpu.launch's body computed from values defined
// outside it, constants and one another (the same for every thread), and
// their move elsewhere with copies of the body's constants they use.
// arvr-hoist-uniform moves them to the top of the body (once a thread),
// arvr-host-uniforms those the launch plan can evaluate before the launch
// (once a launch, on the host); each says which operations it takes.
//
//===----------------------------------------------------------------------===//

#ifndef ARVR_LOWERING_UTILS_LAUNCHINVARIANTS_H
#define ARVR_LOWERING_UTILS_LAUNCHINVARIANTS_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::arvr {

/// The operations of `launch`'s body, in pre-order, that `takes` accepts
/// and whose every operand is defined outside the body, is the result of
/// a constant that `takesConstant` accepts, or comes from an operation
/// chosen before.
inline SmallVector<Operation *>
launchInvariants(gpu::LaunchOp launch, function_ref<bool(Operation *)> takes,
                 function_ref<bool(Value)> takesConstant) {
  Region &body = launch.getBody();
  llvm::SmallPtrSet<Operation *, 32> chosen;
  SmallVector<Operation *> order;
  auto known = [&](Value value) {
    if (!body.isAncestor(value.getParentRegion()))
      return true;
    Operation *def = value.getDefiningOp();
    return def && (chosen.contains(def) ||
                   (matchPattern(def, m_Constant()) && takesConstant(value)));
  };
  body.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (!takes(op) || !llvm::all_of(op->getOperands(), known))
      return;
    chosen.insert(op);
    order.push_back(op);
  });
  return order;
}

/// Moves `ops` (launchInvariants' choice for `body`), in order, before
/// `anchor` (one already before it in its block stays); each constant of
/// the body that one of them uses is copied there first (the body keeps
/// its own), so that every definition comes before its uses.
inline void moveInvariants(ArrayRef<Operation *> ops, Region &body,
                           Operation *anchor) {
  llvm::SmallPtrSet<Operation *, 32> moving(ops.begin(), ops.end());
  OpBuilder builder(anchor);
  for (Operation *op : ops) {
    for (OpOperand &use : op->getOpOperands()) {
      Operation *def = use.get().getDefiningOp();
      if (def && !moving.contains(def) &&
          body.isAncestor(def->getParentRegion()))
        use.set(builder.clone(*def)->getResult(0));
    }
    if (op->getBlock() != anchor->getBlock() || anchor->isBeforeInBlock(op))
      op->moveBefore(anchor);
  }
}

} // namespace mlir::arvr

#endif // ARVR_LOWERING_UTILS_LAUNCHINVARIANTS_H
