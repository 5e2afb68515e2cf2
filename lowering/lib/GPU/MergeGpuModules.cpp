//===- MergeGpuModules.cpp - One gpu.module, so one PTX file --------------===//
//
// gpu-kernel-outlining puts each outlined kernel in a gpu.module of its
// own; a kernel with intermediate stages launches several. This pass moves
// every gpu.func into the first gpu.module (renaming on a clash) and points
// the launches at it, so the module compiles to a single PTX file that one
// cuModuleLoad serves.
//
//===----------------------------------------------------------------------===//

#include "arvr/Lowering/Passes.h"

#include "mlir/IR/SymbolTable.h"

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRMERGEGPUMODULES
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;

namespace {

struct ArvrMergeGpuModulesPass
    : public arvr::impl::ArvrMergeGpuModulesBase<ArvrMergeGpuModulesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<gpu::GPUModuleOp> gpuModules(module.getOps<gpu::GPUModuleOp>());
    if (gpuModules.size() < 2)
      return;
    gpu::GPUModuleOp target = gpuModules.front();
    SymbolTable targetSymbols(target);

    // Where each kernel went: (old module, old name) -> new name.
    llvm::DenseMap<std::pair<StringAttr, StringAttr>, StringAttr> moved;
    for (gpu::GPUModuleOp source : llvm::drop_begin(gpuModules)) {
      for (Operation &op :
           llvm::make_early_inc_range(source.getBody()->without_terminator())) {
        auto symbol = dyn_cast<SymbolOpInterface>(op);
        StringAttr oldName = symbol ? symbol.getNameAttr() : StringAttr();
        op.remove();
        // Inserting renames the symbol if the name is taken.
        StringAttr newName = targetSymbols.insert(&op);
        if (oldName)
          moved[{source.getNameAttr(), oldName}] = newName;
      }
    }

    module.walk([&](gpu::LaunchFuncOp launch) {
      auto key =
          std::make_pair(launch.getKernelModuleName(), launch.getKernelName());
      auto it = moved.find(key);
      if (it == moved.end())
        return;
      launch.setKernelAttr(SymbolRefAttr::get(
          target.getNameAttr(), {FlatSymbolRefAttr::get(it->second)}));
    });
    for (gpu::GPUModuleOp source : llvm::drop_begin(gpuModules))
      source.erase();
  }
};

} // namespace
