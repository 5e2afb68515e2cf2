//===- Sema.cpp - Semantic checks of .arvr kernels ------------------------===//

#include "arvr/Frontend/Sema.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>

using namespace arvr;

namespace {

/// A number as written in source: 300, 0.5, -1.25.
std::string formatNumber(double v) {
  char text[32];
  std::snprintf(text, sizeof(text), "%g", v);
  return text;
}

class KernelChecker {
public:
  KernelChecker(KernelDecl &kernel, DiagnosticEngine &diags)
      : kernel(kernel), diags(diags) {}

  void check() {
    checkParams();
    checkOutputs();
    checkConsts();
    checkOutputSizes();
    checkFuncs();
    checkSchedule();
    warnUnusedParams();
  }

  /// A parameter no function uses is most likely a mistake: warn. (The
  /// size source is used, by the output's size.)
  void warnUnusedParams() {
    if (diags.hadError())
      return;
    std::vector<bool> used(kernel.params.size(), false);
    used[kernel.sizeSource] = true;
    std::function<void(const Expr &)> visit = [&](const Expr &expr) {
      if (auto *var = llvm::dyn_cast<VarExpr>(&expr)) {
        if (var->binding == VarExpr::Binding::Param)
          used[var->index] = true;
        // The image of a sample is named by its first argument.
        if (auto index = findParamIndex(var->name))
          if (kernel.params[*index].type.isImage)
            used[*index] = true;
      } else if (auto *call = llvm::dyn_cast<CallExpr>(&expr)) {
        if (call->builtin == CallExpr::Builtin::ReadImage)
          used[call->imageParam] = true;
        for (const ExprPtr &arg : call->args)
          visit(*arg);
      } else if (auto *member = llvm::dyn_cast<MemberExpr>(&expr)) {
        used[member->imageParam] = true;
      } else if (auto *unary = llvm::dyn_cast<UnaryExpr>(&expr)) {
        visit(*unary->operand);
      } else if (auto *binary = llvm::dyn_cast<BinaryExpr>(&expr)) {
        visit(*binary->lhs);
        visit(*binary->rhs);
      } else if (auto *reduce = llvm::dyn_cast<ReduceExpr>(&expr)) {
        visit(*reduce->lo);
        visit(*reduce->hi);
        for (const Binding &let : reduce->lets)
          visit(*let.value);
        visit(*reduce->body);
      }
    };
    for (const FuncDef &func : kernel.funcs) {
      for (const Binding &let : func.lets)
        visit(*let.value);
      visit(*func.body);
      for (const ExprPtr &extent : func.extents)
        visit(*extent);
    }
    for (const OutputDecl &output : kernel.outputs)
      if (output.width) {
        visit(*output.width);
        visit(*output.height);
      }
    for (auto [index, param] : llvm::enumerate(kernel.params))
      if (!used[index])
        diags.warning(param.nameRange.Start,
                      "parameter '" + param.name + "' is never used",
                      param.nameRange);
  }

  std::optional<unsigned> findParamIndex(llvm::StringRef name) {
    unsigned index = 0;
    if (findParam(name, &index))
      return index;
    return std::nullopt;
  }

private:
  //===--------------------------------------------------------------------===//
  // Declarations
  //===--------------------------------------------------------------------===//

  void checkParams() {
    llvm::StringMap<const Param *> seen;
    bool haveImage = false;
    for (auto [index, param] : llvm::enumerate(kernel.params)) {
      auto [it, inserted] = seen.try_emplace(param.name, &param);
      if (!inserted) {
        diags.error(param.nameRange.Start,
                    "parameter '" + param.name + "' is declared twice",
                    param.nameRange);
        diags.note(it->second->nameRange.Start, "first declared here");
      }
      if (parseScalarTypeName(param.name) || isBuiltinName(param.name))
        diags.error(param.nameRange.Start,
                    "'" + param.name +
                        "' is a built-in name and cannot name a parameter",
                    param.nameRange);
      if (param.type.isImage) {
        if (!haveImage)
          kernel.sizeSource = index;
        haveImage = true;
        if (param.type.scalar == ScalarType::Bool)
          diags.error(param.type.range.Start,
                      "images of 'bool' are not supported; use u8",
                      param.type.range);
        if (param.type.boundary == BoundaryMode::Constant)
          checkPadding(param.type);
        if (param.defaultValue)
          diags.error(param.defaultValue->getLoc(),
                      "image parameter '" + param.name +
                          "' cannot have a default value",
                      param.defaultValue->getRange());
        continue;
      }
      if (param.type.scalar != ScalarType::F32 &&
          param.type.scalar != ScalarType::I32 &&
          param.type.scalar != ScalarType::Bool)
        diags.error(param.type.range.Start,
                    "scalar parameters are f32, i32 or bool, not '" +
                        param.type.str() + "'",
                    param.type.range);
      else if (param.defaultValue)
        checkDefault(param);
    }
    if (!haveImage)
      diags.error(kernel.nameRange.Start,
                  "kernel '" + kernel.name +
                      "' needs an image parameter: its output takes that "
                      "image's size",
                  kernel.nameRange);
  }

  /// A default is a literal of the parameter's type (an integer literal
  /// may initialise an f32), possibly negated.
  void checkDefault(Param &param) {
    Expr *value = param.defaultValue.get();
    bool negated = false;
    if (auto *unary = llvm::dyn_cast<UnaryExpr>(value);
        unary && unary->op == UnaryExpr::Op::Neg) {
      negated = true;
      value = unary->operand.get();
    }
    ScalarType want = param.type.scalar;
    bool ok = false;
    if (llvm::isa<IntLitExpr>(value))
      ok = want == ScalarType::I32 || want == ScalarType::F32;
    else if (llvm::isa<FloatLitExpr>(value))
      ok = want == ScalarType::F32;
    else if (llvm::isa<BoolLitExpr>(value))
      ok = want == ScalarType::Bool && !negated;
    if (!ok) {
      diags.error(param.defaultValue->getLoc(),
                  "default value of '" + param.name + "' must be a " +
                      getScalarTypeName(want) + " literal",
                  param.defaultValue->getRange());
      return;
    }
    checkingDefault = true;
    checkExpr(*param.defaultValue, /*func=*/nullptr);
    checkingDefault = false;
    if (want == ScalarType::F32)
      makeFloat(*param.defaultValue);
  }

  /// The value outside a constant-boundary image must be one of its
  /// elements.
  void checkPadding(const TypeSpec &type) {
    checkPadding(type.padding, type.scalar, type.boundaryRange);
  }

  void checkPadding(double v, ScalarType scalar, llvm::SMRange where) {
    bool ok = true;
    switch (scalar) {
    case ScalarType::U8:
      ok = v >= 0 && v <= 255 && v == std::floor(v);
      break;
    case ScalarType::U16:
      ok = v >= 0 && v <= 65535 && v == std::floor(v);
      break;
    case ScalarType::I32:
      ok = v >= INT32_MIN && v <= INT32_MAX && v == std::floor(v);
      break;
    default:
      ok = std::isfinite(v);
    }
    if (!ok)
      diags.error(where.Start,
                  "the constant " + formatNumber(v) + " is not a " +
                      getScalarTypeName(scalar) + " value",
                  where);
  }

  /// `-> image<...>[w, h]`: integers the same at every pixel.
  void checkOutputSizes() {
    for (OutputDecl &output : kernel.outputs)
      if (output.width)
        checkOutputSize(output);
  }

  void checkOutputSize(OutputDecl &output) {
    const char *names[] = {"width", "height"};
    Expr *sizes[] = {output.width.get(), output.height.get()};
    for (int i = 0; i < 2; ++i) {
      Expr &size = *sizes[i];
      if (!checkExpr(size, /*func=*/nullptr))
        continue;
      if (!isIntegerType(size.type) || !isUniform(size))
        diags.error(size.getLoc(),
                    llvm::Twine("the output's ") + names[i] +
                        " must be an integer made of constants, parameters "
                        "and image sizes",
                    size.getRange());
    }
  }

