//===- OccupancyBounds.cpp - Keep over half an SM's threads resident ------===//
//
// Gives each kernel (an llvm.func marked nvvm.kernel, with its block size in
// nvvm.maxntid) `nvvm.minctasm = min(32, 1152 / threads per block)` (PTX's
// .minnctapersm, CUDA's __launch_bounds__(threads, blocks)) when that is 2
// or more: ptxas then keeps each thread within 65536 / 1152 = 56 registers
// (a block of 128 threads: 9 blocks), so that 1152 threads (56% of an
// sm_90 SM) can be resident and hide the latency of memory. Without it, a
// kernel whose unrolled stencil keeps many loads in flight takes up to 255
// registers and runs at a quarter of that or less. The figure was measured
// on the H200 (2026-12-05): the lens at 56 registers, no spills, ran 4%
// faster than at 64 (1024 threads) at every size; 48 would spill it. Blocks
// of 256 threads or more get what 1024 gave them (4, 2); a kernel whose
// block alone has 1024 threads or more gets nothing; sm_90 holds at most
// 32 blocks. Run after convert-gpu-to-nvvm.
//
//===----------------------------------------------------------------------===//

#include "arvr/Lowering/Passes.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

#include <algorithm>

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVROCCUPANCYBOUNDS
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;

namespace {

/// The threads an SM should be able to hold of one kernel.
constexpr int64_t kResidentThreads = 1152;
/// The most blocks an sm_90 SM holds.
constexpr int64_t kMaxResidentBlocks = 32;

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
      int64_t blocks =
          threads > 0 ? std::min(kResidentThreads / threads, kMaxResidentBlocks)
                      : 0;
      if (blocks < 2)
        return;
      func->setAttr(
          NVVM::NVVMDialect::getMinctasmAttrName(),
          IntegerAttr::get(IntegerType::get(&getContext(), 32), blocks));
    });
  }
};

} // namespace
