//===- MapToGPU.cpp - scf.parallel (y, x) onto gpu.launch -----------------===//
//
// Maps each outermost 2-D scf.parallel loop of a func.func onto a gpu.launch
// of 2-D thread blocks, each thread a run of consecutive points in each of
// its rows (or runs `pixels` times along x, a block's width apart: a
// schedule's gpu_pixels), each point guarded by the loop range; the block
// is the `block` of the loop's `arvr.schedule` (a schedule's gpu_tile) or
// the pass's default. A thread's points are a nest of scf.for loops marked
// `arvr.thread_points`, which arvr-specialize-interior unrolls in the
// interior version (and in the border version where they are few). A stage in
// shared memory is fused into its reader. First, loops of one iteration are
// inlined and constants folded (scf.for's canonical patterns only), so that the
// copies of a body for a thread's points are small.
//
// Preconditions: the loops start at 0 with step 1 and produce no results
// (what convert-arvr-to-loops emits). Afterwards the module is a
// gpu.container_module whose launches gpu-kernel-outlining can outline.
//
//===----------------------------------------------------------------------===//

#include "../Utils/AffineIndex.h"
#include "../Utils/SharedMemory.h"
#include "arvr/Dialect/ArvrDialect.h"
#include "arvr/Lowering/Passes.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <algorithm>
#include <numeric>

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRMAPTOGPU
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;

