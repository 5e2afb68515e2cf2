//===- BatchFrames.cpp - Same-size frames as the grid's z dimension -------===//
//
// A batch of same-size frames becomes one launch per kernel instead of one
// per frame: the caller stacks the frames of each image (and of each stage
// buffer) one under another, as one image F times as tall, and multiplies
// the grid's z size (always 1 from arvr-map-to-gpu) by F. The host code is
// still that of one frame: the caller evaluates it for one frame's sizes.
//
// In each gpu.launch, block z is the frame. For each image or buffer the
// body uses (an argument of the host function or a memref.alloc there), the
// frame's height comes from the host (a memref.dim there, evaluated by the
// caller for one frame, or the buffer's size; the kernel gets it as an
// argument, so nothing divides) and its first row is block z times it; the pass
// adds that row to the row index of every memref.load and memref.store, adds
// the frame's first element to every access through a flattened view
// (memref.reinterpret_cast to one dimension, as arvr-wide-access makes: the
// view itself then spans all frames), and gives `memref.dim %m, 0` the frame's
// height. Rows are whole rows of the stacked image, so row alignment tests stay
// valid. A byte image instead becomes a view of its frame (`memref.view` of
// the stack's bytes at the frame's first byte, below 2^31 as the runner and
// the runtime library refuse larger stacks): its lowering advances the base
// pointer once a thread, and the accesses index the frame from its row 0.
// A frame's first byte is a whole number of rows in, so its alignment tests
// (`memref.extract_aligned_pointer_as_index` of the view) say what they said
// of the stack's rows.
//
// A buffer whose height is static (a table of one row, of values computed
// from parameters: a generic Gaussian's weights) is not stacked: folding may
// take a row index into it for 0, so every frame uses the first frame's
// table. That is right when only launches that use no image or stacked
// buffer (frame-free) write tables, each writing tables it does not read:
// such a launch, run F times over the grid's z, writes the same values F
// times, and the launches after it read them.
//
// All or nothing: if a launch uses an image or a table in any other way,
// writes a table while using frames (or reads a table it writes), or has a
// grid z other than 1, no launch of the function changes, and the function
// does not get `arvr.frames_in_grid_z`, the attribute that tells callers (the
// launch manifest's `batch grid-z`) that they may stack frames. With one
// frame (grid z 1) the kernels compute what they did before.
//
//===----------------------------------------------------------------------===//

#include "arvr/Dialect/ArvrDialect.h"
#include "arvr/Lowering/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRBATCHFRAMES
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;

