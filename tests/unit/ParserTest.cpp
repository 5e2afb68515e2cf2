//===- ParserTest.cpp - Unit tests of the .arvr parser --------------------===//

#include "TestUtil.h"

#include <doctest/doctest.h>

using namespace arvr;
using arvr::test::Snippet;

/// Renders an expression fully parenthesised, to check precedence.
static std::string render(const Expr &expr) {
  if (auto *e = llvm::dyn_cast<IntLitExpr>(&expr))
    return std::to_string(e->value);
  if (auto *e = llvm::dyn_cast<FloatLitExpr>(&expr))
    return std::to_string(e->value).substr(0, 4);
  if (auto *e = llvm::dyn_cast<BoolLitExpr>(&expr))
    return e->value ? "true" : "false";
  if (auto *e = llvm::dyn_cast<VarExpr>(&expr))
    return e->name;
  if (auto *e = llvm::dyn_cast<UnaryExpr>(&expr))
    return std::string(e->op == UnaryExpr::Op::Neg ? "-" : "!") +
           render(*e->operand);
  if (auto *e = llvm::dyn_cast<BinaryExpr>(&expr))
    return "(" + render(*e->lhs) + " " + BinaryExpr::getSpelling(e->op).str() +
           " " + render(*e->rhs) + ")";
  if (auto *e = llvm::dyn_cast<CallExpr>(&expr)) {
    std::string s =
        e->callee + (e->method.empty() ? "" : "." + e->method) + "(";
    for (size_t i = 0; i < e->args.size(); ++i)
      s += (i ? ", " : "") + render(*e->args[i]);
    return s + ")";
  }
  if (auto *e = llvm::dyn_cast<MemberExpr>(&expr))
    return e->base + "." + e->member;
  return "?";
}

static std::string parseExpr(const std::string &text, Snippet *out = nullptr) {
  Snippet local(text);
  Snippet &s = out ? *out : local;
  Lexer lexer(s.text(), s.diags);
  Parser parser(lexer, s.diags);
  ExprPtr expr = parser.parseExpression();
  return expr ? render(*expr) : "<error>";
}

TEST_CASE("parser: operator precedence and associativity") {
  CHECK(parseExpr("a + b * c") == "(a + (b * c))");
  CHECK(parseExpr("a * b + c") == "((a * b) + c)");
  CHECK(parseExpr("a - b - c") == "((a - b) - c)");
  CHECK(parseExpr("a / b % c") == "((a / b) % c)");
  CHECK(parseExpr("a < b && c >= d || e") == "(((a < b) && (c >= d)) || e)");
  CHECK(parseExpr("a == b != c") == "((a == b) != c)");
  CHECK(parseExpr("-a * !b") == "(-a * !b)");
  CHECK(parseExpr("(a + b) * c") == "((a + b) * c)");
  CHECK(parseExpr("a || b && c") == "(a || (b && c))");
}

TEST_CASE("parser: calls, reads and members") {
  CHECK(parseExpr("u8_sat(f32(src(x, y, c)) * 2)") ==
        "u8_sat((f32(src(x, y, c)) * 2))");
  CHECK(parseExpr("src.clamp(x - 1, y, c)") == "src.clamp((x - 1), y, c)");
  CHECK(parseExpr("src.width / 2") == "(src.width / 2)");
  CHECK(parseExpr("min(a, max(b, c))") == "min(a, max(b, c))");
}

TEST_CASE("parser: a whole kernel") {
  Snippet s("kernel bc(src: image<u8, 3>, gain: f32 = 1.5, n: i32 = -2)\n"
            "    -> image<u8> {\n"
            "  func out(x, y, c) = src(x, y, c);\n"
            "}\n");
  ModuleAST module = s.parse(/*check=*/false);
  CHECK(s.output().empty());
  REQUIRE(module.kernels.size() == 1);
  const KernelDecl &k = module.kernels[0];
  CHECK(k.name == "bc");
  REQUIRE(k.params.size() == 3);
  CHECK(k.params[0].type.isImage);
  CHECK(k.params[0].type.channels == 3);
  CHECK(k.params[0].type.str() == "image<u8, 3>");
  CHECK(k.params[1].type.str() == "f32");
  REQUIRE(k.params[1].defaultValue);
  CHECK(render(*k.params[2].defaultValue) == "-2");
  REQUIRE(k.outputs.size() == 1);
  CHECK_FALSE(k.namedOutputs);
  CHECK(k.outputs[0].name == "out");
  CHECK(k.outputs[0].type.str() == "image<u8>");
  CHECK_FALSE(k.outputs[0].width);
  REQUIRE(k.funcs.size() == 1);
  CHECK(k.funcs[0].vars.size() == 3);
  CHECK(render(*k.funcs[0].body) == "src(x, y, c)");
}

