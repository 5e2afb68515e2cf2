//===- Specialize.cpp - Known values as constants; constant stages inlined ===//
//
// Two rewrites of arvr kernels that give later passes constants to fold:
//
// 1. Specialisation. Each `name=value` of the pass's `values` makes a
//    scalar parameter (`sigma=2.0`) a constant, or the channel count of an
//    image parameter (`src.channels=3`) one: every use of the argument, or
//    every `arvr.dim` of that image's channels, reads the constant, and the
//    image's type gets that channel count. The
//    kernel keeps its signature, so callers bind the same arguments (a
//    specialised scalar's argument is ignored). An unknown name, a value
//    that does not parse as the parameter's type, or a channel count that
//    contradicts the image's type is an error. An output whose channel
//    count becomes a constant (one sized by a specialised image) gets it in
//    its type, and the kernel's results with it.
//
// 2. Constant stages. A stage computed at the root whose value depends on
//    nothing but its coordinates and constants (no image, no parameter,
//    only other such stages), and whose every read is at coordinates known
//    once reductions over constant ranges are unrolled completely (those
//    within ReduceOp's budget of 16 terms per nest, as
//    convert-arvr-to-loops unrolls them), becomes `inline`:
//    arvr-inline-stages then copies it into its readers, where it folds to
//    constants (a Gaussian's weight table and its sum, with sigma and the
//    radius known), instead of being computed by a launch of its own on
//    every run. A read inside such a stage, at its coordinates, counts as
//    known (normalised weights made of a weight table and its sum). Stages
//    read at pixel-dependent places stay where they are.
//
// Runs first in the dialect pipeline, before arvr-inline-stages.
//
//===----------------------------------------------------------------------===//

#include "arvr/Dialect/ArvrDialect.h"
#include "arvr/Lowering/Passes.h"

#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRSPECIALIZE
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;
using namespace mlir::arvr;

namespace {

/// The constant `text` of scalar type `type`, or null with `error` set.
static TypedAttr parseScalar(Builder &b, Type type, StringRef text,
                             std::string &error) {
  std::string s = text.str();
  char *end = nullptr;
  errno = 0;
  if (type.isF32()) {
    float f = std::strtof(s.c_str(), &end);
    if (!s.empty() && !*end && errno != ERANGE && std::isfinite(f))
      return b.getF32FloatAttr(f);
    error = "is f32, but '" + s + "' is not a finite number";
    return {};
  }
  if (type.isInteger(1)) {
    if (s == "true" || s == "1" || s == "false" || s == "0")
      return b.getBoolAttr(s == "true" || s == "1");
    error = "is bool, but '" + s + "' is neither true nor false";
    return {};
  }
  if (type.isInteger(32)) {
    long long i = std::strtoll(s.c_str(), &end, 10);
    if (!s.empty() && !*end && errno != ERANGE && i >= INT32_MIN &&
        i <= INT32_MAX)
      return b.getI32IntegerAttr(static_cast<int32_t>(i));
    error = "is i32, but '" + s + "' is not a 32-bit integer";
    return {};
  }
  error = "cannot be specialised";
  return {};
}

/// The argument of `kernel` named `name` (its `arvr.name`), or null.
static BlockArgument argumentNamed(KernelOp kernel, StringRef name) {
  for (BlockArgument arg : kernel.getBody().getArguments())
    if (auto attr = kernel.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                        "arvr.name");
        attr && attr.getValue() == name)
      return arg;
  return {};
}

/// Applies `name=value` to `kernel`; false (reported) if it cannot.
static bool specialize(KernelOp kernel, StringRef assignment) {
  auto [name, text] = assignment.split('=');
  if (!assignment.contains('=') || name.empty())
    return kernel.emitError("specialisation '")
               << assignment << "' is not of the form name=value",
           false;
  auto [param, property] = name.split('.');
  BlockArgument arg = argumentNamed(kernel, param);
  if (!arg)
    return true; // Another kernel's (the pass checks that one has it).
  OpBuilder b(kernel.getBody());
  std::string error;
  if (auto image = dyn_cast<ImageType>(arg.getType())) {
    long long channels = 0;
    if (property != "channels" || text.getAsInteger(10, channels) ||
        channels < 1 || channels > 4 ||
        (image.hasStaticChannels() && image.getChannels() != channels))
      return kernel.emitError("'")
                 << assignment << "': an image specialises as " << param
                 << ".channels=N, N from 1 to 4"
                 << (image.hasStaticChannels() ? " and its type's own count"
                                               : ""),
             false;
    // The image's type says so too: its memref then has constant strides.
    auto refined =
        ImageType::get(kernel.getContext(), image.getElementType(), channels);
    arg.setType(refined);
    SmallVector<Type> inputs(kernel.getFunctionType().getInputs());
    inputs[arg.getArgNumber()] = refined;
    kernel.setFunctionTypeAttr(TypeAttr::get(FunctionType::get(
        kernel.getContext(), inputs, kernel.getFunctionType().getResults())));
    Value constant =
        arith::ConstantIndexOp::create(b, kernel.getLoc(), channels);
    kernel.walk([&](DimOp dim) {
      if (dim.getImage() == arg && dim.getDim() == Dim::channels) {
        dim.replaceAllUsesWith(constant);
        dim.erase();
      }
    });
    return true;
  }
  if (!property.empty())
    return kernel.emitError("'") << assignment << "': '" << param
                                 << "' is a scalar, not an image",
           false;
  TypedAttr value = parseScalar(b, arg.getType(), text, error);
  if (!value)
    return kernel.emitError("parameter '") << param << "' " << error, false;
  Value constant = arith::ConstantOp::create(b, kernel.getLoc(), value);
  arg.replaceAllUsesWith(constant);
  return true;
}

