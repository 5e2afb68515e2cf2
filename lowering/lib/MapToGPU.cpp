//===- MapToGPU.cpp - scf.parallel (y, x) onto gpu.launch -----------------===//
//
// Maps each outermost 2-D scf.parallel loop of a func.func onto a gpu.launch
// of 2-D thread blocks, one thread per iteration (or per `arvr.gpu_pixels`
// iterations along x, a block's width apart: a schedule's gpu_pixels), each
// guarded by the loop range; the block is the loop's `arvr.gpu_block` (a
// schedule's gpu_tile) or the pass's default.
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

/// The block of a loop: its `arvr.gpu_block`, or the pass's default.
static std::pair<int64_t, int64_t> blockOf(scf::ParallelOp loop, int64_t x,
                                           int64_t y) {
  if (auto block = loop->getAttrOfType<DenseI64ArrayAttr>("arvr.gpu_block");
      block && block.size() == 2)
    return {block[0], block[1]};
  return {x, y};
}

/// The points each thread of a loop's launch computes along x: its
/// `arvr.gpu_pixels` (a schedule's gpu_pixels), or one.
static int64_t pixelsOf(scf::ParallelOp loop) {
  if (auto pixels = loop->getAttrOfType<IntegerAttr>("arvr.gpu_pixels"))
    return std::max<int64_t>(1, pixels.getInt());
  return 1;
}

/// Puts a loop's `body` (taking (y, x)) at the insertion point once per
/// point of the thread: at (y, x0 + k step) for k < pixels, each under
/// `y < rows && x < cols`. `fixup` runs on the first copy, before it is
/// cloned for the others (x0 being what it reads as x).
static void emitPoints(PatternRewriter &rewriter, Location loc, Block *body,
                       Value y, Value x0, int64_t pixels, Value step,
                       Value rows, Value cols, function_ref<void()> fixup) {
  Value yInRange =
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt, y, rows);
  SmallVector<Value> xs;
  SmallVector<scf::IfOp> guards;
  for (int64_t k = 0; k < pixels; ++k) {
    Value x = x0;
    if (k)
      x = arith::AddIOp::create(
          rewriter, loc, x0,
          arith::MulIOp::create(
              rewriter, loc, step,
              arith::ConstantIndexOp::create(rewriter, loc, k)));
    Value inRange = arith::AndIOp::create(
        rewriter, loc, yInRange,
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt, x,
                              cols));
    xs.push_back(x);
    guards.push_back(scf::IfOp::create(rewriter, loc, inRange,
                                       /*withElseRegion=*/false));
    // Always true in a block inside the range: arvr-specialize-interior.
    guards.back()->setAttr("arvr.boundary", rewriter.getUnitAttr());
    rewriter.setInsertionPointAfter(guards.back());
  }
  Block *first = guards.front().thenBlock();
  rewriter.eraseOp(body->getTerminator());
  rewriter.inlineBlockBefore(body, first->getTerminator(), ValueRange{y, x0});
  if (fixup)
    fixup();
  for (int64_t k = 1; k < pixels; ++k) {
    IRMapping mapping;
    mapping.map(x0, xs[k]);
    rewriter.setInsertionPoint(guards[k].thenBlock()->getTerminator());
    for (Operation &op : first->without_terminator())
      rewriter.clone(op, mapping);
  }
  rewriter.setInsertionPointAfter(guards.back());
}

/// Names the kernel `launch` will be outlined into after the function and
/// the stage `loop` computes (`<function>_<stage>`), in a gpu.module named
/// after the function (`<function>_kernels`).
static void nameLaunch(gpu::LaunchOp launch, scf::ParallelOp loop) {
  auto stage = loop->getAttrOfType<StringAttr>("arvr.stage");
  if (!stage)
    return;
  StringRef func = loop->getParentOfType<func::FuncOp>().getSymName();
  MLIRContext *context = launch.getContext();
  launch.setModuleAttr(
      FlatSymbolRefAttr::get(context, func.str() + "_kernels"));
  launch.setFunctionAttr(FlatSymbolRefAttr::get(
      context, func.str() + "_" + stage.getValue().str()));
}

