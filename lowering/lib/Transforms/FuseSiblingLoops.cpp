//===- FuseSiblingLoops.cpp - A thread's equal loops as one ---------------===//
//
// A thread that computes several points (or channels) with reductions over
// the same taps (a Gaussian's over `-radius..radius`, a bilateral filter's
// window, a channel loop over an image's run-time channel count) runs one
// loop per point, each with the same bounds: what the points' iterations
// share (a tap's weight, loaded or computed from the tap; a bilateral
// filter's weight of a neighbour, the same for the three channels) is done
// once per loop, the loop's counting and branching once per point. This
// pass fuses such sibling `scf.for` loops anywhere in a function (the body
// of a `gpu.launch` on the GPU; a point's, on the CPU) into one loop whose
// body does each point's iteration in turn (MLIR's
// `fuseIndependentSiblingForLoops`), so that CSE and LLVM share it; each
// accumulator sees the same operations in the same order, so CPU and GPU
// results stay the same bits. Repeated to a fixed point: fused channel
// loops make their tap loops siblings.
//
// Only where the iterations share work (`sharesWork`): loops sharing only
// integer arithmetic only grow their body (stereo SAD's disparity loops,
// fused: 2.2x slower on an H100; the bilateral filter's window loops,
// fused: 2.5x faster there, 3.9x on the CPU).
//
// Two loops fuse when their bounds and steps are equal (the same values,
// or the same pure computation of them), their initial values are known
// before the first, what the second needs from between them is pure and
// can move before the first, and no memory is touched in a way the new
// order could change: the loops and the ops between them share no buffer
// that one writes and another reads, and two of them writing one buffer do
// so at indices that differ by a constant in a dimension fixed for both
// loops (two points' outputs); whether two memrefs are one buffer is
// Utils/Aliasing.h's answer (views of the dynamic shared memory are).
// Anything else with a memory effect (a barrier, a call) stops the fusion.
//
//===----------------------------------------------------------------------===//

#include "../Utils/AffineIndex.h"
#include "../Utils/Aliasing.h"
#include "../Utils/Equivalence.h"
#include "../Utils/MoveAbove.h"
#include "arvr/Lowering/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRFUSESIBLINGLOOPS
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;
using arvr::Access;
using arvr::collectAccesses;
using arvr::equivalent;
using arvr::sameOperation;

