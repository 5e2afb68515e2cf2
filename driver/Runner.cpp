//===- Runner.cpp - Running a compiled kernel on images -------------------===//
//
// Both targets take the kernel's function in destination-passing style,
// `(args..., outputs...)`, with every image as a memref<H x W x C> in
// row-major order. The CPU runner calls its C interface from one thread per
// band of rows (two trailing row arguments); the CUDA runner reads the host
// function the pipeline left beside the gpu.binary: each gpu.launch_func
// names a kernel, its grid and block (integer arithmetic on scalars and
// image sizes, evaluated here by HostEvaluator, which also sizes outputs
// from the arvr IR) and its arguments, which become the kernel's parameter
// list.
//
//===----------------------------------------------------------------------===//

#include "Runner.h"

#include "arvr/Dialect/ArvrDialect.h"
#include "arvr/Frontend/AST.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/ExecutionEngine/CRunnerUtils.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/xxhash.h"
#include "llvm/TargetParser/Host.h"

#include <array>
#include <cstring>
#include <deque>
#include <map>
#include <thread>

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

CpuKernels::~CpuKernels() = default;

bool CpuKernels::run(const std::string &kernel, Bindings &bindings,
                     std::string &error) {

  // One descriptor per image; the C interface takes a pointer to each, and
  // the packed call a pointer to every argument.
  size_t numArgs = bindings.getNumArgs();
  std::vector<StridedMemRefType<uint8_t, 3>> descriptors(numArgs);
  std::vector<void *> descriptorPtrs(numArgs);
  std::vector<void *> args;
  for (size_t i = 0; i < numArgs; ++i) {
    bool isOutput = i >= bindings.args.size();
    if (!isOutput && !bindings.args[i].isImage) {
      args.push_back(&bindings.args[i].scalar);
      continue;
    }
    Image &image = bindings.getImage(i);
    StridedMemRefType<uint8_t, 3> &d = descriptors[i];
    d.basePtr = d.data = image.pixels.data();
    d.offset = 0;
    auto shape = imageShape(bindings, i);
    std::copy(shape.begin(), shape.end(), d.sizes);
    d.strides[0] = int64_t(image.width) * image.channels;
    d.strides[1] = image.channels;
    d.strides[2] = 1;
    descriptorPtrs[i] = &d;
    args.push_back(&descriptorPtrs[i]);
  }
  // The rows split in bands, one per thread (arvr-cpu-row-bands gave the
  // kernel two row parameters, after its own and before its outputs; each
  // output computes the rows of the band it has).
  int64_t rows = 0;
  for (const Image &output : bindings.outputs)
    rows = std::max<int64_t>(rows, output.height);
  int64_t threads = std::max<int64_t>(
      1, std::min<int64_t>(std::thread::hardware_concurrency(), rows));
  std::vector<std::array<int64_t, 2>> bands(threads);
  void (*function)(void **) = entry(kernel, error);
  if (!function)
    return false;
  std::vector<std::thread> workers;
  for (int64_t t = 0; t < threads; ++t) {
    bands[t] = {rows * t / threads, rows * (t + 1) / threads};
    workers.emplace_back([&, t] {
      std::vector<void *> bandArgs = args;
      bandArgs.insert(bandArgs.end() - bindings.outputs.size(),
                      {&bands[t][0], &bands[t][1]});
      function(bandArgs.data());
    });
  }
  for (std::thread &worker : workers)
    worker.join();
  return true;
}

//===----------------------------------------------------------------------===//
// CUDA
//===----------------------------------------------------------------------===//

namespace {

/// Evaluates the host-side index arithmetic of a launch (grid sizes and
/// size arguments) for the bound images.
class HostEvaluator {
public:
  HostEvaluator(const Bindings &bindings) : bindings(bindings) {}

