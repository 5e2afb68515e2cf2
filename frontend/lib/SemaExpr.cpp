//===- SemaExpr.cpp - Semantic checks of expressions and reductions ------===//
//
// Types, names and operators of expressions; reductions, their ranges and
// lets; image sizes; what is uniform (the same at every pixel).
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

void KernelChecker::makeFloat(Expr &expr) {
  expr.type = ScalarType::F32;
  if (auto *unary = llvm::dyn_cast<UnaryExpr>(&expr))
    makeFloat(*unary->operand);
}

bool KernelChecker::isIntLiteral(const Expr &expr) {
  if (auto *unary = llvm::dyn_cast<UnaryExpr>(&expr))
    return unary->op == UnaryExpr::Op::Neg && isIntLiteral(*unary->operand);
  return llvm::isa<IntLitExpr>(&expr);
}

bool KernelChecker::checkExpr(Expr &expr, const FuncDef *func) {
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

std::optional<KernelChecker::NameBinding>
KernelChecker::lookupName(llvm::StringRef name, const FuncDef *func) {
  using Kind = VarExpr::Binding;
  for (size_t depth = reductions.size(); depth-- > 0;) {
    const ReduceExpr &reduce = *reductions[depth];
    for (size_t i = reductionLets[depth]; i-- > 0;)
      if (reduce.lets[i].name == name)
        return NameBinding{Kind::ReduceLet, unsigned(depth), unsigned(i),
                           reduce.lets[i].value->type};
    if (reduce.var == name)
      return NameBinding{Kind::ReduceVar, unsigned(depth), 0, ScalarType::I32};
  }
  if (func) {
    for (auto [index, coord] : llvm::enumerate(func->vars))
      if (coord.first == name)
        return NameBinding{Kind::Coordinate, unsigned(index), 0,
                           ScalarType::I32};
    for (size_t i = std::min<size_t>(visibleLets, func->lets.size()); i-- > 0;)
      if (func->lets[i].name == name)
        return NameBinding{Kind::Let, unsigned(i), 0,
                           func->lets[i].value->type};
  }
  unsigned index = 0;
  if (findConst(name, &index))
    return NameBinding{Kind::Const, index, 0, kernel.consts[index].value->type};
  if (const Param *param = findParam(name, &index))
    return NameBinding{Kind::Param, index, 0, param->type.scalar};
  return std::nullopt;
}

bool KernelChecker::checkVar(VarExpr &var, const FuncDef *func) {
  if (std::optional<NameBinding> found = lookupName(var.name, func)) {
    if (found->kind == VarExpr::Binding::Param) {
      const Param &param = kernel.params[found->index];
      if (param.type.isImage) {
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
    }
    var.binding = found->kind;
    var.index = found->index;
    var.let = found->let;
    var.type = found->type;
    return true;
  }
  diags.error(var.getLoc(), "unknown name '" + var.name + "'", var.getRange());
  return false;
}

bool KernelChecker::checkUnary(UnaryExpr &unary, const FuncDef *func) {
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

std::optional<ScalarType> KernelChecker::unifyNumeric(Expr &lhs, Expr &rhs,
                                                      llvm::StringRef what,
                                                      llvm::SMLoc loc,
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

bool KernelChecker::checkBinary(BinaryExpr &binary, const FuncDef *func) {
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
    diags.error(binary.opLoc, "'%' needs integer operands", binary.getRange());
    return false;
  }
  binary.operandType = *common;
  bool comparison = binary.op >= Op::Lt && binary.op <= Op::Ne;
  binary.type = comparison ? ScalarType::Bool : *common;
  return true;
}

bool KernelChecker::checkCoordinates(std::vector<ExprPtr> &args,
                                     const FuncDef *func) {
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

bool KernelChecker::isUniform(const Expr &expr) {
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

std::optional<int64_t> KernelChecker::literalValue(const Expr &expr) {
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

bool KernelChecker::checkReduce(ReduceExpr &reduce, const FuncDef *func) {
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
                "reduction variable '" + reduce.var + "' hides the kernel's '" +
                    reduce.var + "'",
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

bool KernelChecker::isNameInSight(llvm::StringRef name, const FuncDef *func) {
  return lookupName(name, func).has_value();
}

bool KernelChecker::checkReductionLets(ReduceExpr &reduce,
                                       const FuncDef *func) {
  // By index: a let's value may hold reductions, which push onto
  // reductionLets (a reference into it would dangle).
  size_t depth = reductionLets.size() - 1;
  for (; reductionLets[depth] < reduce.lets.size(); ++reductionLets[depth]) {
    Binding &let = reduce.lets[reductionLets[depth]];
    if (isNameInSight(let.name, func)) {
      diags.error(let.nameRange.Start,
                  "'let " + let.name +
                      "' hides a name already defined "
                      "here (a coordinate, parameter, constant, let or "
                      "reduction variable)",
                  let.nameRange);
      return false;
    }
    if (!checkExpr(*let.value, func))
      return false;
  }
  return true;
}

bool KernelChecker::checkMember(MemberExpr &member) {
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
