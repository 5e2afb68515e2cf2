//===- CpuRowBands.cpp - CPU kernels computing a band of rows -------------===//
//
// Gives each kernel function two trailing index arguments, the band of
// output rows [row_begin, row_end) it computes, so the CPU runner can split
// an image across threads.
//
// Preconditions: kernel functions are marked llvm.emit_c_interface and
// write their output from one outermost scf.parallel over (y, x) starting
// at 0 (convert-arvr-to-loops). Afterwards each such loop covers only the
// rows of the band.
//
//===----------------------------------------------------------------------===//

#include "arvr/Lowering/Passes.h"

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRCPUROWBANDS
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;

namespace {

struct ArvrCpuRowBandsPass
    : public arvr::impl::ArvrCpuRowBandsBase<ArvrCpuRowBandsPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (!func->hasAttr("llvm.emit_c_interface") || func.isExternal())
        continue;
      Type index = IndexType::get(&getContext());
      Location loc = func.getLoc();
      unsigned numArgs = func.getNumArguments();
      if (failed(func.insertArguments({numArgs, numArgs}, {index, index}, {},
                                      {loc, loc})))
        return signalPassFailure();
      func.setArgAttr(numArgs, "arvr.name",
                      StringAttr::get(&getContext(), "row_begin"));
      func.setArgAttr(numArgs + 1, "arvr.name",
                      StringAttr::get(&getContext(), "row_end"));
      Value begin = func.getArgument(numArgs);
      Value end = func.getArgument(numArgs + 1);

      for (auto loop : func.getBody().getOps<scf::ParallelOp>()) {
        OpBuilder builder(loop);
        Value lower = loop.getLowerBound()[0];
        Value upper = loop.getUpperBound()[0];
        Value bandLower =
            arith::MaxSIOp::create(builder, loop.getLoc(), lower, begin);
        Value bandUpper =
            arith::MinSIOp::create(builder, loop.getLoc(), upper, end);
        loop.getLowerBoundMutable()[0].set(bandLower);
        loop.getUpperBoundMutable()[0].set(bandUpper);
      }
    }
  }
};

} // namespace
