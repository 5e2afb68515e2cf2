// arvr-wide-access's versions: with a border version (the split's else),
// the rows' alignment joins the interior test and the scalar interior copy
// goes; without one, the interior version keeps its scalar copy for rows
// that are not aligned.
// RUN: arvr-opt %s --split-input-file --arvr-wide-access | FileCheck %s

// CHECK-LABEL: func.func @with_border
// CHECK-SAME: (%[[IN:[^:]+]]: memref<?x?x4xi8>, %[[OUT:[^:]+]]: memref<?x?x4xi8>, %[[INTERIOR:[^:]+]]: i1)
// CHECK: memref.extract_aligned_pointer_as_index %[[IN]]
// CHECK: memref.extract_aligned_pointer_as_index %[[OUT]]
// CHECK: %[[OK:.+]] = arith.andi %[[INTERIOR]], %{{.+}} : i1
// CHECK-NEXT: scf.if %[[OK]] {
// CHECK: vector.load
// CHECK: vector.store
// CHECK-NOT: scf.if
// CHECK: } else {
// CHECK-COUNT-4: memref.load %[[IN]]
// CHECK: } {arvr.interior}
func.func @with_border(%in: memref<?x?x4xi8>, %out: memref<?x?x4xi8>, %interior: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    scf.if %interior {
      %a = memref.load %in[%ty, %tx, %c0] : memref<?x?x4xi8>
      %b = memref.load %in[%ty, %tx, %c1] : memref<?x?x4xi8>
      %c = memref.load %in[%ty, %tx, %c2] : memref<?x?x4xi8>
      %d = memref.load %in[%ty, %tx, %c3] : memref<?x?x4xi8>
      memref.store %d, %out[%ty, %tx, %c0] : memref<?x?x4xi8>
      memref.store %c, %out[%ty, %tx, %c1] : memref<?x?x4xi8>
      memref.store %b, %out[%ty, %tx, %c2] : memref<?x?x4xi8>
      memref.store %a, %out[%ty, %tx, %c3] : memref<?x?x4xi8>
    } else {
      %a = memref.load %in[%ty, %tx, %c0] : memref<?x?x4xi8>
      %b = memref.load %in[%ty, %tx, %c1] : memref<?x?x4xi8>
      %c = memref.load %in[%ty, %tx, %c2] : memref<?x?x4xi8>
      %d = memref.load %in[%ty, %tx, %c3] : memref<?x?x4xi8>
      memref.store %d, %out[%ty, %tx, %c0] : memref<?x?x4xi8>
      memref.store %c, %out[%ty, %tx, %c1] : memref<?x?x4xi8>
      memref.store %b, %out[%ty, %tx, %c2] : memref<?x?x4xi8>
      memref.store %a, %out[%ty, %tx, %c3] : memref<?x?x4xi8>
    } {arvr.interior}
    gpu.terminator
  }
  return
}

// -----

// CHECK-LABEL: func.func @without_border
// CHECK-SAME: (%[[IN:[^:]+]]: memref<?x?x4xi8>, %[[OUT:[^:]+]]: memref<?x?x4xi8>, %[[INTERIOR:[^:]+]]: i1)
// CHECK: scf.if %[[INTERIOR]] {
// CHECK: memref.extract_aligned_pointer_as_index %[[IN]]
// CHECK: scf.if %{{.+}} {
// CHECK: vector.load
// CHECK: vector.store
// CHECK: } else {
// CHECK-COUNT-4: memref.load %[[IN]]
// CHECK: } {arvr.interior}
func.func @without_border(%in: memref<?x?x4xi8>, %out: memref<?x?x4xi8>, %interior: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    scf.if %interior {
      %a = memref.load %in[%ty, %tx, %c0] : memref<?x?x4xi8>
      %b = memref.load %in[%ty, %tx, %c1] : memref<?x?x4xi8>
      %c = memref.load %in[%ty, %tx, %c2] : memref<?x?x4xi8>
      %d = memref.load %in[%ty, %tx, %c3] : memref<?x?x4xi8>
      memref.store %d, %out[%ty, %tx, %c0] : memref<?x?x4xi8>
      memref.store %c, %out[%ty, %tx, %c1] : memref<?x?x4xi8>
      memref.store %b, %out[%ty, %tx, %c2] : memref<?x?x4xi8>
      memref.store %a, %out[%ty, %tx, %c3] : memref<?x?x4xi8>
    } {arvr.interior}
    gpu.terminator
  }
  return
}
