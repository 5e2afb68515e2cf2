//===- ContractFma.cpp - a * b + c as one fused multiply-add --------------===//
//
// Rewrites an f32 (or vector of f32) `arith.addf` or `arith.subf` of an
// `arith.mulf` used nowhere else into `math.fma`:
//
//   a * b + c, c + a * b  ->  fma(a, b, c)
//   a * b - c             ->  fma(a, b, -c)
//   c - a * b             ->  fma(-a, b, c)
//
// A fused multiply-add rounds once: its result is the exact a * b + c
// rounded, so it is the same on every target that has one (the GPU's
// fma.rn.f32, the CPU's FMA instructions or libm's fmaf). Both pipelines
// run this pass at the same point, on the same loops, so CPU and CUDA
// outputs stay bit-identical; the GPU then issues one instruction where it
// issued two (PTX's mul.rn/add.rn are never fused by ptxas). Negation is
// exact, so the subtractions lose nothing.
//
//===----------------------------------------------------------------------===//

#include "arvr/Lowering/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRCONTRACTFMA
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;

namespace {

/// `v`'s defining mulf when `v` has no other use, or null.
static arith::MulFOp singleUseProduct(Value v) {
  auto mul = v.getDefiningOp<arith::MulFOp>();
  if (!mul || !mul->hasOneUse())
    return {};
  return mul;
}

/// Whether `type` is f32 or a vector of f32.
static bool isF32Like(Type type) { return getElementTypeOrSelf(type).isF32(); }

struct AddOfProduct : public OpRewritePattern<arith::AddFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::AddFOp add,
                                PatternRewriter &rewriter) const override {
    if (!isF32Like(add.getType()))
      return failure();
    for (auto [product, other] :
         {std::pair{add.getLhs(), add.getRhs()}, {add.getRhs(), add.getLhs()}})
      if (arith::MulFOp mul = singleUseProduct(product)) {
        rewriter.replaceOpWithNewOp<math::FmaOp>(add, mul.getLhs(),
                                                 mul.getRhs(), other);
        rewriter.eraseOp(mul);
        return success();
      }
    return failure();
  }
};

struct SubOfProduct : public OpRewritePattern<arith::SubFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::SubFOp sub,
                                PatternRewriter &rewriter) const override {
    if (!isF32Like(sub.getType()))
      return failure();
    Location loc = sub.getLoc();
    if (arith::MulFOp mul = singleUseProduct(sub.getLhs())) {
      Value negated = arith::NegFOp::create(rewriter, loc, sub.getRhs());
      rewriter.replaceOpWithNewOp<math::FmaOp>(sub, mul.getLhs(), mul.getRhs(),
                                               negated);
      rewriter.eraseOp(mul);
      return success();
    }
    if (arith::MulFOp mul = singleUseProduct(sub.getRhs())) {
      Value negated = arith::NegFOp::create(rewriter, loc, mul.getLhs());
      rewriter.replaceOpWithNewOp<math::FmaOp>(sub, negated, mul.getRhs(),
                                               sub.getLhs());
      rewriter.eraseOp(mul);
      return success();
    }
    return failure();
  }
};

struct ArvrContractFmaPass
    : public arvr::impl::ArvrContractFmaBase<ArvrContractFmaPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<AddOfProduct, SubOfProduct>(&getContext());
    // One walk, no folding: only these rewrites, so that both pipelines
    // contract the same pairs whatever else could fold. A rewrite makes no
    // new candidate (an fma is neither an add nor a product, and each
    // product has its one user), so one visit of each op is enough, in
    // any order.
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace
