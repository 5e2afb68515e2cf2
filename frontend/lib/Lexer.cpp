//===- Lexer.cpp - Tokens of the .arvr language ---------------------------===//

#include "arvr/Frontend/Lexer.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/raw_ostream.h"

#include <cctype>

using namespace arvr;

llvm::StringRef arvr::getTokenKindName(TokenKind kind) {
  switch (kind) {
  case TokenKind::eof:
    return "end of file";
  case TokenKind::error:
    return "invalid token";
  case TokenKind::identifier:
    return "identifier";
  case TokenKind::integer:
    return "integer";
  case TokenKind::number:
    return "number";
  case TokenKind::kw_kernel:
    return "'kernel'";
  case TokenKind::kw_func:
    return "'func'";
  case TokenKind::kw_const:
    return "'const'";
  case TokenKind::kw_let:
    return "'let'";
  case TokenKind::kw_return:
    return "'return'";
  case TokenKind::kw_in:
    return "'in'";
  case TokenKind::dot_dot:
    return "'..'";
  case TokenKind::kw_true:
    return "'true'";
  case TokenKind::kw_false:
    return "'false'";
  case TokenKind::kw_schedule:
    return "'schedule'";
  case TokenKind::l_paren:
    return "'('";
  case TokenKind::r_paren:
    return "')'";
  case TokenKind::l_brace:
    return "'{'";
  case TokenKind::r_brace:
    return "'}'";
  case TokenKind::l_square:
    return "'['";
  case TokenKind::r_square:
    return "']'";
  case TokenKind::comma:
    return "','";
  case TokenKind::semicolon:
    return "';'";
  case TokenKind::colon:
    return "':'";
  case TokenKind::period:
    return "'.'";
  case TokenKind::arrow:
    return "'->'";
  case TokenKind::equal:
    return "'='";
  case TokenKind::plus:
    return "'+'";
  case TokenKind::minus:
    return "'-'";
  case TokenKind::star:
    return "'*'";
  case TokenKind::slash:
    return "'/'";
  case TokenKind::percent:
    return "'%'";
  case TokenKind::less:
    return "'<'";
  case TokenKind::less_equal:
    return "'<='";
  case TokenKind::greater:
    return "'>'";
  case TokenKind::greater_equal:
    return "'>='";
  case TokenKind::equal_equal:
    return "'=='";
  case TokenKind::not_equal:
    return "'!='";
  case TokenKind::amp_amp:
    return "'&&'";
  case TokenKind::pipe_pipe:
    return "'||'";
  case TokenKind::exclaim:
    return "'!'";
  }
  llvm_unreachable("unknown token kind");
}

Lexer::Lexer(llvm::StringRef buffer, DiagnosticEngine &diags)
    : buffer(buffer), cur(buffer.begin()), diags(diags) {}

void Lexer::skipTrivia() {
  while (cur != buffer.end()) {
    if (std::isspace(static_cast<unsigned char>(*cur))) {
      ++cur;
    } else if (*cur == '/' && cur + 1 != buffer.end() && cur[1] == '/') {
      while (cur != buffer.end() && *cur != '\n')
        ++cur;
    } else if (*cur == '/' && cur + 1 != buffer.end() && cur[1] == '*') {
      const char *start = cur;
      cur += 2;
      while (cur != buffer.end() &&
             !(*cur == '*' && cur + 1 != buffer.end() && cur[1] == '/'))
        ++cur;
      if (cur == buffer.end()) {
        diags.error(llvm::SMLoc::getFromPointer(start),
                    "unterminated '/*' comment");
        return;
      }
      cur += 2;
    } else {
      return;
    }
  }
}

