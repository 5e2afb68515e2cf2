//===- Runner.h - Running a compiled kernel on images -----------*- C++ -*-===//
//
// Binds images and scalars to a kernel's parameters and runs it through
// the runtime library (runtime/, arvr/runtime.h), from its launch plan: on
// the CPU, the entry MLIR's ExecutionEngine JIT-compiled, as a CPU object's
// kernel; on the GPU, the PTX, with copies to and from the device around
// the library's launches.
//
//===----------------------------------------------------------------------===//

#ifndef ARVRC_DRIVER_RUNNER_H
#define ARVRC_DRIVER_RUNNER_H

#include "CudaDriver.h"
#include "Image.h"
#include "Plan.h"
#include "arvr/runtime.h"

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

/// The runtime's view of `bindings` (runtime/lib/Plan.h), argument by
/// argument as the plan lists them: each image's shape and the address of
/// its pixels in host memory, each scalar's bits.
std::vector<::arvr::runtime::Binding> planBindings(const Bindings &bindings);

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
  /// Runs the kernel named `kernel`, whose launch plan is `plan` (JSON),
  /// through the runtime library as a CPU object's kernel
  /// (arvr_kernel_open_cpu with the JIT's entry): one band of rows per
  /// core.
  bool run(const std::string &kernel, const std::string &plan,
           Bindings &bindings, std::string &error);
  /// Whether the machine code was read from the object cache.
  bool fromObjectCache() const { return jit != nullptr; }

private:
  CpuKernels() = default;
  /// The packed entry of `kernel` (`void(void **)`), or null (error set).
  void (*entry(const std::string &kernel, std::string &error))(void **);
  std::unique_ptr<mlir::ExecutionEngine> engine;
  std::unique_ptr<llvm::orc::LLJIT> jit; ///< When read from the cache.
  /// The runtime's kernel of each entry run so far.
  std::map<std::string, arvr_kernel *> opened;
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

namespace arvrc {

/// A kernel compiled to PTX (or a cubin), run through the runtime library
/// (arvr_kernel_open_data) from its launch plan: arvrc's runner uses the
/// plan as any user's program does, and never reads host code.
class CudaKernels {
public:
  /// `plan`: the launch plan's JSON; `binary`: its PTX or cubin.
  CudaKernels(std::string plan, std::string binary, bool batchGridZ,
              CudaDriver &driver);
  ~CudaKernels();
  /// Runs the kernel on `bindings`, to the end; adds to `times` if given.
  bool run(Bindings &bindings, std::string &error, RunTimes *times = nullptr);

  /// Frames in flight, for many frames: submit() queues a frame's uploads,
  /// launches and downloads on its slot's stream and returns; finish()
  /// waits for them and fills the frame's outputs. Frames on two slots
  /// overlap: one's copies with the other's kernels. Each slot has its own
  /// runtime kernel (and so its own intermediate buffers).
  std::shared_ptr<CudaSlot> createSlot(std::string &error);
  /// `bindings` must live, and its outputs stay where they are, until
  /// finish() on the same slot.
  bool submit(Bindings &bindings, CudaSlot &slot, std::string &error);
  /// A batch of frames of the same sizes (and scalars) as one submission:
  /// their images stacked, each launch once for them all (for a kernel
  /// that takesBatches(); one frame otherwise).
  bool submit(llvm::ArrayRef<Bindings *> frames, CudaSlot &slot,
              std::string &error);
  /// Whether the kernel's launches take stacked frames (the plan's batch).
  bool takesBatches() const { return batchGridZ; }
  bool finish(CudaSlot &slot, std::string &error, RunTimes *times = nullptr);

private:
  std::string plan, binary;
  bool batchGridZ;
  CudaDriver &driver;
};

} // namespace arvrc

#endif // ARVRC_DRIVER_RUNNER_H
