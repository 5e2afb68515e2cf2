//===- HostUniforms.cpp - f32 arithmetic of parameters, on the host -------===//
//
// After arvr-hoist-uniform, what a launch computes from the kernel's
// parameters alone sits at the top of its body, once per thread: the lens
// example's six divisions (each focal length into each channel's
// aberration factor), an IEEE division a dozen instructions or more. The
// launch plan can compute f32 additions, subtractions, products, divisions,
// negations and fused multiply-adds on the host exactly as the GPU does
// (IEEE binary32, rounded to nearest even; docs/launch-plan.md), so this
// pass moves such operations out of the launch, before it: kernel
// outlining then passes their results as kernel arguments, and the plan
// computes them once a launch. An operation moves when it is one of those,
// carries no fast-math flags (a contraction the host would not make), and
// each operand is defined outside the launch, is an f32 constant (copied
// out with it) or comes from an operation that moves. Math functions stay
// (the host's libm is not libdevice), and so does what depends on them.
// Values do not change.
//
// Preconditions: gpu.launch ops, before gpu-kernel-outlining; after
// arvr-hoist-uniform, which gathers the copies CSE merges.
//
//===----------------------------------------------------------------------===//

#include "arvr/Lowering/Passes.h"

#include "../Utils/LaunchInvariants.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRHOSTUNIFORMS
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;

namespace {

/// Whether the launch plan computes `op` exactly as the GPU does: f32
/// arithmetic rounded to nearest, without fast-math flags.
bool hostEvaluable(Operation *op) {
  if (op->getNumResults() != 1 || !op->getResult(0).getType().isF32())
    return false;
  if (isa<math::FmaOp>(op))
    return cast<math::FmaOp>(op).getFastmath() == arith::FastMathFlags::none;
  if (!isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp,
           arith::NegFOp>(op))
    return false;
  auto flags = op->getAttrOfType<arith::FastMathFlagsAttr>("fastmath");
  return !flags || flags.getValue() == arith::FastMathFlags::none;
}

/// Moves the host-evaluable operations of `launch`'s body before it;
/// returns how many moved.
unsigned moveOut(gpu::LaunchOp launch) {
  SmallVector<Operation *> moving =
      arvr::launchInvariants(launch, hostEvaluable, [](Value value) {
        // Finite f32s: the plan writes constants as JSON numbers.
        FloatAttr constant;
        return value.getType().isF32() &&
               matchPattern(value, m_Constant(&constant)) &&
               constant.getValue().isFinite();
      });
  arvr::moveInvariants(moving, launch.getBody(), launch);
  return moving.size();
}

struct ArvrHostUniformsPass
    : public arvr::impl::ArvrHostUniformsBase<ArvrHostUniformsPass> {
  void runOnOperation() override {
    bool changed = false;
    getOperation().walk([&](gpu::LaunchOp launch) {
      if (moveOut(launch))
        changed = true;
    });
    if (!changed)
      markAllAnalysesPreserved();
  }
};

} // namespace
