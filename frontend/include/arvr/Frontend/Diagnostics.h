//===- Diagnostics.h - Located errors for .arvr source ----------*- C++ -*-===//
//
// Reports errors, warnings and notes in .arvr text as `file:line:col: error:
// ...`, with the source line and a caret, through llvm::SourceMgr. Every phase
// of the frontend reports through one DiagnosticEngine and keeps going, so a
// user sees all the mistakes of a file at once.
//
//===----------------------------------------------------------------------===//

#ifndef ARVR_FRONTEND_DIAGNOSTICS_H
#define ARVR_FRONTEND_DIAGNOSTICS_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"

namespace arvr {

class DiagnosticEngine {
public:
  DiagnosticEngine(const llvm::SourceMgr &sourceMgr, llvm::raw_ostream &os);

  /// Reports an error at `loc`, underlining `range` when one is given.
  void error(llvm::SMLoc loc, const llvm::Twine &message,
             llvm::SMRange range = {});
  /// Reports a warning: printed, but the compilation goes on.
  void warning(llvm::SMLoc loc, const llvm::Twine &message,
               llvm::SMRange range = {});
  /// Attaches a note (a related place, or a suggestion) at `loc`.
  void note(llvm::SMLoc loc, const llvm::Twine &message);

  unsigned getNumErrors() const { return numErrors; }
  unsigned getNumWarnings() const { return numWarnings; }
  bool hadError() const { return numErrors != 0; }

  /// The 1-based line and column of `loc`.
  std::pair<unsigned, unsigned> getLineAndColumn(llvm::SMLoc loc) const;
  const llvm::SourceMgr &getSourceMgr() const { return sourceMgr; }

private:
  const llvm::SourceMgr &sourceMgr;
  llvm::raw_ostream &os;
  unsigned numErrors = 0;
  unsigned numWarnings = 0;
  /// Whether the last error or warning was printed (its notes follow it).
  bool shown = true;
  /// Errors beyond this many are counted but not printed; warnings too.
  static constexpr unsigned kMaxPrintedErrors = 20;
  static constexpr unsigned kMaxPrintedWarnings = 20;
};

} // namespace arvr

#endif // ARVR_FRONTEND_DIAGNOSTICS_H
