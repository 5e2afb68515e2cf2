//===- Clamps.h - What a clamp by a constant bounds -------------*- C++ -*-===//
//
// u8_sat lowers to clamps by constants (`max(x, 0)`, `min(x, 255)`), a
// rounding and a conversion; arvr-gpu-saturating-fma (on arith) and
// arvr-gpu-saturating-convert (on the LLVM dialect) recognise that chain.
// clampedOperand<Op>(v, c) is the x of `v = Op(x, c)` or `Op(c, x)`, c the
// f32 constant `c`, for any binary op (arith.maxnumf, llvm.intr.minnum...),
// or null.
//
//===----------------------------------------------------------------------===//

#ifndef ARVR_LOWERING_UTILS_CLAMPS_H
#define ARVR_LOWERING_UTILS_CLAMPS_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"

namespace mlir::arvr {

/// Whether `v` is the f32 constant `expected`.
inline bool isF32Constant(Value v, double expected) {
  FloatAttr attr;
  return matchPattern(v, m_Constant(&attr)) && attr.getType().isF32() &&
         attr.getValueAsDouble() == expected;
}

/// The x of `Op(x, c)` or `Op(c, x)` defining `v`, c the f32 constant
/// `bound`, or null.
template <typename Op> Value clampedOperand(Value v, double bound) {
  auto op = v.getDefiningOp<Op>();
  if (!op)
    return {};
  Value a = op->getOperand(0), b = op->getOperand(1);
  if (isF32Constant(b, bound))
    return a;
  if (isF32Constant(a, bound))
    return b;
  return {};
}

} // namespace mlir::arvr

#endif // ARVR_LOWERING_UTILS_CLAMPS_H
