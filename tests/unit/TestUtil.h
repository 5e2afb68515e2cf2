//===- TestUtil.h - Running the frontend on a string in unit tests --------===//
//
// A SourceMgr holding one snippet, a DiagnosticEngine printing into a
// string, and helpers to parse and check the snippet.
//
//===----------------------------------------------------------------------===//

#ifndef ARVR_TESTS_UNIT_TESTUTIL_H
#define ARVR_TESTS_UNIT_TESTUTIL_H

#include "arvr/Frontend/Diagnostics.h"
#include "arvr/Frontend/Lexer.h"
#include "arvr/Frontend/Parser.h"
#include "arvr/Frontend/Sema.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace arvr::test {

struct Snippet {
  explicit Snippet(const std::string &text)
      : os(messages), diags(sourceMgr, os) {
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(text, "test.arvr"), llvm::SMLoc());
  }
  llvm::StringRef text() const {
    return sourceMgr.getMemoryBuffer(1)->getBuffer();
  }
  /// Parses (and, if `check`, runs Sema on) the snippet.
  ModuleAST parse(bool check = true) {
    Lexer lexer(text(), diags);
    Parser parser(lexer, diags);
    ModuleAST module = parser.parseModule();
    if (check && !diags.hadError())
      checkModule(module, diags);
    return module;
  }
  const std::string &output() {
    os.flush();
    return messages;
  }

  llvm::SourceMgr sourceMgr;
  std::string messages;
  llvm::raw_string_ostream os;
  DiagnosticEngine diags;
};

} // namespace arvr::test

#endif // ARVR_TESTS_UNIT_TESTUTIL_H
