//===- Runtime.cpp - The arvr runtime's C API -----------------------------===//
//
// arvr_kernel: a launch plan (Plan.h) with its binary, the caller's
// bindings, and, once launched, the CUDA module and the intermediate
// buffers, reused by later launches while large enough; or, for a CPU
// object (arvr_kernel_open_cpu), the plan and the object's entry, run on
// host memory in bands of rows. Every entry point
// checks its arguments and returns a status with the reason in a
// thread-local message; nothing throws or aborts.
//
//===----------------------------------------------------------------------===//

#include "arvr/runtime.h"

#include "CudaDriver.h"
#include "Plan.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <system_error>
#include <thread>

using namespace arvr::runtime;

/// A launch as it ran: its parameters' words, its geometry, its stream.
struct LastRun {
  std::vector<uint64_t> storage;
  std::array<unsigned, 7> geometry;
  void *stream;
  bool operator==(const LastRun &other) const {
    return storage == other.storage && geometry == other.geometry &&
           stream == other.stream;
  }
};

struct arvr_kernel {
  Plan plan;
  /// A CPU object's entry (arvr_kernel_open_cpu); else the PTX or cubin.
  arvr_cpu_entry cpuEntry = nullptr;
  std::string binary;
  std::vector<Binding> bindings;
  std::unique_ptr<arvrc::CudaDriver> cuda;
  void *module = nullptr;
  std::map<std::string, void *> functions;
  std::vector<arvrc::DevicePtr> buffers;
  std::vector<size_t> bufferBytes;
  /// The launches resolved for the bindings and frame count of the last
  /// preparation, launched again as they are until a binding changes.
  std::vector<ResolvedLaunch> resolved;
  int resolvedFrames = 0;
  bool dirty = true;
  /// Only images' addresses changed since the launches were resolved (the
  /// same shapes): the launches are patched, not resolved again.
  bool moved = false;
  /// What each launch the plan calls reusable last ran with, by its index
  /// in `resolved` (none since the buffers were last allocated: empty): a
  /// launch of the same arguments, geometry and stream is skipped, its
  /// buffers holding what it would write again.
  std::map<size_t, LastRun> lastRuns;
};

