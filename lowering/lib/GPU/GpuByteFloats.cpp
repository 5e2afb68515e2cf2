//===- GpuByteFloats.cpp - bytes of a word to f32 without a conversion ----===//
//
// A byte taken from a loaded vector and converted to f32,
// `uitofp(extractelement(v, k))`, is a PRMT that extracts the byte and an
// I2F that converts it; the conversion runs on the SM's narrow conversion
// pipe (a quarter or less of the FMA pipe's rate on sm_90), which a
// stencil's horizontal pass, one conversion per byte of its row, keeps
// busy. The same PRMT can place the byte under the exponent of 2^23
// instead, giving the float 2^23 + byte exactly, and one full-rate FADD of
// -2^23 leaves the byte's value: the same f32 for every byte, in as many
// instructions, none of them a conversion. Where the float's one user
// subtracts (or adds) a whole constant c, |c| <= 2^22, the bias joins it:
// (2^23 + b) - (2^23 + c) is b - c exactly, as b - c was.
//
// Matched on the kernels' LLVM dialect (after convert-gpu-to-nvvm), for
// vectors of a multiple of 4 bytes (the words arvr-wide-access loads).
// The CPU keeps uitofp, with the same results.
//
//===----------------------------------------------------------------------===//

#include "arvr/Lowering/Passes.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRGPUBYTEFLOATS
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;

namespace {

/// 2^23: a float with this exponent has units in its low mantissa bits.
constexpr double kBias = 8388608.0;
/// The bits of 2^23 as an f32.
constexpr int32_t kBiasBits = 0x4B000000;

/// The whole f32 constant `v` is, if it is one of magnitude at most 2^22.
static std::optional<double> smallWholeConstant(Value v) {
  FloatAttr attr;
  if (!matchPattern(v, m_Constant(&attr)) || !attr.getType().isF32())
    return std::nullopt;
  double c = attr.getValueAsDouble();
  if (std::trunc(c) != c || std::fabs(c) > kBias / 2)
    return std::nullopt;
  return c;
}

struct BiasedByteConversion : public OpRewritePattern<LLVM::UIToFPOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(LLVM::UIToFPOp convert,
                                PatternRewriter &rewriter) const override {
    if (!convert.getType().isF32() || !convert.getArg().getType().isInteger(8))
      return failure();
    auto extract = convert.getArg().getDefiningOp<LLVM::ExtractElementOp>();
    IntegerAttr position;
    if (!extract || !matchPattern(extract.getPosition(), m_Constant(&position)))
      return failure();
    auto vectorType = dyn_cast<VectorType>(extract.getVector().getType());
    int64_t bytes = vectorType ? vectorType.getNumElements() : 0;
    int64_t k = position.getValue().getSExtValue();
    if (bytes == 0 || bytes % 4 != 0 || vectorType.isScalable() || k < 0 ||
        k >= bytes)
      return failure();

    Location loc = convert.getLoc();
    Type i32 = rewriter.getI32Type();
    auto constant = [&](Type type, Attribute value) -> Value {
      return LLVM::ConstantOp::create(rewriter, loc, type,
                                      cast<TypedAttr>(value));
    };
    rewriter.setInsertionPoint(convert);
    // The word holding byte k.
    Value word;
    if (bytes == 4) {
      word = LLVM::BitcastOp::create(rewriter, loc, i32, extract.getVector());
    } else {
      auto words = LLVM::BitcastOp::create(rewriter, loc,
                                           VectorType::get({bytes / 4}, i32),
                                           extract.getVector());
      word = LLVM::ExtractElementOp::create(
          rewriter, loc, words,
          constant(rewriter.getI32Type(), rewriter.getI32IntegerAttr(k / 4)));
    }
    // Bytes (byte k, 0, 0, 0x4B) from the pool (word, 0x4B000000).
    Value biasBits = constant(i32, rewriter.getI32IntegerAttr(kBiasBits));
    Value selector =
        constant(i32, rewriter.getI32IntegerAttr(0x7540 | (k % 4)));
    Value biasedBits = NVVM::PermuteOp::create(
        rewriter, loc, i32, word, biasBits, selector,
        NVVM::PermuteModeAttr::get(rewriter.getContext(),
                                   NVVM::PermuteMode::DEFAULT));
    Type f32 = rewriter.getF32Type();
    Value biased = LLVM::BitcastOp::create(rewriter, loc, f32, biasedBits);

    // A whole constant subtracted or added by the one user: the bias joins
    // it.
    if (convert->hasOneUse()) {
      Operation *user = *convert->getUsers().begin();
      std::optional<double> c;
      if (auto sub = dyn_cast<LLVM::FSubOp>(user);
          sub && sub.getLhs() == convert.getResult() &&
          (c = smallWholeConstant(sub.getRhs()))) {
        Value folded = constant(f32, rewriter.getF32FloatAttr(kBias + *c));
        rewriter.modifyOpInPlace(sub, [&] {
          sub.getLhsMutable().assign(biased);
          sub.getRhsMutable().assign(folded);
        });
        rewriter.eraseOp(convert);
        return success();
      }
      if (auto add = dyn_cast<LLVM::FAddOp>(user)) {
        bool lhs = add.getLhs() == convert.getResult();
        Value other = lhs ? add.getRhs() : add.getLhs();
        if ((c = smallWholeConstant(other))) {
          Value folded = constant(f32, rewriter.getF32FloatAttr(*c - kBias));
          rewriter.modifyOpInPlace(add, [&] {
            add.getLhsMutable().assign(biased);
            add.getRhsMutable().assign(folded);
          });
          rewriter.eraseOp(convert);
          return success();
        }
      }
    }
    Value bias = constant(f32, rewriter.getF32FloatAttr(kBias));
    rewriter.replaceOpWithNewOp<LLVM::FSubOp>(convert, biased, bias);
    return success();
  }
};

struct ArvrGpuByteFloatsPass
    : public arvr::impl::ArvrGpuByteFloatsBase<ArvrGpuByteFloatsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<BiasedByteConversion>(&getContext());
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
