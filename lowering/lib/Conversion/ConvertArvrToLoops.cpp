//===- ConvertArvrToLoops.cpp - arvr to scf/memref/arith ------------------===//
//
// Lowers arvr kernels to loops over memrefs with DialectConversion.
//
// Preconditions: the module holds verified arvr kernels whose stages all
// have windows (arvr-infer-bounds). Afterwards no arvr op is left: each
// kernel is a `func.func` in destination-passing style,
// `(inputs..., scalars..., outputs...) -> ()`; returned stages write
// straight into their output buffers, the others into buffers allocated in
// the function.
//
//===----------------------------------------------------------------------===//

#include "arvr/Dialect/ArvrDialect.h"
#include "arvr/Lowering/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/DialectConversion.h"

#include <cmath>
#include <cstdint>

namespace mlir::arvr {
#define GEN_PASS_DEF_CONVERTARVRTOLOOPS
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;
using namespace mlir::arvr;

/// The memref dimension holding one size of an image: images are stored as
/// memref<height x width x channels x T>.
static int64_t memrefDimOf(Dim dim) {
  switch (dim) {
  case Dim::height:
    return 0;
  case Dim::width:
    return 1;
  case Dim::channels:
    return 2;
  }
  llvm_unreachable("unknown image dimension");
}

namespace {

//===----------------------------------------------------------------------===//
// Kernels and their outputs
//===----------------------------------------------------------------------===//

/// arvr.kernel -> func.func taking (parameters..., outputs...).
struct KernelOpLowering : public OpConversionPattern<KernelOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(KernelOp kernel, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const TypeConverter &converter = *getTypeConverter();
    FunctionType type = kernel.getFunctionType();

    TypeConverter::SignatureConversion signature(type.getNumInputs());
    for (auto [index, input] : llvm::enumerate(type.getInputs())) {
      Type converted = converter.convertType(input);
      if (!converted)
        return rewriter.notifyMatchFailure(kernel, "unconvertible parameter");
      signature.addInputs(index, converted);
    }
    SmallVector<Type> outputs;
    if (failed(converter.convertTypes(type.getResults(), outputs)))
      return rewriter.notifyMatchFailure(kernel, "unconvertible output");
    signature.addInputs(outputs);

    auto func = func::FuncOp::create(
        rewriter, kernel.getLoc(), kernel.getSymName(),
        rewriter.getFunctionType(signature.getConvertedTypes(), {}));
    func->setAttr("llvm.emit_c_interface", rewriter.getUnitAttr());
    for (unsigned i = 0, e = type.getNumInputs(); i != e; ++i)
      func.setArgAttrs(i, kernel.getArgAttrDict(i));
    for (unsigned i = 0, e = outputs.size(); i != e; ++i)
      func.setArgAttr(type.getNumInputs() + i, "arvr.output",
                      rewriter.getI64IntegerAttr(i));

    rewriter.inlineRegionBefore(kernel.getBody(), func.getBody(), func.end());
    if (failed(rewriter.convertRegionTypes(&func.getBody(), converter,
                                           &signature)))
      return failure();
    rewriter.eraseOp(kernel);
    return success();
  }
};

/// arvr.return -> func.return: the outputs were written in place.
struct ReturnOpLowering : public OpConversionPattern<ReturnOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ReturnOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<func::ReturnOp>(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Stages
//===----------------------------------------------------------------------===//

/// arvr.stage -> scf.parallel (y, x) { scf.for c { body; memref.store } }
/// over the stage's window: a returned stage writes into its output at the
/// window's place; any other into a buffer of its window's size, allocated
/// here and freed before the function returns.
struct StageOpLowering : public OpConversionPattern<StageOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(StageOp stage, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = stage.getLoc();
    if (!stage.hasSizes())
      return stage.emitError("stage '")
             << stage.getName()
             << "' has no window; run arvr-infer-bounds first";
    auto func = stage->getParentOfType<func::FuncOp>();
    if (!func)
      return rewriter.notifyMatchFailure(stage, "not in a kernel function");
    ValueRange sizes = adaptor.getSizes();
    ValueRange origin = adaptor.getOrigin();

    // The destination: the output argument receiving this stage, or a
    // buffer of its own.
    std::optional<unsigned> outputIndex;
    unsigned numOutputs = 0;
    for (OpOperand &use : stage->getUses())
      if (auto ret = dyn_cast<ReturnOp>(use.getOwner())) {
        outputIndex = use.getOperandNumber();
        numOutputs = ret.getNumOperands();
      }
    Value dest;
    if (outputIndex) {
      dest =
          func.getArgument(func.getNumArguments() - numOutputs + *outputIndex);
    } else {
      auto type = cast<MemRefType>(
          getTypeConverter()->convertType(stage.getResult().getType()));
      SmallVector<Value, 3> dynamicSizes = {sizes[1], sizes[0]};
      if (type.isDynamicDim(2))
        dynamicSizes.push_back(sizes[2]);
      dest = memref::AllocOp::create(rewriter, loc, type, dynamicSizes);
      // Freed at the end of the function (before the terminator, which the
      // kernel's arvr.return still is).
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(stage->getBlock()->getTerminator());
      memref::DeallocOp::create(rewriter, loc, dest);
    }

    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    auto rows = scf::ParallelOp::create(rewriter, loc, ValueRange{zero, zero},
                                        ValueRange{sizes[1], sizes[0]},
                                        ValueRange{one, one});
    rows->setAttr(
        ArvrDialect::kScheduleAttrName,
        LoopScheduleAttr::get(rewriter.getContext(), stage.getName(),
                              stage.getGpuBlock().value_or(ArrayRef<int64_t>()),
                              stage.getGpuPixels(), stage.getGpuShared()));
    Value row = rows.getInductionVars()[0];
    Value col = rows.getInductionVars()[1];
    Block &body = stage.getBody().front();
    auto yield = cast<YieldOp>(body.getTerminator());

    // A few channels known at compile time: the point's channels one after
    // the other in straight-line code, then their stores, so that what
    // they share (reads of the same pixels, coordinates) is computed once.
    IntegerAttr channelCount;
    if (matchPattern(sizes[2], m_Constant(&channelCount)) &&
        channelCount.getInt() >= 1 && channelCount.getInt() <= 4 &&
        (origin.empty() || matchPattern(origin[2], m_Zero()))) {
      rewriter.setInsertionPointToStart(rows.getBody());
      Value x = col, y = row;
      if (!origin.empty()) {
        x = arith::AddIOp::create(rewriter, loc, origin[0], col);
        y = arith::AddIOp::create(rewriter, loc, origin[1], row);
      }
      int64_t count = channelCount.getInt();
      SmallVector<Value, 4> values, channelIndices;
      for (int64_t k = 0; k < count; ++k) {
        Value c = arith::ConstantIndexOp::create(rewriter, loc, k);
        channelIndices.push_back(c);
        if (k + 1 < count) {
          IRMapping mapping;
          mapping.map(body.getArguments(), ValueRange{x, y, c});
          for (Operation &op : body.without_terminator())
            rewriter.clone(op, mapping);
          values.push_back(mapping.lookupOrDefault(yield.getValue()));
          continue;
        }
        Value value = yield.getValue();
        rewriter.inlineBlockBefore(&body, rows.getBody()->getTerminator(),
                                   ValueRange{x, y, c});
        values.push_back(value);
      }
      rewriter.setInsertionPoint(yield);
      for (int64_t k = 0; k < count; ++k) {
        SmallVector<Value, 3> at =
            outputIndex ? SmallVector<Value, 3>{y, x, channelIndices[k]}
                        : SmallVector<Value, 3>{row, col, channelIndices[k]};
        memref::StoreOp::create(rewriter, yield.getLoc(), values[k], dest, at);
      }
      rewriter.eraseOp(yield);
      rewriter.replaceOp(stage, dest);
      return success();
    }

    rewriter.setInsertionPointToStart(rows.getBody());
    auto channels = scf::ForOp::create(rewriter, loc, zero, sizes[2], one);
    Value channel = channels.getInductionVar();
    // The point of the window computed: its place plus the origin.
    Value x = col, y = row, c = channel;
    if (!origin.empty()) {
      rewriter.setInsertionPointToStart(channels.getBody());
      x = arith::AddIOp::create(rewriter, loc, origin[0], col);
      y = arith::AddIOp::create(rewriter, loc, origin[1], row);
      c = arith::AddIOp::create(rewriter, loc, origin[2], channel);
    }

    Value value = yield.getValue();
    rewriter.inlineBlockBefore(&body, channels.getBody()->getTerminator(),
                               ValueRange{x, y, c});
    rewriter.setInsertionPoint(yield);
    SmallVector<Value, 3> at = outputIndex
                                   ? SmallVector<Value, 3>{y, x, c}
                                   : SmallVector<Value, 3>{row, col, channel};
    memref::StoreOp::create(rewriter, yield.getLoc(), value, dest, at);
    rewriter.eraseOp(yield);
    rewriter.replaceOp(stage, dest);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Accesses and sizes
//===----------------------------------------------------------------------===//

/// The index that coordinate `index` of a dimension of `size` elements
/// reads under `boundary` (clamp, mirror or wrap): always in [0, size).
static Value remapIndex(OpBuilder &b, Location loc, Value index, Value size,
                        Boundary boundary) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto wrapInto = [&](Value period) {
    // index mod period, in [0, period).
    Value rem = arith::RemSIOp::create(b, loc, index, period);
    Value negative =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, rem, zero);
    Value lifted = arith::AddIOp::create(b, loc, rem, period);
    return arith::SelectOp::create(b, loc, negative, lifted, rem).getResult();
  };
  switch (boundary) {
  case Boundary::clamp: {
    // Marked as boundary handling: arvr-specialize-interior replaces it
    // with `index` where `index` is proved in [0, size).
    Value last = arith::SubIOp::create(b, loc, size, one);
    Value below = arith::MinSIOp::create(b, loc, index, last);
    auto clamped = arith::MaxSIOp::create(b, loc, below, zero);
    clamped->setAttr(kBoundaryAttrName, b.getUnitAttr());
    return clamped.getResult();
  }
  case Boundary::wrap:
  case Boundary::mirror:
    break;
  case Boundary::in_bounds:
  case Boundary::constant:
    llvm_unreachable("boundary without index remapping");
  }
  // wrap and mirror need a remainder, which is slow (on a GPU, a long
  // sequence of instructions): compute it only for an index outside,
  // which happens only near the edges.
  Value aboveZero =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, index, zero);
  Value belowSize =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, index, size);
  Value inside = arith::AndIOp::create(b, loc, aboveZero, belowSize);
  auto ifInside = scf::IfOp::create(
      b, loc, inside,
      [&](OpBuilder &then, Location l) {
        scf::YieldOp::create(then, l, index);
      },
      [&](OpBuilder &otherwise, Location l) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(otherwise.getInsertionBlock(),
                            otherwise.getInsertionPoint());
        Value remapped;
        if (boundary == Boundary::wrap) {
          remapped = wrapInto(size);
        } else {
          // Reflect-101 repeats with period 2 * size - 2 (1 for a single
          // element): fold into [0, period), then reflect the upper half.
          Value two = arith::ConstantIndexOp::create(b, l, 2);
          Value period = arith::SubIOp::create(
              b, l, arith::MulIOp::create(b, l, size, two), two);
          period = arith::MaxSIOp::create(b, l, period, one);
          Value folded = wrapInto(period);
          Value upper = arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge,
                                              folded, size);
          Value reflected = arith::SubIOp::create(b, l, period, folded);
          remapped = arith::SelectOp::create(b, l, upper, reflected, folded);
        }
        scf::YieldOp::create(b, l, remapped);
      });
  ifInside->setAttr(kBoundaryAttrName, b.getUnitAttr());
  return ifInside.getResult(0);
}

