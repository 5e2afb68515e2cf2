//===- arvrc.cpp - The arvrc command line
//-----------------------------------===//
//
//   arvrc build k.arvr -o k.ptx [--emit=tokens|ast|arvr|loops|gpu|llvm|ptx]
//   arvrc run k.arvr -i in.png -o out.png [--param name=value]...
//                    [--target auto|cpu|cuda]
//   arvrc compare a.png b.png [--max-abs N] [--min-psnr DB] [--diff d.png]
//   arvrc info
//
// Exit codes: 0 success, 1 an error in the input (located in the .arvr
// text, or naming the image file or parameter), 2 a command-line mistake.
//
//===----------------------------------------------------------------------===//

#include "Compiler.h"
#include "CpuObject.h"
#include "CudaDriver.h"
#include "Image.h"
#include "Manifest.h"
#include "Runner.h"
#include "Video.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

#include <CLI/CLI.hpp>

#include <chrono>
#include <deque>
#include <future>
#include <glob.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>

using namespace arvrc;

namespace {

/// The video read by each -i, in order (null for an -i that is not one).
using VideoInputs = std::vector<std::unique_ptr<VideoReader>>;

constexpr int kExitError = 1;
constexpr int kExitUsage = 2;

int fail(const std::string &message) {
  llvm::errs() << "error: " << message << "\n";
  return kExitError;
}

/// Writes `text` to `path` ("-" for stdout) all at once, through a
/// temporary file: a failed build leaves no output behind.
bool writeOutput(const std::string &path,
                 llvm::function_ref<void(llvm::raw_ostream &)> print) {
  std::string error;
  auto file = mlir::openOutputFile(path, &error);
  if (!file) {
    llvm::errs() << "error: " << path << ": " << error << "\n";
    return false;
  }
  print(file->os());
  file->keep();
  return true;
}

/// Keeps only the kernel named `name` (if given); false if there is none.
const arvr::KernelDecl *selectKernel(const arvr::ModuleAST &ast,
                                     const std::string &name,
                                     const std::string &file) {
  if (name.empty()) {
    if (ast.kernels.size() == 1)
      return &ast.kernels.front();
    std::string names;
    for (const arvr::KernelDecl &kernel : ast.kernels)
      names += (names.empty() ? "" : ", ") + kernel.name;
    fail(file + ": " +
         (ast.kernels.empty() ? std::string("defines no kernel")
                              : "defines several kernels (" + names +
                                    "); choose one with --kernel"));
    return nullptr;
  }
  for (const arvr::KernelDecl &kernel : ast.kernels)
    if (kernel.name == name)
      return &kernel;
  fail(file + ": no kernel named '" + name + "'");
  return nullptr;
}

/// `--cuda-path DIR`: DIR if it holds libdevice (else no toolkit at all);
/// without the option, the toolkit is looked for in the usual places.
std::optional<std::string>
usableCudaPath(const std::optional<std::string> &given) {
  if (!given)
    return std::nullopt;
  if (llvm::sys::fs::is_directory(*given + "/nvvm/libdevice"))
    return *given;
  llvm::errs() << "note: --cuda-path " << *given
               << " has no nvvm/libdevice; compiling without libdevice\n";
  return std::string();
}

//===----------------------------------------------------------------------===//
// arvrc build
//===----------------------------------------------------------------------===//

struct BuildArgs {
  std::string input;
  std::string output = "-";
  std::string emit = "ptx";
  std::string target = "cuda";
  std::string chip = "sm_90";
  bool printIRAfterAll = false;
  bool timing = false;
  bool locations = false;
  std::string kernel;
  std::optional<std::string> cudaPath;
  std::string manifest; ///< Where the launch manifest goes; "" beside -o.
  std::string plan;     ///< Where the JSON launch plan goes; "" beside -o.
  bool noCache = false;
  std::vector<std::string> specialize; ///< name=value, image.channels=N
  bool fastMath = false;
  bool stageSamples = false; ///< Experiment: arvr-gpu-stage-samples.
  std::string cpu = "host";  ///< --emit=obj: the CPU the object is for.
  std::string header;        ///< --emit=obj: the header; "" beside -o.
};

/// The launch manifest's and plan's default paths: `-o out.ptx` ->
/// `out.manifest`, `out.plan.json`.
std::string defaultManifestPath(const std::string &ptxPath,
                                llvm::StringRef extension = "manifest") {
  llvm::SmallString<128> path(ptxPath);
  llvm::sys::path::replace_extension(path, extension);
  return std::string(path);
}

/// Writes each (path, contents) pair, in order; if one cannot be written,
/// removes those written before it and returns false (reported).
bool writeAll(
    const std::vector<std::pair<std::string, const std::string *>> &files) {
  for (size_t i = 0; i < files.size(); ++i) {
    if (files[i].first.empty() ||
        writeOutput(files[i].first,
                    [&](llvm::raw_ostream &os) { os << *files[i].second; }))
      continue;
    for (size_t j = 0; j < i; ++j)
      if (files[j].first != "-" && !files[j].first.empty())
        llvm::sys::fs::remove(files[j].first);
    return false;
  }
  return true;
}

/// The functions with extents of `kernel` (their sizes are checked before
/// a run, by the runner or by the plan's checks).
BoundedFunctions boundedFunctionsOf(const arvr::KernelDecl &kernel) {
  BoundedFunctions bounded;
  for (const arvr::FuncDef &func : kernel.funcs)
    if (func.hasDomain())
      bounded.emplace_back(func.name, func.vars.size());
  return bounded;
}

static void addScalarDefaults(const arvr::KernelDecl &kernel, LaunchPlan &plan);

/// `arvrc build --target cpu --emit=obj`: the kernel's object file, its
/// header and its plan (arguments, output sizes and checks, read from the
/// kernel in the arvr dialect).
int buildCpuObject(const BuildArgs &args, Compilation &compilation,
                   const CompileOptions &options) {
  if (args.output == "-")
    return fail("--emit=obj writes a file: give -o NAME.o");
  const arvr::KernelDecl *kernel =
      selectKernel(compilation.getAst(), args.kernel, args.input);
  if (!kernel || !compilation.lower(options, Emit::Llvm))
    return kExitError;
  std::string error, planJson, object;
  LaunchPlan plan;
  if (!buildKernelPlan(compilation.getArvrModule(), kernel->name,
                       boundedFunctionsOf(*kernel), plan, error))
    return fail(error);
  // The CPU entry takes the plan's arguments and, before the outputs, the
  // band of rows to compute (arvr-cpu-row-bands).
  auto entry = compilation.getModule().lookupSymbol<mlir::LLVM::LLVMFuncOp>(
      "_mlir_ciface_" + kernel->name);
  if (!entry || entry.getNumArguments() != plan.arguments.size() + 2)
    return fail("internal compiler error: the CPU entry of '" + kernel->name +
                "' does not take the plan's arguments");
  plan.cpuEntry = "arvr_cpu_" + kernel->name;
  plan.indexBits = 64;
  addScalarDefaults(*kernel, plan);
  llvm::raw_string_ostream json(planJson);
  writeLaunchPlanJson(plan, json);
  if (!emitCpuObject(compilation.getModule(), kernel->name, planJson, args.cpu,
                     object, error))
    return fail(args.input + ": " + error);
  std::string objectName(llvm::sys::path::filename(args.output));
  std::string header = cpuObjectHeader(kernel->name, objectName);
  std::string headerPath =
      args.header.empty() ? defaultManifestPath(args.output, "h") : args.header;
  std::string planPath = args.plan.empty()
                             ? defaultManifestPath(args.output, "plan.json")
                             : args.plan;
  return writeAll({{args.output, &object},
                   {headerPath, &header},
                   {planPath, &planJson}})
             ? 0
             : kExitError;
}

int runBuild(const BuildArgs &args) {
  static const std::map<std::string, Emit> emits = {
      {"tokens", Emit::Tokens}, {"ast", Emit::Ast},    {"arvr", Emit::Arvr},
      {"loops", Emit::Loops},   {"gpu", Emit::Gpu},    {"llvm", Emit::Llvm},
      {"ptx", Emit::Ptx},       {"cubin", Emit::Cubin}};
  bool cpuObject = args.emit == "obj";
  Emit emit = cpuObject ? Emit::Llvm : emits.at(args.emit);
  CompileOptions options;
  options.target = args.target == "cpu" ? Target::Cpu : Target::Cuda;
  options.chip = args.chip;
  options.printIRAfterAll = args.printIRAfterAll;
  options.timing = args.timing;
  options.cudaPath = usableCudaPath(args.cudaPath);
  options.useCache = !args.noCache;
  options.specialize = args.specialize;
  options.fastMath = args.fastMath;
  options.stageSamples = args.stageSamples;
  bool binary = emit == Emit::Ptx || emit == Emit::Cubin;
  if (binary && options.target == Target::Cpu)
    return fail("--emit=" + args.emit + " needs --target cuda");
  if (cpuObject && options.target != Target::Cpu)
    return fail("--emit=obj needs --target cpu");

  Compilation compilation;
  if (!compilation.load(args.input))
    return kExitError;
  if (emit == Emit::Tokens)
    return writeOutput(
               args.output,
               [&](llvm::raw_ostream &os) { compilation.printTokens(os); })
               ? 0
               : kExitError;
  if (!compilation.parse())
    return kExitError;
  if (!args.kernel.empty() && !compilation.keepOnlyKernel(args.kernel))
    return fail(args.input + ": no kernel named '" + args.kernel + "'");
  if (binary && !selectKernel(compilation.getAst(), args.kernel, args.input))
    return kExitError;
  if (emit == Emit::Ast)
    return writeOutput(args.output,
                       [&](llvm::raw_ostream &os) { compilation.printAst(os); })
               ? 0
               : kExitError;
  if (cpuObject)
    return buildCpuObject(args, compilation, options);
  if (!compilation.lower(options, emit))
    return kExitError;
  if (!binary)
    return writeOutput(args.output,
                       [&](llvm::raw_ostream &os) {
                         compilation.printModule(os, args.locations);
                       })
               ? 0
               : kExitError;
  std::string ptx;
  if (!compilation.getPtx(ptx))
    return fail("internal compiler error: the pipeline produced no PTX");
  // Beside a PTX file, the manifest and the JSON plan that say how to
  // launch it; written to strings first, so that a failure leaves no file
  // behind.
  std::string manifestPath = args.manifest, planPath = args.plan;
  if (manifestPath.empty() && args.output != "-")
    manifestPath = defaultManifestPath(args.output);
  if (planPath.empty() && args.output != "-")
    planPath = defaultManifestPath(args.output, "plan.json");
  std::string manifest, planJson;
  if (!manifestPath.empty() || !planPath.empty()) {
    const arvr::KernelDecl *kernel =
        selectKernel(compilation.getAst(), args.kernel, args.input);
    std::string error;
    LaunchPlan plan;
    if (!kernel ||
        !buildLaunchPlan(
            compilation.getModule(), compilation.getArvrModule(), kernel->name,
            std::string(llvm::sys::path::filename(args.output)),
            emit == Emit::Cubin, plan, error, boundedFunctionsOf(*kernel)))
      return error.empty() ? kExitError : fail(error);
    addScalarDefaults(*kernel, plan);
    llvm::raw_string_ostream text(manifest), json(planJson);
    writeManifestText(plan, text);
    writeLaunchPlanJson(plan, json);
  }
  return writeAll({{args.output, &ptx},
                   {manifestPath, &manifest},
                   {planPath, &planJson}})
             ? 0
             : kExitError;
}

//===----------------------------------------------------------------------===//
// arvrc run
//===----------------------------------------------------------------------===//

struct RunArgs {
  std::string input;
  std::vector<std::string> images;
  /// One per output of the kernel, or one folder for many frames.
  std::vector<std::string> outputs;
  std::vector<std::string> params;
  std::string target = "auto";
  std::string kernel;
  std::string chip = "sm_90";
  std::optional<std::string> cudaPath;
  std::string frameSize; ///< WxH of NV12 frames, if not in their names.
  bool noCache = false;
  bool fastMath = false;
  int pngLevel = kDefaultPngLevel;       ///< Deflate level of PNG outputs.
  int jpegQuality = kDefaultJpegQuality; ///< Quality of JPEG outputs.
  /// CPU kernels: each frame run this many more times after the first, its
  /// running time the median of those runs (caches and pages warm, no file
  /// being written meanwhile: the kernel's own time, for benchmarks).
  int repeat = 0;
  /// Many frames: at most this many (0: all), from `start` seconds into
  /// the videos.
  int64_t maxFrames = 0;
  double start = 0;
  /// Frames a second of video outputs (0: the first video input's, else
  /// 30) and of raw NV12 inputs (0: 30).
  double fps = 0;
  int crf = 18; ///< H.264's constant rate factor for video outputs.
};

/// Parses `text` as a value of `param`'s type into `value`.
bool parseScalar(const arvr::Param &param, const std::string &text,
                 ArgValue &value, std::string &error) {
  const char *begin = text.c_str();
  char *end = nullptr;
  errno = 0;
  switch (param.type.scalar) {
  case arvr::ScalarType::F32: {
    float f = std::strtof(begin, &end);
    if (text.empty() || *end || errno == ERANGE || !std::isfinite(f)) {
      error = "parameter '" + param.name + "' is f32, but '" + text +
              "' is not a finite number";
      return false;
    }
    value.scalar.f32 = f;
    return true;
  }
  case arvr::ScalarType::I32: {
    long long i = std::strtoll(begin, &end, 10);
    if (text.empty() || *end || errno == ERANGE || i < INT32_MIN ||
        i > INT32_MAX) {
      error = "parameter '" + param.name + "' is i32, but '" + text +
              "' is not a 32-bit integer";
      return false;
    }
    value.scalar.i32 = static_cast<int32_t>(i);
    return true;
  }
  case arvr::ScalarType::Bool:
    if (text == "true" || text == "1" || text == "false" || text == "0") {
      value.scalar.boolean = text == "true" || text == "1";
      return true;
    }
    error = "parameter '" + param.name + "' is bool, but '" + text +
            "' is neither true nor false";
    return false;
  default:
    error =
        "parameter '" + param.name + "' cannot be set from the command line";
    return false;
  }
}

/// The value of a literal default (Sema allows only literals, negated or not).
void evaluateDefault(const arvr::Param &param, ArgValue &value) {
  const arvr::Expr *expr = param.defaultValue.get();
  double sign = 1;
  if (auto *unary = llvm::dyn_cast<arvr::UnaryExpr>(expr)) {
    sign = -1;
    expr = unary->operand.get();
  }
  double number = 0;
  if (auto *i = llvm::dyn_cast<arvr::IntLitExpr>(expr))
    number = static_cast<double>(i->value);
  else if (auto *f = llvm::dyn_cast<arvr::FloatLitExpr>(expr))
    number = f->value;
  else if (auto *b = llvm::dyn_cast<arvr::BoolLitExpr>(expr))
    number = b->value;
  if (param.type.scalar == arvr::ScalarType::F32)
    value.scalar.f32 = static_cast<float>(sign * number);
  else if (param.type.scalar == arvr::ScalarType::I32)
    value.scalar.i32 = static_cast<int32_t>(sign * number);
  else
    value.scalar.boolean = number != 0;
}

/// The defaults of `kernel`'s scalar parameters into `plan`'s arguments of
/// those names, for readers that bind what a caller leaves out (the Python
/// module).
static void addScalarDefaults(const arvr::KernelDecl &kernel,
                              LaunchPlan &plan) {
  for (LaunchPlan::Argument &arg : plan.arguments) {
    auto param = llvm::find_if(kernel.params, [&](const arvr::Param &p) {
      return p.name == arg.name && !p.type.isImage && p.defaultValue;
    });
    if (arg.image || arg.output || param == kernel.params.end())
      continue;
    ArgValue value;
    evaluateDefault(*param, value);
    arg.defaultValue = param->type.scalar == arvr::ScalarType::F32
                           ? double(value.scalar.f32)
                       : param->type.scalar == arvr::ScalarType::I32
                           ? double(value.scalar.i32)
                           : double(value.scalar.boolean);
  }
}

/// The scalar parameters' values a run knows before any image is read (the
/// defaults, overridden by --param), as `name=value` for arvr-specialize:
/// the kernel is compiled for them. A --param that does not parse is left
/// out here and reported by bindParams.
std::vector<std::string> knownScalars(const arvr::KernelDecl &kernel,
                                      const std::vector<std::string> &params) {
  std::vector<std::string> known;
  for (const arvr::Param &param : kernel.params) {
    if (param.type.isImage)
      continue;
    ArgValue value;
    bool set = false;
    std::string error;
    for (const std::string &assignment : params)
      if (llvm::StringRef(assignment).split('=').first == param.name)
        set = parseScalar(param,
                          llvm::StringRef(assignment).split('=').second.str(),
                          value, error);
    if (!set && !param.defaultValue)
      continue;
    if (!set)
      evaluateDefault(param, value);
    char text[32];
    if (param.type.scalar == arvr::ScalarType::F32)
      std::snprintf(text, sizeof text, "%.9g", value.scalar.f32);
    else if (param.type.scalar == arvr::ScalarType::I32)
      std::snprintf(text, sizeof text, "%d", value.scalar.i32);
    else if (param.type.scalar == arvr::ScalarType::Bool)
      std::snprintf(text, sizeof text, "%s",
                    value.scalar.boolean ? "true" : "false");
    else
      continue;
    known.push_back(param.name + "=" + text);
  }
  return known;
}

/// The channel count of each u8 image parameter of any count whose files
/// (its -i in every frame of `frames`, see frameInputs) all hold the same
/// count, read from their headers: (argument index in the
/// lowered kernel, `name.channels=N`). The kernel is compiled for them;
/// files that cannot be probed are left to bindParams to report.
std::vector<std::pair<size_t, std::string>>
knownChannels(const arvr::KernelDecl &kernel, const RunArgs &args,
              const std::vector<std::vector<std::string>> &frames,
              const VideoInputs &videos) {
  std::vector<std::pair<size_t, std::string>> known;
  size_t nextImage = 0, argument = 0;
  for (const arvr::Param &param : kernel.params) {
    size_t image = nextImage, index = argument;
    argument += param.type.isNv12 ? 2 : 1;
    if (!param.type.isImage)
      continue;
    ++nextImage;
    if (param.type.isNv12 || param.type.channels != 0 ||
        param.type.scalar != arvr::ScalarType::U8 ||
        image >= args.images.size())
      continue;
    if (image < videos.size() && videos[image]) {
      // Decoded to RGB.
      known.push_back({index, param.name + ".channels=3"});
      continue;
    }
    std::vector<std::string> paths;
    for (const std::vector<std::string> &frame : frames)
      paths.push_back(frame[image]);
    int channels = 0;
    for (const std::string &path : paths) {
      int width = 0, height = 0, these = 0;
      std::string error;
      if (isPfmPath(path) || !probeImage(path, width, height, these, error) ||
          (channels && these != channels)) {
        channels = 0;
        break;
      }
      channels = these;
    }
    if (channels >= 1 && channels <= 4)
      known.push_back(
          {index, param.name + ".channels=" + std::to_string(channels)});
  }
  return known;
}

/// Whether the images bound have the channel counts the kernel was
/// compiled for (knownChannels, from the files' headers); else false with
/// `error` set.
bool checkKnownChannels(
    const std::vector<std::pair<size_t, std::string>> &channels,
    const Bindings &bindings, std::string &error) {
  for (const auto &[argument, value] : channels) {
    const Image &image = bindings.args[argument].image;
    if (std::to_string(image.channels) !=
        llvm::StringRef(value).rsplit('=').second) {
      error = "'" + value + "' from the file's header, but it was read " +
              "with " + std::to_string(image.channels) + " channels";
      return false;
    }
  }
  return true;
}

/// Reads the image file at `path` for image parameter `param` into
/// `value`; a note on how it was read is printed as bindParams says.
static bool bindImage(const arvr::Param &param, const std::string &path,
                      ArgValue &value, std::string &error,
                      std::atomic<bool> *noted) {
  // u8 images come from PNG, JPEG, ... files; u16 ones from 16-bit
  // PNG or PPM/PGM files (8-bit ones widened); f32 images from PFM.
  bool isF32 = param.type.scalar == arvr::ScalarType::F32;
  bool isU16 = param.type.scalar == arvr::ScalarType::U16;
  if (param.type.scalar != arvr::ScalarType::U8 && !isF32 && !isU16) {
    error = path +
            ": image files hold u8, u16 (16-bit PNG, PPM, PGM) or, in "
            ".pfm, f32 pixels, but parameter '" +
            param.name + "' is " + param.type.str();
    return false;
  }
  if (isF32 != isPfmPath(path)) {
    error = path + (isF32 ? ": parameter '" + param.name + "' is " +
                                param.type.str() + "; give it a .pfm file"
                          : ": a .pfm file holds f32 pixels, but "
                            "parameter '" +
                                param.name + "' is " + param.type.str());
    return false;
  }
  value.isImage = true;
  std::string note;
  if (!readImage(path, param.type.channels, value.image, error, &note,
                 isU16 ? 2 : 1))
    return false;
  if (!note.empty() && !(noted && noted->exchange(true)))
    llvm::errs() << "note: " << note
                 << (noted ? " (said once, for the first such file of "
                             "the frames)"
                           : "")
                 << "\n";
  return true;
}

/// Binds images (in parameter order) and scalars (defaults, overridden by
/// --param) to `kernel`'s parameters. A note on how a file was read (a
/// 16-bit file for u8, an 8-bit one for u16) is printed; with `noted`
/// (shared by the frames of a run of many), only the first one.
bool bindParams(const arvr::KernelDecl &kernel, const RunArgs &args,
                Bindings &bindings, std::string &error,
                std::atomic<bool> *noted = nullptr,
                VideoInputs *videos = nullptr, bool *ended = nullptr) {
  std::vector<std::string> imageNames;
  for (const arvr::Param &param : kernel.params)
    if (param.type.isImage)
      imageNames.push_back(param.name);
  if (args.images.size() != imageNames.size()) {
    std::string list;
    for (const std::string &name : imageNames)
      list += (list.empty() ? "" : ", ") + name;
    error = "kernel '" + kernel.name + "' takes " +
            std::to_string(imageNames.size()) + " image" +
            (imageNames.size() == 1 ? "" : "s") + " (" + list + "), but " +
            std::to_string(args.images.size()) + " -i " +
            (args.images.size() == 1 ? "was" : "were") + " given";
    return false;
  }

  std::map<std::string, std::string> overrides;
  for (const std::string &assignment : args.params) {
    size_t eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0) {
      error = "--param '" + assignment + "' is not of the form name=value";
      return false;
    }
    overrides[assignment.substr(0, eq)] = assignment.substr(eq + 1);
  }
  for (const auto &[name, text] : overrides) {
    auto it = llvm::find_if(kernel.params, [&](const arvr::Param &param) {
      return param.name == name;
    });
    if (it == kernel.params.end()) {
      std::string list;
      for (const arvr::Param &param : kernel.params)
        if (!param.type.isImage)
          list += (list.empty() ? "" : ", ") + param.name + " (" +
                  param.type.str() + ")";
      error = "kernel '" + kernel.name + "' has no parameter '" + name + "'" +
              (list.empty() ? "" : "; its parameters are " + list);
      return false;
    }
    if (it->type.isImage) {
      error = "parameter '" + name + "' is an image; give it with -i";
      return false;
    }
  }

