//===- MoveAbove.h - What a later op needs from between two ops -*- C++ -*-===//
//
// Passes that bring a later op of a block up to follow an earlier one (a
// loop fused into a sibling or into its producer: arvr-fuse-sibling-loops,
// arvr-fuse-point-consumers) must first move above the earlier op what the
// later one uses from between them: pure ops without regions, with what
// they use in turn. These are the ops between, and those it needs.
//
//===----------------------------------------------------------------------===//

#ifndef ARVR_LOWERING_UTILS_MOVEABOVE_H
#define ARVR_LOWERING_UTILS_MOVEABOVE_H

#include "mlir/IR/Operation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>

namespace mlir::arvr {

/// The ops strictly between `first` and `later`, ops of one block, `first`
/// before `later`, in block order.
inline SmallVector<Operation *> opsBetween(Operation *first, Operation *later) {
  SmallVector<Operation *> between;
  for (Operation *op = first->getNextNode(); op != later;
       op = op->getNextNode())
    between.push_back(op);
  return between;
}

/// The ops between `first` and `later` whose results `later` uses (its
/// operands only if `laterOperands`; the ops it holds always), with what
/// they use in turn from between, in block order: what must move above
/// `first` for `later` to follow it. Nullopt if one of them has a region
/// or a memory effect, or if `later` or one of them uses a result of
/// `first`.
inline std::optional<SmallVector<Operation *>>
neededFromBetween(Operation *first, Operation *later, bool laterOperands) {
  SmallVector<Operation *> between = opsBetween(first, later);
  llvm::DenseSet<Operation *> betweenSet(between.begin(), between.end());
  SmallVector<Value> needed;
  bool usesFirst = false;
  later->walk([&](Operation *op) {
    if (op == later && !laterOperands)
      return;
    for (Value v : op->getOperands()) {
      Operation *def = v.getDefiningOp();
      usesFirst |= def == first;
      if (def && betweenSet.contains(def))
        needed.push_back(v);
    }
  });
  if (usesFirst)
    return std::nullopt;
  llvm::DenseSet<Operation *> moved;
  while (!needed.empty()) {
    Operation *def = needed.pop_back_val().getDefiningOp();
    if (moved.contains(def))
      continue;
    if (def->getNumRegions() || !isMemoryEffectFree(def))
      return std::nullopt;
    for (Value v : def->getOperands()) {
      Operation *d = v.getDefiningOp();
      if (d == first)
        return std::nullopt;
      if (d && betweenSet.contains(d))
        needed.push_back(v);
    }
    moved.insert(def);
  }
  SmallVector<Operation *> ordered;
  for (Operation *op : between)
    if (moved.contains(op))
      ordered.push_back(op);
  return ordered;
}

} // namespace mlir::arvr

#endif // ARVR_LOWERING_UTILS_MOVEABOVE_H
