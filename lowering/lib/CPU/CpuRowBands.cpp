//===- CpuRowBands.cpp - CPU kernels computing a band of output rows ------===//
//
// Gives each arvr.kernel two trailing index parameters, the band of output
// rows [row_begin, row_end) it computes, and narrows the windows of the
// stages it returns to that band, so the CPU runner can split an image
// across threads. Intermediate stages are sized afterwards, per band, by
// arvr-infer-bounds.
//
//===----------------------------------------------------------------------===//

#include "arvr/Dialect/ArvrDialect.h"
#include "arvr/Lowering/Passes.h"

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRCPUROWBANDS
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;
using namespace mlir::arvr;

namespace {

struct ArvrCpuRowBandsPass
    : public arvr::impl::ArvrCpuRowBandsBase<ArvrCpuRowBandsPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    getOperation().walk([&](KernelOp kernel) {
      if (kernel.getBody().empty())
        return;
      Type index = IndexType::get(context);
      Location loc = kernel.getLoc();
      unsigned numArgs = kernel.getNumArguments();
      if (failed(kernel.insertArguments({numArgs, numArgs}, {index, index}, {},
                                        {loc, loc}))) {
        signalPassFailure();
        return;
      }
      kernel.setArgAttr(numArgs, "arvr.name",
                        StringAttr::get(context, "row_begin"));
      kernel.setArgAttr(numArgs + 1, "arvr.name",
                        StringAttr::get(context, "row_end"));
      Value begin = kernel.getArgument(numArgs);
      Value end = kernel.getArgument(numArgs + 1);

      for (StageOp stage : kernel.getBody().front().getOps<StageOp>()) {
        if (!stage.isOutput() || !stage.hasSizes())
          continue;
        if (!stage.getOrigin().empty()) {
          stage.emitError("a returned stage already has a window");
          signalPassFailure();
          return;
        }
        OpBuilder b(stage);
        Location stageLoc = stage.getLoc();
        Value zero = arith::ConstantIndexOp::create(b, stageLoc, 0);
        Value height = stage.getHeight();
        Value first = arith::MinSIOp::create(
            b, stageLoc, arith::MaxSIOp::create(b, stageLoc, begin, zero),
            height);
        Value last = arith::MinSIOp::create(
            b, stageLoc, arith::MaxSIOp::create(b, stageLoc, end, first),
            height);
        Value rows = arith::SubIOp::create(b, stageLoc, last, first);
        Value origin[3] = {zero, first, zero};
        stage.getSizesMutable().assign(
            ValueRange{stage.getWidth(), rows, stage.getChannels()});
        stage.getOriginMutable().assign(origin);
      }
    });
  }
};

} // namespace
