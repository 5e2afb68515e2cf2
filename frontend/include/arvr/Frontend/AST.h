//===- AST.h - The abstract syntax tree of .arvr ----------------*- C++ -*-===//
//
// The tree the parser builds and Sema annotates. Every node keeps the
// location of its text. Expressions use LLVM-style RTTI (`llvm::isa`,
// `llvm::dyn_cast`) on their kind; Sema fills in each expression's type.
//
//===----------------------------------------------------------------------===//

#ifndef ARVR_FRONTEND_AST_H
#define ARVR_FRONTEND_AST_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace arvr {

class DiagnosticEngine;

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

/// The scalar types of the language.
enum class ScalarType { Bool, U8, U16, I32, F32 };

/// `u8`, `f32`, ...
llvm::StringRef getScalarTypeName(ScalarType type);
/// Parses a scalar type name; nullopt if `name` is none.
std::optional<ScalarType> parseScalarTypeName(llvm::StringRef name);
inline bool isIntegerType(ScalarType t) {
  return t == ScalarType::U8 || t == ScalarType::U16 || t == ScalarType::I32;
}

/// How a read treats coordinates outside the image.
enum class BoundaryMode { None, Clamp, Mirror, Wrap, Constant };

/// `clamp`, `mirror`, ...; "" for None.
llvm::StringRef getBoundaryModeName(BoundaryMode mode);
/// Parses a boundary mode name; nullopt if `name` is none.
std::optional<BoundaryMode> parseBoundaryModeName(llvm::StringRef name);

/// A type as written: a scalar, or `image<T>` / `image<T, C>`, optionally
/// followed by the image's boundary mode (`mirror`, `constant(0)`, ...).
struct TypeSpec {
  bool isImage = false;
  /// `nv12`: a camera frame of two u8 planes, a full-size Y plane and a
  /// half-size plane of interleaved U, V (`isImage` is set too).
  bool isNv12 = false;
  ScalarType scalar = ScalarType::F32; ///< The element type of an image.
  int channels = 0;                    ///< Images: 1 to 4, or 0 for generic.
  BoundaryMode boundary = BoundaryMode::None;
  double padding = 0; ///< The value outside, for constant.
  llvm::SMRange boundaryRange;
  llvm::SMRange range;

  std::string str() const;
};

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

class Expr {
public:
  enum class Kind {
    IntLit,
    FloatLit,
    BoolLit,
    Var,
    Unary,
    Binary,
    Call,
    Member,
    Reduce
  };

  Expr(Kind kind, llvm::SMRange range) : kind(kind), range(range) {}
  virtual ~Expr() = default;

  Kind getKind() const { return kind; }
  llvm::SMLoc getLoc() const { return range.Start; }
  llvm::SMRange getRange() const { return range; }

  /// Set by Sema.
  ScalarType type = ScalarType::I32;

private:
  const Kind kind;
  llvm::SMRange range;
};
using ExprPtr = std::unique_ptr<Expr>;

class IntLitExpr : public Expr {
public:
  IntLitExpr(llvm::SMRange range, int64_t value)
      : Expr(Kind::IntLit, range), value(value) {}
  /// Sema gives an integer literal the type f32 when it meets a float.
  int64_t value;
  static bool classof(const Expr *e) { return e->getKind() == Kind::IntLit; }
};

class FloatLitExpr : public Expr {
public:
  FloatLitExpr(llvm::SMRange range, double value)
      : Expr(Kind::FloatLit, range), value(value) {}
  double value;
  static bool classof(const Expr *e) { return e->getKind() == Kind::FloatLit; }
};

class BoolLitExpr : public Expr {
public:
  BoolLitExpr(llvm::SMRange range, bool value)
      : Expr(Kind::BoolLit, range), value(value) {}
  bool value;
  static bool classof(const Expr *e) { return e->getKind() == Kind::BoolLit; }
};

/// A name: a coordinate of the enclosing func or a scalar parameter.
class VarExpr : public Expr {
public:
  VarExpr(llvm::SMRange range, std::string name)
      : Expr(Kind::Var, range), name(std::move(name)) {}
  std::string name;
  /// Set by Sema: the coordinate index (0 = x, 1 = y, 2 = c), or the
  /// parameter, `let` or `const` index.
  enum class Binding {
    Unresolved,
    Coordinate,
    Param,
    Let,
    Const,
    ReduceVar, ///< index: the depth of the reduction that binds it.
    ReduceLet  ///< index: that depth; let: the let's place in it.
  } binding = Binding::Unresolved;
  unsigned index = 0;
  unsigned let = 0;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Var; }
};

class UnaryExpr : public Expr {
public:
  enum class Op { Neg, Not };
  UnaryExpr(llvm::SMRange range, Op op, ExprPtr operand)
      : Expr(Kind::Unary, range), op(op), operand(std::move(operand)) {}
  Op op;
  ExprPtr operand;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Unary; }
};

