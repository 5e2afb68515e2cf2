//===- Diagnostics.cpp - Located errors for .arvr source ------------------===//

#include "arvr/Frontend/Diagnostics.h"

#include "llvm/Support/raw_ostream.h"

using namespace arvr;

DiagnosticEngine::DiagnosticEngine(const llvm::SourceMgr &sourceMgr,
                                   llvm::raw_ostream &os)
    : sourceMgr(sourceMgr), os(os) {}

void DiagnosticEngine::error(llvm::SMLoc loc, const llvm::Twine &message,
                             llvm::SMRange range) {
  ++numErrors;
  if (numErrors > kMaxPrintedErrors)
    return;
  llvm::ArrayRef<llvm::SMRange> ranges;
  if (range.isValid())
    ranges = range;
  sourceMgr.PrintMessage(os, loc, llvm::SourceMgr::DK_Error, message, ranges,
                         {}, os.has_colors());
  if (numErrors == kMaxPrintedErrors)
    os << "note: too many errors; further errors are not shown\n";
}

void DiagnosticEngine::warning(llvm::SMLoc loc, const llvm::Twine &message,
                               llvm::SMRange range) {
  ++numWarnings;
  llvm::ArrayRef<llvm::SMRange> ranges;
  if (range.isValid())
    ranges = range;
  sourceMgr.PrintMessage(os, loc, llvm::SourceMgr::DK_Warning, message, ranges,
                         {}, os.has_colors());
}

void DiagnosticEngine::note(llvm::SMLoc loc, const llvm::Twine &message) {
  if (numErrors > kMaxPrintedErrors)
    return;
  sourceMgr.PrintMessage(os, loc, llvm::SourceMgr::DK_Note, message, {}, {},
                         os.has_colors());
}

std::pair<unsigned, unsigned>
DiagnosticEngine::getLineAndColumn(llvm::SMLoc loc) const {
  return sourceMgr.getLineAndColumn(loc);
}
