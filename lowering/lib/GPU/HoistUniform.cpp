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

/// Whether `value` is the same for every thread of `launch`: defined
/// outside its body, a constant, or a result of an operation in `uniform`.
bool isUniform(Value value, gpu::LaunchOp launch,
               const llvm::SmallPtrSetImpl<Operation *> &uniform) {
  if (!launch.getBody().isAncestor(value.getParentRegion()))
    return true;
  Operation *def = value.getDefiningOp();
  return def && (uniform.contains(def) || matchPattern(def, m_Constant()));
}

/// Moves the uniform operations of `launch`'s body, in order, to the top
/// of its entry block; returns how many moved.
unsigned hoist(gpu::LaunchOp launch) {
  llvm::SmallPtrSet<Operation *, 32> uniform;
  SmallVector<Operation *> moving;
  launch.getBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op->getNumRegions() || op->getNumOperands() == 0 ||
        op->hasTrait<OpTrait::IsTerminator>() ||
        llvm::any_of(op->getResultTypes(), llvm::IsaPred<IndexType>) ||
        matchPattern(op, m_Constant()) || !isMemoryEffectFree(op) ||
        !isSpeculatable(op))
      return;
    for (Value operand : op->getOperands())
      if (!isUniform(operand, launch, uniform))
        return;
    uniform.insert(op);
    moving.push_back(op);
  });
  // Before the first operation of the entry block that stays: those that
  // move keep their order (a definition before its uses).
  Block &entry = launch.getBody().front();
  Operation *anchor = &entry.front();
  while (uniform.contains(anchor))
    anchor = anchor->getNextNode();
  // Operands of a moved operation that are constants inside the body move
  // with it (a copy at the top), so that it is defined before its uses.
  OpBuilder builder(anchor);
  for (Operation *op : moving) {
    for (OpOperand &use : op->getOpOperands()) {
      Operation *def = use.get().getDefiningOp();
      if (def && !uniform.contains(def) &&
          launch.getBody().isAncestor(def->getParentRegion()))
        use.set(builder.clone(*def)->getResult(0));
    }
    if (op->getBlock() != &entry || anchor->isBeforeInBlock(op))
      op->moveBefore(anchor);
  }
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
