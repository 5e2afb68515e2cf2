//===- GpuSaturatingConvert.cpp - u8_sat as one rounding conversion -------===//
//
// u8_sat of an f32 lowers to `fptoui(roundeven(minnum(maxnum(x, 0), 255)))`
// to i8: four PTX instructions (max, min, cvt.rni.f32, cvt.rzi). PTX's
// float-to-unsigned conversion with rounding to nearest even,
// cvt.rni.u32.f32 (the intrinsic llvm.nvvm.f2ui.rn), already clamps into
// [0, 2^32 - 1] and turns NaN into 0, so
//
//   trunc(umin(f2ui.rn(x), 255)) to i8
//
// gives the same byte for every x (negative and NaN: 0; above 255: 255;
// in between: x rounded to nearest even, which the clamp to 255 first
// would not change) in two instructions. `fptoui(roundeven(x))` to i8
// with no clamp (arvr-redundant-clamps found x rounds into [0, 255]) is
// `trunc(f2ui.rn(x))`: one instruction. The pattern is matched on the
// kernels' LLVM dialect, after convert-gpu-to-nvvm and
// arvr-native-gpu-math; the CPU keeps the generic form, with the same
// results.
//
//===----------------------------------------------------------------------===//

#include "../Utils/Clamps.h"
#include "arvr/Lowering/Passes.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRGPUSATURATINGCONVERT
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;

namespace {

struct SaturatingU8Conversion : public OpRewritePattern<LLVM::FPToUIOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(LLVM::FPToUIOp convert,
                                PatternRewriter &rewriter) const override {
    if (!convert.getType().isInteger(8))
      return failure();
    auto round = convert.getArg().getDefiningOp<LLVM::RoundEvenOp>();
    if (!round || !round.getType().isF32())
      return failure();
    // Both clamps: f2ui.rn of what they clamp, then a min. Without the
    // clamp at 255 (arvr-redundant-clamps proved the value below 255.5, or
    // NaN), f2ui.rn of what the clamp at 0 reads (its NaN and negatives
    // give 0 as the clamp would); without either (the value rounds into
    // [0, 255]), the conversion alone (out of range, fptoui's result is
    // poison, so any byte will do).
    Value in = round.getIn(), x;
    bool capped = false;
    if (Value below = arvr::clampedOperand<LLVM::MinNumOp>(in, 255.0)) {
      x = arvr::clampedOperand<LLVM::MaxNumOp>(below, 0.0);
      capped = true;
    } else if (Value floored = arvr::clampedOperand<LLVM::MaxNumOp>(in, 0.0)) {
      x = floored;
    } else if (!in.getDefiningOp<LLVM::MinNumOp>() &&
               !in.getDefiningOp<LLVM::MaxNumOp>()) {
      x = in;
    }
    if (!x)
      return failure();
    Location loc = convert.getLoc();
    Type i32 = rewriter.getI32Type();
    Value rounded =
        LLVM::CallIntrinsicOp::create(
            rewriter, loc, i32, rewriter.getStringAttr("llvm.nvvm.f2ui.rn"),
            ValueRange{x})
            .getResult(0);
    if (capped) {
      Value limit = LLVM::ConstantOp::create(rewriter, loc, i32,
                                             rewriter.getI32IntegerAttr(255));
      rounded = LLVM::UMinOp::create(rewriter, loc, i32, rounded, limit);
    }
    rewriter.replaceOpWithNewOp<LLVM::TruncOp>(convert, convert.getType(),
                                               rounded);
    return success();
  }
};

struct ArvrGpuSaturatingConvertPass
    : public arvr::impl::ArvrGpuSaturatingConvertBase<
          ArvrGpuSaturatingConvertPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<SaturatingU8Conversion>(&getContext());
    // Region simplification (erasing unreachable blocks, merging blocks)
    // is left to the canonicaliser at the end of the pipeline: on unrolled
    // kernels it cost more than the rewrites.
    GreedyRewriteConfig config;
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      return signalPassFailure();
  }
};

} // namespace
