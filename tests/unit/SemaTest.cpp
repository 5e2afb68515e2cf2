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
  REQUIRE_FALSE(s.diags.hadError()); // `n` is unused: a warning only.
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
  CHECK(read.boundary == BoundaryMode::None);
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

TEST_CASE("sema: reads without a boundary mode are proved in range later") {
  // Sema only resolves the boundary; arvr-check-bounds proves plain reads
  // in range on the dialect (tests/lit/Frontend/errors/out-of-bounds.arvr).
  CHECK(accepts(kernelWith("src(x + 1, y, c)")));
  CHECK(accepts(kernelWith("src(y, x, c)")));
  CHECK(rejectsWith(kernelWith("src.reflect(x, y, c)"),
                    "unknown boundary mode 'reflect'; expected clamp, mirror, "
                    "wrap or constant"));
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
                    "coordinates are integers, but this one is f32"));
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
  // A plain read in a helper: arvr-check-bounds proves it at each call.
  CHECK(accepts("kernel k(src: image<u8>) -> image<u8> {\n"
                "  func blur(x, y, c) = src(x, y, c);\n"
                "  func out(x, y, c) = blur(x, y, c);\n}\n"));
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

TEST_CASE("sema: boundary modes, per access and per image") {
  CHECK(accepts(kernelWith("src.mirror(x - 3, y, c)")));
  CHECK(accepts(kernelWith("src.wrap(x + src.width, y, c)")));
  CHECK(accepts(kernelWith("src.constant(x, y - 1, c)")));
  // A declared mode covers plain reads.
  CHECK(accepts("kernel k(src: image<u8> mirror) -> image<u8> {\n"
                "  func out(x, y, c) = src(x + 1, y - 1, c);\n}\n"));
  CHECK(accepts("kernel k(src: image<u8, 3> constant(7)) -> image<u8, 3> {\n"
                "  func out(x, y, c) = src(x - 9, y, c);\n}\n"));
  Snippet s("kernel k(src: image<f32> constant(-1.5)) -> image<f32> {\n"
            "  func out(x, y, c) = src.clamp(x + 1, y, c) + src(x, y, c);\n"
            "}\n");
  ModuleAST module = s.parse();
  REQUIRE(s.output().empty());
  CHECK(module.kernels[0].params[0].type.boundary == BoundaryMode::Constant);
  CHECK(module.kernels[0].params[0].type.padding == -1.5);
  auto &sum = llvm::cast<BinaryExpr>(*module.kernels[0].funcs[0].body);
  CHECK(llvm::cast<CallExpr>(*sum.lhs).boundary == BoundaryMode::Clamp);
  CHECK(llvm::cast<CallExpr>(*sum.rhs).boundary == BoundaryMode::Constant);

  CHECK(rejectsWith("kernel k(src: image<u8> constant(300)) -> image<u8> {\n"
                    "  func out(x, y, c) = src(x, y, c);\n}\n",
                    "the constant 300 is not a u8 value"));
  CHECK(rejectsWith("kernel k(src: image<u8> constant(0.5)) -> image<u8> {\n"
                    "  func out(x, y, c) = src(x, y, c);\n}\n",
                    "the constant 0.5 is not a u8 value"));
  CHECK(rejectsWith("kernel k(src: image<u8>) -> image<u8> mirror {\n"
                    "  func out(x, y, c) = src(x, y, c);\n}\n",
                    "a boundary mode belongs to an input image"));
  CHECK(rejectsWith("kernel k(src: image<u8> bounce) -> image<u8> {\n"
                    "  func out(x, y, c) = src(x, y, c);\n}\n",
                    "unknown boundary mode 'bounce'; expected clamp, mirror, "
                    "wrap or constant(v)"));
}