  // Arguments in the lowered kernel's order: one per parameter, two (its
  // planes) per NV12 frame.
  size_t nextImage = 0;
  for (const arvr::Param &param : kernel.params) {
    // A video's next frame, in the parameter's frame type.
    VideoReader *video =
        param.type.isImage && videos && nextImage < videos->size()
            ? (*videos)[nextImage].get()
            : nullptr;
    if (video) {
      ++nextImage;
      ArgValue value, chroma;
      value.isImage = chroma.isImage = true;
      if (!video->read(value.image, param.type.isNv12 ? &chroma.image : nullptr,
                       error)) {
        if (ended && error.empty())
          *ended = true;
        return false;
      }
      bindings.args.push_back(std::move(value));
      if (param.type.isNv12)
        bindings.args.push_back(std::move(chroma));
      continue;
    }
    if (param.type.isNv12) {
      const std::string &path = args.images[nextImage++];
      ArgValue luma, chroma;
      luma.isImage = chroma.isImage = true;
      if (!readNv12(path, args.frameSize, luma.image, chroma.image, error))
        return false;
      bindings.args.push_back(std::move(luma));
      bindings.args.push_back(std::move(chroma));
      continue;
    }
    ArgValue value;
    if (param.type.isImage) {
      if (!bindImage(param, args.images[nextImage++], value, error, noted))
        return false;
    } else if (auto it = overrides.find(param.name); it != overrides.end()) {
      if (!parseScalar(param, it->second, value, error))
        return false;
    } else if (param.defaultValue) {
      evaluateDefault(param, value);
    } else {
      error = "parameter '" + param.name +
              "' has no default; give it with "
              "--param " +
              param.name + "=<" + param.type.str() + ">";
      return false;
    }
    bindings.args.push_back(std::move(value));
  }

