//===- GpuByteConversions.cpp - Bytes to floats and back, without cvt -----===//
//
// On sm_90 a conversion between a 32-bit integer and a float (I2F, F2I)
// issues at 16 per clock and multiprocessor, an eighth of the rate of an
// FMA; the image kernels convert every byte they read and every byte they
// write, so these conversions, not memory, bound them. Both directions
// have exact forms on the FMA and integer units, through the float
// 2^23 + n, whose low mantissa bits are the integer n (0 <= n < 2^23):
//
// - uitofp of an integer of at most 16 bits to f32 becomes
//   bitcast(zext(x) | 0x4B000000) - 2^23: an OR and an exact subtraction;
// - the lowered u8_sat, fptoui(roundeven(minnum(maxnum(x, 0), 255))) to
//   i8, becomes trunc(umin(bitcast(minnum(maxnum(x, 0), 255) + 2^23),
//   2^23 + 255's bits)) to i8 (the umin changes nothing; see below):
//   the addition rounds to the nearest integer, ties to even, as
//   roundeven does, and the clamp keeps the sum below 2^23 + 256 (NaN
//   became 0 in maxnum).
//
// A whole constant added to or subtracted from such a byte joins the 2^23
// (x - 2^23 - 128 as x - (2^23 + 128)), exactly.
//
// Both give the same bits as the conversions for every input, so CPU and
// CUDA outputs stay identical. Matched on the kernels' LLVM dialect, after
// convert-gpu-to-nvvm and arvr-native-gpu-math.
//
//===----------------------------------------------------------------------===//

#include "arvr/Lowering/Passes.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>
#include <type_traits>

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRGPUBYTECONVERSIONS
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;

namespace {

/// 2^23: the float whose mantissa's low bits are an integer added to it.
constexpr float kMantissaBias = 8388608.0f;
constexpr int32_t kMantissaBiasBits = 0x4B000000;

/// Whether `v` is the f32 constant `expected`.
static bool isF32Constant(Value v, double expected) {
  FloatAttr attr;
  return matchPattern(v, m_Constant(&attr)) && attr.getType().isF32() &&
         attr.getValueAsDouble() == expected;
}

/// The x of `op(x, c)` or `op(c, x)` with c the constant `bound`, or null.
template <typename Op> static Value operandBesides(Value v, double bound) {
  auto op = v.getDefiningOp<Op>();
  if (!op)
    return {};
  if (isF32Constant(op.getB(), bound))
    return op.getA();
  if (isF32Constant(op.getA(), bound))
    return op.getB();
  return {};
}

/// `type` with its element type replaced by `element` (a vector keeps its
/// shape).
static Type withElement(Type type, Type element) {
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.clone(element);
  return element;
}

/// A constant of `type` (scalar or splat vector) from `attr`.
static Value constantLike(PatternRewriter &rewriter, Location loc, Type type,
                          TypedAttr attr) {
  if (auto vector = dyn_cast<VectorType>(type))
    return LLVM::ConstantOp::create(
        rewriter, loc, type, SplatElementsAttr::get(vector, attr));
  return LLVM::ConstantOp::create(rewriter, loc, type, attr);
}

/// uitofp of a small unsigned integer to f32 through the float's bits.
struct SmallIntToFloat : public OpRewritePattern<LLVM::UIToFPOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(LLVM::UIToFPOp convert,
                                PatternRewriter &rewriter) const override {
    Type from = getElementTypeOrSelf(convert.getArg().getType());
    if (!getElementTypeOrSelf(convert.getType()).isF32() ||
        !from.isInteger() || from.getIntOrFloatBitWidth() > 16)
      return failure();
    Location loc = convert.getLoc();
    Type i32 = withElement(convert.getType(), rewriter.getI32Type());
    Value wide = LLVM::ZExtOp::create(rewriter, loc, i32, convert.getArg());
    Value bits = LLVM::OrOp::create(
        rewriter, loc, wide,
        constantLike(rewriter, loc, i32,
                     rewriter.getI32IntegerAttr(kMantissaBiasBits)));
    Value biased =
        LLVM::BitcastOp::create(rewriter, loc, convert.getType(), bits);
    rewriter.replaceOpWithNewOp<LLVM::FSubOp>(
        convert, biased,
        constantLike(rewriter, loc, convert.getType(),
                     rewriter.getF32FloatAttr(kMantissaBias)));
    return success();
  }
};

