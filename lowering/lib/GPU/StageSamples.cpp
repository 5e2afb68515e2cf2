//===- StageSamples.cpp - A block's sample box staged in shared memory ----===//
//
// arvr-gpu-block-proofs proves a launch's bilinear sample tests per block
// and, where the likely branches read one image of bytes, stores the box
// of the places they read (columns and rows, ends included) beside each
// block's proof: the kernel loads its ends (`arvr.block_box`) and the reads
// are marked `arvr.boxed`. In the interior version (arvr-specialize-
// interior's, for proved blocks) those reads gather from anywhere in the
// image, each with its own 64-bit address arithmetic: the lens spends ~6
// SASS instructions a sample (its two rows' addresses) on it.
//
// This pass stages the box in the block's shared memory first: every
// thread of the block copies rows of it (16-byte vectors from the box's
// first byte rounded down to 16, all of a thread's loads before its
// stores, where the image's rows start at multiples of 16 bytes; a byte
// at a time otherwise), the block synchronises, and the interior version's
// marked reads read the tile at `(row - first row) * kTilePitch + column *
// channels + channel - first byte`, 32-bit offsets of a base fixed for the
// block, a tap's next row an immediate offset. A block stages when its
// proof byte is set and its box, from that rounded first byte, is at most
// kTilePitch bytes wide and kTileRows rows high; the interior version then
// runs only where it staged (its condition gains that test): other blocks
// take the border version, which reads the image as before. Values do not
// change: the tile holds the image's bytes.
//
// A launch that already uses dynamic shared memory, or whose blocks are not
// whole warps sharing the tile's rows evenly, is left as it is; the reads'
// marks go either way.
//
// An experiment, run only with `arvrc build --stage-samples`: a probe that
// read the lens's taps from shared memory without any copy bounds what it
// can gain (4K batch 8 on an H100: 44.4 -> 39.1 us, 2026-12-07 13:05); a
// first form whose copy looped over rows, waiting for memory once a row,
// was slower (56.0, 13:23); this form, every load of a thread's copy
// issued before its stores, is slower too (47.1-51.5 against 44.9 at
// 16:04, warp_perspective 67.7 against 56.1): the copy and its barrier
// cost ~160 SASS a thread before the first point, more than the taps'
// 32-bit shared addresses save. Kept, off, as the measured form of the
// strong kernels' recipe (docs/gpu-runs.md). Without the pass the box's
// table and ends are dead and canonicalization removes them: the default
// PTX is the same as without the box.
//
// Preconditions: arvr-gpu-block-proofs, then arvr-specialize-interior.
//
//===----------------------------------------------------------------------===//

#include "../Utils/ImageViews.h"
#include "../Utils/SharedMemory.h"
#include "arvr/Dialect/ArvrDialect.h"
#include "arvr/Lowering/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRGPUSTAGESAMPLES
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;

