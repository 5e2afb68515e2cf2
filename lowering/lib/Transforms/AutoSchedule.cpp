//===- AutoSchedule.cpp - A schedule for a kernel written without one ----===//
//
// A kernel without a `schedule` block (`auto_schedule`) gets the schedule an
// experienced user would write for it, decided from its IR; every schedule
// gives the same bits, so only the speed changes. Two rules, each the
// schedule of the Gaussian example, which its figures justify:
//
// - Tables of parameters at the root. An inline function of at most one
//   coordinate (a table over i, or a single value) that reads no image,
//   depends on a scalar parameter not made a constant, and costs something
//   (a reduction, a math function, a read of another such table) is
//   computed once per run (compute_root) instead of at every read, where
//   every read's coordinate is a constant, a reduction variable, or sums
//   of them (arvr-infer-bounds sizes it from them). Cheap ones (pyr_down's
//   select of weights) and those of constants stay inline and fold.
// - Stencils of a costly function in shared memory. An inline function of
//   (x, y) or (x, y, c) making at least five reads a point, read by
//   one stage only (itself stored), always at the reader's x and y plus
//   offsets known when compiling (at most 16 away) spanning at least three
//   points, is computed in the reader's tiles in shared memory
//   (compute_shared): the separable pass of a blur computed once per point
//   instead of once per tap. Its reader gets blocks of 32 x 4 threads, the
//   Gaussian's best (H200, 4K batch 8: 41 us against 51 on 32 x 8
//   blocks), each thread a column of rows (arvr-map-to-gpu).
//
// Runs after arvr-specialize, so that known values (a blur's radius) are
// constants. Pixels per thread and tiles of other stages are
// arvr-map-to-gpu's own defaults; a stencil's input is then staged in
// shared memory by arvr-stage-inputs for a reader that runs in blocks.
//
//===----------------------------------------------------------------------===//

#include "../Utils/Translation.h"
#include "arvr/Dialect/ArvrDialect.h"
#include "arvr/Lowering/Passes.h"

#include "mlir/Dialect/Math/IR/Math.h"

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRAUTOSCHEDULE
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;
using namespace mlir::arvr;

namespace {

/// The fewest reads a point of a function must make (its taps) for its
/// stencil's reader to compute it in shared memory: a 3-tap sum stays
/// inline, a 5-tap one (or a reduction of unknown length) does not.
constexpr int64_t kMinTaps = 5;

/// The reads of `stage`'s values; false if something else uses them (an
/// output, a size).
static bool readsOf(StageOp stage, SmallVectorImpl<AccessOp> &reads) {
  for (Operation *user : stage.getResult().getUsers()) {
    auto access = dyn_cast<AccessOp>(user);
    if (!access || access.getImage() != stage.getResult())
      return false;
    reads.push_back(access);
  }
  return !reads.empty();
}

/// Whether `value`, a coordinate of a read of a table, is a constant, a
/// reduction variable, a coordinate of the reading stage where that stage
/// is in `tables` (at the root: its window is known), or sums and
/// differences of them, so that arvr-infer-bounds finds its range.
static bool isBoundable(Value value,
                        const llvm::SmallPtrSetImpl<Operation *> &tables) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *owner = arg.getOwner()->getParentOp();
    return isa<ReduceOp>(owner) || tables.contains(owner);
  }
  if (matchPattern(value, m_Constant()))
    return true;
  Operation *op = value.getDefiningOp();
  if (isa<arith::IndexCastOp, arith::ExtSIOp>(op))
    return isBoundable(op->getOperand(0), tables);
  return isa<arith::AddIOp, arith::SubIOp>(op) &&
         isBoundable(op->getOperand(0), tables) &&
         isBoundable(op->getOperand(1), tables);
}

/// Whether `stage` depends on a scalar parameter of its kernel (block
/// argument of `entry`), directly or through the stages it reads.
static bool isParametric(StageOp stage, Block *entry,
                         llvm::DenseMap<Operation *, bool> &memo) {
  auto [it, inserted] = memo.try_emplace(stage, false);
  if (!inserted)
    return it->second;
  bool parametric = false;
  stage.getBody().walk([&](Operation *op) {
    for (Value operand : op->getOperands()) {
      if (auto arg = dyn_cast<BlockArgument>(operand))
        parametric |= arg.getOwner() == entry;
      else if (auto source = operand.getDefiningOp<StageOp>())
        parametric |= isParametric(source, entry, memo);
    }
  });
  return memo[stage] = parametric;
}

