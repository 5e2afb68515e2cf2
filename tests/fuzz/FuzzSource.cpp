//===- FuzzSource.cpp - libFuzzer target: .arvr text through the compiler -===//
//
// Runs any bytes through the lexer, parser and semantic checks and, when
// they accept it, MLIRGen, the verifier and the CPU pipeline to loops (the
// dialect passes: inlining, the in-range check, the splitting of NV12
// frames; row bands, bounds inference, the lowering to loops): the whole
// path a user's file takes before a target is chosen. Errors are expected and
// swallowed; a crash, an assertion, a sanitizer report or a hang is a bug.
// Built and run by scripts/fuzz.sh.
//
//===----------------------------------------------------------------------===//

#include "arvr/Frontend/Diagnostics.h"
#include "arvr/Frontend/Lexer.h"
#include "arvr/Frontend/MLIRGen.h"
#include "arvr/Frontend/Parser.h"
#include "arvr/Frontend/Sema.h"
#include "arvr/Lowering/Pipelines.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>

static mlir::MLIRContext &getContext() {
  static mlir::MLIRContext *context = [] {
    mlir::DialectRegistry registry;
    mlir::arvr::registerPipelineDialects(registry);
    auto *c = new mlir::MLIRContext(registry);
    c->disableMultithreading();
    c->loadAllAvailableDialects();
    return c;
  }();
  return *context;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(reinterpret_cast<const char *>(data), size),
          "fuzz.arvr"),
      llvm::SMLoc());
  std::string messages;
  llvm::raw_string_ostream os(messages);
  arvr::DiagnosticEngine diags(sourceMgr, os);
  arvr::Lexer lexer(sourceMgr.getMemoryBuffer(1)->getBuffer(), diags);
  arvr::Parser parser(lexer, diags);
  arvr::ModuleAST ast = parser.parseModule();
  if (diags.hadError() || !arvr::checkModule(ast, diags))
    return 0;

  mlir::MLIRContext &context = getContext();
  mlir::ScopedDiagnosticHandler silence(
      &context, [](mlir::Diagnostic &) { return mlir::success(); });
  mlir::OwningOpRef<mlir::ModuleOp> module =
      arvr::mlirGen(context, ast, sourceMgr);
  if (!module)
    return 0;
  mlir::PassManager pm(&context);
  mlir::arvr::buildCpuPipeline(pm, mlir::arvr::LoweringStage::Loops);
  (void)pm.run(*module);
  return 0;
}
