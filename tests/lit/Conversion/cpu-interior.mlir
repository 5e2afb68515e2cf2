// RUN: arvr-opt %s --pass-pipeline='builtin.module(func.func(arvr-cpu-interior{columns=16}))' | FileCheck %s
// RUN: not arvr-opt %s --pass-pipeline='builtin.module(func.func(arvr-cpu-interior{columns=0}))' 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: error: columns must be at least 1

// A horizontal 3-tap stencil with a clamped read, as convert-arvr-to-loops
// writes it: x steps by runs of 16 columns, an scf.for over a run's
// columns inside; where the clamp's index x - 1 .. x + 1 stays in
// [0, width - 1] over the run (x0 - 1 >= 0 and min(x0 + 16, width) - 1 + 1
// <= width - 1), the run's loop has no clamp; else it keeps it.
// CHECK-LABEL: func.func @blur
// CHECK-SAME: (%[[SRC:[^:]+]]: memref<?x?xf32>, %[[DST:[^:]+]]: memref<?x?xf32>
// CHECK-DAG: %[[C16:.+]] = arith.constant 16 : index
// CHECK: scf.parallel (%[[Y:.+]], %[[X0:.+]]) = ({{.+}}) to ({{.+}}) step ({{.+}}, %[[C16]])
// CHECK: %[[END:.+]] = arith.minsi
// CHECK: scf.if %{{.+}} {
// CHECK-NEXT: scf.for %[[X:.+]] = %[[X0]] to %[[END]]
// CHECK-NOT: arith.maxsi
// CHECK: memref.store
// CHECK: } else {
// CHECK-NEXT: scf.for %{{.+}} = %[[X0]] to %[[END]]
// CHECK: arith.minsi
// CHECK-NEXT: arith.maxsi
// CHECK: memref.store
// CHECK: } {arvr.interior}
// CHECK-NOT: arvr.boundary
func.func @blur(%src: memref<?x?xf32>, %dst: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %h = memref.dim %dst, %c0 : memref<?x?xf32>
  %w = memref.dim %dst, %c1 : memref<?x?xf32>
  scf.parallel (%y, %x) = (%c0, %c0) to (%h, %w) step (%c1, %c1) {
    %zero = arith.constant 0.0 : f32
    %sum = scf.for %i = %c0 to %c1 step %c1 iter_args(%acc = %zero) -> (f32) {
      %cm1 = arith.constant -1 : index
      %c2 = arith.constant 2 : index
      %wm1 = arith.subi %w, %c1 : index
      %t0 = arith.addi %x, %cm1 : index
      %lo = arith.minsi %t0, %wm1 : index
      %i0 = arith.maxsi %lo, %c0 {arvr.boundary} : index
      %v0 = memref.load %src[%y, %i0] : memref<?x?xf32>
      %t2 = arith.addi %x, %c1 : index
      %hi = arith.minsi %t2, %wm1 : index
      %i2 = arith.maxsi %hi, %c0 {arvr.boundary} : index
      %v2 = memref.load %src[%y, %i2] : memref<?x?xf32>
      %s = arith.addf %v0, %v2 : f32
      %r = arith.addf %acc, %s : f32
      scf.yield %r : f32
    }
    memref.store %sum, %dst[%y, %x] : memref<?x?xf32>
    scf.reduce
  }
  return
}

// A loop without boundary handling takes runs too (the unit of
// arvr-cpu-vectorize), with nothing to version.
// CHECK-LABEL: func.func @copy
// CHECK: scf.parallel ({{.+}}) = ({{.+}}) to ({{.+}}) step (%c1, %c16)
// CHECK: scf.for
// CHECK-NOT: scf.if
// CHECK: return
func.func @copy(%src: memref<?x?xf32>, %dst: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %h = memref.dim %dst, %c0 : memref<?x?xf32>
  %w = memref.dim %dst, %c1 : memref<?x?xf32>
  scf.parallel (%y, %x) = (%c0, %c0) to (%h, %w) step (%c1, %c1) {
    %v = memref.load %src[%y, %x] : memref<?x?xf32>
    memref.store %v, %dst[%y, %x] : memref<?x?xf32>
    scf.reduce
  }
  return
}

// No boundary handling, but a coordinate halved (NV12's chroma): where
// the run's x is >= 0 (every run here), the floor division is the
// unsigned one, which LLVM turns into a shift and can vectorise.
// CHECK-LABEL: func.func @half
// CHECK: scf.if %{{.+}} {
// CHECK: scf.for
// CHECK: arith.divui %{{.+}}, %c2 : index
// CHECK: } else {
// CHECK: arith.floordivsi %{{.+}}, %c2 : index
// CHECK: } {arvr.interior}
func.func @half(%src: memref<?x?xf32>, %dst: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %h = memref.dim %dst, %c0 : memref<?x?xf32>
  %w = memref.dim %dst, %c1 : memref<?x?xf32>
  scf.parallel (%y, %x) = (%c0, %c0) to (%h, %w) step (%c1, %c1) {
    %hx = arith.floordivsi %x, %c2 : index
    %v = memref.load %src[%y, %hx] : memref<?x?xf32>
    memref.store %v, %dst[%y, %x] : memref<?x?xf32>
    scf.reduce
  }
  return
}
