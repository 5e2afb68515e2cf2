// arvr-cpu-row-bands: each kernel takes the band of rows it computes, and
// its returned stages compute only that band.
// RUN: arvr-opt %s --arvr-cpu-row-bands | FileCheck %s

// CHECK-LABEL: arvr.kernel @invert
// CHECK-SAME: %[[SRC:[^:]+]]: !arvr.image<ui8, ?>
// CHECK-SAME: %[[BEGIN:[^:]+]]: index {arvr.name = "row_begin"}, %[[END:[^:]+]]: index {arvr.name = "row_end"})
arvr.kernel @invert(%src: !arvr.image<ui8, ?>) -> !arvr.image<ui8, ?> {
  // CHECK: %[[W:.+]] = arvr.dim %[[SRC]] width
  // CHECK: %[[H:.+]] = arvr.dim %[[SRC]] height
  // CHECK: %[[C:.+]] = arvr.dim %[[SRC]] channels
  %w = arvr.dim %src width : !arvr.image<ui8, ?>
  %h = arvr.dim %src height : !arvr.image<ui8, ?>
  %c = arvr.dim %src channels : !arvr.image<ui8, ?>
  // The first row: begin clamped to [0, height].
  // CHECK: %[[ZERO:.+]] = arith.constant 0 : index
  // CHECK: %[[B0:.+]] = arith.maxsi %[[BEGIN]], %[[ZERO]]
  // CHECK: %[[FIRST:.+]] = arith.minsi %[[B0]], %[[H]]
  // The end: clamped to [first, height].
  // CHECK: %[[E0:.+]] = arith.maxsi %[[END]], %[[FIRST]]
  // CHECK: %[[LAST:.+]] = arith.minsi %[[E0]], %[[H]]
  // CHECK: %[[ROWS:.+]] = arith.subi %[[LAST]], %[[FIRST]]
  // CHECK: arvr.stage "out" [%[[W]], %[[ROWS]], %[[C]]] at [%[[ZERO]], %[[FIRST]], %[[ZERO]]]
  %out = arvr.stage "out" [%w, %h, %c] : !arvr.image<ui8, ?> {
  ^bb0(%x: index, %y: index, %ch: index):
    %v = arvr.access %src[%x, %y, %ch] in_bounds : !arvr.image<ui8, ?>
    arvr.yield %v : i8
  }
  arvr.return %out : !arvr.image<ui8, ?>
}