  /// `const name = literal;`: typed like the literal.
  void checkConsts() {
    for (auto [index, constant] : llvm::enumerate(kernel.consts)) {
      if (const Param *param = findParam(constant.name)) {
        diags.error(constant.nameRange.Start,
                    "constant '" + constant.name +
                        "' has the name of a parameter",
                    constant.nameRange);
        diags.note(param->nameRange.Start, "the parameter is declared here");
      }
      for (size_t j = 0; j < index; ++j)
        if (kernel.consts[j].name == constant.name) {
          diags.error(constant.nameRange.Start,
                      "constant '" + constant.name + "' is defined twice",
                      constant.nameRange);
          diags.note(kernel.consts[j].nameRange.Start, "first defined here");
        }
      const Expr *value = constant.value.get();
      if (auto *unary = llvm::dyn_cast<UnaryExpr>(value);
          unary && unary->op == UnaryExpr::Op::Neg)
        value = unary->operand.get();
      if (!llvm::isa<IntLitExpr, FloatLitExpr, BoolLitExpr>(value)) {
        diags.error(constant.value->getLoc(),
                    "the value of constant '" + constant.name +
                        "' must be a literal",
                    constant.value->getRange());
        continue;
      }
      checkExpr(*constant.value, /*func=*/nullptr);
    }
  }

  /// Output names are unique and are not parameters' or constants'; each
  /// output is an image of numbers.
  void checkOutputs() {
    for (auto [index, output] : llvm::enumerate(kernel.outputs)) {
      for (size_t j = 0; j < index; ++j)
        if (kernel.outputs[j].name == output.name) {
          diags.error(output.nameRange.Start,
                      "output '" + output.name + "' is declared twice",
                      output.nameRange);
          diags.note(kernel.outputs[j].nameRange.Start, "first declared here");
        }
      if (const Param *param = findParam(output.name)) {
        diags.error(output.nameRange.Start,
                    "output '" + output.name + "' has the name of a parameter",
                    output.nameRange);
        diags.note(param->nameRange.Start, "the parameter is declared here");
      }
      checkOutput(output.type);
    }
  }

  void checkOutput(const TypeSpec &output) {
    if (!kernel.params.empty() && output.isImage && !output.channels &&
        kernel.params[kernel.sizeSource].type.isNv12)
      diags.error(output.range.Start,
                  "an output sized by the NV12 frame '" +
                      kernel.params[kernel.sizeSource].name +
                      "' must fix its channel count, e.g. image<u8, 3>",
                  output.range);
    if (output.isNv12)
      diags.error(output.range.Start,
                  "a kernel's output is an image<...>; NV12 is an input "
                  "format",
                  output.range);
    if (output.boundary != BoundaryMode::None)
      diags.error(output.boundaryRange.Start,
                  "a boundary mode belongs to an input image, not to the "
                  "output",
                  output.boundaryRange);
    if (!output.isImage)
      diags.error(output.range.Start,
                  "a kernel's output must be an image, not '" + output.str() +
                      "'",
                  output.range);
    else if (output.scalar == ScalarType::Bool)
      diags.error(output.range.Start,
                  "images of 'bool' are not supported; use u8", output.range);
  }

  void checkFuncs() {
    for (auto [index, func] : llvm::enumerate(kernel.funcs)) {
      for (size_t j = 0; j < index; ++j)
        if (kernel.funcs[j].name == func.name) {
          diags.error(func.nameRange.Start,
                      "'" + func.name + "' is defined twice", func.nameRange);
          diags.note(kernel.funcs[j].nameRange.Start, "first defined here");
          func.state = FuncDef::State::Failed;
        }
      if (findParam(func.name) || findConst(func.name) ||
          isBuiltinName(func.name) || parseScalarTypeName(func.name)) {
        diags.error(func.nameRange.Start,
                    "function '" + func.name +
                        "' has the name of a parameter, constant or builtin",
                    func.nameRange);
        func.state = FuncDef::State::Failed;
      }
    }
    // Each output is computed by the function of its name.
    for (auto [index, output] : llvm::enumerate(kernel.outputs)) {
      FuncDef *func = nullptr;
      for (FuncDef &candidate : kernel.funcs)
        if (candidate.name == output.name && !func)
          func = &candidate;
      if (func) {
        func->outputIndex = static_cast<int>(index);
        continue;
      }
      if (!kernel.namedOutputs)
        diags.error(kernel.nameRange.Start,
                    "kernel '" + kernel.name +
                        "' does not define its output: add 'func out(x, y, "
                        "c) = ...;'",
                    kernel.nameRange);
      else
        diags.error(output.nameRange.Start,
                    "kernel '" + kernel.name +
                        "' does not define its output '" + output.name +
                        "': add 'func " + output.name + "(x, y, c) = ...;'",
                    output.nameRange);
    }
    for (FuncDef &func : kernel.funcs)
      checkFunc(func);
  }

