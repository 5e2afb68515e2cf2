//===- Aliasing.h - Whether two memrefs may share memory --------*- C++ -*-===//
//
// What the passes that reorder or merge memory accesses ask (arvr-reuse-
// loads, arvr-fuse-sibling-loops, arvr-fuse-point-consumers, arvr-sink-
// guarded-stores): the buffer a memref views, whether a write through one
// memref may touch what another reads or writes, and the loads and stores
// an op holds.
// Memrefs in different address spaces never share memory; nor do distinct
// kernel arguments and allocations (the runner gives every image and stage
// a buffer of its own, the contract arvr-kernel-arg-aliasing also relies
// on); views of one buffer do, and so does anything else (views of the
// launch's dynamic shared memory, whatever their offsets).
//
//===----------------------------------------------------------------------===//

#ifndef ARVR_LOWERING_UTILS_ALIASING_H
#define ARVR_LOWERING_UTILS_ALIASING_H

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::arvr {

/// The buffer a memref is a view of: through views, casts and subviews.
inline Value bufferOf(Value memref) {
  while (Operation *op = memref.getDefiningOp()) {
    if (auto view = dyn_cast<ViewLikeOpInterface>(op))
      memref = view.getViewSource();
    else if (isa<memref::CastOp>(op))
      memref = op->getOperand(0);
    else
      break;
  }
  return memref;
}

/// Whether a value is a buffer of its own: a function's argument or an
/// allocation.
inline bool isDistinctBuffer(Value buffer) {
  if (auto argument = dyn_cast<BlockArgument>(buffer))
    return isa<FunctionOpInterface>(argument.getOwner()->getParentOp()) &&
           argument.getOwner()->isEntryBlock();
  return isa_and_nonnull<memref::AllocOp, memref::AllocaOp>(
      buffer.getDefiningOp());
}

/// Whether memrefs `a` and `b` may share memory.
inline bool mayAlias(Value a, Value b) {
  auto spaceOf = [](Value memref) -> Attribute {
    auto type = dyn_cast<BaseMemRefType>(memref.getType());
    return type ? type.getMemorySpace() : Attribute();
  };
  if (spaceOf(a) != spaceOf(b))
    return false;
  Value x = bufferOf(a), y = bufferOf(b);
  return x == y || !(isDistinctBuffer(x) && isDistinctBuffer(y));
}

/// One memory access: the memref indexed, its indices, and whether it
/// writes.
struct Access {
  Value memref;
  ValueRange indices;
  bool write;
};

/// Whether accesses `x` and `y` may touch the same memory, one of them
/// writing: their order matters.
inline bool mayConflict(const Access &x, const Access &y) {
  return (x.write || y.write) && mayAlias(x.memref, y.memref);
}

/// Whether an access of `a` may conflict with one of `b`.
inline bool mayConflict(ArrayRef<Access> a, ArrayRef<Access> b) {
  return llvm::any_of(a, [&](const Access &x) {
    return llvm::any_of(b, [&](const Access &y) { return mayConflict(x, y); });
  });
}

/// Appends the accesses (memref and vector loads and stores) of `op` and
/// what it holds to `accesses`; false if something in it has another
/// memory effect.
inline bool collectAccesses(Operation *op, SmallVector<Access> &accesses) {
  WalkResult result = op->walk([&](Operation *inner) {
    auto add = [&](Value memref, ValueRange indices, bool write) {
      accesses.push_back({memref, indices, write});
    };
    if (auto load = dyn_cast<memref::LoadOp>(inner))
      add(load.getMemRef(), load.getIndices(), false);
    else if (auto store = dyn_cast<memref::StoreOp>(inner))
      add(store.getMemRef(), store.getIndices(), true);
    else if (auto load = dyn_cast<vector::LoadOp>(inner))
      add(load.getBase(), load.getIndices(), false);
    else if (auto store = dyn_cast<vector::StoreOp>(inner))
      add(store.getBase(), store.getIndices(), true);
    else if (!isMemoryEffectFree(inner) &&
             !inner->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
}

} // namespace mlir::arvr

#endif // ARVR_LOWERING_UTILS_ALIASING_H
