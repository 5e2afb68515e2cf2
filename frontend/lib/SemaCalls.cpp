//===- SemaCalls.cpp - Semantic checks of calls ---------------------------===//
//
// Calls: builtins (casts, maths, min/max/clamp, select), reads of images
// and NV12 planes, sample(), and calls of the kernel's own functions (with
// their boundary modes).
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

/// "1 coordinate was given", "3 arguments were given": `count` of `noun`.
static std::string givenCount(size_t count, llvm::StringRef noun) {
  return std::to_string(count) + " " + noun.str() +
         (count == 1 ? " was" : "s were") + " given";
}

bool KernelChecker::checkArgCount(CallExpr &call, size_t count) {
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

bool KernelChecker::checkCall(CallExpr &call, const FuncDef *func) {
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
  return ok && checkBuiltin(call);
}

bool KernelChecker::checkBuiltin(CallExpr &call) {
  using Builtin = CallExpr::Builtin;
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
      common = unifyNumeric(*first, *call.args[i], what, call.args[i]->getLoc(),
                            call.getRange());
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

std::optional<BoundaryMode>
KernelChecker::methodBoundary(const CallExpr &call) {
  std::optional<BoundaryMode> mode = parseBoundaryModeName(call.method);
  if (!mode)
    diags.error(call.getLoc(),
                "unknown boundary mode '" + call.method +
                    "'; expected clamp, mirror, wrap or constant",
                call.getRange());
  return mode;
}

bool KernelChecker::checkFuncBoundaryRead(CallExpr &call, unsigned index,
                                          const FuncDef *caller) {
  FuncDef &callee = kernel.funcs[index];
  std::optional<BoundaryMode> mode = methodBoundary(call);
  if (!mode)
    return false;
  if (!callee.hasDomain()) {
    diags.error(call.calleeRange.Start,
                "'" + callee.name + "' is defined everywhere, so it has no '." +
                    call.method +
                    "(...)'; give it extents and a mode, as "
                    "in 'func " +
                    callee.name +
                    "(x, y)[src.width, "
                    "src.height] mirror = ...'",
                call.calleeRange);
    diags.note(callee.nameRange.Start, "'" + callee.name + "' is defined here");
    return false;
  }
  if (!checkFuncCall(call, index, caller))
    return false;
  call.boundary = *mode;
  return true;
}

bool KernelChecker::checkFuncCall(CallExpr &call, unsigned index,
                                  const FuncDef *caller) {
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
    diags.note(callee.nameRange.Start, "'" + callee.name + "' is defined here");
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

bool KernelChecker::checkFloatArgs(CallExpr &call, size_t count) {
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

bool KernelChecker::checkSample(CallExpr &call, const FuncDef *func) {
  call.builtin = CallExpr::Builtin::Sample;
  if (call.args.size() < 4 || call.args.size() > 5) {
    diags.error(call.getLoc(),
                "'sample' takes (image, u, v, c, bilinear|nearest), but " +
                    givenCount(call.args.size(), "argument"),
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

bool KernelChecker::checkImageRead(CallExpr &call, unsigned paramIndex,
                                   const FuncDef *func) {
  const Param &image = kernel.params[paramIndex];
  call.builtin = CallExpr::Builtin::ReadImage;
  call.imageParam = paramIndex;
  // The boundary: the access's own (`img.mirror(...)`), else the image's.
  call.boundary = image.type.boundary;
  if (image.type.isNv12)
    return checkNv12Read(call, image, func);
  if (!call.method.empty()) {
    std::optional<BoundaryMode> mode = methodBoundary(call);
    if (!mode)
      return false;
    call.boundary = *mode;
  }
  bool oneChannel = image.type.channels == 1;
  if (call.args.size() != 3 && !(oneChannel && call.args.size() == 2)) {
    diags.error(call.getLoc(),
                "reading image '" + image.name + "' takes (x, y, c)" +
                    llvm::Twine(oneChannel ? " or (x, y)" : "") + ", but " +
                    givenCount(call.args.size(), "coordinate"),
                call.getRange());
    return false;
  }
  if (!checkCoordinates(call.args, func))
    return false;
  call.type = image.type.scalar;
  return true;
}

bool KernelChecker::checkNv12Read(CallExpr &call, const Param &frame,
                                  const FuncDef *func) {
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
                    givenCount(call.args.size(), "coordinate"),
                call.getRange());
    return false;
  }
  if (!checkCoordinates(call.args, func))
    return false;
  call.type = ScalarType::U8;
  return true;
}
