//===- StageStores.cpp - A warp's wide stores made contiguous per lane ----===//
//
// arvr-wide-access gives each thread of a run of columns aligned 16- or
// 8-byte stores of its own bytes: for 16 RGB pixels, 48 contiguous bytes as
// three stores 16 bytes apart (for 8, 24 bytes as three stores 8 apart).
// Neighbouring lanes' runs are 48 bytes apart, so each store instruction of
// a warp writes 16 bytes of every 48: half sectors, which the L2 merges at
// a cost (Nsight, NV12 at 4K: L2 at 50% of its peak, DRAM at 10%). This
// pass stages such stores through shared memory, as hand-written CUDA
// does: each lane writes its n vectors of W bytes to its slot, the warp
// synchronises, and each lane then stores the group's vectors k * G + lane
// of the group, so that each store instruction of a group of G lanes
// writes G * W contiguous bytes.
//
// Where: in a gpu.launch whose block has a multiple of 32 threads and an x
// size G dividing 32 (the lanes of one group: the same thread y, threads x
// 0..G-1), in the wide version of arvr-wide-access (the vector.stores of
// vector<16xi8> or vector<8xi8>, aligned to their width, under the scf.if
// marked arvr.interior), for
// each group of n > 1 stores of one width W to one memref whose indices
// differ only by offsets 0, W, ..., W (n - 1), and in which thread x
// appears only as `thread_x * W n` (so lane x + 1's bytes follow lane
// x's). The launch must not use dynamic shared memory already; it gets
// G * by * W n bytes (the largest W n of its groups).
//
// Every lane of a warp must take the staged path: the interior version is
// decided per thread, so the warp votes (nvvm.vote.sync all) on the
// interior condition where all its lanes are present, before the split,
// and a group is staged only when the whole warp is interior, and only in a
// block every interior thread reaches (between the split and it, only
// scf.ifs on conditions the same for every thread, as the wide version's
// alignment test). Otherwise the thread stores as before. The bytes
// written are the same.
//
//===----------------------------------------------------------------------===//

#include "../Utils/AffineIndex.h"
#include "../Utils/SharedMemory.h"
#include "arvr/Lowering/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/CSE.h"

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRSTAGESTORES
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;