/// Whether `v` is known when compiling once reductions of a few terms over
/// constant ranges are unrolled.
static bool isCompileTime(Value v) {
  if (matchPattern(v, m_Constant()))
    return true;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    // The variable of a reduction unrolled completely is a constant in
    // each copy of its body.
    Operation *owner = arg.getOwner()->getParentOp();
    if (auto reduce = dyn_cast<ReduceOp>(owner))
      return reduce.getFullUnroll().has_value();
    // A coordinate of a stage to be inlined, whose every read is at
    // places known when compiling.
    auto stage = dyn_cast<StageOp>(owner);
    return stage && stage.getInlined();
  }
  Operation *op = v.getDefiningOp();
  return op->getNumRegions() == 0 && isPure(op) &&
         op->getDialect()->getNamespace() == "arith" &&
         llvm::all_of(op->getOperands(), isCompileTime);
}

/// Whether `stage` computes a value of its coordinates and constants only.
static bool isConstantStage(StageOp stage, const DenseSet<Operation *> &known) {
  if (stage.getInlined() || stage.getGpuShared() || stage.isOutput())
    return false;
  bool constant = true;
  stage.getBody().walk([&](Operation *op) {
    for (Value operand : op->getOperands()) {
      Region *region = operand.getParentRegion();
      if (stage.getBody().isAncestor(region))
        continue; // Its own values and coordinates.
      if (matchPattern(operand, m_Constant()))
        continue;
      Operation *def = operand.getDefiningOp();
      if (def && known.contains(def))
        continue; // A read of another constant stage.
      constant = false;
    }
  });
  return constant;
}

/// Marks `inline` the constant stages of `kernel` read only at places
/// known when compiling. Constant stages are found in order (one is made
/// of earlier ones), then marked readers first: a read inside a stage
/// marked inline, at its coordinates, is at its own reads' places (a
/// weight read by normalised weights that are read at a reduction's
/// unrolled index).
static void inlineConstantStages(KernelOp kernel) {
  DenseSet<Operation *> constants;
  SmallVector<StageOp> order;
  kernel.walk([&](StageOp stage) {
    if (!isConstantStage(stage, constants))
      return;
    constants.insert(stage);
    order.push_back(stage);
  });
  for (StageOp stage : llvm::reverse(order)) {
    bool readsKnown = llvm::all_of(stage->getUsers(), [&](Operation *user) {
      auto access = dyn_cast<AccessOp>(user);
      return access && access.getBoundary() == Boundary::in_bounds &&
             isCompileTime(access.getX()) && isCompileTime(access.getY()) &&
             isCompileTime(access.getC());
    });
    if (!readsKnown || stage.hasSizes())
      continue;
    stage.setInlined(true);
    stage.removeGpuBlockAttr();
    stage.removeGpuPixelsAttr();
  }
}

/// Gives each output of `kernel` whose channel count has become a
/// constant (an output sized by a specialised image) that count in its
/// type, and the kernel's results too: its memref then has constant
/// strides, and its pixels' bytes can be written together.
static void refineOutputs(KernelOp kernel) {
  bool changed = false;
  kernel.walk([&](StageOp stage) {
    auto type = dyn_cast<ImageType>(stage.getResult().getType());
    IntegerAttr channels;
    if (!stage.isOutput() || !type || type.hasStaticChannels() ||
        stage.getSizes().size() != 3 ||
        !matchPattern(stage.getSizes()[2], m_Constant(&channels)) ||
        channels.getInt() < 1 || channels.getInt() > 4)
      return;
    stage.getResult().setType(ImageType::get(
        kernel.getContext(), type.getElementType(), channels.getInt()));
    changed = true;
  });
  if (!changed)
    return;
  kernel.walk([&](ReturnOp ret) {
    kernel.setFunctionTypeAttr(TypeAttr::get(FunctionType::get(
        kernel.getContext(), kernel.getFunctionType().getInputs(),
        ret.getOperandTypes())));
  });
}

struct ArvrSpecializePass
    : public arvr::impl::ArvrSpecializeBase<ArvrSpecializePass> {
  using ArvrSpecializeBase::ArvrSpecializeBase;

  void runOnOperation() override {
    bool ok = true;
    for (const std::string &assignment : values) {
      StringRef param = StringRef(assignment).split('=').first.split('.').first;
      bool found = false;
      getOperation().walk([&](KernelOp kernel) {
        found |= static_cast<bool>(argumentNamed(kernel, param));
      });
      if (!found) {
        // Reported at the (first) kernel, with the names it has.
        KernelOp first;
        getOperation().walk([&](KernelOp kernel) {
          if (!first)
            first = kernel;
        });
        std::string names;
        if (first)
          for (unsigned i = 0, e = first.getNumArguments(); i != e; ++i)
            if (auto name = first.getArgAttrOfType<StringAttr>(i, "arvr.name"))
              names += (names.empty() ? "" : ", ") + name.getValue().str();
        Operation *at = first ? first.getOperation() : getOperation();
        at->emitError("no kernel has a parameter '")
            << param << "' to specialise ('" << assignment << "')"
            << (names.empty() ? "" : "; the parameters are " + names);
        ok = false;
      }
    }
    getOperation().walk([&](KernelOp kernel) {
      for (const std::string &assignment : values)
        ok &= specialize(kernel, assignment);
    });
    if (!ok)
      return signalPassFailure();
    // Fold what the constants decide (a reduction from 0 - radius), with no
    // pattern but folding, so that constant ranges are seen as such.
    (void)applyPatternsGreedily(
        getOperation(),
        FrozenRewritePatternSet(RewritePatternSet(&getContext())));
    getOperation().walk([&](KernelOp kernel) {
      refineOutputs(kernel);
      inlineConstantStages(kernel);
    });
  }
};

} // namespace