namespace {

/// The schedule convert-arvr-to-loops gave a stage's loop, if any.
static arvr::LoopScheduleAttr scheduleOf(scf::ParallelOp loop) {
  return loop->getAttrOfType<arvr::LoopScheduleAttr>(
      arvr::ArvrDialect::kScheduleAttrName);
}

/// The block of a loop: its schedule's (a gpu_tile), or the pass's
/// default.
static std::pair<int64_t, int64_t> blockOf(scf::ParallelOp loop, int64_t x,
                                           int64_t y) {
  if (auto schedule = scheduleOf(loop);
      schedule && !schedule.getBlock().empty())
    return {schedule.getBlock()[0], schedule.getBlock()[1]};
  return {x, y};
}

/// The points each thread of a loop's launch computes along x, a block's
/// width apart: its schedule's `pixels` (a gpu_pixels), or one.
static int64_t pixelsOf(scf::ParallelOp loop) {
  if (auto schedule = scheduleOf(loop); schedule && schedule.getPixels())
    return std::max<int64_t>(1, *schedule.getPixels());
  return 1;
}

/// Whether a stage's loop is computed in its reader's shared memory.
static bool isShared(scf::ParallelOp loop) {
  auto schedule = scheduleOf(loop);
  return schedule && schedule.getShared();
}

/// Budgets, in ops per thread (the loop body's ops times the points a
/// thread computes), for runs that fill 16- or 8-byte vectors and for runs
/// that fill 4-byte words: beyond them a longer run costs more compile time
/// and registers than its wider accesses save.
constexpr int64_t kVectorRunBudget = 2560;
constexpr int64_t kWordRunBudget = 2048;

/// The most points (run times rows) a thread of a chosen run computes: with
/// runs of 16 over two rows a 1080p frame's launch is under half a wave of
/// a 132-SM GPU, and its time is one thread's chain of work.
constexpr int64_t kMaxThreadPoints = 16;

/// The default block of a loop whose threads take runs of more than 4
/// points: its tile's width in points, and its threads.
constexpr int64_t kLongRunTile = 256, kLongRunThreads = 128;

/// The consecutive points along x each thread of `loop`'s launch computes
/// (`rows` rows of them): `option` when positive; otherwise the longest run
/// whose stored bytes per row come in whole 16-byte vectors, whole 8-byte
/// vectors (8 points of 3- or 1-byte pixels) or, failing those, whole
/// 4-byte words (4 points of 3-byte pixels), which arvr-wide-access
/// merges, within its budget and within kMaxThreadPoints points a thread.
/// One when none is, when the body has a loop (a reduction not unrolled:
/// repeated per point, it costs compile time, and what its iterations read
/// does not merge), or when a stored image's channel count is not known
/// when compiling.
static int64_t runOf(scf::ParallelOp loop, int64_t option, int64_t rows) {
  if (option > 0)
    return option;
  int64_t pixelBytes = 0, ops = 0;
  // Straight-line code storing pixels of a known size.
  bool known = true;
  loop.getBody()->walk([&](Operation *op) {
    ++ops;
    known &= !isa<LoopLikeOpInterface>(op);
    auto store = dyn_cast<memref::StoreOp>(op);
    if (!store)
      return;
    auto type = cast<MemRefType>(store.getMemRef().getType());
    if (type.getRank() != 3 || type.isDynamicDim(2) ||
        !type.getElementType().isIntOrFloat()) {
      known = false;
      return;
    }
    pixelBytes = std::max(pixelBytes, type.getDimSize(2) *
                                          type.getElementTypeBitWidth() / 8);
  });
  if (!known || pixelBytes == 0)
    return 1;
  for (auto [bytes, budget] :
       {std::pair<int64_t, int64_t>{16, kVectorRunBudget},
        {8, kVectorRunBudget},
        {4, kWordRunBudget}}) {
    int64_t run = bytes / std::gcd(bytes, pixelBytes);
    if (ops * run * rows <= budget && run * rows <= kMaxThreadPoints)
      return run;
  }
  return 1;
}

/// The points a thread computes: `rows` consecutive rows from `y0`, and in
/// each `pixels` runs of `run` consecutive points from `x0`, the runs `step`
/// apart.
struct ThreadPoints {
  Value y0, x0;
  int64_t rows, pixels, run;
  Value step;
};

/// Puts a loop's `body` (taking (y, x)) at the insertion point for each of
/// `points`, under `y < rows && x < cols` (a guard marked as boundary
/// handling), in a nest of scf.for loops over the thread's rows, runs and
/// run's points (those of more than one iteration), each marked
/// `arvr.thread_points`: arvr-specialize-interior unrolls them where it
/// proves the guards and the other boundary handling away, so that the
/// points' common work (reads of the same pixels) merges there, and leaves
/// a nest of many points a loop in the border version, one copy of the
/// body with its boundary handling instead of one a point. `fixup` runs on the
/// body once it is in place. The insertion point ends after the nest.
static void emitPoints(PatternRewriter &rewriter, Location loc, Block *body,
                       const ThreadPoints &points, Value rows, Value cols,
                       function_ref<void()> fixup) {
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, v);
  };
  Operation *outermost = nullptr;
  // The variable of a loop over `count` points (inserting into its body),
  // or null for one.
  auto over = [&](int64_t count) -> Value {
    if (count == 1)
      return {};
    auto loop =
        scf::ForOp::create(rewriter, loc, index(0), index(count), index(1));
    loop->setAttr(arvr::ArvrDialect::kThreadPointsAttrName,
                  rewriter.getUnitAttr());
    if (!outermost)
      outermost = loop;
    rewriter.setInsertionPoint(loop.getBody()->getTerminator());
    return loop.getInductionVar();
  };
  Value y = points.y0, x = points.x0;
  if (Value r = over(points.rows))
    y = arith::AddIOp::create(rewriter, loc, y, r);
  if (Value p = over(points.pixels))
    x = arith::AddIOp::create(
        rewriter, loc, x, arith::MulIOp::create(rewriter, loc, points.step, p));
  if (Value k = over(points.run))
    x = arith::AddIOp::create(rewriter, loc, x, k);
  Value inRange = arith::AndIOp::create(
      rewriter, loc,
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt, y, rows),
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt, x, cols));
  auto guard = scf::IfOp::create(rewriter, loc, inRange,
                                 /*withElseRegion=*/false);
  guard->setAttr(arvr::kBoundaryAttrName, rewriter.getUnitAttr());
  rewriter.eraseOp(body->getTerminator());
  rewriter.inlineBlockBefore(body, guard.thenBlock()->getTerminator(),
                             ValueRange{y, x});
  if (fixup)
    fixup();
  rewriter.setInsertionPointAfter(outermost ? outermost : guard.getOperation());
}

