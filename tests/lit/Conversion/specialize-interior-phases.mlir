// arvr-specialize-interior on launches with barriers, written at the GPU
// level: each phase between top-level barriers gets its own interior
// version, per thread; the leading pure ops of a phase stay before its
// versions. A barrier nested in a loop, or a value of a phase used after
// its barrier, makes the whole body one versioned region, per block.
// RUN: arvr-opt %s --split-input-file --arvr-specialize-interior | FileCheck %s

// Two phases. The first's guard (x < n, x = 32 * block + thread) is
// proved per thread; the second's (x + 1 < n) too. The view and the
// products before each phase are shared by both of its versions.
// CHECK-LABEL: func.func @two_phases
// CHECK: gpu.launch
// CHECK: %[[X:.+]] = arith.addi
// CHECK: scf.if %{{.+}} {
// CHECK-NEXT: memref.store %{{.+}}, %{{.+}}[%[[X]]]
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.if
// CHECK: } {arvr.interior}
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: %[[X1:.+]] = arith.addi %[[X]], %c1
// CHECK: scf.if %{{.+}} {
// CHECK-NEXT: memref.load %{{.+}}[%[[X1]]]
// CHECK: } else {
// CHECK: } {arvr.interior}
// CHECK-NEXT: gpu.terminator
func.func @two_phases(%out: memref<?xi32>, %n: index) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c7 = arith.constant 7 : i32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %c32 : index
    %x = arith.addi %base, %tx : index
    %in = arith.cmpi slt, %x, %n : index
    scf.if %in {
      memref.store %c7, %out[%x] : memref<?xi32>
    } {arvr.boundary}
    gpu.barrier
    %x1 = arith.addi %x, %c1 : index
    %in1 = arith.cmpi slt, %x1, %n : index
    scf.if %in1 {
      %v = memref.load %out[%x1] : memref<?xi32>
      memref.store %v, %out[%x] : memref<?xi32>
    } {arvr.boundary}
    gpu.terminator
  }
  return
}

// -----

// A barrier in a loop: one version of the whole body, the condition the
// block's (thread ids over [0, 31]: the block's last x, 32 * block + 31).
// CHECK-LABEL: func.func @nested_barrier
// CHECK: gpu.launch blocks(%[[B:[^,]+]],
// CHECK: %[[BASE:.+]] = arith.muli %[[B]], %c32
// CHECK: arith.addi %[[BASE]], %{{.+}}
// CHECK: scf.if %{{.+}} {
// CHECK: scf.for
// CHECK: gpu.barrier
// CHECK: } else {
// CHECK: scf.for
// CHECK: gpu.barrier
// CHECK: } {arvr.interior}
// CHECK-NEXT: gpu.terminator
func.func @nested_barrier(%out: memref<?xi32>, %n: index, %k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c7 = arith.constant 7 : i32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %c32 : index
    %x = arith.addi %base, %tx : index
    scf.for %i = %c0 to %k step %c1 {
      gpu.barrier
    }
    %in = arith.cmpi slt, %x, %n : index
    scf.if %in {
      memref.store %c7, %out[%x] : memref<?xi32>
    } {arvr.boundary}
    gpu.terminator
  }
  return
}

// -----

// The first phase's value (its load) is used after the barrier: one
// version of the whole body.
// CHECK-LABEL: func.func @value_across
// CHECK: scf.if %{{.+}} {
// CHECK: gpu.barrier
// CHECK: } else {
// CHECK: gpu.barrier
// CHECK: } {arvr.interior}
// CHECK-NEXT: gpu.terminator
func.func @value_across(%out: memref<?xi32>, %n: index) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %c32 : index
    %x = arith.addi %base, %tx : index
    %v = memref.load %out[%tx] : memref<?xi32>
    gpu.barrier
    %in = arith.cmpi slt, %x, %n : index
    scf.if %in {
      memref.store %v, %out[%x] : memref<?xi32>
    } {arvr.boundary}
    gpu.terminator
  }
  return
}
