//===- SinkGuardedStores.cpp - A thread's loads before its guarded stores -===//
//
// A thread that computes several points (NV12's two rows, a stencil's
// rows) stores each point's bytes before it loads the next point's input.
// Where those stores sit in straight-line code, the back end's scheduler
// issues the next point's loads first (inputs are read through the
// read-only cache, and distinct kernel arguments never overlap); where they
// sit behind control flow (arvr-stage-stores' choice between a warp's
// exchange through shared memory and direct stores; arvr-wide-access'
// aligned and unaligned versions), they end a basic block, and the next
// point's loads wait for them: each point costs the thread one more trip
// to memory, which a launch of one wave (one 1080p frame) pays in full.
//
// This pass moves, in each block of a gpu.launch, an op that holds regions
// and writes memory (an `scf.if` of stores) down past the ops after it,
// until one conflicts with it: one that reads or writes memory the op
// writes, or writes memory it reads (by the rules of Utils/Aliasing.h:
// different address spaces, distinct kernel arguments and allocations
// never overlap), one with another memory effect or a synchronisation (a
// barrier, a warp vote), one that uses its results, or the block's end.
// Inside the op, warp synchronisations (`nvvm.bar.warp.sync`, which
// arvr-stage-stores puts around its exchange) are allowed: the op stays in
// its block, so the same lanes reach it. The stores then come after every
// point's loads and arithmetic, in their order. Values do not change.
//
//===----------------------------------------------------------------------===//

#include "../Utils/Aliasing.h"
#include "arvr/Lowering/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRSINKGUARDEDSTORES
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;

namespace {

/// The accesses of `op` and what it holds, where a warp synchronisation is
/// allowed; false if it has another memory effect.
bool accessesWithWarpSync(Operation *op, SmallVector<arvr::Access> &accesses) {
  WalkResult result = op->walk([&](Operation *inner) {
    if (isa<NVVM::SyncWarpOp>(inner))
      return WalkResult::advance();
    if (inner->getNumRegions() || inner == op)
      return WalkResult::advance(); // Their contents are walked.
    SmallVector<arvr::Access> own;
    if (!arvr::collectAccesses(inner, own))
      return WalkResult::interrupt();
    accesses.append(own.begin(), own.end());
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
}

/// The op before which `store` (an op with regions that writes, its
/// accesses `own`) may go: the first op after it that conflicts with it.
Operation *sinkPoint(Operation *store, ArrayRef<arvr::Access> own) {
  Operation *next = store->getNextNode();
  for (; next && !next->hasTrait<OpTrait::IsTerminator>();
       next = next->getNextNode()) {
    if (llvm::any_of(store->getUsers(),
                     [&](Operation *user) { return next->isAncestor(user); }))
      break;
    if (isMemoryEffectFree(next))
      continue;
    SmallVector<arvr::Access> theirs;
    if (!arvr::collectAccesses(next, theirs) || arvr::mayConflict(own, theirs))
      break;
  }
  return next;
}

/// Sinks the guarded stores of `block`.
void sinkIn(Block &block) {
  // Last first: a later group settles before an earlier one moves down to
  // it.
  SmallVector<Operation *> candidates;
  for (Operation &op : block)
    if (op.getNumRegions())
      candidates.push_back(&op);
  for (Operation *op : llvm::reverse(candidates)) {
    SmallVector<arvr::Access> own;
    if (!accessesWithWarpSync(op, own) ||
        llvm::none_of(own, [](const arvr::Access &a) { return a.write; }))
      continue;
    Operation *point = sinkPoint(op, own);
    if (point && point != op->getNextNode())
      op->moveBefore(point);
  }
}

struct ArvrSinkGuardedStoresPass
    : public arvr::impl::ArvrSinkGuardedStoresBase<ArvrSinkGuardedStoresPass> {
  void runOnOperation() override {
    getOperation().walk([&](gpu::LaunchOp launch) {
      launch.getBody().walk([&](Block *block) { sinkIn(*block); });
    });
  }
};

} // namespace
