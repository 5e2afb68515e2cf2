//===- NativeGpuMath.cpp - libdevice calls with one PTX instruction -------===//
//
// Replaces calls to libdevice functions that PTX executes in one
// instruction by the matching LLVM intrinsics, so the PTX needs no library.
//
// Preconditions: the gpu.module is in the LLVM/NVVM dialects (after
// convert-gpu-to-nvvm). Afterwards no call to a listed function is left and
// their unused declarations are gone; the NVPTX backend selects the
// intrinsics as cvt.rni/rmi/rpi/rzi, abs, sqrt.rn, fma.rn, min/max.
//
//===----------------------------------------------------------------------===//

#include "arvr/Lowering/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRNATIVEGPUMATH
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;

namespace {

/// Builds the intrinsic replacing a libdevice call, from its operands.
using IntrinsicBuilder = Value (*)(PatternRewriter &, Location, ValueRange);

template <typename IntrinsicOp>
Value build(PatternRewriter &rewriter, Location loc, ValueRange operands) {
  return IntrinsicOp::create(rewriter, loc, operands.front().getType(),
                             operands);
}

/// |x| of an i32, with abs(INT_MIN) == INT_MIN as libdevice's __nv_abs.
Value buildIntAbs(PatternRewriter &rewriter, Location loc,
                  ValueRange operands) {
  return LLVM::AbsOp::create(rewriter, loc, operands.front().getType(),
                             operands.front(), /*is_int_min_poison=*/false);
}

/// libdevice function -> the intrinsic with the same result for all inputs
/// (IEEE rounding, NaN handling as libdevice's non-fast versions).
const llvm::StringMap<IntrinsicBuilder> &getNativeFunctions() {
  static const llvm::StringMap<IntrinsicBuilder> functions = {
      {"__nv_rintf", build<LLVM::RoundEvenOp>},
      {"__nv_floorf", build<LLVM::FFloorOp>},
      {"__nv_ceilf", build<LLVM::FCeilOp>},
      {"__nv_truncf", build<LLVM::FTruncOp>},
      {"__nv_fabsf", build<LLVM::FAbsOp>},
      {"__nv_sqrtf", build<LLVM::SqrtOp>},
      {"__nv_fmaf", build<LLVM::FMAOp>},
      {"__nv_fminf", build<LLVM::MinNumOp>},
      {"__nv_fmaxf", build<LLVM::MaxNumOp>},
      {"__nv_abs", buildIntAbs},
  };
  return functions;
}

struct CallToIntrinsic : public OpRewritePattern<LLVM::CallOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(LLVM::CallOp call,
                                PatternRewriter &rewriter) const override {
    std::optional<StringRef> callee = call.getCallee();
    if (!callee)
      return rewriter.notifyMatchFailure(call, "indirect call");
    auto it = getNativeFunctions().find(*callee);
    if (it == getNativeFunctions().end() || call.getNumResults() != 1)
      return rewriter.notifyMatchFailure(call, "not a native function");
    rewriter.replaceOp(
        call, it->second(rewriter, call.getLoc(), call.getArgOperands()));
    return success();
  }
};

struct ArvrNativeGpuMathPass
    : public arvr::impl::ArvrNativeGpuMathBase<ArvrNativeGpuMathPass> {
  using ArvrNativeGpuMathBase::ArvrNativeGpuMathBase;

  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    RewritePatternSet patterns(&getContext());
    patterns.add<CallToIntrinsic>(&getContext());
    // Region simplification (erasing unreachable blocks, merging blocks)
    // is left to the canonicaliser at the end of the pipeline: on unrolled
    // kernels it cost more than the rewrites.
    GreedyRewriteConfig config;
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(applyPatternsGreedily(module, std::move(patterns), config)))
      return signalPassFailure();
    if (!libdevice) {
      // What is left needs libdevice, which will not be linked.
      bool missing = false;
      module.walk([&](LLVM::CallOp call) {
        std::optional<StringRef> callee = call.getCallee();
        if (!callee || !callee->starts_with("__nv_"))
          return;
        StringRef name = callee->drop_front(5);
        name.consume_back("f");
        call.emitError("'")
            << name
            << "' on the GPU needs libdevice from the CUDA toolkit, and none "
               "was found; set CUDA_HOME to the toolkit's folder";
        missing = true;
      });
      if (missing)
        return signalPassFailure();
    }
    // Declarations nobody calls any more.
    for (auto func :
         llvm::make_early_inc_range(module.getOps<LLVM::LLVMFuncOp>()))
      if (func.isExternal() && getNativeFunctions().count(func.getName()) &&
          SymbolTable::symbolKnownUseEmpty(func, module))
        func.erase();
  }
};

} // namespace
