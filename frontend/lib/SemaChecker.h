//===- SemaChecker.h - The semantic checker of one kernel ------*- C++ -*-===//
//
// KernelChecker checks one kernel of a parsed .arvr file and annotates its
// AST (types, bindings, builtins, schedules) for MLIRGen. Its methods live
// by concern: declarations, functions and lookups in Sema.cpp, the
// schedule in SemaSchedule.cpp, expressions and reductions in
// SemaExpr.cpp, calls (builtins, image reads, samples, functions) in
// SemaCalls.cpp. Internal to the frontend.
//
//===----------------------------------------------------------------------===//

#ifndef ARVR_FRONTEND_LIB_SEMACHECKER_H
#define ARVR_FRONTEND_LIB_SEMACHECKER_H

#include "arvr/Frontend/Sema.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace arvr::sema {

/// A number as written in source: 300, 0.5, -1.25.
std::string formatNumber(double v);

class KernelChecker {
public:
  KernelChecker(KernelDecl &kernel, DiagnosticEngine &diags)
      : kernel(kernel), diags(diags) {}

  void check();

  /// A parameter no function uses is most likely a mistake: warn. (The
  /// size source is used, by the output's size.)
  void warnUnusedParams();

  std::optional<unsigned> findParamIndex(llvm::StringRef name);

private:
  //===--------------------------------------------------------------------===//
  // Declarations
  //===--------------------------------------------------------------------===//

  void checkParams();

  /// A default is a literal of the parameter's type (an integer literal
  /// may initialise an f32), possibly negated.
  void checkDefault(Param &param);

  /// The value outside a constant-boundary image must be one of its
  /// elements.
  void checkPadding(const TypeSpec &type);

  void checkPadding(double v, ScalarType scalar, llvm::SMRange where);

  /// `-> image<...>[w, h]`: integers the same at every pixel.
  void checkOutputSizes();

  void checkOutputSize(OutputDecl &output);

  /// `const name = literal;`: typed like the literal.
  void checkConsts();

  /// Output names are unique and are not parameters' or constants'; each
  /// output is an image of numbers.
  void checkOutputs();

  void checkOutput(const TypeSpec &output);

  void checkFuncs();

  /// The `schedule { f.directive(args); }` block: each line names a
  /// function of the kernel and a directive it accepts, once.
  void checkSchedule();
  /// compute_root() and compute_shared(); an unknown directive or function.
  void checkRootDirective(ScheduleDirective &directive,
                          std::vector<const ScheduleDirective *> &rootSet);
  /// gpu_pixels(n) and unroll(n), each once per function (`set`).
  void checkCountDirective(ScheduleDirective &directive,
                           std::vector<const ScheduleDirective *> &set);
  /// gpu_tile(x, y): a CUDA block.
  void checkTileDirective(ScheduleDirective &directive,
                          std::vector<const ScheduleDirective *> &tileSet);
  std::optional<unsigned> findFuncIndex(llvm::StringRef name);
  /// Whether the directive has `count` arguments (`form` says which), else
  /// an error.
  bool checkDirectiveArgs(const ScheduleDirective &directive, size_t count,
                          llvm::StringRef form);
  /// Whether `slot` (the same directive for the same function) was set
  /// already (an error); else sets it.
  bool scheduledTwice(const ScheduleDirective *&slot,
                      const ScheduleDirective &directive);
  /// A GPU directive applies to a function with launches of its own.
  bool hasOwnLaunch(const FuncDef &func, const ScheduleDirective &directive);

  /// Whether `func`'s definition (its lets or body) has a reduction.
  static bool hasReduction(const FuncDef &func);

  /// Checks `func` once (callers check their callees first); false if it
  /// is ill-formed or part of a cycle of calls.
  bool checkFunc(FuncDef &func);

  /// Coordinates are unique and hide nothing; each let is checked in turn.
  bool checkScope(FuncDef &func);

  /// `func name(vars) = expr;`: integer coordinates, up to kMaxFuncCoords;
  /// more than three only for a function left inline (stored ones are
  /// images: x, y, c).
  bool checkHelperFunc(FuncDef &func);

  /// `func f(x, y)[w, h] mirror = ...`: one extent per coordinate, each an
  /// integer the same at every pixel. Such a function is stored over its
  /// extents (computed at the root), so its values are not bool, and a
  /// `constant(v)` mode's v is one of them.
  bool checkDomain(FuncDef &func);

  bool checkOutputFunc(FuncDef &func);

  //===--------------------------------------------------------------------===//
  // Expressions
  //===--------------------------------------------------------------------===//

  static bool isBuiltinName(llvm::StringRef name);

  const Binding *findConst(llvm::StringRef name, unsigned *index = nullptr);

  const Param *findParam(llvm::StringRef name, unsigned *index = nullptr);

  /// Turns an integer literal (possibly negated) into an f32 one.
  static void makeFloat(Expr &expr);

  static bool isIntLiteral(const Expr &expr);