  /// The `schedule { f.directive(args); }` block: each line names a
  /// function of the kernel and a directive it accepts, once.
  void checkSchedule() {
    std::vector<const ScheduleDirective *> rootSet(kernel.funcs.size()),
        tileSet(kernel.funcs.size());
    auto findFunc = [&](llvm::StringRef name) -> std::optional<unsigned> {
      for (auto [index, func] : llvm::enumerate(kernel.funcs))
        if (func.name == name)
          return index;
      return std::nullopt;
    };
    auto checkArgCount = [&](const ScheduleDirective &directive, size_t count,
                             llvm::StringRef form) {
      if (directive.args.size() == count)
        return true;
      diags.error(directive.directiveRange.Start,
                  "'" + directive.directive + "' takes " + llvm::Twine(count) +
                      " argument" + (count == 1 ? "" : "s") + ": " + form,
                  directive.directiveRange);
      return false;
    };
    auto firstAlready = [&](const ScheduleDirective *&slot,
                            const ScheduleDirective &directive) {
      if (!slot) {
        slot = &directive;
        return false;
      }
      diags.error(directive.directiveRange.Start,
                  "'" + directive.func + "' is already scheduled with '" +
                      directive.directive + "'",
                  directive.directiveRange);
      diags.note(slot->directiveRange.Start, "first scheduled here");
      return true;
    };

    // compute_root first, so that gpu_tile may come before it.
    for (ScheduleDirective &directive : kernel.schedule) {
      std::optional<unsigned> index = findFunc(directive.func);
      if (!index) {
        diags.error(directive.funcRange.Start,
                    "the schedule names '" + directive.func +
                        "', which is not a function of kernel '" + kernel.name +
                        "'",
                    directive.funcRange);
        continue;
      }
      directive.funcIndex = *index;
      FuncDef &func = kernel.funcs[*index];
      if (directive.directive == "compute_root" ||
          directive.directive == "compute_shared") {
        if (!checkArgCount(directive, 0, directive.directive + "()"))
          continue;
        if (rootSet[*index]) {
          diags.error(directive.directiveRange.Start,
                      "'" + directive.func + "' is already scheduled with '" +
                          rootSet[*index]->directive + "'",
                      directive.directiveRange);
          diags.note(rootSet[*index]->directiveRange.Start,
                     "first scheduled here");
          continue;
        }
        rootSet[*index] = &directive;
        if (func.isOutput()) {
          diags.error(directive.directiveRange.Start,
                      "'" + func.name +
                          "' is an output, always computed at the root; only "
                          "the functions it calls can be scheduled so",
                      directive.directiveRange);
          continue;
        }
        bool shared = directive.directive == "compute_shared";
        if (func.vars.size() > 3) {
          diags.error(directive.directiveRange.Start,
                      "'" + func.name + "' has " +
                          llvm::Twine(func.vars.size()) +
                          " coordinates; only a function of at most 3 (x, "
                          "y, c) can be stored, so it stays inline",
                      directive.directiveRange);
          continue;
        }
        if (shared && func.hasDomain()) {
          diags.error(directive.directiveRange.Start,
                      "'" + func.name +
                          "' has extents, so it is computed whole over them "
                          "(at the root), not in the tiles of its reader",
                      directive.directiveRange);
          diags.note(func.extentsRange.Start, "its extents are given here");
          continue;
        }
        if (shared && func.vars.size() != 2 && func.vars.size() != 3) {
          diags.error(directive.directiveRange.Start,
                      "only a function of (x, y) or (x, y, c) can be "
                      "computed in shared memory; '" +
                          func.name + "' has " + llvm::Twine(func.vars.size()) +
                          " coordinate" + (func.vars.size() == 1 ? "" : "s") +
                          " (compute_root() stores it as a table)",
                      directive.directiveRange);
          diags.note(func.nameRange.Start,
                     "'" + func.name + "' is defined here");
          continue;
        }
        if (func.state == FuncDef::State::Checked &&
            func.type == ScalarType::Bool) {
          diags.error(directive.directiveRange.Start,
                      "'" + func.name +
                          "' has bool values, which cannot be stored in an "
                          "image; compute u8(...) of it instead",
                      directive.directiveRange);
          continue;
        }
        func.computeRoot = true;
        func.computeShared = directive.directive == "compute_shared";
      } else if (directive.directive != "gpu_tile" &&
                 directive.directive != "gpu_pixels" &&
                 directive.directive != "unroll") {
        diags.error(directive.directiveRange.Start,
                    "unknown scheduling directive '" + directive.directive +
                        "'; expected compute_root(), compute_shared(), "
                        "gpu_tile(x, y), gpu_pixels(n) or unroll(n)",
                    directive.directiveRange);
      }
    }
    // A GPU directive applies to a function with launches of its own.
    auto hasOwnLaunch = [&](const FuncDef &func,
                            const ScheduleDirective &directive) {
      llvm::StringRef what =
          directive.directive == "gpu_tile" ? "GPU tile" : "pixels per thread";
      if (func.computeShared) {
        diags.error(directive.directiveRange.Start,
                    "'" + func.name +
                        "' is computed in shared memory, in the tiles of its "
                        "reader; give the reader the " +
                        directive.directive,
                    directive.directiveRange);
        return false;
      }
      if (!func.isOutput() && !func.computeRoot) {
        diags.error(directive.directiveRange.Start,
                    "'" + func.name +
                        "' is inlined into its callers, so it has no " + what +
                        "; schedule '" + func.name + ".compute_root();' first",
                    directive.directiveRange);
        return false;
      }
      return true;
    };
    std::vector<const ScheduleDirective *> pixelsSet(kernel.funcs.size()),
        unrollSet(kernel.funcs.size());
    for (ScheduleDirective &directive : kernel.schedule) {
      if ((directive.directive != "gpu_pixels" &&
           directive.directive != "unroll") ||
          !findFunc(directive.func))
        continue;
      FuncDef &func = kernel.funcs[directive.funcIndex];
      bool pixels = directive.directive == "gpu_pixels";
      if (!checkArgCount(directive, 1,
                         pixels
                             ? "gpu_pixels(n), points per GPU thread"
                             : "unroll(n), times to unroll each reduction") ||
          firstAlready((pixels ? pixelsSet : unrollSet)[directive.funcIndex],
                       directive))
        continue;
      int64_t n = directive.args[0].first, most = pixels ? 16 : 64;
      if (n < 1 || n > most) {
        diags.error(directive.args[0].second.Start,
                    directive.directive + " takes 1 to " + llvm::Twine(most) +
                        ", not " + llvm::Twine(n),
                    directive.args[0].second);
        continue;
      }
      if (pixels) {
        if (hasOwnLaunch(func, directive))
          func.gpuPixels = n;
        continue;
      }
      if (!hasReduction(func)) {
        diags.error(directive.directiveRange.Start,
                    "'" + func.name + "' has no reduction to unroll",
                    directive.directiveRange);
        continue;
      }
      func.unroll = n;
    }
    for (ScheduleDirective &directive : kernel.schedule) {
      if (directive.directive != "gpu_tile" || !findFunc(directive.func))
        continue;
      FuncDef &func = kernel.funcs[directive.funcIndex];
      if (!checkArgCount(directive, 2, "gpu_tile(x, y), threads per block") ||
          firstAlready(tileSet[directive.funcIndex], directive))
        continue;
      if (!hasOwnLaunch(func, directive))
        continue;
      int64_t x = directive.args[0].first, y = directive.args[1].first;
      if (x < 1 || y < 1 || x * y > 1024) {
        llvm::SMRange range(directive.args[0].second.Start,
                            directive.args[1].second.End);
        diags.error(range.Start,
                    "a GPU tile of " + llvm::Twine(x) + "x" + llvm::Twine(y) +
                        " threads is not a CUDA block: each side at least 1, "
                        "at most 1024 threads in all",
                    range);
        continue;
      }
      func.gpuTileX = x;
      func.gpuTileY = y;
    }
  }

  /// Whether `func`'s definition (its lets or body) has a reduction.
  static bool hasReduction(const FuncDef &func) {
    std::function<bool(const Expr &)> visit = [&](const Expr &expr) {
      if (llvm::isa<ReduceExpr>(expr))
        return true;
      if (auto *call = llvm::dyn_cast<CallExpr>(&expr))
        return llvm::any_of(call->args,
                            [&](const ExprPtr &arg) { return visit(*arg); });
      if (auto *unary = llvm::dyn_cast<UnaryExpr>(&expr))
        return visit(*unary->operand);
      if (auto *binary = llvm::dyn_cast<BinaryExpr>(&expr))
        return visit(*binary->lhs) || visit(*binary->rhs);
      return false;
    };
    return llvm::any_of(
               func.lets,
               [&](const Binding &let) { return visit(*let.value); }) ||
           visit(*func.body);
  }

  /// Checks `func` once (callers check their callees first); false if it
  /// is ill-formed or part of a cycle of calls.
  bool checkFunc(FuncDef &func) {
    switch (func.state) {
    case FuncDef::State::Checked:
      return true;
    case FuncDef::State::Failed:
      return false;
    case FuncDef::State::Checking:
      return false; // Reported by the call that closed the cycle.
    case FuncDef::State::Unchecked:
      break;
    }
    func.state = FuncDef::State::Checking;
    // A callee is checked in its own scope.
    size_t savedLets = visibleLets;
    std::vector<const ReduceExpr *> savedReductions;
    std::vector<size_t> savedReductionLets;
    savedReductions.swap(reductions);
    savedReductionLets.swap(reductionLets);
    bool ok = func.isOutput() ? checkOutputFunc(func) : checkHelperFunc(func);
    reductions.swap(savedReductions);
    reductionLets.swap(savedReductionLets);
    visibleLets = savedLets;
    func.state = ok ? FuncDef::State::Checked : FuncDef::State::Failed;
    return ok;
  }

  /// Coordinates are unique and hide nothing; each let is checked in turn.
  bool checkScope(FuncDef &func) {
    bool ok = true;
    llvm::StringMap<llvm::SMRange> seen;
    for (auto &[name, range] : func.vars) {
      if (!seen.try_emplace(name, range).second) {
        diags.error(range.Start, "coordinate '" + name + "' is named twice",
                    range);
        ok = false;
      }
      if (findParam(name)) {
        diags.error(range.Start,
                    "coordinate '" + name + "' hides the parameter '" + name +
                        "'",
                    range);
        ok = false;
      }
    }
    for (visibleLets = 0; visibleLets < func.lets.size(); ++visibleLets) {
      Binding &let = func.lets[visibleLets];
      llvm::SMRange earlier;
      if (seen.count(let.name))
        earlier = seen.lookup(let.name);
      for (size_t j = 0; j < visibleLets; ++j)
        if (func.lets[j].name == let.name)
          earlier = func.lets[j].nameRange;
      if (earlier.isValid()) {
        diags.error(let.nameRange.Start,
                    "'" + let.name + "' is already defined in '" + func.name +
                        "'",
                    let.nameRange);
        diags.note(earlier.Start, "first defined here");
        ok = false;
      } else if (findParam(let.name) || findConst(let.name)) {
        diags.error(let.nameRange.Start,
                    "'let " + let.name + "' hides the kernel's '" + let.name +
                        "'",
                    let.nameRange);
        ok = false;
      }
      ok = checkExpr(*let.value, &func) && ok;
    }
    return ok;
  }