/// Names the kernel `launch` will be outlined into after the function and
/// the stage `loop` computes (`<function>_<stage>`), in a gpu.module named
/// after the function (`<function>_kernels`).
static void nameLaunch(gpu::LaunchOp launch, scf::ParallelOp loop) {
  auto schedule = scheduleOf(loop);
  if (!schedule)
    return;
  StringRef stage = schedule.getStage();
  StringRef func = loop->getParentOfType<func::FuncOp>().getSymName();
  MLIRContext *context = launch.getContext();
  launch.setModuleAttr(
      FlatSymbolRefAttr::get(context, func.str() + "_kernels"));
  launch.setFunctionAttr(
      FlatSymbolRefAttr::get(context, func.str() + "_" + stage.str()));
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
  ParallelLoopToLaunch(MLIRContext *context, int64_t blockX, int64_t blockY,
                       int64_t rowsPerThread, int64_t columnsPerThread)
      : OpRewritePattern(context), blockX(blockX), blockY(blockY),
        rowsPerThread(rowsPerThread), columnsPerThread(columnsPerThread) {}

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
    int64_t run = runOf(loop, columnsPerThread, rowsPerThread);
    // Without a gpu_tile, a block of long runs has 128 threads and a tile
    // kLongRunTile points wide (32 x 4 threads for runs of 8, 16 x 8 for
    // runs of 16): a warp's wide accesses then cover long stretches of
    // few rows, which the H200 streams faster than narrow, tall tiles
    // (docs/gpu-runs.md, 2026-12-04 05:00).
    int64_t defaultX = blockX, defaultY = blockY;
    if (run > 4 && kLongRunTile % run == 0) {
      defaultX = kLongRunTile / run;
      defaultY = std::max<int64_t>(1, kLongRunThreads / defaultX);
    }
    auto [blockX, blockY] = blockOf(loop, defaultX, defaultY);
    int64_t pixels = pixelsOf(loop);
    Value rowsEnd = loop.getUpperBound()[0];
    Value colsEnd = loop.getUpperBound()[1];
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value blockSizeX = arith::ConstantIndexOp::create(rewriter, loc, blockX);
    Value blockSizeY = arith::ConstantIndexOp::create(rewriter, loc, blockY);
    // A block covers blockX * run * pixels columns.
    Value tileX =
        arith::ConstantIndexOp::create(rewriter, loc, blockX * run * pixels);
    // And blockY * rowsPerThread rows: each thread consecutive rows.
    Value tileY =
        arith::ConstantIndexOp::create(rewriter, loc, blockY * rowsPerThread);
    Value gridX = arith::CeilDivSIOp::create(rewriter, loc, colsEnd, tileX);
    Value gridY = arith::CeilDivSIOp::create(rewriter, loc, rowsEnd, tileY);
    auto launch = gpu::LaunchOp::create(rewriter, loc, gridX, gridY, one,
                                        blockSizeX, blockSizeY, one);
    nameLaunch(launch, loop);

    // In the kernel: this thread's points, each computed if in range.
    Block &body = launch.getBody().front();
    rewriter.setInsertionPointToStart(&body);
    Value x = arith::AddIOp::create(
        rewriter, loc,
        arith::MulIOp::create(rewriter, loc, launch.getBlockIds().x, tileX),
        arith::MulIOp::create(
            rewriter, loc, launch.getThreadIds().x,
            arith::ConstantIndexOp::create(rewriter, loc, run)));
    Value y = arith::AddIOp::create(
        rewriter, loc,
        arith::MulIOp::create(rewriter, loc, launch.getBlockIds().y, tileY),
        arith::MulIOp::create(
            rewriter, loc, launch.getThreadIds().y,
            arith::ConstantIndexOp::create(rewriter, loc, rowsPerThread)));
    emitPoints(rewriter, loc, loop.getBody(),
               {y, x, rowsPerThread, pixels, run,
                arith::ConstantIndexOp::create(rewriter, loc, blockX * run)},
               rowsEnd, colsEnd, nullptr);
    gpu::TerminatorOp::create(rewriter, loc);
    rewriter.eraseOp(loop);
    return success();
  }

  int64_t blockX, blockY, rowsPerThread, columnsPerThread;
};

/// A shared stage's buffer, the stores of the stage into it, its one
/// reading loop and that loop's loads, and its dealloc (if any).
struct SharedPair {
  memref::AllocOp buffer;
  scf::ParallelOp reader;
  SmallVector<memref::LoadOp> loads;
  SmallVector<memref::StoreOp> stores;
  Operation *dealloc = nullptr;
};

/// Finds what `stage` (a loop whose schedule says shared) writes and the one
/// loop after it that reads it; failure if there is no such pair.
static LogicalResult findSharedPair(scf::ParallelOp stage, SharedPair &pair) {
  stage.walk([&](memref::StoreOp store) {
    if (auto alloc = store.getMemRef().getDefiningOp<memref::AllocOp>())
      pair.buffer = alloc;
  });
  if (!pair.buffer || pair.buffer->getBlock() != stage->getBlock())
    return failure();
  for (Operation *user : pair.buffer->getUsers()) {
    if (isa<memref::DeallocOp>(user)) {
      pair.dealloc = user;
      continue;
    }
    if (auto store = dyn_cast<memref::StoreOp>(user);
        store && stage->isAncestor(store)) {
      pair.stores.push_back(store);
      continue;
    }
    auto load = dyn_cast<memref::LoadOp>(user);
    Operation *top = user;
    while (top && top->getBlock() != stage->getBlock())
      top = top->getParentOp();
    auto loop = dyn_cast_or_null<scf::ParallelOp>(top);
    if (!load || !loop || (pair.reader && loop != pair.reader))
      return failure();
    pair.reader = loop;
    pair.loads.push_back(load);
  }
  if (!pair.reader || !isMappable(pair.reader) ||
      !stage->isBeforeInBlock(pair.reader))
    return failure();
  return success();
}

/// Consecutive points of a row of a shared stage's tile each thread
/// computes in turn.
constexpr int64_t kRun = 4;

