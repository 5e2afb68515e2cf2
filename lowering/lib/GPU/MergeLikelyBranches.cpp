//===- MergeLikelyBranches.cpp - One test for a point's likely branches ---===//
//
// A bilinear sample under a boundary is an `scf.if` on a test expected
// true (`llvm.intr.expect %inside, true`): the four pixels read as they
// are, or with the boundary's handling. A lens point samples its three
// channels, each behind its own test: on the GPU each is a divergent
// branch (the test, the branch, and the reconvergence around it) in the
// path every interior point takes, and each ends a basic block, so the
// back end schedules one channel's loads at a time.
//
// This pass merges, in each block of a gpu.launch, a run of such ifs with
// no write to memory between them (at most kMaxMerged: a pixel's
// channels; a store ends the run) into one:
//
//   %all = andi %c1, ..., %cn;  expect(%all, true)
//   scf.if then: the n plain branches, one after the other
//          else: the n original ifs, each on its own test
//
// The later ifs' tests and what their branches use are computed before
// the first if (the ops they come from move up, in their order); an if
// whose test depends on an earlier one's results ends the run. The ifs'
// branches may read memory but not write it. Every point computes the
// same values: where all tests hold, each branch is the one its own test
// takes; otherwise the original ifs decide.
//
//===----------------------------------------------------------------------===//

#include "../Utils/Likely.h"
#include "arvr/Lowering/Passes.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRMERGELIKELYBRANCHES
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;
using mlir::arvr::likelyTest;

namespace {

/// The most ifs merged into one: a pixel's four channels.
constexpr size_t kMaxMerged = 4;

/// Whether `op` (and what it holds) at most reads memory.
bool onlyReads(Operation *op) {
  auto effects = getEffectsRecursively(op);
  return effects && llvm::all_of(*effects, [](const auto &effect) {
           return isa<MemoryEffects::Read>(effect.getEffect());
         });
}

/// Adds to `ops` the ops of `first`'s block from `first` on that `op`
/// depends on (its operands, what its regions use from outside, and
/// theirs); false if one of them is in `earlier` (an if of the run).
bool slice(Operation *op, Operation *first,
           const llvm::SmallPtrSetImpl<Operation *> &earlier,
           llvm::SetVector<Operation *> &ops) {
  BackwardSliceOptions options;
  options.omitBlockArguments = true;
  options.omitUsesFromAbove = false;
  options.filter = [&](Operation *def) {
    return def->getBlock() == first->getBlock() && !def->isBeforeInBlock(first);
  };
  llvm::SetVector<Operation *> own;
  if (failed(getBackwardSlice(op, &own, options)) ||
      llvm::any_of(own, [&](Operation *def) { return earlier.contains(def); }))
    return false;
  ops.insert(own.begin(), own.end());
  return true;
}

/// Merges `run` (two or more likely ifs of one block, in order) into one.
void merge(ArrayRef<scf::IfOp> run) {
  scf::IfOp first = run.front();
  // The ifs after the first, and what they use, before it. A later if that
  // depends on an earlier one's results ends the run.
  llvm::SmallPtrSet<Operation *, 4> earlier{first};
  llvm::SetVector<Operation *> moved;
  size_t taken = 1;
  for (; taken < run.size(); ++taken) {
    llvm::SetVector<Operation *> own;
    if (!slice(run[taken], first, earlier, own))
      break;
    moved.insert(own.begin(), own.end());
    earlier.insert(run[taken]);
  }
  if (taken < 2)
    return;
  run = run.take_front(taken);
  SmallVector<Operation *> order(moved.begin(), moved.end());
  llvm::sort(order,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  for (Operation *op : order)
    op->moveBefore(first);

  OpBuilder builder(first);
  Location loc = first.getLoc();
  Value all = likelyTest(first);
  for (scf::IfOp op : run.drop_front())
    all = arith::AndIOp::create(builder, loc, all, likelyTest(op));
  Value yes =
      arith::ConstantIntOp::create(builder, loc, builder.getI1Type(), 1);
  Value likely = LLVM::ExpectOp::create(builder, loc, all, yes);
  auto merged = scf::IfOp::create(
      builder, loc, likely,
      [&](OpBuilder &then, Location at) {
        SmallVector<Value> results;
        IRMapping mapping;
        for (scf::IfOp op : run) {
          for (Operation &inner : op.thenBlock()->without_terminator())
            then.clone(inner, mapping);
          for (Value v : op.thenYield().getOperands())
            results.push_back(mapping.lookupOrDefault(v));
        }
        scf::YieldOp::create(then, at, results);
      },
      [&](OpBuilder &otherwise, Location at) {
        SmallVector<Value> results;
        for (scf::IfOp op : run)
          llvm::append_range(results, otherwise.clone(*op)->getResults());
        scf::YieldOp::create(otherwise, at, results);
      });
  unsigned next = 0;
  for (scf::IfOp op : run) {
    op.replaceAllUsesWith(merged.getResults().slice(next, op.getNumResults()));
    next += op.getNumResults();
    op.erase();
  }
}

/// The runs of likely ifs of `block` with no write between them.
SmallVector<SmallVector<scf::IfOp>> runsIn(Block &block) {
  SmallVector<SmallVector<scf::IfOp>> runs(1);
  auto close = [&] {
    if (!runs.back().empty())
      runs.emplace_back();
  };
  for (Operation &op : block) {
    auto branch = dyn_cast<scf::IfOp>(op);
    if (branch && likelyTest(branch) && branch.elseBlock() &&
        onlyReads(branch)) {
      runs.back().push_back(branch);
      if (runs.back().size() == kMaxMerged)
        close();
      continue;
    }
    if (!onlyReads(&op))
      close();
  }
  llvm::erase_if(runs, [](auto &run) { return run.size() < 2; });
  return runs;
}

struct ArvrMergeLikelyBranchesPass
    : public arvr::impl::ArvrMergeLikelyBranchesBase<
          ArvrMergeLikelyBranchesPass> {
  void runOnOperation() override {
    SmallVector<Block *> blocks;
    getOperation().walk([&](gpu::LaunchOp launch) {
      launch.getBody().walk([&](Block *block) { blocks.push_back(block); });
    });
    for (Block *block : blocks)
      for (SmallVector<scf::IfOp> &run : runsIn(*block))
        merge(run);
  }
};

} // namespace