/// Loads element (x, y, c) of `image` (a memref<H x W x C>) under
/// `boundary`; `padding` is the value outside for the constant boundary.
static Value loadWithBoundary(OpBuilder &b, Location loc, Value image, Value x,
                              Value y, Value c, Boundary boundary,
                              std::optional<TypedAttr> padding,
                              bool channelInRange = false) {
  // memref order: (y, x, c).
  SmallVector<Value, 3> indices = {y, x, c};
  if (boundary == Boundary::in_bounds)
    return memref::LoadOp::create(b, loc, image, indices);

  Value inside;
  for (int64_t dim = 0; dim < (channelInRange ? 2 : 3); ++dim) {
    Value size = memref::DimOp::create(b, loc, image, dim);
    if (boundary == Boundary::constant) {
      // Read the clamped element, then choose it or the padding.
      Value zero = arith::ConstantIndexOp::create(b, loc, 0);
      Value aboveZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                              indices[dim], zero);
      Value belowSize = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                              indices[dim], size);
      Value here = arith::AndIOp::create(b, loc, aboveZero, belowSize);
      inside = inside ? arith::AndIOp::create(b, loc, inside, here) : here;
      indices[dim] = remapIndex(b, loc, indices[dim], size, Boundary::clamp);
    } else {
      indices[dim] = remapIndex(b, loc, indices[dim], size, boundary);
    }
  }
  Value loaded = memref::LoadOp::create(b, loc, image, indices);
  if (boundary != Boundary::constant)
    return loaded;
  Value outsideValue = arith::ConstantOp::create(b, loc, *padding);
  auto chosen = arith::SelectOp::create(b, loc, inside, loaded, outsideValue);
  chosen->setAttr(kBoundaryAttrName, b.getUnitAttr());
  return chosen.getResult();
}