  /// The value of an integer (or index) SSA value of the host function,
  /// computed from the bound scalars and image sizes; nullopt for anything
  /// else, which the caller reports as a compiler error.
  std::optional<int64_t> evaluate(mlir::Value value) {
    std::optional<int64_t> result = compute(value);
    if (!result)
      return std::nullopt;
    // Wrap to the value's width, as the generated code would.
    unsigned width = value.getType().isIndex()
                         ? 64
                         : value.getType().getIntOrFloatBitWidth();
    if (width == 1)
      return *result & 1;
    if (width < 64)
      return llvm::SignExtend64(static_cast<uint64_t>(*result), width);
    return result;
  }

private:
  std::optional<int64_t> compute(mlir::Value value) {
    using namespace mlir;
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      // A scalar parameter.
      unsigned index = arg.getArgNumber();
      if (index >= bindings.args.size() || bindings.args[index].isImage ||
          !arg.getType().isInteger())
        return std::nullopt;
      return arg.getType().isInteger(1) ? bindings.args[index].scalar.boolean
                                        : bindings.args[index].scalar.i32;
    }
    Operation *op = value.getDefiningOp();
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      if (auto integer = dyn_cast<IntegerAttr>(constant.getValue()))
        return integer.getValue().getSExtValue();
      return std::nullopt;
    }
    if (auto dim = dyn_cast<memref::DimOp>(op)) {
      auto arg = dyn_cast<BlockArgument>(dim.getSource());
      std::optional<int64_t> index = evaluate(dim.getIndex());
      if (!arg || arg.getArgNumber() >= bindings.getNumArgs() || !index ||
          *index < 0 || *index > 2)
        return std::nullopt;
      return imageShape(bindings, arg.getArgNumber())[*index];
    }
    if (auto dim = dyn_cast<mlir::arvr::DimOp>(op)) {
      auto arg = dyn_cast<BlockArgument>(dim.getImage());
      if (!arg || arg.getArgNumber() >= bindings.getNumArgs())
        return std::nullopt;
      auto shape = imageShape(bindings, arg.getArgNumber());
      switch (dim.getDim()) {
      case mlir::arvr::Dim::width:
        return shape[1];
      case mlir::arvr::Dim::height:
        return shape[0];
      case mlir::arvr::Dim::channels:
        return shape[2];
      }
    }
    if (isa<arith::IndexCastOp, arith::ExtSIOp, arith::TruncIOp>(op))
      return evaluate(op->getOperand(0));
    if (isa<arith::ExtUIOp>(op)) {
      std::optional<int64_t> in = evaluate(op->getOperand(0));
      unsigned width = op->getOperand(0).getType().getIntOrFloatBitWidth();
      if (!in)
        return std::nullopt;
      return width >= 64 ? *in : *in & ((int64_t(1) << width) - 1);
    }
    if (auto select = dyn_cast<arith::SelectOp>(op)) {
      std::optional<int64_t> cond = evaluate(select.getCondition());
      if (!cond)
        return std::nullopt;
      return evaluate(*cond ? select.getTrueValue() : select.getFalseValue());
    }
    if (op->getNumOperands() != 2)
      return std::nullopt;
    std::optional<int64_t> a = evaluate(op->getOperand(0));
    std::optional<int64_t> b = evaluate(op->getOperand(1));
    if (!a || !b)
      return std::nullopt;
    if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
      switch (cmp.getPredicate()) {
      case arith::CmpIPredicate::eq:
        return *a == *b;
      case arith::CmpIPredicate::ne:
        return *a != *b;
      case arith::CmpIPredicate::slt:
        return *a < *b;
      case arith::CmpIPredicate::sle:
        return *a <= *b;
      case arith::CmpIPredicate::sgt:
        return *a > *b;
      case arith::CmpIPredicate::sge:
        return *a >= *b;
      default:
        return std::nullopt;
      }
    }
    if (isa<arith::AddIOp>(op))
      return *a + *b;
    if (isa<arith::SubIOp>(op))
      return *a - *b;
    if (isa<arith::MulIOp>(op))
      return *a * *b;
    if (isa<arith::AndIOp>(op))
      return *a & *b;
    if (isa<arith::OrIOp>(op))
      return *a | *b;
    if (isa<arith::XOrIOp>(op))
      return *a ^ *b;
    if (isa<arith::MinSIOp>(op))
      return std::min(*a, *b);
    if (isa<arith::MaxSIOp>(op))
      return std::max(*a, *b);
    if (*b == 0)
      return std::nullopt;
    if (isa<arith::CeilDivSIOp>(op))
      return *a / *b + ((*a % *b != 0) && ((*a < 0) == (*b < 0)));
    if (isa<arith::FloorDivSIOp>(op))
      return *a / *b - ((*a % *b != 0) && ((*a < 0) != (*b < 0)));
    if (isa<arith::DivSIOp>(op))
      return *a / *b;
    if (isa<arith::RemSIOp>(op))
      return *a % *b;
    return std::nullopt;
  }

  const Bindings &bindings;
};