TEST_CASE("sema: sample") {
  const std::string header =
      "kernel k(src: image<u8> constant(0), g: f32 = 1.0) -> image<u8> {\n"
      "  func out(x, y, c) = u8_sat(";
  CHECK(accepts(header + "sample(src, f32(x) * g, 2, c, bilinear));\n}\n"));
  CHECK(accepts(header + "sample(src, g, g, c, nearest));\n}\n"));
  CHECK(rejectsWith(header + "sample(src, x, g, c, bilinear));\n}\n",
                    "'sample' coordinates are f32, but this one is i32"));
  CHECK(rejectsWith(header + "sample(src, g, g, g, bilinear));\n}\n",
                    "the channel of 'sample' is an integer, but this one is "
                    "f32"));
  CHECK(rejectsWith(header + "sample(src, g, g, c, bicubic));\n}\n",
                    "the last argument of 'sample' is 'bilinear' or "
                    "'nearest'"));
  CHECK(rejectsWith(header + "sample(g, g, g, c, bilinear));\n}\n",
                    "the first argument of 'sample' must be an image"));
  CHECK(rejectsWith(header + "sample(src, g, g, bilinear));\n}\n",
                    "needs a channel"));
  CHECK(rejectsWith(kernelWith("u8_sat(sample(src, g, g, c, bilinear))"),
                    "'sample' may read outside 'src', which has no boundary "
                    "mode"));
  CHECK(rejectsWith(kernelWith("u8_sat(sample(src, g, g, c, bilinear))"),
                    "note: declare one here, e.g. 'image<u8> constant(0)'"));
}

TEST_CASE("sema: let, const, select and maths") {
  CHECK(accepts("kernel k(src: image<u8>, g: f32 = 2.0) -> image<u8> {\n"
                "  const scale = -0.5;\n"
                "  const offset = 3;\n"
                "  func out(x, y, c) {\n"
                "    let v = f32(src(x, y, c));\n"
                "    let w = sqrt(v) * exp(-v) + pow(v, g) + atan2(v, 1)\n"
                "            + lerp(0, v, 0.5) + floor(v) + round(scale);\n"
                "    return u8_sat(select(x > offset, w, v * scale));\n"
                "  }\n}\n"));
  CHECK(rejectsWith(kernelWith("u8_sat(sqrt(n))"),
                    "'sqrt' takes f32 arguments, but this one is i32"));
  CHECK(rejectsWith(kernelWith("u8(select(n, 1, 2))"),
                    "the condition of 'select' must be bool, but is i32"));
  CHECK(rejectsWith(kernelWith("u8(select(x > 1, g, n))"),
                    "'select' mixes f32 and i32 operands"));
  CHECK(rejectsWith("kernel k(src: image<u8>) -> image<u8> {\n"
                    "  func out(x, y, c) {\n"
                    "    let a = 1;\n    let a = 2;\n    return u8(a);\n"
                    "  }\n}\n",
                    "'a' is already defined in 'out'"));
  CHECK(rejectsWith("kernel k(src: image<u8>) -> image<u8> {\n"
                    "  func out(x, y, c) {\n"
                    "    let v = w;\n    let w = 2;\n    return u8(v);\n"
                    "  }\n}\n",
                    "unknown name 'w'"));
  CHECK(rejectsWith("kernel k(src: image<u8>, g: f32) -> image<u8> {\n"
                    "  func out(x, y, c) {\n"
                    "    let g = 2;\n    return u8(g);\n  }\n}\n",
                    "'let g' hides the kernel's 'g'"));
  CHECK(rejectsWith("kernel k(src: image<u8>, g: f32) -> image<u8> {\n"
                    "  const h = g;\n"
                    "  func out(x, y, c) = src(x, y, c);\n}\n",
                    "the value of constant 'h' must be a literal"));
  CHECK(rejectsWith("kernel k(src: image<u8>, g: f32) -> image<u8> {\n"
                    "  const g = 1;\n"
                    "  func out(x, y, c) = src(x, y, c);\n}\n",
                    "constant 'g' has the name of a parameter"));
  CHECK(rejectsWith("kernel k(src: image<u8>) -> image<u8> {\n"
                    "  const a = 1;\n  const a = 2;\n"
                    "  func out(x, y, c) = src(x, y, c);\n}\n",
                    "constant 'a' is defined twice"));
}