/// Marks the reads whose channel needs no boundary handling (found before
/// the conversion, while stages still have their coordinates).
constexpr llvm::StringLiteral kChannelInRange =
    ArvrDialect::kChannelInRangeAttrName;

/// Whether channel `c` of a read of `image` is always one of its channels,
/// so its boundary handling can be left out: `c` is the channel of the
/// stage being computed, whose channels are `image`'s own (the stage loops
/// over `arvr.dim %image channels`, or both have the same static count)
/// from 0; or `c` is a constant below a static channel count.
static bool isChannelInRange(Value c, Value image) {
  auto type = cast<ImageType>(image.getType());
  IntegerAttr constant;
  if (matchPattern(c, m_Constant(&constant)))
    return type.hasStaticChannels() && constant.getInt() >= 0 &&
           constant.getInt() < type.getChannels();
  auto arg = dyn_cast<BlockArgument>(c);
  auto stage =
      arg ? dyn_cast<StageOp>(arg.getOwner()->getParentOp()) : StageOp();
  if (!stage || arg.getArgNumber() != 2 || !stage.hasSizes())
    return false;
  if (!stage.getOrigin().empty() &&
      !matchPattern(stage.getOrigin()[2], m_Zero()))
    return false;
  Value channels = stage.getChannels();
  if (auto dim = channels.getDefiningOp<DimOp>())
    return dim.getImage() == image && dim.getDim() == Dim::channels;
  return type.hasStaticChannels() &&
         matchPattern(channels, m_Constant(&constant)) &&
         constant.getInt() <= type.getChannels();
}

