//===- SemaTest.cpp - Unit tests of the semantic checks -------------------===//

#include "TestUtil.h"

#include <doctest/doctest.h>

using namespace arvr;
using arvr::test::Snippet;

/// A kernel with one u8 image `src`, scalars `g: f32` and `n: i32`, and
/// `out` defined as `body`.
static std::string kernelWith(const std::string &body,
                              const std::string &output = "image<u8>") {
  return "kernel k(src: image<u8>, g: f32 = 1.0, n: i32 = 2) -> " + output +
         " {\n  func out(x, y, c) = " + body + ";\n}\n";
}

static bool accepts(const std::string &text, std::string *messages = nullptr) {
  Snippet s(text);
  s.parse();
  if (messages)
    *messages = s.output();
  return !s.diags.hadError();
}

static bool rejectsWith(const std::string &text, const std::string &message) {
  std::string messages;
  if (accepts(text, &messages))
    return false;
  bool found = messages.find(message) != std::string::npos;
  if (!found)
    MESSAGE("got: " << messages);
  return found;
}

TEST_CASE("sema: types of expressions") {
  Snippet s(kernelWith("u8_sat(g * f32(src(x, y, c)) + 1)"));
  ModuleAST module = s.parse();
  REQUIRE(s.output().empty());
  const Expr &body = *module.kernels[0].funcs[0].body;
  CHECK(body.type == ScalarType::U8);
  auto &call = llvm::cast<CallExpr>(body);
  auto &sum = llvm::cast<BinaryExpr>(*call.args[0]);
  CHECK(sum.type == ScalarType::F32);
  // The integer literal became f32 next to a float.
  CHECK(sum.rhs->type == ScalarType::F32);
  auto &product = llvm::cast<BinaryExpr>(*sum.lhs);
  auto &cast = llvm::cast<CallExpr>(*product.rhs);
  CHECK(cast.args[0]->type == ScalarType::U8);
  auto &read = llvm::cast<CallExpr>(*cast.args[0]);
  CHECK(read.builtin == CallExpr::Builtin::ReadImage);
  CHECK_FALSE(read.clampToEdge);
}

TEST_CASE("sema: valid kernels") {
  CHECK(accepts(kernelWith("src(x, y, c)")));
  CHECK(accepts(kernelWith("u8(i32(src(x, y, c)) + n)")));
  CHECK(accepts(kernelWith("src.clamp(x - 1, y + n, c)")));
  CHECK(accepts(kernelWith("u8_sat(max(0, min(n * 2, 255)))")));
  CHECK(accepts(kernelWith("u8_sat(clamp(g, 0, 1) * 255.0)")));
  CHECK(accepts(kernelWith("u8_sat(abs(-g) + f32(src.width % 3))")));
  CHECK(accepts(kernelWith("f32(x) / f32(src.width)", "image<f32>")));
  CHECK(accepts(kernelWith("u8(x < 3 && !(y == 2) || n != 1)")));
  CHECK(accepts("kernel grey(src: image<u8, 1>) -> image<u8, 1> {\n"
                "  func out(x, y) = src(x, y);\n}\n"));
  CHECK(accepts("kernel rgb(src: image<u8, 4>) -> image<u8, 3> {\n"
                "  func out(x, y, c) = src(x, y, c);\n}\n"));
}

TEST_CASE("sema: reads that may leave the image need a boundary mode") {
  CHECK(rejectsWith(kernelWith("src(x + 1, y, c)"),
                    "test.arvr:2:27: error: this read of 'src' may fall "
                    "outside the image"));
  CHECK(rejectsWith(kernelWith("src(y, x, c)"), "may fall outside the image"));
  CHECK(rejectsWith(kernelWith("src(x, y, c)", "image<u8, 3>"),
                    "may fall outside the image"));
  CHECK(rejectsWith(kernelWith("src.mirror(x, y, c)"),
                    "unknown boundary mode 'mirror'"));
}

