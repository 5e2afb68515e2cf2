//===- LexerTest.cpp - Unit tests of the .arvr lexer ----------------------===//

#include "TestUtil.h"

#include <doctest/doctest.h>

#include <vector>

using namespace arvr;
using arvr::test::Snippet;

static std::vector<Token> lexAll(Snippet &snippet) {
  Lexer lexer(snippet.text(), snippet.diags);
  std::vector<Token> tokens;
  for (Token token = lexer.lex(); !token.is(TokenKind::eof);
       token = lexer.lex())
    tokens.push_back(token);
  return tokens;
}

TEST_CASE("lexer: keywords, names, numbers and operators") {
  Snippet s("kernel k(a: f32 = 1.5e-2) -> image<u8> { func out(x) = a <= 3 "
            "&& !b || c != d >= e; }");
  std::vector<Token> tokens = lexAll(s);
  CHECK(s.output().empty());
  std::vector<TokenKind> kinds;
  for (const Token &t : tokens)
    kinds.push_back(t.kind);
  using K = TokenKind;
  std::vector<TokenKind> expected = {
      K::kw_kernel,  K::identifier, K::l_paren,    K::identifier,
      K::colon,      K::identifier, K::equal,      K::number,
      K::r_paren,    K::arrow,      K::identifier, K::less,
      K::identifier, K::greater,    K::l_brace,    K::kw_func,
      K::identifier, K::l_paren,    K::identifier, K::r_paren,
      K::equal,      K::identifier, K::less_equal, K::integer,
      K::amp_amp,    K::exclaim,    K::identifier, K::pipe_pipe,
      K::identifier, K::not_equal,  K::identifier, K::greater_equal,
      K::identifier, K::semicolon,  K::r_brace};
  CHECK(kinds == expected);
  CHECK(tokens[7].spelling == "1.5e-2");
}

TEST_CASE("lexer: comments are skipped, and locations are exact") {
  Snippet s("// line comment\n/* block\n comment */ foo /*x*/ 42");
  std::vector<Token> tokens = lexAll(s);
  REQUIRE(tokens.size() == 2);
  CHECK(tokens[0].spelling == "foo");
  auto [line, col] = s.diags.getLineAndColumn(tokens[0].getLoc());
  CHECK(line == 3);
  CHECK(col == 13);
  CHECK(tokens[1].is(TokenKind::integer));
}

TEST_CASE("lexer: numbers") {
  Snippet s("0 12 3.25 .5 7. 1e3 2E+2");
  std::vector<Token> tokens = lexAll(s);
  REQUIRE(tokens.size() == 7);
  CHECK(tokens[0].is(TokenKind::integer));
  CHECK(tokens[1].is(TokenKind::integer));
  for (size_t i = 2; i < tokens.size(); ++i)
    CHECK(tokens[i].is(TokenKind::number));
}

TEST_CASE("lexer: malformed text is located and reported") {
  SUBCASE("invalid character") {
    Snippet s("a $ b");
    std::vector<Token> tokens = lexAll(s);
    REQUIRE(tokens.size() == 3);
    CHECK(tokens[1].is(TokenKind::error));
    CHECK(s.output().find("test.arvr:1:3: error: unexpected character '$'") !=
          std::string::npos);
  }
  SUBCASE("non-ASCII character kept whole") {
    Snippet s("x \xC3\xA9 y");
    std::vector<Token> tokens = lexAll(s);
    REQUIRE(tokens.size() == 3);
    CHECK(tokens[1].spelling.size() == 2);
    CHECK(s.diags.getNumErrors() == 1);
  }
  SUBCASE("exponent without digits") {
    Snippet s("1e+");
    lexAll(s);
    CHECK(s.output().find("missing digits in the exponent") !=
          std::string::npos);
  }
  SUBCASE("letters glued to a number") {
    Snippet s("1.0f");
    std::vector<Token> tokens = lexAll(s);
    REQUIRE(tokens.size() == 1);
    CHECK(tokens[0].is(TokenKind::error));
    CHECK(s.output().find("invalid number '1.0f'") != std::string::npos);
  }
  SUBCASE("unterminated block comment") {
    Snippet s("a /* never closed");
    lexAll(s);
    CHECK(s.output().find("1:3: error: unterminated '/*' comment") !=
          std::string::npos);
  }
  SUBCASE("lone & and |") {
    Snippet s("a & b | c");
    lexAll(s);
    CHECK(s.diags.getNumErrors() == 2);
  }
}
