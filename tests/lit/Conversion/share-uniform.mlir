// arvr-share-uniform: the costly f32 values of the parameters alone (a
// division, exp of a product) are computed by the block's first thread,
// with what they need, stored in a workgroup buffer, and loaded by every
// thread after a barrier; cheap ones (fma, the product) stay per thread.
// RUN: arvr-opt %s --split-input-file --arvr-share-uniform | FileCheck %s

// CHECK-LABEL: func.func @costly
// CHECK: gpu.launch
// CHECK-SAME: workgroup(%[[BUF:.+]] : memref<2xf32, #gpu.address_space<workgroup>>)
// CHECK: %[[TX:.+]] = gpu.thread_id x
// CHECK: gpu.thread_id y
// CHECK: gpu.thread_id z
// CHECK: scf.if
// CHECK: %[[Q:.+]] = arith.divf %[[A:.+]], %[[B:.+]] : f32
// CHECK: %[[M:.+]] = arith.mulf
// CHECK: %[[E:.+]] = math.exp %[[M]] : f32
// CHECK: memref.store %[[Q]], %[[BUF]][%{{.+}}]
// CHECK: memref.store %[[E]], %[[BUF]][%{{.+}}]
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK: %[[LQ:.+]] = memref.load %[[BUF]]
// CHECK: %[[LE:.+]] = memref.load %[[BUF]]
// CHECK-NOT: arith.divf
// CHECK-NOT: math.exp
// CHECK: math.fma %[[LQ]], %[[LE]]
func.func @costly(%out: memref<?xf32>, %a: f32, %b: f32, %n: index) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %two = arith.constant 2.0 : f32
    %q = arith.divf %a, %b : f32
    %m = arith.mulf %a, %two : f32
    %e = math.exp %m : f32
    %f = math.fma %q, %e, %a : f32
    %i = arith.muli %bx, %c32 : index
    %j = arith.addi %i, %tx : index
    %t = arith.index_cast %j : index to i32
    %tf = arith.sitofp %t : i32 to f32
    %v = arith.mulf %tf, %f : f32
    memref.store %v, %out[%j] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

// Left alone: one costly value (the load and the barrier cost about what
// it saves), and a division of a thread's own value.
// CHECK-LABEL: func.func @one
// CHECK-NOT: workgroup
// CHECK-NOT: gpu.barrier
// CHECK: arith.divf
// CHECK: arith.divf
func.func @one(%out: memref<?xf32>, %a: f32, %b: f32, %n: index) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %q = arith.divf %a, %b : f32
    %t = arith.index_cast %tx : index to i32
    %tf = arith.sitofp %t : i32 to f32
    %own = arith.divf %tf, %b : f32
    %v = arith.mulf %own, %q : f32
    memref.store %v, %out[%tx] : memref<?xf32>
    gpu.terminator
  }
  return
}