Token Lexer::lex() {
  skipTrivia();
  const char *start = cur;
  if (cur == buffer.end())
    return makeToken(TokenKind::eof, start);

  char c = *cur++;
  auto next = [&](char expected) {
    if (cur != buffer.end() && *cur == expected) {
      ++cur;
      return true;
    }
    return false;
  };
  if (std::isalpha(static_cast<unsigned char>(c)) || c == '_')
    return lexIdentifier(start);
  if (std::isdigit(static_cast<unsigned char>(c)) ||
      (c == '.' && cur != buffer.end() &&
       std::isdigit(static_cast<unsigned char>(*cur))))
    return lexNumber(start);

  switch (c) {
  case '(':
    return makeToken(TokenKind::l_paren, start);
  case ')':
    return makeToken(TokenKind::r_paren, start);
  case '{':
    return makeToken(TokenKind::l_brace, start);
  case '}':
    return makeToken(TokenKind::r_brace, start);
  case '[':
    return makeToken(TokenKind::l_square, start);
  case ']':
    return makeToken(TokenKind::r_square, start);
  case ',':
    return makeToken(TokenKind::comma, start);
  case ';':
    return makeToken(TokenKind::semicolon, start);
  case ':':
    return makeToken(TokenKind::colon, start);
  case '.':
    return makeToken(next('.') ? TokenKind::dot_dot : TokenKind::period, start);
  case '+':
    return makeToken(TokenKind::plus, start);
  case '-':
    return makeToken(next('>') ? TokenKind::arrow : TokenKind::minus, start);
  case '*':
    return makeToken(TokenKind::star, start);
  case '/':
    return makeToken(TokenKind::slash, start);
  case '%':
    return makeToken(TokenKind::percent, start);
  case '<':
    return makeToken(next('=') ? TokenKind::less_equal : TokenKind::less,
                     start);
  case '>':
    return makeToken(next('=') ? TokenKind::greater_equal : TokenKind::greater,
                     start);
  case '=':
    return makeToken(next('=') ? TokenKind::equal_equal : TokenKind::equal,
                     start);
  case '!':
    return makeToken(next('=') ? TokenKind::not_equal : TokenKind::exclaim,
                     start);
  case '&':
    if (next('&'))
      return makeToken(TokenKind::amp_amp, start);
    break;
  case '|':
    if (next('|'))
      return makeToken(TokenKind::pipe_pipe, start);
    break;
  default:
    break;
  }

  // Anything else is an invalid character; keep a multi-byte UTF-8
  // sequence together so the message shows the whole character.
  while (cur != buffer.end() &&
         (static_cast<unsigned char>(*cur) & 0xC0) == 0x80)
    ++cur;
  Token token = makeToken(TokenKind::error, start);
  if (std::isprint(static_cast<unsigned char>(c)))
    diags.error(token.getLoc(),
                "unexpected character '" + token.spelling + "'");
  else
    diags.error(token.getLoc(),
                "unexpected character (byte 0x" +
                    llvm::utohexstr(static_cast<unsigned char>(c)) + ")");
  return token;
}

Token Lexer::lexIdentifier(const char *start) {
  while (cur != buffer.end() &&
         (std::isalnum(static_cast<unsigned char>(*cur)) || *cur == '_'))
    ++cur;
  llvm::StringRef spelling(start, cur - start);
  TokenKind kind = llvm::StringSwitch<TokenKind>(spelling)
                       .Case("kernel", TokenKind::kw_kernel)
                       .Case("func", TokenKind::kw_func)
                       .Case("const", TokenKind::kw_const)
                       .Case("let", TokenKind::kw_let)
                       .Case("return", TokenKind::kw_return)
                       .Case("in", TokenKind::kw_in)
                       .Case("true", TokenKind::kw_true)
                       .Case("false", TokenKind::kw_false)
                       .Case("schedule", TokenKind::kw_schedule)
                       .Default(TokenKind::identifier);
  return makeToken(kind, start);
}

/// integer := digit+ ; number := digit* '.' digit* exponent? | digit+ exponent
Token Lexer::lexNumber(const char *start) {
  auto isDigit = [&] {
    return cur != buffer.end() &&
           std::isdigit(static_cast<unsigned char>(*cur));
  };
  cur = start;
  bool isFloat = false;
  while (isDigit())
    ++cur;
  // A '.' starts the fraction, unless it begins a range's '..'.
  if (cur != buffer.end() && *cur == '.' &&
      !(cur + 1 != buffer.end() && cur[1] == '.')) {
    isFloat = true;
    ++cur;
    while (isDigit())
      ++cur;
  }
  if (cur != buffer.end() && (*cur == 'e' || *cur == 'E')) {
    isFloat = true;
    ++cur;
    if (cur != buffer.end() && (*cur == '+' || *cur == '-'))
      ++cur;
    if (!isDigit()) {
      Token token = makeToken(TokenKind::error, start);
      diags.error(token.getLoc(),
                  "missing digits in the exponent of '" + token.spelling + "'");
      return token;
    }
    while (isDigit())
      ++cur;
  }
  // A letter glued to a number (`3x`, `1.0f`) is a typo, not two tokens.
  if (cur != buffer.end() &&
      (std::isalpha(static_cast<unsigned char>(*cur)) || *cur == '_')) {
    while (cur != buffer.end() &&
           (std::isalnum(static_cast<unsigned char>(*cur)) || *cur == '_'))
      ++cur;
    Token token = makeToken(TokenKind::error, start);
    diags.error(token.getLoc(), "invalid number '" + token.spelling + "'");
    return token;
  }
  return makeToken(isFloat ? TokenKind::number : TokenKind::integer, start);
}