/// Whether `v` is `x - 2^23` with x the float 2^23 + n that SmallIntToFloat
/// builds (n < 2^16); sets `biased` to x.
static bool isUnbiasedSmallInt(Value v, Value &biased) {
  auto minus = v.getDefiningOp<LLVM::FSubOp>();
  if (!minus || !isF32Constant(minus.getRhs(), kMantissaBias))
    return false;
  auto cast = minus.getLhs().getDefiningOp<LLVM::BitcastOp>();
  auto bits = cast ? cast.getArg().getDefiningOp<LLVM::OrOp>() : nullptr;
  IntegerAttr mask;
  if (!bits || !matchPattern(bits.getRhs(), m_Constant(&mask)) ||
      mask.getInt() != kMantissaBiasBits)
    return false;
  auto wide = bits.getLhs().getDefiningOp<LLVM::ZExtOp>();
  if (!wide || wide.getArg().getType().getIntOrFloatBitWidth() > 16)
    return false;
  biased = minus.getLhs();
  return true;
}

/// (x - 2^23) + c as x + (c - 2^23), and (x - 2^23) - c as x - (c + 2^23),
/// for x as above and c a whole number of magnitude at most 2^23: every
/// value involved is a whole number below 2^24 in magnitude, so both forms
/// are exact (the same bits), and one subtraction goes.
template <typename Op>
struct FoldBiasIntoConstant : public OpRewritePattern<Op> {
  using OpRewritePattern<Op>::OpRewritePattern;

  LogicalResult matchAndRewrite(Op op,
                                PatternRewriter &rewriter) const override {
    constexpr bool isAdd = std::is_same_v<Op, LLVM::FAddOp>;
    Value lhs = op.getLhs(), rhs = op.getRhs();
    Value biased;
    if (isAdd && !isUnbiasedSmallInt(lhs, biased))
      std::swap(lhs, rhs);
    FloatAttr constant;
    if (!isUnbiasedSmallInt(lhs, biased) ||
        !matchPattern(rhs, m_Constant(&constant)) ||
        !constant.getType().isF32())
      return failure();
    double c = constant.getValueAsDouble();
    if (c != static_cast<double>(static_cast<int64_t>(c)) ||
        std::abs(c) > kMantissaBias)
      return failure();
    float folded = isAdd ? static_cast<float>(c - kMantissaBias)
                         : static_cast<float>(c + kMantissaBias);
    Value k = LLVM::ConstantOp::create(rewriter, op.getLoc(),
                                       rewriter.getF32Type(),
                                       rewriter.getF32FloatAttr(folded));
    rewriter.replaceOpWithNewOp<Op>(op, biased, k);
    return success();
  }
};

/// The lowered u8_sat: the clamped value plus 2^23, its low byte.
struct SaturatingU8Conversion : public OpRewritePattern<LLVM::FPToUIOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(LLVM::FPToUIOp convert,
                                PatternRewriter &rewriter) const override {
    if (!convert.getType().isInteger(8))
      return failure();
    auto round = convert.getArg().getDefiningOp<LLVM::RoundEvenOp>();
    if (!round || !round.getType().isF32())
      return failure();
    Value clamped = round.getIn();
    Value clampedBelow = operandBesides<LLVM::MinNumOp>(clamped, 255.0);
    if (!clampedBelow || !operandBesides<LLVM::MaxNumOp>(clampedBelow, 0.0))
      return failure();
    Location loc = convert.getLoc();
    Value sum = LLVM::FAddOp::create(
        rewriter, loc, clamped,
        constantLike(rewriter, loc, clamped.getType(),
                     rewriter.getF32FloatAttr(kMantissaBias)));
    Type i32 = rewriter.getI32Type();
    Value bits = LLVM::BitcastOp::create(rewriter, loc, i32, sum);
    // ptxas types a register by the instruction that writes it, and a
    // one-byte store of a register a float instruction wrote converts the
    // float (F2I.U8, measured on sm_90) instead of storing its low byte. An
    // integer op in between, one that LLVM cannot fold away and that
    // changes nothing (the bits are at most 2^23 + 255's), keeps the store
    // a store.
    Value top = LLVM::ConstantOp::create(
        rewriter, loc, i32, rewriter.getI32IntegerAttr(kMantissaBiasBits + 255));
    Value integer = LLVM::UMinOp::create(rewriter, loc, i32, bits, top);
    rewriter.replaceOpWithNewOp<LLVM::TruncOp>(convert, convert.getType(),
                                               integer);
    return success();
  }
};

struct ArvrGpuByteConversionsPass
    : public arvr::impl::ArvrGpuByteConversionsBase<
          ArvrGpuByteConversionsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<SmallIntToFloat, SaturatingU8Conversion,
                 FoldBiasIntoConstant<LLVM::FAddOp>,
                 FoldBiasIntoConstant<LLVM::FSubOp>>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
