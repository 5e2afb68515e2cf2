// RUN: arvr-opt %s --arvr-reuse-loads | FileCheck %s

// Two points of a vertical pass read rows y0 + 1 and (y0 + 1) + 0 of a tile
// in shared memory, made apart, with a store to a global output between
// them: the second read is the first.
// CHECK-LABEL: func.func @vertical
// CHECK-SAME: (%[[TILE:[^:]+]]: memref<16x8xf32, 3>, %[[OUT:[^:]+]]: memref<16x8xf32>, %[[Y:[^:]+]]: index, %[[X:[^:]+]]: index)
// CHECK: %[[A:.+]] = memref.load %[[TILE]]
// CHECK: memref.store %[[A]], %[[OUT]]
// CHECK-NOT: memref.load
// CHECK: %[[S:.+]] = arith.addf %[[A]], %[[A]] : f32
// CHECK: memref.store %[[S]], %[[OUT]]
func.func @vertical(%tile: memref<16x8xf32, 3>, %out: memref<16x8xf32>,
                    %y0: index, %x: index) {
  %c1 = arith.constant 1 : index
  %c1_i32 = arith.constant 1 : i32
  %c4 = arith.constant 4 : index
  %row = arith.addi %y0, %c1 : index
  %a = memref.load %tile[%row, %x] : memref<16x8xf32, 3>
  memref.store %a, %out[%y0, %x] : memref<16x8xf32>
  // (y0 + 4) - 3, through i32: the same row.
  %y4 = arith.addi %y0, %c4 : index
  %y4i = arith.index_cast %y4 : index to i32
  %c3_i32 = arith.constant 3 : i32
  %r32 = arith.subi %y4i, %c3_i32 : i32
  %r = arith.index_cast %r32 : i32 to index
  %b = memref.load %tile[%r, %x] : memref<16x8xf32, 3>
  %s = arith.addf %a, %b : f32
  memref.store %s, %out[%row, %x] : memref<16x8xf32>
  return
}

// Kept: a read after a store to the same memref, after a barrier, and a
// read at another place. Reused: a read of another argument across a store
// to an allocation (through a cast), a buffer of its own.
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-5: memref.load
// CHECK-NOT: memref.load
// CHECK: return
func.func @kept(%img: memref<16xf32>, %view: memref<16xf32>, %i: index,
                %v: f32) -> f32 {
  %c1 = arith.constant 1 : index
  %a = memref.load %img[%i] : memref<16xf32>
  memref.store %v, %img[%c1] : memref<16xf32>
  %b = memref.load %img[%i] : memref<16xf32>
  gpu.barrier
  %c = memref.load %img[%i] : memref<16xf32>
  %j = arith.addi %i, %c1 : index
  %d = memref.load %img[%j] : memref<16xf32>
  %e0 = memref.load %view[%i] : memref<16xf32>
  %alloc = memref.alloc() : memref<16xf32>
  %cast = memref.cast %alloc : memref<16xf32> to memref<16xf32>
  memref.store %v, %cast[%i] : memref<16xf32>
  // A different kernel argument: not written by the store above.
  %e = memref.load %view[%i] : memref<16xf32>
  %s0 = arith.addf %a, %b : f32
  %s1 = arith.addf %s0, %c : f32
  %s2 = arith.addf %s1, %d : f32
  %s3 = arith.addf %s2, %e : f32
  %s4 = arith.addf %s3, %e0 : f32
  return %s4 : f32
}