  for (const arvr::OutputDecl &output : kernel.outputs)
    if (output.type.scalar != arvr::ScalarType::U8 &&
        output.type.scalar != arvr::ScalarType::U16 &&
        output.type.scalar != arvr::ScalarType::F32) {
      error = "the output " +
              (kernel.namedOutputs ? "'" + output.name + "' " : "") + "of '" +
              kernel.name + "' is " + output.type.str() +
              ", but image files hold u8, u16 or (in .pfm) f32 pixels";
      return false;
    }
  return true;
}

/// The files of a pattern such as 'frames/*.png', sorted; empty if none.
std::vector<std::string> expandPattern(const std::string &pattern) {
  std::vector<std::string> files;
  glob_t matches;
  if (glob(pattern.c_str(), 0, nullptr, &matches) == 0) {
    for (size_t i = 0; i < matches.gl_pathc; ++i)
      files.push_back(matches.gl_pathv[i]);
    globfree(&matches);
  }
  std::sort(files.begin(), files.end());
  return files;
}

bool isPattern(const std::string &path) {
  return path.find_first_of("*?[") != std::string::npos;
}

/// The -i values of each frame of a run: one frame of `images` as given,
/// or, when any is a pattern, one frame per file of the patterns (each
/// expanded and sorted, all to the same count: a stereo pair's left and
/// right folders, in step), the other -i the same in every frame. The
/// first pattern names the outputs (`namer`). False with `error` set when
/// a pattern matches nothing or the counts differ.
bool frameInputs(const std::vector<std::string> &images,
                 std::vector<std::vector<std::string>> &frames, size_t &namer,
                 std::string &error) {
  frames = {images};
  namer = images.size();
  std::vector<std::vector<std::string>> expanded(images.size());
  size_t count = 1;
  for (size_t i = 0; i < images.size(); ++i) {
    if (!isPattern(images[i]))
      continue;
    expanded[i] = expandPattern(images[i]);
    if (expanded[i].empty()) {
      error = "no file matches '" + images[i] + "'";
      return false;
    }
    if (namer == images.size()) {
      namer = i;
      count = expanded[i].size();
    } else if (expanded[i].size() != count) {
      error = "-i '" + images[namer] + "' matches " + std::to_string(count) +
              " files but -i '" + images[i] + "' matches " +
              std::to_string(expanded[i].size()) +
              ": the patterns of a batch are read in step, so they must " +
              "match as many files";
      return false;
    }
  }
  if (namer == images.size())
    return true;
  frames.assign(count, images);
  for (size_t i = 0; i < images.size(); ++i)
    if (!expanded[i].empty())
      for (size_t f = 0; f < count; ++f)
        frames[f][i] = expanded[i][f];
  return true;
}

/// `dir/name.png` for input `.../name.ext`; `dir/name.OUTPUT.png` for the
/// output named OUTPUT of a kernel with named outputs (.pfm for f32).
std::string outputFor(const std::string &dir, const std::string &input,
                      const arvr::KernelDecl &kernel, size_t output) {
  std::string name = input.substr(input.find_last_of('/') + 1);
  size_t dot = name.find_last_of('.');
  if (dot != std::string::npos)
    name = name.substr(0, dot);
  if (kernel.namedOutputs)
    name += "." + kernel.outputs[output].name;
  bool isF32 = kernel.outputs[output].type.scalar == arvr::ScalarType::F32;
  return dir + "/" + name + (isF32 ? ".pfm" : ".png");
}

/// Whether a frame bound as `next` may join a batch whose first frame is
/// bound as `first`, making it `size` frames: at most `maxBatch`, the same
/// images' sizes and the same scalars, every image of the stacked frames
/// (twice over, for stage buffers) indexed in 32 bits, and at most 256 MiB
/// of images in all.
static bool batchesWith(const Bindings &first, const Bindings &next,
                        size_t size, size_t maxBatch) {
  if (size > maxBatch || first.args.size() != next.args.size() ||
      first.outputs.size() != next.outputs.size())
    return false;
  int64_t largest = 0, bytes = 0;
  for (unsigned i = 0; i < first.getNumArgs(); ++i) {
    const Image &a = first.getImage(i), &b = next.getImage(i);
    if (i < first.args.size() &&
        (first.args[i].isImage != next.args[i].isImage ||
         std::memcmp(&first.args[i].scalar, &next.args[i].scalar,
                     sizeof(first.args[i].scalar)) != 0))
      return false;
    if (i < first.args.size() && !first.args[i].isImage)
      continue;
    if (a.width != b.width || a.height != b.height ||
        a.channels != b.channels || a.elementBytes != b.elementBytes)
      return false;
    largest =
        std::max<int64_t>(largest, int64_t(a.width) * a.height * a.channels);
    bytes += static_cast<int64_t>(a.bytes());
  }
  // The batch's images take page-locked staging on each of two slots: at
  // most 256 MiB a batch (a batch amortises launches, which matters for
  // small frames; 8K frames go one or two at a time).
  const int64_t maxBytes = int64_t(256) << 20;
  return 2 * largest * static_cast<int64_t>(size) < (int64_t(1) << 31) &&
         bytes * static_cast<int64_t>(size) <= maxBytes;
}