namespace {

/// Whether two writes to one buffer are at indices that differ by a
/// nonzero constant in a dimension whose index is fixed in `loops`.
static bool apart(const Access &a, const Access &b,
                  ArrayRef<Operation *> loops) {
  if (a.memref != b.memref || a.indices.size() != b.indices.size())
    return false;
  for (auto [x, y] : llvm::zip(a.indices, b.indices)) {
    arvr::Linear p = arvr::linearize(x), q = arvr::linearize(y);
    if (p.terms != q.terms || p.offset == q.offset)
      continue;
    bool fixed = llvm::all_of(p.terms, [&](auto &term) {
      Operation *where = term.first.getParentRegion()->getParentOp();
      return llvm::none_of(
          loops, [&](Operation *loop) { return loop->isAncestor(where); });
    });
    if (fixed)
      return true;
  }
  return false;
}

/// Whether accesses `a` (of one side) and `b` (of the other) may see each
/// other's effects in another order.
static bool conflict(ArrayRef<Access> a, ArrayRef<Access> b,
                     ArrayRef<Operation *> loops) {
  for (const Access &x : a)
    for (const Access &y : b) {
      if (!arvr::mayConflict(x, y))
        continue;
      if (x.write && y.write && apart(x, y, loops))
        continue;
      return true;
    }
  return false;
}

/// Whether `source`'s iterations would share work with `target`'s: an op
/// of its body (loops included) computes what one of `target`'s computes,
/// its operands equivalent values or, in turn, such ops' results (the
/// loops' induction variables and carried values taken as the same), and
/// is a load or has a floating-point result (a tap's weight, loaded or
/// computed from the tap alone). Integer arithmetic alone (a point's
/// address) does not count: fused loops that share nothing only grow
/// their body (a window of taps per disparity, measured 2.2x slower).
static bool sharesWork(scf::ForOp target, scf::ForOp source) {
  IRMapping same;
  same.map(source.getInductionVar(), target.getInductionVar());
  same.map(source.getRegionIterArgs(), target.getRegionIterArgs());
  DenseMap<OperationName, SmallVector<Operation *>> candidates;
  target.getBody()->walk(
      [&](Operation *op) { candidates[op->getName()].push_back(op); });
  bool shared = false;
  source.getBody()->walk<WalkOrder::PreOrder>([&](Operation *y) {
    if (shared || y->hasTrait<OpTrait::IsTerminator>())
      return;
    for (Operation *x : candidates[y->getName()]) {
      if (!sameOperation(x, y) ||
          !llvm::all_of(llvm::zip(x->getOperands(), y->getOperands()),
                        [&](auto pair) {
                          auto [p, q] = pair;
                          Value mapped = same.lookupOrDefault(q);
                          return mapped == p || equivalent(mapped, p);
                        }))
        continue;
      same.map(y->getResults(), x->getResults());
      for (auto [rx, ry] : llvm::zip(x->getRegions(), y->getRegions()))
        for (auto [bx, by] : llvm::zip(rx, ry))
          if (bx.getNumArguments() == by.getNumArguments())
            same.map(by.getArguments(), bx.getArguments());
      shared = isa<memref::LoadOp, vector::LoadOp>(y) ||
               llvm::any_of(y->getResultTypes(), [](Type t) {
                 return isa<FloatType>(getElementTypeOrSelf(t));
               });
      return;
    }
  });
  return shared;
}

/// Fuses `source` into `target` (a later sibling) if legal and worth it;
/// the fused loop.
static scf::ForOp tryFuse(scf::ForOp target, scf::ForOp source,
                          RewriterBase &rewriter) {
  if (!equivalent(target.getLowerBound(), source.getLowerBound()) ||
      !equivalent(target.getUpperBound(), source.getUpperBound()) ||
      !equivalent(target.getStep(), source.getStep()))
    return {};
  Block *block = target->getBlock();
  auto before = [&](Value v) {
    Operation *def = v.getDefiningOp();
    Block *owner = def ? def->getBlock() : cast<BlockArgument>(v).getOwner();
    if (owner != block)
      return owner->getParentOp()->isProperAncestor(target);
    return !def || def->isBeforeInBlock(target);
  };
  if (!llvm::all_of(source.getInitArgs(), before))
    return {};
  // What the source uses from between the loops: pure, and movable above
  // the target with what it uses in turn.
  std::optional<SmallVector<Operation *>> moved =
      arvr::neededFromBetween(target, source, /*laterOperands=*/true);
  if (!moved)
    return {};
  SmallVector<Operation *> between = arvr::opsBetween(target, source);
  // Memory: the loops against each other, and the source against what
  // stays between them.
  SmallVector<Access> mine, theirs, middle;
  if (!collectAccesses(target, mine) || !collectAccesses(source, theirs))
    return {};
  for (Operation *op : between)
    if (!llvm::is_contained(*moved, op) && !collectAccesses(op, middle))
      return {};
  Operation *loops[] = {target, source};
  if (conflict(mine, theirs, loops) || conflict(middle, theirs, loops) ||
      !sharesWork(target, source))
    return {};
  // Move what the source needs above the target (in block order), the
  // source right after it, with the target's bounds.
  for (Operation *op : *moved)
    rewriter.moveOpBefore(op, target);
  rewriter.moveOpAfter(source, target);
  rewriter.modifyOpInPlace(source, [&] {
    source.getLowerBoundMutable().assign(target.getLowerBound());
    source.getUpperBoundMutable().assign(target.getUpperBound());
    source.getStepMutable().assign(target.getStep());
  });
  return fuseIndependentSiblingForLoops(target, source, rewriter);
}

/// Fuses one pair of sibling loops in `region`; whether it did.
static bool fuseOnePair(Region &region, RewriterBase &rewriter) {
  SmallVector<Block *> blocks;
  region.walk([&](Block *block) { blocks.push_back(block); });
  for (Block *block : blocks) {
    SmallVector<scf::ForOp> loops(block->getOps<scf::ForOp>());
    for (size_t i = 0; i < loops.size(); ++i)
      for (size_t j = i + 1; j < loops.size(); ++j)
        if (tryFuse(loops[i], loops[j], rewriter))
          return true;
  }
  return false;
}

struct ArvrFuseSiblingLoopsPass
    : public arvr::impl::ArvrFuseSiblingLoopsBase<ArvrFuseSiblingLoopsPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    for (auto func : getOperation().getOps<FunctionOpInterface>())
      while (fuseOnePair(func.getFunctionBody(), rewriter)) {
      }
  }
};

} // namespace
