//===- Runner.cpp - Running a compiled kernel on images -------------------===//
//
// Both targets run through the runtime library from the kernel's launch
// plan, which the compiler alone makes from its IR: nothing here reads host
// code. The CPU runner JIT-compiles the module (or reads its machine code
// from the object cache) and opens the entry as a CPU object's kernel
// (arvr_kernel_open_cpu), which the library calls in bands of rows; the
// CUDA runner copies images to the device and back on a slot's stream
// around the library's launches of the PTX (arvr_kernel_open_data), frames
// of a batch stacked.
//
//===----------------------------------------------------------------------===//

#include "Runner.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/xxhash.h"
#include "llvm/TargetParser/Host.h"

#include <array>
#include <cstring>
#include <map>

using namespace arvrc;

/// The (height, width, channels) of kernel argument `index`: a bound
/// argument or, after them, an output.
static std::array<int64_t, 3> imageShape(const Bindings &bindings,
                                         unsigned index) {
  const Image &image = bindings.getImage(index);
  return {image.height, image.width, image.channels};
}

//===----------------------------------------------------------------------===//
// CPU
//===----------------------------------------------------------------------===//

/// The object cache's file for `entry` on this host's CPU: machine code
/// for another CPU (a cache folder shared between machines) is not read.
static std::string objectCachePath(const std::string &entry) {
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  std::vector<std::string> enabled;
  for (const auto &feature : features)
    if (feature.getValue())
      enabled.push_back(feature.getKey().str());
  std::sort(enabled.begin(), enabled.end());
  std::string all = llvm::sys::getHostCPUName().str();
  for (const std::string &feature : enabled)
    all += "," + feature;
  return entry + "." + llvm::sys::getHostCPUName().str() + "-" +
         llvm::utohexstr(llvm::xxh3_64bits(all)) + ".o";
}

/// A JIT holding the object file `path` (made by an earlier run), with the
/// process's symbols (the C library's math) to link against; null if it
/// cannot be read or linked.
static std::unique_ptr<llvm::orc::LLJIT> loadObject(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return nullptr;
  auto jit = llvm::orc::LLJITBuilder().create();
  if (!jit) {
    llvm::consumeError(jit.takeError());
    return nullptr;
  }
  llvm::orc::JITDylib &main = (*jit)->getMainJITDylib();
  auto generator =
      llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
          (*jit)->getDataLayout().getGlobalPrefix());
  if (!generator) {
    llvm::consumeError(generator.takeError());
    return nullptr;
  }
  main.addGenerator(std::move(*generator));
  if (llvm::Error e = (*jit)->addObjectFile(std::move(*buffer))) {
    llvm::consumeError(std::move(e));
    return nullptr;
  }
  if (llvm::Error e = (*jit)->initialize(main)) {
    llvm::consumeError(std::move(e));
    return nullptr;
  }
  return std::move(*jit);
}

std::unique_ptr<CpuKernels> CpuKernels::create(mlir::ModuleOp module,
                                               std::string &error,
                                               const std::string &objectCache) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  std::unique_ptr<CpuKernels> kernels(new CpuKernels());
  std::string objectFile =
      objectCache.empty() ? "" : objectCachePath(objectCache);
  // The entries the module defines (one per kernel), looked up below so
  // that the machine code is made before it is kept.
  std::vector<std::string> entries;
  module.walk([&](mlir::LLVM::LLVMFuncOp func) {
    if (!func.isExternal() && func.getName().starts_with("_mlir_ciface_"))
      entries.push_back(func.getName().str());
  });
  if (!objectFile.empty() && llvm::sys::fs::exists(objectFile)) {
    kernels->jit = loadObject(objectFile);
    // Every entry there, or the file is not this module's: compile again.
    for (const std::string &name : entries) {
      if (!kernels->jit)
        break;
      auto address = kernels->jit->lookup("_mlir_" + name);
      if (!address) {
        llvm::consumeError(address.takeError());
        kernels->jit.reset();
      }
    }
    if (kernels->jit)
      return kernels;
  }
  auto optimize = mlir::makeOptimizingTransformer(/*optLevel=*/3,
                                                  /*sizeLevel=*/0,
                                                  /*targetMachine=*/nullptr);
  mlir::ExecutionEngineOptions options;
  options.transformer = optimize;
  options.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  options.enableObjectDump = !objectFile.empty();
  auto engine = mlir::ExecutionEngine::create(module, options);
  if (!engine) {
    error =
        "cannot JIT-compile the kernel: " + llvm::toString(engine.takeError());
    return nullptr;
  }
  kernels->engine = std::move(*engine);
  // Kept only beside an entry the cache holds (one that could not be
  // written, in a folder that is not one, gets no object either).
  if (!objectFile.empty() && !entries.empty() &&
      llvm::sys::fs::exists(objectCache)) {
    // Compiled on first lookup; then kept (written aside and renamed, so
    // that a concurrent run never reads half a file).
    auto compiled = kernels->engine->lookupPacked(entries.front());
    if (!compiled) {
      llvm::consumeError(compiled.takeError());
    } else {
      std::string partial = objectFile + ".partial." +
                            std::to_string(llvm::sys::Process::getProcessId());
      kernels->engine->dumpToObjectFile(partial);
      if (llvm::sys::fs::rename(partial, objectFile))
        llvm::sys::fs::remove(partial);
    }
  }
  return kernels;
}

