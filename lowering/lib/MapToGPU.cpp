//===- MapToGPU.cpp - scf.parallel (y, x) onto gpu.launch -----------------===//
//
// Maps each outermost 2-D scf.parallel loop of a func.func onto a gpu.launch
// of 2-D thread blocks, one thread per iteration, guarded by the loop range;
// the block is the loop's `arvr.gpu_block` (a schedule's gpu_tile) or the
// pass's default.
//
// Preconditions: the loops start at 0 with step 1 and produce no results
// (what convert-arvr-to-loops emits). Afterwards the module is a
// gpu.container_module whose launches gpu-kernel-outlining can outline.
//
//===----------------------------------------------------------------------===//

#include "arvr/Lowering/Passes.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRMAPTOGPU
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;

namespace {

struct ParallelLoopToLaunch : public OpRewritePattern<scf::ParallelOp> {
  ParallelLoopToLaunch(MLIRContext *context, int64_t blockX, int64_t blockY)
      : OpRewritePattern(context), blockX(blockX), blockY(blockY) {}

  LogicalResult matchAndRewrite(scf::ParallelOp loop,
                                PatternRewriter &rewriter) const override {
    if (loop->getParentOfType<scf::ParallelOp>() ||
        loop->getParentOfType<gpu::LaunchOp>() ||
        !loop->getParentOfType<func::FuncOp>())
      return rewriter.notifyMatchFailure(loop, "not an outermost host loop");
    if (loop.getNumLoops() != 2 || loop.getNumResults() != 0)
      return rewriter.notifyMatchFailure(loop, "not a 2-D loop nest");
    for (Value lower : loop.getLowerBound())
      if (!matchPattern(lower, m_Zero()))
        return rewriter.notifyMatchFailure(loop, "lower bound is not 0");
    for (Value step : loop.getStep())
      if (!matchPattern(step, m_One()))
        return rewriter.notifyMatchFailure(loop, "step is not 1");

    Location loc = loop.getLoc();
    int64_t blockX = this->blockX, blockY = this->blockY;
    if (auto block = loop->getAttrOfType<DenseI64ArrayAttr>("arvr.gpu_block");
        block && block.size() == 2) {
      blockX = block[0];
      blockY = block[1];
    }
    Value rowsEnd = loop.getUpperBound()[0];
    Value colsEnd = loop.getUpperBound()[1];
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value blockSizeX = arith::ConstantIndexOp::create(rewriter, loc, blockX);
    Value blockSizeY = arith::ConstantIndexOp::create(rewriter, loc, blockY);
    Value gridX =
        arith::CeilDivSIOp::create(rewriter, loc, colsEnd, blockSizeX);
    Value gridY =
        arith::CeilDivSIOp::create(rewriter, loc, rowsEnd, blockSizeY);
    auto launch = gpu::LaunchOp::create(rewriter, loc, gridX, gridY, one,
                                        blockSizeX, blockSizeY, one);
    // The outlined kernel is named after the function and the stage, in a
    // gpu.module named after the function.
    if (auto stage = loop->getAttrOfType<StringAttr>("arvr.stage")) {
      auto func = loop->getParentOfType<func::FuncOp>();
      launch.setModuleAttr(FlatSymbolRefAttr::get(
          rewriter.getStringAttr(func.getSymName() + "_kernels")));
      launch.setFunctionAttr(FlatSymbolRefAttr::get(rewriter.getStringAttr(
          func.getSymName() + "_" + stage.getValue())));
    }

    // In the kernel: this thread's iteration, and whether it is in range.
    Block &body = launch.getBody().front();
    rewriter.setInsertionPointToStart(&body);
    Value x = arith::AddIOp::create(
        rewriter, loc,
        arith::MulIOp::create(rewriter, loc, launch.getBlockIds().x,
                              blockSizeX),
        launch.getThreadIds().x);
    Value y = arith::AddIOp::create(
        rewriter, loc,
        arith::MulIOp::create(rewriter, loc, launch.getBlockIds().y,
                              blockSizeY),
        launch.getThreadIds().y);
    Value xInRange = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::slt, x, colsEnd);
    Value yInRange = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::slt, y, rowsEnd);
    Value inRange = arith::AndIOp::create(rewriter, loc, xInRange, yInRange);
    auto guard = scf::IfOp::create(rewriter, loc, inRange,
                                   /*withElseRegion=*/false);
    gpu::TerminatorOp::create(rewriter, loc);

    Block *loopBody = loop.getBody();
    rewriter.eraseOp(loopBody->getTerminator());
    rewriter.inlineBlockBefore(loopBody, guard.thenBlock()->getTerminator(),
                               ValueRange{y, x});
    rewriter.eraseOp(loop);
    return success();
  }

  int64_t blockX, blockY;
};

struct ArvrMapToGPUPass
    : public arvr::impl::ArvrMapToGPUBase<ArvrMapToGPUPass> {
  using ArvrMapToGPUBase::ArvrMapToGPUBase;

  void runOnOperation() override {
    if (blockX < 1 || blockY < 1 || blockX * blockY > 1024) {
      getOperation().emitError("block of ")
          << static_cast<int64_t>(blockX) << "x" << static_cast<int64_t>(blockY)
          << " threads is not a valid CUDA block (1 to 1024 threads)";
      return signalPassFailure();
    }
    ModuleOp module = getOperation();
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    UnitAttr::get(&getContext()));
    RewritePatternSet patterns(&getContext());
    patterns.add<ParallelLoopToLaunch>(&getContext(), blockX, blockY);
    if (failed(applyPatternsGreedily(module, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
