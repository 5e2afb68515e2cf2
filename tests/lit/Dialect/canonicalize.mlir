// Folders of the arvr dialect under --canonicalize.
// RUN: arvr-opt %s --canonicalize | FileCheck %s

// CHECK-LABEL: arvr.kernel @dims
// CHECK-SAME: (%[[SRC:[^:]+]]: !arvr.image<ui8, 3>)
arvr.kernel @dims(%src: !arvr.image<ui8, 3>) -> (!arvr.image<ui8, 3>, !arvr.image<ui8, 3>) {
  // The channels of a static image fold to a constant.
  // CHECK-DAG: %[[THREE:.+]] = arith.constant 3 : index
  // CHECK-DAG: %[[W:.+]] = arvr.dim %[[SRC]] width
  // CHECK-DAG: %[[H:.+]] = arvr.dim %[[SRC]] height
  %w = arvr.dim %src width : !arvr.image<ui8, 3>
  %h = arvr.dim %src height : !arvr.image<ui8, 3>
  %c = arvr.dim %src channels : !arvr.image<ui8, 3>
  // CHECK: %[[A:.+]] = arvr.stage "a" [%[[W]], %[[H]], %[[THREE]]]
  %a = arvr.stage "a" [%w, %h, %c] : !arvr.image<ui8, 3> {
  ^bb0(%x: index, %y: index, %ch: index):
    %v = arvr.access %src[%x, %y, %ch] in_bounds : !arvr.image<ui8, 3>
    arvr.yield %v : i8
  }
  // The sizes of a stage are the sizes it was defined with.
  // CHECK-NOT: arvr.dim %[[A]]
  // CHECK: arvr.stage "b" [%[[W]], %[[H]], %[[THREE]]]
  %aw = arvr.dim %a width : !arvr.image<ui8, 3>
  %ah = arvr.dim %a height : !arvr.image<ui8, 3>
  %ac = arvr.dim %a channels : !arvr.image<ui8, 3>
  %b = arvr.stage "b" [%aw, %ah, %ac] : !arvr.image<ui8, 3> {
  ^bb0(%x: index, %y: index, %ch: index):
    %v = arvr.access %a[%x, %y, %ch] clamp : !arvr.image<ui8, 3>
    arvr.yield %v : i8
  }
  arvr.return %a, %b : !arvr.image<ui8, 3>, !arvr.image<ui8, 3>
}