/// The GPU in `driver` when --target asks for it or, with auto, when there
/// is one that can run the chip's code; null for the CPU. False (reported)
/// when --target cuda cannot be had.
static bool openTarget(const RunArgs &args,
                       std::unique_ptr<CudaDriver> &driver) {
  if (args.repeat && args.target != "cpu") {
    fail("--repeat times CPU runs: add --target cpu (GPU kernels are "
         "timed by bench/run.sh)");
    return false;
  }
  if (args.target != "cpu") {
    std::string whyNot;
    driver = CudaDriver::open(whyNot);
    if (!driver && args.target == "cuda") {
      fail("--target cuda: " + whyNot);
      return false;
    }
    if (!driver)
      llvm::errs() << "note: " << whyNot << "; running on the CPU\n";
  }
  // PTX for sm_XY runs on GPUs of compute capability X.Y and above.
  int chip = 0;
  if (driver && llvm::StringRef(args.chip).starts_with("sm_") &&
      !llvm::StringRef(args.chip).drop_front(3).getAsInteger(10, chip) &&
      driver->getComputeCapability() < chip) {
    fail("GPU 0 (" + driver->getDeviceName() + ") is sm_" +
         std::to_string(driver->getComputeCapability()) +
         ", older than the target " + args.chip + "; choose one with --chip");
    return false;
  }
  return true;
}

/// A frame's inputs read, outputs sized and their paths checked: done on
/// another thread for the next frame while this one runs, as the writing
/// of the previous frame's outputs is.
struct Frame {
  Bindings bindings;
  std::vector<std::string> outputPaths;
  std::string error;
  double seconds = 0; ///< Reading and preparing it.
  /// There is no such frame: an input (a video, a pattern's files, or
  /// --frames) ended before it.
  bool ended = false;
};

/// Where the frames of a run come from, and what each must satisfy.
struct FrameSource {
  const RunArgs &args;
  const std::vector<std::vector<std::string>> &frames;
  size_t namer; ///< The input whose file names name the outputs.
  bool batch;
  const std::string &folder;
  const arvr::KernelDecl &kernel;
  const std::vector<std::pair<size_t, std::string>> &channels;
  /// The kernel's launch plan, as the runtime reads it: output sizes and
  /// checks.
  const arvr::runtime::Plan &plan;
  VideoInputs &videos;
  bool videoOutputs; ///< Each -o a video, written frame after frame.
  bool patterned;    ///< Some -i is a pattern (`frames` its files).
  /// Whether a note on how an image file was read was printed (once).
  std::atomic<bool> noted{false};

  /// How many frames the run will have: exact for files, the containers'
  /// count for videos (-1 when none says), --frames at most.
  int64_t expectedFrames() const;
  /// Frames a second of video outputs.
  double outputFps() const;
  /// Where the outputs go, for progress and the summary.
  std::string destination() const;

  Frame read(size_t f);
  /// Frame `f`'s outputs, sized by the kernel's own arithmetic on the bound
  /// inputs; false with `error` if a size is out of range.
  bool sizeOutputs(Bindings &bindings, std::string &error);
};

int64_t FrameSource::expectedFrames() const {
  int64_t count = patterned ? int64_t(frames.size()) : -1;
  for (const auto &video : videos)
    if (video && video->info().frames >= 0)
      count = count < 0 ? video->info().frames
                        : std::min(count, video->info().frames);
  if (count < 0 && llvm::none_of(videos, [](const auto &v) { return !!v; }))
    count = 1;
  if (args.maxFrames > 0)
    count = count < 0 ? -1 : std::min(count, args.maxFrames);
  return count;
}

double FrameSource::outputFps() const {
  if (args.fps > 0)
    return args.fps;
  for (const auto &video : videos)
    if (video && video->info().fps > 0)
      return video->info().fps;
  return 30;
}

std::string FrameSource::destination() const {
  if (!videoOutputs)
    return llvm::StringRef(folder).ends_with("/") ? folder : folder + "/";
  std::string list;
  for (const std::string &path : args.outputs)
    list += (list.empty() ? "" : ", ") + path;
  return list;
}

/// "dir/clip_000042.png" for frame 42 of the video `clip.mp4` (its
/// outputs named as outputFor names those of an image).
static std::string videoFrameName(const std::string &video, size_t f) {
  std::string name = video.substr(video.find_last_of('/') + 1);
  name = name.substr(0, name.find_last_of('.'));
  char number[16];
  std::snprintf(number, sizeof number, "_%06zu", f + 1);
  return name + number + ".png";
}

Frame FrameSource::read(size_t f) {
  auto frameStart = std::chrono::steady_clock::now();
  Frame frame;
  bool hasVideo = llvm::any_of(videos, [](const auto &v) { return !!v; });
  if ((args.maxFrames > 0 && int64_t(f) >= args.maxFrames) ||
      ((patterned || !hasVideo) && f >= frames.size())) {
    frame.ended = true;
    return frame;
  }
  RunArgs frameArgs = args;
  frameArgs.images = frames[patterned ? f : 0];
  frame.outputPaths = args.outputs;
  if (batch && !videoOutputs) {
    frame.outputPaths.clear();
    std::string name = videos[namer]
                           ? videoFrameName(frameArgs.images[namer], f)
                           : frameArgs.images[namer];
    for (size_t o = 0; o < kernel.outputs.size(); ++o)
      frame.outputPaths.push_back(outputFor(folder, name, kernel, o));
  }
  Bindings &bindings = frame.bindings;
  std::string &error = frame.error;
  auto done = [&]() {
    frame.seconds = std::chrono::duration<double>(
                        std::chrono::steady_clock::now() - frameStart)
                        .count();
    return std::move(frame);
  };
  if (!bindParams(kernel, frameArgs, bindings, error, batch ? &noted : nullptr,
                  &videos, &frame.ended) ||
      !checkKnownChannels(channels, bindings, error) ||
      !sizeOutputs(bindings, error))
    return done();
  // Every output can be written where asked, before any is: a run writes
  // all its outputs or none.
  if (!videoOutputs)
    for (auto [path, image] : llvm::zip(frame.outputPaths, bindings.outputs))
      if (!checkOutputPath(path, image.elementBytes, image.channels, error))
        return done();
  return done();
}

bool FrameSource::sizeOutputs(Bindings &bindings, std::string &error) {
  // The plan's values for the inputs bound, its checks (reductions' ranges,
  // functions' extents) passed.
  arvr::runtime::Evaluation evaluation;
  if (!evaluation.evaluate(plan, planBindings(bindings), error))
    return false;
  for (size_t o = 0; o < kernel.outputs.size(); ++o) {
    std::array<int64_t, 3> size;
    if (!evaluation.outputSize(unsigned(bindings.args.size() + o), size)) {
      error = "internal compiler error: cannot compute the outputs' sizes";
      return false;
    }
    auto [width, height, channels] = size;
    if (width < 1 || height < 1 || width > kMaxImageSide ||
        height > kMaxImageSide) {
      error = "the output " +
              (kernel.namedOutputs ? "'" + kernel.outputs[o].name + "' "
                                   : std::string()) +
              "of '" + kernel.name + "' would be " + std::to_string(width) +
              "x" + std::to_string(height) + ", outside 1 to " +
              std::to_string(kMaxImageSide) + " pixels a side";
      return false;
    }
    Image image;
    image.width = static_cast<int>(width);
    image.height = static_cast<int>(height);
    image.channels = static_cast<int>(channels);
    arvr::ScalarType scalar = kernel.outputs[o].type.scalar;
    image.elementBytes = scalar == arvr::ScalarType::F32   ? 4
                         : scalar == arvr::ScalarType::U16 ? 2
                                                           : 1;
    image.pixels.assign(image.bytes(), 0);
    bindings.outputs.push_back(std::move(image));
  }
  return true;
}

/// The launch plan of `kernel` for a run: for CUDA from the lowered host
/// code (with the PTX in `ptx`), for the CPU from the kernel in the arvr
/// dialect; as JSON text (`text`) and as the runtime reads it (`plan`).
static bool runPlan(Compilation &compilation, const arvr::KernelDecl &kernel,
                    bool cuda, std::string &text, arvr::runtime::Plan &plan,
                    std::string &ptx, std::string &error) {
  LaunchPlan built;
  BoundedFunctions bounded = boundedFunctionsOf(kernel);
  if (cuda) {
    if (!compilation.getPtx(ptx)) {
      error = "internal compiler error: the pipeline produced no PTX";
      return false;
    }
    if (!buildLaunchPlan(compilation.getModule(), compilation.getArvrModule(),
                         kernel.name, kernel.name + ".ptx", false, built, error,
                         bounded))
      return false;
  } else {
    if (!buildKernelPlan(compilation.getArvrModule(), kernel.name, bounded,
                         built, error))
      return false;
    built.cpuEntry = "_mlir__mlir_ciface_" + kernel.name;
    built.indexBits = 64;
  }
  addScalarDefaults(kernel, built);
  llvm::raw_string_ostream os(text);
  writeLaunchPlanJson(built, os);
  if (arvr::runtime::parsePlan(text, plan, error))
    return true;
  error = "internal compiler error: " + error;
  return false;
}

