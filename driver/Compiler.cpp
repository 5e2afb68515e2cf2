//===- Compiler.cpp - One .arvr file through the whole compiler -----------===//

#include "Compiler.h"

#include "arvr/Frontend/Diagnostics.h"
#include "arvr/Frontend/Lexer.h"
#include "arvr/Frontend/MLIRGen.h"
#include "arvr/Frontend/Parser.h"
#include "arvr/Frontend/Sema.h"
#include "arvr/Lowering/Passes.h"
#include "arvr/Lowering/Pipelines.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/SourceMgr.h"

#include <algorithm>
#include <unistd.h>

using namespace arvrc;

struct Compilation::Impl {
  Impl() : diags(sourceMgr, llvm::errs()) {
    mlir::DialectRegistry registry;
    mlir::arvr::registerPipelineDialects(registry);
    context.appendDialectRegistry(registry);
    // Users see their .arvr line, not the IR of the failing op.
    context.printOpOnDiagnostic(false);
  }

  llvm::SourceMgr sourceMgr;
  arvr::DiagnosticEngine diags;
  arvr::ModuleAST ast;
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  mlir::OwningOpRef<mlir::ModuleOp> arvrModule; ///< Before lowering.
  std::string keptKernel; ///< keepOnlyKernel's name, part of the cache key.
  bool cached = false;
  std::string cacheFile; ///< Of the last lower(); "" without a cache.

  /// The file of the compile cache for this source with `options` and
  /// `cudaPath` (resolved), lowered to `stage`; "" without a cache folder.
  std::string cachePath(const CompileOptions &options,
                        const std::string &cudaPath, Emit stage);
};

namespace {

/// Sets one of LLVM's boolean command-line options (a cl::opt<bool>, as
/// `combiner-store-merging` is in LLVM 22's DAGCombiner) for its lifetime,
/// and puts the old value back (the options are the process's); an option
/// the linked LLVM lacks is left alone.
class ScopedLlvmFlag {
public:
  ScopedLlvmFlag(llvm::StringRef name, bool value) {
    llvm::DenseMap<llvm::StringRef, llvm::cl::Option *> &options =
        llvm::cl::getRegisteredOptions();
    auto it = options.find(name);
    if (it == options.end())
      return;
    flag = static_cast<llvm::cl::opt<bool> *>(it->second);
    old = flag->getValue();
    flag->setValue(value);
  }
  ~ScopedLlvmFlag() {
    if (flag)
      flag->setValue(old);
  }
  ScopedLlvmFlag(const ScopedLlvmFlag &) = delete;
  ScopedLlvmFlag &operator=(const ScopedLlvmFlag &) = delete;

private:
  llvm::cl::opt<bool> *flag = nullptr;
  bool old = false;
};

} // namespace

std::string arvrc::getCacheDir() {
  llvm::SmallString<256> dir;
  if (std::optional<std::string> xdg =
          llvm::sys::Process::GetEnv("XDG_CACHE_HOME");
      xdg && !xdg->empty()) {
    dir = *xdg;
  } else if (std::optional<std::string> home =
                 llvm::sys::Process::GetEnv("HOME");
             home && !home->empty()) {
    dir = *home;
    llvm::sys::path::append(dir, ".cache");
  } else {
    return "";
  }
  llvm::sys::path::append(dir, "arvrc");
  return dir.str().str();
}

/// What identifies this arvrc: its executable's path, size and time (a
/// rebuilt or upgraded arvrc makes new entries).
static std::string getSelfIdentity() {
  static int anchor;
  std::string self = llvm::sys::fs::getMainExecutable(nullptr, &anchor);
  llvm::sys::fs::file_status status;
  if (self.empty() || llvm::sys::fs::status(self, status))
    return "unknown";
  return self + ":" + std::to_string(status.getSize()) + ":" +
         std::to_string(
             status.getLastModificationTime().time_since_epoch().count());
}

std::string Compilation::Impl::cachePath(const CompileOptions &options,
                                         const std::string &cudaPath,
                                         Emit stage) {
  std::string dir = getCacheDir();
  if (dir.empty())
    return "";
  // Whether libdevice is there changes the PTX (linked or refused).
  bool libdevice = !cudaPath.empty() &&
                   llvm::sys::fs::is_directory(cudaPath + "/nvvm/libdevice");
  llvm::SHA256 hash;
  auto add = [&](llvm::StringRef field) {
    hash.update(field);
    hash.update(llvm::StringRef("\0", 1));
  };
  add("arvrc-cache-1");
  add(getSelfIdentity());
  add(sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())->getBuffer());
  add(keptKernel);
  add(options.target == Target::Cuda ? "cuda" : "cpu");
  add(options.chip);
  add(cudaPath);
  add(libdevice ? "libdevice" : "no-libdevice");
  add(std::to_string(static_cast<int>(stage)));
  for (const std::string &value : options.specialize)
    add(value);
  add(options.fastMath ? "fast-math" : "ieee");
  if (options.stageSamples)
    add("stage-samples");
  std::array<uint8_t, 32> digest = hash.final();
  std::string name = llvm::toHex(digest, /*LowerCase=*/true);
  return dir + "/" + name + ".mlirbc";
}