/// The indices into a tile of the point (`row`, `col`, `channel`). A
/// `planar` tile (one whose channel count is not known when compiling) has
/// its channel outermost, so that its rows are a fixed number of elements
/// apart: a thread's consecutive rows load at constant offsets from one
/// address. Otherwise the channels are interleaved, as in the image.
static SmallVector<Value, 3> tileIndices(bool planar, Value row, Value col,
                                         Value channel) {
  if (planar)
    return {channel, row, col};
  return {row, col, channel};
}

/// Computes the tile of a shared stage (the loop `stage`, writing through
/// `stores`) into `tile`, from the launch's start: each row of the tile in
/// runs of kRun consecutive points (the last run of a row cut at its end),
/// so that the points of a run, neighbours in a row, share most of what
/// they read (a stencil's taps: arvr-reuse-loads and arvr-wide-access then
/// read each byte once). Point k of run (row r, run q of the row) is
/// (origin + (r, q kRun + k)), computed when it is in the tile and inside
/// the stage's `window` (a guard marked as boundary handling).
///
/// Where the runs of a row are a number R known when compiling and at most
/// the block's T threads, thread t = ty bx + tx keeps one run column,
/// t % R, and takes the rows t / R, t / R + T / R, ... (the last T % R
/// threads idle): its column's part of each address is computed once, and
/// the loop steps by whole rows, with no division per run. Otherwise the
/// runs are numbered row by row and dealt out in turn (thread t computes
/// runs t, t + T, ..., each split into row and run by a division).
/// Returns the loop over the runs.
static scf::ForOp emitStageTile(PatternRewriter &rewriter, Location loc,
                                scf::ParallelOp stage,
                                ArrayRef<memref::StoreOp> stores, Value tile,
                                bool planar, std::array<Value, 2> origin,
                                std::array<Value, 2> tileSize,
                                std::array<Value, 2> window, Value tx, Value ty,
                                int64_t bx, int64_t by) {
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, v);
  };
  auto [row0, col0] = origin;
  auto [tileRows, tileCols] = tileSize;
  auto [stageRows, stageCols] = window;
  Value thread = arith::AddIOp::create(
      rewriter, loc, arith::MulIOp::create(rewriter, loc, ty, index(bx)), tx);
  int64_t threads = bx * by;
  arvr::Linear cols = arvr::linearize(tileCols);
  int64_t staticRuns = cols.terms.empty() && cols.offset > 0
                           ? (cols.offset + kRun - 1) / kRun
                           : 0;
  scf::ForOp overTile;
  Value i, runStart;
  if (staticRuns > 0 && staticRuns <= threads) {
    // A run column per thread, whole rows per step.
    int64_t step = threads / staticRuns;
    Value first =
        arith::DivUIOp::create(rewriter, loc, thread, index(staticRuns));
    Value working =
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult, thread,
                              index(step * staticRuns));
    first = arith::SelectOp::create(rewriter, loc, working, first, tileRows);
    runStart = arith::MulIOp::create(
        rewriter, loc,
        arith::RemUIOp::create(rewriter, loc, thread, index(staticRuns)),
        index(kRun));
    overTile = scf::ForOp::create(rewriter, loc, first, tileRows, index(step));
    rewriter.setInsertionPointToStart(overTile.getBody());
    i = arith::AddIOp::create(rewriter, loc, row0, overTile.getInductionVar());
  } else {
    Value runsPerRow =
        arith::CeilDivUIOp::create(rewriter, loc, tileCols, index(kRun));
    Value runs = arith::MulIOp::create(rewriter, loc, tileRows, runsPerRow);
    overTile = scf::ForOp::create(rewriter, loc, thread, runs, index(threads));
    rewriter.setInsertionPointToStart(overTile.getBody());
    Value run = overTile.getInductionVar();
    i = arith::AddIOp::create(
        rewriter, loc, row0,
        arith::DivUIOp::create(rewriter, loc, run, runsPerRow));
    runStart = arith::MulIOp::create(
        rewriter, loc, arith::RemUIOp::create(rewriter, loc, run, runsPerRow),
        index(kRun));
  }
  auto lessThan = [&](Value a, Value b) -> Value {
    return arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt, a,
                                 b);
  };
  Value rowInside = lessThan(i, stageRows);
  // The first point: its place, its guard, the stage's body writing the
  // tile.
  Value column = runStart;
  Value j = arith::AddIOp::create(rewriter, loc, col0, column);
  Operation *lastOfPlace = j.getDefiningOp();
  Value inside = arith::AndIOp::create(
      rewriter, loc,
      arith::AndIOp::create(rewriter, loc, lessThan(column, tileCols),
                            rowInside),
      lessThan(j, stageCols));
  auto inStage = scf::IfOp::create(rewriter, loc, inside, false);
  inStage->setAttr(arvr::kBoundaryAttrName, rewriter.getUnitAttr());
  Block *stageBody = stage.getBody();
  rewriter.eraseOp(stageBody->getTerminator());
  rewriter.inlineBlockBefore(stageBody, inStage.thenBlock()->getTerminator(),
                             ValueRange{i, j});
  for (memref::StoreOp store : stores) {
    rewriter.setInsertionPoint(store);
    SmallVector<Value, 3> at = tileIndices(
        planar,
        arith::SubIOp::create(rewriter, loc, store.getIndices()[0], row0),
        arith::SubIOp::create(rewriter, loc, store.getIndices()[1], col0),
        store.getIndices()[2]);
    rewriter.replaceOpWithNewOp<memref::StoreOp>(store, store.getValue(), tile,
                                                 at);
  }
  // The run's other points: the same, a column further each.
  rewriter.setInsertionPointAfter(inStage);
  for (int64_t k = 1; k < kRun; ++k) {
    IRMapping mapping;
    mapping.map(column,
                arith::AddIOp::create(rewriter, loc, runStart, index(k)));
    mapping.map(j, arith::AddIOp::create(rewriter, loc, j, index(k)));
    for (Operation *op = lastOfPlace->getNextNode();
         op != inStage->getNextNode(); op = op->getNextNode())
      rewriter.clone(*op, mapping);
  }
  return overTile;
}

