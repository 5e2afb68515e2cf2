//===- Sema.cpp - Semantic checks of .arvr kernels ------------------------===//
//
// checkModule: each kernel checked by a KernelChecker (SemaChecker.h). Here,
// its declarations: parameters and their defaults, outputs and their sizes,
// constants, functions (helpers with their extents, outputs), and the
// lookups of names; the schedule, expressions and calls are in the other
// Sema*.cpp files.
//
//===----------------------------------------------------------------------===//

#include "SemaChecker.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>

using namespace arvr;
using namespace arvr::sema;

std::string arvr::sema::formatNumber(double v) {
  char text[32];
  std::snprintf(text, sizeof(text), "%g", v);
  return text;
}

void KernelChecker::check() {
  checkParams();
  checkOutputs();
  checkConsts();
  checkOutputSizes();
  checkFuncs();
  checkSchedule();
  warnUnusedParams();
}

void KernelChecker::warnUnusedParams() {
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

std::optional<unsigned> KernelChecker::findParamIndex(llvm::StringRef name) {
  unsigned index = 0;
  if (findParam(name, &index))
    return index;
  return std::nullopt;
}

void KernelChecker::checkParams() {
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

void KernelChecker::checkDefault(Param &param) {
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

void KernelChecker::checkPadding(const TypeSpec &type) {
  checkPadding(type.padding, type.scalar, type.boundaryRange);
}

void KernelChecker::checkPadding(double v, ScalarType scalar,
                                 llvm::SMRange where) {
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

void KernelChecker::checkOutputSizes() {
  for (OutputDecl &output : kernel.outputs)
    if (output.width)
      checkOutputSize(output);
}

void KernelChecker::checkOutputSize(OutputDecl &output) {
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

void KernelChecker::checkConsts() {
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

void KernelChecker::checkOutputs() {
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

void KernelChecker::checkOutput(const TypeSpec &output) {
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

void KernelChecker::checkFuncs() {
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
                  "kernel '" + kernel.name + "' does not define its output '" +
                      output.name + "': add 'func " + output.name +
                      "(x, y, c) = ...;'",
                  output.nameRange);
  }
  for (FuncDef &func : kernel.funcs)
    checkFunc(func);
}

bool KernelChecker::checkFunc(FuncDef &func) {
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

bool KernelChecker::checkScope(FuncDef &func) {
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

bool KernelChecker::checkHelperFunc(FuncDef &func) {
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

bool KernelChecker::checkDomain(FuncDef &func) {
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

bool KernelChecker::checkOutputFunc(FuncDef &func) {
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
                    llvm::Twine(oneChannel ? " or (x, y)" : "") + ", but has " +
                    llvm::Twine(func.vars.size()),
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

bool KernelChecker::isBuiltinName(llvm::StringRef name) {
  return llvm::StringSwitch<bool>(name)
      .Cases({"u8_sat", "u16_sat", "min",    "max",      "sum",
              "clamp",  "abs",     "image",  "nv12",     "select",
              "sqrt",   "exp",     "log",    "pow",      "sin",
              "cos",    "tan",     "atan2",  "floor",    "ceil",
              "round",  "lerp",    "sample", "bilinear", "nearest"},
             true)
      .Default(false);
}

const Binding *KernelChecker::findConst(llvm::StringRef name, unsigned *index) {
  for (auto [i, constant] : llvm::enumerate(kernel.consts))
    if (constant.name == name) {
      if (index)
        *index = i;
      return &constant;
    }
  return nullptr;
}

const Param *KernelChecker::findParam(llvm::StringRef name, unsigned *index) {
  for (auto [i, param] : llvm::enumerate(kernel.params))
    if (param.name == name) {
      if (index)
        *index = i;
      return &param;
    }
  return nullptr;
}

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