void (*CpuKernels::entry(const std::string &kernel,
                         std::string &error))(void **) {
  std::string name = "_mlir_ciface_" + kernel;
  if (jit) {
    auto address = jit->lookup("_mlir_" + name);
    if (address)
      return address->toPtr<void (*)(void **)>();
    error = "cannot run the kernel: " + llvm::toString(address.takeError());
    return nullptr;
  }
  auto function = engine->lookupPacked(name);
  if (function)
    return *function;
  error = "cannot run the kernel: " + llvm::toString(function.takeError());
  return nullptr;
}

CpuKernels::~CpuKernels() {
  for (auto &entry : opened)
    arvr_kernel_close(entry.second);
}

std::vector<arvr::runtime::Binding>
arvrc::planBindings(const Bindings &bindings) {
  std::vector<arvr::runtime::Binding> result(bindings.getNumArgs());
  for (unsigned i = 0; i < bindings.getNumArgs(); ++i) {
    arvr::runtime::Binding &b = result[i];
    b.bound = true;
    if (i < bindings.args.size() && !bindings.args[i].isImage) {
      std::memcpy(&b.scalarBits, &bindings.args[i].scalar,
                  sizeof(bindings.args[i].scalar));
      continue;
    }
    const Image &image = bindings.getImage(i);
    b.shape = imageShape(bindings, i);
    b.address = reinterpret_cast<uintptr_t>(image.pixels.data());
  }
  return result;
}

namespace {

/// Binds every argument of `bindings` to `k`: image i at `addresses[i]`
/// (with its frame's shape), each scalar as the plan types it. False with
/// `error` (the library's message) if one is refused.
bool bindAll(arvr_kernel *k, const Bindings &bindings,
             const std::vector<uint64_t> &addresses, std::string &error) {
  for (unsigned i = 0; i < bindings.getNumArgs(); ++i) {
    arvr_arg_info info;
    arvr_status status = arvr_kernel_arg_info(k, int(i), &info);
    if (status == ARVR_OK && info.is_image) {
      auto [h, w, c] = imageShape(bindings, i);
      status = arvr_kernel_bind_image(k, int(i), addresses[i], int(w), int(h),
                                      int(c));
    } else if (status == ARVR_OK) {
      const auto &scalar = bindings.args[i].scalar;
      std::string type = info.type;
      status = type == "f32" ? arvr_kernel_bind_f32(k, int(i), scalar.f32)
               : type == "i32"
                   ? arvr_kernel_bind_i32(k, int(i), scalar.i32)
                   : arvr_kernel_bind_bool(k, int(i), scalar.boolean);
    }
    if (status != ARVR_OK) {
      error = arvr_last_error();
      return false;
    }
  }
  return true;
}

} // namespace