/// A shared stage of a launch: its loop, what it writes and where its
/// tile lives.
struct SharedMember {
  scf::ParallelOp loop;
  SharedPair pair;
  Value tile;        // The view of dynamic shared memory.
  bool planar;       // Its channel outermost (tileIndices).
  Value rows, cols;  // The tile's size.
  Value pitch;       // Its row's elements: cols, for bytes a multiple of 4.
  Operation *reader; // The loop reading it (a member or the launch's).
};

/// Collects the shared stages feeding `last` (a shared stage whose reader
/// is not shared), transitively: the stages, in block order, whose one
/// reader is `last` or another of them.
static void collectChain(scf::ParallelOp last, const SharedPair &pair,
                         SmallVector<SharedMember> &members) {
  members.push_back({last, pair, {}, false, {}, {}, {}, pair.reader});
  DenseSet<Operation *> inChain = {last};
  // Block order: a producer is before its reader, so one backward sweep
  // finds every member.
  for (Operation *op = last->getPrevNode(); op; op = op->getPrevNode()) {
    auto loop = dyn_cast<scf::ParallelOp>(op);
    if (!loop || !isShared(loop))
      continue;
    SharedPair feeds;
    if (failed(findSharedPair(loop, feeds)) || !inChain.contains(feeds.reader))
      continue;
    members.push_back({loop, feeds, {}, false, {}, {}, {}, feeds.reader});
    inChain.insert(loop);
  }
  std::reverse(members.begin(), members.end());
}

/// Replaces the loads of `pair`'s buffer (in its reader's body) by loads of
/// `tile`, whose first element is the buffer's (row0, col0).
static void readTile(PatternRewriter &rewriter, Location loc,
                     ArrayRef<memref::LoadOp> loads, Value tile, bool planar,
                     Value row0, Value col0) {
  for (memref::LoadOp load : loads) {
    rewriter.setInsertionPoint(load);
    SmallVector<Value, 3> at = tileIndices(
        planar,
        arith::SubIOp::create(rewriter, loc, load.getIndices()[0], row0),
        arith::SubIOp::create(rewriter, loc, load.getIndices()[1], col0),
        load.getIndices()[2]);
    rewriter.replaceOpWithNewOp<memref::LoadOp>(load, tile, at);
  }
}

/// The most consecutive rows a thread of a shared stage's reader computes.
constexpr int64_t kMaxSharedRows = 16;

/// The halo of rows assumed where it is not known when compiling (a
/// radius that is a parameter).
constexpr int64_t kUnknownHaloRows = 8;

/// The rows each thread of a shared stage's reader computes: `least`, or
/// more (up to kMaxSharedRows) where the stage's halo of rows (`root`, the
/// stage the reader reads, over the reader's `rows`; kUnknownHaloRows if
/// not fixed) would otherwise be more than an eighth of a block's tile of
/// `by` threads' rows: the rows of the halo are computed once per block,
/// and a thread's consecutive rows share most of the rows they read.
static int64_t readerRowsPerThread(SharedMember &root, Value rows, int64_t by,
                                   int64_t least) {
  arvr::Linear halo = arvr::linearize(root.loop.getUpperBound()[0]);
  arvr::Linear reader = arvr::linearize(rows);
  int64_t haloRows = halo.terms == reader.terms ? halo.offset - reader.offset
                                                : kUnknownHaloRows;
  int64_t wanted = (8 * haloRows + by - 1) / by;
  return std::clamp<int64_t>(wanted, least, std::max(least, kMaxSharedRows));
}