TEST_CASE("parser: several named outputs, each with an optional size") {
  Snippet s("kernel two(src: image<u8, 3>)\n"
            "    -> (rgb: image<u8, 3>, small: image<u8, 1>[src.width / 2, "
            "src.height / 2]) {\n"
            "  func rgb(x, y, c) = src(x, y, c);\n"
            "  func small(x, y) = src.clamp(2 * x, 2 * y, 0);\n"
            "}\n");
  ModuleAST module = s.parse(/*check=*/false);
  CHECK(s.output().empty());
  REQUIRE(module.kernels.size() == 1);
  const KernelDecl &k = module.kernels[0];
  CHECK(k.namedOutputs);
  REQUIRE(k.outputs.size() == 2);
  CHECK(k.outputs[0].name == "rgb");
  CHECK(k.outputs[0].type.str() == "image<u8, 3>");
  CHECK_FALSE(k.outputs[0].width);
  CHECK(k.outputs[1].name == "small");
  CHECK(k.outputs[1].type.str() == "image<u8, 1>");
  REQUIRE(k.outputs[1].width);
  CHECK(render(*k.outputs[1].width) == "(src.width / 2)");
  CHECK(render(*k.outputs[1].height) == "(src.height / 2)");

  SUBCASE("an output without a name") {
    Snippet bad("kernel k(src: image<u8>) -> (image<u8>) {\n"
                "  func out(x, y, c) = src(x, y, c);\n}\n");
    bad.parse(/*check=*/false);
    CHECK(bad.output().find("1:30: error: the outputs in a list are named: "
                            "write '(name: image<...>, ...)'") !=
          std::string::npos);
  }
  SUBCASE("an unclosed list") {
    Snippet bad("kernel k(src: image<u8>) -> (a: image<u8> {\n"
                "  func a(x, y, c) = src(x, y, c);\n}\n");
    bad.parse(/*check=*/false);
    CHECK(bad.output().find("error: expected ')' or ',' in the output list") !=
          std::string::npos);
  }
}

TEST_CASE("parser: errors are located, and parsing goes on") {
  SUBCASE("missing semicolon, then a second error in the next func") {
    Snippet s("kernel k(src: image<u8>) -> image<u8> {\n"
              "  func out(x, y, c) = src(x, y, c)\n"
              "  func out(x, y, c) = + ;\n"
              "}\n");
    s.parse(/*check=*/false);
    CHECK(s.diags.getNumErrors() == 2);
    CHECK(s.output().find("test.arvr:3:3: error: expected ';' after the "
                          "definition, but found 'func'") != std::string::npos);
    CHECK(s.output().find("test.arvr:3:23: error: expected an expression, "
                          "but found '+'") != std::string::npos);
  }
  SUBCASE("unknown type") {
    Snippet s("kernel k(src: img<u8>) -> image<u8> { }");
    s.parse(/*check=*/false);
    CHECK(s.output().find("1:15: error: unknown type 'img'") !=
          std::string::npos);
  }
  SUBCASE("bad channel count") {
    Snippet s("kernel k(src: image<u8, 7>) -> image<u8> { }");
    s.parse(/*check=*/false);
    CHECK(s.output().find("an image has 1 to 4 channels, not 7") !=
          std::string::npos);
  }
  SUBCASE("stray text at top level") {
    Snippet s("func out(x) = 1;");
    ModuleAST module = s.parse(/*check=*/false);
    CHECK(module.kernels.empty());
    CHECK(s.output().find("1:1: error: expected 'kernel', but found 'func'") !=
          std::string::npos);
  }
  SUBCASE("source line and caret are shown") {
    Snippet s("kernel k(src: image<u8>) -> image<u8> {\n"
              "  func out(x, y, c) = src(x, y, c) +* 2;\n"
              "}\n");
    s.parse(/*check=*/false);
    CHECK(s.output().find("  func out(x, y, c) = src(x, y, c) +* 2;\n"
                          "                                    ^") !=
          std::string::npos);
  }
  SUBCASE("empty file is an empty module") {
    Snippet s("");
    ModuleAST module = s.parse(/*check=*/false);
    CHECK(module.kernels.empty());
    CHECK(s.diags.getNumErrors() == 0);
  }
  SUBCASE("deep nesting is refused, not a stack overflow") {
    std::string deep(100000, '(');
    Snippet s("kernel k(src: image<u8>) -> image<u8> { func out(x, y, c) = " +
              deep + "1; }");
    s.parse(/*check=*/false);
    CHECK(s.output().find("expression is nested too deeply") !=
          std::string::npos);
  }
  SUBCASE("integer literal too large") {
    Snippet out("");
    CHECK(parseExpr("99999999999999999999999", &out) == "<error>");
  }
}
