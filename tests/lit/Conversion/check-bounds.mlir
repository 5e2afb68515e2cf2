// arvr-check-bounds: every in_bounds read of an image must be proved in
// range over its stage's window (a stage without sizes: what its readers
// read); the pass reports each read it cannot prove, and makes a read with
// a boundary mode that it proves inside `in_bounds`.
// RUN: arvr-opt %s --split-input-file --arvr-check-bounds -verify-diagnostics -allow-unregistered-dialect | FileCheck %s

// Proved: the output's own pixel; a row below, clamped with min/max; a
// reduction over 0..2 in an output two columns narrower; the first of
// three (argmin) likewise.
// CHECK-LABEL: arvr.kernel @proved
// CHECK: %[[W:.+]] = arvr.dim %src width
// CHECK: arvr.stage "out" [%[[W]], %{{.+}}, %{{.+}}]
// CHECK: arvr.access %src[%{{.+}}, %{{.+}}, %{{.+}}] in_bounds
arvr.kernel @proved(%src: !arvr.image<ui8, 1> {arvr.name = "src"}) -> !arvr.image<ui8, 1> {
  %w = arvr.dim %src width : !arvr.image<ui8, 1>
  %h = arvr.dim %src height : !arvr.image<ui8, 1>
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %out = arvr.stage "out" [%w, %h, %c1] : !arvr.image<ui8, 1> {
  ^bb0(%x: index, %y: index, %c: index):
    %a = arvr.access %src[%x, %y, %c] in_bounds : !arvr.image<ui8, 1>
    %y1 = arith.addi %y, %c1 : index
    %hm = arith.subi %h, %c1 : index
    %yc = arith.minsi %y1, %hm : index
    %b = arvr.access %src[%x, %yc, %c0] in_bounds : !arvr.image<ui8, 1>
    %s = arith.addi %a, %b : i8
    arvr.yield %s : i8
  }
  arvr.return %out : !arvr.image<ui8, 1>
}

// -----

// CHECK-LABEL: arvr.kernel @valid_box
arvr.kernel @valid_box(%src: !arvr.image<ui8, 1> {arvr.name = "src"}) -> !arvr.image<i32, 1> {
  %w = arvr.dim %src width : !arvr.image<ui8, 1>
  %h = arvr.dim %src height : !arvr.image<ui8, 1>
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %w2 = arith.subi %w, %c2 : index
  %out = arvr.stage "out" [%w2, %h, %c1] : !arvr.image<i32, 1> {
  ^bb0(%x: index, %y: index, %c: index):
    %lo = arith.constant 0 : i32
    %hi = arith.constant 2 : i32
    %xi = arith.index_cast %x : index to i32
    %s = arvr.reduce sum %lo to %hi : i32 {
    ^bb0(%i: i32):
      %xx = arith.addi %xi, %i : i32
      %xs = arith.index_cast %xx : i32 to index
      %v = arvr.access %src[%xs, %y, %c] in_bounds : !arvr.image<ui8, 1>
      %e = arith.extui %v : i8 to i32
      arvr.yield %e : i32
    }
    %first = arvr.reduce argmin %lo to %hi : i32 {
    ^bb0(%i: i32):
      %neg = arith.subi %lo, %i : i32
      arvr.yield %neg : i32
    }
    %xf = arith.addi %xi, %first : i32
    %xfs = arith.index_cast %xf : i32 to index
    %v = arvr.access %src[%xfs, %y, %c] in_bounds : !arvr.image<ui8, 1>
    %e = arith.extui %v : i8 to i32
    %t = arith.addi %s, %e : i32
    arvr.yield %t : i32
  }
  arvr.return %out : !arvr.image<i32, 1>
}

// -----

// Half size: x / 2 of a frame's pixel is inside its UV plane, ceil(W / 2)
// wide; 2 x + 1 of a floor(W / 2)-wide output is inside the Y plane.
// CHECK-LABEL: arvr.kernel @planes
arvr.kernel @planes(%frame: !arvr.nv12 {arvr.name = "frame"}) -> (!arvr.image<ui8, 2>, !arvr.image<ui8, 1>) {
  %y = arvr.plane %frame y : !arvr.image<ui8, 1>
  %uv = arvr.plane %frame uv : !arvr.image<ui8, 2>
  %w = arvr.dim %y width : !arvr.image<ui8, 1>
  %h = arvr.dim %y height : !arvr.image<ui8, 1>
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %chroma = arvr.stage "chroma" [%w, %h, %c2] : !arvr.image<ui8, 2> {
  ^bb0(%x: index, %yy: index, %c: index):
    %x2 = arith.floordivsi %x, %c2 : index
    %y2 = arith.floordivsi %yy, %c2 : index
    %v = arvr.access %uv[%x2, %y2, %c] in_bounds : !arvr.image<ui8, 2>
    arvr.yield %v : i8
  }
  %hw = arith.floordivsi %w, %c2 : index
  %hh = arith.floordivsi %h, %c2 : index
  %half = arvr.stage "half" [%hw, %hh, %c1] : !arvr.image<ui8, 1> {
  ^bb0(%x: index, %yy: index, %c: index):
    %x2 = arith.muli %x, %c2 : index
    %x21 = arith.addi %x2, %c1 : index
    %y2 = arith.muli %c2, %yy : index
    %v = arvr.access %y[%x21, %y2, %c] in_bounds : !arvr.image<ui8, 1>
    arvr.yield %v : i8
  }
  arvr.return %chroma, %half : !arvr.image<ui8, 2>, !arvr.image<ui8, 1>
}

