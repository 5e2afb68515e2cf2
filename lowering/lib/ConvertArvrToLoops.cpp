//===- ConvertArvrToLoops.cpp - arvr to scf/memref/arith ------------------===//
//
// Lowers arvr kernels to loops over memrefs with DialectConversion.
//
// Preconditions: the module holds verified arvr kernels whose stages are all
// returned as outputs (each stage writes straight into its output buffer).
// Afterwards no arvr op is left: each kernel is a `func.func` in
// destination-passing style, `(inputs..., scalars..., outputs...) -> ()`.
//
//===----------------------------------------------------------------------===//

#include "arvr/Dialect/ArvrDialect.h"
#include "arvr/Lowering/Passes.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Transforms/DialectConversion.h"

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
/// writing into the output buffer the stage is returned as.
struct StageOpLowering : public OpConversionPattern<StageOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(StageOp stage, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // The destination: the output argument receiving this stage.
    std::optional<unsigned> outputIndex;
    unsigned numOutputs = 0;
    for (OpOperand &use : stage->getUses())
      if (auto ret = dyn_cast<ReturnOp>(use.getOwner())) {
        outputIndex = use.getOperandNumber();
        numOutputs = ret.getNumOperands();
      }
    auto func = stage->getParentOfType<func::FuncOp>();
    if (!outputIndex || !func)
      return rewriter.notifyMatchFailure(
          stage, "only stages returned as kernel outputs are materialised");
    Value dest =
        func.getArgument(func.getNumArguments() - numOutputs + *outputIndex);

    Location loc = stage.getLoc();
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    auto rows = scf::ParallelOp::create(
        rewriter, loc, ValueRange{zero, zero},
        ValueRange{adaptor.getHeight(), adaptor.getWidth()},
        ValueRange{one, one});
    rewriter.setInsertionPointToStart(rows.getBody());
    auto channels =
        scf::ForOp::create(rewriter, loc, zero, adaptor.getChannels(), one);
    Value y = rows.getInductionVars()[0];
    Value x = rows.getInductionVars()[1];
    Value c = channels.getInductionVar();

    Block &body = stage.getBody().front();
    auto yield = cast<YieldOp>(body.getTerminator());
    Value value = yield.getValue();
    rewriter.inlineBlockBefore(&body, channels.getBody()->getTerminator(),
                               ValueRange{x, y, c});
    rewriter.setInsertionPoint(yield);
    memref::StoreOp::create(rewriter, yield.getLoc(), value, dest,
                            ValueRange{y, x, c});
    rewriter.eraseOp(yield);
    rewriter.replaceOp(stage, dest);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Accesses and sizes
//===----------------------------------------------------------------------===//

/// arvr.access -> boundary arithmetic + memref.load.
struct AccessOpLowering : public OpConversionPattern<AccessOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AccessOp access, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = access.getLoc();
    Value image = adaptor.getImage();
    // memref order: (y, x, c).
    SmallVector<Value, 3> indices = {adaptor.getY(), adaptor.getX(),
                                     adaptor.getC()};
    switch (access.getBoundary()) {
    case Boundary::in_bounds:
      break;
    case Boundary::clamp: {
      Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
      Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
      for (int64_t dim = 0; dim < 3; ++dim) {
        Value size = memref::DimOp::create(rewriter, loc, image, dim);
        Value last = arith::SubIOp::create(rewriter, loc, size, one);
        Value below = arith::MinSIOp::create(rewriter, loc, indices[dim], last);
        indices[dim] = arith::MaxSIOp::create(rewriter, loc, below, zero);
      }
      break;
    }
    }
    rewriter.replaceOpWithNewOp<memref::LoadOp>(access, image, indices);
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
  patterns.add<KernelOpLowering, ReturnOpLowering, StageOpLowering,
               AccessOpLowering, DimOpLowering>(typeConverter,
                                                patterns.getContext());
}