/// The frames of a run, from reading to writing: each frame read ahead on
/// another thread (FrameSource), run, and its outputs written on another
/// thread, after the previous frame's. On the GPU, batches of frames take
/// turns on two slots (each a CUDA stream with its buffers): batch b's
/// copies and kernels are queued while batch b-1's are still running, then
/// batch b-1 is finished and handed on. A batch is up to 8 consecutive
/// frames of the same sizes, run as one launch per kernel where the kernel
/// takes stacked frames.
class FrameLoop {
public:
  using Clock = std::chrono::steady_clock;
  FrameLoop(const RunArgs &args, FrameSource &source, CudaDriver *driver,
            CudaKernels *gpu, CpuKernels *cpu, const std::string &planText)
      : args(args), source(source), driver(driver), gpu(gpu), cpu(cpu),
        planText(planText),
        progress(source.batch && llvm::errs().is_displayed()) {}

  /// Every frame; false (reported) at the first failure, with the outputs
  /// already being written finished.
  bool run();

  double runSeconds = 0, readSeconds = 0, writeSeconds = 0;
  RunTimes gpuTimes;
  size_t framesRun = 0;

private:
  struct Written {
    std::string error;
    double seconds = 0;
  };
  using Batch = std::vector<std::pair<size_t, Frame>>;

  static double seconds(Clock::duration d) {
    return std::chrono::duration<double>(d).count();
  }
  /// Waits for the writes in flight until at most `keep` are; false
  /// (reported) if one failed.
  bool finishWriting(size_t keep = 0);
  bool hand(size_t f, Frame &frame);
  bool finishOldest();
  bool submitPending();
  /// Frame `f` into the pending batch (submitted when it is full, when the
  /// next frame cannot join it, and at the end).
  bool onGpu(size_t f, Frame &frame);
  bool onCpu(size_t f, Frame &frame);

  const RunArgs &args;
  FrameSource &source;
  CudaDriver *driver;
  CudaKernels *gpu;
  CpuKernels *cpu;
  const std::string &planText;
  bool progress;
  std::string error;
  /// Frames' outputs being written, oldest first: images several at once,
  /// a video's frames each after the one before.
  std::deque<std::shared_future<Written>> writing;
  std::shared_ptr<CudaSlot> slots[2];
  size_t maxBatch = 1;
  std::deque<std::pair<size_t, Batch>> inFlight;
  Batch pending;
  size_t submitted = 0;
  /// Each output's video, opened with its first frame (on the writing
  /// thread, as every write to it).
  std::vector<std::unique_ptr<VideoWriter>> videos;
  Clock::time_point started = Clock::now();
  /// Ends the videos written (their files renamed into place) and says
  /// what was written.
  bool finishVideos();
  void showProgress(size_t f);
  /// Says which inputs read in step had frames left when another ended
  /// the run after `frames` frames.
  void noteUnread(size_t frames);
};

void FrameLoop::noteUnread(size_t frames) {
  const auto &images = source.args.images;
  std::string ender;
  for (size_t i = 0; i < source.videos.size(); ++i)
    if (source.videos[i] && source.videos[i]->atEnd())
      ender = images[i];
  if (ender.empty() &&
      !(args.maxFrames > 0 && int64_t(frames) >= args.maxFrames) &&
      source.patterned && frames >= source.frames.size())
    ender = images[source.namer];
  if (ender.empty())
    return; // --frames ended it.
  for (size_t i = 0; i < images.size(); ++i) {
    bool moreFiles = source.patterned && isPattern(images[i]) &&
                     source.frames.size() > frames;
    bool moreVideo = i < source.videos.size() && source.videos[i] &&
                     source.videos[i]->hasMore();
    if ((moreFiles || moreVideo) && images[i] != ender)
      llvm::errs() << "note: -i " << images[i]
                   << " has more frames; the run ended with the last of -i "
                   << ender << " (" << frames << ")\n";
  }
}

bool FrameLoop::finishWriting(size_t keep) {
  while (writing.size() > keep) {
    Written written = writing.front().get();
    writing.pop_front();
    writeSeconds += written.seconds;
    if (written.error.empty())
      continue;
    for (auto &other : writing)
      other.wait();
    writing.clear();
    fail(written.error);
    return false;
  }
  return true;
}

/// How many frames' outputs may be being written at once: up to 8, at most
/// 512 MiB of them.
static size_t writeDepth(const std::vector<Image> &outputs) {
  size_t bytes = 1;
  for (const Image &image : outputs)
    bytes += image.bytes();
  return std::clamp<size_t>((size_t(512) << 20) / bytes, 1, 8);
}

bool FrameLoop::hand(size_t f, Frame &frame) {
  if (!finishWriting(writeDepth(frame.bindings.outputs) - 1))
    return false;
  std::vector<std::string> sizes;
  for (const Image &image : frame.bindings.outputs)
    sizes.push_back(std::to_string(image.width) + "x" +
                    std::to_string(image.height) + ", " +
                    std::to_string(image.channels) + " channel" +
                    (image.channels == 1 ? "" : "s"));
  // A video's frames are encoded in order: each write waits for the one
  // before (and is skipped if that one failed, which says why).
  std::shared_future<Written> previous;
  if (source.videoOutputs && !writing.empty())
    previous = writing.back();
  auto write = [this, level = args.pngLevel, quality = args.jpegQuality,
                previous](std::vector<std::string> paths,
                          std::vector<Image> images) {
    Written written;
    if (previous.valid() && !previous.get().error.empty())
      return written;
    Clock::time_point start = Clock::now();
    std::string &error = written.error;
    for (size_t o = 0; o < images.size() && error.empty(); ++o) {
      if (!source.videoOutputs) {
        writeImage(paths[o], images[o], error, level, quality);
        continue;
      }
      if (videos.size() < images.size())
        videos.resize(images.size());
      if (!videos[o])
        videos[o] = VideoWriter::open(paths[o], images[o], source.outputFps(),
                                      args.crf, error);
      if (videos[o])
        videos[o]->write(images[o], error);
    }
    written.seconds = seconds(Clock::now() - start);
    return written;
  };
  writing.push_back(std::async(std::launch::async, write, frame.outputPaths,
                               std::move(frame.bindings.outputs))
                        .share());
  ++framesRun;
  if (progress)
    showProgress(f);
  if (source.batch || source.videoOutputs) // Said at the end.
    return true;
  if (!finishWriting())
    return false;
  for (auto [path, size] : llvm::zip(frame.outputPaths, sizes))
    llvm::outs() << "arvrc: wrote " << path << " (" << size << ") on "
                 << (driver ? "cuda, " + driver->getDeviceName()
                            : std::string("cpu"))
                 << "\n";
  return true;
}

void FrameLoop::showProgress(size_t f) {
  double elapsed = seconds(Clock::now() - started);
  double fps = elapsed > 0 ? (f + 1) / elapsed : 0;
  int64_t expected = source.expectedFrames();
  std::string total = expected > 0 ? std::to_string(expected) : "?";
  std::string eta;
  if (expected > int64_t(f + 1) && fps > 0)
    eta = llvm::formatv(", {0:F0} s left", (expected - int64_t(f + 1)) / fps);
  llvm::errs() << llvm::formatv("\r[{0}/{1}] {2:F1} frames/s{3}", f + 1, total,
                                fps, eta)
               << "\x1b[K";
}

bool FrameLoop::finishVideos() {
  for (size_t o = 0; o < videos.size(); ++o) {
    std::string error;
    if (!videos[o] || videos[o]->finish(error))
      continue;
    fail(error);
    return false;
  }
  for (size_t o = 0; o < videos.size(); ++o)
    if (videos[o])
      llvm::outs() << "arvrc: wrote " << args.outputs[o] << " ("
                   << videos[o]->getFrames() << " frame"
                   << (videos[o]->getFrames() == 1 ? "" : "s") << ", "
                   << videos[o]->describe() << ")\n";
  return true;
}

bool FrameLoop::finishOldest() {
  auto &[b, batchFrames] = inFlight.front();
  Clock::time_point waitStart = Clock::now();
  bool ok = gpu->finish(*slots[b % 2], error, &gpuTimes);
  runSeconds += seconds(Clock::now() - waitStart);
  if (!ok) {
    finishWriting();
    fail(error);
    return false;
  }
  for (auto &[f, frame] : batchFrames)
    if (ok)
      ok = hand(f, frame);
  inFlight.pop_front();
  return ok;
}

bool FrameLoop::submitPending() {
  if (pending.empty())
    return true;
  // A slot is free once the batch before the previous one is finished.
  if (inFlight.size() == 2 && !finishOldest())
    return false;
  size_t b = submitted++;
  inFlight.emplace_back(b, std::move(pending));
  pending.clear();
  std::vector<Bindings *> bindings;
  for (auto &[f, frame] : inFlight.back().second)
    bindings.push_back(&frame.bindings);
  Clock::time_point runStart = Clock::now();
  bool ok = gpu->submit(bindings, *slots[b % 2], error);
  runSeconds += seconds(Clock::now() - runStart);
  if (!ok) {
    finishWriting();
    fail(error);
    return false;
  }
  return inFlight.size() < 2 || finishOldest();
}

bool FrameLoop::onGpu(size_t f, Frame &frame) {
  if (!pending.empty() &&
      !batchesWith(pending.front().second.bindings, frame.bindings,
                   pending.size() + 1, maxBatch) &&
      !submitPending())
    return false;
  pending.emplace_back(f, std::move(frame));
  return true;
}

bool FrameLoop::onCpu(size_t f, Frame &frame) {
  // The file before is written first when timing repeats.
  if (args.repeat && !finishWriting())
    return false;
  std::vector<double> times;
  bool ok = true;
  for (int r = 0; ok && r <= args.repeat; ++r) {
    Clock::time_point runStart = Clock::now();
    ok = cpu->run(source.kernel.name, planText, frame.bindings, error);
    times.push_back(seconds(Clock::now() - runStart));
  }
  if (ok && args.repeat) // The median of the repeats, the first left out.
    times.erase(times.begin());
  std::nth_element(times.begin(), times.begin() + times.size() / 2,
                   times.end());
  runSeconds += times[times.size() / 2];
  if (!ok) {
    finishWriting();
    fail(error);
    return false;
  }
  return hand(f, frame);
}