Compilation::Compilation() : impl(std::make_unique<Impl>()) {}
Compilation::~Compilation() = default;

bool Compilation::load(const std::string &path) {
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> buffer =
      mlir::openInputFile(path, &error);
  if (!buffer) {
    llvm::errs() << "error: " << error << "\n";
    return false;
  }
  impl->sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  return true;
}

bool Compilation::parse() {
  const llvm::MemoryBuffer *buffer =
      impl->sourceMgr.getMemoryBuffer(impl->sourceMgr.getMainFileID());
  arvr::Lexer lexer(buffer->getBuffer(), impl->diags);
  arvr::Parser parser(lexer, impl->diags);
  impl->ast = parser.parseModule();
  if (impl->diags.hadError())
    return false;
  return arvr::checkModule(impl->ast, impl->diags);
}

void Compilation::printTokens(llvm::raw_ostream &os) {
  const llvm::MemoryBuffer *buffer =
      impl->sourceMgr.getMemoryBuffer(impl->sourceMgr.getMainFileID());
  arvr::Lexer lexer(buffer->getBuffer(), impl->diags);
  for (arvr::Token token = lexer.lex();; token = lexer.lex()) {
    auto [line, col] = impl->diags.getLineAndColumn(token.getLoc());
    os << line << ":" << col << " " << arvr::getTokenKindName(token.kind);
    if (token.is(arvr::TokenKind::identifier) ||
        token.is(arvr::TokenKind::integer) ||
        token.is(arvr::TokenKind::number) || token.is(arvr::TokenKind::error))
      os << " '" << token.spelling << "'";
    os << "\n";
    if (token.is(arvr::TokenKind::eof))
      break;
  }
}

void Compilation::printAst(llvm::raw_ostream &os) {
  arvr::dumpAST(impl->ast, impl->diags, os);
}

/// Writes `module` in MLIR bytecode to `path` (a temporary file, then a
/// rename, so that readers never see half an entry). A cache that cannot
/// be written is not an error: the compilation is simply not kept.
static void writeCacheEntry(mlir::ModuleOp module, const std::string &path) {
  if (llvm::sys::fs::create_directories(llvm::sys::path::parent_path(path)))
    return;
  std::string temporary = path + ".tmp" + std::to_string(::getpid());
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(temporary, ec);
    if (ec)
      return;
    if (mlir::failed(mlir::writeBytecodeToFile(module, os))) {
      os.close();
      llvm::sys::fs::remove(temporary);
      return;
    }
    os.close();
    if (os.has_error()) {
      os.clear_error();
      llvm::sys::fs::remove(temporary);
      return;
    }
  }
  if (llvm::sys::fs::rename(temporary, path))
    llvm::sys::fs::remove(temporary);
}

