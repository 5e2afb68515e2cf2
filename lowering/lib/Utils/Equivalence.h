//===- Equivalence.h - Values computed alike --------------------*- C++ -*-===//
//
// Whether two values are the same, or the same pure computation of the same
// values: what passes that merge loops ask of their bounds (the extents of
// two stages written alike, `(w + 1) / 2` computed once for each) before a
// CSE has made them one value (arvr-fuse-sibling-loops,
// arvr-fuse-point-consumers).
//
//===----------------------------------------------------------------------===//

#ifndef ARVR_LOWERING_UTILS_EQUIVALENCE_H
#define ARVR_LOWERING_UTILS_EQUIVALENCE_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::arvr {

/// Whether ops `x` and `y` are the same operation up to their operands:
/// name, attributes, operand count, result types and region count.
inline bool sameOperation(Operation *x, Operation *y) {
  return x->getName() == y->getName() &&
         x->getAttrDictionary() == y->getAttrDictionary() &&
         x->getNumOperands() == y->getNumOperands() &&
         x->getResultTypes() == y->getResultTypes() &&
         x->getNumRegions() == y->getNumRegions();
}

/// Whether `a` and `b` are the same value or the same pure computation of
/// the same values (up to 8 ops deep): MLIR's OperationEquivalence, its
/// operands compared the same way.
inline bool equivalent(Value a, Value b, int depth = 0) {
  if (a == b)
    return true;
  Operation *x = a.getDefiningOp(), *y = b.getDefiningOp();
  if (!x || !y || depth > 8 || x->getNumRegions() || !isMemoryEffectFree(x) ||
      cast<OpResult>(a).getResultNumber() !=
          cast<OpResult>(b).getResultNumber())
    return false;
  return OperationEquivalence::isEquivalentTo(
      x, y,
      [&](Value p, Value q) { return success(equivalent(p, q, depth + 1)); },
      /*markEquivalent=*/nullptr, OperationEquivalence::IgnoreLocations);
}

} // namespace mlir::arvr

#endif // ARVR_LOWERING_UTILS_EQUIVALENCE_H