  /// `func name(vars) = expr;`: integer coordinates, up to kMaxFuncCoords;
  /// more than three only for a function left inline (stored ones are
  /// images: x, y, c).
  bool checkHelperFunc(FuncDef &func) {
    if (func.vars.size() > kMaxFuncCoords) {
      diags.error(func.nameRange.Start,
                  "'" + func.name + "' has " + llvm::Twine(func.vars.size()) +
                      " coordinates; a function has at most " +
                      llvm::Twine(kMaxFuncCoords),
                  func.nameRange);
      return false;
    }
    if (func.vars.size() > 3 && func.hasDomain()) {
      diags.error(func.extentsRange.Start,
                  "'" + func.name + "' has " + llvm::Twine(func.vars.size()) +
                      " coordinates; only a function of at most 3 (x, y, "
                      "c) can have extents, as it is stored as an image",
                  func.extentsRange);
      return false;
    }
    bool ok = checkScope(func);
    ok = checkExpr(*func.body, &func) && ok;
    if (ok)
      func.type = func.body->type;
    if (ok && func.hasDomain())
      ok = checkDomain(func);
    return ok;
  }

  /// `func f(x, y)[w, h] mirror = ...`: one extent per coordinate, each an
  /// integer the same at every pixel. Such a function is stored over its
  /// extents (computed at the root), so its values are not bool, and a
  /// `constant(v)` mode's v is one of them.
  bool checkDomain(FuncDef &func) {
    bool ok = true;
    if (func.extents.size() != func.vars.size()) {
      diags.error(func.extentsRange.Start,
                  "'" + func.name + "' has " + llvm::Twine(func.vars.size()) +
                      " coordinate" + (func.vars.size() == 1 ? "" : "s") +
                      " but " + llvm::Twine(func.extents.size()) + " extent" +
                      (func.extents.size() == 1 ? "" : "s") +
                      "; give one extent per coordinate",
                  func.extentsRange);
      ok = false;
    }
    for (ExprPtr &extent : func.extents) {
      if (!checkExpr(*extent, /*func=*/nullptr)) {
        ok = false;
        continue;
      }
      if (!isIntegerType(extent->type) || !isUniform(*extent)) {
        diags.error(extent->getLoc(),
                    "an extent must be an integer made of constants, "
                    "parameters and image sizes",
                    extent->getRange());
        ok = false;
      }
    }
    if (func.type == ScalarType::Bool) {
      diags.error(func.nameRange.Start,
                  "'" + func.name +
                      "' has bool values, which cannot be stored over its "
                      "extents; define u8(...) of them instead",
                  func.nameRange);
      return false;
    }
    if (func.boundary == BoundaryMode::Constant)
      checkPadding(func.padding, func.type, func.boundaryRange);
    func.computeRoot = true;
    return ok;
  }

  bool checkOutputFunc(FuncDef &func) {
    const TypeSpec &output = kernel.outputs[func.outputIndex].type;
    if (func.hasDomain()) {
      diags.error(func.extentsRange.Start,
                  "'" + func.name +
                      "' is an output: its size is the output's, so it takes "
                      "no extents",
                  func.extentsRange);
      return false;
    }
    bool oneChannel = output.isImage && output.channels == 1;
    if (func.vars.size() != 3 && !(oneChannel && func.vars.size() == 2)) {
      diags.error(func.nameRange.Start,
                  "'" + func.name + "' takes the coordinates (x, y, c)" +
                      llvm::Twine(oneChannel ? " or (x, y)" : "") +
                      ", but has " + llvm::Twine(func.vars.size()),
                  func.nameRange);
      return false;
    }
    bool letsOk = checkScope(func);
    if (!checkExpr(*func.body, &func) || !letsOk)
      return false;
    func.type = func.body->type;
    if (!output.isImage)
      return false;
    ScalarType want = output.scalar;
    if (llvm::isa<IntLitExpr>(func.body.get()) && want == ScalarType::F32)
      makeFloat(*func.body);
    ScalarType got = func.body->type;
    if (got == want)
      return true;
    if (auto *literal = llvm::dyn_cast<IntLitExpr>(func.body.get());
        literal && isIntegerType(want)) {
      int64_t max = want == ScalarType::U8    ? 255
                    : want == ScalarType::U16 ? 65535
                                              : INT32_MAX;
      if (literal->value > max) {
        diags.error(literal->getLoc(),
                    llvm::Twine(literal->value) + " does not fit in " +
                        getScalarTypeName(want),
                    literal->getRange());
        return false;
      }
      func.body->type = want;
      return true;
    }
    diags.error(func.body->getLoc(),
                "'" + func.name + "' computes " + getScalarTypeName(got) +
                    " values, but the output is " + output.str(),
                func.body->getRange());
    if (want == ScalarType::U8 || want == ScalarType::U16) {
      std::string name = getScalarTypeName(want).str();
      diags.note(func.body->getLoc(), "convert with " + name +
                                          "_sat(...) to round and saturate, "
                                          "or " +
                                          name + "(...) to wrap");
    } else {
      diags.note(func.body->getLoc(),
                 "convert with " + getScalarTypeName(want) + "(...)");
    }
    return false;
  }

  //===--------------------------------------------------------------------===//
  // Expressions
  //===--------------------------------------------------------------------===//

  static bool isBuiltinName(llvm::StringRef name) {
    return llvm::StringSwitch<bool>(name)
        .Cases({"u8_sat", "u16_sat", "min",    "max",      "sum",
                "clamp",  "abs",     "image",  "nv12",     "select",
                "sqrt",   "exp",     "log",    "pow",      "sin",
                "cos",    "tan",     "atan2",  "floor",    "ceil",
                "round",  "lerp",    "sample", "bilinear", "nearest"},
               true)
        .Default(false);
  }

  const Binding *findConst(llvm::StringRef name, unsigned *index = nullptr) {
    for (auto [i, constant] : llvm::enumerate(kernel.consts))
      if (constant.name == name) {
        if (index)
          *index = i;
        return &constant;
      }
    return nullptr;
  }

  const Param *findParam(llvm::StringRef name, unsigned *index = nullptr) {
    for (auto [i, param] : llvm::enumerate(kernel.params))
      if (param.name == name) {
        if (index)
          *index = i;
        return &param;
      }
    return nullptr;
  }

  /// Turns an integer literal (possibly negated) into an f32 one.
  static void makeFloat(Expr &expr) {
    expr.type = ScalarType::F32;
    if (auto *unary = llvm::dyn_cast<UnaryExpr>(&expr))
      makeFloat(*unary->operand);
  }
  static bool isIntLiteral(const Expr &expr) {
    if (auto *unary = llvm::dyn_cast<UnaryExpr>(&expr))
      return unary->op == UnaryExpr::Op::Neg && isIntLiteral(*unary->operand);
    return llvm::isa<IntLitExpr>(&expr);
  }

