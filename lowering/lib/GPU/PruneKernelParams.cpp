//===- PruneKernelParams.cpp - Kernel parameters never read dropped -------===//
//
// After convert-gpu-to-nvvm a kernel takes one parameter per word of its
// launch: each memref's descriptor (allocated and aligned pointers, offset,
// three sizes, three strides) and each scalar. Most descriptor words are
// never read (the allocated pointer, the offset, the sizes and strides the
// kernel knows when compiled): NV12's kernel reads 12 of its 30, the
// Gaussian's 9 of 22. Each one costs every launch: cuLaunchKernel copies
// it into the launch's parameter buffer.
//
// This pass drops the parameters a kernel's body never uses from its
// signature and records, on each gpu.launch_func of it, which of the
// launch's words the kernel still takes (`arvr.kernel_params`, ascending
// indices into the words its operands expand to, as the launch plan and
// the manifest list them): the plan's launch passes those words alone
// (its `params`, docs/launch-plan.md).
//
// Preconditions: the device code in the LLVM dialect (kernels are
// llvm.func in gpu.modules), the host's gpu.launch_func ops beside them.
// A kernel launched by no gpu.launch_func, or whose parameters are all
// read, is left as it is; so is every function that is not a kernel.
//
//===----------------------------------------------------------------------===//

#include "arvr/Lowering/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRPRUNEKERNELPARAMS
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;

namespace {

struct ArvrPruneKernelParamsPass
    : public arvr::impl::ArvrPruneKernelParamsBase<ArvrPruneKernelParamsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Each kernel's launches.
    llvm::MapVector<Operation *, SmallVector<gpu::LaunchFuncOp>> launches;
    SymbolTableCollection symbols;
    module.walk([&](gpu::LaunchFuncOp launch) {
      Operation *kernel =
          symbols.lookupNearestSymbolFrom(launch, launch.getKernelAttr());
      if (auto function = dyn_cast_or_null<LLVM::LLVMFuncOp>(kernel))
        launches[function].push_back(launch);
    });
    MLIRContext *context = module.getContext();
    for (auto &[op, kernelLaunches] : launches) {
      auto function = cast<LLVM::LLVMFuncOp>(op);
      if (function.isExternal() ||
          !function->hasAttr(gpu::GPUDialect::getKernelFuncAttrName()))
        continue;
      llvm::BitVector unread(function.getNumArguments());
      SmallVector<int32_t> kept;
      for (BlockArgument param : function.getArguments()) {
        if (param.use_empty())
          unread.set(param.getArgNumber());
        else
          kept.push_back(param.getArgNumber());
      }
      if (unread.none())
        continue;
      // The signature without them (LLVMFuncOp's own erasure refuses a
      // void function's type).
      LLVM::LLVMFunctionType type = function.getFunctionType();
      SmallVector<Type> params;
      for (int32_t index : kept)
        params.push_back(type.getParamType(index));
      auto pruned = LLVM::LLVMFunctionType::get(type.getReturnType(), params,
                                                type.isVarArg());
      function_interface_impl::eraseFunctionArguments(function, unread, pruned);
      auto attr = DenseI32ArrayAttr::get(context, kept);
      for (gpu::LaunchFuncOp launch : kernelLaunches)
        launch->setAttr(arvr::kKernelParamsAttrName, attr);
    }
  }
};

} // namespace
