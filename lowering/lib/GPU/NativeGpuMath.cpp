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
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRNATIVEGPUMATH
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;

namespace {

/// Builds the intrinsic replacing a libdevice call, from its operands.
using IntrinsicBuilder = Value (*)(RewriterBase &, Location, ValueRange);

template <typename IntrinsicOp>
Value build(RewriterBase &rewriter, Location loc, ValueRange operands) {
  return IntrinsicOp::create(rewriter, loc, operands.front().getType(),
                             operands);
}

/// |x| of an i32, with abs(INT_MIN) == INT_MIN as libdevice's __nv_abs.
Value buildIntAbs(RewriterBase &rewriter, Location loc, ValueRange operands) {
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

struct ArvrNativeGpuMathPass
    : public arvr::impl::ArvrNativeGpuMathBase<ArvrNativeGpuMathPass> {
  using ArvrNativeGpuMathBase::ArvrNativeGpuMathBase;

  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    // One walk finds the calls and what else names a function. Folding and
    // region simplification are left to the canonicaliser at the end of the
    // pipeline (a greedy rewrite of the unrolled kernels cost more than the
    // replacements).
    SmallVector<LLVM::CallOp> native;
    llvm::StringSet<> named;
    module.walk([&](Operation *op) {
      if (auto call = dyn_cast<LLVM::CallOp>(op)) {
        std::optional<StringRef> callee = call.getCallee();
        if (callee && call.getNumResults() == 1 &&
            getNativeFunctions().count(*callee))
          native.push_back(call);
        else if (callee)
          named.insert(*callee);
      } else if (auto address = dyn_cast<LLVM::AddressOfOp>(op)) {
        named.insert(address.getGlobalName());
      }
    });
    IRRewriter rewriter(&getContext());
    for (LLVM::CallOp call : native) {
      rewriter.setInsertionPoint(call);
      IntrinsicBuilder build = getNativeFunctions().lookup(*call.getCallee());
      rewriter.replaceOp(call,
                         build(rewriter, call.getLoc(), call.getArgOperands()));
    }
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
          !named.contains(func.getName()))
        func.erase();
  }
};

} // namespace