  /// Types `expr`; false (after reporting) when it is ill-formed.
  bool checkExpr(Expr &expr, const FuncDef *func) {
    switch (expr.getKind()) {
    case Expr::Kind::IntLit: {
      auto &lit = llvm::cast<IntLitExpr>(expr);
      if (lit.value > std::numeric_limits<int32_t>::max() + int64_t(1)) {
        diags.error(lit.getLoc(),
                    "integer literal " + llvm::Twine(lit.value) +
                        " does not fit in i32",
                    lit.getRange());
        return false;
      }
      expr.type = ScalarType::I32;
      return true;
    }
    case Expr::Kind::FloatLit: {
      auto &lit = llvm::cast<FloatLitExpr>(expr);
      if (std::abs(lit.value) > std::numeric_limits<float>::max()) {
        diags.error(lit.getLoc(), "number does not fit in f32", lit.getRange());
        return false;
      }
      expr.type = ScalarType::F32;
      return true;
    }
    case Expr::Kind::BoolLit:
      expr.type = ScalarType::Bool;
      return true;
    case Expr::Kind::Var:
      return checkVar(llvm::cast<VarExpr>(expr), func);
    case Expr::Kind::Unary:
      return checkUnary(llvm::cast<UnaryExpr>(expr), func);
    case Expr::Kind::Binary:
      return checkBinary(llvm::cast<BinaryExpr>(expr), func);
    case Expr::Kind::Call:
      return checkCall(llvm::cast<CallExpr>(expr), func);
    case Expr::Kind::Member:
      return checkMember(llvm::cast<MemberExpr>(expr));
    case Expr::Kind::Reduce:
      return checkReduce(llvm::cast<ReduceExpr>(expr), func);
    }
    llvm_unreachable("unknown expression kind");
  }

  bool checkVar(VarExpr &var, const FuncDef *func) {
    for (size_t depth = reductions.size(); depth-- > 0;) {
      const ReduceExpr &reduce = *reductions[depth];
      for (size_t i = reductionLets[depth]; i-- > 0;)
        if (reduce.lets[i].name == var.name) {
          var.binding = VarExpr::Binding::ReduceLet;
          var.index = depth;
          var.let = i;
          var.type = reduce.lets[i].value->type;
          return true;
        }
      if (reduce.var == var.name) {
        var.binding = VarExpr::Binding::ReduceVar;
        var.index = depth;
        var.type = ScalarType::I32;
        return true;
      }
    }
    if (func)
      for (auto [index, coord] : llvm::enumerate(func->vars))
        if (coord.first == var.name) {
          var.binding = VarExpr::Binding::Coordinate;
          var.index = index;
          var.type = ScalarType::I32;
          return true;
        }
    if (func)
      for (size_t i = std::min<size_t>(visibleLets, func->lets.size());
           i-- > 0;)
        if (func->lets[i].name == var.name) {
          var.binding = VarExpr::Binding::Let;
          var.index = i;
          var.type = func->lets[i].value->type;
          return true;
        }
    unsigned index = 0;
    if (findConst(var.name, &index)) {
      var.binding = VarExpr::Binding::Const;
      var.index = index;
      var.type = kernel.consts[index].value->type;
      return true;
    }
    if (const Param *param = findParam(var.name, &index)) {
      if (param->type.isImage) {
        diags.error(var.getLoc(),
                    "image '" + var.name +
                        "' must be read at coordinates, e.g. '" + var.name +
                        "(x, y, c)'",
                    var.getRange());
        return false;
      }
      if (checkingDefault) {
        diags.error(var.getLoc(), "a default value cannot use parameters",
                    var.getRange());
        return false;
      }
      var.binding = VarExpr::Binding::Param;
      var.index = index;
      var.type = param->type.scalar;
      return true;
    }
    diags.error(var.getLoc(), "unknown name '" + var.name + "'",
                var.getRange());
    return false;
  }

  bool checkUnary(UnaryExpr &unary, const FuncDef *func) {
    if (!checkExpr(*unary.operand, func))
      return false;
    ScalarType type = unary.operand->type;
    if (unary.op == UnaryExpr::Op::Not) {
      if (type != ScalarType::Bool) {
        diags.error(unary.getLoc(),
                    "'!' needs a bool operand, but got " +
                        getScalarTypeName(type),
                    unary.getRange());
        return false;
      }
      unary.type = ScalarType::Bool;
      return true;
    }
    if (type == ScalarType::Bool) {
      diags.error(unary.getLoc(), "'-' needs a number, but got bool",
                  unary.getRange());
      return false;
    }
    unary.type = type == ScalarType::F32 ? ScalarType::F32 : ScalarType::I32;
    return true;
  }

  /// The common type of two numeric operands, adapting integer literals to
  /// f32; reports mixed int/float operands.
  std::optional<ScalarType> unifyNumeric(Expr &lhs, Expr &rhs,
                                         llvm::StringRef what, llvm::SMLoc loc,
                                         llvm::SMRange range) {
    if (lhs.type == ScalarType::F32 && isIntLiteral(rhs))
      makeFloat(rhs);
    if (rhs.type == ScalarType::F32 && isIntLiteral(lhs))
      makeFloat(lhs);
    for (Expr *operand : {&lhs, &rhs})
      if (operand->type == ScalarType::Bool) {
        diags.error(operand->getLoc(),
                    what + " needs numbers, but this operand is bool",
                    operand->getRange());
        return std::nullopt;
      }
    bool lhsFloat = lhs.type == ScalarType::F32;
    bool rhsFloat = rhs.type == ScalarType::F32;
    if (lhsFloat != rhsFloat) {
      diags.error(loc,
                  what + " mixes " + getScalarTypeName(lhs.type) + " and " +
                      getScalarTypeName(rhs.type) + " operands",
                  range);
      diags.note(lhsFloat ? rhs.getLoc() : lhs.getLoc(),
                 "convert this operand with f32(...), or the other with "
                 "i32(...)");
      return std::nullopt;
    }
    return lhsFloat ? ScalarType::F32 : ScalarType::I32;
  }

  bool checkBinary(BinaryExpr &binary, const FuncDef *func) {
    bool ok = checkExpr(*binary.lhs, func);
    ok = checkExpr(*binary.rhs, func) && ok;
    if (!ok)
      return false;
    using Op = BinaryExpr::Op;
    std::string what = ("'" + BinaryExpr::getSpelling(binary.op) + "'").str();
    if (binary.op == Op::And || binary.op == Op::Or) {
      for (Expr *operand : {binary.lhs.get(), binary.rhs.get()})
        if (operand->type != ScalarType::Bool) {
          diags.error(operand->getLoc(),
                      what + " needs bool operands, but this one is " +
                          getScalarTypeName(operand->type),
                      operand->getRange());
          return false;
        }
      binary.operandType = binary.type = ScalarType::Bool;
      return true;
    }
    if ((binary.op == Op::Eq || binary.op == Op::Ne) &&
        binary.lhs->type == ScalarType::Bool &&
        binary.rhs->type == ScalarType::Bool) {
      binary.operandType = ScalarType::Bool;
      binary.type = ScalarType::Bool;
      return true;
    }
    std::optional<ScalarType> common = unifyNumeric(
        *binary.lhs, *binary.rhs, what, binary.opLoc, binary.getRange());
    if (!common)
      return false;
    if (binary.op == Op::Rem && *common == ScalarType::F32) {
      diags.error(binary.opLoc, "'%' needs integer operands",
                  binary.getRange());
      return false;
    }
    binary.operandType = *common;
    bool comparison = binary.op >= Op::Lt && binary.op <= Op::Ne;
    binary.type = comparison ? ScalarType::Bool : *common;
    return true;
  }

  bool checkArgCount(CallExpr &call, size_t count) {
    if (call.args.size() == count)
      return true;
    diags.error(call.getLoc(),
                "'" + call.callee + "' takes " + llvm::Twine(count) +
                    " argument" + (count == 1 ? "" : "s") + ", but " +
                    llvm::Twine(call.args.size()) +
                    (call.args.size() == 1 ? " was" : " were") + " given",
                call.getRange());
    return false;
  }

