//===- FusePointConsumers.cpp - A stage's point-wise readers in its loop --===//
//
// A stage stored in a buffer of its own (a pyramid level, which the next
// level reads around each point) may also be read by another stage at each
// point only (the level stored as an output: `half(x, y, c) = u8(l1(x, y,
// c))`): two loops over the same domain, the second re-reading what the
// first has just stored; on the GPU, two launches and the buffer's round
// trip through memory. This pass moves such a consumer's body into its
// producer's loop, after the producer's own, so that each point is computed
// and consumed in one iteration; the consumer's reads of the point take the
// values the producer's body stores (the stores stay, for the other
// readers).
//
// Producer P and consumer C are `scf.parallel` loops of one block (a
// function's body, as convert-arvr-to-loops emits them), P first, with
// equivalent bounds and steps (Utils/Equivalence.h), no results, and
// schedules that agree (C's block and pixels unset or P's; neither in
// shared memory). They fuse when:
// - every buffer both touch, one of them writing, is one that P writes and
//   C only reads, every store of P to it and every load of C from it at
//   its loop's own point (the loop's variables as the first indices, any
//   index after them): the element C reads at a point was written by P's
//   iteration at that point and by no other;
// - C can move up to follow P: what it uses from between them is pure and
//   moves above P with what it uses in turn; nothing that stays between
//   writes what C reads or touches what C writes (Utils/Aliasing.h says
//   which memrefs may share memory; an allocation touches nothing C uses, a
//   deallocation writes its buffer), and nothing else there has effects.
// Repeated to a fixed point (a consumer's own consumers follow). In the
// CUDA pipeline only: on the CPU each band's stage windows take in their
// readers' halos, so a level's loop and its output's cover other domains.
//
//===----------------------------------------------------------------------===//

#include "../Utils/Aliasing.h"
#include "../Utils/Equivalence.h"
#include "../Utils/MoveAbove.h"
#include "arvr/Dialect/ArvrDialect.h"
#include "arvr/Lowering/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SetVector.h"

#include <optional>

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRFUSEPOINTCONSUMERS
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;
using namespace mlir::arvr;

namespace {

/// Whether `indices` start with `loop`'s induction variables, in order.
static bool atOwnPoint(ValueRange indices, scf::ParallelOp loop) {
  ValueRange ivs = loop.getInductionVars();
  return indices.size() >= ivs.size() &&
         llvm::equal(indices.take_front(ivs.size()), ivs);
}

/// Whether the schedules of `producer` and `consumer` agree: neither in
/// shared memory, the consumer's block and pixels unset or the producer's.
static bool schedulesAgree(scf::ParallelOp producer, scf::ParallelOp consumer) {
  auto p =
      producer->getAttrOfType<LoopScheduleAttr>(ArvrDialect::kScheduleAttrName);
  auto c =
      consumer->getAttrOfType<LoopScheduleAttr>(ArvrDialect::kScheduleAttrName);
  if ((p && p.getShared()) || (c && c.getShared()))
    return false;
  if (!c)
    return true;
  ArrayRef<int64_t> producerBlock = p ? p.getBlock() : ArrayRef<int64_t>();
  std::optional<int64_t> producerPixels =
      p ? p.getPixels() : std::optional<int64_t>();
  return (c.getBlock().empty() || c.getBlock() == producerBlock) &&
         (!c.getPixels() || c.getPixels() == producerPixels);
}

/// Whether the loops' iteration spaces are equal.
static bool sameSpace(scf::ParallelOp a, scf::ParallelOp b) {
  auto same = [](ValueRange x, ValueRange y) {
    return x.size() == y.size() && llvm::all_of(llvm::zip(x, y), [](auto pair) {
             return equivalent(std::get<0>(pair), std::get<1>(pair));
           });
  };
  return a.getNumResults() == 0 && b.getNumResults() == 0 &&
         same(a.getLowerBound(), b.getLowerBound()) &&
         same(a.getUpperBound(), b.getUpperBound()) &&
         same(a.getStep(), b.getStep());
}

/// Whether the loops' memory accesses allow the consumer's iteration at a
/// point to follow the producer's at that point (see the file comment).
/// `forwarded` gets the buffers the consumer reads at its point from the
/// producer's stores.
static bool pointwise(scf::ParallelOp producer, scf::ParallelOp consumer,
                      SmallVectorImpl<Value> &forwarded) {
  SmallVector<Access> mine, theirs;
  if (!collectAccesses(producer, mine) || !collectAccesses(consumer, theirs))
    return false;
  llvm::SetVector<Value> buffers;
  for (const Access &x : mine)
    for (const Access &y : theirs) {
      if (!mayConflict(x, y))
        continue;
      // Only a buffer the producer writes and the consumer reads, as one
      // memref (not views of it).
      if (y.write || x.memref != y.memref || !isDistinctBuffer(x.memref))
        return false;
      buffers.insert(x.memref);
    }
  for (Value buffer : buffers) {
    auto ownPoint = [&](ArrayRef<Access> accesses, scf::ParallelOp loop) {
      return llvm::all_of(accesses, [&](const Access &a) {
        return !mayAlias(a.memref, buffer) ||
               (a.memref == buffer && atOwnPoint(a.indices, loop));
      });
    };
    if (!ownPoint(mine, producer) || !ownPoint(theirs, consumer))
      return false;
  }
  forwarded.assign(buffers.begin(), buffers.end());
  return true;
}

/// The ops between `producer` and `consumer` to move above the producer
/// for the consumer to follow it, if it can: what the consumer's body
/// uses from between (pure, and what it uses in turn), and nothing that
/// stays between writing what the consumer reads or touching what it
/// writes (an allocation touches nothing the consumer can see, as it does
/// not use it; a deallocation writes its buffer; anything else must be
/// loads and stores).
static std::optional<SmallVector<Operation *>>
movedAbove(scf::ParallelOp producer, scf::ParallelOp consumer) {
  // The consumer's body: its own bounds are the producer's once fused.
  std::optional<SmallVector<Operation *>> moved =
      neededFromBetween(producer, consumer, /*laterOperands=*/false);
  SmallVector<Access> middle, theirs;
  if (!moved || !collectAccesses(consumer, theirs))
    return std::nullopt;
  for (Operation *op : opsBetween(producer, consumer)) {
    if (llvm::is_contained(*moved, op) || isa<memref::AllocOp>(op))
      continue;
    if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
      middle.push_back({dealloc.getMemref(), {}, true});
      continue;
    }
    if (!collectAccesses(op, middle))
      return std::nullopt;
  }
  if (mayConflict(middle, theirs))
    return std::nullopt;
  return moved;
}

