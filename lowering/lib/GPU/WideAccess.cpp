//===- WideAccess.cpp - A thread's byte reads and writes as wide vectors --===//
//
// In the interior version of a gpu.launch (the then-branch of the scf.if
// marked `arvr.interior`), a thread reads and writes runs of neighbouring
// bytes: the pixels of its run of columns, their channels, a stencil's
// taps. This pass merges them: the loads of an image in one block at the
// same row and at columns `base + k` (k constant) become aligned vector
// loads of 4, 8 or 16 bytes covering them, each load then an element of
// one; the stores that fill such a vector whole become one vector store
// after the last of them. An image's row must then start at an aligned
// address: that is checked once per block. Where the images are made
// before the split, the check joins its condition, `if (interior &&
// aligned) {wide version} else {border version}`: rows that are not
// aligned take the border version, which handles every point, and the
// kernel carries no third copy of the body. Otherwise the interior version
// becomes `if (aligned) {wide version} else {the scalar version}`.
//
// What an index is, is found by a small affine decomposition:
// `root * num / den + offset` (exactly: `root * num` is known to be a
// multiple of `den` from how root is made: products by constants, sums,
// divisions by constants), through index casts, additions of constants,
// products by constants and unsigned divisions by constants. So the
// chroma row of an NV12 frame read at `(y0 + 1) / 2`, with y0 even, is the
// row read at `y0 / 2`.
//
//===----------------------------------------------------------------------===//

#include "../Utils/AffineIndex.h"
#include "../Utils/ImageViews.h"
#include "../Utils/SharedMemory.h"
#include "arvr/Lowering/Passes.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/MapVector.h"

#include <map>
#include <numeric>

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRWIDEACCESS
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;
using arvr::Affine;
using arvr::decompose;
using arvr::floorDiv;
using arvr::isWorkgroup;
using arvr::kBigDivisor;
using arvr::knownDivisor;
using arvr::rowsAligned;

