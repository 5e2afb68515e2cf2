//===- ArvrOps.cpp - Operations of the arvr dialect -----------------------===//
//
// Builders, custom syntax, verifiers and folders of the arvr ops.
//
//===----------------------------------------------------------------------===//

#include "arvr/Dialect/ArvrDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"

using namespace mlir;
using namespace mlir::arvr;

#define GET_OP_CLASSES
#include "arvr/Dialect/ArvrOps.cpp.inc"

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

void KernelOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                     FunctionType type) {
  state.addAttribute(SymbolTable::getSymbolAttrName(),
                     builder.getStringAttr(name));
  state.addAttribute(getFunctionTypeAttrName(state.name), TypeAttr::get(type));
  state.addRegion();
}

ParseResult KernelOp::parse(OpAsmParser &parser, OperationState &result) {
  auto buildFuncType =
      [](Builder &builder, ArrayRef<Type> argTypes, ArrayRef<Type> results,
         function_interface_impl::VariadicFlag,
         std::string &) { return builder.getFunctionType(argTypes, results); };
  return function_interface_impl::parseFunctionOp(
      parser, result, /*allowVariadic=*/false,
      getFunctionTypeAttrName(result.name), buildFuncType,
      getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name));
}

void KernelOp::print(OpAsmPrinter &p) {
  function_interface_impl::printFunctionOp(
      p, *this, /*isVariadic=*/false, getFunctionTypeAttrName(),
      getArgAttrsAttrName(), getResAttrsAttrName());
}

LogicalResult KernelOp::verify() {
  for (Type type : getArgumentTypes())
    if (!isa<ImageType, NV12Type, IntegerType, FloatType, IndexType>(type))
      return emitOpError("parameters must be images or scalars, but got ")
             << type;
  if (getResultTypes().empty())
    return emitOpError("must produce at least one image");
  for (Type type : getResultTypes())
    if (!isa<ImageType>(type))
      return emitOpError("results must be images, but got ") << type;
  return success();
}

/// Names the entry block's arguments after the `.arvr` parameters, so that
/// printed IR reads `%src`, `%gain` instead of `%arg0`, `%arg1`.
void KernelOp::getAsmBlockArgumentNames(Region &region,
                                        OpAsmSetValueNameFn setNameFn) {
  if (region.empty())
    return;
  for (BlockArgument arg : region.getArguments())
    if (auto name =
            getArgAttrOfType<StringAttr>(arg.getArgNumber(), "arvr.name"))
      setNameFn(arg, name.getValue());
}

//===----------------------------------------------------------------------===//
// ReturnOp
//===----------------------------------------------------------------------===//

LogicalResult ReturnOp::verify() {
  auto kernel = (*this)->getParentOfType<KernelOp>();
  ArrayRef<Type> results = kernel.getResultTypes();
  if (getNumOperands() != results.size())
    return emitOpError("returns ")
           << getNumOperands() << " images, but the kernel produces "
           << results.size();
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(getOperandTypes(), results)))
    if (std::get<0>(pair) != std::get<1>(pair))
      return emitOpError("image #")
             << index << " has type " << std::get<0>(pair)
             << ", but the kernel's result has type " << std::get<1>(pair);
  return success();
}

//===----------------------------------------------------------------------===//
// StageOp
//===----------------------------------------------------------------------===//

bool StageOp::isOutput() {
  return llvm::any_of(getResult().getUsers(),
                      [](Operation *user) { return isa<ReturnOp>(user); });
}

LogicalResult StageOp::verify() {
  if (!getSizes().empty() && getSizes().size() != 3)
    return emitOpError("sizes are (width, height, channels), but ")
           << getSizes().size() << " were given";
  if (!getOrigin().empty() && getOrigin().size() != 3)
    return emitOpError("origin is (x, y, c), but ")
           << getOrigin().size() << " values were given";
  if (!getOrigin().empty() && getSizes().empty())
    return emitOpError("has an origin but no sizes");
  if (!hasSizes() && isOutput())
    return emitOpError("is returned by the kernel, so it needs its sizes");
  if (std::optional<ArrayRef<int64_t>> block = getGpuBlock()) {
    if (block->size() != 2 || (*block)[0] < 1 || (*block)[1] < 1 ||
        (*block)[0] * (*block)[1] > 1024)
      return emitOpError("gpu_block must be two positive sizes of at most "
                         "1024 threads in all");
  }
  if (getGpuShared() && isOutput())
    return emitOpError("is returned by the kernel, so it cannot live in "
                       "shared memory");
  if (getGpuShared() && getGpuBlock())
    return emitOpError("is computed in the thread blocks of its reader, so it "
                       "has no gpu_block of its own");
  if (std::optional<int64_t> pixels = getGpuPixels()) {
    if (*pixels < 1 || *pixels > 16)
      return emitOpError("gpu_pixels must be 1 to 16, not ") << *pixels;
    if (getGpuShared())
      return emitOpError("is computed in the thread blocks of its reader, so "
                         "it has no gpu_pixels of its own");
  }
  if (getInlined()) {
    if (hasSizes())
      return emitOpError("is inline, so it has no sizes of its own");
    if (getGpuBlock() || getGpuPixels() || getGpuShared())
      return emitOpError("is inline, so it has no GPU schedule of its own");
    for (Operation *user : getResult().getUsers()) {
      auto access = dyn_cast<AccessOp>(user);
      if (!access || access.getBoundary() != Boundary::in_bounds)
        return emitOpError("is inline, so it can only be read by "
                           "'arvr.access ... in_bounds'");
    }
  }
  Block &body = getBody().front();
  if (body.getNumArguments() != 3 ||
      !llvm::all_of(body.getArgumentTypes(),
                    [](Type type) { return type.isIndex(); }))
    return emitOpError(
        "region must take the coordinates (x, y, c) as three index values");
  if (!isa<YieldOp>(body.getTerminator()))
    return emitOpError("region must end in 'arvr.yield'");
  return success();
}

