//===- SharedMemory.h - A GPU block's dynamic shared memory -----*- C++ -*-===//
//
// What the GPU passes that put data in a block's shared memory share: the
// block's dynamic shared memory as bytes (a launch's tiles are views of it,
// arvr-map-to-gpu; a warp's store slots, arvr-stage-stores), and the test
// that a memref lives there (arvr-wide-access).
//
//===----------------------------------------------------------------------===//

#ifndef ARVR_LOWERING_UTILS_SHAREDMEMORY_H
#define ARVR_LOWERING_UTILS_SHAREDMEMORY_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::arvr {

/// The block's dynamic shared memory, as a memref of bytes, made at `b`'s
/// insertion point.
inline Value createDynamicSharedBytes(OpBuilder &b, Location loc) {
  auto workgroup = gpu::AddressSpaceAttr::get(
      b.getContext(), gpu::GPUDialect::getWorkgroupAddressSpace());
  return gpu::DynamicSharedMemoryOp::create(
      b, loc,
      MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                      MemRefLayoutAttrInterface(), workgroup));
}

/// Whether `memref` is in a block's shared memory.
inline bool isWorkgroup(Value memref) {
  auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(
      cast<MemRefType>(memref.getType()).getMemorySpace());
  return space && space.getValue() == gpu::AddressSpace::Workgroup;
}

} // namespace mlir::arvr

#endif // ARVR_LOWERING_UTILS_SHAREDMEMORY_H