  bool checkCall(CallExpr &call, const FuncDef *func) {
    unsigned paramIndex = 0;
    const Param *param = findParam(call.callee, &paramIndex);
    if (param && param->type.isImage)
      return checkImageRead(call, paramIndex, func);
    if (!call.method.empty()) {
      for (auto [index, callee] : llvm::enumerate(kernel.funcs))
        if (callee.name == call.callee)
          return checkFuncBoundaryRead(call, index, func);
      diags.error(call.calleeRange.Start,
                  "'" + call.callee + "' is not an image, so it has no '." +
                      call.method + "(...)'",
                  call.calleeRange);
      return false;
    }
    using Builtin = CallExpr::Builtin;
    if (call.callee == "sample")
      return checkSample(call, func);
    for (auto [index, callee] : llvm::enumerate(kernel.funcs))
      if (callee.name == call.callee)
        return checkFuncCall(call, index, func);
    call.builtin = llvm::StringSwitch<Builtin>(call.callee)
                       .Case("f32", Builtin::CastF32)
                       .Case("i32", Builtin::CastI32)
                       .Case("u8", Builtin::CastU8)
                       .Case("u8_sat", Builtin::CastU8Sat)
                       .Case("u16", Builtin::CastU16)
                       .Case("u16_sat", Builtin::CastU16Sat)
                       .Case("min", Builtin::Min)
                       .Case("max", Builtin::Max)
                       .Case("clamp", Builtin::Clamp)
                       .Case("abs", Builtin::Abs)
                       .Case("select", Builtin::Select)
                       .Case("sqrt", Builtin::Sqrt)
                       .Case("exp", Builtin::Exp)
                       .Case("log", Builtin::Log)
                       .Case("pow", Builtin::Pow)
                       .Case("sin", Builtin::Sin)
                       .Case("cos", Builtin::Cos)
                       .Case("tan", Builtin::Tan)
                       .Case("atan2", Builtin::Atan2)
                       .Case("floor", Builtin::Floor)
                       .Case("ceil", Builtin::Ceil)
                       .Case("round", Builtin::Round)
                       .Case("lerp", Builtin::Lerp)
                       .Default(Builtin::Unresolved);
    if (call.builtin == Builtin::Unresolved) {
      diags.error(call.calleeRange.Start,
                  "unknown function '" + call.callee + "'", call.calleeRange);
      return false;
    }
    bool ok = true;
    for (ExprPtr &arg : call.args)
      ok = checkExpr(*arg, func) && ok;
    if (!ok)
      return false;

    switch (call.builtin) {
    case Builtin::CastF32:
    case Builtin::CastI32:
    case Builtin::CastU8:
    case Builtin::CastU8Sat:
    case Builtin::CastU16:
    case Builtin::CastU16Sat:
      if (!checkArgCount(call, 1))
        return false;
      call.type = call.builtin == Builtin::CastF32   ? ScalarType::F32
                  : call.builtin == Builtin::CastI32 ? ScalarType::I32
                  : call.builtin == Builtin::CastU16 ||
                          call.builtin == Builtin::CastU16Sat
                      ? ScalarType::U16
                      : ScalarType::U8;
      return true;
    case Builtin::Abs: {
      if (!checkArgCount(call, 1))
        return false;
      ScalarType type = call.args[0]->type;
      if (type == ScalarType::Bool) {
        diags.error(call.args[0]->getLoc(), "'abs' needs a number",
                    call.args[0]->getRange());
        return false;
      }
      call.type = type == ScalarType::F32 ? ScalarType::F32 : ScalarType::I32;
      return true;
    }
    case Builtin::Min:
    case Builtin::Max:
    case Builtin::Clamp: {
      size_t count = call.builtin == Builtin::Clamp ? 3 : 2;
      if (!checkArgCount(call, count))
        return false;
      std::string what = "'" + call.callee + "'";
      // Any float argument makes them all f32 (literals adapt).
      Expr *first = call.args[0].get();
      std::optional<ScalarType> common;
      for (size_t i = 1; i < count; ++i) {
        common = unifyNumeric(*first, *call.args[i], what,
                              call.args[i]->getLoc(), call.getRange());
        if (!common)
          return false;
      }
      if (*common == ScalarType::F32)
        for (ExprPtr &arg : call.args)
          if (isIntLiteral(*arg))
            makeFloat(*arg);
      call.type = *common;
      return true;
    }
    case Builtin::Select: {
      if (!checkArgCount(call, 3))
        return false;
      Expr &cond = *call.args[0];
      if (cond.type != ScalarType::Bool) {
        diags.error(cond.getLoc(),
                    "the condition of 'select' must be bool, but is " +
                        getScalarTypeName(cond.type),
                    cond.getRange());
        return false;
      }
      Expr &a = *call.args[1], &b = *call.args[2];
      // Choosing between two values of one type keeps that type (u8 stays
      // u8); otherwise numbers are unified as for arithmetic.
      if (a.type == b.type) {
        call.type = a.type;
        return true;
      }
      std::optional<ScalarType> common =
          unifyNumeric(a, b, "'select'", b.getLoc(), call.getRange());
      if (!common)
        return false;
      call.type = *common;
      return true;
    }
    case Builtin::Sqrt:
    case Builtin::Exp:
    case Builtin::Log:
    case Builtin::Sin:
    case Builtin::Cos:
    case Builtin::Tan:
    case Builtin::Floor:
    case Builtin::Ceil:
    case Builtin::Round:
      return checkFloatArgs(call, 1);
    case Builtin::Pow:
    case Builtin::Atan2:
      return checkFloatArgs(call, 2);
    case Builtin::Lerp:
      return checkFloatArgs(call, 3);
    case Builtin::Unresolved:
    case Builtin::ReadImage:
    case Builtin::Sample:
    case Builtin::CallFunc:
      break;
    }
    llvm_unreachable("unhandled builtin");
  }

  /// `f(args)` for a `func f` of the kernel: integer arguments, one per
  /// coordinate; no function may call itself, directly or not.
  /// `f.mirror(x, y)`: a read of a function with extents under a mode of
  /// its own, as for images.
  bool checkFuncBoundaryRead(CallExpr &call, unsigned index,
                             const FuncDef *caller) {
    FuncDef &callee = kernel.funcs[index];
    std::optional<BoundaryMode> mode = parseBoundaryModeName(call.method);
    if (!mode) {
      diags.error(call.getLoc(),
                  "unknown boundary mode '" + call.method +
                      "'; expected clamp, mirror, wrap or constant",
                  call.getRange());
      return false;
    }
    if (!callee.hasDomain()) {
      diags.error(call.calleeRange.Start,
                  "'" + callee.name +
                      "' is defined everywhere, so it has no '." + call.method +
                      "(...)'; give it extents and a mode, as "
                      "in 'func " +
                      callee.name +
                      "(x, y)[src.width, "
                      "src.height] mirror = ...'",
                  call.calleeRange);
      diags.note(callee.nameRange.Start,
                 "'" + callee.name + "' is defined here");
      return false;
    }
    if (!checkFuncCall(call, index, caller))
      return false;
    call.boundary = *mode;
    return true;
  }

  bool checkFuncCall(CallExpr &call, unsigned index, const FuncDef *caller) {
    FuncDef &callee = kernel.funcs[index];
    call.builtin = CallExpr::Builtin::CallFunc;
    call.funcIndex = index;
    // A function with extents is read under its mode (a method overrides).
    call.boundary = callee.boundary;
    if (callee.isOutput()) {
      diags.error(call.calleeRange.Start,
                  "'" + callee.name +
                      "' is an output of the kernel; functions cannot read it",
                  call.calleeRange);
      diags.note(callee.nameRange.Start,
                 "define what both need as a function of its own, and call "
                 "that from '" +
                     callee.name + "' and the others");
      return false;
    }
    bool ok = checkCoordinates(call.args, caller);
    if (call.args.size() != callee.vars.size()) {
      diags.error(call.getLoc(),
                  "'" + callee.name + "' takes " +
                      llvm::Twine(callee.vars.size()) + " coordinate" +
                      (callee.vars.size() == 1 ? "" : "s") + ", but " +
                      llvm::Twine(call.args.size()) +
                      (call.args.size() == 1 ? " was" : " were") + " given",
                  call.getRange());
      diags.note(callee.nameRange.Start,
                 "'" + callee.name + "' is defined here");
      return false;
    }
    if (callee.state == FuncDef::State::Checking) {
      diags.error(call.calleeRange.Start,
                  "'" + callee.name + "' is used in its own definition" +
                      (caller && caller != &callee
                           ? " (through '" + caller->name + "')"
                           : std::string()) +
                      "; functions cannot be recursive",
                  call.calleeRange);
      return false;
    }
    if (!checkFunc(callee) || !ok)
      return false;
    call.type = callee.type;
    return true;
  }