namespace {

/// The tile: up to kTileRows rows of the box, each kTilePitch bytes (the
/// lens's 64 x 8 points read ~10 rows of ~200 bytes), 8 KB, which leaves
/// ten blocks of 128 threads a multiprocessor. A fixed pitch puts a tap's
/// next row at a constant offset.
constexpr int64_t kTilePitch = 512, kTileRows = 16;
constexpr int64_t kTileBytes = kTilePitch * kTileRows;
/// The copy's vector (a lane's part of a row: a warp copies kTilePitch
/// bytes), and the alignment of the tile's rows' first bytes.
constexpr int64_t kChunk = 16, kWarp = 32;
static_assert(kChunk * kWarp == kTilePitch, "a warp copies a tile row");

/// What arvr-gpu-block-proofs left in a launch: its tables of proofs and
/// of boxes (four ends a block: column low, column high, row low, row
/// high; i32), the interior versions' marked reads and their splits.
struct Marks {
  Value proofs, boxes;
  SmallVector<memref::LoadOp> reads;
  SetVector<scf::IfOp> splits;
};

/// The interior split whose then-branch holds `op`, if `op` is in no
/// border version.
scf::IfOp interiorOf(Operation *op, gpu::LaunchOp launch) {
  scf::IfOp found;
  for (Operation *parent = op->getParentOp(); parent != launch;
       parent = parent->getParentOp()) {
    auto split = dyn_cast<scf::IfOp>(parent);
    if (!split || !split->hasAttr(arvr::kInteriorAttrName))
      continue;
    if (split.getElseRegion().isAncestor(op->getParentRegion()))
      return {};
    found = found ? found : split;
  }
  return found;
}

/// The marks of `launch` (removed from the ops).
Marks collect(gpu::LaunchOp launch) {
  Marks marks;
  launch.getBody().walk([&](memref::LoadOp load) {
    if (load->removeAttr(arvr::ArvrDialect::kBoxedAttrName))
      if (scf::IfOp split = interiorOf(load, launch)) {
        marks.reads.push_back(load);
        marks.splits.insert(split);
      }
    if (load->hasAttr(arvr::ArvrDialect::kBlockBoxAttrName))
      marks.boxes = load.getMemRef();
    else if (load->hasAttr(arvr::ArvrDialect::kBlockProofAttrName))
      marks.proofs = load.getMemRef();
  });
  return marks;
}

/// The block's box, in bytes of the image's rows, at the start of its
/// launch.
struct Box {
  Value image, flat, rowBytes;
  Value firstRow, rows;   // the box's first row, and its height
  Value first, end;       // its first byte in a row, and the byte after
  Value tileFirst, width; // the tile's first byte in a row (16-aligned),
                          // and the bytes from there to the box's end
  int64_t channels;
};

Box boxOf(gpu::LaunchOp launch, Value image, Value boxes, OpBuilder &b,
          Location loc) {
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  gpu::KernelDim3 ids = launch.getBlockIds();
  Value first = arith::MulIOp::create(b, loc, ids.x, index(4));
  SmallVector<Value, 4> ends;
  for (int64_t k = 0; k < 4; ++k)
    ends.push_back(memref::LoadOp::create(
        b, loc, boxes,
        ValueRange{index(0), ids.y,
                   arith::AddIOp::create(b, loc, first, index(k))}));
  auto asIndex = [&](Value end) -> Value {
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), end);
  };
  Box box;
  box.image = image;
  box.channels = arvr::channelsOf(cast<MemRefType>(image.getType()));
  Value c = index(box.channels);
  box.flat = arvr::flatImage(b, loc, image);
  box.rowBytes =
      arith::MulIOp::create(b, loc, memref::DimOp::create(b, loc, image, 1), c);
  box.first = arith::MulIOp::create(b, loc, asIndex(ends[0]), c);
  Value one = index(1);
  box.end = arith::MulIOp::create(
      b, loc, arith::AddIOp::create(b, loc, asIndex(ends[1]), one), c);
  box.firstRow = asIndex(ends[2]);
  Value lastRow = asIndex(ends[3]);
  box.rows = arith::AddIOp::create(
      b, loc, arith::SubIOp::create(b, loc, lastRow, box.firstRow), one);
  box.tileFirst = arith::AndIOp::create(b, loc, box.first, index(-kChunk));
  box.width = arith::SubIOp::create(b, loc, box.end, box.tileFirst);
  return box;
}

/// The thread's lane (its place in a warp of kWarp) and warp in `launch`'s
/// block, whose size `threads` is a multiple of kWarp.
std::pair<Value, Value> laneAndWarp(gpu::LaunchOp launch, OpBuilder &b,
                                    Location loc) {
  gpu::KernelDim3 ids = launch.getThreadIds(), sizes = launch.getBlockSize();
  Value linear = arith::AddIOp::create(
      b, loc, ids.x,
      arith::MulIOp::create(
          b, loc, sizes.x,
          arith::AddIOp::create(
              b, loc, ids.y, arith::MulIOp::create(b, loc, sizes.y, ids.z))));
  Value warp = arith::ConstantIndexOp::create(b, loc, kWarp);
  return {arith::RemUIOp::create(b, loc, linear, warp),
          arith::DivUIOp::create(b, loc, linear, warp)};
}