/// arvr.access -> boundary arithmetic + memref.load.
struct AccessOpLowering : public OpConversionPattern<AccessOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AccessOp access, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = access.getLoc();
    Value coords[3] = {adaptor.getX(), adaptor.getY(), adaptor.getC()};
    // An intermediate stage keeps only its window: read relative to it.
    if (auto stage = access.getImage().getDefiningOp<StageOp>();
        stage && !stage.isOutput() && !stage.getOrigin().empty())
      for (int dim = 0; dim < 3; ++dim)
        coords[dim] = arith::SubIOp::create(
            rewriter, loc, coords[dim],
            rewriter.getRemappedValue(stage.getOrigin()[dim]));
    rewriter.replaceOp(
        access, loadWithBoundary(rewriter, loc, adaptor.getImage(), coords[0],
                                 coords[1], coords[2], access.getBoundary(),
                                 access.getPadding(),
                                 access->hasAttr(kChannelInRange)));
    return success();
  }
};

/// The four pixels (x0, y0), (x0 + 1, y0), (x0, y0 + 1), (x0 + 1, y0 + 1)
/// of `image` around the whole-numbered f32 `x0f`, `y0f`, each read by
/// `read` (under the sample's boundary); `toIndex` converts a coordinate
/// however large (or NaN). Under a boundary, where the channel needs none:
/// read as they are when all four are inside (one test instead of one per
/// pixel and coordinate, and no remapping or padding), by `read`
/// otherwise; the same values.
static std::array<Value, 4>
readFour(ConversionPatternRewriter &rewriter, Location loc, Value image,
         Value x0f, Value y0f, bool channelInRange, Boundary boundary,
         function_ref<Value(Value)> toIndex,
         function_ref<Value(Value, Value, bool)> read) {
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  auto four = [&](bool plain) -> std::array<Value, 4> {
    // Inside, the coordinates convert as they are, and x0 + 1 and y0 + 1
    // neither wrap nor leave the image: with the flags, LLVM folds the + 1
    // into each load's address. They are computed in each branch, so no
    // unflagged copy dominates them.
    auto convert = [&](Value whole) -> Value {
      if (!plain)
        return toIndex(whole);
      Value i32 =
          arith::FPToSIOp::create(rewriter, loc, rewriter.getI32Type(), whole);
      return arith::IndexCastOp::create(rewriter, loc, rewriter.getIndexType(),
                                        i32);
    };
    Value x0 = convert(x0f), y0 = convert(y0f);
    auto flags = plain ? arith::IntegerOverflowFlags::nsw |
                             arith::IntegerOverflowFlags::nuw
                       : arith::IntegerOverflowFlags::none;
    Value x1 = arith::AddIOp::create(rewriter, loc, x0, one, flags);
    Value y1 = arith::AddIOp::create(rewriter, loc, y0, one, flags);
    return {read(x0, y0, plain), read(x1, y0, plain), read(x0, y1, plain),
            read(x1, y1, plain)};
  };
  if (boundary == Boundary::in_bounds || !channelInRange)
    return four(false);
  // 0 <= x0 < width - 1 and 0 <= y0 < height - 1, tested on the f32
  // coordinates (whole numbers), so that the plain reads need no clamp
  // before their conversion. The last index is exact in f32 up to 2^24
  // (beyond, points take the other branch) and at least 0.
  Type i32 = rewriter.getI32Type();
  auto lastAsF32 = [&](int64_t dim) -> Value {
    Value last = arith::MinSIOp::create(
        rewriter, loc,
        arith::SubIOp::create(rewriter, loc,
                              memref::DimOp::create(rewriter, loc, image, dim),
                              one),
        arith::ConstantIndexOp::create(rewriter, loc, 1 << 24));
    last = arith::MaxSIOp::create(
        rewriter, loc, last, arith::ConstantIndexOp::create(rewriter, loc, 0));
    Value asI32 = arith::IndexCastOp::create(rewriter, loc, i32, last);
    return arith::SIToFPOp::create(rewriter, loc, rewriter.getF32Type(), asI32);
  };
  // Both bounds as one unsigned comparison of the bits: a non-negative f32
  // orders as its bits do, and a negative one has its sign bit set (so do
  // -0, which the other branch reads as 0 with the same values, and half
  // the NaNs; the rest are above any last index, as are infinities).
  auto within = [&](Value whole, Value last) -> Value {
    return arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ult,
        arith::BitcastOp::create(rewriter, loc, i32, whole),
        arith::BitcastOp::create(rewriter, loc, i32, last));
  };
  // (In this order: x, then y.)
  Value insideX = within(x0f, lastAsF32(1));
  Value insideY = within(y0f, lastAsF32(0));
  Value inside = arith::AndIOp::create(rewriter, loc, insideX, insideY);
  // Nearly every point of an image samples inside it: the test is expected
  // true (llvm.expect; LLVM weighs the branch so that the plain reads fall
  // through and the boundary handling is laid out of line).
  inside = LLVM::ExpectOp::create(
      rewriter, loc, inside,
      arith::ConstantIntOp::create(rewriter, loc, rewriter.getI1Type(), 1));
  auto branch = [&](bool plain) {
    return [&, plain](OpBuilder &, Location l) {
      std::array<Value, 4> values = four(plain);
      scf::YieldOp::create(rewriter, l, ValueRange(values));
    };
  };
  // The branches built by the rewriter, at their blocks' ends.
  auto ifInside = scf::IfOp::create(
      rewriter, loc, inside,
      [&](OpBuilder &then, Location l) {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPoint(then.getInsertionBlock(),
                                   then.getInsertionPoint());
        branch(true)(then, l);
      },
      [&](OpBuilder &otherwise, Location l) {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPoint(otherwise.getInsertionBlock(),
                                   otherwise.getInsertionPoint());
        branch(false)(otherwise, l);
      });
  return {ifInside.getResult(0), ifInside.getResult(1), ifInside.getResult(2),
          ifInside.getResult(3)};
}

