// arvr-map-to-gpu puts a thread's points (here 2 rows of 8 consecutive
// columns) in a nest of scf.for loops marked arvr.thread_points, one copy
// of the stage's body; arvr-specialize-interior unrolls them in the
// interior version, where the boundary handling is gone, and leaves them
// loops in the border version: one copy of the body with its mirror tests
// for the thread's 16 points, not 16. A nest of fewer than 16 points (here
// 2 rows of 4 columns) is unrolled in the border too.
// RUN: arvr-opt %s --arvr-infer-bounds --convert-arvr-to-loops --arvr-map-to-gpu="columns-per-thread=8 rows-per-thread=2" | FileCheck %s --check-prefix=MAP
// RUN: arvr-opt %s --arvr-infer-bounds --convert-arvr-to-loops --arvr-map-to-gpu="columns-per-thread=8 rows-per-thread=2" --canonicalize --arvr-specialize-interior --canonicalize --cse | FileCheck %s

// RUN: arvr-opt %s --arvr-infer-bounds --convert-arvr-to-loops --arvr-map-to-gpu="columns-per-thread=4 rows-per-thread=2" --canonicalize --arvr-specialize-interior --canonicalize --cse | FileCheck %s --check-prefix=FEW

// FEW-LABEL: func.func @blur3
// FEW: scf.if %{{.+}} {
// FEW-NOT: scf.for
// FEW-COUNT-8: memref.store
// FEW: } else {
// FEW-NOT: scf.for
// FEW-COUNT-8: memref.store
// FEW-NOT: memref.store
// FEW: gpu.terminator

// MAP-LABEL: func.func @blur3
// MAP: gpu.launch
// MAP: scf.for %[[R:.+]] = %{{.+}} to %{{.+}} step
// MAP: arith.addi %{{.+}}, %[[R]] : index
// MAP: scf.for %[[K:.+]] = %{{.+}} to %{{.+}} step
// MAP: arith.addi %{{.+}}, %[[K]] : index
// MAP: scf.if
// MAP: memref.store
// MAP-NOT: memref.store
// MAP: } {arvr.boundary}
// MAP-NEXT: } {arvr.thread_points}
// MAP-NEXT: } {arvr.thread_points}
// MAP-NEXT: gpu.terminator

// CHECK-LABEL: func.func @blur3
// CHECK: gpu.launch
// CHECK: scf.if %{{.+}} {
// The interior: the 16 points unrolled, no loop, no mirror test.
// CHECK-NOT: scf.for
// CHECK-NOT: arith.remsi
// CHECK-COUNT-16: memref.store
// CHECK-NOT: memref.store
// CHECK: } else {
// The border: the two loops, one copy of the body, its guard and its
// mirror tests.
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.if
// CHECK: arith.remsi
// CHECK: memref.store
// CHECK-NOT: memref.store
// CHECK: gpu.terminator
// No mark is left.
// CHECK-NOT: arvr.thread_points
// CHECK-NOT: arvr.boundary
arvr.kernel @blur3(%src: !arvr.image<ui8, 1>) -> !arvr.image<i32, 1> {
  %w = arvr.dim %src width : !arvr.image<ui8, 1>
  %h = arvr.dim %src height : !arvr.image<ui8, 1>
  %c = arvr.dim %src channels : !arvr.image<ui8, 1>
  %out = arvr.stage "out" [%w, %h, %c] : !arvr.image<i32, 1> {
  ^bb0(%x: index, %y: index, %ch: index):
    %m1 = arith.constant -1 : index
    %p1 = arith.constant 1 : index
    %xl = arith.addi %x, %m1 : index
    %xr = arith.addi %x, %p1 : index
    %a = arvr.access %src[%xl, %y, %ch] mirror : !arvr.image<ui8, 1>
    %b = arvr.access %src[%x, %y, %ch] mirror : !arvr.image<ui8, 1>
    %d = arvr.access %src[%xr, %y, %ch] mirror : !arvr.image<ui8, 1>
    %a32 = arith.extui %a : i8 to i32
    %b32 = arith.extui %b : i8 to i32
    %d32 = arith.extui %d : i8 to i32
    %s0 = arith.addi %a32, %b32 : i32
    %s1 = arith.addi %s0, %d32 : i32
    arvr.yield %s1 : i32
  }
  arvr.return %out : !arvr.image<i32, 1>
}