TEST_CASE("sema: type errors") {
  CHECK(rejectsWith(kernelWith("u8_sat(g * n)"),
                    "'*' mixes f32 and i32 operands"));
  CHECK(rejectsWith(kernelWith("u8_sat(g * n)"),
                    "note: convert this operand with f32(...)"));
  CHECK(rejectsWith(kernelWith("g * 2.0"),
                    "'out' computes f32 values, but the output is image<u8>"));
  CHECK(rejectsWith(kernelWith("g * 2.0"), "u8_sat(...)"));
  CHECK(rejectsWith(kernelWith("u8(g % 2.0)"), "'%' needs integer operands"));
  CHECK(rejectsWith(kernelWith("u8(!n)"), "'!' needs a bool operand"));
  CHECK(rejectsWith(kernelWith("u8(n && true)"), "'&&' needs bool operands"));
  CHECK(rejectsWith(kernelWith("src.clamp(g, y, c)"),
                    "image coordinates are integers, but this one is f32"));
  CHECK(rejectsWith(kernelWith("u8(src)"), "image 'src' must be read at "
                                           "coordinates"));
  CHECK(rejectsWith(kernelWith("u8(3000000000)"), "does not fit in i32"));
}

TEST_CASE("sema: names and calls") {
  CHECK(rejectsWith(kernelWith("u8(z)"), "unknown name 'z'"));
  CHECK(rejectsWith(kernelWith("blur(x)"), "unknown function 'blur'"));
  CHECK(rejectsWith(kernelWith("u8_sat(g, g)"),
                    "'u8_sat' takes 1 argument, but 2 were given"));
  CHECK(rejectsWith(kernelWith("src(x, y)"),
                    "reading image 'src' takes (x, y, c), but 2 coordinates "
                    "were given"));
  CHECK(rejectsWith(kernelWith("u8(g.width)"), "'g' is not an image"));
  CHECK(rejectsWith(kernelWith("u8(src.depth)"), "not 'depth'"));
  CHECK(rejectsWith(kernelWith("u8(n.clamp(1))"), "'n' is not an image"));
}

TEST_CASE("sema: declarations") {
  CHECK(rejectsWith("kernel k(a: f32) -> image<u8> {\n"
                    "  func out(x, y, c) = 0;\n}\n",
                    "needs an image parameter"));
  CHECK(rejectsWith("kernel k(src: image<u8>, src: f32) -> image<u8> {\n"
                    "  func out(x, y, c) = src(x, y, c);\n}\n",
                    "parameter 'src' is declared twice"));
  CHECK(rejectsWith("kernel k(src: image<u8>, g: f32 = true) -> image<u8> {\n"
                    "  func out(x, y, c) = src(x, y, c);\n}\n",
                    "default value of 'g' must be a f32 literal"));
  CHECK(rejectsWith("kernel k(src: image<u8>, g: u8) -> image<u8> {\n"
                    "  func out(x, y, c) = src(x, y, c);\n}\n",
                    "scalar parameters are f32, i32 or bool"));
  CHECK(rejectsWith("kernel k(src: image<u8>) -> f32 {\n"
                    "  func out(x, y, c) = 0.0;\n}\n",
                    "a kernel's output must be an image"));
  CHECK(rejectsWith("kernel k(src: image<u8>) -> image<u8> {\n}\n",
                    "does not define its output"));
  CHECK(rejectsWith("kernel k(src: image<u8>) -> image<u8> {\n"
                    "  func out(x, y) = src(x, y, 0);\n}\n",
                    "'out' takes the coordinates (x, y, c), but has 2"));
  CHECK(rejectsWith("kernel k(src: image<u8>) -> image<u8> {\n"
                    "  func blur(x, y, c) = src(x, y, c);\n"
                    "  func out(x, y, c) = src(x, y, c);\n}\n",
                    "only the output function 'out' can be defined"));
  CHECK(rejectsWith("kernel k(src: image<u8>) -> image<u8> {\n"
                    "  func out(x, x, c) = src(x, x, c);\n}\n",
                    "coordinate 'x' is named twice"));
  CHECK(rejectsWith("kernel k(src: image<u8>) -> image<u8> {\n"
                    "  func out(x, y, c) = src(x, y, c);\n"
                    "  func out(x, y, c) = src(x, y, c);\n}\n",
                    "'out' is defined twice"));
  CHECK(rejectsWith("kernel k(src: image<u8>) -> image<u8> {\n"
                    "  func out(x, y, c) = src(x, y, c);\n}\n"
                    "kernel k(src: image<u8>) -> image<u8> {\n"
                    "  func out(x, y, c) = src(x, y, c);\n}\n",
                    "kernel 'k' is defined twice"));
}