bool FrameLoop::run() {
  if (gpu) {
    for (auto &slot : slots)
      if (!(slot = gpu->createSlot(error))) {
        fail(error);
        return false;
      }
    maxBatch = gpu->takesBatches() ? 8 : 1;
  }
  auto prepare = [this](size_t f) { return source.read(f); };
  std::future<Frame> next = std::async(std::launch::async, prepare, 0);
  for (size_t f = 0;; ++f) {
    Frame frame = next.get();
    readSeconds += frame.seconds;
    if (frame.ended && f == 0)
      frame.error = source.args.images[source.namer] + ": holds no frames" +
                    (source.args.start > 0 ? " from --start on" : "");
    if (!frame.error.empty()) {
      if (gpu && !submitPending())
        return false;
      while (!inFlight.empty() && finishOldest()) {
      }
      finishWriting();
      fail(frame.error);
      return false;
    }
    if (frame.ended) {
      noteUnread(f);
      break;
    }
    next = std::async(std::launch::async, prepare, f + 1);
    if (!(gpu ? onGpu(f, frame) : onCpu(f, frame))) {
      next.wait();
      return false;
    }
  }
  if (gpu && !submitPending())
    return false;
  while (!inFlight.empty())
    if (!finishOldest())
      return false;
  if (!finishWriting())
    return false;
  if (progress)
    llvm::errs() << "\n";
  return finishVideos();
}

/// Whether -i `path` is read as a video: by its extension (isVideoPath),
/// or a raw .nv12 file holding more than one frame (of the size that
/// --frame-size or its name gives).
static bool isVideoInput(const std::string &path, const RunArgs &args) {
  if (isVideoPath(path))
    return true;
  int width = 0, height = 0;
  std::string error;
  return llvm::StringRef(path).ends_with_insensitive(".nv12") &&
         nv12FrameSize(path, args.frameSize, width, height, error) &&
         nv12FramesIn(path, width, height) > 1;
}

/// The videos among the -i of `args` opened, each to decode to its
/// parameter's frame type: NV12 for an nv12 parameter, else its channels
/// (RGB when it does not say) and element size. False (reported) if one
/// cannot be opened or its parameter cannot take video frames.
static bool openVideoInputs(const arvr::KernelDecl &kernel, const RunArgs &args,
                            VideoInputs &videos) {
  videos.clear();
  videos.resize(args.images.size());
  size_t image = 0;
  for (const arvr::Param &param : kernel.params) {
    if (!param.type.isImage || image >= args.images.size())
      continue;
    const std::string &path = args.images[image++];
    if (!isVideoInput(path, args))
      continue;
    VideoFrameType type;
    type.nv12 = param.type.isNv12;
    type.channels = param.type.channels ? param.type.channels : 3;
    type.elementBytes = param.type.scalar == arvr::ScalarType::U16 ? 2 : 1;
    if (!type.nv12 &&
        (param.type.scalar == arvr::ScalarType::F32 || type.channels == 2)) {
      fail(path +
           ": video frames are u8 or u16 grey, RGB or RGBA, but "
           "parameter '" +
           param.name + "' is " + param.type.str());
      return false;
    }
    int rawWidth = 0, rawHeight = 0;
    std::string error;
    if (llvm::StringRef(path).ends_with_insensitive(".nv12") &&
        !nv12FrameSize(path, args.frameSize, rawWidth, rawHeight, error))
      return fail(error), false;
    videos[image - 1] = VideoReader::open(path, type, rawWidth, rawHeight,
                                          args.fps, args.start, error);
    if (!videos[image - 1])
      return fail(error), false;
  }
  return true;
}

/// The frames of `args` (an -i that is a pattern names many, read in step
/// with the others and with the videos of `videos`; `namer` the one that
/// names the outputs, `batch` whether there are many) and where their
/// outputs go (`videoOutputs`: each -o a video); false (reported) if the
/// -o do not fit the kernel or the folder cannot be made.
static bool planFrames(const RunArgs &args, const arvr::KernelDecl &kernel,
                       const VideoInputs &videos,
                       std::vector<std::vector<std::string>> &frames,
                       size_t &namer, bool &batch, bool &videoOutputs) {
  auto refuse = [](const std::string &message) {
    fail(message);
    return false;
  };
  std::string frameError;
  if (!frameInputs(args.images, frames, namer, frameError))
    return refuse(frameError);
  for (size_t i = 0; i < videos.size() && i < namer; ++i)
    if (videos[i])
      namer = i;
  batch = namer < args.images.size();
  if (args.start > 0 &&
      llvm::none_of(videos, [](const auto &v) { return v != nullptr; }))
    return refuse("--start selects a time in a video, but no -i is one");
  videoOutputs = llvm::all_of(args.outputs, [](const std::string &path) {
    return isVideoOutputPath(path);
  });
  bool someVideo = llvm::any_of(args.outputs, [](const std::string &path) {
    return isVideoOutputPath(path);
  });
  const std::string &folder = args.outputs.front();
  if (someVideo && !videoOutputs)
    return refuse("the -o are videos and images together: give one video "
                  "per output of the kernel, or image files (a folder for "
                  "many frames)");
  if (batch && !videoOutputs) {
    if (args.outputs.size() != 1)
      return refuse("-i '" + args.images[namer] +
                    "' names several frames: give one -o, the output "
                    "folder, or one video per output of the kernel");
    if (llvm::sys::fs::exists(folder) && !llvm::sys::fs::is_directory(folder))
      return refuse(folder + ": is not a folder, but -i '" +
                    args.images[namer] + "' names several frames");
    if (llvm::sys::fs::create_directories(folder))
      return refuse(folder + ": cannot create this output folder");
  } else if (args.outputs.size() != kernel.outputs.size()) {
    std::string list;
    for (const arvr::OutputDecl &output : kernel.outputs)
      list += (list.empty() ? "" : ", ") + output.name;
    return refuse("kernel '" + kernel.name + "' has " +
                  std::to_string(kernel.outputs.size()) + " output" +
                  (kernel.outputs.size() == 1 ? "" : "s") + " (" + list +
                  "), but " + std::to_string(args.outputs.size()) + " -o " +
                  (args.outputs.size() == 1 ? "was" : "were") + " given");
  }
  return true;
}

/// The line a run of many frames ends with: frames a second, and where
/// each frame's time went: reading (decoding), running (on the GPU split
/// into copies and kernels), writing (encoding); the three overlap.
static void printSummary(size_t count, const std::string &destination,
                         const CudaDriver *driver, const RunTimes *gpuTimes,
                         double total, double compileSeconds,
                         const FrameLoop &loop, const char *cached) {
  double n = static_cast<double>(count);
  std::string split =
      gpuTimes ? llvm::formatv(" ({0:F2} copying in, {1:F2} in kernels, "
                               "{2:F2} copying out)",
                               1e3 * gpuTimes->upload / n,
                               1e3 * gpuTimes->kernels / n,
                               1e3 * gpuTimes->download / n)
                     .str()
               : std::string();
  llvm::outs() << llvm::formatv(
      "arvrc: {0} frames to {1} on {2}: {3:F1} frames/s "
      "(compile {4:F2} s once{5}; per frame {6:F2} ms reading, {7:F2} ms "
      "running{8}, {9:F2} ms writing, overlapped)\n",
      count, destination,
      driver ? "cuda, " + driver->getDeviceName() : std::string("cpu"),
      total > 0 ? n / total : 0.0, compileSeconds, cached,
      1e3 * loop.readSeconds / n, 1e3 * loop.runSeconds / n, split,
      1e3 * loop.writeSeconds / n);
}

int runRun(const RunArgs &args) {
  using Clock = std::chrono::steady_clock;
  auto seconds = [](Clock::duration d) {
    return std::chrono::duration<double>(d).count();
  };
  Compilation compilation;
  if (!compilation.load(args.input) || !compilation.parse())
    return kExitError;
  const arvr::KernelDecl *kernel =
      selectKernel(compilation.getAst(), args.kernel, args.input);
  if (!kernel)
    return kExitError;
  // Only the kernel that runs is compiled: the values it is specialised
  // for (its images' channel counts) are its own, not its neighbours'.
  std::string kernelName = kernel->name;
  if (!compilation.keepOnlyKernel(kernelName))
    return fail(args.input + ": no kernel named '" + kernelName + "'");
  kernel = &compilation.getAst().kernels.front();

  std::vector<std::vector<std::string>> frames;
  size_t namer = 0;
  bool batch = false, videoOutputs = false;
  VideoInputs videos;
  if (!openVideoInputs(*kernel, args, videos) ||
      !planFrames(args, *kernel, videos, frames, namer, batch, videoOutputs))
    return kExitError;
  bool patterned = llvm::any_of(args.images, isPattern);
  // The target: the GPU when asked for or, with auto, when there is one.
  std::unique_ptr<CudaDriver> driver;
  if (!openTarget(args, driver))
    return kExitError;

  // Compile once, for every frame.
  Clock::time_point start = Clock::now();
  CompileOptions options;
  options.target = driver ? Target::Cuda : Target::Cpu;
  options.chip = args.chip;
  options.cudaPath = usableCudaPath(args.cudaPath);
  options.useCache = !args.noCache;
  options.specialize = knownScalars(*kernel, args.params);
  // Images' channel counts, from the files' headers.
  std::vector<std::pair<size_t, std::string>> channels =
      knownChannels(*kernel, args, frames, videos);
  for (const auto &[argument, value] : channels)
    options.specialize.push_back(value);
  options.fastMath = args.fastMath;
  if (!compilation.lower(options, driver ? Emit::Ptx : Emit::Llvm))
    return kExitError;
  std::string error;
  std::unique_ptr<CpuKernels> cpu;
  // The machine code kept beside the compile cache's entry, for this CPU.
  if (!driver && !(cpu = CpuKernels::create(compilation.getModule(), error,
                                            compilation.getCacheFile())))
    return fail(error);
  Clock::duration compileTime = Clock::now() - start;

  // The launch plan, as `arvrc build` writes it: the runner runs the
  // kernel through the runtime library, as a user's program does.
  std::string planText, ptx;
  arvr::runtime::Plan plan;
  if (!runPlan(compilation, *kernel, driver != nullptr, planText, plan, ptx,
               error))
    return fail(error);
  std::unique_ptr<CudaKernels> gpu;
  if (driver)
    gpu =
        std::make_unique<CudaKernels>(planText, ptx, plan.batchGridZ, *driver);

  const std::string &folder = args.outputs.front();
  FrameSource source{args,     frames, namer,  batch,        folder,   *kernel,
                     channels, plan,   videos, videoOutputs, patterned};
  Clock::time_point loopStart = Clock::now();
  FrameLoop loop(args, source, driver.get(), gpu.get(), cpu.get(), planText);
  if (!loop.run())
    return kExitError;
  if (batch)
    printSummary(loop.framesRun, source.destination(), driver.get(),
                 gpu ? &loop.gpuTimes : nullptr,
                 seconds(Clock::now() - loopStart), seconds(compileTime), loop,
                 !compilation.wasCached() ? ""
                 : cpu && cpu->fromObjectCache()
                     ? ", from the compile cache, machine code too"
                     : ", from the compile cache");
  return 0;
}