/// Whether `loop` is an outermost 2-D scf.parallel from 0 with step 1.
static bool isMappable(scf::ParallelOp loop) {
  return loop && !loop->getParentOfType<scf::ParallelOp>() &&
         !loop->getParentOfType<gpu::LaunchOp>() &&
         loop->getParentOfType<func::FuncOp>() && loop.getNumLoops() == 2 &&
         loop.getNumResults() == 0 &&
         llvm::all_of(loop.getLowerBound(),
                      [](Value v) { return matchPattern(v, m_Zero()); }) &&
         llvm::all_of(loop.getStep(),
                      [](Value v) { return matchPattern(v, m_One()); });
}

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
    auto [blockX, blockY] = blockOf(loop, this->blockX, this->blockY);
    int64_t pixels = pixelsOf(loop);
    Value rowsEnd = loop.getUpperBound()[0];
    Value colsEnd = loop.getUpperBound()[1];
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value blockSizeX = arith::ConstantIndexOp::create(rewriter, loc, blockX);
    Value blockSizeY = arith::ConstantIndexOp::create(rewriter, loc, blockY);
    // A block covers blockX * pixels columns.
    Value tileX =
        arith::ConstantIndexOp::create(rewriter, loc, blockX * pixels);
    Value gridX = arith::CeilDivSIOp::create(rewriter, loc, colsEnd, tileX);
    Value gridY =
        arith::CeilDivSIOp::create(rewriter, loc, rowsEnd, blockSizeY);
    auto launch = gpu::LaunchOp::create(rewriter, loc, gridX, gridY, one,
                                        blockSizeX, blockSizeY, one);
    nameLaunch(launch, loop);

    // In the kernel: this thread's points, each computed if in range.
    Block &body = launch.getBody().front();
    rewriter.setInsertionPointToStart(&body);
    Value x = arith::AddIOp::create(
        rewriter, loc,
        arith::MulIOp::create(rewriter, loc, launch.getBlockIds().x, tileX),
        launch.getThreadIds().x);
    Value y = arith::AddIOp::create(
        rewriter, loc,
        arith::MulIOp::create(rewriter, loc, launch.getBlockIds().y,
                              blockSizeY),
        launch.getThreadIds().y);
    emitPoints(rewriter, loc, loop.getBody(), y, x, pixels, blockSizeX, rowsEnd,
               colsEnd, nullptr);
    gpu::TerminatorOp::create(rewriter, loc);
    rewriter.eraseOp(loop);
    return success();
  }

  int64_t blockX, blockY;
};

/// A stage computed in shared memory (its loop marked `arvr.gpu_shared`,
/// writing a buffer that one other loop reads) and its reader become one
/// gpu.launch over the reader's tiles: each block computes the stage's
/// tile and halo into dynamic shared memory, cooperatively (each thread a
/// strided share of it), waits at a barrier, then computes its tile of the
/// reader reading shared memory instead of the buffer.
///
/// arvr-infer-bounds made the stage's window the reader's grown by a fixed
/// halo (reads at the reader's x, y plus uniform offsets), so in the
/// stage's own coordinates, the tile of reader rows [r0, r0 + by) needs the
/// stage rows [r0, r0 + by + (stage height - reader height)), and the same
/// for columns: the shared tile is (by + extra rows) x (bx + extra columns).
struct SharedStageToLaunch : public OpRewritePattern<scf::ParallelOp> {
  SharedStageToLaunch(MLIRContext *context, int64_t blockX, int64_t blockY)
      : OpRewritePattern(context), blockX(blockX), blockY(blockY) {}