  /// Types `expr`; false (after reporting) when it is ill-formed.
  bool checkExpr(Expr &expr, const FuncDef *func);

  /// What a name means where it is used: the innermost of a reduction's
  /// lets and variable, a coordinate, a function's let in sight, a
  /// constant, a parameter.
  struct NameBinding {
    VarExpr::Binding kind;
    unsigned index; ///< The reduction's depth, or the declaration's index.
    unsigned let;   ///< ReduceLet: the let's index in its reduction.
    ScalarType type;
  };
  std::optional<NameBinding> lookupName(llvm::StringRef name,
                                        const FuncDef *func);

  bool checkVar(VarExpr &var, const FuncDef *func);

  bool checkUnary(UnaryExpr &unary, const FuncDef *func);

  /// The common type of two numeric operands, adapting integer literals to
  /// f32; reports mixed int/float operands.
  std::optional<ScalarType> unifyNumeric(Expr &lhs, Expr &rhs,
                                         llvm::StringRef what, llvm::SMLoc loc,
                                         llvm::SMRange range);

  bool checkBinary(BinaryExpr &binary, const FuncDef *func);

  bool checkArgCount(CallExpr &call, size_t count);

  bool checkCall(CallExpr &call, const FuncDef *func);
  /// A builtin's arguments (checked already) and result type.
  bool checkBuiltin(CallExpr &call);

  /// The boundary mode a read names as its method (`img.mirror(...)`,
  /// `f.clamp(...)`); nothing, with an error, if it names none.
  std::optional<BoundaryMode> methodBoundary(const CallExpr &call);

  /// `f(args)` for a `func f` of the kernel: integer arguments, one per
  /// coordinate; no function may call itself, directly or not.
  /// `f.mirror(x, y)`: a read of a function with extents under a mode of
  /// its own, as for images.
  bool checkFuncBoundaryRead(CallExpr &call, unsigned index,
                             const FuncDef *caller);

  bool checkFuncCall(CallExpr &call, unsigned index, const FuncDef *caller);

  /// Checks the coordinates of a read or a call: integers, each reported.
  bool checkCoordinates(std::vector<ExprPtr> &args, const FuncDef *func);

  /// True when `expr` is the same at every point: literals, constants,
  /// scalar parameters, image sizes and what is computed from them.
  static bool isUniform(const Expr &expr);

  /// The value of an integer literal, possibly negated or named by a
  /// `const`; nullopt for anything else.
  std::optional<int64_t> literalValue(const Expr &expr);

  /// `sum(i in lo..hi, body)`: integer bounds fixed for the whole kernel
  /// (constants, parameters, sizes), a numeric body, a range within
  /// kMaxReductionRange when the bounds are known here.
  bool checkReduce(ReduceExpr &reduce, const FuncDef *func);

  /// Whether `name` already means something here: a reduction variable or
  /// let in sight, a coordinate or let of `func`, a const or a parameter.
  bool isNameInSight(llvm::StringRef name, const FuncDef *func);

  /// The lets of the innermost reduction, `reduce`, in order, each seeing
  /// the ones before; a let may not take a name already in sight.
  bool checkReductionLets(ReduceExpr &reduce, const FuncDef *func);

  /// Maths on f32: `count` f32 arguments (integer literals adapt).
  bool checkFloatArgs(CallExpr &call, size_t count);

  /// `sample(img, u, v, c, bilinear|nearest)`; `c` may be left out for a
  /// one-channel image. The image's declared boundary mode applies.
  bool checkSample(CallExpr &call, const FuncDef *func);

  /// `img(x, y, c)` reads with the image's boundary mode, if it declares
  /// one; `img.clamp(...)`, `img.mirror(...)`, `img.wrap(...)` and
  /// `img.constant(...)` with their own. A read without one must stay
  /// inside the image: arvr-check-bounds proves it on the dialect.
  bool checkImageRead(CallExpr &call, unsigned paramIndex, const FuncDef *func);

  /// `frame.y(x, y)` (the full-size luma plane) and `frame.uv(x, y, c)`
  /// (the half-size plane of U, c = 0, and V, c = 1) of an NV12 frame.
  /// Without the frame's boundary mode, arvr-check-bounds proves the reads
  /// in range (e.g. `frame.uv(x / 2, y / 2, 0 or 1)` at `out`'s own
  /// coordinates).
  bool checkNv12Read(CallExpr &call, const Param &frame, const FuncDef *func);

  bool checkMember(MemberExpr &member);

  KernelDecl &kernel;
  DiagnosticEngine &diags;
  /// While checking a function: how many of its lets are in scope.
  size_t visibleLets = 0;
  /// The reductions enclosing the expression being checked, outermost first.
  std::vector<const ReduceExpr *> reductions;
  /// For each enclosing reduction, how many of its lets are visible.
  std::vector<size_t> reductionLets;
  /// Checking a parameter's default value (which is a literal).
  bool checkingDefault = false;
};

} // namespace arvr::sema

#endif // ARVR_FRONTEND_LIB_SEMACHECKER_H