/// Shared stages (their loops' schedules say shared, each writing a buffer
/// that one other loop reads) and the loop that reads the last of them
/// become one gpu.launch over the reader's tiles: each block computes each
/// stage's tile and halo into dynamic shared memory, cooperatively (each
/// thread a strided share of it), producers first, a barrier after each,
/// then its tile of the reader, each loop reading shared memory instead of
/// the buffers. The stages form a tree whose root is read by the reader:
/// a stage read by a shared stage is computed over that stage's tile and
/// halo (a chain, like an input staged by arvr-stage-inputs under a
/// horizontal pass).
///
/// arvr-infer-bounds made each stage's window its reader's grown by a
/// fixed halo (reads at the reader's x, y plus uniform offsets), so in the
/// stage's own coordinates, the tile of reader rows [r0, r0 + by) needs
/// the stage rows [r0, r0 + by + (stage height - reader height)), and the
/// same for columns; every tile starts at the same (r0, c0). The tiles lie
/// one after the other in shared memory, each at a multiple of 16 bytes.
/// Sizes each member's tile: its reader's tile (the launch's reader's is
/// `readerTile`, (rows, cols) over a range ending at `readerEnd`) and the
/// difference of their windows. A tile of bytes gets rows of a multiple of
/// 4 elements, so that they start at aligned words (arvr-wide-access).
static void sizeTiles(PatternRewriter &rewriter, Location loc,
                      MutableArrayRef<SharedMember> members,
                      std::array<Value, 2> readerTile,
                      std::array<Value, 2> readerEnd) {
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, v);
  };
  // Readers come later in `members`.
  for (SharedMember &m : llvm::reverse(members)) {
    std::array<Value, 2> tile = readerTile, end = readerEnd;
    for (SharedMember &r : members)
      if (r.loop == m.reader) {
        tile = {r.rows, r.cols};
        end = {r.loop.getUpperBound()[0], r.loop.getUpperBound()[1]};
      }
    auto grown = [&](unsigned dim) -> Value {
      Value halo = arith::SubIOp::create(rewriter, loc,
                                         m.loop.getUpperBound()[dim], end[dim]);
      // A fixed halo (`(h + 8) - (h + 8)`, `(w + 8) - w`) as a constant.
      if (arvr::Linear form = arvr::linearize(halo); form.terms.empty())
        halo = index(form.offset);
      return arith::AddIOp::create(rewriter, loc, tile[dim], halo);
    };
    m.rows = grown(0);
    m.cols = grown(1);
    m.pitch = m.cols;
    if (m.pair.buffer.getType().getElementTypeBitWidth() == 8)
      m.pitch = arith::MulIOp::create(
          rewriter, loc,
          arith::CeilDivSIOp::create(rewriter, loc, m.cols, index(4)),
          index(4));
  }
}

/// Lays the members' tiles one after the other in dynamic shared memory
/// (`raw`, made in the launch), each at a multiple of 16 bytes: the total
/// of bytes, computed at the insertion point (before the launch), and, once
/// the insertion point is in the launch, `placeTiles` makes each view.
static Value tileBytes(PatternRewriter &rewriter, Location loc,
                       MutableArrayRef<SharedMember> members,
                       SmallVectorImpl<Value> &offsets) {
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, v);
  };
  Value bytes = index(0);
  for (SharedMember &m : members) {
    MemRefType type = m.pair.buffer.getType();
    Value channels = type.isDynamicDim(2)
                         ? m.pair.buffer.getDynamicSizes().back()
                         : index(type.getDimSize(2));
    Value size = arith::MulIOp::create(
        rewriter, loc,
        arith::MulIOp::create(
            rewriter, loc,
            arith::MulIOp::create(rewriter, loc, m.rows, m.pitch), channels),
        index(type.getElementTypeBitWidth() / 8));
    offsets.push_back(bytes);
    bytes = arith::MulIOp::create(
        rewriter, loc,
        arith::CeilDivSIOp::create(
            rewriter, loc, arith::AddIOp::create(rewriter, loc, bytes, size),
            index(16)),
        index(16));
  }
  return bytes;
}