namespace {

/// Whether `m` is what callers stack: an image argument of `host` or a
/// stage buffer allocated in it, of rank 3 in global memory, its height not
/// fixed in its type.
bool isFrameMemRef(Value m, func::FuncOp host) {
  auto type = dyn_cast<MemRefType>(m.getType());
  // A static height (a table's one row) would let folding take its row
  // index for 0: such a buffer cannot be stacked, nor its function batched.
  if (!type || type.getRank() != 3 || type.getMemorySpace() ||
      !type.getLayout().isIdentity() || !type.isDynamicDim(0))
    return false;
  if (auto arg = dyn_cast<BlockArgument>(m))
    return arg.getOwner() == &host.getBody().front();
  return m.getDefiningOp<memref::AllocOp>() != nullptr;
}

/// Whether `m` is a table: a buffer allocated in `host`, of rank 3 in global
/// memory, its height static (one row of values computed from parameters).
bool isTable(Value m, func::FuncOp host) {
  auto alloc = m.getDefiningOp<memref::AllocOp>();
  if (!alloc || alloc->getParentOp() != host.getOperation())
    return false;
  MemRefType type = alloc.getType();
  return type.getRank() == 3 && !type.getMemorySpace() &&
         type.getLayout().isIdentity() && !type.isDynamicDim(0);
}

/// The memref an access (memref or vector load or store) reads or writes,
/// and its indices; a null memref for any other op.
std::pair<Value, std::optional<MutableOperandRange>> access(Operation *op) {
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return {load.getMemRef(), load.getIndicesMutable()};
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return {store.getMemRef(), store.getIndicesMutable()};
  if (auto load = dyn_cast<vector::LoadOp>(op))
    return {load.getBase(), load.getIndicesMutable()};
  if (auto store = dyn_cast<vector::StoreOp>(op))
    return {store.getBase(), store.getIndicesMutable()};
  return {Value(), std::nullopt};
}

/// Whether `cast` flattens a whole image (offset 0, one size, stride 1)
/// for accesses only.
bool isFlatView(memref::ReinterpretCastOp cast) {
  auto offsets = cast.getStaticOffsets(), strides = cast.getStaticStrides();
  if (cast.getType().getRank() != 1 || cast.getSizes().size() != 1 ||
      offsets.size() != 1 || offsets[0] != 0 || strides.size() != 1 ||
      strides[0] != 1)
    return false;
  return llvm::all_of(cast->getUsers(), [&](Operation *user) {
    return access(user).first == cast.getResult();
  });
}

/// The uses of `m` inside `launch`, if this pass can rewrite them all.
std::optional<SmallVector<Operation *>> usersInside(Value m,
                                                    gpu::LaunchOp launch) {
  SmallVector<Operation *> users;
  for (Operation *user : m.getUsers()) {
    if (!launch->isProperAncestor(user))
      continue;
    bool known = false;
    if (auto dim = dyn_cast<memref::DimOp>(user))
      known = dim.getConstantIndex().has_value();
    else if (auto cast = dyn_cast<memref::ReinterpretCastOp>(user))
      known = isFlatView(cast);
    else
      known = isa<memref::ExtractAlignedPointerAsIndexOp>(user) ||
              access(user).first == m;
    if (!known)
      return std::nullopt;
    users.push_back(user);
  }
  return users;
}

/// A memref the body of a launch uses, with its users there.
struct FrameMemRef {
  Value memref;
  SmallVector<Operation *> users;
};

/// What a launch uses: the images and stacked buffers (frames), and the
/// tables it reads and writes.
struct LaunchUses {
  SmallVector<FrameMemRef> frames;
  llvm::SetVector<Value> tablesRead, tablesWritten;
};

/// Whether `user` (a use of a table inside a launch, or an access through
/// a flat view of it) writes it.
bool writes(Operation *user) {
  if (auto cast = dyn_cast<memref::ReinterpretCastOp>(user))
    return llvm::any_of(cast->getUsers(), writes);
  return isa<memref::StoreOp, vector::StoreOp>(user);
}

/// What `launch` uses, or nullopt if it cannot be batched.
std::optional<LaunchUses> launchUses(gpu::LaunchOp launch, func::FuncOp host) {
  if (!matchPattern(launch.getGridSizeZ(), m_One()))
    return std::nullopt;
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(launch.getBody(), captured);
  LaunchUses uses;
  for (Value v : captured) {
    if (!isa<MemRefType>(v.getType()))
      continue;
    bool table = isTable(v, host);
    if (!table && !isFrameMemRef(v, host))
      return std::nullopt;
    std::optional<SmallVector<Operation *>> users = usersInside(v, launch);
    if (!users)
      return std::nullopt;
    if (!table) {
      uses.frames.push_back({v, std::move(*users)});
      continue;
    }
    for (Operation *user : *users)
      (writes(user) ? uses.tablesWritten : uses.tablesRead).insert(v);
  }
  // A table written only by a launch without frames, which does not read
  // it: the same values whichever frame writes them.
  if (!uses.tablesWritten.empty() &&
      (!uses.frames.empty() || llvm::any_of(uses.tablesWritten, [&](Value t) {
        return uses.tablesRead.contains(t);
      })))
    return std::nullopt;
  return uses;
}

/// `indices[0] += offset`, the sum built before `op`.
void shift(OpBuilder &b, Operation *op, MutableOperandRange indices,
           Value offset) {
  b.setInsertionPoint(op);
  indices[0].assign(
      arith::AddIOp::create(b, op->getLoc(), indices[0].get(), offset));
}

/// The height of one frame of `m`, computed on the host before `launch`
/// (callers evaluate the host code for one frame): the kernel gets it as an
/// argument, instead of dividing the stacked height by the grid's z.
Value frameHeight(OpBuilder &b, gpu::LaunchOp launch, Value m) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(launch);
  if (auto alloc = m.getDefiningOp<memref::AllocOp>()) {
    MemRefType type = alloc.getType();
    if (type.isDynamicDim(0))
      return alloc.getDynamicSizes()[0];
    return arith::ConstantIndexOp::create(b, alloc.getLoc(),
                                          type.getDimSize(0));
  }
  return memref::DimOp::create(b, launch.getLoc(), m, 0);
}

