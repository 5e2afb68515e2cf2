//===- GpuSaturatingFma.cpp - u8_sat of a value >= 0 or NaN by an FMA ----===//
//
// u8_sat(x) is `fptoui(roundeven(minnumf(maxnumf(x, 0), 255)))` to i8.
// arvr-redundant-clamps drops the clamps where x is known never NaN and
// rounding inside [0, 255]; a bilinear sample's value is not, as its
// weight u - floor(u) is NaN for an infinite or NaN u, and the clamps turn
// NaN into 0. On the GPU what is left is a float-to-integer conversion
// (F2I, on the SM's narrow conversion pipe, a quarter of the lanes an FMA
// gets) and a `min`: a lens pixel's three keep that pipe busy beside its
// six floors and six index conversions.
//
// Where FloatRanges.h finds x >= 0 or NaN, one saturating FMA
// (`fma.rn.sat.f32`, on the FMA pipe) and an integer `min` give the byte:
//
//   s = sat(x * 2^-149 + 0),  u8_sat(x) = min(bits(s), 255).
//
// 2^-149 is f32's least subnormal, and below 2^-126 the subnormals are the
// multiples of it: for x in [0, 2^23), x * 2^-149 rounds to nearest even
// onto k * 2^-149 with k = roundeven(x), whose bits are k; above, s is a
// normal f32 whose bits exceed 255 (so do +infinity's); NaN saturates to
// +0 (bits 0), and so does -0 * 2^-149 + 0. So the byte is the one the
// clamps and the conversion give, for every such x: an FMA and a `min`
// instead of a conversion and a `min`. (A negative x could round to -0,
// whose bits are not 0: hence x >= 0.) The chain must clamp at 0 first
// (maxnumf(x, 0), which turns NaN into 0), then at 255 or not at all. The
// CPU keeps the chain: the same bytes. Runs on the GPU after
// arvr-redundant-clamps, on the loops in the launches, late: the FMA is an
// `llvm.call_intrinsic`, which passes that move ops past others take for a
// write.
//
//===----------------------------------------------------------------------===//

#include "../Utils/FloatRanges.h"
#include "arvr/Lowering/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRGPUSATURATINGFMA
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;
using mlir::arvr::float_ranges::RangeAnalysis;
using FloatRange = mlir::arvr::float_ranges::Range;

namespace {

/// Whether `v` is the f32 constant `expected`.
bool isF32Constant(Value v, double expected) {
  FloatAttr attr;
  return matchPattern(v, m_Constant(&attr)) && attr.getType().isF32() &&
         attr.getValueAsDouble() == expected;
}

/// The x of `op(x, c)` or `op(c, x)` with c the constant `bound`, or null.
template <typename Op> Value clamped(Value v, double bound) {
  auto op = v.getDefiningOp<Op>();
  if (!op)
    return {};
  if (isF32Constant(op.getRhs(), bound))
    return op.getLhs();
  if (isF32Constant(op.getLhs(), bound))
    return op.getRhs();
  return {};
}

/// The x of u8_sat's chain `fptoui(roundeven([minnumf(] maxnumf(x, 0)
/// [, 255)]))` to i8 ending at `convert`, or null.
Value saturated(arith::FPToUIOp convert) {
  if (!convert.getType().isInteger(8))
    return {};
  auto round = convert.getIn().getDefiningOp<math::RoundEvenOp>();
  if (!round || !round.getType().isF32())
    return {};
  Value v = round.getOperand();
  if (Value below = clamped<arith::MinNumFOp>(v, 255.0))
    v = below;
  return clamped<arith::MaxNumFOp>(v, 0.0);
}

struct ArvrGpuSaturatingFmaPass
    : public arvr::impl::ArvrGpuSaturatingFmaBase<ArvrGpuSaturatingFmaPass> {
  void runOnOperation() override {
    SmallVector<std::pair<arith::FPToUIOp, Value>> found;
    getOperation().walk([&](gpu::LaunchOp launch) {
      RangeAnalysis ranges(launch);
      launch.getBody().walk([&](arith::FPToUIOp convert) {
        Value x = saturated(convert);
        if (!x)
          return;
        std::optional<FloatRange> r = ranges.orNaN(x);
        if (r && r->lo >= 0)
          found.push_back({convert, x});
      });
    });
    for (auto [convert, x] : found) {
      OpBuilder builder(convert);
      Location loc = convert.getLoc();
      Type f32 = builder.getF32Type();
      auto constant = [&](float v) -> Value {
        return arith::ConstantOp::create(builder, loc,
                                         builder.getF32FloatAttr(v));
      };
      Value s = LLVM::CallIntrinsicOp::create(
                    builder, loc, f32,
                    builder.getStringAttr("llvm.nvvm.fma.rn.sat.f"),
                    ValueRange{x, constant(0x1p-149f), constant(0.0f)})
                    .getResult(0);
      Type i32 = builder.getI32Type();
      Value bits = arith::BitcastOp::create(builder, loc, i32, s);
      Value byte = arith::TruncIOp::create(
          builder, loc, convert.getType(),
          arith::MinUIOp::create(
              builder, loc, bits,
              arith::ConstantIntOp::create(builder, loc, i32, 255)));
      // The rounding and clamps, now unused, go at the next
      // canonicalisation.
      convert.replaceAllUsesWith(byte);
      convert.erase();
    }
  }
};

} // namespace
