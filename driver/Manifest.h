//===- Manifest.h - How to launch the PTX of a kernel without arvrc -*- C++
//-*-===//
//
// `arvrc build` writes, beside the PTX, a launch manifest: the kernel's
// arguments, the buffers of its intermediate stages, and each launch
// (entry, grid, block, shared memory, arguments), with every size written
// as a short program over the image sizes and scalars, as text
// (docs/manifest.md; bench/ reads it) and as a JSON launch plan
// (docs/launch-plan.md).
//
//===----------------------------------------------------------------------===//

#ifndef ARVRC_DRIVER_MANIFEST_H
#define ARVRC_DRIVER_MANIFEST_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace arvrc {

/// What a launch needs, read from the host code once: the form both the
/// text manifest (docs/manifest.md) and the JSON launch plan
/// (docs/launch-plan.md) are written from. An operand is `aN` (argument
/// N), `bK` (buffer K), `vK` (value K) or, for a static size, a decimal
/// integer.
/// Rows a band of a CPU launch at most, where bands may be short: a band's
/// intermediate stages (its rows and their halo) then stay in the caches,
/// and a frame's bands are spread over the threads as they finish (a 4K
/// Gaussian on 2 cores: 21 ms a frame, against 280 as two bands of 1080
/// rows).
constexpr int64_t kCpuBandRows = 64;

struct LaunchPlan {
  struct Argument {
    unsigned index;
    bool output;
    std::string name;
    bool image;                      ///< Else a scalar.
    std::string type;                ///< u8, u16, i32, f32, i1.
    std::optional<int64_t> channels; ///< Images: null when any.
    /// Scalars: the kernel's default value, if it has one.
    std::optional<double> defaultValue;
  };
  /// A value (`op` not empty) or a buffer (`op` empty), in the order a
  /// reader evaluates them.
  struct Definition {
    std::string id;
    unsigned bits = 0; ///< Values: wrapped to this width.
    std::string op;    ///< const, dim, cast, add, cmp, ...
    std::vector<std::string> operands;
    std::optional<int64_t> literal; ///< const's value, dim's dimension.
    std::string predicate;          ///< cmp's: eq ne slt sle sgt sge.
    /// An f32 value's (its bits then 32; computed as IEEE binary32):
    /// const's number, else the operation fadd fsub fmul fdiv fneg fma.
    bool f32 = false;
    double number = 0;
    unsigned elementBytes = 0; ///< Buffers.
    std::string sizes[3];      ///< Buffers: height, width, channels.
  };
  struct Launch {
    std::string entry;
    std::string grid[3], block[3], shared;
    std::vector<std::string> args;
    /// Its images are all parameter tables (arvr.parameter_table), which
    /// it writes from its other arguments alone: a caller that ran it with
    /// the same arguments, its buffers untouched since, may skip it.
    bool reusable = false;
  };
  /// A limit the arguments must keep for the kernel to run: a
  /// reduction's range (operands: lower and upper bound) of at most `max`
  /// values, or a function's extents (operands: its sizes) each 1 to
  /// `max`; `what` names it, located in the .arvr file.
  struct Check {
    bool range = true; ///< Else extents.
    std::vector<std::string> operands;
    int64_t max = 0;
    std::string what;
  };
  std::string kernel, binaryFile;
  /// CPU objects: rows a band at most (kCpuBandRows), or 0, one band per
  /// thread, where a stage reduces over the whole image or a function's
  /// declared extents are the image's (a band would redo the work).
  int64_t cpuBandRows = 0;
  bool cubin = false, batchGridZ = false;
  /// A CPU object's entry (`arvrc build --target cpu --emit=obj`): then
  /// there is no binary file, and no buffers or launches.
  std::string cpuEntry;
  unsigned indexBits = 32;
  std::vector<Argument> arguments;
  std::vector<std::pair<unsigned, std::vector<std::string>>> outputSizes;
  std::vector<Definition> definitions;
  std::vector<Launch> launches;
  std::vector<Check> checks;
};

/// The functions with extents of a kernel (`func f(x, y)[w, h] ...`): each
/// one's name and number of coordinates.
using BoundedFunctions = std::vector<std::pair<std::string, size_t>>;

/// What a plan says that the kernel in the arvr dialect (`arvr`, after the
/// dialect passes) tells: its arguments, its output sizes and its checks;
/// no binary or launches (for a CPU entry, and for the runner's checks).
bool buildKernelPlan(mlir::ModuleOp arvr, const std::string &kernel,
                     const BoundedFunctions &bounded, LaunchPlan &plan,
                     std::string &error);

/// Reads the plan of `kernel` from `lowered` (the CUDA pipeline's output,
/// host code included) and `arvr` (the same kernel as MLIRGen made it, for
/// its output size); `binaryFile` is the PTX (or, with `cubin`, the cubin)
/// beside it. False, with `error` set, if the host code holds something
/// the plan cannot say (a compiler bug).
bool buildLaunchPlan(mlir::ModuleOp lowered, mlir::ModuleOp arvr,
                     const std::string &kernel, const std::string &binaryFile,
                     bool cubin, LaunchPlan &plan, std::string &error,
                     const BoundedFunctions &bounded = {});

/// The text manifest of `plan` (docs/manifest.md, format 1).
void writeManifestText(const LaunchPlan &plan, llvm::raw_ostream &os);

/// The JSON launch plan of `plan` (docs/launch-plan.md, version 1).
void writeLaunchPlanJson(const LaunchPlan &plan, llvm::raw_ostream &os);

} // namespace arvrc

#endif // ARVRC_DRIVER_MANIFEST_H