/// arvr.sample -> the nearest pixel, or the four around (u, v) weighed
/// bilinearly, each read with the sample's boundary.
struct SampleOpLowering : public OpConversionPattern<SampleOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(SampleOp sample, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = sample.getLoc();
    ImageType imageType = sample.getImage().getType();
    Type f32 = rewriter.getF32Type();
    auto constF32 = [&](float v) -> Value {
      return arith::ConstantFloatOp::create(
          rewriter, loc, rewriter.getF32Type(), llvm::APFloat(v));
    };
    // A whole-numbered f32 as an index, saturated far outside any image
    // (NaN goes to the low end), so the conversion is always defined.
    auto toIndex = [&](Value whole) -> Value {
      Value low = arith::MaxNumFOp::create(rewriter, loc, whole,
                                           constF32(-1073741824.0f));
      Value high =
          arith::MinNumFOp::create(rewriter, loc, low, constF32(1073741824.0f));
      Value i32 =
          arith::FPToSIOp::create(rewriter, loc, rewriter.getI32Type(), high);
      return arith::IndexCastOp::create(rewriter, loc, rewriter.getIndexType(),
                                        i32);
    };
    bool channelInRange = sample->hasAttr(kChannelInRange);
    // With `plain`, a read known inside, without boundary handling.
    auto read = [&](Value x, Value y, bool plain = false) -> Value {
      Value element = loadWithBoundary(
          rewriter, loc, adaptor.getImage(), x, y, adaptor.getC(),
          plain ? Boundary::in_bounds : sample.getBoundary(),
          sample.getPadding(), channelInRange);
      Type elementType = imageType.getElementType();
      if (elementType.isF32())
        return element;
      if (elementType.isUnsignedInteger())
        return arith::UIToFPOp::create(rewriter, loc, f32, element);
      return arith::SIToFPOp::create(rewriter, loc, f32, element);
    };

    Value u = adaptor.getU(), v = adaptor.getV();
    if (sample.getInterpolation() == Interpolation::nearest) {
      Value x = toIndex(math::RoundEvenOp::create(rewriter, loc, u));
      Value y = toIndex(math::RoundEvenOp::create(rewriter, loc, v));
      rewriter.replaceOp(sample, read(x, y));
      return success();
    }

    Value x0f = math::FloorOp::create(rewriter, loc, u);
    Value y0f = math::FloorOp::create(rewriter, loc, v);
    Value ax = arith::SubFOp::create(rewriter, loc, u, x0f);
    Value ay = arith::SubFOp::create(rewriter, loc, v, y0f);
    auto lerp = [&](Value a, Value b, Value t) -> Value {
      // a + t (b - a), fused: exact at t = 0 and, for pixel values, at
      // t = 1; two operations where (1 - t) a + t b takes three.
      Value d = arith::SubFOp::create(rewriter, loc, b, a);
      Value td = arith::MulFOp::create(rewriter, loc, t, d);
      return arith::AddFOp::create(rewriter, loc, a, td);
    };
    auto [p00, p10, p01, p11] =
        readFour(rewriter, loc, adaptor.getImage(), x0f, y0f, channelInRange,
                 sample.getBoundary(), toIndex, read);
    Value top = lerp(p00, p10, ax);
    Value bottom = lerp(p01, p11, ax);
    rewriter.replaceOp(sample, lerp(top, bottom, ay));
    return success();
  }
};

