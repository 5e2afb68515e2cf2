//===- FastReciprocal.cpp - x / d as x * (1 / d) under --fast-math --------===//
//
// Opt-in (`arvrc build/run --fast-math`): an f32 `arith.divf x, d` whose
// divisor is the same for every point (a constant, or a value defined
// outside every loop: a scalar parameter) becomes `x * r` with
// `r = 1 / d` computed once, where d is defined (a constant folds). This is
// not IEEE division: the result may differ from x / d in the last bit, and
// after rounding to u8 by 1 where a value sits near .5; the bench reports
// how far such a build is from the exact one. An IEEE division takes a
// dozen instructions on the GPU (a reciprocal, two fused corrections and a
// slow path), the product one. Both pipelines run it once their loops'
// constants are folded, on the same divisions, so CPU and CUDA stay
// bit-identical to each other.
//
//===----------------------------------------------------------------------===//

#include "arvr/Lowering/Passes.h"

#include "mlir/IR/Matchers.h"

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRFASTRECIPROCAL
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;

namespace {

/// Whether `v` is the same for every point: a constant, or defined outside
/// every loop of the function.
static bool isPointInvariant(Value v) {
  if (matchPattern(v, m_Constant()))
    return true;
  Region *region = v.getParentRegion();
  Operation *owner = region ? region->getParentOp() : nullptr;
  return owner && isa<func::FuncOp>(owner);
}

struct ArvrFastReciprocalPass
    : public arvr::impl::ArvrFastReciprocalBase<ArvrFastReciprocalPass> {
  void runOnOperation() override {
    SmallVector<arith::DivFOp> divisions;
    getOperation().walk([&](arith::DivFOp div) {
      if (div.getType().isF32() && isPointInvariant(div.getRhs()))
        divisions.push_back(div);
    });
    // One reciprocal per divisor, where the divisor is defined.
    DenseMap<Value, Value> reciprocals;
    for (arith::DivFOp div : divisions) {
      Value divisor = div.getRhs();
      Value &reciprocal = reciprocals[divisor];
      if (!reciprocal) {
        OpBuilder b(div.getContext());
        if (Operation *def = divisor.getDefiningOp())
          b.setInsertionPointAfter(def);
        else
          b.setInsertionPointToStart(cast<BlockArgument>(divisor).getOwner());
        Value one =
            arith::ConstantOp::create(b, div.getLoc(), b.getF32FloatAttr(1.0f));
        reciprocal = b.createOrFold<arith::DivFOp>(div.getLoc(), one, divisor);
      }
      OpBuilder b(div);
      Value product =
          arith::MulFOp::create(b, div.getLoc(), div.getLhs(), reciprocal);
      div.replaceAllUsesWith(product);
      div.erase();
    }
  }
};

} // namespace