/// Device buffers of one run, freed at the end of it: one per image
/// argument, and one per intermediate stage (a memref.alloc of the host
/// function), with its (height, width, channels).
/// Where each image and stage of a launch lives (the slot owns them).
struct DeviceBuffers {
  std::map<unsigned, DevicePtr> byArg;
  llvm::DenseMap<mlir::Operation *,
                 std::pair<DevicePtr, std::array<int64_t, 3>>>
      byAlloc;
};

/// A buffer reused from frame to frame: grown when a frame needs more.
struct Reusable {
  DevicePtr device = 0;
  void *host = nullptr; ///< Page-locked staging, for images of the kernel.
  size_t capacity = 0;
};

} // namespace

/// One frame's worth of GPU resources: a stream, events timing its copies
/// and kernels, and buffers (device memory for every image and stage,
/// page-locked staging for the kernel's images) kept for the next frame.
struct arvrc::CudaSlot {
  explicit CudaSlot(CudaDriver &driver) : driver(driver) {}
  ~CudaSlot() {
    if (stream)
      driver.synchronizeStream(stream);
    for (auto &entry : buffers) {
      if (entry.second.device)
        driver.free(entry.second.device);
      if (entry.second.host)
        driver.freeHost(entry.second.host);
    }
    for (void *event : events)
      if (event)
        driver.destroyEvent(event);
    if (stream)
      driver.destroyStream(stream);
  }
  bool init(std::string &error) {
    if (driver.createStream(stream) && driver.createEvent(events[0]) &&
        driver.createEvent(events[1]) && driver.createEvent(events[2]) &&
        driver.createEvent(events[3]))
      return true;
    error = driver.getLastError();
    return false;
  }
  /// The buffer `key` with at least `bytes` of device memory (and as much
  /// staging if `staged`); false (driver error kept) if that fails.
  bool reserve(const void *key, size_t bytes, bool staged, Reusable *&out) {
    Reusable &buffer = buffers[key];
    out = &buffer;
    if (buffer.capacity >= bytes && (!staged || buffer.host))
      return true;
    if (buffer.device)
      driver.free(buffer.device);
    if (buffer.host)
      driver.freeHost(buffer.host);
    buffer = Reusable();
    if (!driver.allocate(bytes, buffer.device))
      return false;
    if (staged && !driver.allocateHost(bytes, buffer.host))
      return false;
    buffer.capacity = bytes;
    return true;
  }

  CudaDriver &driver;
  void *stream = nullptr;
  /// Before the uploads, after them, after the kernels, after the downloads.
  void *events[4] = {nullptr, nullptr, nullptr, nullptr};
  std::map<const void *, Reusable> buffers;
  /// Of the frame in flight: where each output comes back to.
  std::vector<std::pair<Image *, void *>> outputs;
};

/// "file:line:col: " of `loc`, or "".
static std::string locationPrefix(mlir::Location loc) {
  if (auto fileLoc = llvm::dyn_cast<mlir::FileLineColLoc>(loc))
    return fileLoc.getFilename().str() + ":" +
           std::to_string(fileLoc.getLine()) + ":" +
           std::to_string(fileLoc.getColumn()) + ": ";
  return "";
}