//===----------------------------------------------------------------------===//
// arvrc compare
//===----------------------------------------------------------------------===//

struct CompareArgs {
  std::string a, b;
  double maxAbs = -1;     ///< Fail when the largest difference exceeds this.
  double minPsnr = -1;    ///< Fail when the PSNR is below this (dB).
  double minWithin1 = -1; ///< Fail when fewer % of values are within 1.
  /// f32 images: fail when the largest difference exceeds this fraction of
  /// the peak (the largest |value| of b).
  double maxAbsOfPeak = -1;
  std::string diff; ///< Where to write the heat map, if anywhere.
};

/// A heat map of the differences of `a` and `b`: where they agree, `a`'s
/// brightness, dimmed to a quarter; where they differ, a colour from
/// yellow (the smallest difference) to red (`largest`).
static Image heatMap(const Image &a, const Image &b, double largest) {
  Image map;
  map.width = a.width;
  map.height = a.height;
  map.channels = 3;
  map.pixels.assign(map.size(), 0);
  auto value = [](const Image &image, size_t i) { return image.valueAt(i); };
  size_t points = size_t(a.width) * a.height;
  for (size_t p = 0; p < points; ++p) {
    double diff = 0, level = 0;
    for (int c = 0; c < a.channels; ++c) {
      size_t i = p * a.channels + c;
      double d = std::fabs(value(a, i) - value(b, i));
      diff = std::isnan(d) ? largest : std::max(diff, d);
      level += value(a, i);
    }
    uint8_t *rgb = &map.pixels[p * 3];
    if (diff == 0) {
      // u8 levels are 0..255, u16 ones 0..65535; f32 ones are taken as
      // 0..1.
      double grey = level / a.channels / a.typeMax();
      uint8_t dim = uint8_t(std::clamp(grey, 0.0, 1.0) * 64);
      rgb[0] = rgb[1] = rgb[2] = dim;
      continue;
    }
    double t = largest > 0 ? std::min(diff / largest, 1.0) : 1.0;
    rgb[0] = 255;
    rgb[1] = uint8_t(std::lround(255 * (1 - t)));
    rgb[2] = 0;
  }
  return map;
}

int runCompare(const CompareArgs &args) {
  Image a, b;
  std::string error;
  // Each file as it stores its values: u8, u16 (16-bit files) or f32.
  if (!readImage(args.a, 0, a, error, nullptr, 0) ||
      !readImage(args.b, 0, b, error, nullptr, 0))
    return fail(error);
  if (a.width != b.width || a.height != b.height || a.channels != b.channels)
    return fail(args.a + " is " + std::to_string(a.width) + "x" +
                std::to_string(a.height) + "x" + std::to_string(a.channels) +
                " but " + args.b + " is " + std::to_string(b.width) + "x" +
                std::to_string(b.height) + "x" + std::to_string(b.channels));
  auto kind = [](const Image &image) -> std::string {
    return image.isFloat() ? "f32" : image.isU16() ? "u16" : "u8";
  };
  if (args.maxAbsOfPeak >= 0 && !b.isFloat())
    return fail("--max-abs-of-peak compares f32 images, but " + args.b +
                " holds " + kind(b) + " values");
  if (a.elementBytes != b.elementBytes)
    return fail(args.a + " holds " + kind(a) + " values but " + args.b +
                " holds " + kind(b) + " values; compare images of one kind");
  // Differences as doubles: u8 values are 0..255, f32 values as they are
  // (a NaN in one image and not the other is the largest difference).
  double maxAbs = 0, sumAbs = 0, sumSquares = 0, peak = a.typeMax();
  size_t identical = 0, withinOne = 0;
  bool nanMismatch = false;
  if (a.isFloat()) {
    peak = 0;
    for (size_t i = 0; i < b.size(); ++i)
      if (std::isfinite(b.floatAt(i)))
        peak = std::max(peak, double(std::fabs(b.floatAt(i))));
    if (peak == 0)
      peak = 1;
  }
  for (size_t i = 0; i < a.size(); ++i) {
    double x = a.valueAt(i), y = b.valueAt(i);
    if (std::isnan(x) || std::isnan(y)) {
      bool same = std::isnan(x) && std::isnan(y);
      identical += same;
      withinOne += same;
      nanMismatch |= !same;
      continue;
    }
    double diff = x == y ? 0 : std::fabs(x - y);
    maxAbs = std::max(maxAbs, diff);
    sumAbs += diff;
    sumSquares += diff * diff;
    identical += diff == 0;
    withinOne += diff <= 1;
  }
  if (nanMismatch)
    maxAbs = INFINITY;
  double n = static_cast<double>(a.size());
  double mse = sumSquares / n;
  double psnr = mse == 0 ? INFINITY : 10 * std::log10(peak * peak / mse);
  auto number = [](double v) {
    char text[32];
    std::snprintf(text, sizeof(text), "%g", v);
    return std::string(text);
  };
  llvm::outs() << "max abs diff   "
               << (std::isinf(maxAbs) ? "inf (NaN in one image only)"
                                      : number(maxAbs))
               << "\n"
               << llvm::format("mean abs diff  %.4f\n", sumAbs / n)
               << (mse == 0
                       ? std::string("PSNR           inf dB")
                       : llvm::formatv("PSNR           {0:F2} dB", psnr).str())
               << (a.isFloat() ? " (peak " + number(peak) +
                                     ", the largest |value| of " + args.b + ")"
                               : std::string())
               << "\n"
               << llvm::format("identical      %.3f%%\n", 100 * identical / n)
               << llvm::format("within 1       %.3f%%\n", 100 * withinOne / n);
  if (!args.diff.empty()) {
    if (!writeImage(args.diff, heatMap(a, b, maxAbs), error))
      return fail(error);
    llvm::outs() << "heat map       " << args.diff << "\n";
  }
  bool ok = true;
  if (args.maxAbs >= 0 && !(maxAbs <= args.maxAbs)) {
    llvm::errs() << llvm::format("error: max abs diff %g exceeds %g\n", maxAbs,
                                 args.maxAbs);
    ok = false;
  }
  if (args.maxAbsOfPeak >= 0 && !(maxAbs <= args.maxAbsOfPeak * peak)) {
    llvm::errs() << llvm::format("error: max abs diff %g exceeds %g of the "
                                 "peak %g (%g)\n",
                                 maxAbs, args.maxAbsOfPeak, peak,
                                 args.maxAbsOfPeak * peak);
    ok = false;
  }
  if (args.minWithin1 >= 0 && 100 * withinOne / n < args.minWithin1) {
    llvm::errs() << llvm::format("error: %.3f%% of values are within 1, "
                                 "fewer than %.3f%%\n",
                                 100 * withinOne / n, args.minWithin1);
    ok = false;
  }
  if (args.minPsnr >= 0 && psnr < args.minPsnr) {
    llvm::errs() << llvm::format("error: PSNR %.2f dB is below %.2f dB\n", psnr,
                                 args.minPsnr);
    ok = false;
  }
  return ok ? 0 : kExitError;
}

//===----------------------------------------------------------------------===//
// arvrc info
//===----------------------------------------------------------------------===//

/// Exit 0 when a CUDA GPU is usable, 1 (saying why) when not.
int runInfo() {
  std::string whyNot;
  std::unique_ptr<CudaDriver> driver = CudaDriver::open(whyNot);
  if (!driver) {
    llvm::outs() << "GPU: none (" << whyNot << ")\n";
    return kExitError;
  }
  int version = driver->getDriverVersion();
  int cc = driver->getComputeCapability();
  llvm::outs() << "GPU 0: " << driver->getDeviceName() << ", compute "
               << "capability " << cc / 10 << "." << cc % 10 << " (sm_" << cc
               << "), CUDA driver " << version / 1000 << "."
               << (version % 1000) / 10 << "\n";
  return 0;
}

} // namespace

/// `--chip`: sm_ followed by the compute capability, e.g. sm_90 or sm_90a.
const CLI::Validator kChipValidator(
    [](std::string &chip) -> std::string {
      llvm::StringRef digits = llvm::StringRef(chip);
      if (!digits.consume_front("sm_"))
        return "'" + chip + "' is not a GPU architecture such as sm_90";
      digits = digits.rtrim("af");
      unsigned cc = 0;
      if (digits.getAsInteger(10, cc) || cc < 50)
        return "'" + chip + "' is not a GPU architecture such as sm_90";
      return "";
    },
    "sm_XY");