/// Each member's tile: a view of `raw` at its offset.
static void placeTiles(PatternRewriter &rewriter, Location loc, Value raw,
                       MutableArrayRef<SharedMember> members,
                       ArrayRef<Value> offsets) {
  auto workgroup = cast<MemRefType>(raw.getType()).getMemorySpace();
  for (auto [m, offset] : llvm::zip(members, offsets)) {
    MemRefType type = m.pair.buffer.getType();
    m.planar =
        type.isDynamicDim(2) &&
        !matchPattern(m.pair.buffer.getDynamicSizes().back(), m_Constant());
    SmallVector<int64_t, 3> shape(type.getShape());
    SmallVector<Value, 3> tileSizes = {m.rows, m.pitch};
    if (m.planar) {
      tileSizes.insert(tileSizes.begin(),
                       m.pair.buffer.getDynamicSizes().back());
      std::rotate(shape.begin(), shape.begin() + 2, shape.end());
    } else if (type.isDynamicDim(2)) {
      tileSizes.push_back(m.pair.buffer.getDynamicSizes().back());
    }
    auto tileType = MemRefType::get(shape, type.getElementType(),
                                    MemRefLayoutAttrInterface(), workgroup);
    m.tile =
        memref::ViewOp::create(rewriter, loc, tileType, raw, offset, tileSizes);
  }
}

/// Shared stages (their loops' schedules say shared, each writing a buffer
/// that one other loop reads) and the loop that reads the last of them
/// become one gpu.launch over the reader's tiles: each block computes each
/// stage's tile and halo into dynamic shared memory, cooperatively (each
/// thread a strided share of it), producers first, a barrier after each,
/// then its tile of the reader, each loop reading shared memory instead of
/// the buffers. The stages form a tree whose root is read by the reader:
/// a stage read by a shared stage is computed over that stage's tile and
/// halo (a chain, like an input staged by arvr-stage-inputs under a
/// horizontal pass).
///
/// arvr-infer-bounds made each stage's window its reader's grown by a
/// fixed halo (reads at the reader's x, y plus uniform offsets), so in the
/// stage's own coordinates, the tile of reader rows [r0, r0 + by) needs
/// the stage rows [r0, r0 + by + (stage height - reader height)), and the
/// same for columns; every tile starts at the same (r0, c0).
struct SharedStageToLaunch : public OpRewritePattern<scf::ParallelOp> {
  SharedStageToLaunch(MLIRContext *context, int64_t blockX, int64_t blockY,
                      int64_t sharedRowsPerThread)
      : OpRewritePattern(context), blockX(blockX), blockY(blockY),
        sharedRowsPerThread(sharedRowsPerThread) {}

  LogicalResult matchAndRewrite(scf::ParallelOp stage,
                                PatternRewriter &rewriter) const override {
    if (!isShared(stage) || !isMappable(stage))
      return rewriter.notifyMatchFailure(stage, "not a shared stage's loop");
    SharedPair pair;
    if (failed(findSharedPair(stage, pair)))
      return rewriter.notifyMatchFailure(stage, "no buffer read by one loop");
    if (isShared(pair.reader))
      return rewriter.notifyMatchFailure(
          stage, "read by a shared stage: fused with the chain's reader");
    SmallVector<SharedMember> members;
    collectChain(stage, pair, members);
    scf::ParallelOp reader = pair.reader;
    Location loc = reader.getLoc();
    rewriter.setInsertionPoint(reader);
    auto [bx, by] = blockOf(reader, blockX, blockY);
    int64_t pixels = pixelsOf(reader);
    auto index = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(rewriter, loc, v);
    };
    Value one = index(1), blockSizeX = index(bx), blockSizeY = index(by);
    // The reader's tile: bx * pixels columns (each thread `pixels` points,
    // spaced by bx) by by * rowsPerThread rows (each thread consecutive
    // rows, which share most of the stage's rows they read).
    Value rows = reader.getUpperBound()[0];
    Value cols = reader.getUpperBound()[1];
    int64_t rowsPerThread =
        readerRowsPerThread(members.back(), rows, by, sharedRowsPerThread);
    Value readerTileX = index(bx * pixels);
    Value readerTileY = index(by * rowsPerThread);
    sizeTiles(rewriter, loc, members, {readerTileY, readerTileX}, {rows, cols});
    SmallVector<Value> offsets;
    Value bytes = tileBytes(rewriter, loc, members, offsets);
    Value bytes32 =
        arith::IndexCastOp::create(rewriter, loc, rewriter.getI32Type(), bytes);
    Value gridX = arith::CeilDivSIOp::create(rewriter, loc, cols, readerTileX);
    Value gridY = arith::CeilDivSIOp::create(rewriter, loc, rows, readerTileY);
    auto launch = gpu::LaunchOp::create(rewriter, loc, gridX, gridY, one,
                                        blockSizeX, blockSizeY, one, bytes32);
    nameLaunch(launch, reader);

    Block &body = launch.getBody().front();
    rewriter.setInsertionPointToStart(&body);
    Value tx = launch.getThreadIds().x, ty = launch.getThreadIds().y;
    Value row0 = arith::MulIOp::create(rewriter, loc, launch.getBlockIds().y,
                                       readerTileY);
    Value col0 = arith::MulIOp::create(rewriter, loc, launch.getBlockIds().x,
                                       readerTileX);
    Value raw = arvr::createDynamicSharedBytes(rewriter, loc);
    placeTiles(rewriter, loc, raw, members, offsets);