  LogicalResult matchAndRewrite(scf::ParallelOp stage,
                                PatternRewriter &rewriter) const override {
    if (!stage->hasAttr("arvr.gpu_shared") || !isMappable(stage))
      return rewriter.notifyMatchFailure(stage, "not a shared stage's loop");
    // The buffer the stage writes, and the one loop that reads it.
    memref::AllocOp buffer;
    stage.walk([&](memref::StoreOp store) {
      if (auto alloc = store.getMemRef().getDefiningOp<memref::AllocOp>())
        buffer = alloc;
    });
    if (!buffer || buffer->getBlock() != stage->getBlock())
      return rewriter.notifyMatchFailure(stage, "no buffer of its own");
    scf::ParallelOp reader;
    SmallVector<memref::LoadOp> loads;
    SmallVector<memref::StoreOp> stores;
    Operation *dealloc = nullptr;
    for (Operation *user : buffer->getUsers()) {
      if (isa<memref::DeallocOp>(user)) {
        dealloc = user;
        continue;
      }
      if (auto store = dyn_cast<memref::StoreOp>(user);
          store && stage->isAncestor(store)) {
        stores.push_back(store);
        continue;
      }
      auto load = dyn_cast<memref::LoadOp>(user);
      Operation *top = user;
      while (top && top->getBlock() != stage->getBlock())
        top = top->getParentOp();
      auto loop = dyn_cast_or_null<scf::ParallelOp>(top);
      if (!load || !loop || (reader && loop != reader))
        return rewriter.notifyMatchFailure(stage, "not one reading loop");
      reader = loop;
      loads.push_back(load);
    }
    if (!reader || !isMappable(reader) || !stage->isBeforeInBlock(reader))
      return rewriter.notifyMatchFailure(stage, "no reader to fuse with");

    Location loc = reader.getLoc();
    rewriter.setInsertionPoint(reader);
    auto [bx, by] = blockOf(reader, blockX, blockY);
    int64_t pixels = pixelsOf(reader);
    auto index = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(rewriter, loc, v);
    };
    Value one = index(1), blockSizeX = index(bx), blockSizeY = index(by);
    // The reader's tile: bx * pixels columns (each thread `pixels` points,
    // spaced by bx) by `by` rows.
    Value readerTileX = index(bx * pixels);
    Value stageRows = stage.getUpperBound()[0];
    Value stageCols = stage.getUpperBound()[1];
    Value rows = reader.getUpperBound()[0];
    Value cols = reader.getUpperBound()[1];
    // The shared tile: (by + extra rows) x (bx pixels + extra columns) x
    // channels.
    Value tileRows = arith::AddIOp::create(
        rewriter, loc, blockSizeY,
        arith::SubIOp::create(rewriter, loc, stageRows, rows));
    Value tileCols = arith::AddIOp::create(
        rewriter, loc, readerTileX,
        arith::SubIOp::create(rewriter, loc, stageCols, cols));
    MemRefType bufferType = buffer.getType();
    Value channels = bufferType.isDynamicDim(2)
                         ? buffer.getDynamicSizes().back()
                         : index(bufferType.getDimSize(2));
    int64_t elementBytes = bufferType.getElementTypeBitWidth() / 8;
    Value bytes = arith::MulIOp::create(
        rewriter, loc,
        arith::MulIOp::create(
            rewriter, loc,
            arith::MulIOp::create(rewriter, loc, tileRows, tileCols), channels),
        index(elementBytes));
    Value bytes32 =
        arith::IndexCastOp::create(rewriter, loc, rewriter.getI32Type(), bytes);
    Value gridX = arith::CeilDivSIOp::create(rewriter, loc, cols, readerTileX);
    Value gridY = arith::CeilDivSIOp::create(rewriter, loc, rows, blockSizeY);
    auto launch = gpu::LaunchOp::create(rewriter, loc, gridX, gridY, one,
                                        blockSizeX, blockSizeY, one, bytes32);
    nameLaunch(launch, reader);

    Block &body = launch.getBody().front();
    rewriter.setInsertionPointToStart(&body);
    Value tx = launch.getThreadIds().x, ty = launch.getThreadIds().y;
    Value row0 = arith::MulIOp::create(rewriter, loc, launch.getBlockIds().y,
                                       blockSizeY);
    Value col0 = arith::MulIOp::create(rewriter, loc, launch.getBlockIds().x,
                                       readerTileX);
    auto workgroup = gpu::AddressSpaceAttr::get(
        rewriter.getContext(), gpu::GPUDialect::getWorkgroupAddressSpace());
    Value raw = gpu::DynamicSharedMemoryOp::create(
        rewriter, loc,
        MemRefType::get({ShapedType::kDynamic}, rewriter.getI8Type(),
                        MemRefLayoutAttrInterface(), workgroup));
    auto tileType =
        MemRefType::get(bufferType.getShape(), bufferType.getElementType(),
                        MemRefLayoutAttrInterface(), workgroup);
    SmallVector<Value, 3> tileSizes = {tileRows, tileCols};
    if (bufferType.isDynamicDim(2))
      tileSizes.push_back(channels);
    Value tile = memref::ViewOp::create(rewriter, loc, tileType, raw, index(0),
                                        tileSizes);

