//===- Compiler.cpp - One .arvr file through the whole compiler -----------===//

#include "Compiler.h"

#include "arvr/Frontend/Diagnostics.h"
#include "arvr/Frontend/Lexer.h"
#include "arvr/Frontend/MLIRGen.h"
#include "arvr/Frontend/Parser.h"
#include "arvr/Frontend/Sema.h"
#include "arvr/Lowering/Pipelines.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <algorithm>

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
};

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
  if (stage <= Emit::Arvr)
    return true;
  // Keep the kernel as written, for what the runner evaluates on it
  // (output sizes) after the module is lowered in place.
  if (!impl->arvrModule)
    impl->arvrModule = impl->module->clone();

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
    cuda.cudaPath =
        options.cudaPath ? *options.cudaPath : mlir::arvr::findCudaToolkit();
    cuda.cubin = stage == Emit::Cubin;
    if (cuda.cubin &&
        !llvm::sys::fs::can_execute(cuda.cudaPath + "/bin/ptxas")) {
      llvm::errs() << "error: a cubin needs the CUDA toolkit's ptxas"
                   << (cuda.cudaPath.empty()
                           ? std::string(", and no toolkit was found")
                           : ", which " + cuda.cudaPath + "/bin does not hold")
                   << " (--cuda-path DIR)\n";
      return false;
    }
    mlir::arvr::buildCudaPipeline(pm, cuda, stopAfter);
  } else {
    mlir::arvr::buildCpuPipeline(pm, stopAfter);
  }
  return mlir::succeeded(pm.run(*impl->module));
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
mlir::ModuleOp Compilation::getArvrModule() {
  return impl->arvrModule ? *impl->arvrModule : *impl->module;
}
