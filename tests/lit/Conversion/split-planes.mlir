// arvr-split-planes: an !arvr.nv12 argument becomes two image arguments in
// its place (NAME_y, NAME_uv); each arvr.plane becomes the matching one;
// other arguments keep their order and names.
// RUN: arvr-opt %s --split-input-file --arvr-split-planes -verify-diagnostics | FileCheck %s

// CHECK-LABEL: arvr.kernel @frame_and_gain
// CHECK-SAME: (%[[Y:.+]]: !arvr.image<ui8, 1> {arvr.name = "cam_y"}, %[[UV:.+]]: !arvr.image<ui8, 2> {arvr.name = "cam_uv"}, %[[G:.+]]: f32 {arvr.name = "g"})
// CHECK-NOT: arvr.plane
// CHECK: arvr.dim %[[Y]] width
// CHECK: arvr.access %[[UV]][{{.+}}] clamp : !arvr.image<ui8, 2>
arvr.kernel @frame_and_gain(%cam: !arvr.nv12 {arvr.name = "cam"}, %g: f32 {arvr.name = "g"}) -> !arvr.image<ui8, 1> {
  %y = arvr.plane %cam y : !arvr.image<ui8, 1>
  %uv = arvr.plane %cam uv : !arvr.image<ui8, 2>
  %w = arvr.dim %y width : !arvr.image<ui8, 1>
  %h = arvr.dim %y height : !arvr.image<ui8, 1>
  %one = arith.constant 1 : index
  %out = arvr.stage "out" [%w, %h, %one] : !arvr.image<ui8, 1> {
  ^bb0(%x: index, %yy: index, %c: index):
    %v = arvr.access %uv[%x, %yy, %c] clamp : !arvr.image<ui8, 2>
    arvr.yield %v : i8
  }
  arvr.return %out : !arvr.image<ui8, 1>
}

// -----

// Two frames: each split in its place.
// CHECK-LABEL: arvr.kernel @two
// CHECK-SAME: (%{{.+}}: !arvr.image<ui8, 1> {arvr.name = "a_y"}, %{{.+}}: !arvr.image<ui8, 2> {arvr.name = "a_uv"}, %{{.+}}: !arvr.image<ui8, 1> {arvr.name = "b_y"}, %{{.+}}: !arvr.image<ui8, 2> {arvr.name = "b_uv"})
arvr.kernel @two(%a: !arvr.nv12 {arvr.name = "a"}, %b: !arvr.nv12 {arvr.name = "b"}) -> !arvr.image<ui8, 1> {
  %ya = arvr.plane %a y : !arvr.image<ui8, 1>
  %yb = arvr.plane %b y : !arvr.image<ui8, 1>
  %w = arvr.dim %ya width : !arvr.image<ui8, 1>
  %one = arith.constant 1 : index
  %out = arvr.stage "out" [%w, %w, %one] : !arvr.image<ui8, 1> {
  ^bb0(%x: index, %y: index, %c: index):
    %v = arvr.access %yb[%x, %y, %c] clamp : !arvr.image<ui8, 1>
    arvr.yield %v : i8
  }
  arvr.return %out : !arvr.image<ui8, 1>
}