bool CpuKernels::run(const std::string &kernel, const std::string &plan,
                     Bindings &bindings, std::string &error) {
  arvr_kernel *&k = opened[kernel];
  if (!k) {
    void (*function)(void **) = entry(kernel, error);
    if (!function)
      return false;
    if (arvr_kernel_open_cpu(plan.c_str(), function, &k) != ARVR_OK) {
      error = "internal compiler error: " + std::string(arvr_last_error());
      return false;
    }
  }
  std::vector<arvr::runtime::Binding> host = planBindings(bindings);
  std::vector<uint64_t> addresses;
  for (const arvr::runtime::Binding &b : host)
    addresses.push_back(b.address);
  if (!bindAll(k, bindings, addresses, error))
    return false;
  if (arvr_kernel_launch(k, nullptr, 1) != ARVR_OK) {
    error = arvr_last_error();
    return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// CUDA
//===----------------------------------------------------------------------===//

namespace {

/// A buffer reused from frame to frame: grown when a frame needs more.
struct Reusable {
  DevicePtr device = 0;
  void *host = nullptr; ///< Page-locked staging, for images of the kernel.
  size_t capacity = 0;
};

/// "12.3 MiB".
std::string mebibytes(size_t bytes) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.1f MiB", bytes / 1048576.0);
  return text;
}

} // namespace

/// One frame's worth of GPU resources: a stream, events timing its copies
/// and kernels, the runtime's kernel (its module and intermediate buffers)
/// and the images' device buffers and page-locked staging, kept for the
/// next frame.
struct arvrc::CudaSlot {
  explicit CudaSlot(CudaDriver &driver) : driver(driver) {}
  ~CudaSlot() {
    if (stream)
      driver.synchronizeStream(stream);
    arvr_kernel_close(kernel);
    for (Reusable &buffer : buffers) {
      if (buffer.device)
        driver.free(buffer.device);
      if (buffer.host)
        driver.freeHost(buffer.host);
    }
    for (void *event : events)
      if (event)
        driver.destroyEvent(event);
    if (stream)
      driver.destroyStream(stream);
  }
  bool init(const std::string &plan, const std::string &binary,
            std::string &error) {
    if (!driver.createStream(stream) || !driver.createEvent(events[0]) ||
        !driver.createEvent(events[1]) || !driver.createEvent(events[2]) ||
        !driver.createEvent(events[3])) {
      error = driver.getLastError();
      return false;
    }
    if (arvr_kernel_open_data(plan.c_str(), binary.data(), binary.size() + 1,
                              &kernel) != ARVR_OK) {
      error = "internal compiler error: " + std::string(arvr_last_error());
      return false;
    }
    return true;
  }
  /// Argument `index`'s buffer with at least `bytes` of device memory and
  /// as much staging; false (driver error kept) if that fails.
  bool reserve(unsigned index, size_t bytes, Reusable *&out) {
    if (buffers.size() <= index)
      buffers.resize(index + 1);
    Reusable &buffer = buffers[index];
    out = &buffer;
    if (buffer.capacity >= bytes)
      return true;
    if (buffer.device)
      driver.free(buffer.device);
    if (buffer.host)
      driver.freeHost(buffer.host);
    buffer = Reusable();
    if (!driver.allocate(bytes, buffer.device) ||
        !driver.allocateHost(bytes, buffer.host))
      return false;
    buffer.capacity = bytes;
    return true;
  }

  CudaDriver &driver;
  void *stream = nullptr;
  arvr_kernel *kernel = nullptr;
  /// Before the uploads, after them, after the kernels, after the downloads.
  void *events[4] = {nullptr, nullptr, nullptr, nullptr};
  std::vector<Reusable> buffers; ///< One per image argument.
  /// Of the frame in flight: where each output comes back to.
  std::vector<std::pair<Image *, void *>> outputs;
};

CudaKernels::CudaKernels(std::string plan, std::string binary, bool batchGridZ,
                         CudaDriver &driver)
    : plan(std::move(plan)), binary(std::move(binary)), batchGridZ(batchGridZ),
      driver(driver) {}

CudaKernels::~CudaKernels() = default;

bool CudaKernels::run(Bindings &bindings, std::string &error, RunTimes *times) {
  std::shared_ptr<CudaSlot> slot = createSlot(error);
  return slot && submit(bindings, *slot, error) && finish(*slot, error, times);
}

std::shared_ptr<CudaSlot> CudaKernels::createSlot(std::string &error) {
  auto slot = std::make_shared<CudaSlot>(driver);
  if (!slot->init(plan, binary, error))
    return nullptr;
  return slot;
}

bool CudaKernels::finish(CudaSlot &slot, std::string &error, RunTimes *times) {
  if (!driver.synchronizeStream(slot.stream)) {
    error = driver.getLastError();
    return false;
  }
  for (auto [image, staging] : slot.outputs)
    std::memcpy(image->pixels.data(), staging, image->bytes());
  slot.outputs.clear();
  double upload = 0, kernels = 0, download = 0;
  if (times && driver.elapsedSeconds(slot.events[0], slot.events[1], upload) &&
      driver.elapsedSeconds(slot.events[1], slot.events[2], kernels) &&
      driver.elapsedSeconds(slot.events[2], slot.events[3], download)) {
    times->upload += upload;
    times->kernels += kernels;
    times->download += download;
  }
  return true;
}

bool CudaKernels::submit(Bindings &bindings, CudaSlot &slot,
                         std::string &error) {
  Bindings *frames[] = {&bindings};
  return submit(frames, slot, error);
}

namespace {

/// Every image of `frames` into its device buffer on `slot` (through
/// page-locked staging), frames one after another; outputs get buffers,
/// and their staging is where finish() reads them from. `addresses`: each
/// argument's device buffer.
bool uploadImages(llvm::ArrayRef<Bindings *> frames, CudaSlot &slot,
                  CudaDriver &driver, std::vector<uint64_t> &addresses,
                  std::string &error) {
  const Bindings &first = *frames.front();
  int64_t count = static_cast<int64_t>(frames.size());
  addresses.assign(first.getNumArgs(), 0);
  for (unsigned index = 0; index < first.getNumArgs(); ++index) {
    bool isOutput = index >= first.args.size();
    if (!isOutput && !first.args[index].isImage)
      continue;
    std::string what =
        isOutput ? "output " + std::to_string(index - first.args.size())
                 : "input image " + std::to_string(index);
    auto [h, w, c] = imageShape(first, index);
    if (h * w * c * count >= (int64_t(1) << 31)) {
      error = what + " has " + std::to_string(h * w * c * count) + " elements" +
              (count > 1 ? " in a batch of " + std::to_string(count) : "") +
              "; the CUDA target indexes images in 32 bits (fewer than 2^31 "
              "elements; use --target cpu)";
      return false;
    }
    size_t bytes = first.getImage(index).bytes();
    Reusable *buffer = nullptr;
    if (!slot.reserve(index, bytes * count, buffer)) {
      error = what + " needs " + mebibytes(bytes * count) +
              " of GPU memory (and as much page-locked host memory), which "
              "could not be allocated: " +
              driver.getLastError();
      return false;
    }
    addresses[index] = buffer->device;
    auto *staging = static_cast<uint8_t *>(buffer->host);
    for (int64_t f = 0; f < count; ++f) {
      Image &image = frames[f]->getImage(index);
      if (isOutput)
        slot.outputs.push_back({&image, staging + f * bytes});
      else
        std::memcpy(staging + f * bytes, image.pixels.data(), bytes);
    }
    if (!isOutput && !driver.copyToDeviceAsync(buffer->device, staging,
                                               bytes * count, slot.stream)) {
      error = driver.getLastError();
      return false;
    }
  }
  return true;
}

} // namespace

bool CudaKernels::submit(llvm::ArrayRef<Bindings *> frames, CudaSlot &slot,
                         std::string &error) {
  if (frames.empty() || (frames.size() > 1 && !batchGridZ)) {
    error = "internal compiler error: this kernel takes one frame per launch";
    return false;
  }
  const Bindings &first = *frames.front();
  std::vector<uint64_t> addresses;
  auto driverFailed = [&] {
    error = driver.getLastError();
    return false;
  };
  if (!driver.recordEvent(slot.events[0], slot.stream))
    return driverFailed();
  if (!uploadImages(frames, slot, driver, addresses, error))
    return false;
  if (!driver.recordEvent(slot.events[1], slot.stream))
    return driverFailed();
  // The launches, by the library from the plan: the frames stacked, one
  // launch per kernel for them all.
  if (!bindAll(slot.kernel, first, addresses, error))
    return false;
  if (arvr_kernel_launch(slot.kernel, slot.stream, int(frames.size())) !=
      ARVR_OK) {
    error = arvr_last_error();
    return false;
  }
  if (!driver.recordEvent(slot.events[2], slot.stream))
    return driverFailed();
  int64_t count = static_cast<int64_t>(frames.size());
  for (unsigned i = 0; i < first.outputs.size(); ++i) {
    unsigned arg = static_cast<unsigned>(first.args.size() + i);
    if (!driver.copyToHostAsync(slot.outputs[i * count].second, addresses[arg],
                                first.outputs[i].bytes() * count, slot.stream))
      return driverFailed();
  }
  if (!driver.recordEvent(slot.events[3], slot.stream))
    return driverFailed();
  return true;
}