    // 1. Each stage's tile, reading its producers' tiles; all of it there
    //    before any reader goes on.
    for (SharedMember &m : members) {
      for (SharedMember &producer : members)
        if (producer.reader == m.loop.getOperation())
          readTile(rewriter, loc, producer.pair.loads, producer.tile,
                   producer.planar, row0, col0);
      rewriter.setInsertionPointToEnd(&body);
      scf::ForOp overTile =
          emitStageTile(rewriter, loc, m.loop, m.pair.stores, m.tile, m.planar,
                        {row0, col0}, {m.rows, m.cols},
                        {m.loop.getUpperBound()[0], m.loop.getUpperBound()[1]},
                        tx, ty, bx, by);
      rewriter.setInsertionPointAfter(overTile);
      gpu::BarrierOp::create(rewriter, loc);
    }

    // 2. The reader's tile, reading shared memory: the thread's points.
    Value y = arith::AddIOp::create(
        rewriter, loc, row0,
        arith::MulIOp::create(rewriter, loc, ty, index(rowsPerThread)));
    Value x = arith::AddIOp::create(rewriter, loc, col0, tx);
    SharedMember &root = members.back();
    emitPoints(rewriter, loc, reader.getBody(),
               {y, x, rowsPerThread, pixels, /*run=*/1, blockSizeX}, rows, cols,
               [&] {
                 readTile(rewriter, loc, root.pair.loads, root.tile,
                          root.planar, row0, col0);
               });
    gpu::TerminatorOp::create(rewriter, loc);

    rewriter.eraseOp(reader);
    for (SharedMember &m : llvm::reverse(members)) {
      rewriter.eraseOp(m.loop);
      if (m.pair.dealloc)
        rewriter.eraseOp(m.pair.dealloc);
      rewriter.eraseOp(m.pair.buffer);
    }
    return success();
  }

  int64_t blockX, blockY, sharedRowsPerThread;
};

struct ArvrMapToGPUPass
    : public arvr::impl::ArvrMapToGPUBase<ArvrMapToGPUPass> {
  using ArvrMapToGPUBase::ArvrMapToGPUBase;

  void runOnOperation() override {
    if (rowsPerThread < 1 || sharedRowsPerThread < 1 || columnsPerThread < 0) {
      getOperation().emitError("rows per thread must be at least 1, columns "
                               "per thread at least 0 (0: chosen)");
      return signalPassFailure();
    }
    if (blockX < 1 || blockY < 1 || blockX * blockY > 1024) {
      getOperation().emitError("block of ")
          << static_cast<int64_t>(blockX) << "x" << static_cast<int64_t>(blockY)
          << " threads is not a valid CUDA block (1 to 1024 threads)";
      return signalPassFailure();
    }
    ModuleOp module = getOperation();
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    UnitAttr::get(&getContext()));
    // Simplifying the regions of the unrolled launches at each step would
    // cost more than the mapping; the canonicaliser after the pass does it.
    GreedyRewriteConfig config;
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    // First each loop body made as small as it will be: the loops of one
    // iteration that unrolled reductions leave (a weight table's sum at
    // every tap) inlined and constants folded, before the bodies are
    // copied for each of a thread's points (the Gaussian's: 34 000 ops
    // after the mapping otherwise, 0.2 s to build and to fold again). Only
    // scf.for's patterns: a stage's scf.parallel of one row or point stays
    // a loop, to be mapped.
    RewritePatternSet loops(&getContext());
    scf::ForOp::getCanonicalizationPatterns(loops, &getContext());
    (void)applyPatternsGreedily(module, std::move(loops), config);
    // Then the stages in shared memory with their readers, then every
    // other loop on its own.
    RewritePatternSet shared(&getContext());
    shared.add<SharedStageToLaunch>(&getContext(), blockX, blockY,
                                    sharedRowsPerThread);
    if (failed(applyPatternsGreedily(module, std::move(shared), config)))
      return signalPassFailure();
    bool ok = true;
    module.walk([&](scf::ParallelOp loop) {
      if (isShared(loop)) {
        loop.emitError("a stage scheduled in shared memory could not be "
                       "fused with its reader");
        ok = false;
      }
    });
    if (!ok)
      return signalPassFailure();
    RewritePatternSet patterns(&getContext());
    patterns.add<ParallelLoopToLaunch>(&getContext(), blockX, blockY,
                                       rowsPerThread, columnsPerThread);
    if (failed(applyPatternsGreedily(module, std::move(patterns), config)))
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