TEST_CASE("sema: functions and reductions") {
  CHECK(
      accepts("kernel k(src: image<u8> mirror, r: i32 = 2) -> image<u8> {\n"
              "  func w(i) = f32(i * i);\n"
              "  func total() = sum(i in -r..r, w(i));\n"
              "  func box(x, y, c) = sum(i in -r..r, f32(src(x + i, y, c)));\n"
              "  func out(x, y, c) = u8_sat(box(x, y, c) / total()\n"
              "      + f32(min(i in 0..2, max(j in -1..1, i * j)))\n"
              "      + f32(min(x, 3)));\n}\n"));
  Snippet s("kernel k(src: image<u8> clamp) -> image<u8> {\n"
            "  func out(x, y, c) = u8(sum(i in 0..src.width / 8, src(x + i, y, "
            "c)));\n"
            "}\n");
  ModuleAST module = s.parse();
  REQUIRE(s.output().empty());
  auto &cast = llvm::cast<CallExpr>(*module.kernels[0].funcs[0].body);
  auto &reduce = llvm::cast<ReduceExpr>(*cast.args[0]);
  CHECK(reduce.op == ReduceExpr::Op::Sum);
  CHECK(reduce.type == ScalarType::I32);
  {
    // argmin over f32 terms is an i32 index.
    Snippet t(
        "kernel k(src: image<u8> clamp) -> image<u8> {\n"
        "  func out(x, y, c) = u8(argmin(i in 0..3, f32(src(x + i, y, c)) "
        "* 0.5));\n}\n");
    ModuleAST m = t.parse();
    REQUIRE_FALSE(t.diags.hadError());
    auto &arg = llvm::cast<ReduceExpr>(
        *llvm::cast<CallExpr>(*m.kernels[0].funcs[0].body).args[0]);
    CHECK(arg.op == ReduceExpr::Op::Argmin);
    CHECK(arg.type == ScalarType::I32);
    CHECK(arg.body->type == ScalarType::F32);
  }
  auto &read = llvm::cast<CallExpr>(*reduce.body);
  auto &sumX = llvm::cast<BinaryExpr>(*read.args[0]);
  CHECK(llvm::cast<VarExpr>(*sumX.rhs).binding == VarExpr::Binding::ReduceVar);

  const std::string kernel = "kernel k(src: image<u8> clamp, r: i32 = 2, "
                             "g: f32 = 1.0) -> image<u8> {\n";
  CHECK(rejectsWith(kernel + "  func f(x) = g(x);\n  func g(x) = f(x + 1);\n"
                             "  func out(x, y, c) = u8(f(x));\n}\n",
                    "has the name of a parameter, constant or builtin"));
  CHECK(rejectsWith(kernel + "  func f(x) = h(x);\n  func h(x) = f(x + 1);\n"
                             "  func out(x, y, c) = u8(f(x));\n}\n",
                    "'f' is used in its own definition (through 'h'); "
                    "functions cannot be recursive"));
  CHECK(rejectsWith(kernel + "  func f(x) = f(x);\n"
                             "  func out(x, y, c) = u8(f(x));\n}\n",
                    "'f' is used in its own definition; functions cannot be "
                    "recursive"));
  CHECK(rejectsWith(kernel + "  func f(x, y) = x + y;\n"
                             "  func out(x, y, c) = u8(f(x));\n}\n",
                    "'f' takes 2 coordinates, but 1 was given"));
  CHECK(rejectsWith(kernel + "  func f(a, b, c, d, e, f, g, h, i) = a;\n"
                             "  func out(x, y, c) = u8(x);\n}\n",
                    "'f' has 9 coordinates; a function has at most 8"));
  CHECK(rejectsWith(kernel + "  func f(x) = x;\n  func f(y) = y;\n"
                             "  func out(x, y, c) = u8(f(x));\n}\n",
                    "'f' is defined twice"));
  CHECK(rejectsWith(kernel + "  func f(x) = x;\n"
                             "  func out(x, y, c) = u8(f(g));\n}\n",
                    "coordinates are integers, but this one is f32"));
  CHECK(
      rejectsWith(kernel + "  func out(x, y, c) = u8(sum(i in 0..x, i));\n}\n",
                  "reduction bounds must be constants, parameters or image "
                  "sizes, the same at every pixel"));
  CHECK(
      rejectsWith(kernel + "  func out(x, y, c) = u8(sum(i in 0..g, i));\n}\n",
                  "reduction bounds are integers, but this one is f32"));
  CHECK(rejectsWith(
      kernel + "  func out(x, y, c) = u8(sum(i in 0..r, sum(i in 0..r, "
               "i)));\n}\n",
      "'i' is already the variable of an enclosing reduction"));
  CHECK(
      rejectsWith(kernel + "  func out(x, y, c) = u8(sum(r in 0..3, r));\n}\n",
                  "reduction variable 'r' hides the kernel's 'r'"));
  CHECK(rejectsWith(kernel +
                        "  func out(x, y, c) = u8(sum(i in 0..3, i > 1));\n}\n",
                    "'sum' needs numbers, but this is bool"));
}