namespace {

constexpr int64_t kWarp = 32;

/// Whether `type` is a vector this pass stages: 16 or 8 bytes.
static bool isStagedVector(VectorType type) {
  return type.getRank() == 1 && type.getElementType().isInteger(8) &&
         (type.getNumElements() == 16 || type.getNumElements() == 8);
}

/// Whether `v` may be computed from `x`: true when it is, or when it is
/// made through more ops than this looks at.
static bool dependsOn(Value v, Value x, int depth = 0) {
  if (v == x)
    return true;
  Operation *op = v.getDefiningOp();
  if (!op)
    return false;
  if (depth > 32)
    return true;
  return llvm::any_of(op->getOperands(), [&](Value operand) {
    return dependsOn(operand, x, depth + 1);
  });
}

/// Whether `v` is the same for every thread of `launch`: made outside it,
/// or from its block ids and sizes by side-effect-free ops. False when
/// unsure (a thread id, a loop's variable, a read of memory, a deep
/// expression).
static bool isUniform(Value v, gpu::LaunchOp launch, int depth = 0) {
  if (!launch->isAncestor(v.getParentRegion()->getParentOp()))
    return true;
  if (auto argument = dyn_cast<BlockArgument>(v)) {
    if (argument.getOwner() != &launch.getBody().front())
      return false;
    gpu::KernelDim3 ids = launch.getThreadIds();
    return v != ids.x && v != ids.y && v != ids.z;
  }
  Operation *op = v.getDefiningOp();
  if (depth > 32 || op->getNumRegions() || !isMemoryEffectFree(op))
    return false;
  return llvm::all_of(op->getOperands(), [&](Value operand) {
    return isUniform(operand, launch, depth + 1);
  });
}

/// Whether every thread that reaches `split`'s then-block also reaches
/// `block`: each op between them is an scf.if on a uniform condition.
static bool reachedByAll(Block *block, scf::IfOp split, gpu::LaunchOp launch) {
  for (Operation *op = block->getParentOp(); op != split.getOperation();
       op = op->getBlock()->getParentOp()) {
    auto branch = dyn_cast<scf::IfOp>(op);
    if (!branch || !isUniform(branch.getCondition(), launch))
      return false;
  }
  return true;
}

/// A group of a thread's stores of `width`-byte vectors to one memref,
/// contiguous, in order of offset.
struct StoreGroup {
  Value memref;
  int64_t width;
  SmallVector<vector::StoreOp> stores;
};

/// The groups of `block`'s stores that lanes of a row can exchange (see
/// the file comment); `tx` is the launch's thread x.
static SmallVector<StoreGroup> findGroups(Block &block, Value tx) {
  // (memref, width, the index's terms) -> (offset, store).
  SmallVector<std::tuple<Value, int64_t, arvr::Linear,
                         SmallVector<std::pair<int64_t, vector::StoreOp>>>>
      candidates;
  for (auto store : block.getOps<vector::StoreOp>()) {
    auto type = store.getVectorType();
    int64_t width = type.getNumElements();
    // Aligned to its width, as arvr-wide-access's stores are: the staged
    // copies keep that alignment.
    if (!isStagedVector(type) || store.getIndices().size() != 1 ||
        store.getAlignment().value_or(0) < static_cast<uint64_t>(width))
      continue;
    arvr::Linear form = arvr::linearize(store.getIndices()[0]);
    int64_t offset = form.offset;
    form.offset = 0;
    auto it = llvm::find_if(candidates, [&](auto &c) {
      return std::get<0>(c) == store.getBase() && std::get<1>(c) == width &&
             std::get<2>(c) == form;
    });
    if (it == candidates.end())
      candidates.push_back({store.getBase(), width, form, {{offset, store}}});
    else
      std::get<3>(*it).push_back({offset, store});
  }
  SmallVector<StoreGroup> groups;
  for (auto &[memref, width, form, stores] : candidates) {
    llvm::sort(stores, [](auto &a, auto &b) { return a.first < b.first; });
    int64_t n = stores.size();
    bool contiguous = true;
    for (int64_t k = 0; k < n; ++k)
      contiguous &= stores[k].first == stores[0].first + k * width;
    // Thread x only as tx * W n: lane x + 1's bytes follow lane x's.
    int64_t txScale = 0;
    bool txElsewhere = false;
    for (auto [value, scale] : form.terms) {
      if (value == tx)
        txScale = scale;
      else if (dependsOn(value, tx))
        txElsewhere = true;
    }
    // A single vector a lane is contiguous with its neighbours' already.
    if (n < 2 || !contiguous || txElsewhere || txScale != n * width)
      continue;
    StoreGroup group{memref, width, {}};
    for (auto &[offset, store] : stores)
      group.stores.push_back(store);
    groups.push_back(std::move(group));
  }
  return groups;
}

/// Stages `group`: after its last store, `if (warpInterior) {staged} else
/// {the stores}`.
static void stage(OpBuilder &b, StoreGroup &group, Value warpInterior,
                  Value smem, Value linear, Value tx, int64_t lanes) {
  int64_t n = group.stores.size(), width = group.width;
  vector::StoreOp last = group.stores.front();
  for (vector::StoreOp store : group.stores)
    if (last->isBeforeInBlock(store))
      last = store;
  Location loc = last.getLoc();
  b.setInsertionPointAfter(last);
  auto split = scf::IfOp::create(b, loc, warpInterior, /*withElse=*/true);
  // The else branch: the stores as they were.
  for (vector::StoreOp store : group.stores)
    store->moveBefore(split.elseBlock()->getTerminator());
  // The staged branch.
  b.setInsertionPoint(split.thenBlock()->getTerminator());
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value slotBytes = index(n * width);
  Value mine = arith::MulIOp::create(b, loc, linear, slotBytes);
  for (auto [k, store] : llvm::enumerate(group.stores)) {
    Value at = arith::AddIOp::create(b, loc, mine, index(k * width));
    auto write = vector::StoreOp::create(b, loc, store.getValueToStore(), smem,
                                         ValueRange{at});
    write.setAlignment(width);
  }
  Value full = arith::ConstantIntOp::create(b, loc, -1, 32);
  NVVM::SyncWarpOp::create(b, loc, full);
  // The group's first lane: this lane's thread id less its x.
  Value groupSlot = arith::MulIOp::create(
      b, loc, arith::SubIOp::create(b, loc, linear, tx), slotBytes);
  Value firstIndex = group.stores.front().getIndices()[0];
  Value groupStart = arith::SubIOp::create(
      b, loc, firstIndex, arith::MulIOp::create(b, loc, tx, slotBytes));
  for (int64_t k = 0; k < n; ++k) {
    // Chunk k * lanes + x of the group's bytes.
    Value chunkBytes = arith::MulIOp::create(
        b, loc, arith::AddIOp::create(b, loc, tx, index(k * lanes)),
        index(width));
    auto read = vector::LoadOp::create(
        b, loc, group.stores.front().getVectorType(), smem,
        ValueRange{arith::AddIOp::create(b, loc, groupSlot, chunkBytes)});
    read.setAlignment(width);
    auto write = vector::StoreOp::create(
        b, loc, read, group.memref,
        ValueRange{arith::AddIOp::create(b, loc, groupStart, chunkBytes)});
    write.setAlignment(width);
  }
  // The slots are free again for the next group.
  NVVM::SyncWarpOp::create(b, loc, full);
}

/// The constant size of a launch's block dimension, or 0.
static int64_t constantOf(Value v) {
  APInt value;
  return matchPattern(v, m_ConstantInt(&value)) ? value.getSExtValue() : 0;
}

static void stageLaunch(gpu::LaunchOp launch) {
  int64_t bx = constantOf(launch.getBlockSizeX());
  int64_t by = constantOf(launch.getBlockSizeY());
  int64_t bz = constantOf(launch.getBlockSizeZ());
  if (bx < 1 || by < 1 || bz != 1 || (bx * by) % kWarp != 0 ||
      kWarp % bx != 0 || launch.getDynamicSharedMemorySize())
    return;
  // The split between interior and border versions, where every lane of a
  // warp is present: in the launch's body itself.
  Block &body = launch.getBody().front();
  scf::IfOp split;
  for (auto op : body.getOps<scf::IfOp>())
    if (op->hasAttr(arvr::kInteriorAttrName))
      split = op;
  if (!split)
    return;
  // Only launches with 16- or 8-byte stores in the interior; their
  // indices, made apart for each store, are first made one value each
  // where equal.
  bool wide = false;
  split.getThenRegion().walk([&](vector::StoreOp store) {
    wide |= isStagedVector(store.getVectorType());
  });
  if (!wide)
    return;
  IRRewriter rewriter(launch.getContext());
  DominanceInfo dominance(launch);
  eliminateCommonSubExpressions(rewriter, dominance, launch);
  Value tx = launch.getThreadIds().x, ty = launch.getThreadIds().y;
  // The wide versions' blocks: where arvr-wide-access put wide stores.
  SmallVector<std::pair<Block *, SmallVector<StoreGroup>>> work;
  int64_t bytesPerThread = 0;
  split.getThenRegion().walk([&](Block *block) {
    // All lanes of a warp exchange bytes: none may be elsewhere.
    if (!reachedByAll(block, split, launch))
      return;
    SmallVector<StoreGroup> groups = findGroups(*block, tx);
    for (StoreGroup &group : groups)
      bytesPerThread =
          std::max<int64_t>(bytesPerThread, group.stores.size() * group.width);
    if (!groups.empty())
      work.push_back({block, std::move(groups)});
  });
  if (work.empty())
    return;
  OpBuilder b(split);
  Location loc = split.getLoc();
  Value full = arith::ConstantIntOp::create(b, loc, -1, 32);
  Value warpInterior =
      NVVM::VoteSyncOp::create(b, loc, b.getI1Type(), full,
                               split.getCondition(), NVVM::VoteSyncKind::all);
  int64_t bytes = bx * by * bytesPerThread;
  OpBuilder outside(launch);
  launch.getDynamicSharedMemorySizeMutable().assign(
      arith::ConstantIntOp::create(outside, loc, bytes, 32));
  for (auto &[block, groups] : work) {
    b.setInsertionPointToStart(block);
    Value smem = arvr::createDynamicSharedBytes(b, loc);
    Value linear = arith::AddIOp::create(
        b, loc,
        arith::MulIOp::create(b, loc, ty,
                              arith::ConstantIndexOp::create(b, loc, bx)),
        tx);
    for (StoreGroup &group : groups)
      stage(b, group, warpInterior, smem, linear, tx, bx);
  }
}

struct ArvrStageStoresPass
    : public arvr::impl::ArvrStageStoresBase<ArvrStageStoresPass> {
  void runOnOperation() override {
    SmallVector<gpu::LaunchOp> launches;
    getOperation().walk(
        [&](gpu::LaunchOp launch) { launches.push_back(launch); });
    for (gpu::LaunchOp launch : launches)
      stageLaunch(launch);
  }
};

} // namespace
