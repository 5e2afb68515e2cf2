//===- FastReciprocal.cpp - x / d as x * (1 / d) under --fast-math --------===//
//
// Opt-in (`arvrc build/run --fast-math`): an f32 `arith.divf x, d` whose
// divisor is the same for every point (a constant, a scalar parameter, or
// pure arithmetic of those) becomes `x * r` with `r = 1 / d` (a constant
// folds; otherwise loop-invariant code motion computes it once). This is
// not IEEE division: the result may differ from x / d in the last bit, and
// after rounding to u8 by 1 where a value sits near .5; the bench reports
// how far such a build is from the exact one. An IEEE division takes a
// dozen instructions on the GPU (a reciprocal, two fused corrections and a
// slow path), the product one. Both pipelines run it once their loops'
// constants are folded, on the same divisions (which depend only on what
// the divisor is computed from, not on where), so CPU and CUDA stay
// bit-identical to each other.
//
//===----------------------------------------------------------------------===//

#include "arvr/Lowering/Passes.h"

#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRFASTRECIPROCAL
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;

namespace {

/// Whether `v` is the same for every point, wherever it is computed: a
/// constant, a scalar argument of the function, or a pure op of such
/// values. (Where an op sits differs between the pipelines, the CPU having
/// hoisted loop-invariant code; what it depends on does not.)
static bool isPointInvariant(Value v, unsigned depth = 0) {
  if (matchPattern(v, m_Constant()))
    return true;
  if (depth > 16)
    return false;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    Operation *owner = arg.getOwner()->getParentOp();
    return owner && isa<func::FuncOp>(owner) &&
           arg.getOwner()->isEntryBlock() && !isa<MemRefType>(arg.getType());
  }
  Operation *op = v.getDefiningOp();
  return op->getNumRegions() == 0 && isPure(op) &&
         llvm::all_of(op->getOperands(), [&](Value operand) {
           return isPointInvariant(operand, depth + 1);
         });
}

struct ArvrFastReciprocalPass
    : public arvr::impl::ArvrFastReciprocalBase<ArvrFastReciprocalPass> {
  void runOnOperation() override {
    SmallVector<arith::DivFOp> divisions;
    getOperation().walk([&](arith::DivFOp div) {
      if (div.getType().isF32() && isPointInvariant(div.getRhs()))
        divisions.push_back(div);
    });
    // The reciprocal just before the division (folded for a constant):
    // loop-invariant code motion then computes it once, in the kernels as
    // on the CPU, and nothing new is left for the host to evaluate.
    for (arith::DivFOp div : divisions) {
      OpBuilder b(div);
      Value one =
          arith::ConstantOp::create(b, div.getLoc(), b.getF32FloatAttr(1.0f));
      Value reciprocal =
          b.createOrFold<arith::DivFOp>(div.getLoc(), one, div.getRhs());
      Value product =
          arith::MulFOp::create(b, div.getLoc(), div.getLhs(), reciprocal);
      div.replaceAllUsesWith(product);
      div.erase();
    }
  }
};

} // namespace
