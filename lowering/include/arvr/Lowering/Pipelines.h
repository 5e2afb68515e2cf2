//===- Pipelines.h - From arvr to PTX and to CPU code -----------*- C++ -*-===//
//
// The two pass pipelines of arvrc, each built by one function that reads
// top to bottom, and the points where `--emit` can stop them.
//
//===----------------------------------------------------------------------===//

#ifndef ARVR_LOWERING_PIPELINES_H
#define ARVR_LOWERING_PIPELINES_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <string>

namespace mlir {
class DialectRegistry;
class OpPassManager;

namespace arvr {

/// How far a pipeline goes, in order.
enum class LoweringStage {
  Loops, ///< scf.parallel over memrefs (convert-arvr-to-loops).
  Gpu,   ///< CUDA: launches outlined into a gpu.module. CPU: same as Loops.
  Llvm,  ///< LLVM dialect (the gpu.module's NVVM for CUDA).
  Binary ///< CUDA: gpu.binary holding PTX. CPU: same as Llvm.
};

struct CudaPipelineOptions {
  std::string chip = "sm_90"; ///< nvvm-attach-target chip.
  /// LLVM optimisation level for the device code. 2 builds pyr_down and
  /// bilateral in two thirds of the time, with the same PTX as 3 for the
  /// lens, the Gaussian, NV12, Harris and warp, but made stereo SAD 2.1x
  /// and bilateral 1.05x slower (H100, 2026-12-05 14:48): 3.
  unsigned optLevel = 3;
  int64_t blockX = 32; ///< Threads per block along x.
  int64_t blockY = 8;  ///< Threads per block along y.
  /// The CUDA toolkit, whose libdevice provides exp, log, sin, ... on the
  /// GPU; empty when there is none (then kernels using them are refused).
  std::string cudaPath;
  /// Assemble the PTX into a cubin with the toolkit's ptxas (needs
  /// cudaPath) instead of stopping at PTX.
  bool cubin = false;
  /// Opt-in inexact arithmetic (arvr-fast-reciprocal), as on the CPU.
  bool fastMath = false;
  /// Opt-in, an experiment not yet measured on the GPU: proved blocks'
  /// sample boxes staged in shared memory (arvr-gpu-stage-samples).
  bool stageSamples = false;
};

/// The CUDA toolkit with libdevice: $CUDA_HOME, $CUDA_PATH or
/// /usr/local/cuda, the first that has nvvm/libdevice; "" if none has.
std::string findCudaToolkit();

/// The dialect passes both pipelines start with: the `specialize` values
/// (`name=value`, see arvr-specialize) made constants, inline stages inlined,
/// canonicalised, every read without boundary proved in range, NV12 frames
/// split into their planes. The driver runs them on the kernel as
/// generated, keeps a copy, then runs the rest of a pipeline.
void buildArvrPipeline(OpPassManager &pm,
                       llvm::ArrayRef<std::string> specialize = {});

/// arvr -> loops -> gpu.launch -> outlined gpu.module -> NVVM -> PTX;
/// without the dialect passes if `arvrPasses` is false (they have run).
void buildCudaPipeline(OpPassManager &pm, const CudaPipelineOptions &options,
                       LoweringStage stopAfter = LoweringStage::Binary,
                       bool arvrPasses = true);

/// arvr -> loops -> LLVM dialect, ready for the ExecutionEngine.
/// `fastMath`: opt-in inexact arithmetic, as in the CUDA pipeline.
void buildCpuPipeline(OpPassManager &pm,
                      LoweringStage stopAfter = LoweringStage::Binary,
                      bool arvrPasses = true, bool fastMath = false);

/// Registers every dialect and interface the pipelines need.
void registerPipelineDialects(DialectRegistry &registry);

/// Registers `arvr-cuda-pipeline` and `arvr-cpu-pipeline` for arvr-opt.
void registerArvrPipelines();

} // namespace arvr
} // namespace mlir

#endif // ARVR_LOWERING_PIPELINES_H
