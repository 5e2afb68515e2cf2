//===- ReuseLoads.cpp - A value read twice is read once ------------------===//
//
// A thread's points often read the same element: the taps of neighbouring
// points of a stencil (the vertical pass of a Gaussian, reading a column of
// its horizontal pass in shared memory, reads 12 rows for 4 points, not
// 36), or neighbouring points' shared coordinates. Their indices are made
// separately for each point (`y0 + 1 + j` and `y0 + (1 + j)`), so CSE does
// not see them equal, and a store to an output between two points stops it
// anyway. This pass replaces, within a block, a `memref.load` by an earlier
// load of the same memref whose indices are the same linear forms (sums of
// values times constants, plus a constant: see Utils/AffineIndex.h), when
// nothing between them may write that memref. What may write it:
//   - an op whose effects are unknown, or a `gpu.barrier` (other threads'
//     writes become visible): everything;
//   - a write to a memref that may alias it. Memrefs in different address
//     spaces never do; nor do distinct kernel arguments and allocations (the
//     runner gives every image and stage a buffer of its own, the contract
//     arvr-kernel-arg-aliasing also relies on); views of one buffer do.
// A value read twice is the same value, so results do not change.
//
//===----------------------------------------------------------------------===//

#include "../Utils/AffineIndex.h"
#include "../Utils/Aliasing.h"
#include "arvr/Lowering/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRREUSELOADS
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;

namespace {

/// A load still valid: its memref, its indices, its value.
struct Available {
  Value memref;
  SmallVector<arvr::Linear, 3> indices;
  Value value;
};

/// Drops what `op` may write from `available`.
static void forgetWrites(Operation *op, SmallVector<Available, 8> &available) {
  if (isa<gpu::BarrierOp>(op)) {
    available.clear();
    return;
  }
  std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
      getEffectsRecursively(op);
  if (!effects) {
    available.clear();
    return;
  }
  for (const MemoryEffects::EffectInstance &effect : *effects) {
    if (!isa<MemoryEffects::Write, MemoryEffects::Free>(effect.getEffect()))
      continue;
    Value written = effect.getValue();
    if (!written) {
      available.clear();
      return;
    }
    llvm::erase_if(available, [&](const Available &entry) {
      return arvr::mayAlias(written, entry.memref);
    });
  }
}

/// Reuses loads within `block`; returns how many were replaced.
static int64_t reuseInBlock(Block &block) {
  SmallVector<Available, 8> available;
  int64_t reused = 0;
  for (Operation &op : llvm::make_early_inc_range(block)) {
    auto load = dyn_cast<memref::LoadOp>(&op);
    if (!load) {
      forgetWrites(&op, available);
      continue;
    }
    SmallVector<arvr::Linear, 3> indices;
    for (Value index : load.getIndices())
      indices.push_back(arvr::linearize(index));
    auto same = llvm::find_if(available, [&](const Available &entry) {
      return entry.memref == load.getMemRef() && entry.indices == indices &&
             entry.value.getType() == load.getType();
    });
    if (same != available.end()) {
      load.getResult().replaceAllUsesWith(same->value);
      load.erase();
      ++reused;
      continue;
    }
    available.push_back({load.getMemRef(), std::move(indices), load});
  }
  return reused;
}

struct ArvrReuseLoadsPass
    : public arvr::impl::ArvrReuseLoadsBase<ArvrReuseLoadsPass> {
  void runOnOperation() override {
    SmallVector<Block *> blocks;
    getOperation()->walk([&](Block *block) { blocks.push_back(block); });
    for (Block *block : blocks)
      reuseInBlock(*block);
  }
};

} // namespace
