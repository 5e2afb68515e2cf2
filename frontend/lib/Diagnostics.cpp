//===- Diagnostics.cpp - Located errors for .arvr source ------------------===//
//
// Errors, warnings and notes as `file:line:col: error: message`, the source
// line and a caret, through llvm::SourceMgr.
//
//===----------------------------------------------------------------------===//

#include "arvr/Frontend/Diagnostics.h"

#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/raw_ostream.h"

using namespace arvr;

/// Prints one diagnostic, with its source line made safe for a terminal:
/// control bytes and bytes that are not valid UTF-8 (a binary file, an
/// escape sequence) become '?', one for one, so the caret still points at
/// the right column; valid UTF-8 (a comment in another language) is kept.
static void print(const llvm::SourceMgr &sourceMgr, llvm::raw_ostream &os,
                  llvm::SMLoc loc, llvm::SourceMgr::DiagKind kind,
                  const llvm::Twine &message,
                  llvm::ArrayRef<llvm::SMRange> ranges) {
  llvm::SMDiagnostic diag = sourceMgr.GetMessage(loc, kind, message, ranges);
  std::string line = diag.getLineContents().str();
  for (size_t i = 0; i < line.size();) {
    auto *byte = reinterpret_cast<const llvm::UTF8 *>(line.data() + i);
    if (*byte < 0x80) {
      if ((*byte < 0x20 && *byte != '\t') || *byte == 0x7F)
        line[i] = '?';
      ++i;
      continue;
    }
    unsigned length = llvm::getNumBytesForUTF8(*byte);
    if (i + length <= line.size() &&
        llvm::isLegalUTF8Sequence(byte, byte + length)) {
      i += length;
      continue;
    }
    line[i++] = '?';
  }
  llvm::SMDiagnostic safe(sourceMgr, diag.getLoc(), diag.getFilename(),
                          diag.getLineNo(), diag.getColumnNo(), diag.getKind(),
                          diag.getMessage(), line, diag.getRanges(),
                          diag.getFixIts());
  sourceMgr.PrintMessage(os, safe, os.has_colors());
}

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
  print(sourceMgr, os, loc, llvm::SourceMgr::DK_Error, message, ranges);
  if (numErrors == kMaxPrintedErrors)
    os << "note: too many errors; further errors are not shown\n";
}

void DiagnosticEngine::warning(llvm::SMLoc loc, const llvm::Twine &message,
                               llvm::SMRange range) {
  ++numWarnings;
  llvm::ArrayRef<llvm::SMRange> ranges;
  if (range.isValid())
    ranges = range;
  print(sourceMgr, os, loc, llvm::SourceMgr::DK_Warning, message, ranges);
}

void DiagnosticEngine::note(llvm::SMLoc loc, const llvm::Twine &message) {
  if (numErrors > kMaxPrintedErrors)
    return;
  print(sourceMgr, os, loc, llvm::SourceMgr::DK_Note, message, {});
}

std::pair<unsigned, unsigned>
DiagnosticEngine::getLineAndColumn(llvm::SMLoc loc) const {
  return sourceMgr.getLineAndColumn(loc);
}
