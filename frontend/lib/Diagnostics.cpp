//===- Diagnostics.cpp - Located errors for .arvr source ------------------===//
//
// Errors, warnings and notes as `file:line:col: error: message`, the source
// line and a caret, through llvm::SourceMgr: at most 20 errors and 20
// warnings are shown (each with its notes), and a long source line is cut
// to a window around the caret.
//
//===----------------------------------------------------------------------===//

#include "arvr/Frontend/Diagnostics.h"

#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace arvr;

/// Replaces control bytes and bytes that are not valid UTF-8 (a binary
/// file, an escape sequence) in `line` by '?', one for one, so that a
/// column still points at the same place; valid UTF-8 (a comment in another
/// language) is kept.
static void makeSafe(std::string &line) {
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
}

/// Source lines longer than this are shown as a window of this many
/// columns around the caret, their cut ends marked "...".
constexpr size_t kMaxShownColumns = 120;

/// Cuts `line` to a window around `column` (0-based) when it is long,
/// moving `column` and `ranges` (column pairs) with it.
static void
window(std::string &line, unsigned &column,
       llvm::SmallVectorImpl<std::pair<unsigned, unsigned>> &ranges) {
  if (line.size() <= kMaxShownColumns)
    return;
  size_t half = kMaxShownColumns / 2;
  size_t start = column > half ? column - half : 0;
  size_t end = std::min(line.size(), start + kMaxShownColumns);
  start = end > kMaxShownColumns ? end - kMaxShownColumns : 0;
  // Cut at whole UTF-8 characters.
  auto isContinuation = [&](size_t i) {
    return i < line.size() &&
           (static_cast<unsigned char>(line[i]) & 0xC0) == 0x80;
  };
  while (start > 0 && isContinuation(start))
    --start;
  while (isContinuation(end))
    ++end;
  std::string head = start > 0 ? "..." : "";
  std::string tail = end < line.size() ? "..." : "";
  line = head + line.substr(start, end - start) + tail;
  auto shift = [&](unsigned c) -> unsigned {
    long moved = static_cast<long>(c) - static_cast<long>(start) +
                 static_cast<long>(head.size());
    return static_cast<unsigned>(std::clamp<long>(
        moved, head.size(), static_cast<long>(line.size() - tail.size())));
  };
  column = shift(column);
  for (auto &[from, to] : ranges) {
    from = shift(from);
    to = shift(to);
  }
}

/// Prints one diagnostic with its source line made safe for a terminal and
/// cut to a window around the caret when it is long.
static void print(const llvm::SourceMgr &sourceMgr, llvm::raw_ostream &os,
                  llvm::SMLoc loc, llvm::SourceMgr::DiagKind kind,
                  const llvm::Twine &message,
                  llvm::ArrayRef<llvm::SMRange> ranges) {
  llvm::SMDiagnostic diag = sourceMgr.GetMessage(loc, kind, message, ranges);
  std::string line = diag.getLineContents().str();
  makeSafe(line);
  unsigned column = diag.getColumnNo() < 0 ? 0 : diag.getColumnNo();
  llvm::SmallVector<std::pair<unsigned, unsigned>> columns(
      diag.getRanges().begin(), diag.getRanges().end());
  if (diag.getColumnNo() >= 0)
    window(line, column, columns);
  llvm::SMDiagnostic safe(
      sourceMgr, diag.getLoc(), diag.getFilename(), diag.getLineNo(),
      diag.getColumnNo() < 0 ? -1 : static_cast<int>(column), diag.getKind(),
      diag.getMessage(), line, columns, diag.getFixIts());
  // The place is the source's own line and column, not the window's.
  {
    llvm::WithColor place(os, llvm::raw_ostream::SAVEDCOLOR, true,
                          !os.has_colors());
    place << diag.getFilename();
    if (diag.getLineNo() != -1) {
      place << ':' << diag.getLineNo();
      if (diag.getColumnNo() != -1)
        place << ':' << (diag.getColumnNo() + 1);
    }
    place << ": ";
  }
  safe.print(nullptr, os, os.has_colors(), /*ShowKindLabel=*/true,
             /*ShowLocation=*/false);
}

DiagnosticEngine::DiagnosticEngine(const llvm::SourceMgr &sourceMgr,
                                   llvm::raw_ostream &os)
    : sourceMgr(sourceMgr), os(os) {}

void DiagnosticEngine::error(llvm::SMLoc loc, const llvm::Twine &message,
                             llvm::SMRange range) {
  ++numErrors;
  shown = numErrors <= kMaxPrintedErrors;
  if (!shown)
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
  shown = numWarnings <= kMaxPrintedWarnings;
  if (!shown)
    return;
  llvm::ArrayRef<llvm::SMRange> ranges;
  if (range.isValid())
    ranges = range;
  print(sourceMgr, os, loc, llvm::SourceMgr::DK_Warning, message, ranges);
  if (numWarnings == kMaxPrintedWarnings)
    os << "note: too many warnings; further warnings are not shown\n";
}

void DiagnosticEngine::note(llvm::SMLoc loc, const llvm::Twine &message) {
  // A note belongs to the error or warning before it.
  if (!shown)
    return;
  print(sourceMgr, os, loc, llvm::SourceMgr::DK_Note, message, {});
}

std::pair<unsigned, unsigned>
DiagnosticEngine::getLineAndColumn(llvm::SMLoc loc) const {
  return sourceMgr.getLineAndColumn(loc);
}