bool Compilation::lower(const CompileOptions &options, Emit stage) {
  using mlir::arvr::LoweringStage;
  // Errors from MLIR (verifier, passes) print like the frontend's: with
  // the .arvr line and a caret.
  mlir::SourceMgrDiagnosticHandler handler(impl->sourceMgr, &impl->context,
                                           llvm::errs());
  if (!impl->module)
    impl->module = arvr::mlirGen(impl->context, impl->ast, impl->sourceMgr);
  if (!impl->module)
    return false;
  // The dialect passes: stages inlined, reads proved in range, NV12 frames
  // as their two planes. `--emit=arvr` shows the kernel as generated, but
  // its reads are checked too, on a copy.
  if (stage <= Emit::Arvr) {
    mlir::OwningOpRef<mlir::ModuleOp> copy = impl->module->clone();
    mlir::PassManager check(&impl->context);
    mlir::arvr::buildArvrPipeline(check, options.specialize);
    return mlir::succeeded(check.run(*copy));
  }
  // Keep the kernel after them, for what the runner evaluates on it
  // (output sizes) after the module is lowered in place: with NV12 frames
  // as their two planes, as the runner binds them.
  if (!impl->arvrModule) {
    mlir::PassManager front(&impl->context);
    mlir::arvr::buildArvrPipeline(front, options.specialize);
    if (mlir::failed(front.run(*impl->module)))
      return false;
    impl->arvrModule = impl->module->clone();
  }

  // The compile cache, for modules lowered to the end.
  impl->cached = false;
  std::string cudaPath =
      options.cudaPath ? *options.cudaPath : mlir::arvr::findCudaToolkit();
  std::string &cacheFile = impl->cacheFile;
  cacheFile.clear();
  if (options.useCache && !options.printIRAfterAll && !options.timing &&
      stage >= Emit::Llvm &&
      (options.target == Target::Cuda || stage == Emit::Llvm))
    cacheFile = impl->cachePath(options, cudaPath, stage);
  if (!cacheFile.empty() && llvm::sys::fs::exists(cacheFile)) {
    // An entry that does not parse (truncated, another format) is ignored
    // and written again below.
    mlir::ParserConfig config(&impl->context);
    mlir::ScopedDiagnosticHandler quiet(
        &impl->context, [](mlir::Diagnostic &) { return mlir::success(); });
    if (mlir::OwningOpRef<mlir::ModuleOp> cached =
            mlir::parseSourceFile<mlir::ModuleOp>(cacheFile, config)) {
      impl->module = std::move(cached);
      impl->cached = true;
      return true;
    }
  }

  LoweringStage stopAfter = stage == Emit::Loops  ? LoweringStage::Loops
                            : stage == Emit::Gpu  ? LoweringStage::Gpu
                            : stage == Emit::Llvm ? LoweringStage::Llvm
                                                  : LoweringStage::Binary;
  mlir::PassManager pm(&impl->context);
  if (options.printIRAfterAll) {
    impl->context.disableMultithreading();
    pm.enableIRPrinting(
        /*shouldPrintBeforePass=*/[](mlir::Pass *,
                                     mlir::Operation *) { return false; },
        /*shouldPrintAfterPass=*/
        [](mlir::Pass *, mlir::Operation *) { return true; },
        /*printModuleScope=*/true, /*printAfterOnlyOnChange=*/false);
  }
  if (options.timing)
    pm.enableTiming();
  if (options.target == Target::Cuda) {
    mlir::arvr::CudaPipelineOptions cuda;
    cuda.chip = options.chip;
    cuda.cudaPath = cudaPath;
    cuda.cubin = stage == Emit::Cubin;
    cuda.fastMath = options.fastMath;
    cuda.stageSamples = options.stageSamples;
    if (cuda.cubin &&
        !llvm::sys::fs::can_execute(cuda.cudaPath + "/bin/ptxas")) {
      llvm::errs() << "error: a cubin needs the CUDA toolkit's ptxas"
                   << (cuda.cudaPath.empty()
                           ? std::string(", and no toolkit was found")
                           : ", which " + cuda.cudaPath + "/bin does not hold")
                   << " (--cuda-path DIR)\n";
      return false;
    }
    mlir::arvr::buildCudaPipeline(pm, cuda, stopAfter, /*arvrPasses=*/false);
  } else {
    mlir::arvr::buildCpuPipeline(pm, stopAfter, /*arvrPasses=*/false,
                                 options.fastMath);
  }
  // LLVM's store merging (SelectionDAG) finds nothing to merge in the
  // kernels, whose accesses arvr-wide-access and arvr-stage-stores already
  // made words and vectors (every example's PTX is the same without it),
  // but its search grows with the square of a block's memory operations:
  // it was 0.33 s of the bilateral filter's 1.2 s build. The CPU's code
  // keeps it.
  std::optional<ScopedLlvmFlag> noStoreMerging;
  if (options.target == Target::Cuda)
    noStoreMerging.emplace("combiner-store-merging", false);
  if (mlir::failed(pm.run(*impl->module)))
    return false;
  if (!cacheFile.empty())
    writeCacheEntry(*impl->module, cacheFile);
  return true;
}

void Compilation::printModule(llvm::raw_ostream &os, bool locations) {
  mlir::OpPrintingFlags flags;
  if (locations)
    flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/true);
  impl->module->print(os, flags);
  os << "\n";
}

bool Compilation::getPtx(std::string &ptx) {
  unsigned found = 0;
  impl->module->walk([&](mlir::gpu::BinaryOp binary) {
    for (mlir::Attribute attr : binary.getObjects())
      if (auto object = llvm::dyn_cast<mlir::gpu::ObjectAttr>(attr)) {
        ptx = object.getObject().getValue().str();
        ++found;
      }
  });
  return found == 1;
}

bool Compilation::keepOnlyKernel(const std::string &name) {
  impl->keptKernel = name;
  auto &kernels = impl->ast.kernels;
  kernels.erase(std::remove_if(kernels.begin(), kernels.end(),
                               [&](const arvr::KernelDecl &kernel) {
                                 return kernel.name != name;
                               }),
                kernels.end());
  return !kernels.empty();
}

const arvr::ModuleAST &Compilation::getAst() const { return impl->ast; }
mlir::ModuleOp Compilation::getModule() { return *impl->module; }
bool Compilation::wasCached() const { return impl->cached; }

const std::string &Compilation::getCacheFile() const { return impl->cacheFile; }

mlir::ModuleOp Compilation::getArvrModule() {
  return impl->arvrModule ? *impl->arvrModule : *impl->module;
}
