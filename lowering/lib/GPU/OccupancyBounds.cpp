//===- OccupancyBounds.cpp - Keep over half an SM's threads resident ------===//
//
// Gives each kernel (an llvm.func marked nvvm.kernel, with its block size in
// nvvm.maxntid) `nvvm.minctasm = min(32, T / threads per block)` (PTX's
// .minnctapersm, CUDA's __launch_bounds__(threads, blocks)) when that is 2
// or more, so that ptxas keeps each thread within 65536 / T registers and T
// threads can be resident to hide the latency of memory. Without it, a
// kernel whose unrolled stencil keeps many loads in flight takes up to 255
// registers and runs at a quarter of that or less.
//
// T is 1152 (56% of an sm_90 SM; 56 registers for a block of 128 threads):
// measured on the H200 (2026-12-05), the lens at 56 registers, no spills,
// ran 4% faster than at 64 (T = 1024) at every size, NV12 2-3%. Kernels
// that gather (a sample's taps, loaded at addresses computed from floats)
// had T = 1280 (48 registers) from 2026-12-06, when it made the lens 2%
// and warp_perspective 6% faster; since the lens's samples lost their
// `min`s and their tests (arvr-gpu-block-proofs), 56 registers are 3%
// faster for it at every size (H100, 2026-12-07 16:30, 4K batch 8: 44.1
// -> 42.8 us; 1080p batch 1: 18.0 -> 17.3), and warp_perspective takes 40
// registers under either bound: one T again. At 1280 the stencils lost
// (pyr_down 51.87 -> 53.99, stereo SAD 5200 -> 6422: their accumulators
// spill), so did bilateral (821.9 -> 830.7), and 1536 spilled the lens's
// 88 bytes (56.31 -> 72.97). A kernel whose blocks compute tiles in
// shared memory together (it has a block-wide barrier; a warp's staged
// stores have none) keeps
// T = 1024 (64 registers): its tiles, not its registers, bound how many of
// its blocks are resident (the Gaussian's 36 KB: 6 blocks of 128
// threads), and its reader's accumulators spilled at 56 (a Gaussian of
// radius 8: 192 -> 472 bytes). Blocks of 256 threads or more get 4 or 2;
// a kernel whose block alone has 1024 threads or more gets nothing; sm_90
// holds at most 32 blocks. Run after convert-gpu-to-nvvm.
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

/// The threads an SM should be able to hold of one kernel, and of one whose
/// blocks compute tiles in shared memory together.
constexpr int64_t kResidentThreads = 1152;
constexpr int64_t kResidentThreadsTiles = 1024;
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
      // A block-wide barrier: tiles the block computes together.
      bool tiles = func.walk([](Operation *op) {
                         return isa<NVVM::Barrier0Op, NVVM::BarrierOp>(op)
                                    ? WalkResult::interrupt()
                                    : WalkResult::advance();
                       })
                       .wasInterrupted();
      int64_t resident = tiles ? kResidentThreadsTiles : kResidentThreads;
      int64_t blocks =
          threads > 0 ? std::min(resident / threads, kMaxResidentBlocks) : 0;
      if (blocks < 2)
        return;
      func->setAttr(
          NVVM::NVVMDialect::getMinctasmAttrName(),
          IntegerAttr::get(IntegerType::get(&getContext(), 32), blocks));
    });
  }
};

} // namespace