class BinaryExpr : public Expr {
public:
  enum class Op { Add, Sub, Mul, Div, Rem, Lt, Le, Gt, Ge, Eq, Ne, And, Or };
  BinaryExpr(llvm::SMRange range, Op op, llvm::SMLoc opLoc, ExprPtr lhs,
             ExprPtr rhs)
      : Expr(Kind::Binary, range), op(op), opLoc(opLoc), lhs(std::move(lhs)),
        rhs(std::move(rhs)) {}
  Op op;
  llvm::SMLoc opLoc;
  ExprPtr lhs, rhs;
  /// Set by Sema: the type both operands are converted to before the op.
  ScalarType operandType = ScalarType::I32;
  static llvm::StringRef getSpelling(Op op);
  static bool classof(const Expr *e) { return e->getKind() == Kind::Binary; }
};

/// `name(args)` or `name.method(args)`: casts, maths, and image reads.
class CallExpr : public Expr {
public:
  CallExpr(llvm::SMRange range, std::string callee, llvm::SMRange calleeRange,
           std::string method, std::vector<ExprPtr> args)
      : Expr(Kind::Call, range), callee(std::move(callee)),
        calleeRange(calleeRange), method(std::move(method)),
        args(std::move(args)) {}
  std::string callee;
  llvm::SMRange calleeRange;
  std::string method; ///< Empty unless written `callee.method(...)`.
  std::vector<ExprPtr> args;

  /// Set by Sema.
  enum class Builtin {
    Unresolved,
    CastF32,
    CastI32,
    CastU8,
    CastU8Sat,
    CastU16,
    CastU16Sat,
    Min,
    Max,
    Clamp,
    Abs,
    Select,
    Sqrt,
    Exp,
    Log,
    Pow,
    Sin,
    Cos,
    Tan,
    Atan2,
    Floor,
    Ceil,
    Round,
    Lerp,
    ReadImage, ///< `img(x, y, c)` or `img.mirror(x, y, c)`, ...
    Sample,    ///< `sample(img, u, v, c, bilinear)`.
    CallFunc,  ///< A `func` of the kernel: `funcIndex`.
  } builtin = Builtin::Unresolved;
  unsigned funcIndex = 0;  ///< CallFunc: the function called.
  unsigned imageParam = 0; ///< ReadImage, Sample: the parameter read.
  /// ReadImage, Sample: the boundary mode used (None: provably inside).
  BoundaryMode boundary = BoundaryMode::None;
  bool bilinear = false; ///< Sample: bilinear (else nearest).
  /// ReadImage of an NV12 frame: the plane read (`frame.y`: 0, `.uv`: 1).
  unsigned plane = 0;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Call; }
};

/// The most values a reduction may range over (docs/language.md, Limits):
/// checked by Sema for literal bounds, and by `arvrc run` for the values
/// of parameters.
constexpr int64_t kMaxReductionRange = 65536;

/// The most coordinates a function may take (docs/language.md, Limits);
/// only one of at most 3 can be stored.
constexpr size_t kMaxFuncCoords = 8;

/// `let name = value;` in a func's block or a reduction's, or
/// `const name = value;` in a kernel.
struct Binding {
  std::string name;
  llvm::SMRange nameRange;
  ExprPtr value;
};

/// `sum(i in lo..hi, body)`, `min(...)`, `max(...)`, `argmin(...)`: a
/// bounded reduction over the integers lo to hi, both included.
class ReduceExpr : public Expr {
public:
  enum class Op { Sum, Product, Min, Max, Argmin, Argmax };
  ReduceExpr(llvm::SMRange range, Op op, std::string var,
             llvm::SMRange varRange, ExprPtr lo, ExprPtr hi, ExprPtr body)
      : Expr(Kind::Reduce, range), op(op), var(std::move(var)),
        varRange(varRange), lo(std::move(lo)), hi(std::move(hi)),
        body(std::move(body)) {}
  Op op;
  std::string var;
  llvm::SMRange varRange;
  ExprPtr lo, hi, body;
  /// `sum(i in lo..hi, { let t = ...; return body; })`: computed for each
  /// i, in order, each seeing i and the ones before.
  std::vector<Binding> lets;
  /// argmin or argmax over two ranges, `argmin(i in a..b, j in c..d, e)`:
  /// the body is the reduction over j, and the two are one reduction over
  /// the pairs (i, j), i outer, whose result is the position of the first
  /// best pair from 0: (i - a) * (d - c + 1) + (j - c).
  bool overPairs = false;
  static llvm::StringRef getName(Op op);
  static bool classof(const Expr *e) { return e->getKind() == Kind::Reduce; }
};

/// `img.width`, `img.height`, `img.channels`.
class MemberExpr : public Expr {
public:
  MemberExpr(llvm::SMRange range, std::string base, std::string member,
             llvm::SMRange memberRange)
      : Expr(Kind::Member, range), base(std::move(base)),
        member(std::move(member)), memberRange(memberRange) {}
  std::string base, member;
  llvm::SMRange memberRange;
  unsigned imageParam = 0; ///< Set by Sema.
  static bool classof(const Expr *e) { return e->getKind() == Kind::Member; }
};

