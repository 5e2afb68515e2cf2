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

// A read of a stage of one value everywhere folds to that value: a
// constant, or a value computed before the stage; the stage, then unread,
// goes. A read with a constant boundary keeps the stage (it may read the
// padding).
// CHECK-LABEL: arvr.kernel @uniform_stages
// CHECK-SAME: (%[[S:[^:]+]]: !arvr.image<ui8, 1>, %[[G:[^:]+]]: f32)
// CHECK: %[[SEVEN:.+]] = arith.constant 7.000000e+00 : f32
// CHECK-NOT: arvr.stage "seven"
// CHECK-NOT: arvr.stage "gain"
// CHECK: %[[PADDED:.+]] = arvr.stage "padded"
// CHECK: arvr.stage "out"
// CHECK-DAG: arith.mulf %[[G]], %[[SEVEN]] : f32
// CHECK-DAG: arvr.access %[[PADDED]][{{.+}}] constant(0 : i8)
arvr.kernel @uniform_stages(%src: !arvr.image<ui8, 1>, %g: f32) -> !arvr.image<f32, 1> {
  %w = arvr.dim %src width : !arvr.image<ui8, 1>
  %one = arith.constant 1 : index
  %seven = arvr.stage "seven" [%one, %one, %one] : !arvr.image<ui8, 1> {
  ^bb0(%x: index, %y: index, %c: index):
    %v = arith.constant 7 : i8
    arvr.yield %v : i8
  }
  %gain = arvr.stage "gain" [%one, %one, %one] : !arvr.image<f32, 1> {
  ^bb0(%x: index, %y: index, %c: index):
    arvr.yield %g : f32
  }
  %padded = arvr.stage "padded" [%one, %one, %one] : !arvr.image<ui8, 1> {
  ^bb0(%x: index, %y: index, %c: index):
    %v = arith.constant 9 : i8
    arvr.yield %v : i8
  }
  %out = arvr.stage "out" [%w, %w, %one] : !arvr.image<f32, 1> {
  ^bb0(%x: index, %y: index, %c: index):
    %zero = arith.constant 0 : index
    %a = arvr.access %seven[%zero, %zero, %zero] in_bounds : !arvr.image<ui8, 1>
    %b = arvr.access %gain[%zero, %zero, %zero] in_bounds : !arvr.image<f32, 1>
    %p = arvr.access %padded[%x, %y, %c] constant(0 : i8) : !arvr.image<ui8, 1>
    %af = arith.uitofp %a : i8 to f32
    %pf = arith.uitofp %p : i8 to f32
    %m = arith.mulf %af, %b : f32
    %r = arith.addf %m, %pf : f32
    arvr.yield %r : f32
  }
  arvr.return %out : !arvr.image<f32, 1>
}