//===----------------------------------------------------------------------===//
// YieldOp
//===----------------------------------------------------------------------===//

LogicalResult YieldOp::verify() {
  Operation *parent = (*this)->getParentOp();
  if (auto reduce = dyn_cast<ReduceOp>(parent)) {
    if (reduce.isArg()) {
      if (!isa<IntegerType, FloatType>(getValue().getType()))
        return emitOpError()
               << stringifyReductionKind(reduce.getKind())
               << " compares numbers, not " << getValue().getType();
      return success();
    }
    if (getValue().getType() != reduce.getType())
      return emitOpError("yields ")
             << getValue().getType() << ", but the reduction computes "
             << reduce.getType();
    return success();
  }
  Type expected = cast<StageOp>(parent).getResult().getType().getScalarType();
  if (getValue().getType() != expected)
    return emitOpError("yields ")
           << getValue().getType() << ", but the stage's elements are "
           << expected;
  return success();
}

//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

/// Whether `inner`, nested in `outer`'s body, reads nothing `outer`'s body
/// defines (its index included): the same value in every copy of the body
/// (a normalising sum of weights), computed once after unrolling.
static bool isInvariantIn(ReduceOp inner, ReduceOp outer) {
  Region &body = outer.getBody();
  auto outside = [&](Value v) {
    return !body.isAncestor(v.getParentRegion()) ||
           inner->isAncestor(v.getParentRegion()->getParentOp());
  };
  if (!llvm::all_of(inner->getOperands(), outside))
    return false;
  return !inner.getBody()
              .walk([&](Operation *op) {
                return llvm::all_of(op->getOperands(), outside)
                           ? WalkResult::advance()
                           : WalkResult::interrupt();
              })
              .wasInterrupted();
}

/// The terms the body of `reduce` copies once unrolled: the unrolled
/// sizes of the reductions directly nested in it that depend on it, or 1.
static int64_t bodyTerms(ReduceOp reduce) {
  int64_t terms = 0;
  reduce.getBody().walk<WalkOrder::PreOrder>([&](ReduceOp inner) {
    if (!isInvariantIn(inner, reduce))
      terms += inner.getUnrolledTerms();
    return WalkResult::skip();
  });
  return std::max<int64_t>(1, terms);
}

/// The most operations the full unrolling of a reduction may copy (its
/// count times the operations of its body, as bodyOps counts them): the
/// terms' budget alone let a 9x9 bilateral's heavy terms unroll into a
/// kernel LLVM took seconds to compile.
static constexpr int64_t kFullUnrollOpBudget = 256;

/// The operations `region` holds once its reads of inline stages are
/// replaced by their bodies and its reductions unrolled as they will be
/// (a reduction that does not depend on `parent`'s body counts once: it
/// is computed once). `depth` bounds the stages followed.
static int64_t regionOps(Region &region, ReduceOp parent, int depth = 0) {
  int64_t ops = 0;
  region.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (auto inner = dyn_cast<ReduceOp>(op)) {
      bool invariant = parent && isInvariantIn(inner, parent);
      int64_t body = regionOps(inner.getBody(), inner, depth);
      std::optional<int64_t> count = inner.getFullUnroll();
      ops += invariant ? 1 : (count ? *count : 1) * body;
      return WalkResult::skip();
    }
    ++ops;
    if (auto access = dyn_cast<AccessOp>(op))
      if (auto stage = access.getImage().getDefiningOp<StageOp>();
          stage && stage.getInlined() && depth < 8)
        ops += regionOps(stage.getBody(), ReduceOp(), depth + 1);
    return WalkResult::advance();
  });
  return ops;
}