/// `arvrc build` and its options, read into `build`.
static CLI::App *addBuildCommand(CLI::App &app, BuildArgs &build) {
  CLI::App *buildCmd =
      app.add_subcommand("build", "Compile a .arvr file (to PTX by default)");
  buildCmd->add_option("file", build.input, ".arvr source file ('-': stdin)")
      ->required();
  buildCmd->add_option("-o,--output", build.output,
                       "Output file ('-': stdout, the default)");
  buildCmd
      ->add_option(
          "--emit", build.emit,
          "What to write: tokens, ast, arvr (the dialect), loops, "
          "gpu, llvm, ptx, cubin (assembled by the toolkit's ptxas), or obj "
          "(--target cpu: an object file, its header NAME.h and plan)")
      ->check(CLI::IsMember({"tokens", "ast", "arvr", "loops", "gpu", "llvm",
                             "ptx", "cubin", "obj"}));
  buildCmd->add_option("--target", build.target, "cuda (default) or cpu")
      ->check(CLI::IsMember({"cuda", "cpu"}));
  buildCmd->add_option("--chip", build.chip, "GPU architecture (default sm_90)")
      ->check(kChipValidator);
  buildCmd->add_option(
      "--cuda-path", build.cudaPath,
      "CUDA toolkit for libdevice (exp, sin, ... on the "
      "GPU); default: $CUDA_HOME, $CUDA_PATH, /usr/local/cuda");
  buildCmd->add_option("--cpu", build.cpu,
                       "--emit=obj: the CPU to compile for (default host, "
                       "this machine's; or an LLVM CPU name, e.g. x86-64-v3)");
  buildCmd->add_option("--header", build.header,
                       "--emit=obj: where to write the C header; default: "
                       "beside the object, as NAME.h");
  buildCmd->add_option("--kernel", build.kernel,
                       "Compile only this kernel (PTX holds one kernel)");
  buildCmd->add_option("--plan", build.plan,
                       "Where to write the JSON launch plan "
                       "(docs/launch-plan.md); default: beside the PTX file, "
                       "as NAME.plan.json");
  buildCmd->add_option("--manifest", build.manifest,
                       "Where to write the launch manifest (docs/manifest.md); "
                       "default: beside the PTX file, as NAME.manifest");
  buildCmd->add_option(
      "--specialize", build.specialize,
      "Compile for a known value (repeatable): name=value for a scalar "
      "parameter, image.channels=N for an image's channel count; callers "
      "must then pass that value (or an image of N channels)");
  buildCmd->add_flag("--fast-math", build.fastMath,
                     "Inexact arithmetic: a division by a value fixed for "
                     "all pixels as a product by its reciprocal (results "
                     "may differ in the last bit)");
  buildCmd->add_flag(
      "--stage-samples", build.stageSamples,
      "Experiment, slower than without (H100, 2026-12-07): proved blocks "
      "stage the box their bilinear samples read in shared "
      "memory (arvr-gpu-stage-samples)");
  buildCmd->add_flag("--print-ir-after-all", build.printIRAfterAll,
                     "Print the IR after every pass (to stderr)");
  buildCmd->add_flag("--timing", build.timing, "Report the time of each pass");
  buildCmd->add_flag("--no-cache", build.noCache,
                     "Neither read nor write the compile cache "
                     "($XDG_CACHE_HOME/arvrc or ~/.cache/arvrc)");
  buildCmd->add_flag("--locations", build.locations,
                     "With IR output, show each op's .arvr file:line:col");
  buildCmd->footer("Example:\n  arvrc build examples/brightness_contrast.arvr "
                   "-o bc.ptx   (also writes bc.manifest)\n  arvrc build "
                   "k.arvr --emit=arvr");
  return buildCmd;
}

/// `arvrc run` and its options, read into `run`.
static CLI::App *addRunCommand(CLI::App &app, RunArgs &run) {
  CLI::App *runCmd =
      app.add_subcommand("run", "Compile a .arvr kernel and run it on images");
  runCmd->add_option("file", run.input, ".arvr source file")->required();
  runCmd
      ->add_option("-i,--input", run.images,
                   "Input image, one per image parameter, in order: a "
                   "file, a pattern ('frames/*.png') or a video (.mp4, "
                   ".mkv, .mov, .avi, .webm, .y4m, a raw .nv12 stream)")
      ->required();
  runCmd
      ->add_option("-o,--output", run.outputs,
                   "Output image (.png, .jpg, .bmp, .ppm, .pgm) or video "
                   "(.mp4, .mkv, .mov, .avi: H.264; .y4m; .nv12: raw), one "
                   "per output of the kernel, in order; for many frames, "
                   "videos or a folder of images")
      ->required();
  runCmd->add_option("-p,--param", run.params,
                     "Scalar parameter, name=value (repeatable)");
  runCmd
      ->add_option("--target", run.target,
                   "auto (GPU if there is one, the default), cpu or cuda")
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}));
  runCmd->add_option("--cuda-path", run.cudaPath,
                     "CUDA toolkit for libdevice (exp, sin, ... on the GPU)");
  runCmd->add_option("--frame-size", run.frameSize,
                     "Size of raw NV12 frames, WxH (else from their name, "
                     "e.g. frame_1920x1080.nv12)");
  runCmd
      ->add_option("--frames", run.maxFrames,
                   "Many frames: run at most this many (of a video, from "
                   "--start)")
      ->check(CLI::PositiveNumber);
  runCmd
      ->add_option("--start", run.start,
                   "Start this many seconds into the input videos (the "
                   "first frame at or after it)")
      ->check(CLI::NonNegativeNumber);
  runCmd
      ->add_option("--fps", run.fps,
                   "Frames a second of video outputs (default: the input "
                   "video's, else 30) and of raw .nv12 inputs (default 30)")
      ->check(CLI::PositiveNumber);
  runCmd
      ->add_option("--crf", run.crf,
                   "H.264 quality of video outputs: 0 (lossless) to 51 "
                   "(worst); default 18")
      ->check(CLI::Range(0, 51));
  runCmd->add_option("--kernel", run.kernel,
                     "Kernel to run, when the file has several");
  runCmd->add_option("--chip", run.chip, "GPU architecture (default sm_90)")
      ->check(kChipValidator);
  runCmd->add_flag("--fast-math", run.fastMath,
                   "Inexact arithmetic: a division by a value fixed for all "
                   "pixels as a product by its reciprocal");
  runCmd->add_flag("--no-cache", run.noCache,
                   "Neither read nor write the compile cache "
                   "($XDG_CACHE_HOME/arvrc or ~/.cache/arvrc)");
  runCmd
      ->add_option("--png-level", run.pngLevel,
                   "Deflate level of PNG outputs: 0 (none) to 9 (smallest, "
                   "slowest); default 1, the fastest, as OpenCV's")
      ->check(CLI::Range(0, 9));
  runCmd
      ->add_option("--jpeg-quality", run.jpegQuality,
                   "Quality of JPEG outputs: 1 to 100; default 95, as "
                   "OpenCV's")
      ->check(CLI::Range(1, 100));
  runCmd
      ->add_option("--repeat", run.repeat,
                   "--target cpu: run each frame this many more times and "
                   "report the median of those runs as its running time "
                   "(the kernel's own time, warm, with no file being "
                   "written meanwhile)")
      ->check(CLI::Range(0, 1000));
  runCmd->footer(
      "Examples:\n  arvrc run examples/brightness_contrast.arvr -i photo.jpg "
      "-o out.png --param gain=1.3\n"
      "  arvrc run examples/gaussian_blur.arvr -i 'frames/*.png' -o blurred/\n"
      "  arvrc run examples/nv12_to_rgb.arvr -i clip.mp4 -o rgb.mp4 "
      "--frames 300");
  return runCmd;
}

/// `arvrc compare` and its options, read into `compare`.
static CLI::App *addCompareCommand(CLI::App &app, CompareArgs &compare) {
  CLI::App *compareCmd = app.add_subcommand(
      "compare", "Compare two images: max/mean difference, PSNR, % equal");
  compareCmd->add_option("a", compare.a, "First image")->required();
  compareCmd->add_option("b", compare.b, "Second image")->required();
  compareCmd->add_option("--max-abs", compare.maxAbs,
                         "Fail (exit 1) if any value differs by more");
  compareCmd->add_option("--min-psnr", compare.minPsnr,
                         "Fail (exit 1) if the PSNR is lower (dB)");
  compareCmd->add_option("--min-within1", compare.minWithin1,
                         "Fail (exit 1) if fewer % of values are within 1");
  compareCmd->add_option(
      "--max-abs-of-peak", compare.maxAbsOfPeak,
      "f32 images: fail (exit 1) if any value differs by more than this "
      "fraction of b's peak (its largest |value|), e.g. 1e-6");
  compareCmd->add_option("--diff", compare.diff,
                         "Write a heat map of the differences (.png, ...): "
                         "equal pixels dimmed, others yellow (small) to red");
  compareCmd->footer("Example:\n  arvrc compare cpu.png gpu.png --max-abs 1 "
                     "--diff diff.png");
  return compareCmd;
}

int main(int argc, char **argv) {
  CLI::App app{"arvrc: compiles .arvr image kernels to PTX through MLIR, and "
               "runs them on images."};
  app.require_subcommand(1);
  app.footer("Run 'arvrc <command> --help' for a command's options.");

  BuildArgs build;
  CLI::App *buildCmd = addBuildCommand(app, build);
  RunArgs run;
  addRunCommand(app, run);
  CompareArgs compare;
  CLI::App *compareCmd = addCompareCommand(app, compare);
  CLI::App *infoCmd = app.add_subcommand(
      "info", "Show the GPU arvrc would use, or why there is none");
  infoCmd->footer("Example:\n  arvrc info    # exit 0 with a usable GPU, 1 "
                  "without");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp &e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp &e) {
    return app.exit(e);
  } catch (const CLI::ParseError &e) {
    app.exit(e);
    return kExitUsage;
  }
  if (buildCmd->parsed())
    return runBuild(build);
  if (compareCmd->parsed())
    return runCompare(compare);
  if (infoCmd->parsed())
    return runInfo();
  return runRun(run);
}