// -----

// A stage without sizes is read at x and x + 1 by an output one column
// narrower: its window is their union, and its own read is in range. A
// stage no one reads is never computed, so its reads do not count.
// CHECK-LABEL: arvr.kernel @union
arvr.kernel @union(%src: !arvr.image<f32, 1> {arvr.name = "src"}) -> !arvr.image<f32, 1> {
  %w = arvr.dim %src width : !arvr.image<f32, 1>
  %h = arvr.dim %src height : !arvr.image<f32, 1>
  %c1 = arith.constant 1 : index
  %unused = arvr.stage "unused" : !arvr.image<f32, 1> {
  ^bb0(%x: index, %y: index, %c: index):
    %far = arith.constant 100000 : index
    %v = arvr.access %src[%far, %y, %c] in_bounds : !arvr.image<f32, 1>
    arvr.yield %v : f32
  }
  %f = arvr.stage "f" : !arvr.image<f32, 1> {
  ^bb0(%x: index, %y: index, %c: index):
    %v = arvr.access %src[%x, %y, %c] in_bounds : !arvr.image<f32, 1>
    arvr.yield %v : f32
  }
  %w1 = arith.subi %w, %c1 : index
  %out = arvr.stage "out" [%w1, %h, %c1] : !arvr.image<f32, 1> {
  ^bb0(%x: index, %y: index, %c: index):
    %a = arvr.access %f[%x, %y, %c] in_bounds : !arvr.image<f32, 1>
    %x1 = arith.addi %x, %c1 : index
    %b = arvr.access %f[%x1, %y, %c] in_bounds : !arvr.image<f32, 1>
    %s = arith.addf %a, %b : f32
    arvr.yield %s : f32
  }
  arvr.return %out : !arvr.image<f32, 1>
}

// -----

arvr.kernel @past_the_edge(%src: !arvr.image<f32, 1> {arvr.name = "src"}) -> !arvr.image<f32, 1> {
  %w = arvr.dim %src width : !arvr.image<f32, 1>
  %h = arvr.dim %src height : !arvr.image<f32, 1>
  %c1 = arith.constant 1 : index
  %f = arvr.stage "f" : !arvr.image<f32, 1> {
  ^bb0(%x: index, %y: index, %c: index):
    // expected-error @+3 {{this read of 'src' may fall outside the image: its x coordinate may reach the image's width}}
    // expected-note @+2 {{it may be as high as src.width, and the last column is src.width - 1}}
    // expected-note @+1 {{give it a boundary mode, e.g. 'src.clamp(...)' to repeat the edge, or declare one on the parameter}}
    %v = arvr.access %src[%x, %y, %c] in_bounds : !arvr.image<f32, 1>
    arvr.yield %v : f32
  }
  %out = arvr.stage "out" [%w, %h, %c1] : !arvr.image<f32, 1> {
  ^bb0(%x: index, %y: index, %c: index):
    %x1 = arith.addi %x, %c1 : index
    %b = arvr.access %f[%x1, %y, %c] in_bounds : !arvr.image<f32, 1>
    arvr.yield %b : f32
  }
  arvr.return %out : !arvr.image<f32, 1>
}

// -----

arvr.kernel @scalar_offset(%src: !arvr.image<f32, 1> {arvr.name = "src"}, %d: index {arvr.name = "d"}) -> !arvr.image<f32, 1> {
  %w = arvr.dim %src width : !arvr.image<f32, 1>
  %h = arvr.dim %src height : !arvr.image<f32, 1>
  %c1 = arith.constant 1 : index
  %out = arvr.stage "out" [%w, %h, %c1] : !arvr.image<f32, 1> {
  ^bb0(%x: index, %y: index, %c: index):
    %yd = arith.addi %y, %d : index
    // expected-error @+3 {{its y coordinate may be negative}}
    // expected-note @+2 {{it may be as low as d, and the first row is 0}}
    // expected-note @+1 {{give it a boundary mode}}
    %v = arvr.access %src[%x, %yd, %c] in_bounds : !arvr.image<f32, 1>
    arvr.yield %v : f32
  }
  arvr.return %out : !arvr.image<f32, 1>
}

// -----