/// The copy of the box's rows into `tile` where the image's rows start
/// 16-byte aligned: warp w copies rows w, w + warps, ..., each lane 16
/// bytes of a row, all its loads before its stores (one wait for memory a
/// block). Rows and bytes past the box's are written too (zeros).
void copyAligned(gpu::LaunchOp launch, const Box &box, Value tile,
                 int64_t warps, OpBuilder &b, Location loc) {
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  auto [lane, warp] = laneAndWarp(launch, b, loc);
  Value byte = arith::MulIOp::create(b, loc, lane, index(kChunk));
  Value inBox =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, byte, box.width);
  auto vectorType = VectorType::get({kChunk}, b.getI8Type());
  SmallVector<std::pair<Value, Value>> loaded; // (tile offset, vector)
  for (int64_t row0 = 0; row0 < kTileRows; row0 += warps) {
    Value row = arith::AddIOp::create(b, loc, warp, index(row0));
    Value inside = arith::AndIOp::create(
        b, loc, inBox,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row,
                              box.rows));
    auto read = scf::IfOp::create(b, loc, TypeRange{vectorType}, inside,
                                  /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(read.thenBlock());
      // (Ops made in sequence: arguments' order of evaluation differs
      // between compilers.)
      Value rowStart = arith::MulIOp::create(
          b, loc, arith::AddIOp::create(b, loc, box.firstRow, row),
          box.rowBytes);
      Value from = arith::AddIOp::create(
          b, loc, rowStart, arith::AddIOp::create(b, loc, box.tileFirst, byte));
      Value v = vector::LoadOp::create(
          b, loc, vectorType, box.flat, ValueRange{from},
          /*nontemporal=*/false, llvm::MaybeAlign(kChunk));
      scf::YieldOp::create(b, loc, v);
      b.setInsertionPointToStart(read.elseBlock());
      Value zero = arith::ConstantOp::create(
          b, loc, DenseElementsAttr::get(vectorType, b.getI8IntegerAttr(0)));
      scf::YieldOp::create(b, loc, zero);
    }
    Value to = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, row, index(kTilePitch)), byte);
    loaded.push_back({to, read.getResult(0)});
  }
  for (auto [to, v] : loaded)
    vector::StoreOp::create(b, loc, v, tile, ValueRange{to},
                            /*nontemporal=*/false, llvm::MaybeAlign(kChunk));
}

/// The copy of the box's rows into `tile` a byte at a time (rows not
/// 16-byte aligned): warp w copies rows w, w + warps, ..., each lane every
/// kWarp-th byte.
void copyBytes(gpu::LaunchOp launch, const Box &box, Value tile, int64_t warps,
               OpBuilder &b, Location loc) {
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  auto [lane, warp] = laneAndWarp(launch, b, loc);
  Value bytes = arith::SubIOp::create(b, loc, box.end, box.first);
  Value shift = arith::SubIOp::create(b, loc, box.first, box.tileFirst);
  auto rows = scf::ForOp::create(b, loc, warp, box.rows, index(warps));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(rows.getBody());
  Value row = rows.getInductionVar();
  Value from = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc,
                            arith::AddIOp::create(b, loc, box.firstRow, row),
                            box.rowBytes),
      box.first);
  Value to = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, row, index(kTilePitch)), shift);
  auto columns = scf::ForOp::create(b, loc, lane, bytes, index(kWarp));
  b.setInsertionPointToStart(columns.getBody());
  Value q = columns.getInductionVar();
  Value v = memref::LoadOp::create(
      b, loc, box.flat, ValueRange{arith::AddIOp::create(b, loc, from, q)});
  memref::StoreOp::create(b, loc, v, tile,
                          ValueRange{arith::AddIOp::create(b, loc, to, q)});
}

/// The read `load` of the image, of the tile instead: at `row * pitch +
/// column * channels + channel + origin`, `origin` (fixed for the block)
/// taking the tile's first row and byte off.
void readTile(memref::LoadOp load, const Box &box, Value origin, Value tile,
              OpBuilder &b) {
  Location loc = load.getLoc();
  b.setInsertionPoint(load);
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  ValueRange at = load.getIndices();
  Value within =
      at.size() == 3 ? arith::AddIOp::create(b, loc, at[2], origin) : origin;
  Value column = arith::MulIOp::create(b, loc, at[1], index(box.channels));
  Value row = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, at[0], index(kTilePitch)), within);
  Value offset = arith::AddIOp::create(b, loc, column, row);
  Value v = memref::LoadOp::create(b, loc, tile, ValueRange{offset});
  load.replaceAllUsesWith(v);
  load.erase();
}