/// The full unrolling of a reduction (ReduceOp::getFullUnroll), found
/// before the conversion: during it, the nest it looks at is half rewritten.
constexpr llvm::StringLiteral kFullUnroll = "arvr.full_unroll";

/// The loop of a reduction: scf.for over i from lower to upper (included)
/// carrying `inits`; each iteration computes the region's term for i and
/// yields `combine(i, term, carried values)`. Replaces `reduce` with the
/// loop's result number `result`.
static void lowerReductionLoop(
    ReduceOp reduce, ReduceOp::Adaptor adaptor,
    ConversionPatternRewriter &rewriter, ValueRange inits,
    function_ref<SmallVector<Value>(Value, Value, ValueRange)> combine,
    unsigned result) {
  Location loc = reduce.getLoc();
  Type indexType = rewriter.getIndexType();
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Value lower =
      arith::IndexCastOp::create(rewriter, loc, indexType, adaptor.getLower());
  Value upper =
      arith::IndexCastOp::create(rewriter, loc, indexType, adaptor.getUpper());
  Value end = arith::AddIOp::create(rewriter, loc, upper, one);
  // A small range known when compiling is unrolled completely, unless the
  // schedule says otherwise, within a budget on the terms its whole nest
  // of reductions copies (ReduceOp::getFullUnroll).
  std::optional<int64_t> unroll = reduce.getUnroll();
  if (auto full = reduce->getAttrOfType<IntegerAttr>(kFullUnroll);
      !unroll && full)
    unroll = full.getInt();
  // An unrolled loop's trip count is computed from its bounds: an empty
  // range ends where it starts.
  if (unroll)
    end = arith::MaxSIOp::create(rewriter, loc, end, lower);
  auto loop = scf::ForOp::create(
      rewriter, loc, lower, end, one, inits,
      [](OpBuilder &b, Location l, Value, ValueRange carried) {
        scf::YieldOp::create(b, l, carried);
      });

  if (unroll)
    loop->setAttr(ArvrDialect::kUnrollAttrName,
                  rewriter.getI64IntegerAttr(*unroll));

  // The term for this i, then the carried values updated with it.
  auto next = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  rewriter.setInsertionPoint(next);
  Value i = arith::IndexCastOp::create(rewriter, loc, rewriter.getI32Type(),
                                       loop.getInductionVar());
  Block &body = reduce.getBody().front();
  auto yield = cast<YieldOp>(body.getTerminator());
  Value term = yield.getValue();
  rewriter.inlineBlockBefore(&body, next, ValueRange{i});
  rewriter.setInsertionPoint(next);
  SmallVector<Value> updated = combine(i, term, loop.getRegionIterArgs());
  rewriter.modifyOpInPlace(next, [&] { next->setOperands(updated); });
  rewriter.eraseOp(yield);
  rewriter.replaceOp(reduce, loop.getResult(result));
}

