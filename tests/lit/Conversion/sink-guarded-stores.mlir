// arvr-sink-guarded-stores: a thread's stores behind control flow (an
// scf.if, here with a warp synchronisation inside as arvr-stage-stores
// makes) move after its next point's loads and arithmetic, up to the next
// op that conflicts: stores to the same buffer, a read of what they write,
// a barrier, a use of their results.
// RUN: arvr-opt %s --split-input-file --arvr-sink-guarded-stores | FileCheck %s

// Two rows: the first row's guarded stores go after the second row's load
// and arithmetic, just before the second row's guarded stores.
// CHECK-LABEL: func.func @rows
// CHECK: %[[A:.+]] = memref.load %arg0[%{{.+}}, %c0]
// CHECK: %[[B:.+]] = memref.load %arg0[%{{.+}}, %c1]
// CHECK: %[[B2:.+]] = arith.addi %[[B]], %[[B]]
// CHECK: scf.if %{{.+}} {
// CHECK: memref.store %[[A]], %arg1
// CHECK: nvvm.bar.warp.sync
// CHECK: } else {
// CHECK: memref.store %[[A]], %arg1
// CHECK: }
// CHECK-NEXT: scf.if %{{.+}} {
// CHECK: memref.store %[[B2]], %arg1
// CHECK: gpu.terminator
func.func @rows(%in: memref<?x2xi8>, %out: memref<?x2xi8>, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %full = arith.constant -1 : i32
  %n = memref.dim %in, %c0 : memref<?x2xi8>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %a = memref.load %in[%bx, %c0] : memref<?x2xi8>
    scf.if %c {
      memref.store %a, %out[%bx, %c0] : memref<?x2xi8>
      nvvm.bar.warp.sync %full : i32
    } else {
      memref.store %a, %out[%bx, %c0] : memref<?x2xi8>
    }
    %b = memref.load %in[%bx, %c1] : memref<?x2xi8>
    %b2 = arith.addi %b, %b : i8
    scf.if %c {
      memref.store %b2, %out[%bx, %c1] : memref<?x2xi8>
    }
    gpu.terminator
  }
  return
}

// -----

// What stops them: a read of the buffer they write (the first group stays
// before it), a barrier (the second stays before it), a store to the same
// buffer in straight-line code.
// CHECK-LABEL: func.func @stops
// CHECK: scf.if
// CHECK-NEXT: memref.store %{{.+}}, %arg1[%{{.+}}, %c0]
// CHECK: }
// CHECK-NEXT: memref.load %arg1
// CHECK: scf.if
// CHECK-NEXT: memref.store %{{.+}}, %arg1[%{{.+}}, %c1]
// CHECK: }
// CHECK-NEXT: gpu.barrier
// CHECK: scf.if
// CHECK-NEXT: memref.store %{{.+}}, %arg1[%{{.+}}, %c0]
// CHECK: }
// CHECK-NEXT: memref.store %{{.+}}, %arg1[%{{.+}}, %c1]
func.func @stops(%in: memref<?x2xi8>, %out: memref<?x2xi8>, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %in, %c0 : memref<?x2xi8>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %a = memref.load %in[%bx, %c0] : memref<?x2xi8>
    scf.if %c {
      memref.store %a, %out[%bx, %c0] : memref<?x2xi8>
    }
    %r = memref.load %out[%bx, %c1] : memref<?x2xi8>
    scf.if %c {
      memref.store %r, %out[%bx, %c1] : memref<?x2xi8>
    }
    gpu.barrier
    scf.if %c {
      memref.store %a, %out[%bx, %c0] : memref<?x2xi8>
    }
    memref.store %a, %out[%bx, %c1] : memref<?x2xi8>
    gpu.terminator
  }
  return
}

// -----

// What may not move at all: a choice that holds a barrier, and one whose
// result a later op uses (it stops before that op).
// CHECK-LABEL: func.func @held
// CHECK: scf.if
// CHECK: gpu.barrier
// CHECK: }
// CHECK-NEXT: memref.load %arg0[%{{.+}}, %c1]
// CHECK: %[[V:.+]] = scf.if
// CHECK: memref.store
// CHECK: } else {
// CHECK: }
// CHECK-NEXT: %[[W:.+]] = arith.addi %[[V]], %[[V]]
// CHECK-NEXT: memref.load %arg0
func.func @held(%in: memref<?x2xi8>, %out: memref<?x2xi8>, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %in, %c0 : memref<?x2xi8>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %a = memref.load %in[%bx, %c0] : memref<?x2xi8>
    scf.if %c {
      memref.store %a, %out[%bx, %c0] : memref<?x2xi8>
      gpu.barrier
    }
    %b = memref.load %in[%bx, %c1] : memref<?x2xi8>
    %v = scf.if %c -> (i8) {
      memref.store %b, %out[%bx, %c1] : memref<?x2xi8>
      scf.yield %b : i8
    } else {
      scf.yield %a : i8
    }
    %w = arith.addi %v, %v : i8
    %d = memref.load %in[%bx, %c0] : memref<?x2xi8>
    %e = arith.addi %w, %d : i8
    memref.store %e, %out[%by, %c0] : memref<?x2xi8>
    gpu.terminator
  }
  return
}