TEST_CASE("sema: unused parameters are warnings, not errors") {
  Snippet s(kernelWith("src(x, y, c)"));
  s.parse();
  CHECK_FALSE(s.diags.hadError());
  CHECK(s.diags.getNumWarnings() == 2);
  CHECK(
      s.output().find("test.arvr:1:26: warning: parameter 'g' is never used") !=
      std::string::npos);
  CHECK(s.output().find("warning: parameter 'n' is never used") !=
        std::string::npos);
  // Used through a sample or a size: no warning.
  Snippet t("kernel k(a: image<u8>, b: image<u8> clamp, c2: image<u8>) -> "
            "image<u8> {\n  func out(x, y, c) = u8_sat(sample(b, 1.0, 2.0, c, "
            "nearest) + f32(c2.width));\n}\n");
  t.parse();
  CHECK(t.diags.getNumWarnings() == 0);
}

TEST_CASE("sema: output sizes") {
  CHECK(accepts("kernel k(src: image<u8> clamp, f: i32 = 2) -> "
                "image<u8>[src.width / f, max(src.height - 1, 1)] {\n"
                "  func out(x, y, c) = src(x * f, y, c);\n}\n"));
  CHECK(
      accepts("kernel k(src: image<u8>) -> image<u8>[src.width, src.height] {\n"
              "  func out(x, y, c) = src(x, y, c);\n}\n"));
  CHECK(rejectsWith(
      "kernel k(src: image<u8>, g: f32 = 1.0) -> image<u8>[g, 2] {\n"
      "  func out(x, y, c) = src.clamp(x, y, c);\n}\n",
      "the output's width must be an integer made of constants, "
      "parameters and image sizes"));
}

TEST_CASE("sema: several outputs") {
  // Each output is computed by the function of its name, with its own type,
  // channels and size; plain reads are in range for the outputs of the
  // first image's size.
  Snippet s("kernel two(src: image<u8, 3> clamp)\n"
            "    -> (rgb: image<u8, 3>, grey: image<u8, 1>,\n"
            "        half: image<f32, 1>[src.width / 2, src.height / 2]) {\n"
            "  func luma(x, y) = 0.299 * f32(src(x, y, 0)) + 0.587 * "
            "f32(src(x, y, 1)) + 0.114 * f32(src(x, y, 2));\n"
            "  func rgb(x, y, c) = src(x, y, c);\n"
            "  func grey(x, y) = u8_sat(luma(x, y));\n"
            "  func half(x, y) = f32(src.clamp(2 * x, 2 * y, 0));\n"
            "}\n");
  ModuleAST module = s.parse();
  INFO(s.output());
  REQUIRE_FALSE(s.diags.hadError());
  const KernelDecl &k = module.kernels[0];
  CHECK(k.funcs[0].outputIndex == -1);
  CHECK(k.funcs[1].outputIndex == 0);
  CHECK(k.funcs[2].outputIndex == 1);
  CHECK(k.funcs[3].outputIndex == 2);
  CHECK(k.funcs[3].type == ScalarType::F32);

  CHECK(rejectsWith("kernel k(src: image<u8>) -> (a: image<u8>, b: "
                    "image<u8>) {\n  func a(x, y, c) = src(x, y, c);\n}\n",
                    "1:44: error: kernel 'k' does not define its output 'b': "
                    "add 'func b(x, y, c) = ...;'"));
  CHECK(rejectsWith("kernel k(src: image<u8>) -> (a: image<u8>, a: "
                    "image<u8>) {\n  func a(x, y, c) = src(x, y, c);\n}\n",
                    "output 'a' is declared twice"));
  CHECK(rejectsWith("kernel k(src: image<u8>) -> (src: image<u8>) {\n"
                    "  func src(x, y, c) = 0;\n}\n",
                    "output 'src' has the name of a parameter"));
  // An output is not read by other functions.
  CHECK(rejectsWith("kernel k(src: image<u8>) -> (a: image<u8>, b: "
                    "image<u8>) {\n  func a(x, y, c) = src(x, y, c);\n"
                    "  func b(x, y, c) = a(x + 1, y, c);\n}\n",
                    "3:21: error: 'a' is an output of the kernel; functions "
                    "cannot read it"));
  CHECK(rejectsWith("kernel k(src: image<u8>) -> (a: image<u8>, b: "
                    "image<u8, 1>) {\n  func a(x, y, c) = src(x, y, c);\n"
                    "  func b(x, y, c) = 1.5;\n}\n",
                    "'b' computes f32 values, but the output is image<u8, 1>"));
  CHECK(rejectsWith("kernel k(src: image<u8>) -> (a: image<u8>) {\n"
                    "  func a(x, y, c) = src(x, y, c);\n"
                    "  schedule { a.compute_root(); }\n}\n",
                    "'a' is an output, always computed at the root"));
}