    // 1. The stage's tile: its points, numbered row by row, dealt out to
    //    the block's threads in turn (thread t = ty bx + tx computes points
    //    t, t + bx by, ...), so that every thread but the last few does the
    //    same number of points whatever the tile's shape; (row0 + p / cols,
    //    col0 + p % cols) when inside the stage's window.
    Value thread = arith::AddIOp::create(
        rewriter, loc, arith::MulIOp::create(rewriter, loc, ty, blockSizeX),
        tx);
    Value points = arith::MulIOp::create(rewriter, loc, tileRows, tileCols);
    auto overTile = scf::ForOp::create(rewriter, loc, thread, points,
                                       index(bx * by));
    rewriter.setInsertionPointToStart(overTile.getBody());
    Value point = overTile.getInductionVar();
    Value i = arith::AddIOp::create(
        rewriter, loc, row0,
        arith::DivUIOp::create(rewriter, loc, point, tileCols));
    Value j = arith::AddIOp::create(
        rewriter, loc, col0,
        arith::RemUIOp::create(rewriter, loc, point, tileCols));
    Value inside = arith::AndIOp::create(
        rewriter, loc,
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt, i,
                              stageRows),
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt, j,
                              stageCols));
    auto inStage = scf::IfOp::create(rewriter, loc, inside, false);
    inStage->setAttr("arvr.boundary", rewriter.getUnitAttr());
    Block *stageBody = stage.getBody();
    rewriter.eraseOp(stageBody->getTerminator());
    rewriter.inlineBlockBefore(stageBody, inStage.thenBlock()->getTerminator(),
                               ValueRange{i, j});
    for (memref::StoreOp store : stores) {
      rewriter.setInsertionPoint(store);
      SmallVector<Value, 3> at = {
          arith::SubIOp::create(rewriter, loc, store.getIndices()[0], row0),
          arith::SubIOp::create(rewriter, loc, store.getIndices()[1], col0),
          store.getIndices()[2]};
      rewriter.replaceOpWithNewOp<memref::StoreOp>(store, store.getValue(),
                                                   tile, at);
    }

    // 2. All of the tile is there.
    rewriter.setInsertionPointAfter(overTile);
    gpu::BarrierOp::create(rewriter, loc);

    // 3. The reader's tile, reading shared memory: the thread's points.
    Value y = arith::AddIOp::create(rewriter, loc, row0, ty);
    Value x = arith::AddIOp::create(rewriter, loc, col0, tx);
    emitPoints(rewriter, loc, reader.getBody(), y, x, pixels, blockSizeX, rows,
               cols, [&] {
                 for (memref::LoadOp load : loads) {
                   rewriter.setInsertionPoint(load);
                   SmallVector<Value, 3> at = {
                       arith::SubIOp::create(rewriter, loc,
                                             load.getIndices()[0], row0),
                       arith::SubIOp::create(rewriter, loc,
                                             load.getIndices()[1], col0),
                       load.getIndices()[2]};
                   rewriter.replaceOpWithNewOp<memref::LoadOp>(load, tile, at);
                 }
               });
    gpu::TerminatorOp::create(rewriter, loc);

    rewriter.eraseOp(reader);
    rewriter.eraseOp(stage);
    if (dealloc)
      rewriter.eraseOp(dealloc);
    rewriter.eraseOp(buffer);
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
    // First the stages in shared memory with their readers, then every
    // other loop on its own.
    RewritePatternSet shared(&getContext());
    shared.add<SharedStageToLaunch>(&getContext(), blockX, blockY);
    if (failed(applyPatternsGreedily(module, std::move(shared))))
      return signalPassFailure();
    bool ok = true;
    module.walk([&](scf::ParallelOp loop) {
      if (loop->hasAttr("arvr.gpu_shared")) {
        loop.emitError("a stage scheduled in shared memory could not be "
                       "fused with its reader");
        ok = false;
      }
    });
    if (!ok)
      return signalPassFailure();
    RewritePatternSet patterns(&getContext());
    patterns.add<ParallelLoopToLaunch>(&getContext(), blockX, blockY);
    if (failed(applyPatternsGreedily(module, std::move(patterns))))
      return signalPassFailure();
    // Every image is written on the device: a store left on the host would
    // write host memory the kernels never see.
    module.walk([&](memref::StoreOp store) {
      if (!store->getParentOfType<gpu::LaunchOp>()) {
        store.emitError("internal compiler error: an image is written "
                        "outside the GPU kernels");
        signalPassFailure();
      }
    });
  }
};

} // namespace