/// The frame `block z` of the byte image `m` as an image of its own: a
/// `memref.view` of the stack's bytes at the frame's first byte, whose
/// lowering advances the base pointer once (each access then indexes the
/// frame from its row 0, with no frame row added to it). The first byte is
/// below 2^31: `arvrc run` and the runtime library refuse larger stacks.
Value frameView(OpBuilder &b, Location loc, Value m, Value height,
                Value firstElem, Value stackedElems) {
  auto type = cast<MemRefType>(m.getType());
  auto bytes = MemRefType::get({ShapedType::kDynamic}, type.getElementType());
  Value flat = memref::ReinterpretCastOp::create(
      b, loc, bytes, m, b.getIndexAttr(0), ArrayRef<OpFoldResult>{stackedElems},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
  SmallVector<Value> sizes;
  for (int64_t dim = 0; dim < type.getRank(); ++dim)
    if (type.isDynamicDim(dim))
      sizes.push_back(dim == 0 ? height
                               : memref::DimOp::create(b, loc, m, dim));
  return memref::ViewOp::create(b, loc, type, flat, firstElem, sizes);
}

/// Moves the accesses of `frame.memref` inside `launch` to frame `block z`:
/// a byte image through a view of the frame, any other by adding the
/// frame's first row (element) to each access's row (flat index).
void batch(gpu::LaunchOp launch, const FrameMemRef &frame) {
  Value m = frame.memref;
  Location loc = launch.getLoc();
  OpBuilder b(launch.getContext());
  Value height = frameHeight(b, launch, m);
  b.setInsertionPointToStart(&launch.getBody().front());
  Value stacked = memref::DimOp::create(b, loc, m, 0);
  Value firstRow =
      arith::MulIOp::create(b, loc, launch.getBlockIds().z, height);
  Value rowElems =
      arith::MulIOp::create(b, loc, memref::DimOp::create(b, loc, m, 1),
                            memref::DimOp::create(b, loc, m, 2));
  Value firstElem = arith::MulIOp::create(b, loc, firstRow, rowElems);
  Value stackedElems = arith::MulIOp::create(b, loc, stacked, rowElems);
  if (cast<MemRefType>(m.getType()).getElementType().isInteger(8)) {
    Value view = frameView(b, loc, m, height, firstElem, stackedElems);
    Value frameElems = arith::MulIOp::create(b, loc, height, rowElems);
    for (Operation *user : frame.users) {
      if (auto cast = dyn_cast<memref::ReinterpretCastOp>(user))
        cast.getSizesMutable()[0].assign(frameElems);
      user->replaceUsesOfWith(m, view);
    }
    return;
  }
  for (Operation *user : frame.users) {
    if (auto dim = dyn_cast<memref::DimOp>(user)) {
      if (*dim.getConstantIndex() == 0)
        dim.getResult().replaceAllUsesWith(height);
    } else if (auto cast = dyn_cast<memref::ReinterpretCastOp>(user)) {
      cast.getSizesMutable()[0].assign(stackedElems);
      for (Operation *flat : cast->getUsers())
        shift(b, flat, *access(flat).second, firstElem);
    } else if (access(user).first == m) {
      shift(b, user, *access(user).second, firstRow);
    }
  }
}

struct BatchFrames : arvr::impl::ArvrBatchFramesBase<BatchFrames> {
  void runOnOperation() override {
    getOperation().walk([](func::FuncOp host) {
      SmallVector<std::pair<gpu::LaunchOp, LaunchUses>> plan;
      bool all = true;
      host.walk([&](gpu::LaunchOp launch) {
        auto uses = launchUses(launch, host);
        if (!uses)
          all = false;
        else
          plan.push_back({launch, std::move(*uses)});
      });
      if (!all || plan.empty())
        return;
      for (auto &[launch, uses] : plan)
        for (const FrameMemRef &m : uses.frames)
          batch(launch, m);
      host->setAttr(arvr::ArvrDialect::kFramesInGridZAttrName,
                    UnitAttr::get(host.getContext()));
    });
  }
};

} // namespace