namespace {

/// A memory access of a group: its byte within the row, from the base.
struct Access {
  Operation *op;
  int64_t byte;
};

/// The accesses of one image in one block at one row and one column base,
/// to be merged.
struct Group {
  Value memref;
  Affine row, column;
  Value rowIndex; // The row index of the first access (for addressing).
  int64_t align;  // The alignment of the base column's first byte.
  SmallVector<Access> accesses;
};

/// The access's row and column (its group's key) and its byte from the base
/// column's first byte, if it is an access to a u8 image with a static
/// channel count, at a constant channel.
static std::optional<std::tuple<Affine, Affine, int64_t>>
classify(Value memref, ValueRange indices) {
  auto type = dyn_cast<MemRefType>(memref.getType());
  if (!type || type.getRank() != 3 || type.isDynamicDim(2) ||
      !type.getElementType().isInteger(8) || !type.getLayout().isIdentity() ||
      (type.getMemorySpace() && !isWorkgroup(memref)))
    return std::nullopt;
  APInt channel;
  if (!matchPattern(indices[2], m_ConstantInt(&channel)))
    return std::nullopt;
  Affine row = decompose(indices[0]);
  Affine column = decompose(indices[1]);
  if (!column.root)
    return std::nullopt;
  int64_t channels = type.getDimSize(2);
  return std::make_tuple(row, column,
                         column.offset * channels + channel.getSExtValue());
}

/// The largest power of two, at most 16, dividing every value of the base
/// column's first byte.
static int64_t alignmentOf(const Affine &column, int64_t channels) {
  int64_t divisor = knownDivisor(column.root);
  if ((divisor * column.num) % column.den != 0)
    return 1;
  int64_t bytes =
      std::min(divisor * column.num / column.den * channels, kBigDivisor);
  int64_t align = 1;
  while (align < 16 && bytes % (align * 2) == 0)
    align *= 2;
  return align;
}

/// Groups the loads (or the stores) of `block` by image, row and column
/// base, in block order.
template <typename OpT>
static SmallVector<Group> groupAccesses(Block &block,
                                        const DenseSet<Value> &excluded) {
  SmallVector<Group> groups;
  for (Operation &op : block) {
    auto access = dyn_cast<OpT>(&op);
    if (!access || excluded.contains(access.getMemRef()))
      continue;
    auto key = classify(access.getMemRef(), access.getIndices());
    if (!key)
      continue;
    auto &[row, column, byte] = *key;
    Group *group = nullptr;
    for (Group &g : groups)
      if (g.memref == access.getMemRef() && g.row == row &&
          g.column.sameBase(column))
        group = &g;
    if (!group) {
      int64_t channels =
          cast<MemRefType>(access.getMemRef().getType()).getDimSize(2);
      groups.push_back({access.getMemRef(),
                        row,
                        column,
                        access.getIndices()[0],
                        alignmentOf(column, channels),
                        {}});
      group = &groups.back();
    }
    group->accesses.push_back({&op, byte});
  }
  return groups;
}

/// Builds the index of byte `byte` of a group's row, from its base column,
/// in the image flattened to one dimension.
static Value flatIndex(OpBuilder &b, Location loc, const Group &group,
                       Value flat, int64_t byte) {
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  auto type = cast<MemRefType>(group.memref.getType());
  int64_t channels = type.getDimSize(2);
  Value width = memref::DimOp::create(b, loc, group.memref, 1);
  Value pitch = arith::MulIOp::create(b, loc, width, index(channels));
  Value base = group.column.root;
  if (base.getType() != b.getIndexType())
    base = arith::IndexCastOp::create(b, loc, b.getIndexType(), base);
  if (group.column.num != 1)
    base = arith::MulIOp::create(b, loc, base, index(group.column.num));
  if (group.column.den != 1)
    base = arith::DivUIOp::create(b, loc, base, index(group.column.den));
  Value rowStart =
      arith::MulIOp::create(b, loc, group.rowIndex, pitch).getResult();
  Value column = arith::MulIOp::create(b, loc, base, index(channels));
  return arith::AddIOp::create(
      b, loc, arith::AddIOp::create(b, loc, rowStart, column), index(byte));
}

/// The block's flat view of `memref` (its bytes in one dimension), made
/// once, as early in the block as it can be.
static Value flatView(OpBuilder &b, Block &block, Value memref,
                      DenseMap<Value, Value> &views) {
  if (Value view = views.lookup(memref))
    return view;
  OpBuilder::InsertionGuard guard(b);
  // At the block's start, or after the memref where the block makes it (a
  // tile in shared memory).
  Operation *def = memref.getDefiningOp();
  if (def && def->getBlock() == &block)
    b.setInsertionPointAfter(def);
  else
    b.setInsertionPointToStart(&block);
  Value view = arvr::flatImage(b, memref.getLoc(), memref);
  views[memref] = view;
  return view;
}

/// Whether an op between the first and the last of `accesses` (not one of
/// them) reads `memref` (with `loads`) or writes it (with `stores`): then
/// they cannot all move to the first or to the last.
static bool touchedBetween(ArrayRef<Access> accesses, Value memref, bool loads,
                           bool stores) {
  DenseSet<Operation *> mine;
  for (const Access &access : accesses)
    mine.insert(access.op);
  auto base = [](Value v) -> Value {
    if (auto view = v.getDefiningOp<memref::ReinterpretCastOp>())
      return view.getSource();
    return v;
  };
  for (Operation *op = accesses.front().op; op != accesses.back().op;
       op = op->getNextNode()) {
    if (mine.contains(op))
      continue;
    bool touches = false;
    op->walk([&](Operation *inner) {
      if (auto store = dyn_cast<memref::StoreOp>(inner))
        touches |= stores && store.getMemRef() == memref;
      else if (auto store = dyn_cast<vector::StoreOp>(inner))
        touches |= stores && base(store.getBase()) == memref;
      else if (auto load = dyn_cast<memref::LoadOp>(inner))
        touches |= loads && load.getMemRef() == memref;
      else if (auto load = dyn_cast<vector::LoadOp>(inner))
        touches |= loads && base(load.getBase()) == memref;
    });
    if (touches)
      return true;
  }
  return false;
}

/// Merges a group's loads into aligned vector loads at its first load.
/// Returns whether it changed anything.
static bool widenLoads(OpBuilder &b, Block &block, Group &group,
                       DenseMap<Value, Value> &views,
                       llvm::MapVector<Value, int64_t> &aligns) {
  int64_t align = group.align;
  if (align < 4 || group.accesses.size() < 2)
    return false;
  std::map<int64_t, SmallVector<Access>> chunks;
  for (const Access &access : group.accesses)
    chunks[floorDiv(access.byte, align)].push_back(access);
  if (chunks.size() == group.accesses.size())
    return false; // One byte per chunk: nothing shared.
  // A tile in shared memory is written in the same launch: no write of it
  // may lie between the loads.
  if (isWorkgroup(group.memref) &&
      touchedBetween(group.accesses, group.memref, /*loads=*/false,
                     /*stores=*/true))
    return false;
  Operation *first = group.accesses.front().op;
  Location loc = first->getLoc();
  Value flat = flatView(b, block, group.memref, views);
  b.setInsertionPoint(first);
  auto vectorType = VectorType::get({align}, b.getI8Type());
  // All vectors first, at the first load; then each load is an element.
  SmallVector<Value> wide;
  for (auto &chunk : chunks)
    wide.push_back(vector::LoadOp::create(
        b, loc, vectorType, flat,
        flatIndex(b, loc, group, flat, chunk.first * align),
        /*nontemporal=*/false, llvm::MaybeAlign(align)));
  for (auto [vector, chunk] : llvm::zip(wide, chunks)) {
    for (const Access &access : chunk.second) {
      b.setInsertionPoint(access.op);
      Value element = vector::ExtractOp::create(
          b, loc, vector, access.byte - chunk.first * align);
      access.op->getResult(0).replaceAllUsesWith(element);
      access.op->erase();
    }
  }
  int64_t &needed = aligns[group.memref];
  needed = std::max(needed, align);
  return true;
}

/// Replaces the stores of a group that fill an aligned vector whole (each
/// byte once) by one vector store after the last of them. Returns whether
/// it changed anything.
static bool widenStores(OpBuilder &b, Block &block, Group &group,
                        DenseMap<Value, Value> &views,
                        llvm::MapVector<Value, int64_t> &aligns) {
  int64_t align = group.align;
  if (align < 4)
    return false;
  std::map<int64_t, SmallVector<Access>> chunks;
  for (const Access &access : group.accesses)
    chunks[floorDiv(access.byte, align)].push_back(access);
  bool changed = false;
  for (auto &[chunk, accesses] : chunks) {
    SmallVector<Value> bytes(align);
    bool whole = accesses.size() == static_cast<size_t>(align);
    for (const Access &access : accesses) {
      Value &slot = bytes[access.byte - chunk * align];
      whole = whole && !slot;
      slot = cast<memref::StoreOp>(access.op).getValue();
    }
    if (!whole || touchedBetween(accesses, group.memref,
                                 /*loads=*/isWorkgroup(group.memref),
                                 /*stores=*/true))
      continue;
    Operation *last = accesses.back().op; // Block order.
    Location loc = last->getLoc();
    Value flat = flatView(b, block, group.memref, views);
    b.setInsertionPointAfter(last);
    Value at = flatIndex(b, loc, group, flat, chunk * align);
    Value vector = vector::FromElementsOp::create(
        b, loc, VectorType::get({align}, b.getI8Type()), bytes);
    vector::StoreOp::create(b, loc, vector, flat, at, /*nontemporal=*/false,
                            llvm::MaybeAlign(align));
    for (const Access &access : accesses)
      access.op->erase();
    int64_t &needed = aligns[group.memref];
    needed = std::max(needed, align);
    changed = true;
  }
  return changed;
}

/// Widens the accesses of each block of `region` (the interior version);
/// fills `aligns` with the alignment each image's rows then need.
static bool widenRegion(Region &region, const DenseSet<Value> &written,
                        const DenseSet<Value> &read,
                        llvm::MapVector<Value, int64_t> &aligns) {
  bool changed = false;
  OpBuilder b(region.getContext());
  SmallVector<Block *> blocks;
  region.walk([&](Block *block) { blocks.push_back(block); });
  for (Block *block : blocks) {
    DenseMap<Value, Value> views;
    // Loads of images never written here; stores to images never read.
    for (Group &group : groupAccesses<memref::LoadOp>(*block, written))
      changed |= widenLoads(b, *block, group, views, aligns);
    for (Group &group : groupAccesses<memref::StoreOp>(*block, read))
      changed |= widenStores(b, *block, group, views, aligns);
  }
  return changed;
}

/// Gives the interior version of `split` (an scf.if marked arvr.interior)
/// a wide version, run when the images' rows are aligned.
static void widen(scf::IfOp split, gpu::LaunchOp launch) {
  DenseSet<Value> written, read;
  // An image both read and written is left alone; a tile in shared memory
  // (written, then read after a barrier) is checked access by access.
  launch.getBody().walk([&](Operation *op) {
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      if (!isWorkgroup(store.getMemRef()))
        written.insert(store.getMemRef());
    } else if (auto load = dyn_cast<memref::LoadOp>(op)) {
      if (!isWorkgroup(load.getMemRef()))
        read.insert(load.getMemRef());
    }
  });
  // The wide version is a copy of the interior one, widened.
  Block *interior = split.thenBlock();
  OpBuilder b(interior->getTerminator());
  auto inner = scf::IfOp::create(
      b, split.getLoc(), arith::ConstantIntOp::create(b, split.getLoc(), 1, 1),
      /*withElseRegion=*/true);
  Block *scalar = inner.elseBlock();
  scalar->getOperations().splice(scalar->begin(), interior->getOperations(),
                                 interior->begin(), Block::iterator(inner));
  IRMapping mapping;
  b.setInsertionPoint(inner.thenBlock()->getTerminator());
  for (Operation &op : scalar->without_terminator())
    b.clone(op, mapping);
  llvm::MapVector<Value, int64_t> aligns;
  if (!widenRegion(inner.getThenRegion(), written, read, aligns)) {
    // Nothing to widen: back to one version.
    interior->getOperations().splice(Block::iterator(inner),
                                     scalar->getOperations(), scalar->begin(),
                                     Block::iterator(scalar->getTerminator()));
    inner.erase();
    return;
  }
  // The images' rows are aligned: tested once, before the versions; with
  // the interior test where the images are known before it and a border
  // version handles every point (the scalar copy then goes).
  bool beforeSplit =
      !split.getElseRegion().empty() && llvm::all_of(aligns, [&](auto &entry) {
        Operation *where = entry.first.getParentRegion()->getParentOp();
        return !split->isAncestor(where);
      });
  b.setInsertionPoint(beforeSplit ? split.getOperation()
                                  : inner.getOperation());
  Value all;
  for (auto &[memref, align] : aligns) {
    Value cond = rowsAligned(b, split.getLoc(), memref, align);
    all = all ? arith::AndIOp::create(b, split.getLoc(), all, cond) : cond;
  }
  if (!beforeSplit) {
    inner.getConditionMutable().assign(all);
    return;
  }
  split.getConditionMutable().assign(
      arith::AndIOp::create(b, split.getLoc(), split.getCondition(), all));
  Block *wide = inner.thenBlock();
  interior->getOperations().splice(Block::iterator(inner),
                                   wide->getOperations(), wide->begin(),
                                   Block::iterator(wide->getTerminator()));
  inner.erase();
}

struct ArvrWideAccessPass
    : public arvr::impl::ArvrWideAccessBase<ArvrWideAccessPass> {
  void runOnOperation() override {
    SmallVector<std::pair<scf::IfOp, gpu::LaunchOp>> splits;
    getOperation().walk([&](scf::IfOp split) {
      if (!split->hasAttr(arvr::kInteriorAttrName))
        return;
      if (auto launch = split->getParentOfType<gpu::LaunchOp>())
        splits.push_back({split, launch});
    });
    for (auto [split, launch] : splits)
      widen(split, launch);
  }
};

} // namespace
