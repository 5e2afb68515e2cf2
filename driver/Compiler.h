//===- Compiler.h - One .arvr file through the whole compiler ---*- C++ -*-===//
//
// A Compilation owns the source, its AST, the MLIR context and module, and
// runs the frontend and the lowering pipeline up to the stage asked for.
// Errors are printed as they are found, located in the .arvr text.
//
// The compile cache: a module lowered to the end (LLVM for the CPU, PTX or
// cubin for CUDA) is kept in MLIR bytecode under $XDG_CACHE_HOME/arvrc (or
// ~/.cache/arvrc), keyed by a SHA-256 of the source, the kernel chosen, the
// target, chip and CUDA toolkit, the stage, and arvrc's own executable
// (its size and time), so that a later compilation of the same kernel by
// the same arvrc only parses, checks and reads the result. The frontend
// always runs: its errors and warnings are never skipped. For the CPU, the
// runner keeps the machine code of an entry beside it (CpuKernels).
//
//===----------------------------------------------------------------------===//

#ifndef ARVRC_DRIVER_COMPILER_H
#define ARVRC_DRIVER_COMPILER_H

#include "arvr/Frontend/AST.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace arvrc {

enum class Target { Cpu, Cuda };

/// The stages `arvrc build --emit=` can print, in pipeline order.
enum class Emit { Tokens, Ast, Arvr, Loops, Gpu, Llvm, Ptx, Cubin };

struct CompileOptions {
  Target target = Target::Cuda;
  std::string chip = "sm_90";
  bool printIRAfterAll = false;
  bool timing = false;
  /// The CUDA toolkit to link libdevice from; unset: found as
  /// mlir::arvr::findCudaToolkit() does, "" for none.
  std::optional<std::string> cudaPath;
  /// Read and write the compile cache (never with printIRAfterAll or
  /// timing, which ask for the pipeline to run).
  bool useCache = true;
  /// Values known when compiling (`name=value`, `image.channels=N`): the
  /// kernel is specialised to them (arvr-specialize); part of the cache key.
  std::vector<std::string> specialize;
  /// Opt-in inexact arithmetic (arvr-fast-reciprocal); part of the key.
  bool fastMath = false;
  /// Opt-in experiment: arvr-gpu-stage-samples; part of the key.
  bool stageSamples = false;
};

/// The folder of the compile cache: $XDG_CACHE_HOME/arvrc, else
/// $HOME/.cache/arvrc; "" if neither variable is set.
std::string getCacheDir();

class Compilation {
public:
  Compilation();
  ~Compilation();

  /// Reads `path` ("-" for stdin); false (reported) if it cannot be read.
  bool load(const std::string &path);
  /// Lexes, parses and checks; false if any error was reported.
  bool parse();
  /// MLIRGen (once), then the pipeline for `options.target` up to `stage`
  /// (Arvr: no lowering). False if an error was reported. Lowering from
  /// Arvr may follow a call that stopped there.
  bool lower(const CompileOptions &options, Emit stage);

  void printTokens(llvm::raw_ostream &os);
  void printAst(llvm::raw_ostream &os);
  /// Prints the module; with `locations`, each op's .arvr file:line:col.
  void printModule(llvm::raw_ostream &os, bool locations = false);
  /// The PTX (or cubin) of a module lowered to Emit::Ptx (Emit::Cubin);
  /// false unless it holds exactly one GPU module.
  bool getPtx(std::string &ptx);

  /// Drops every kernel but `name` from the AST; false if there is none.
  bool keepOnlyKernel(const std::string &name);

  const arvr::ModuleAST &getAst() const;
  mlir::ModuleOp getModule();
  /// The module as MLIRGen made it, in the arvr dialect, also once lowered.
  mlir::ModuleOp getArvrModule();
  /// Whether the last lower() read its result from the compile cache.
  bool wasCached() const;
  /// The compile cache's entry of the last lower() (read or written), or
  /// "" when it used no cache.
  const std::string &getCacheFile() const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl;
};

} // namespace arvrc

#endif // ARVRC_DRIVER_COMPILER_H