bool arvrc::checkReductionRanges(mlir::ModuleOp module,
                                 const std::string &kernel,
                                 const Bindings &bindings, std::string &error) {
  auto op = module.lookupSymbol<mlir::arvr::KernelOp>(kernel);
  if (!op)
    return true;
  HostEvaluator evaluator(bindings);
  op.walk([&](mlir::arvr::ReduceOp reduce) {
    std::optional<int64_t> lower = evaluator.evaluate(reduce.getLower());
    std::optional<int64_t> upper = evaluator.evaluate(reduce.getUpper());
    if (!lower || !upper || *upper - *lower + 1 <= ::arvr::kMaxReductionRange)
      return mlir::WalkResult::advance();
    error = locationPrefix(reduce.getLoc()) + "'" +
            mlir::arvr::stringifyReductionKind(reduce.getKind()).str() +
            "' ranges over " + std::to_string(*upper - *lower + 1) +
            " values (" + std::to_string(*lower) + " to " +
            std::to_string(*upper) + ") with these parameters; at most " +
            std::to_string(::arvr::kMaxReductionRange) + " are allowed";
    return mlir::WalkResult::interrupt();
  });
  return error.empty();
}

bool arvrc::checkFunctionExtents(
    mlir::ModuleOp module, const std::string &kernel,
    const std::vector<std::pair<std::string, size_t>> &bounded,
    const Bindings &bindings, std::string &error) {
  auto op = module.lookupSymbol<mlir::arvr::KernelOp>(kernel);
  if (!op || bounded.empty())
    return true;
  HostEvaluator evaluator(bindings);
  op.walk([&](mlir::arvr::StageOp stage) {
    auto func = llvm::find_if(
        bounded, [&](const auto &f) { return f.first == stage.getName(); });
    if (stage.isOutput() || !stage.hasSizes() || func == bounded.end())
      return mlir::WalkResult::advance();
    std::string sizes;
    bool outside = false;
    for (mlir::Value size : stage.getSizes().take_front(func->second)) {
      std::optional<int64_t> value = evaluator.evaluate(size);
      if (!value)
        return mlir::WalkResult::advance();
      outside |= *value < 1 || *value > kMaxImageSide;
      sizes += (sizes.empty() ? "" : "x") + std::to_string(*value);
    }
    if (!outside)
      return mlir::WalkResult::advance();
    error = locationPrefix(stage.getLoc()) + "the extents of '" +
            stage.getName().str() + "' would be " + sizes +
            " with these parameters and images, outside 1 to " +
            std::to_string(kMaxImageSide) + " points a side";
    return mlir::WalkResult::interrupt();
  });
  return error.empty();
}

std::optional<std::vector<std::array<int64_t, 3>>>
arvrc::evaluateOutputSizes(mlir::ModuleOp module, const std::string &kernel,
                           const Bindings &bindings) {
  auto op = module.lookupSymbol<mlir::arvr::KernelOp>(kernel);
  if (!op || op.getBody().empty())
    return std::nullopt;
  auto ret = llvm::dyn_cast<mlir::arvr::ReturnOp>(
      op.getBody().front().getTerminator());
  if (!ret)
    return std::nullopt;
  HostEvaluator evaluator(bindings);
  std::vector<std::array<int64_t, 3>> sizes;
  for (mlir::Value image : ret.getOperands()) {
    auto stage = image.getDefiningOp<mlir::arvr::StageOp>();
    if (!stage || !stage.hasSizes())
      return std::nullopt;
    std::optional<int64_t> width = evaluator.evaluate(stage.getWidth());
    std::optional<int64_t> height = evaluator.evaluate(stage.getHeight());
    std::optional<int64_t> channels = evaluator.evaluate(stage.getChannels());
    if (!width || !height || !channels)
      return std::nullopt;
    sizes.push_back({*width, *height, *channels});
  }
  return sizes;
}

CudaKernels::CudaKernels(mlir::ModuleOp module, CudaDriver &driver)
    : module(module), driver(driver) {}

CudaKernels::~CudaKernels() {
  for (auto &entry : loadedModules)
    if (entry.second)
      driver.unloadModule(entry.second);
}

/// "12.3 MiB".
static std::string mebibytes(size_t bytes) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.1f MiB", bytes / 1048576.0);
  return text;
}

bool CudaKernels::run(const std::string &kernel, Bindings &bindings,
                      std::string &error, RunTimes *times) {
  std::shared_ptr<CudaSlot> slot = createSlot(error);
  return slot && submit(kernel, bindings, *slot, error) &&
         finish(*slot, error, times);
}