namespace {

thread_local std::string lastError;

arvr_status fail(arvr_status status, std::string message) {
  lastError = std::move(message);
  return status;
}

int elementBytes(const std::string &type) {
  return type == "u8" ? 1 : type == "u16" ? 2 : 4;
}

/// Whether `index` names an argument of `kernel` of the kind asked.
arvr_status checkArg(const arvr_kernel *kernel, int index, bool image,
                     const char *what) {
  if (!kernel)
    return fail(ARVR_ERROR_INVALID_ARGUMENT,
                std::string(what) + ": the kernel is null");
  if (index < 0 || index >= static_cast<int>(kernel->plan.arguments.size()))
    return fail(ARVR_ERROR_INVALID_ARGUMENT,
                std::string(what) + ": kernel '" + kernel->plan.kernel +
                    "' has no argument " + std::to_string(index));
  const PlanArgument &arg = kernel->plan.arguments[index];
  if (arg.image != image)
    return fail(ARVR_ERROR_INVALID_ARGUMENT,
                std::string(what) + ": argument '" + arg.name + "' is " +
                    (arg.image ? "an image" : "a scalar of type " + arg.type));
  return ARVR_OK;
}

arvr_status bindScalar(arvr_kernel *kernel, int index, const char *type,
                       uint64_t bits, const char *what) {
  if (arvr_status s = checkArg(kernel, index, false, what))
    return s;
  const PlanArgument &arg = kernel->plan.arguments[index];
  if (arg.type != type)
    return fail(ARVR_ERROR_INVALID_ARGUMENT,
                std::string(what) + ": argument '" + arg.name + "' is " +
                    arg.type + ", not " + type);
  Binding &b = kernel->bindings[index];
  if (b.bound && b.scalarBits == bits)
    return ARVR_OK; // The same value: the launches stand.
  b.bound = true;
  b.scalarBits = bits;
  kernel->dirty = true;
  return ARVR_OK;
}

/// The CUDA driver, the module and the buffers `e` asks for, at least.
arvr_status prepare(arvr_kernel *k, const Evaluation &e, int frames) {
  if (!k->cuda) {
    std::string whyNot;
    k->cuda = arvrc::CudaDriver::open(whyNot);
    if (!k->cuda)
      return fail(ARVR_ERROR_CUDA, whyNot);
  }
  if (!k->module) {
    if (!k->cuda->loadModule(k->binary, k->module))
      return fail(ARVR_ERROR_CUDA,
                  k->plan.binaryFile + ": " + k->cuda->getLastError());
    for (const PlanLaunch &l : k->plan.launches) {
      void *f = nullptr;
      if (!k->cuda->getFunction(k->module, l.entry, f))
        return fail(ARVR_ERROR_CUDA, k->plan.binaryFile + ": no entry " +
                                         l.entry + " (" +
                                         k->cuda->getLastError() + ")");
      k->functions[l.entry] = f;
    }
  }
  k->buffers.resize(k->plan.buffers.size(), 0);
  k->bufferBytes.resize(k->plan.buffers.size(), 0);
  for (size_t i = 0; i < k->plan.buffers.size(); ++i) {
    size_t bytes = e.bufferBytes(i) * frames;
    if (bytes <= k->bufferBytes[i])
      continue;
    if (k->buffers[i])
      k->cuda->free(k->buffers[i]);
    k->buffers[i] = 0;
    k->bufferBytes[i] = 0;
    k->lastRuns.clear(); // What reusable launches wrote is gone.
    if (!k->cuda->allocate(bytes, k->buffers[i]))
      return fail(ARVR_ERROR_CUDA, "an intermediate buffer of " +
                                       std::to_string(bytes) +
                                       " bytes: " + k->cuda->getLastError());
    k->bufferBytes[i] = bytes;
  }
  return ARVR_OK;
}

/// Every output bound at the size the plan gives it.
arvr_status checkOutputs(const arvr_kernel *k, const Evaluation &e) {
  for (size_t a = 0; a < k->plan.arguments.size(); ++a) {
    const PlanArgument &arg = k->plan.arguments[a];
    if (!arg.output)
      continue;
    const Binding &b = k->bindings[a];
    std::array<int64_t, 3> whc;
    if (!b.bound)
      return fail(ARVR_ERROR_BINDING, "output '" + arg.name + "' is not bound");
    if (e.outputSize(a, whc) &&
        (whc[0] != b.shape[1] || whc[1] != b.shape[0] || whc[2] != b.shape[2]))
      return fail(ARVR_ERROR_BINDING, "output '" + arg.name + "' must be " +
                                          std::to_string(whc[0]) + "x" +
                                          std::to_string(whc[1]) + " with " +
                                          std::to_string(whc[2]) +
                                          " channels for these inputs");
  }
  return ARVR_OK;
}

/// An MLIR memref descriptor of rank 3, as the CPU entry takes images.
struct Descriptor {
  void *base, *aligned;
  int64_t offset, sizes[3], strides[3];
};

/// Runs a CPU object's entry on `bindings` (checked), the rows of its
/// tallest output split in bands (the entry takes the band before its
/// outputs): of the plan's band_rows at most, each hardware thread taking
/// the next band left, this thread too (alone if no other can start); or,
/// band_rows 0, one band per thread.
arvr_status runCpu(arvr_kernel *k, const std::vector<Binding> &bindings) {
  size_t n = k->plan.arguments.size();
  std::vector<Descriptor> descriptors(n);
  std::vector<void *> descriptorPtrs(n);
  std::vector<void *> args;
  int64_t rows = 0, columns = 0;
  for (size_t a = 0; a < n; ++a) {
    const Binding &b = bindings[a];
    if (!k->plan.arguments[a].image) {
      args.push_back(const_cast<uint64_t *>(&b.scalarBits)); // Little-endian.
      continue;
    }
    void *data = reinterpret_cast<void *>(static_cast<uintptr_t>(b.address));
    descriptors[a] = {data,
                      data,
                      0,
                      {b.shape[0], b.shape[1], b.shape[2]},
                      {b.shape[1] * b.shape[2], b.shape[2], 1}};
    descriptorPtrs[a] = &descriptors[a];
    args.push_back(&descriptorPtrs[a]);
    if (k->plan.arguments[a].output) {
      rows = std::max(rows, b.shape[0]);
      columns = std::max(columns, b.shape[1]);
    }
  }
  size_t outputs = 0;
  for (const PlanArgument &arg : k->plan.arguments)
    outputs += arg.output;
  // Read once (glibc reads /sys for it).
  static const int64_t hardware =
      std::max<int64_t>(std::thread::hardware_concurrency(), 1);
  int64_t perThread = std::max<int64_t>((rows + hardware - 1) / hardware, 1);
  int64_t bandRows = std::clamp<int64_t>(
      perThread, 1, k->plan.cpuBandRows ? k->plan.cpuBandRows : perThread);
  int64_t numBands = std::max<int64_t>(1, (rows + bandRows - 1) / bandRows);
  // A thread for each 64K pixels at most: starting one costs tens of
  // microseconds, more than a small frame's work. The bands are the same.
  int64_t threads =
      std::min({hardware, numBands,
                std::max<int64_t>(rows * columns / (int64_t(1) << 16), 1)});
  std::atomic<int64_t> next{0};
  auto work = [&] {
    for (int64_t b; (b = next++) < numBands;) {
      int64_t band[2] = {b * bandRows, std::min(rows, (b + 1) * bandRows)};
      std::vector<void *> bandArgs = args;
      bandArgs.insert(bandArgs.end() - outputs, {&band[0], &band[1]});
      k->cpuEntry(bandArgs.data());
    }
  };
  std::vector<std::thread> workers;
  for (int64_t t = 1; t < threads; ++t) {
    try {
      workers.emplace_back(work);
    } catch (const std::system_error &) {
      break; // No thread to be had: the bands left run here.
    }
  }
  work();
  for (std::thread &worker : workers)
    worker.join();
  return ARVR_OK;
}

/// The plan of `k` evaluated for `bindings` into `e`: its checks passed,
/// every output bound at its size.
arvr_status evaluateChecked(arvr_kernel *k,
                            const std::vector<Binding> &bindings,
                            Evaluation &e) {
  std::string error;
  if (!e.evaluate(k->plan, bindings, error))
    return fail(ARVR_ERROR_BINDING, error);
  return checkOutputs(k, e);
}

/// A batch's frames are stacked and indexed with 32-bit arithmetic (a byte
/// image's frame is a view from its first element, which must be below
/// 2^31): each image's stack has fewer than 2^31 elements, as `arvrc run`
/// requires of its batches.
arvr_status checkStacks(const arvr_kernel *k,
                        const std::vector<Binding> &bindings, int frames) {
  for (size_t a = 0; a < bindings.size(); ++a) {
    const Binding &b = bindings[a];
    if (!k->plan.arguments[a].image || !b.bound)
      continue;
    if (b.shape[0] * b.shape[1] * b.shape[2] * frames >= (int64_t(1) << 31))
      return fail(ARVR_ERROR_BINDING, "image '" + k->plan.arguments[a].name +
                                          "' in a batch of " +
                                          std::to_string(frames) +
                                          " frames has 2^31 elements or more");
  }
  return ARVR_OK;
}

/// The launches of `k` for `bindings`, `frames` frames stacked, into
/// `launches` (the module loaded and the buffers allocated for them).
arvr_status resolveLaunches(arvr_kernel *k,
                            const std::vector<Binding> &bindings, int frames,
                            std::vector<ResolvedLaunch> &launches) {
  Evaluation e;
  std::string error;
  if (arvr_status s = evaluateChecked(k, bindings, e))
    return s;
  if (arvr_status s = checkStacks(k, bindings, frames))
    return s;
  if (arvr_status s = prepare(k, e, frames))
    return s;
  std::vector<uint64_t> buffers(k->buffers.begin(), k->buffers.end());
  if (!e.resolve(buffers, frames, launches, error))
    return fail(ARVR_ERROR_BINDING, error);
  return ARVR_OK;
}

/// The launches of `k`'s own bindings for `frames` stacked frames,
/// resolved again only when a binding or the frame count changed.
arvr_status prepareResolved(arvr_kernel *k, int frames) {
  if (!k->dirty && k->resolvedFrames == frames) {
    if (k->moved)
      for (ResolvedLaunch &l : k->resolved)
        for (auto [word, arg] : l.imageWords)
          l.storage[word] = l.storage[word + 1] = k->bindings[arg].address;
    k->moved = false;
    return ARVR_OK;
  }
  k->moved = false;
  k->resolved.clear();
  if (arvr_status s = resolveLaunches(k, k->bindings, frames, k->resolved))
    return s;
  k->dirty = false;
  k->resolvedFrames = frames;
  return ARVR_OK;
}

/// Launches `launches` on `stream`; with `reuse` (they are `k->resolved`),
/// a reusable launch (a table computed from parameters alone) is skipped
/// where it last ran alike, on the same stream.
arvr_status launchAll(arvr_kernel *k, std::vector<ResolvedLaunch> &launches,
                      void *stream, bool reuse) {
  if (!reuse)
    k->lastRuns.clear();
  for (size_t i = 0; i < launches.size(); ++i) {
    ResolvedLaunch &l = launches[i];
    if (!l.grid[0] || !l.grid[1] || !l.grid[2])
      continue; // An empty image: nothing to do.
    std::optional<LastRun> run;
    if (reuse && l.reusable) {
      run = LastRun{l.storage,
                    {l.grid[0], l.grid[1], l.grid[2], l.block[0], l.block[1],
                     l.block[2], l.shared},
                    stream};
      auto last = k->lastRuns.find(i);
      if (last != k->lastRuns.end() && last->second == *run)
        continue;
      k->lastRuns.erase(i);
    }
    std::vector<void *> params;
    params.reserve(l.storage.size());
    for (uint64_t &word : l.storage)
      params.push_back(&word);
    if (!k->cuda->launch(k->functions.at(l.entry), l.grid, l.block, l.shared,
                         params, stream))
      return fail(ARVR_ERROR_CUDA, l.entry + ": " + k->cuda->getLastError());
    if (run)
      k->lastRuns[i] = std::move(*run);
  }
  return ARVR_OK;
}

/// A CPU object's kernel on `bindings`: checked, then run.
arvr_status runCpuChecked(arvr_kernel *k,
                          const std::vector<Binding> &bindings) {
  Evaluation e;
  if (arvr_status s = evaluateChecked(k, bindings, e))
    return s;
  return runCpu(k, bindings);
}

} // namespace