  /// Checks the coordinates of a read or a call: integers, each reported.
  bool checkCoordinates(std::vector<ExprPtr> &args, const FuncDef *func) {
    bool ok = true;
    for (ExprPtr &arg : args) {
      if (!checkExpr(*arg, func)) {
        ok = false;
        continue;
      }
      if (!isIntegerType(arg->type)) {
        diags.error(arg->getLoc(),
                    "coordinates are integers, but this one is " +
                        getScalarTypeName(arg->type),
                    arg->getRange());
        ok = false;
      }
    }
    return ok;
  }

  /// True when `expr` is the same at every point: literals, constants,
  /// scalar parameters, image sizes and what is computed from them.
  static bool isUniform(const Expr &expr) {
    switch (expr.getKind()) {
    case Expr::Kind::IntLit:
    case Expr::Kind::FloatLit:
    case Expr::Kind::BoolLit:
    case Expr::Kind::Member:
      return true;
    case Expr::Kind::Var: {
      auto binding = llvm::cast<VarExpr>(expr).binding;
      return binding == VarExpr::Binding::Param ||
             binding == VarExpr::Binding::Const;
    }
    case Expr::Kind::Unary:
      return isUniform(*llvm::cast<UnaryExpr>(expr).operand);
    case Expr::Kind::Binary: {
      auto &binary = llvm::cast<BinaryExpr>(expr);
      return isUniform(*binary.lhs) && isUniform(*binary.rhs);
    }
    case Expr::Kind::Call: {
      auto &call = llvm::cast<CallExpr>(expr);
      if (call.builtin == CallExpr::Builtin::ReadImage ||
          call.builtin == CallExpr::Builtin::Sample ||
          call.builtin == CallExpr::Builtin::CallFunc)
        return false;
      return llvm::all_of(call.args,
                          [](const ExprPtr &arg) { return isUniform(*arg); });
    }
    case Expr::Kind::Reduce:
      return false;
    }
    return false;
  }

  /// The value of an integer literal, possibly negated or named by a
  /// `const`; nullopt for anything else.
  std::optional<int64_t> literalValue(const Expr &expr) {
    if (auto *lit = llvm::dyn_cast<IntLitExpr>(&expr))
      return lit->value;
    if (auto *unary = llvm::dyn_cast<UnaryExpr>(&expr);
        unary && unary->op == UnaryExpr::Op::Neg)
      if (std::optional<int64_t> v = literalValue(*unary->operand))
        return -*v;
    if (auto *var = llvm::dyn_cast<VarExpr>(&expr);
        var && var->binding == VarExpr::Binding::Const)
      return literalValue(*kernel.consts[var->index].value);
    return std::nullopt;
  }

  /// `sum(i in lo..hi, body)`: integer bounds fixed for the whole kernel
  /// (constants, parameters, sizes), a numeric body, a range within
  /// kMaxReductionRange when the bounds are known here.
  bool checkReduce(ReduceExpr &reduce, const FuncDef *func) {
    bool ok = true;
    for (Expr *bound : {reduce.lo.get(), reduce.hi.get()}) {
      if (!checkExpr(*bound, func)) {
        ok = false;
        continue;
      }
      if (!isIntegerType(bound->type)) {
        diags.error(bound->getLoc(),
                    "reduction bounds are integers, but this one is " +
                        getScalarTypeName(bound->type),
                    bound->getRange());
        ok = false;
      } else if (!isUniform(*bound)) {
        diags.error(bound->getLoc(),
                    "reduction bounds must be constants, parameters or image "
                    "sizes, the same at every pixel",
                    bound->getRange());
        ok = false;
      }
    }
    // Bounds known here (literals, constants): the range has a limit.
    if (ok) {
      std::optional<int64_t> lo = literalValue(*reduce.lo);
      std::optional<int64_t> hi = literalValue(*reduce.hi);
      if (lo && hi && *hi - *lo + 1 > kMaxReductionRange) {
        diags.error(reduce.getLoc(),
                    "'" + ReduceExpr::getName(reduce.op) + "' ranges over " +
                        llvm::Twine(*hi - *lo + 1) + " values; at most " +
                        llvm::Twine(kMaxReductionRange) + " are allowed",
                    reduce.getRange());
        ok = false;
      }
    }
    for (const ReduceExpr *outer : reductions)
      if (outer->var == reduce.var) {
        diags.error(reduce.varRange.Start,
                    "'" + reduce.var +
                        "' is already the variable of an "
                        "enclosing reduction",
                    reduce.varRange);
        diags.note(outer->varRange.Start, "bound here");
        ok = false;
      }
    if (findParam(reduce.var) || findConst(reduce.var)) {
      diags.error(reduce.varRange.Start,
                  "reduction variable '" + reduce.var +
                      "' hides the kernel's '" + reduce.var + "'",
                  reduce.varRange);
      ok = false;
    }
    reductions.push_back(&reduce);
    reductionLets.push_back(0);
    bool bodyOk = checkReductionLets(reduce, func);
    bodyOk = bodyOk && checkExpr(*reduce.body, func);
    reductions.pop_back();
    reductionLets.pop_back();
    if (!ok || !bodyOk)
      return false;
    if (reduce.body->type == ScalarType::Bool) {
      diags.error(reduce.body->getLoc(),
                  "'" + ReduceExpr::getName(reduce.op) +
                      "' needs numbers, but this is bool",
                  reduce.body->getRange());
      return false;
    }
    // argmin and argmax give the index; the others a value of the terms'
    // type.
    reduce.type = reduce.op != ReduceExpr::Op::Argmin &&
                          reduce.op != ReduceExpr::Op::Argmax &&
                          reduce.body->type == ScalarType::F32
                      ? ScalarType::F32
                      : ScalarType::I32;
    return true;
  }

  /// Whether `name` already means something here: a reduction variable or
  /// let in sight, a coordinate or let of `func`, a const or a parameter.
  bool isNameInSight(llvm::StringRef name, const FuncDef *func) {
    for (size_t depth = 0; depth < reductions.size(); ++depth) {
      if (reductions[depth]->var == name)
        return true;
      for (size_t i = 0; i < reductionLets[depth]; ++i)
        if (reductions[depth]->lets[i].name == name)
          return true;
    }
    if (func) {
      for (const auto &coord : func->vars)
        if (coord.first == name)
          return true;
      for (size_t i = 0; i < std::min(visibleLets, func->lets.size()); ++i)
        if (func->lets[i].name == name)
          return true;
    }
    return findConst(name) || findParam(name);
  }

  /// The lets of the innermost reduction, `reduce`, in order, each seeing
  /// the ones before; a let may not take a name already in sight.
  bool checkReductionLets(ReduceExpr &reduce, const FuncDef *func) {
    // By index: a let's value may hold reductions, which push onto
    // reductionLets (a reference into it would dangle).
    size_t depth = reductionLets.size() - 1;
    for (; reductionLets[depth] < reduce.lets.size(); ++reductionLets[depth]) {
      Binding &let = reduce.lets[reductionLets[depth]];
      if (isNameInSight(let.name, func)) {
        diags.error(let.nameRange.Start,
                    "'let " + let.name +
                        "' hides a name already defined "
                        "here (a coordinate, parameter, let or reduction "
                        "variable)",
                    let.nameRange);
        return false;
      }
      if (!checkExpr(*let.value, func))
        return false;
    }
    return true;
  }

  /// Maths on f32: `count` f32 arguments (integer literals adapt).
  bool checkFloatArgs(CallExpr &call, size_t count) {
    if (!checkArgCount(call, count))
      return false;
    for (ExprPtr &arg : call.args) {
      if (isIntLiteral(*arg))
        makeFloat(*arg);
      if (arg->type != ScalarType::F32) {
        diags.error(arg->getLoc(),
                    "'" + call.callee +
                        "' takes f32 arguments, but this one "
                        "is " +
                        getScalarTypeName(arg->type),
                    arg->getRange());
        diags.note(arg->getLoc(), "convert it with f32(...)");
        return false;
      }
    }
    call.type = ScalarType::F32;
    return true;
  }

