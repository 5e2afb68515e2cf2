//===- OccupancyBounds.cpp - Keep half an SM's threads resident -----------===//
//
// Gives each kernel (an llvm.func marked nvvm.kernel, with its block size in
// nvvm.maxntid) `nvvm.minctasm = max(1, 1024 / threads per block)` (PTX's
// .minnctapersm, CUDA's __launch_bounds__(threads, blocks)): ptxas then
// keeps each thread within 65536 / 1024 = 64 registers, so that at least
// 1024 threads (half an sm_90 SM) can be resident and hide the latency of
// memory. Without it, a kernel whose unrolled stencil keeps many loads in
// flight takes up to 255 registers and runs at a quarter of that or less.
// A kernel whose block alone has 1024 threads or more gets nothing. Run
// after convert-gpu-to-nvvm.
//
//===----------------------------------------------------------------------===//

#include "arvr/Lowering/Passes.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVROCCUPANCYBOUNDS
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;

namespace {

/// The threads an SM should be able to hold of one kernel.
constexpr int64_t kResidentThreads = 1024;

struct ArvrOccupancyBoundsPass
    : public arvr::impl::ArvrOccupancyBoundsBase<ArvrOccupancyBoundsPass> {
  void runOnOperation() override {
    getOperation().walk([&](LLVM::LLVMFuncOp func) {
      auto block = func->getAttrOfType<DenseI32ArrayAttr>(
          NVVM::NVVMDialect::getMaxntidAttrName());
      if (!block || !func->hasAttr(NVVM::NVVMDialect::getKernelFuncAttrName()))
        return;
      int64_t threads = 1;
      for (int32_t extent : block.asArrayRef())
        threads *= extent;
      int64_t blocks = threads > 0 ? kResidentThreads / threads : 0;
      if (blocks < 2)
        return;
      func->setAttr(
          NVVM::NVVMDialect::getMinctasmAttrName(),
          IntegerAttr::get(IntegerType::get(&getContext(), 32), blocks));
    });
  }
};

} // namespace