/// arvr.reduce -> scf.for from lower to upper (included). sum/min/max carry
/// the accumulator, which starts at the combination's identity; argmin
/// carries the smallest term so far and its index, replaced only by a
/// strictly smaller term (the first wins).
struct ReduceOpLowering : public OpConversionPattern<ReduceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ReduceOp reduce, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = reduce.getLoc();
    Type termType = cast<YieldOp>(reduce.getBody().front().getTerminator())
                        .getValue()
                        .getType();
    bool isFloat = termType.isF32();
    auto largest = [&]() -> TypedAttr {
      if (isFloat)
        return rewriter.getF32FloatAttr(INFINITY);
      return rewriter.getIntegerAttr(
          termType, APInt::getSignedMaxValue(termType.getIntOrFloatBitWidth()));
    };

    auto smallest = [&]() -> TypedAttr {
      if (isFloat)
        return rewriter.getF32FloatAttr(-INFINITY);
      return rewriter.getIntegerAttr(
          termType, APInt::getSignedMinValue(termType.getIntOrFloatBitWidth()));
    };

    if (reduce.isArg()) {
      // The first index whose term is strictly better than every earlier
      // one: less (argmin) or greater (argmax).
      bool isMin = reduce.getKind() == ReductionKind::argmin;
      Value initValue = arith::ConstantOp::create(
          rewriter, loc, isMin ? largest() : smallest());
      lowerReductionLoop(
          reduce, adaptor, rewriter, {initValue, adaptor.getLower()},
          [&](Value i, Value term, ValueRange best) -> SmallVector<Value> {
            Value smaller = isFloat ? Value(arith::CmpFOp::create(
                                          rewriter, loc,
                                          isMin ? arith::CmpFPredicate::OLT
                                                : arith::CmpFPredicate::OGT,
                                          term, best[0]))
                                    : Value(arith::CmpIOp::create(
                                          rewriter, loc,
                                          isMin ? arith::CmpIPredicate::slt
                                                : arith::CmpIPredicate::sgt,
                                          term, best[0]));
            Value value =
                arith::SelectOp::create(rewriter, loc, smaller, term, best[0]);
            Value index =
                arith::SelectOp::create(rewriter, loc, smaller, i, best[1]);
            return {value, index};
          },
          /*result=*/1);
      return success();
    }

    TypedAttr identity;
    switch (reduce.getKind()) {
    case ReductionKind::sum:
      identity = rewriter.getZeroAttr(termType);
      break;
    case ReductionKind::product:
      identity = isFloat ? TypedAttr(rewriter.getF32FloatAttr(1.0f))
                         : TypedAttr(rewriter.getIntegerAttr(termType, 1));
      break;
    case ReductionKind::min:
      identity = largest();
      break;
    case ReductionKind::max:
      identity = smallest();
      break;
    case ReductionKind::argmin:
    case ReductionKind::argmax:
      llvm_unreachable("handled above");
    }
    Value init = arith::ConstantOp::create(rewriter, loc, identity);
    ReductionKind kind = reduce.getKind();
    lowerReductionLoop(
        reduce, adaptor, rewriter, {init},
        [&](Value, Value term, ValueRange acc) -> SmallVector<Value> {
          Value a = acc[0];
          switch (kind) {
          case ReductionKind::sum:
            return {isFloat
                        ? Value(arith::AddFOp::create(rewriter, loc, a, term))
                        : Value(arith::AddIOp::create(rewriter, loc, a, term))};
          case ReductionKind::product:
            return {isFloat
                        ? Value(arith::MulFOp::create(rewriter, loc, a, term))
                        : Value(arith::MulIOp::create(rewriter, loc, a, term))};
          case ReductionKind::min:
            return {
                isFloat
                    ? Value(arith::MinNumFOp::create(rewriter, loc, a, term))
                    : Value(arith::MinSIOp::create(rewriter, loc, a, term))};
          case ReductionKind::max:
          case ReductionKind::argmin:
          case ReductionKind::argmax:
            break;
          }
          return {isFloat
                      ? Value(arith::MaxNumFOp::create(rewriter, loc, a, term))
                      : Value(arith::MaxSIOp::create(rewriter, loc, a, term))};
        },
        /*result=*/0);
    return success();
  }
};