/// Whether indices `a` and `b` are the same.
static bool sameIndices(ValueRange a, ValueRange b) {
  return a.size() == b.size() && llvm::all_of(llvm::zip(a, b), [](auto pair) {
           return equivalent(std::get<0>(pair), std::get<1>(pair));
         });
}

/// Whether indices `a` and `b` differ in a place where both are constants.
static bool apartIndices(ValueRange a, ValueRange b) {
  for (auto [x, y] : llvm::zip(a, b)) {
    APInt p, q;
    if (matchPattern(x, m_ConstantInt(&p)) &&
        matchPattern(y, m_ConstantInt(&q)) && p != q)
      return true;
  }
  return false;
}

/// In `body`, replaces each load of a `buffers` element that an earlier
/// store of the block wrote (nothing between it and the load writing that
/// element, as far as can be told) by the stored value.
static void forwardStores(Block &body, ArrayRef<Value> buffers,
                          RewriterBase &rewriter) {
  SmallVector<memref::LoadOp> loads;
  for (auto load : body.getOps<memref::LoadOp>())
    if (llvm::is_contained(buffers, load.getMemRef()))
      loads.push_back(load);
  for (memref::LoadOp load : loads) {
    for (Operation *op = load->getPrevNode(); op; op = op->getPrevNode()) {
      auto store = dyn_cast<memref::StoreOp>(op);
      if (store && store.getMemRef() == load.getMemRef()) {
        if (sameIndices(store.getIndices(), load.getIndices())) {
          rewriter.replaceOp(load, store.getValueToStore());
          break;
        }
        if (apartIndices(store.getIndices(), load.getIndices()))
          continue;
        break;
      }
      // Anything else that may write the buffer ends the search.
      SmallVector<Access> accesses;
      if (!collectAccesses(op, accesses) ||
          llvm::any_of(accesses, [&](const Access &a) {
            return a.write && mayAlias(a.memref, load.getMemRef());
          }))
        break;
    }
  }
}

/// Fuses `consumer` into `producer` if legal; whether it did.
static bool tryFuse(scf::ParallelOp producer, scf::ParallelOp consumer,
                    RewriterBase &rewriter) {
  SmallVector<Value> forwarded;
  if (!sameSpace(producer, consumer) || !schedulesAgree(producer, consumer) ||
      !pointwise(producer, consumer, forwarded) || forwarded.empty())
    return false;
  std::optional<SmallVector<Operation *>> moved =
      movedAbove(producer, consumer);
  if (!moved)
    return false;
  // In block order, so that each stays after what it uses.
  for (Operation *op : *moved)
    rewriter.moveOpBefore(op, producer);
  // The consumer's body after the producer's, on the producer's variables.
  Block *into = producer.getBody();
  Block *from = consumer.getBody();
  rewriter.eraseOp(from->getTerminator());
  rewriter.inlineBlockBefore(from, into->getTerminator(),
                             producer.getInductionVars());
  rewriter.eraseOp(consumer);
  forwardStores(*into, forwarded, rewriter);
  return true;
}

/// Fuses one consumer into its producer in `block`; whether it did.
static bool fuseOne(Block &block, RewriterBase &rewriter) {
  SmallVector<scf::ParallelOp> loops(block.getOps<scf::ParallelOp>());
  for (size_t i = 0; i < loops.size(); ++i)
    for (size_t j = i + 1; j < loops.size(); ++j)
      if (tryFuse(loops[i], loops[j], rewriter))
        return true;
  return false;
}

struct ArvrFusePointConsumersPass
    : public arvr::impl::ArvrFusePointConsumersBase<
          ArvrFusePointConsumersPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    for (auto func : getOperation().getOps<func::FuncOp>())
      for (Block &block : func.getBody())
        while (fuseOne(block, rewriter)) {
        }
  }
};

} // namespace
