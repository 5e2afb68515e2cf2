//===- SemaSchedule.cpp - Semantic checks of a kernel's schedule ---------===//
//
// The `schedule { f.directive(args); }` block: each line names a function
// of the kernel and a directive it accepts, once, with its arguments.
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

void KernelChecker::checkSchedule() {
  std::vector<const ScheduleDirective *> rootSet(kernel.funcs.size()),
      tileSet(kernel.funcs.size()), pixelsSet(kernel.funcs.size()),
      unrollSet(kernel.funcs.size());
  // compute_root first, so that gpu_tile may come before it.
  for (ScheduleDirective &directive : kernel.schedule)
    checkRootDirective(directive, rootSet);
  for (ScheduleDirective &directive : kernel.schedule)
    if ((directive.directive == "gpu_pixels" ||
         directive.directive == "unroll") &&
        findFuncIndex(directive.func))
      checkCountDirective(directive, directive.directive == "gpu_pixels"
                                         ? pixelsSet
                                         : unrollSet);
  for (ScheduleDirective &directive : kernel.schedule)
    if (directive.directive == "gpu_tile" && findFuncIndex(directive.func))
      checkTileDirective(directive, tileSet);
}

std::optional<unsigned> KernelChecker::findFuncIndex(llvm::StringRef name) {
  for (auto [index, func] : llvm::enumerate(kernel.funcs))
    if (func.name == name)
      return index;
  return std::nullopt;
}

bool KernelChecker::checkDirectiveArgs(const ScheduleDirective &directive,
                                       size_t count, llvm::StringRef form) {
  if (directive.args.size() == count)
    return true;
  diags.error(directive.directiveRange.Start,
              "'" + directive.directive + "' takes " + llvm::Twine(count) +
                  " argument" + (count == 1 ? "" : "s") + ": " + form,
              directive.directiveRange);
  return false;
}

bool KernelChecker::scheduledTwice(const ScheduleDirective *&slot,
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
}

bool KernelChecker::hasOwnLaunch(const FuncDef &func,
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
}

void KernelChecker::checkRootDirective(
    ScheduleDirective &directive,
    std::vector<const ScheduleDirective *> &rootSet) {
  std::optional<unsigned> index = findFuncIndex(directive.func);
  if (!index) {
    diags.error(directive.funcRange.Start,
                "the schedule names '" + directive.func +
                    "', which is not a function of kernel '" + kernel.name +
                    "'",
                directive.funcRange);
    return;
  }
  directive.funcIndex = *index;
  FuncDef &func = kernel.funcs[*index];
  if (directive.directive == "compute_root" ||
      directive.directive == "compute_shared") {
    if (!checkDirectiveArgs(directive, 0, directive.directive + "()"))
      return;
    if (rootSet[*index]) {
      diags.error(directive.directiveRange.Start,
                  "'" + directive.func + "' is already scheduled with '" +
                      rootSet[*index]->directive + "'",
                  directive.directiveRange);
      diags.note(rootSet[*index]->directiveRange.Start, "first scheduled here");
      return;
    }
    rootSet[*index] = &directive;
    if (func.isOutput()) {
      diags.error(directive.directiveRange.Start,
                  "'" + func.name +
                      "' is an output, always computed at the root; only "
                      "the functions it calls can be scheduled so",
                  directive.directiveRange);
      return;
    }
    bool shared = directive.directive == "compute_shared";
    if (func.vars.size() > 3) {
      diags.error(directive.directiveRange.Start,
                  "'" + func.name + "' has " + llvm::Twine(func.vars.size()) +
                      " coordinates; only a function of at most 3 (x, "
                      "y, c) can be stored, so it stays inline",
                  directive.directiveRange);
      return;
    }
    if (shared && func.hasDomain()) {
      diags.error(directive.directiveRange.Start,
                  "'" + func.name +
                      "' has extents, so it is computed whole over them "
                      "(at the root), not in the tiles of its reader",
                  directive.directiveRange);
      diags.note(func.extentsRange.Start, "its extents are given here");
      return;
    }
    if (shared && func.vars.size() != 2 && func.vars.size() != 3) {
      diags.error(directive.directiveRange.Start,
                  "only a function of (x, y) or (x, y, c) can be "
                  "computed in shared memory; '" +
                      func.name + "' has " + llvm::Twine(func.vars.size()) +
                      " coordinate" + (func.vars.size() == 1 ? "" : "s") +
                      " (compute_root() stores it as a table)",
                  directive.directiveRange);
      diags.note(func.nameRange.Start, "'" + func.name + "' is defined here");
      return;
    }
    if (func.state == FuncDef::State::Checked &&
        func.type == ScalarType::Bool) {
      diags.error(directive.directiveRange.Start,
                  "'" + func.name +
                      "' has bool values, which cannot be stored in an "
                      "image; compute u8(...) of it instead",
                  directive.directiveRange);
      return;
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

void KernelChecker::checkCountDirective(
    ScheduleDirective &directive, std::vector<const ScheduleDirective *> &set) {
  if ((directive.directive != "gpu_pixels" &&
       directive.directive != "unroll") ||
      !findFuncIndex(directive.func))
    return;
  FuncDef &func = kernel.funcs[directive.funcIndex];
  bool pixels = directive.directive == "gpu_pixels";
  if (!checkDirectiveArgs(directive, 1,
                          pixels
                              ? "gpu_pixels(n), points per GPU thread"
                              : "unroll(n), times to unroll each reduction") ||
      scheduledTwice(set[directive.funcIndex], directive))
    return;
  int64_t n = directive.args[0].first, most = pixels ? 16 : 64;
  if (n < 1 || n > most) {
    diags.error(directive.args[0].second.Start,
                directive.directive + " takes 1 to " + llvm::Twine(most) +
                    ", not " + llvm::Twine(n),
                directive.args[0].second);
    return;
  }
  if (pixels) {
    if (hasOwnLaunch(func, directive))
      func.gpuPixels = n;
    return;
  }
  if (!hasReduction(func)) {
    diags.error(directive.directiveRange.Start,
                "'" + func.name + "' has no reduction to unroll",
                directive.directiveRange);
    return;
  }
  func.unroll = n;
}

void KernelChecker::checkTileDirective(
    ScheduleDirective &directive,
    std::vector<const ScheduleDirective *> &tileSet) {
  if (directive.directive != "gpu_tile" || !findFuncIndex(directive.func))
    return;
  FuncDef &func = kernel.funcs[directive.funcIndex];
  if (!checkDirectiveArgs(directive, 2, "gpu_tile(x, y), threads per block") ||
      scheduledTwice(tileSet[directive.funcIndex], directive))
    return;
  if (!hasOwnLaunch(func, directive))
    return;
  int64_t x = directive.args[0].first, y = directive.args[1].first;
  if (x < 1 || y < 1 || x * y > 1024) {
    llvm::SMRange range(directive.args[0].second.Start,
                        directive.args[1].second.End);
    diags.error(range.Start,
                "a GPU tile of " + llvm::Twine(x) + "x" + llvm::Twine(y) +
                    " threads is not a CUDA block: each side at least 1, "
                    "at most 1024 threads in all",
                range);
    return;
  }
  func.gpuTileX = x;
  func.gpuTileY = y;
}

bool KernelChecker::hasReduction(const FuncDef &func) {
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
  return llvm::any_of(func.lets,
                      [&](const Binding &let) { return visit(*let.value); }) ||
         visit(*func.body);
}