extern "C" {

const char *arvr_last_error(void) { return lastError.c_str(); }

arvr_status arvr_kernel_open(const char *planPath, arvr_kernel **kernel) {
  if (!planPath || !kernel)
    return fail(ARVR_ERROR_INVALID_ARGUMENT,
                "arvr_kernel_open: a null plan path or result");
  *kernel = nullptr;
  auto text = llvm::MemoryBuffer::getFile(planPath);
  if (!text)
    return fail(ARVR_ERROR_IO,
                std::string(planPath) + ": " + text.getError().message());
  Plan plan;
  std::string error;
  if (!parsePlan((*text)->getBuffer(), plan, error))
    return fail(ARVR_ERROR_PLAN, std::string(planPath) + ": " + error);
  if (!plan.cpuEntry.empty())
    return fail(ARVR_ERROR_PLAN,
                std::string(planPath) +
                    ": the plan of a CPU object: link the object and open it "
                    "with its header's arvr_open_" +
                    plan.kernel + " (arvr_kernel_open_cpu)");
  llvm::SmallString<256> binaryPath(llvm::sys::path::parent_path(planPath));
  llvm::sys::path::append(binaryPath, plan.binaryFile);
  auto binary = llvm::MemoryBuffer::getFile(binaryPath, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/true);
  if (!binary)
    return fail(ARVR_ERROR_IO,
                binaryPath.str().str() + ": " + binary.getError().message());
  auto k = std::make_unique<arvr_kernel>();
  k->plan = std::move(plan);
  k->binary = (*binary)->getBuffer().str();
  k->bindings.resize(k->plan.arguments.size());
  *kernel = k.release();
  return ARVR_OK;
}

arvr_status arvr_kernel_open_data(const char *plan, const void *binary,
                                  size_t bytes, arvr_kernel **kernel) {
  if (!plan || !binary || !bytes || !kernel)
    return fail(ARVR_ERROR_INVALID_ARGUMENT,
                "arvr_kernel_open_data: a null plan, binary or result, or an "
                "empty binary");
  *kernel = nullptr;
  auto k = std::make_unique<arvr_kernel>();
  std::string error;
  if (!parsePlan(plan, k->plan, error))
    return fail(ARVR_ERROR_PLAN, "arvr_kernel_open_data: " + error);
  if (!k->plan.cpuEntry.empty())
    return fail(ARVR_ERROR_PLAN,
                "arvr_kernel_open_data: the plan of a CPU object (open it "
                "with arvr_kernel_open_cpu)");
  // The driver reads PTX up to its NUL; a cubin by its header.
  k->binary.assign(static_cast<const char *>(binary), bytes);
  k->bindings.resize(k->plan.arguments.size());
  *kernel = k.release();
  return ARVR_OK;
}

arvr_status arvr_kernel_open_cpu(const char *plan, arvr_cpu_entry entry,
                                 arvr_kernel **kernel) {
  if (!plan || !entry || !kernel)
    return fail(ARVR_ERROR_INVALID_ARGUMENT,
                "arvr_kernel_open_cpu: a null plan, entry or result");
  *kernel = nullptr;
  auto k = std::make_unique<arvr_kernel>();
  std::string error;
  if (!parsePlan(plan, k->plan, error))
    return fail(ARVR_ERROR_PLAN, "arvr_kernel_open_cpu: " + error);
  if (k->plan.cpuEntry.empty())
    return fail(ARVR_ERROR_PLAN,
                "arvr_kernel_open_cpu: the plan of kernel '" + k->plan.kernel +
                    "' is for a GPU binary (" + k->plan.binaryFile +
                    "): open it with arvr_kernel_open");
  k->cpuEntry = entry;
  k->bindings.resize(k->plan.arguments.size());
  *kernel = k.release();
  return ARVR_OK;
}

int arvr_kernel_is_cpu(const arvr_kernel *kernel) {
  return kernel && kernel->cpuEntry;
}

void arvr_kernel_close(arvr_kernel *kernel) {
  if (!kernel)
    return;
  if (kernel->cuda) {
    for (arvrc::DevicePtr buffer : kernel->buffers)
      if (buffer)
        kernel->cuda->free(buffer);
    if (kernel->module)
      kernel->cuda->unloadModule(kernel->module);
  }
  delete kernel;
}

const char *arvr_kernel_name(const arvr_kernel *kernel) {
  return kernel ? kernel->plan.kernel.c_str() : "";
}

int arvr_kernel_num_args(const arvr_kernel *kernel) {
  return kernel ? static_cast<int>(kernel->plan.arguments.size()) : 0;
}

arvr_status arvr_kernel_arg_info(const arvr_kernel *kernel, int index,
                                 arvr_arg_info *info) {
  if (!info)
    return fail(ARVR_ERROR_INVALID_ARGUMENT,
                "arvr_kernel_arg_info: the result is null");
  if (!kernel || index < 0 ||
      index >= static_cast<int>(kernel->plan.arguments.size()))
    return fail(ARVR_ERROR_INVALID_ARGUMENT,
                "arvr_kernel_arg_info: no argument " + std::to_string(index));
  const PlanArgument &arg = kernel->plan.arguments[index];
  *info = {arg.name.c_str(), arg.type.c_str(), arg.image, arg.output,
           arg.channels};
  return ARVR_OK;
}

int arvr_kernel_find_arg(const arvr_kernel *kernel, const char *name) {
  if (!kernel || !name)
    return -1;
  for (size_t a = 0; a < kernel->plan.arguments.size(); ++a)
    if (kernel->plan.arguments[a].name == name)
      return static_cast<int>(a);
  return -1;
}

arvr_status arvr_kernel_bind_image(arvr_kernel *kernel, int index,
                                   uint64_t devicePtr, int width, int height,
                                   int channels) {
  if (arvr_status s = checkArg(kernel, index, true, "arvr_kernel_bind_image"))
    return s;
  const PlanArgument &arg = kernel->plan.arguments[index];
  if (width <= 0 || height <= 0 || channels <= 0 || !devicePtr)
    return fail(ARVR_ERROR_INVALID_ARGUMENT,
                "arvr_kernel_bind_image: image '" + arg.name +
                    "' needs a device pointer and positive sizes");
  if (arg.channels && channels != arg.channels)
    return fail(ARVR_ERROR_BINDING,
                "image '" + arg.name + "' has " + std::to_string(arg.channels) +
                    " channels, not " + std::to_string(channels));
  if (int64_t(width) * height * channels >= (int64_t(1) << 31))
    return fail(ARVR_ERROR_BINDING,
                "image '" + arg.name + "' has 2^31 elements or more");
  Binding &b = kernel->bindings[index];
  std::array<int64_t, 3> shape = {height, width, channels};
  if (b.bound && b.shape == shape) {
    // A frame of the same size elsewhere: the plan's values stand.
    kernel->moved |= b.address != devicePtr;
    b.address = devicePtr;
    return ARVR_OK;
  }
  b.bound = true;
  b.shape = shape;
  b.address = devicePtr;
  kernel->dirty = true;
  return ARVR_OK;
}

arvr_status arvr_kernel_bind_f32(arvr_kernel *kernel, int index, float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  return bindScalar(kernel, index, "f32", bits, "arvr_kernel_bind_f32");
}

arvr_status arvr_kernel_bind_i32(arvr_kernel *kernel, int index,
                                 int32_t value) {
  return bindScalar(kernel, index, "i32", static_cast<uint32_t>(value),
                    "arvr_kernel_bind_i32");
}

arvr_status arvr_kernel_bind_bool(arvr_kernel *kernel, int index, int value) {
  return bindScalar(kernel, index, "i1", value ? 1 : 0,
                    "arvr_kernel_bind_bool");
}

arvr_status arvr_kernel_output_size(arvr_kernel *kernel, int index, int *width,
                                    int *height, int *channels) {
  if (arvr_status s = checkArg(kernel, index, true, "arvr_kernel_output_size"))
    return s;
  if (!width || !height || !channels || !kernel->plan.arguments[index].output)
    return fail(ARVR_ERROR_INVALID_ARGUMENT,
                "arvr_kernel_output_size: argument " + std::to_string(index) +
                    " is not an output, or a result is null");
  Evaluation e;
  std::string error;
  std::array<int64_t, 3> whc;
  if (!e.evaluate(kernel->plan, kernel->bindings, error))
    return fail(ARVR_ERROR_BINDING, error);
  if (!e.outputSize(index, whc) || whc[0] <= 0 || whc[1] <= 0 || whc[2] <= 0 ||
      whc[0] > INT32_MAX || whc[1] > INT32_MAX)
    return fail(ARVR_ERROR_BINDING, "output '" +
                                        kernel->plan.arguments[index].name +
                                        "' has no size for these inputs");
  *width = static_cast<int>(whc[0]);
  *height = static_cast<int>(whc[1]);
  *channels = static_cast<int>(whc[2]);
  return ARVR_OK;
}

arvr_status arvr_kernel_prepare(arvr_kernel *kernel, int frames) {
  if (!kernel || frames < 1)
    return fail(ARVR_ERROR_INVALID_ARGUMENT,
                "arvr_kernel_prepare: a null kernel or fewer than 1 frame");
  if (kernel->cpuEntry) {
    Evaluation e;
    return evaluateChecked(kernel, kernel->bindings, e);
  }
  return prepareResolved(kernel,
                         frames > 1 && kernel->plan.batchGridZ ? frames : 1);
}

arvr_status arvr_kernel_launch(arvr_kernel *kernel, void *stream, int frames) {
  if (!kernel || frames < 1)
    return fail(ARVR_ERROR_INVALID_ARGUMENT,
                "arvr_kernel_launch: a null kernel or fewer than 1 frame");
  if (!kernel->cpuEntry && (frames == 1 || kernel->plan.batchGridZ)) {
    if (arvr_status s = prepareResolved(kernel, frames))
      return s;
    return launchAll(kernel, kernel->resolved, stream, /*reuse=*/true);
  }
  // One run a frame, each image's frames one after another.
  for (int f = 0; f < frames; ++f) {
    std::vector<Binding> frame = kernel->bindings;
    for (size_t a = 0; a < frame.size(); ++a)
      if (kernel->plan.arguments[a].image)
        frame[a].address += uint64_t(f) * frame[a].shape[0] *
                            frame[a].shape[1] * frame[a].shape[2] *
                            elementBytes(kernel->plan.arguments[a].type);
    if (kernel->cpuEntry) {
      if (arvr_status s = runCpuChecked(kernel, frame))
        return s;
      continue;
    }
    std::vector<ResolvedLaunch> launches;
    kernel->dirty = true; // Buffers may move: resolve again next time.
    if (arvr_status s = resolveLaunches(kernel, frame, 1, launches))
      return s;
    if (arvr_status s = launchAll(kernel, launches, stream, /*reuse=*/false))
      return s;
  }
  return ARVR_OK;
}

int arvr_kernel_takes_batches(const arvr_kernel *kernel) {
  return kernel && kernel->plan.batchGridZ;
}

int arvr_kernel_num_launches(const arvr_kernel *kernel) {
  return kernel && !kernel->dirty ? static_cast<int>(kernel->resolved.size())
                                  : 0;
}

arvr_status arvr_kernel_launch_info(arvr_kernel *kernel, int index,
                                    arvr_launch_info *info) {
  if (!kernel || !info || index < 0)
    return fail(ARVR_ERROR_INVALID_ARGUMENT,
                "arvr_kernel_launch_info: a null kernel or result, or a "
                "negative index");
  if (kernel->dirty || index >= static_cast<int>(kernel->resolved.size()))
    return fail(ARVR_ERROR_BINDING,
                "arvr_kernel_launch_info: no launch " + std::to_string(index) +
                    " prepared for the arguments bound (arvr_kernel_prepare "
                    "first)");
  const ResolvedLaunch &l = kernel->resolved[index];
  *info = {};
  info->entry = l.entry.c_str();
  for (int d = 0; d < 3; ++d) {
    info->grid[d] = l.grid[d];
    info->block[d] = l.block[d];
  }
  info->shared_bytes = l.shared;
  if (!kernel->cuda->functionFacts(
          kernel->functions.at(l.entry), l.block[0] * l.block[1] * l.block[2],
          l.shared, info->registers, info->local_bytes, info->blocks_per_sm))
    return fail(ARVR_ERROR_CUDA, l.entry + ": " + kernel->cuda->getLastError());
  return ARVR_OK;
}

//===----------------------------------------------------------------------===//
// Device memory for programs without CUDA of their own
//===----------------------------------------------------------------------===//

namespace {

/// The process's driver for the functions below, opened on first use; null
/// (error set) when there is no GPU.
arvrc::CudaDriver *sharedDriver() {
  static std::mutex mutex;
  static std::unique_ptr<arvrc::CudaDriver> driver;
  static std::string whyNot;
  std::lock_guard<std::mutex> lock(mutex);
  if (!driver && whyNot.empty())
    driver = arvrc::CudaDriver::open(whyNot);
  if (!driver)
    fail(ARVR_ERROR_CUDA, whyNot);
  return driver.get();
}

arvr_status driverResult(arvrc::CudaDriver *cuda, bool ok) {
  return ok ? ARVR_OK : fail(ARVR_ERROR_CUDA, cuda->getLastError());
}

} // namespace

arvr_status arvr_device_alloc(size_t bytes, void *stream,
                              uint64_t *device_ptr) {
  if (!device_ptr || bytes == 0)
    return fail(ARVR_ERROR_INVALID_ARGUMENT,
                "arvr_device_alloc: no bytes, or a null result");
  arvrc::CudaDriver *cuda = sharedDriver();
  arvrc::DevicePtr ptr = 0;
  if (!cuda || !cuda->allocateAsync(bytes, ptr, stream))
    return cuda ? driverResult(cuda, false) : ARVR_ERROR_CUDA;
  *device_ptr = ptr;
  return ARVR_OK;
}

arvr_status arvr_device_free(uint64_t device_ptr, void *stream) {
  arvrc::CudaDriver *cuda = sharedDriver();
  return cuda ? driverResult(cuda, cuda->freeAsync(device_ptr, stream))
              : ARVR_ERROR_CUDA;
}

arvr_status arvr_copy_to_device(uint64_t device_ptr, const void *host,
                                size_t bytes, void *stream) {
  arvrc::CudaDriver *cuda = sharedDriver();
  if (!cuda)
    return ARVR_ERROR_CUDA;
  return driverResult(
      cuda, cuda->copyToDeviceAsync(device_ptr, host, bytes, stream) &&
                cuda->synchronizeStream(stream));
}

arvr_status arvr_copy_to_host(void *host, uint64_t device_ptr, size_t bytes,
                              void *stream) {
  arvrc::CudaDriver *cuda = sharedDriver();
  if (!cuda)
    return ARVR_ERROR_CUDA;
  return driverResult(cuda,
                      cuda->copyToHostAsync(host, device_ptr, bytes, stream) &&
                          cuda->synchronizeStream(stream));
}

arvr_status arvr_stream_synchronize(void *stream) {
  arvrc::CudaDriver *cuda = sharedDriver();
  return cuda ? driverResult(cuda, cuda->synchronizeStream(stream))
              : ARVR_ERROR_CUDA;
}

} // extern "C"
