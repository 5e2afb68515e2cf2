//===- Runner.h - Running a compiled kernel on images -----------*- C++ -*-===//
//
// Binds images and scalars to a kernel's parameters and runs the lowered
// module: on the CPU through MLIR's ExecutionEngine (JIT), or on the GPU by
// loading the PTX with the CUDA driver and launching each kernel with the
// geometry the host code computes.
//
//===----------------------------------------------------------------------===//

#ifndef ARVRC_DRIVER_RUNNER_H
#define ARVRC_DRIVER_RUNNER_H

#include "CudaDriver.h"
#include "Image.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/ArrayRef.h"

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
class ExecutionEngine;
} // namespace mlir

namespace llvm::orc {
class LLJIT;
} // namespace llvm::orc

namespace arvrc {

/// The value of one argument of the lowered kernel: an image, or a scalar.
/// Parameters map to arguments one to one, but an NV12 frame gives two
/// images (its Y and UV planes).
struct ArgValue {
  bool isImage = false;
  Image image;
  union {
    float f32;
    int32_t i32;
    uint8_t boolean;
  } scalar = {0};
};

/// Everything a kernel reads and writes, in argument order.
struct Bindings {
  std::vector<ArgValue> args;
  /// The kernel's outputs, in order: sized by the caller, filled by the run.
  std::vector<Image> outputs;

  /// Kernel argument `index`'s image: a bound image or, after the bound
  /// arguments, an output.
  const Image &getImage(unsigned index) const {
    return index < args.size() ? args[index].image
                               : outputs[index - args.size()];
  }
  Image &getImage(unsigned index) {
    return index < args.size() ? args[index].image
                               : outputs[index - args.size()];
  }
  unsigned getNumArgs() const { return args.size() + outputs.size(); }
};

/// The sizes (width, height, channels) of the outputs of the kernel named
/// `kernel`, in a module still in the arvr dialect, for the images and
/// scalars bound: the sizes of its output stages, evaluated. nullopt if they
/// cannot be evaluated (a compiler error).
std::optional<std::vector<std::array<int64_t, 3>>>
evaluateOutputSizes(mlir::ModuleOp module, const std::string &kernel,
                    const Bindings &bindings);

/// Checks that every reduction of `kernel` (in a module still in the arvr
/// dialect) ranges over at most arvr::kMaxReductionRange values for the
/// scalars bound; false with `error` (located in the .arvr file) if not.
bool checkReductionRanges(mlir::ModuleOp module, const std::string &kernel,
                          const Bindings &bindings, std::string &error);

/// Checks that the stages of the functions in `bounded` (functions with
/// extents, `func f(x, y)[w, h] mirror`: their names and numbers of
/// coordinates) of `kernel` are 1 to kMaxImageSide points a side for the
/// scalars and images bound; false with `error` (located at the function
/// in the .arvr file) if not.
bool checkFunctionExtents(
    mlir::ModuleOp module, const std::string &kernel,
    const std::vector<std::pair<std::string, size_t>> &bounded,
    const Bindings &bindings, std::string &error);

/// A module lowered by the CPU pipeline, JIT-compiled once, whose kernels
/// can then run on any number of images.
class CpuKernels {
public:
  /// With `objectCache` (a compile-cache entry's path), the machine code
  /// is kept beside it, for this host's CPU, and read back from there by
  /// a later run instead of being generated again.
  static std::unique_ptr<CpuKernels>
  create(mlir::ModuleOp module, std::string &error,
         const std::string &objectCache = "");
  ~CpuKernels();
  /// Runs the kernel named `kernel`, one band of rows per core.
  bool run(const std::string &kernel, Bindings &bindings, std::string &error);
  /// Whether the machine code was read from the object cache.
  bool fromObjectCache() const { return jit != nullptr; }

private:
  CpuKernels() = default;
  /// The packed entry of `kernel` (`void(void **)`), or null (error set).
  void (*entry(const std::string &kernel, std::string &error))(void **);
  std::unique_ptr<mlir::ExecutionEngine> engine;
  std::unique_ptr<llvm::orc::LLJIT> jit; ///< When read from the cache.
};

/// Where the time of a GPU run goes, in seconds (summed over runs): copies
/// to the device (with allocations), the kernels, copies back.
struct RunTimes {
  double upload = 0, kernels = 0, download = 0;
};

/// The GPU resources of one frame in flight: a CUDA stream, its events,
/// device buffers and page-locked staging, reused by the next frame.
struct CudaSlot;
} // namespace arvrc

namespace mlir::gpu {
class LaunchFuncOp;
} // namespace mlir::gpu

namespace arvrc {

/// A module lowered by the CUDA pipeline to PTX, whose kernels run on any
/// number of images; each PTX module is loaded (JIT-compiled by the
/// driver) on first use and kept until this object goes.
class CudaKernels {
public:
  CudaKernels(mlir::ModuleOp module, CudaDriver &driver);
  ~CudaKernels();
  /// Runs the kernel named `kernel` on `bindings`, to the end; adds to
  /// `times` if given.
  bool run(const std::string &kernel, Bindings &bindings, std::string &error,
           RunTimes *times = nullptr);

  /// Frames in flight, for many frames: submit() queues a frame's uploads,
  /// launches and downloads on its slot's stream and returns; finish()
  /// waits for them and fills the frame's outputs. Frames on two slots
  /// overlap: one's copies with the other's kernels.
  std::shared_ptr<CudaSlot> createSlot(std::string &error);
  /// `bindings` must live, and its outputs stay where they are, until
  /// finish() on the same slot.
  bool submit(const std::string &kernel, Bindings &bindings, CudaSlot &slot,
              std::string &error);
  /// A batch of frames of the same sizes (and scalars) as one submission:
  /// their images stacked, each launch once for them all (for a kernel
  /// that takesBatches(); one frame otherwise).
  bool submit(const std::string &kernel, llvm::ArrayRef<Bindings *> frames,
              CudaSlot &slot, std::string &error);
  /// Whether the kernel's launches take stacked frames (arvr-batch-frames).
  bool takesBatches(const std::string &kernel);
  bool finish(CudaSlot &slot, std::string &error, RunTimes *times = nullptr);

private:
  /// The function of `launch`, its module loaded on first use; null (error
  /// set) if that fails.
  void *functionOf(mlir::gpu::LaunchFuncOp launch, std::string &error);

  mlir::ModuleOp module;
  CudaDriver &driver;
  std::map<std::string, void *> loadedModules;
};

} // namespace arvrc

#endif // ARVRC_DRIVER_RUNNER_H