//===----------------------------------------------------------------------===//
// Declarations
//===----------------------------------------------------------------------===//

struct Param {
  std::string name;
  llvm::SMRange nameRange;
  TypeSpec type;
  ExprPtr defaultValue; ///< A literal, possibly negated; may be null.
};

/// `func name(x, y, c) = expr;` or
/// `func name(x, y, c) { let a = ...; ... return expr; }`.
struct FuncDef {
  std::string name;
  llvm::SMRange nameRange;
  std::vector<std::pair<std::string, llvm::SMRange>> vars;
  std::vector<Binding> lets; ///< In order; each sees the ones before.
  ExprPtr body;              ///< The expression, or the block's `return`.
  /// `func f(x, y)[w, h] mirror = ...`: the extent of each coordinate (the
  /// function is computed over [0, w) x [0, h) and stored) and what a read
  /// outside gives; empty for a function defined everywhere.
  std::vector<ExprPtr> extents;
  llvm::SMRange extentsRange;
  BoundaryMode boundary = BoundaryMode::None;
  double padding = 0; ///< The value outside, for constant.
  llvm::SMRange boundaryRange;
  bool hasDomain() const { return !extents.empty(); }

  /// Set by Sema: the type of the function's values.
  ScalarType type = ScalarType::I32;
  /// Set by Sema from the schedule: the function is computed once over the
  /// region its callers need and stored (`f.compute_root()`; always true of
  /// `out`), rather than recomputed inline at each call.
  bool computeRoot = false;
  /// With computeRoot, from `f.compute_shared()`: on the GPU, computed per
  /// thread block of its reader into shared memory (its tile and halo).
  bool computeShared = false;
  /// Set by Sema from `f.gpu_tile(x, y)`: the GPU thread block; 0 for the
  /// default.
  int64_t gpuTileX = 0, gpuTileY = 0;
  /// Set by Sema from `f.gpu_pixels(n)`: the points each GPU thread
  /// computes along x; 0 for one.
  int64_t gpuPixels = 0;
  /// Set by Sema from `f.unroll(n)`: how many times the loops of `f`'s
  /// reductions are unrolled; 0 for the compiler's choice.
  int64_t unroll = 0;
  /// Set by Sema: the output this function computes (an index into
  /// KernelDecl::outputs), or -1 for a helper function.
  int outputIndex = -1;
  bool isOutput() const { return outputIndex >= 0; }
  enum class State {
    Unchecked,
    Checking,
    Checked,
    Failed
  } state = State::Unchecked;
};

/// One line of a kernel's `schedule { ... }` block:
/// `func.directive(args);`, e.g. `blur_x.compute_root();` or
/// `out.gpu_tile(32, 8);`. Arguments are integer literals.
struct ScheduleDirective {
  std::string func;
  llvm::SMRange funcRange;
  std::string directive;
  llvm::SMRange directiveRange;
  std::vector<std::pair<int64_t, llvm::SMRange>> args;
  unsigned funcIndex = 0; ///< Set by Sema.
};

/// One output image of a kernel: `-> image<u8>`, computed by the function
/// `out`, or one entry of the list form
/// `-> (rgb: image<u8, 3>, small: image<u8, 1>[w, h])`, computed by the
/// function of its name.
struct OutputDecl {
  std::string name;
  llvm::SMRange nameRange; ///< The name in the list form, else the type.
  TypeSpec type;
  /// `image<u8>[w, h]`: the output's size, i32 expressions the same at
  /// every pixel; null for the size of the first image.
  ExprPtr width, height;
};

/// `kernel name(params) -> outputs { funcs schedule? }`
struct KernelDecl {
  std::string name;
  llvm::SMRange nameRange;
  std::vector<Param> params;
  /// At least one (the parser guarantees it); names are unique (Sema).
  std::vector<OutputDecl> outputs;
  /// Whether the outputs were written as a named list, `-> (a: ..., ...)`.
  bool namedOutputs = false;
  std::vector<Binding> consts; ///< Literals, possibly negated.
  std::vector<FuncDef> funcs;
  std::vector<ScheduleDirective> schedule;
  /// Whether the kernel has a `schedule` block (even an empty one): without
  /// one, the compiler chooses the schedule (arvr-auto-schedule).
  bool hasSchedule = false;
  /// Set by Sema: the image parameter whose size the outputs take unless
  /// they give their own.
  unsigned sizeSource = 0;
};

struct ModuleAST {
  std::vector<KernelDecl> kernels;
};

/// Prints the tree with `line:col` of each node (for `--emit=ast`).
void dumpAST(const ModuleAST &module, const DiagnosticEngine &diags,
             llvm::raw_ostream &os);

} // namespace arvr

#endif // ARVR_FRONTEND_AST_H