/// Rule 1: the stages to compute once per run as tables of parameters.
/// The candidates are the inline stages of at most one coordinate that
/// depend on a parameter (one of constants alone folds inline, as
/// arvr-specialize makes it) and cost something (a reduction, a math
/// function, a read); those that read an image, its sizes or a stage
/// other than a candidate, or are read where their coordinate is not
/// boundable, drop out, until none does.
static llvm::SmallPtrSet<Operation *, 8> parameterTables(KernelOp kernel) {
  Block *entry = &kernel.getBody().front();
  llvm::DenseMap<Operation *, bool> parametric;
  llvm::SmallPtrSet<Operation *, 8> tables;
  for (StageOp stage : entry->getOps<StageOp>()) {
    Block &body = stage.getBody().front();
    bool costly = false;
    stage.getBody().walk([&](Operation *op) {
      costly |= isa<ReduceOp, AccessOp>(op) ||
                isa_and_nonnull<math::MathDialect>(op->getDialect());
    });
    if (stage.getInlined() && body.getArgument(1).use_empty() &&
        body.getArgument(2).use_empty() && costly &&
        isParametric(stage, entry, parametric))
      tables.insert(stage);
  }
  auto fits = [&](StageOp stage) {
    bool ok = true;
    stage.getBody().walk([&](Operation *op) {
      if (auto access = dyn_cast<AccessOp>(op))
        ok &= tables.contains(access.getImage().getDefiningOp());
      else if (isa<DimOp, SampleOp, PlaneOp>(op))
        ok = false;
    });
    SmallVector<AccessOp> reads;
    return ok && readsOf(stage, reads) &&
           llvm::all_of(reads, [&](AccessOp read) {
             return isBoundable(read.getX(), tables) &&
                    isBoundable(read.getY(), tables) &&
                    isBoundable(read.getC(), tables);
           });
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (StageOp stage : entry->getOps<StageOp>())
      if (tables.contains(stage) && !fits(stage)) {
        tables.erase(stage);
        changed = true;
      }
  }
  return tables;
}

/// The number of points of a stage (its reads' span, x by y) its one reader
/// reads around each of its own, if every read is at the reader's x and y
/// plus offsets known when compiling, within kMaxSharedHalo, and at the
/// reader's c or a constant; 0 otherwise. (An offset known only when running
/// could make a tile larger than shared memory.)
static int64_t stencilSpan(StageOp reader, ArrayRef<AccessOp> reads) {
  int64_t low[2] = {0, 0}, high[2] = {0, 0};
  for (AccessOp read : reads) {
    Value coords[2] = {read.getX(), read.getY()};
    for (unsigned dim = 0; dim < 2; ++dim) {
      Translation offset = translationOf(coords[dim], reader, dim);
      if (!offset.isTranslated() || !offset.range ||
          offset.range->first < -kMaxSharedHalo ||
          offset.range->second > kMaxSharedHalo)
        return 0;
      low[dim] = std::min(low[dim], offset.range->first);
      high[dim] = std::max(high[dim], offset.range->second);
    }
    // The reader's c, or one channel.
    Translation c = translationOf(read.getC(), reader, 2);
    if (!c.range || c.range->first != c.range->second ||
        (c.isTranslated() && c.range->first != 0))
      return 0;
  }
  return (high[0] - low[0] + 1) * (high[1] - low[1] + 1);
}

/// The reads a point of `stage` makes (of images or stages, each times the
/// terms of the reductions around it; a reduction whose range is not known
/// when compiling counts as kMinTaps terms): what its readers would redo at
/// each tap if it stayed inline.
static int64_t tapsOf(StageOp stage) {
  int64_t taps = 0;
  stage.getBody().walk([&](Operation *op) {
    if (isa<AccessOp, SampleOp>(op))
      taps += termsAround(op, stage, kMinTaps);
  });
  return taps;
}

/// Rule 2: the stage that reads `stage`, if `stage` is to be computed in
/// its tiles in shared memory.
static StageOp sharedReader(StageOp stage) {
  Block &body = stage.getBody().front();
  auto type = cast<ImageType>(stage.getResult().getType());
  if (!stage.getInlined() || body.getArgument(0).use_empty() ||
      body.getArgument(1).use_empty() || type.getElementType().isInteger(1))
    return {};
  SmallVector<AccessOp> reads;
  if (tapsOf(stage) < kMinTaps || !readsOf(stage, reads))
    return {};
  auto reader = reads.front()->getParentOfType<StageOp>();
  if (!reader || reader == stage || reader.getInlined() ||
      reader.getGpuShared() || llvm::any_of(reads, [&](AccessOp read) {
        return read->getParentOfType<StageOp>() != reader;
      }))
    return {};
  return stencilSpan(reader, reads) >= 3 ? reader : StageOp();
}

struct ArvrAutoSchedulePass
    : public arvr::impl::ArvrAutoScheduleBase<ArvrAutoSchedulePass> {
  void runOnOperation() override {
    getOperation().walk([&](KernelOp kernel) {
      if (!kernel.getAutoSchedule() || kernel.getBody().empty())
        return;
      SmallVector<StageOp> stages(kernel.getBody().front().getOps<StageOp>());
      for (Operation *table : parameterTables(kernel))
        cast<StageOp>(table).setInlined(false);
      for (StageOp stage : stages) {
        StageOp reader = sharedReader(stage);
        if (!reader)
          continue;
        stage.setInlined(false);
        stage.setGpuShared(true);
        if (!reader.getGpuBlock())
          reader.setGpuBlock(ArrayRef<int64_t>{32, 4});
      }
    });
  }
};

} // namespace