  /// `sample(img, u, v, c, bilinear|nearest)`; `c` may be left out for a
  /// one-channel image. The image's declared boundary mode applies.
  bool checkSample(CallExpr &call, const FuncDef *func) {
    call.builtin = CallExpr::Builtin::Sample;
    if (call.args.size() < 4 || call.args.size() > 5) {
      diags.error(call.getLoc(),
                  "'sample' takes (image, u, v, c, bilinear|nearest), but " +
                      llvm::Twine(call.args.size()) + " argument" +
                      (call.args.size() == 1 ? " was" : "s were") + " given",
                  call.getRange());
      return false;
    }
    auto *imageName = llvm::dyn_cast<VarExpr>(call.args.front().get());
    unsigned paramIndex = 0;
    const Param *image =
        imageName ? findParam(imageName->name, &paramIndex) : nullptr;
    if (!image || !image->type.isImage) {
      diags.error(call.args.front()->getLoc(),
                  "the first argument of 'sample' must be an image parameter",
                  call.args.front()->getRange());
      return false;
    }
    call.imageParam = paramIndex;
    if (image->type.isNv12) {
      diags.error(call.args.front()->getLoc(),
                  "'sample' of an NV12 frame is not supported; sample an "
                  "image<...>",
                  call.args.front()->getRange());
      return false;
    }
    if (call.args.size() == 4 && image->type.channels != 1) {
      diags.error(call.getLoc(),
                  "'sample' of '" + image->name +
                      "' needs a channel: (image, u, v, c, mode)",
                  call.getRange());
      return false;
    }
    auto *mode = llvm::dyn_cast<VarExpr>(call.args.back().get());
    if (!mode || (mode->name != "bilinear" && mode->name != "nearest")) {
      diags.error(call.args.back()->getLoc(),
                  "the last argument of 'sample' is 'bilinear' or 'nearest'",
                  call.args.back()->getRange());
      return false;
    }
    call.bilinear = mode->name == "bilinear";
    bool ok = true;
    for (size_t i = 1; i + 1 < call.args.size(); ++i) {
      Expr &arg = *call.args[i];
      if (!checkExpr(arg, func)) {
        ok = false;
        continue;
      }
      bool isChannel = i == 3;
      if (!isChannel && isIntLiteral(arg))
        makeFloat(arg);
      bool good =
          isChannel ? isIntegerType(arg.type) : arg.type == ScalarType::F32;
      if (!good) {
        diags.error(arg.getLoc(),
                    llvm::Twine(isChannel ? "the channel of 'sample' is an "
                                            "integer"
                                          : "'sample' coordinates are f32") +
                        ", but this one is " + getScalarTypeName(arg.type),
                    arg.getRange());
        ok = false;
      }
    }
    if (!ok)
      return false;
    call.boundary = image->type.boundary;
    if (call.boundary == BoundaryMode::None) {
      diags.error(call.getLoc(),
                  "'sample' may read outside '" + image->name +
                      "', which has no boundary mode",
                  call.getRange());
      diags.note(image->type.range.Start,
                 "declare one here, e.g. '" + image->type.str() +
                     " constant(0)' or '" + image->type.str() + " clamp'");
      return false;
    }
    call.type = ScalarType::F32;
    return true;
  }

  /// `img(x, y, c)` reads with the image's boundary mode, if it declares
  /// one; `img.clamp(...)`, `img.mirror(...)`, `img.wrap(...)` and
  /// `img.constant(...)` with their own. A read without one must stay
  /// inside the image: arvr-check-bounds proves it on the dialect.
  bool checkImageRead(CallExpr &call, unsigned paramIndex,
                      const FuncDef *func) {
    const Param &image = kernel.params[paramIndex];
    call.builtin = CallExpr::Builtin::ReadImage;
    call.imageParam = paramIndex;
    // The boundary: the access's own (`img.mirror(...)`), else the image's.
    call.boundary = image.type.boundary;
    if (image.type.isNv12)
      return checkNv12Read(call, image, func);
    if (!call.method.empty()) {
      std::optional<BoundaryMode> mode = parseBoundaryModeName(call.method);
      if (!mode) {
        diags.error(call.getLoc(),
                    "unknown boundary mode '" + call.method +
                        "'; expected clamp, mirror, wrap or constant",
                    call.getRange());
        return false;
      }
      call.boundary = *mode;
    }
    bool oneChannel = image.type.channels == 1;
    if (call.args.size() != 3 && !(oneChannel && call.args.size() == 2)) {
      diags.error(call.getLoc(),
                  "reading image '" + image.name + "' takes (x, y, c)" +
                      llvm::Twine(oneChannel ? " or (x, y)" : "") + ", but " +
                      llvm::Twine(call.args.size()) + " coordinate" +
                      (call.args.size() == 1 ? " was" : "s were") + " given",
                  call.getRange());
      return false;
    }
    if (!checkCoordinates(call.args, func))
      return false;
    call.type = image.type.scalar;
    return true;
  }

  /// `frame.y(x, y)` (the full-size luma plane) and `frame.uv(x, y, c)`
  /// (the half-size plane of U, c = 0, and V, c = 1) of an NV12 frame.
  /// Without the frame's boundary mode, arvr-check-bounds proves the reads
  /// in range (e.g. `frame.uv(x / 2, y / 2, 0 or 1)` at `out`'s own
  /// coordinates).
  bool checkNv12Read(CallExpr &call, const Param &frame, const FuncDef *func) {
    if (call.method != "y" && call.method != "uv") {
      diags.error(call.getLoc(),
                  "an NV12 frame is read by plane: '" + frame.name +
                      ".y(x, y)' or '" + frame.name + ".uv(x, y, c)'",
                  call.getRange());
      return false;
    }
    call.plane = call.method == "uv" ? 1 : 0;
    size_t want = call.plane ? 3 : 2;
    if (call.args.size() != want) {
      diags.error(call.getLoc(),
                  "'" + frame.name + "." + call.method + "' takes " +
                      (call.plane ? "(x, y, c)" : "(x, y)") + ", but " +
                      llvm::Twine(call.args.size()) + " coordinate" +
                      (call.args.size() == 1 ? " was" : "s were") + " given",
                  call.getRange());
      return false;
    }
    if (!checkCoordinates(call.args, func))
      return false;
    call.type = ScalarType::U8;
    return true;
  }

  bool checkMember(MemberExpr &member) {
    unsigned index = 0;
    const Param *param = findParam(member.base, &index);
    if (!param || !param->type.isImage) {
      diags.error(member.getLoc(),
                  param ? "'" + member.base + "' is not an image"
                        : "unknown name '" + member.base + "'",
                  member.getRange());
      return false;
    }
    if (member.member != "width" && member.member != "height" &&
        member.member != "channels") {
      diags.error(member.memberRange.Start,
                  "images have 'width', 'height' and 'channels', not '" +
                      member.member + "'",
                  member.memberRange);
      return false;
    }
    if (param->type.isNv12 && member.member == "channels") {
      diags.error(member.memberRange.Start,
                  "an NV12 frame has planes, not channels", member.memberRange);
      return false;
    }
    member.imageParam = index;
    member.type = ScalarType::I32;
    return true;
  }

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

} // namespace

bool arvr::checkModule(ModuleAST &module, DiagnosticEngine &diags) {
  unsigned before = diags.getNumErrors();
  llvm::StringMap<const KernelDecl *> names;
  for (KernelDecl &kernel : module.kernels) {
    auto [it, inserted] = names.try_emplace(kernel.name, &kernel);
    if (!inserted) {
      diags.error(kernel.nameRange.Start,
                  "kernel '" + kernel.name + "' is defined twice",
                  kernel.nameRange);
      diags.note(it->second->nameRange.Start, "first defined here");
    }
    KernelChecker(kernel, diags).check();
  }
  return diags.getNumErrors() == before;
}
