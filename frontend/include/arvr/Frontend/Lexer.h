//===- Lexer.h - Tokens of the .arvr language -------------------*- C++ -*-===//
//
// Splits .arvr text into tokens. Comments (`// ...` and `/* ... */`) and
// white space are skipped; malformed text is reported to the
// DiagnosticEngine and becomes an `error` token, so parsing can go on.
//
//===----------------------------------------------------------------------===//

#ifndef ARVR_FRONTEND_LEXER_H
#define ARVR_FRONTEND_LEXER_H

#include "arvr/Frontend/Diagnostics.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <cstdint>

namespace arvr {

enum class TokenKind {
  eof,
  error,
  identifier,
  integer, // 42
  number,  // 1.5, 2e-3, 1.0f is not allowed
  // Keywords.
  kw_kernel,
  kw_func,
  kw_const,
  kw_let,
  kw_return,
  kw_in,
  kw_true,
  kw_false,
  kw_schedule,
  // Punctuation and operators.
  l_paren,
  r_paren,
  l_brace,
  r_brace,
  l_square,
  r_square,
  comma,
  semicolon,
  colon,
  period,
  dot_dot, // ..
  arrow,   // ->
  equal,   // =
  plus,
  minus,
  star,
  slash,
  percent,
  less,
  less_equal,
  greater,
  greater_equal,
  equal_equal,
  not_equal,
  amp_amp,
  pipe_pipe,
  exclaim,
};

/// A printable name for a token kind: `'('` or `identifier`.
llvm::StringRef getTokenKindName(TokenKind kind);

struct Token {
  TokenKind kind = TokenKind::eof;
  llvm::StringRef spelling;
  llvm::SMLoc getLoc() const {
    return llvm::SMLoc::getFromPointer(spelling.data());
  }
  llvm::SMLoc getEndLoc() const {
    return llvm::SMLoc::getFromPointer(spelling.data() + spelling.size());
  }
  llvm::SMRange getRange() const { return {getLoc(), getEndLoc()}; }
  bool is(TokenKind k) const { return kind == k; }
};

class Lexer {
public:
  Lexer(llvm::StringRef buffer, DiagnosticEngine &diags);

  /// Returns the next token; `eof` forever at the end of the buffer.
  Token lex();

private:
  Token makeToken(TokenKind kind, const char *start) const {
    return Token{kind, llvm::StringRef(start, cur - start)};
  }
  Token lexIdentifier(const char *start);
  Token lexNumber(const char *start);
  /// Skips white space and comments; false after an unterminated comment.
  void skipTrivia();

  llvm::StringRef buffer;
  const char *cur;
  DiagnosticEngine &diags;
};

} // namespace arvr

#endif // ARVR_FRONTEND_LEXER_H