// A stage with sizes is read only inside its window.
arvr.kernel @stage_window(%src: !arvr.image<f32, 1> {arvr.name = "src"}) -> !arvr.image<f32, 1> {
  %w = arvr.dim %src width : !arvr.image<f32, 1>
  %h = arvr.dim %src height : !arvr.image<f32, 1>
  %c1 = arith.constant 1 : index
  %t = arvr.stage "t" [%w, %h, %c1] : !arvr.image<f32, 1> {
  ^bb0(%x: index, %y: index, %c: index):
    %v = arith.constant 1.0 : f32
    arvr.yield %v : f32
  }
  %out = arvr.stage "out" [%w, %h, %c1] : !arvr.image<f32, 1> {
  ^bb0(%x: index, %y: index, %c: index):
    %x1 = arith.subi %x, %c1 : index
    // expected-error @+2 {{this read of 't' may fall outside the stage's window: its first coordinate may be negative}}
    // expected-note @+1 {{it may be as low as -1, and the first column is 0}}
    %v = arvr.access %t[%x1, %y, %c] in_bounds : !arvr.image<f32, 1>
    arvr.yield %v : f32
  }
  arvr.return %out : !arvr.image<f32, 1>
}

// -----

// A channel past the plane's two.
arvr.kernel @third_channel(%frame: !arvr.nv12 {arvr.name = "cam"}) -> !arvr.image<ui8, 1> {
  %uv = arvr.plane %frame uv : !arvr.image<ui8, 2>
  %w = arvr.dim %uv width : !arvr.image<ui8, 2>
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %out = arvr.stage "out" [%w, %w, %c1] : !arvr.image<ui8, 1> {
  ^bb0(%x: index, %y: index, %c: index):
    %c0 = arith.constant 0 : index
    // expected-error @+3 {{this read of 'cam.uv' may fall outside the plane: its c coordinate may reach the plane's channel count}}
    // expected-note @+2 {{it may be as high as 2, and the last channel is 1}}
    // expected-note @+1 {{declare a boundary mode on the frame}}
    %v = arvr.access %uv[%x, %c0, %c2] in_bounds : !arvr.image<ui8, 2>
    arvr.yield %v : i8
  }
  arvr.return %out : !arvr.image<ui8, 1>
}

// -----

// An image whose sizes the analysis cannot name (made by an op of another
// dialect): no read of it without boundary is proved.
arvr.kernel @foreign_image(%src: !arvr.image<f32, 1> {arvr.name = "src"}) -> !arvr.image<f32, 1> {
  %w = arvr.dim %src width : !arvr.image<f32, 1>
  %c1 = arith.constant 1 : index
  %other = "other.image"() : () -> !arvr.image<f32, 1>
  %out = arvr.stage "out" [%w, %w, %c1] : !arvr.image<f32, 1> {
  ^bb0(%x: index, %y: index, %c: index):
    // expected-error @+2 {{this read may fall outside the image: its x coordinate may reach the image's width}}
    // expected-note @+1 {{the image's width is not known here}}
    %v = arvr.access %other[%x, %y, %c] in_bounds : !arvr.image<f32, 1>
    arvr.yield %v : f32
  }
  arvr.return %out : !arvr.image<f32, 1>
}

// -----

// Reads with a boundary mode: a stage stored at the size of its reader's
// window, read at the reader's own point (mirror, and constant with its
// padding), proved inside: in_bounds; a read of the next column keeps its
// mirror, without a report.
// CHECK-LABEL: arvr.kernel @handled
// CHECK: arvr.stage "out"
// CHECK: arvr.access %[[L:.+]][%{{.+}}, %{{.+}}, %{{.+}}] in_bounds :
// CHECK-NEXT: arvr.access %[[L]][%{{.+}}, %{{.+}}, %{{.+}}] in_bounds :
// CHECK-NEXT: arith.addi
// CHECK-NEXT: arvr.access %[[L]][%{{.+}}, %{{.+}}, %{{.+}}] mirror :
arvr.kernel @handled(%src: !arvr.image<ui8, 1> {arvr.name = "src"}) -> !arvr.image<ui8, 1> {
  %w = arvr.dim %src width : !arvr.image<ui8, 1>
  %h = arvr.dim %src height : !arvr.image<ui8, 1>
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %w1 = arith.addi %w, %c1 : index
  %hw = arith.floordivsi %w1, %c2 : index
  %level = arvr.stage "level" [%hw, %h, %c1] : !arvr.image<ui8, 1> {
  ^bb0(%x: index, %y: index, %c: index):
    %x2 = arith.muli %x, %c2 : index
    %v = arvr.access %src[%x2, %y, %c] mirror : !arvr.image<ui8, 1>
    arvr.yield %v : i8
  }
  %w1b = arith.addi %w, %c1 : index
  %hwb = arith.floordivsi %w1b, %c2 : index
  %out = arvr.stage "out" [%hwb, %h, %c1] : !arvr.image<ui8, 1> {
  ^bb0(%x: index, %y: index, %c: index):
    %a = arvr.access %level[%x, %y, %c] mirror : !arvr.image<ui8, 1>
    %b = arvr.access %level[%x, %y, %c] constant(0 : i8) : !arvr.image<ui8, 1>
    %x1 = arith.addi %x, %c1 : index
    %n = arvr.access %level[%x1, %y, %c] mirror : !arvr.image<ui8, 1>
    %s = arith.addi %a, %b : i8
    %t = arith.addi %s, %n : i8
    arvr.yield %t : i8
  }
  arvr.return %out : !arvr.image<ui8, 1>
}
