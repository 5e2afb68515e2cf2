// arvr-compact-borders: in a launch's border version (the else branch of
// the split marked arvr.interior), what a loop that runs at least once
// computes alike in every iteration (a mirrored column, integer remainder
// included) moves before it. The interior version, and loops that may not
// run, keep their code.
// RUN: arvr-opt %s --arvr-compact-borders | FileCheck %s

// CHECK-LABEL: func.func @taps
// CHECK: gpu.launch
// CHECK: scf.if %{{.+}} {
// The interior keeps its loop's body, invariant remainder included.
// CHECK: scf.for
// CHECK: arith.remsi
// CHECK: memref.load
// CHECK: } else {
// The border: the column's mirror (its test, its remainder) once, before
// the loop over tap rows; the row's mirror stays in the loop.
// CHECK: %[[COL:.+]] = scf.if %{{.+}} -> (index) {
// CHECK: arith.remsi
// CHECK: }
// CHECK-NEXT: %[[SUM:.+]] = scf.for %[[J:.+]] = %c-2 to %c3 step %c1 iter_args
// CHECK: %[[ROW:.+]] = arith.addi %{{.+}}, %[[J]] : index
// CHECK: scf.if
// CHECK: memref.load %{{.+}}[%{{.+}}, %[[COL]]]
// CHECK: scf.yield
// CHECK-NEXT: }
// A loop that may not run (a trip count known only at run time) keeps its
// remainder inside.
// CHECK: scf.for
// CHECK: arith.remsi
// CHECK: memref.load
// CHECK: } {arvr.interior}
func.func @taps(%src: memref<?x?xi8>, %dst: memref<?x?xi32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %cm2 = arith.constant -2 : index
  %zero = arith.constant 0 : i32
  %h = memref.dim %src, %c0 : memref<?x?xi8>
  %w = memref.dim %src, %c1 : memref<?x?xi8>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %w, %gy = %h, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %inside = arith.cmpi slt, %bx, %c2 : index
    scf.if %inside {
      %s = scf.for %j = %cm2 to %c3 step %c1 iter_args(%acc = %zero) -> (i32) {
        %y = arith.addi %by, %j : index
        %xr = arith.remsi %bx, %w : index
        %v = memref.load %src[%y, %xr] : memref<?x?xi8>
        %e = arith.extui %v : i8 to i32
        %a = arith.addi %acc, %e : i32
        scf.yield %a : i32
      }
      memref.store %s, %dst[%by, %bx] : memref<?x?xi32>
    } else {
      %s = scf.for %j = %cm2 to %c3 step %c1 iter_args(%acc = %zero) -> (i32) {
        %x = arith.addi %bx, %c2 : index
        %xin = arith.cmpi slt, %x, %w : index
        %col = scf.if %xin -> (index) {
          scf.yield %x : index
        } else {
          %r = arith.remsi %x, %w : index
          scf.yield %r : index
        }
        %y = arith.addi %by, %j : index
        %yin = arith.cmpi slt, %y, %h : index
        %row = scf.if %yin -> (index) {
          scf.yield %y : index
        } else {
          %r = arith.remsi %y, %h : index
          scf.yield %r : index
        }
        %v = memref.load %src[%row, %col] : memref<?x?xi8>
        %e = arith.extui %v : i8 to i32
        %a = arith.addi %acc, %e : i32
        scf.yield %a : i32
      }
      memref.store %s, %dst[%by, %bx] : memref<?x?xi32>
      %t = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i32) {
        %r = arith.remsi %bx, %w : index
        %v = memref.load %src[%by, %r] : memref<?x?xi8>
        %e = arith.extui %v : i8 to i32
        %a = arith.addi %acc, %e : i32
        scf.yield %a : i32
      }
      memref.store %t, %dst[%bx, %by] : memref<?x?xi32>
    } {arvr.interior}
    gpu.terminator
  }
  return
}