std::optional<int64_t> ReduceOp::getFullUnroll() {
  IntegerAttr lower, upper;
  if (getUnroll() || !matchPattern(getLower(), m_Constant(&lower)) ||
      !matchPattern(getUpper(), m_Constant(&upper)))
    return std::nullopt;
  int64_t count = upper.getInt() - lower.getInt() + 1;
  if (count <= 1 || count > kFullUnrollBudget ||
      count * bodyTerms(*this) > kFullUnrollBudget ||
      count * regionOps(getBody(), *this) > kFullUnrollOpBudget)
    return std::nullopt;
  return count;
}

int64_t ReduceOp::getUnrolledTerms() {
  std::optional<int64_t> count = getFullUnroll();
  return count ? *count * bodyTerms(*this) : 1;
}

LogicalResult ReduceOp::verify() {
  Block &body = getBody().front();
  if (body.getNumArguments() != 1 ||
      !body.getArgument(0).getType().isSignlessInteger(32))
    return emitOpError("region must take the reduction variable as one i32");
  if (!isa<YieldOp>(body.getTerminator()))
    return emitOpError("region must end in 'arvr.yield'");
  if (isArg() && !getType().isSignlessInteger(32))
    return emitOpError() << stringifyReductionKind(getKind())
                         << " gives an i32 index, not " << getType();
  if (std::optional<int64_t> unroll = getUnroll();
      unroll && (*unroll < 1 || *unroll > 64))
    return emitOpError("unroll must be 1 to 64, not ") << *unroll;
  return success();
}

//===----------------------------------------------------------------------===//
// AccessOp folding
//===----------------------------------------------------------------------===//

OpFoldResult AccessOp::fold(FoldAdaptor) {
  // A stage of one value everywhere: a constant, or a value from before
  // the stage (which dominates this read, a later op of the kernel).
  auto stage = getImage().getDefiningOp<StageOp>();
  // (A stage being lowered may have given its body away already.)
  if (!stage || getBoundary() == Boundary::constant ||
      stage.getBody().empty() || !stage.getBody().front().mightHaveTerminator())
    return {};
  auto yield = dyn_cast<YieldOp>(stage.getBody().front().getTerminator());
  if (!yield)
    return {};
  Value value = yield.getValue();
  Attribute constant;
  if (matchPattern(value, m_Constant(&constant)))
    return constant;
  if (!stage->isAncestor(value.getParentRegion()->getParentOp()))
    return value;
  return {};
}

//===----------------------------------------------------------------------===//
// PlaneOp
//===----------------------------------------------------------------------===//

LogicalResult PlaneOp::verify() {
  ImageType type = getResult().getType();
  int64_t channels = getPlane() == Plane::y ? 1 : 2;
  auto u8 = IntegerType::get(getContext(), 8, IntegerType::Unsigned);
  if (type.getElementType() != u8 || type.getChannels() != channels)
    return emitOpError("the ")
           << stringifyPlane(getPlane()) << " plane is !arvr.image<ui8, "
           << channels << ">, not " << type;
  return success();
}

//===----------------------------------------------------------------------===//
// DimOp
//===----------------------------------------------------------------------===//

OpFoldResult DimOp::fold(FoldAdaptor) {
  auto type = getImage().getType();
  if (getDim() == Dim::channels && type.hasStaticChannels())
    return IntegerAttr::get(IndexType::get(getContext()), type.getChannels());
  // The size of a stage's image is the size it was defined with.
  if (auto stage = getImage().getDefiningOp<StageOp>();
      stage && stage.hasSizes()) {
    switch (getDim()) {
    case Dim::width:
      return stage.getWidth();
    case Dim::height:
      return stage.getHeight();
    case Dim::channels:
      return stage.getChannels();
    }
  }
  return {};
}

//===----------------------------------------------------------------------===//
// AccessOp, SampleOp
//===----------------------------------------------------------------------===//

/// `padding` is present exactly for the constant boundary, with the type of
/// an element of `image`.
static LogicalResult verifyBoundary(Operation *op, ImageType image,
                                    Boundary boundary,
                                    std::optional<TypedAttr> padding) {
  if (boundary == Boundary::constant) {
    if (!padding)
      return op->emitOpError("with a constant boundary needs a padding value");
    if (padding->getType() != image.getScalarType())
      return op->emitOpError("padding has type ")
             << padding->getType() << ", but the image's elements are "
             << image.getScalarType();
    return success();
  }
  if (padding)
    return op->emitOpError("has a padding value, but its boundary is '")
           << stringifyBoundary(boundary) << "'";
  return success();
}

LogicalResult AccessOp::verify() {
  return verifyBoundary(*this, getImage().getType(), getBoundary(),
                        getPadding());
}

LogicalResult SampleOp::verify() {
  if (getBoundary() == Boundary::in_bounds)
    return emitOpError("cannot be 'in_bounds': a sample may reach outside "
                       "the image");
  return verifyBoundary(*this, getImage().getType(), getBoundary(),
                        getPadding());
}