std::shared_ptr<CudaSlot> CudaKernels::createSlot(std::string &error) {
  auto slot = std::make_shared<CudaSlot>(driver);
  if (!slot->init(error))
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

bool CudaKernels::takesBatches(const std::string &kernel) {
  auto host = module.lookupSymbol<mlir::func::FuncOp>(kernel);
  return host && host->hasAttr(mlir::arvr::ArvrDialect::kFramesInGridZAttrName);
}

namespace {

/// What submit() does for a batch of frames on one slot: the frames'
/// images stacked in one buffer per argument (and F times each stage
/// buffer), each launch once for them all, the frame as the grid's z
/// (arvr-batch-frames). The host code is evaluated for frame 0.
class BatchSubmission {
public:
  BatchSubmission(mlir::func::FuncOp host, llvm::ArrayRef<Bindings *> frames,
                  CudaSlot &slot, CudaDriver &driver, std::string &error)
      : host(host), frames(frames), first(*frames.front()), slot(slot),
        driver(driver), error(error), evaluator(first),
        count(static_cast<int64_t>(frames.size())) {}

  /// Fails (error set) if a stacked image would not be indexed in 32 bits.
  bool tooLarge(const std::array<int64_t, 3> &shape, const std::string &what) {
    int64_t elements = shape[0] * shape[1] * shape[2] * count;
    if (elements < (int64_t(1) << 31))
      return false;
    error = what + " has " + std::to_string(elements) + " elements" +
            (count > 1 ? " in a batch of " + std::to_string(count) : "") +
            "; the CUDA target indexes images in 32 bits (fewer than 2^31 "
            "elements; use --target cpu)";
    return true;
  }

  /// Every image argument into its device buffer (through page-locked
  /// staging), frames one after another; outputs get buffers too.
  bool uploadImages() {
    for (mlir::BlockArgument arg : host.getArguments()) {
      if (!mlir::isa<mlir::MemRefType>(arg.getType()))
        continue;
      unsigned index = arg.getArgNumber();
      bool isOutput = index >= first.args.size();
      std::string what =
          isOutput ? "output " + std::to_string(index - first.args.size())
                   : "input image " + std::to_string(index);
      if (tooLarge(imageShape(first, index), what))
        return false;
      size_t bytes = first.getImage(index).bytes();
      Reusable *buffer = nullptr;
      // Keys: the argument's number, as a small non-pointer value.
      const void *key = reinterpret_cast<const void *>(uintptr_t(index) + 1);
      if (!slot.reserve(key, bytes * count, /*staged=*/true, buffer)) {
        error = what + " needs " + mebibytes(bytes * count) +
                " of GPU memory (and as much page-locked host memory), which "
                "could not be allocated: " +
                driver.getLastError();
        return false;
      }
      buffers.byArg[index] = buffer->device;
      auto *staging = static_cast<uint8_t *>(buffer->host);
      for (int64_t f = 0; f < count; ++f) {
        Image &image = frames[f]->getImage(index);
        if (isOutput)
          slot.outputs.push_back({&image, staging + f * bytes});
        else
          std::memcpy(staging + f * bytes, image.pixels.data(), bytes);
      }
      if (!isOutput && !driver.copyToDeviceAsync(buffer->device, staging,
                                                 bytes * count, slot.stream))
        return fail();
    }
    return true;
  }

  /// A buffer for each intermediate stage, sized by the host code.
  bool allocateStages(const std::string &kernel) {
    for (auto alloc : host.getOps<mlir::memref::AllocOp>()) {
      mlir::MemRefType type = alloc.getType();
      std::array<int64_t, 3> shape;
      unsigned dynamic = 0;
      bool known = type.getRank() == 3;
      for (int64_t dim = 0; known && dim < 3; ++dim) {
        if (!type.isDynamicDim(dim)) {
          shape[dim] = type.getDimSize(dim);
          continue;
        }
        std::optional<int64_t> size =
            evaluator.evaluate(alloc.getDynamicSizes()[dynamic++]);
        known = size && *size >= 0 && *size <= (int64_t(1) << 31);
        if (known)
          shape[dim] = *size;
      }
      if (!known) {
        error = "internal compiler error: cannot size the buffer of a stage "
                "of '" +
                kernel + "'";
        return false;
      }
      if (tooLarge(shape, "a stage of '" + kernel + "'"))
        return false;
      size_t bytes = size_t(shape[0]) * shape[1] * shape[2] *
                     (type.getElementTypeBitWidth() / 8) * count;
      Reusable *buffer = nullptr;
      if (!slot.reserve(alloc.getOperation(), bytes, /*staged=*/false,
                        buffer)) {
        error = "a stage of '" + kernel + "' needs " + mebibytes(bytes) +
                " of GPU memory, which could not be allocated: " +
                driver.getLastError();
        return false;
      }
      buffers.byAlloc[alloc] = {buffer->device, shape};
    }
    return true;
  }

  /// Each output's frames back into their staging, in one copy.
  bool download() {
    for (unsigned i = 0; i < first.outputs.size(); ++i) {
      unsigned arg = static_cast<unsigned>(first.args.size() + i);
      if (!driver.copyToHostAsync(
              slot.outputs[i * count].second, buffers.byArg[arg],
              first.outputs[i].bytes() * count, slot.stream))
        return fail();
    }
    return true;
  }

  /// The kernel parameters of `launch` into `params` (pointing into
  /// `storage`): a memref as its descriptor's fields (allocated, aligned,
  /// offset, sizes..., strides...), its height that of the stacked frames.
  bool parameters(mlir::gpu::LaunchFuncOp launch, std::deque<uint64_t> &storage,
                  std::vector<void *> &params) {
    auto push = [&](uint64_t bits) {
      storage.push_back(bits);
      params.push_back(&storage.back());
    };
    for (mlir::Value operand : launch.getKernelOperands()) {
      mlir::Type type = operand.getType();
      auto arg = mlir::dyn_cast<mlir::BlockArgument>(operand);
      if (mlir::isa<mlir::MemRefType>(type)) {
        DevicePtr ptr = 0;
        std::array<int64_t, 3> shape;
        auto alloc = buffers.byAlloc.find(operand.getDefiningOp());
        if (arg && buffers.byArg.count(arg.getArgNumber())) {
          ptr = buffers.byArg[arg.getArgNumber()];
          shape = imageShape(first, arg.getArgNumber());
        } else if (!arg && alloc != buffers.byAlloc.end()) {
          ptr = alloc->second.first;
          shape = alloc->second.second;
        } else {
          error = "internal compiler error: a kernel reads a buffer the "
                  "host does not own";
          return false;
        }
        push(ptr);
        push(ptr);
        push(0);
        push(static_cast<uint64_t>(shape[0] * count));
        push(static_cast<uint64_t>(shape[1]));
        push(static_cast<uint64_t>(shape[2]));
        push(static_cast<uint64_t>(shape[1] * shape[2]));
        push(static_cast<uint64_t>(shape[2]));
        push(1);
      } else if (type.isIndex()) {
        std::optional<int64_t> value = evaluator.evaluate(operand);
        if (!value) {
          error = "internal compiler error: cannot compute a size argument "
                  "of '" +
                  launch.getKernelName().str() + "'";
          return false;
        }
        push(static_cast<uint64_t>(*value));
      } else if (arg && arg.getArgNumber() < first.args.size()) {
        uint64_t bits = 0;
        std::memcpy(&bits, &first.args[arg.getArgNumber()].scalar,
                    sizeof(first.args[0].scalar));
        push(bits);
      } else {
        error = "internal compiler error: unexpected kernel argument";
        return false;
      }
    }
    return true;
  }

  /// Grid, block and dynamic shared memory of `launch`, the grid's z
  /// multiplied by the frames.
  bool geometry(mlir::gpu::LaunchFuncOp launch, unsigned grid[3],
                unsigned block[3], unsigned &sharedBytes) {
    mlir::gpu::KernelDim3 gridSizes = launch.getGridSizeOperandValues();
    mlir::gpu::KernelDim3 blockSizes = launch.getBlockSizeOperandValues();
    mlir::Value values[7] = {gridSizes.x,
                             gridSizes.y,
                             gridSizes.z,
                             blockSizes.x,
                             blockSizes.y,
                             blockSizes.z,
                             launch.getDynamicSharedMemorySize()};
    for (int i = 0; i < 7; ++i) {
      std::optional<int64_t> size =
          values[i] ? evaluator.evaluate(values[i]) : std::optional<int64_t>(0);
      if (!size || *size < 0 || *size * (i == 2 ? count : 1) > INT32_MAX) {
        error = "internal compiler error: cannot compute the launch "
                "geometry of '" +
                launch.getKernelName().str() + "'";
        return false;
      }
      unsigned value = static_cast<unsigned>(*size * (i == 2 ? count : 1));
      (i < 3 ? grid[i] : i < 6 ? block[i - 3] : sharedBytes) = value;
    }
    return true;
  }

  bool fail() {
    error = driver.getLastError();
    return false;
  }

private:
  mlir::func::FuncOp host;
  llvm::ArrayRef<Bindings *> frames;
  const Bindings &first;
  CudaSlot &slot;
  CudaDriver &driver;
  std::string &error;
  HostEvaluator evaluator;
  int64_t count;
  DeviceBuffers buffers;
};

} // namespace

void *CudaKernels::functionOf(mlir::gpu::LaunchFuncOp launch,
                              std::string &error) {
  // The PTX of the kernel's module, loaded once for every run.
  std::string moduleName = launch.getKernelModuleName().str();
  void *&cuModule = loadedModules[moduleName];
  if (!cuModule) {
    auto binary = module.lookupSymbol<mlir::gpu::BinaryOp>(moduleName);
    auto object =
        binary ? mlir::dyn_cast<mlir::gpu::ObjectAttr>(binary.getObjects()[0])
               : mlir::gpu::ObjectAttr();
    if (!object) {
      error = "internal compiler error: no PTX for '" + moduleName + "'";
      return nullptr;
    }
    if (!driver.loadModule(object.getObject().getValue().str(), cuModule)) {
      error = driver.getLastError();
      return nullptr;
    }
  }
  void *function = nullptr;
  if (!driver.getFunction(cuModule, launch.getKernelName().str(), function)) {
    error = driver.getLastError();
    return nullptr;
  }
  return function;
}

bool CudaKernels::submit(const std::string &kernel, Bindings &bindings,
                         CudaSlot &slot, std::string &error) {
  Bindings *frames[] = {&bindings};
  return submit(kernel, frames, slot, error);
}

bool CudaKernels::submit(const std::string &kernel,
                         llvm::ArrayRef<Bindings *> frames, CudaSlot &slot,
                         std::string &error) {
  using namespace mlir;
  auto host = module.lookupSymbol<func::FuncOp>(kernel);
  if (!host || frames.empty()) {
    error =
        "internal compiler error: no host function for kernel '" + kernel + "'";
    return false;
  }
  if (frames.size() > 1 && !takesBatches(kernel)) {
    error = "internal compiler error: kernel '" + kernel +
            "' takes one frame per launch";
    return false;
  }
  BatchSubmission batch(host, frames, slot, driver, error);
  if (!driver.recordEvent(slot.events[0], slot.stream) ||
      !batch.uploadImages() || !batch.allocateStages(kernel) ||
      !driver.recordEvent(slot.events[1], slot.stream)) {
    if (error.empty())
      error = driver.getLastError();
    return false;
  }
  auto launches = host.getOps<gpu::LaunchFuncOp>();
  if (launches.empty()) {
    error =
        "internal compiler error: kernel '" + kernel + "' has no GPU launch";
    return false;
  }
  for (gpu::LaunchFuncOp launch : launches) {
    void *function = functionOf(launch, error);
    unsigned grid[3], block[3], sharedBytes = 0;
    if (!function || !batch.geometry(launch, grid, block, sharedBytes))
      return false;
    if (grid[0] == 0 || grid[1] == 0 || grid[2] == 0)
      continue; // An empty image: nothing to compute.
    std::deque<uint64_t> storage;
    std::vector<void *> params;
    if (!batch.parameters(launch, storage, params))
      return false;
    if (!driver.launch(function, grid, block, sharedBytes, params, slot.stream))
      return batch.fail();
  }
  if (!driver.recordEvent(slot.events[2], slot.stream) || !batch.download() ||
      !driver.recordEvent(slot.events[3], slot.stream)) {
    if (error.empty())
      error = driver.getLastError();
    return false;
  }
  return true;
}