/// arvr.dim -> memref.dim.
struct DimOpLowering : public OpConversionPattern<DimOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(DimOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<memref::DimOp>(op, adaptor.getImage(),
                                               memrefDimOf(op.getDim()));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

struct ConvertArvrToLoopsPass
    : public arvr::impl::ConvertArvrToLoopsBase<ConvertArvrToLoopsPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    TypeConverter converter;
    converter.addConversion([](Type type) { return type; });
    converter.addConversion([](ImageType image) -> Type {
      int64_t channels = image.getChannels();
      return MemRefType::get(
          {ShapedType::kDynamic, ShapedType::kDynamic, channels},
          image.getScalarType());
    });

    ConversionTarget target(*context);
    target.addIllegalDialect<ArvrDialect>();
    target.addLegalDialect<arith::ArithDialect, func::FuncDialect,
                           math::MathDialect, memref::MemRefDialect,
                           scf::SCFDialect>();
    target.addLegalOp<LLVM::ExpectOp>();

    getOperation().walk([&](Operation *op) {
      if (auto access = dyn_cast<AccessOp>(op);
          access && isChannelInRange(access.getC(), access.getImage()))
        op->setAttr(kChannelInRange, UnitAttr::get(context));
      if (auto sample = dyn_cast<SampleOp>(op);
          sample && isChannelInRange(sample.getC(), sample.getImage()))
        op->setAttr(kChannelInRange, UnitAttr::get(context));
      if (auto reduce = dyn_cast<ReduceOp>(op))
        if (std::optional<int64_t> count = reduce.getFullUnroll())
          op->setAttr(kFullUnroll,
                      IntegerAttr::get(IntegerType::get(context, 64), *count));
    });
    RewritePatternSet patterns(context);
    populateArvrToLoopsConversionPatterns(converter, patterns);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void mlir::arvr::populateArvrToLoopsConversionPatterns(
    TypeConverter &typeConverter, RewritePatternSet &patterns) {
  patterns
      .add<KernelOpLowering, ReturnOpLowering, StageOpLowering,
           AccessOpLowering, SampleOpLowering, ReduceOpLowering, DimOpLowering>(
          typeConverter, patterns.getContext());
}
