//===- ImageViews.h - An image's bytes as one row, and their alignment ----===//
//
// What the GPU passes that read an image's rows as wide vectors share
// (arvr-wide-access, arvr-gpu-stage-samples): the image (rows, columns and
// a fixed number of channels, or rows and columns) as one dimension of
// elements, which arvr-batch-frames knows as a flat view, and the test that
// every row of it starts at a multiple of some bytes.
//
//===----------------------------------------------------------------------===//

#ifndef ARVR_LOWERING_UTILS_IMAGEVIEWS_H
#define ARVR_LOWERING_UTILS_IMAGEVIEWS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::arvr {

/// The channels of an image `type` (rank 3, the last dimension fixed; 1
/// for rank 2).
inline int64_t channelsOf(MemRefType type) {
  return type.getRank() == 3 ? type.getDimSize(2) : 1;
}

/// `memref`'s elements as one dimension (offset 0, stride 1), made at `b`'s
/// point.
inline Value flatImage(OpBuilder &b, Location loc, Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  // Ops made in sequence: arguments' order of evaluation differs between
  // compilers (every example's PTX as before with GCC).
  Value channels = arith::ConstantIndexOp::create(b, loc, channelsOf(type));
  Value cols = memref::DimOp::create(b, loc, memref, 1);
  Value rows = memref::DimOp::create(b, loc, memref, 0);
  Value size = arith::MulIOp::create(
      b, loc, arith::MulIOp::create(b, loc, rows, cols), channels);
  auto flatType =
      MemRefType::get({ShapedType::kDynamic}, type.getElementType(),
                      MemRefLayoutAttrInterface(), type.getMemorySpace());
  return memref::ReinterpretCastOp::create(
      b, loc, flatType, memref, b.getIndexAttr(0), {OpFoldResult(size)},
      {b.getIndexAttr(1)});
}

/// Whether every row of `memref` (of bytes) starts at a multiple of
/// `align` bytes: its first byte, and its row pitch.
inline Value rowsAligned(OpBuilder &b, Location loc, Value memref,
                         int64_t align) {
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  auto type = cast<MemRefType>(memref.getType());
  // Ops made in sequence, as in flatImage.
  auto isMultiple = [&](Value v) -> Value {
    Value zero = index(0);
    Value rem = arith::RemUIOp::create(b, loc, v, index(align));
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rem, zero);
  };
  // A tile in dynamic shared memory (whose start is 16-byte aligned), made
  // in the launch: from what makes it, which is known before.
  if (auto view = memref.getDefiningOp<memref::ViewOp>();
      view && view.getSource().getDefiningOp<gpu::DynamicSharedMemoryOp>()) {
    Value cols = type.isDynamicDim(1)
                     ? view.getSizes()[type.isDynamicDim(0) ? 1 : 0]
                     : index(type.getDimSize(1));
    Value pitch = arith::MulIOp::create(b, loc, cols, index(channelsOf(type)));
    Value pitchAligned = isMultiple(pitch);
    return arith::AndIOp::create(b, loc, isMultiple(view.getByteShift()),
                                 pitchAligned);
  }
  Value pointer =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  Value offset =
      memref::ExtractStridedMetadataOp::create(b, loc, memref).getOffset();
  Value start = arith::AddIOp::create(b, loc, pointer, offset);
  Value channels = index(channelsOf(type));
  Value pitch = arith::MulIOp::create(
      b, loc, memref::DimOp::create(b, loc, memref, 1), channels);
  Value pitchAligned = isMultiple(pitch);
  return arith::AndIOp::create(b, loc, isMultiple(start), pitchAligned);
}

} // namespace mlir::arvr

#endif // ARVR_LOWERING_UTILS_IMAGEVIEWS_H