/// Stages `launch`'s box where arvr-gpu-block-proofs left one.
void stage(gpu::LaunchOp launch) {
  Marks marks = collect(launch);
  if (!marks.boxes || !marks.proofs || marks.reads.empty() ||
      launch.getDynamicSharedMemorySize())
    return;
  // Blocks of whole warps, their size known, whose warps share the tile's
  // rows evenly.
  int64_t threads = 1;
  for (Value size : {launch.getBlockSizeX(), launch.getBlockSizeY(),
                     launch.getBlockSizeZ()}) {
    std::optional<int64_t> known = getConstantIntValue(size);
    threads *= known ? *known : 0;
  }
  int64_t warps = threads / kWarp;
  if (threads == 0 || threads % kWarp != 0 || kTileRows % warps != 0)
    return;
  Value image = marks.reads.front().getMemRef();
  if (llvm::any_of(marks.reads, [&](memref::LoadOp load) {
        return load.getMemRef() != image;
      }))
    return;
  Location loc = launch.getLoc();
  OpBuilder b(launch.getContext());
  b.setInsertionPointToStart(&launch.getBody().front());
  Box box = boxOf(launch, image, marks.boxes, b, loc);
  gpu::KernelDim3 ids = launch.getBlockIds();
  Value byte = memref::LoadOp::create(
      b, loc, marks.proofs,
      ValueRange{arith::ConstantIndexOp::create(b, loc, 0), ids.y, ids.x});
  Value proved = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ne, byte,
      arith::ConstantOp::create(b, loc, b.getI8IntegerAttr(0)));
  // Unsigned: a box of no rows or bytes (not proved) does not fit.
  Value narrow =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, box.width,
                            arith::ConstantIndexOp::create(b, loc, kTilePitch));
  Value low =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, box.rows,
                            arith::ConstantIndexOp::create(b, loc, kTileRows));
  Value fits = arith::AndIOp::create(b, loc, narrow, low);
  Value staged = arith::AndIOp::create(b, loc, proved, fits);
  Value raw = arvr::createDynamicSharedBytes(b, loc);
  auto workgroup = gpu::AddressSpaceAttr::get(
      b.getContext(), gpu::GPUDialect::getWorkgroupAddressSpace());
  Value tile = memref::ViewOp::create(
      b, loc,
      MemRefType::get({kTileBytes}, b.getI8Type(), MemRefLayoutAttrInterface(),
                      workgroup),
      raw, arith::ConstantIndexOp::create(b, loc, 0), ValueRange{});
  auto copy = scf::IfOp::create(b, loc, staged);
  b.setInsertionPoint(copy.thenBlock()->getTerminator());
  auto wide =
      scf::IfOp::create(b, loc, arvr::rowsAligned(b, loc, image, kChunk),
                        /*withElseRegion=*/true);
  b.setInsertionPoint(wide.thenBlock()->getTerminator());
  copyAligned(launch, box, tile, warps, b, loc);
  b.setInsertionPoint(wide.elseBlock()->getTerminator());
  copyBytes(launch, box, tile, warps, b, loc);
  b.setInsertionPointAfter(copy);
  gpu::BarrierOp::create(b, loc);
  Value firstByte = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, box.firstRow,
                            arith::ConstantIndexOp::create(b, loc, kTilePitch)),
      box.tileFirst);
  Value origin = arith::SubIOp::create(
      b, loc, arith::ConstantIndexOp::create(b, loc, 0), firstByte);
  for (memref::LoadOp load : marks.reads)
    readTile(load, box, origin, tile, b);
  for (scf::IfOp split : marks.splits) {
    b.setInsertionPoint(split);
    split.getConditionMutable().assign(
        arith::AndIOp::create(b, loc, split.getCondition(), staged));
  }
  OpBuilder outside(launch);
  launch.getDynamicSharedMemorySizeMutable().assign(
      arith::ConstantIntOp::create(outside, loc, kTileBytes, 32));
}

struct ArvrGpuStageSamplesPass
    : public arvr::impl::ArvrGpuStageSamplesBase<ArvrGpuStageSamplesPass> {
  void runOnOperation() override {
    SmallVector<gpu::LaunchOp> launches;
    getOperation().walk(
        [&](gpu::LaunchOp launch) { launches.push_back(launch); });
    for (gpu::LaunchOp launch : launches)
      stage(launch);
  }
};

} // namespace
