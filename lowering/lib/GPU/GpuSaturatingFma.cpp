//===- GpuSaturatingFma.cpp - u8_sat by a saturating FMA, no conversion ---===//
//
// u8_sat(x) is `fptoui(roundeven(minnumf(maxnumf(x, 0), 255)))` to i8. On
// the GPU it is a float-to-integer conversion (F2I, on the SM's narrow
// conversion pipe, a quarter of the lanes an FMA gets) and a `min`
// (arvr-gpu-saturating-convert); a lens pixel's three keep that pipe busy
// beside its six floors and six index conversions.
//
// One saturating FMA (`fma.rn.sat.f32`, on the FMA pipe) and the same
// integer `min` give the byte:
//
//   s = sat(x * 2^-149 + 0),  u8_sat(x) = min(bits(s), 255).
//
// 2^-149 is f32's least subnormal, and below 2^-126 the subnormals are its
// multiples: for x in [0, 2^23), x * 2^-149 rounds to nearest even onto
// k * 2^-149 with k = roundeven(x), whose bits are k; above, s is a normal
// f32 or 1 (+infinity), whose bits exceed 255; a negative x, -0 and NaN
// saturate to +0, bits 0 (on sm_90 a negative result rounding to -0 also
// saturates to +0: bench/probes/saturating_fma_check.cu checks all 2^32
// f32 patterns against the clamps and the conversion, 0 differ on an H100,
// 2026-12-07). So the byte is u8_sat's for every x: an FMA and a `min`
// instead of a conversion and a `min`. The chain's clamps at 0 (first) and
// 255 may be partly gone (arvr-redundant-clamps proved one idle: x is then
// above -1/2, or below 255.5, where the conversion is defined); without
// the clamp at 255 the bits are at most 255 and the `min` goes too (a
// bilinear sample's lerp of bytes: an instruction a channel, 1.6% of the
// lens at 4K batch 8 on an H100, 2026-12-07). Its place takes an integer
// move, `mov.b32`, which ptxas removes: given a byte store of the FMA's own
// register, ptxas (CUDA 13.0) emits a conversion of the float's value
// (F2IP.U8.F32.TRUNC, 0 for these subnormals; seen in the SASS, and every
// lens output 0, on the H100 2026-12-07 16:19). With both clamps gone the
// conversion alone is one instruction, and is left. The CPU keeps
// the chain: the same bytes. Runs on the GPU's loops in the launches, late:
// the FMA is an `llvm.call_intrinsic`, which passes that move ops past
// others take for a write.
//
//===----------------------------------------------------------------------===//

#include "../Utils/Clamps.h"
#include "arvr/Lowering/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRGPUSATURATINGFMA
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;

namespace {

/// The x of u8_sat's chain `fptoui(roundeven([minnumf(] [maxnumf(] x [,
/// 0)] [, 255)]))` to i8 ending at `convert`, with at least one clamp, or
/// null; `capped` says whether the clamp at 255 is there.
Value saturated(arith::FPToUIOp convert, bool &capped) {
  if (!convert.getType().isInteger(8))
    return {};
  auto round = convert.getIn().getDefiningOp<math::RoundEvenOp>();
  if (!round || !round.getType().isF32())
    return {};
  Value v = round.getOperand();
  Value below = arvr::clampedOperand<arith::MinNumFOp>(v, 255.0);
  capped = static_cast<bool>(below);
  if (below)
    v = below;
  Value above = arvr::clampedOperand<arith::MaxNumFOp>(v, 0.0);
  if (above)
    v = above;
  return below || above ? v : Value();
}

struct ArvrGpuSaturatingFmaPass
    : public arvr::impl::ArvrGpuSaturatingFmaBase<ArvrGpuSaturatingFmaPass> {
  void runOnOperation() override {
    SmallVector<std::tuple<arith::FPToUIOp, Value, bool>> found;
    getOperation().walk([&](gpu::LaunchOp launch) {
      launch.getBody().walk([&](arith::FPToUIOp convert) {
        bool capped = false;
        if (Value x = saturated(convert, capped))
          found.push_back({convert, x, capped});
      });
    });
    for (auto [convert, x, capped] : found) {
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
      if (capped) {
        Value top = arith::ConstantIntOp::create(builder, loc, i32, 255);
        bits = arith::MinUIOp::create(builder, loc, bits, top);
      } else {
        // Without the clamp at 255 (proved idle: x < 255.5), bits <= 255;
        // through an integer move, for ptxas (the file comment says why).
        bits =
            LLVM::CallIntrinsicOp::create(
                builder, loc, i32, builder.getStringAttr("llvm.nvvm.move.i32"),
                ValueRange{bits})
                .getResult(0);
      }
      Value byte =
          arith::TruncIOp::create(builder, loc, convert.getType(), bits);
      // The rounding and clamps, now unused, go at the next
      // canonicalisation.
      convert.replaceAllUsesWith(byte);
      convert.erase();
    }
  }
};

} // namespace
