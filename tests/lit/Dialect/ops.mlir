// Round trip of every arvr op, type and attribute.
// RUN: arvr-opt %s | arvr-opt | FileCheck %s
// RUN: arvr-opt %s --mlir-print-op-generic | arvr-opt | FileCheck %s

// CHECK-LABEL: arvr.kernel @invert
// CHECK-SAME: (%src: !arvr.image<ui8, ?> {arvr.name = "src"}) -> !arvr.image<ui8, ?>
arvr.kernel @invert(%src: !arvr.image<ui8, ?> {arvr.name = "src"}) -> !arvr.image<ui8, ?> {
  // CHECK: %[[W:.+]] = arvr.dim %src width : !arvr.image<ui8, ?>
  // CHECK: %[[H:.+]] = arvr.dim %src height : !arvr.image<ui8, ?>
  // CHECK: %[[C:.+]] = arvr.dim %src channels : !arvr.image<ui8, ?>
  %w = arvr.dim %src width : !arvr.image<ui8, ?>
  %h = arvr.dim %src height : !arvr.image<ui8, ?>
  %c = arvr.dim %src channels : !arvr.image<ui8, ?>
  // CHECK: %[[OUT:.+]] = arvr.stage "out" [%[[W]], %[[H]], %[[C]]] : !arvr.image<ui8, ?> {
  // CHECK-NEXT: ^bb0(%[[X:.+]]: index, %[[Y:.+]]: index, %[[CH:.+]]: index):
  %out = arvr.stage "out" [%w, %h, %c] : !arvr.image<ui8, ?> {
  ^bb0(%x: index, %y: index, %ch: index):
    // CHECK: %[[V:.+]] = arvr.access %src[%[[X]], %[[Y]], %[[CH]]] in_bounds : !arvr.image<ui8, ?>
    %v = arvr.access %src[%x, %y, %ch] in_bounds : !arvr.image<ui8, ?>
    %m = arith.constant -1 : i8
    %r = arith.xori %v, %m : i8
    // CHECK: arvr.yield %{{.+}} : i8
    arvr.yield %r : i8
  }
  // CHECK: arvr.return %[[OUT]] : !arvr.image<ui8, ?>
  arvr.return %out : !arvr.image<ui8, ?>
}

// Every element type, static channels, clamp, scalar parameters.
// CHECK-LABEL: arvr.kernel @types
// CHECK-SAME: !arvr.image<ui16, 1>
// CHECK-SAME: !arvr.image<i32, 4>
// CHECK-SAME: !arvr.image<f32, 3>
// CHECK-SAME: f32
// CHECK-SAME: -> !arvr.image<f32, 3>
arvr.kernel @types(%a: !arvr.image<ui16, 1>, %b: !arvr.image<i32, 4>,
                   %f: !arvr.image<f32, 3>, %k: f32) -> !arvr.image<f32, 3> {
  %w = arvr.dim %f width : !arvr.image<f32, 3>
  %h = arvr.dim %f height : !arvr.image<f32, 3>
  %c = arith.constant 3 : index
  %out = arvr.stage "out" [%w, %h, %c] : !arvr.image<f32, 3> {
  ^bb0(%x: index, %y: index, %ch: index):
    // CHECK: arvr.access %{{.+}} clamp : !arvr.image<ui16, 1>
    %s = arvr.access %a[%x, %y, %ch] clamp : !arvr.image<ui16, 1>
    // CHECK: arvr.access %{{.+}} clamp : !arvr.image<i32, 4>
    %i = arvr.access %b[%x, %y, %ch] clamp : !arvr.image<i32, 4>
    // CHECK: arvr.access %{{.+}} in_bounds : !arvr.image<f32, 3>
    %v = arvr.access %f[%x, %y, %ch] in_bounds : !arvr.image<f32, 3>
    %sf = arith.uitofp %s : i16 to f32
    %if = arith.sitofp %i : i32 to f32
    %t = arith.addf %sf, %if : f32
    %u = arith.addf %t, %v : f32
    %r = arith.mulf %u, %k : f32
    arvr.yield %r : f32
  }
  arvr.return %out : !arvr.image<f32, 3>
}

// Boundary modes with their padding, and samples.
// CHECK-LABEL: arvr.kernel @boundaries
arvr.kernel @boundaries(%src: !arvr.image<ui8, 3>, %u: f32) -> !arvr.image<f32, 3> {
  %w = arvr.dim %src width : !arvr.image<ui8, 3>
  %h = arvr.dim %src height : !arvr.image<ui8, 3>
  %c = arith.constant 3 : index
  %out = arvr.stage "out" [%w, %h, %c] : !arvr.image<f32, 3> {
  ^bb0(%x: index, %y: index, %ch: index):
    // CHECK: arvr.access %{{.+}} mirror : !arvr.image<ui8, 3>
    %m = arvr.access %src[%x, %y, %ch] mirror : !arvr.image<ui8, 3>
    // CHECK: arvr.access %{{.+}} wrap : !arvr.image<ui8, 3>
    %r = arvr.access %src[%x, %y, %ch] wrap : !arvr.image<ui8, 3>
    // CHECK: arvr.access %{{.+}} constant(7 : i8) : !arvr.image<ui8, 3>
    %k = arvr.access %src[%x, %y, %ch] constant(7 : i8) : !arvr.image<ui8, 3>
    // CHECK: arvr.sample %{{.+}}[%{{.+}}, %{{.+}}, %{{.+}}] bilinear constant(0 : i8) : !arvr.image<ui8, 3>
    %s = arvr.sample %src[%u, %u, %ch] bilinear constant(0 : i8) : !arvr.image<ui8, 3>
    // CHECK: arvr.sample %{{.+}}[%{{.+}}, %{{.+}}, %{{.+}}] nearest clamp : !arvr.image<ui8, 3>
    %n = arvr.sample %src[%u, %u, %ch] nearest clamp : !arvr.image<ui8, 3>
    %a = arith.uitofp %m : i8 to f32
    %b = arith.uitofp %r : i8 to f32
    %d = arith.uitofp %k : i8 to f32
    %e = arith.addf %a, %b : f32
    %f = arith.addf %d, %e : f32
    %g = arith.addf %s, %n : f32
    %t = arith.addf %f, %g : f32
    arvr.yield %t : f32
  }
  arvr.return %out : !arvr.image<f32, 3>
}

// Reductions, nested.
// CHECK-LABEL: arvr.kernel @reductions
arvr.kernel @reductions(%src: !arvr.image<ui8, 1>, %r: i32) -> !arvr.image<f32, 1> {
  %w = arvr.dim %src width : !arvr.image<ui8, 1>
  %h = arvr.dim %src height : !arvr.image<ui8, 1>
  %c = arvr.dim %src channels : !arvr.image<ui8, 1>
  %out = arvr.stage "out" [%w, %h, %c] : !arvr.image<f32, 1> {
  ^bb0(%x: index, %y: index, %ch: index):
    %zero = arith.constant 0 : i32
    // CHECK: arvr.reduce sum %{{.+}} to %{{.+}} : f32 {
    // CHECK-NEXT: ^bb0(%[[I:.+]]: i32):
    %s = arvr.reduce sum %zero to %r : f32 {
    ^bb0(%i: i32):
      // CHECK: arvr.reduce max %{{.+}} to %[[I]] unroll 4 : i32 {
      %m = arvr.reduce max %zero to %i unroll 4 : i32 {
      ^bb0(%j: i32):
        %p = arith.muli %i, %j : i32
        arvr.yield %p : i32
      }
      %f = arith.sitofp %m : i32 to f32
      arvr.yield %f : f32
    }
    // CHECK: arvr.reduce argmin %{{.+}} to %{{.+}} : i32
    %am = arvr.reduce argmin %zero to %r : i32 {
    ^bb0(%k2: i32):
      %g2 = arith.sitofp %k2 : i32 to f32
      arvr.yield %g2 : f32
    }
    // CHECK: arvr.reduce min
    %n = arvr.reduce min %zero to %r : f32 {
    ^bb0(%k: i32):
      %g = arith.sitofp %k : i32 to f32
      arvr.yield %g : f32
    }
    %t = arith.addf %s, %n : f32
    arvr.yield %t : f32
  }
  arvr.return %out : !arvr.image<f32, 1>
}

// A stage without sizes (its window to be inferred), one with a window and a
// GPU block, and the reads between them.
// CHECK-LABEL: arvr.kernel @windows
arvr.kernel @windows(%src: !arvr.image<ui8, ?>) -> !arvr.image<f32, ?> {
  %w = arvr.dim %src width : !arvr.image<ui8, ?>
  %h = arvr.dim %src height : !arvr.image<ui8, ?>
  %c = arvr.dim %src channels : !arvr.image<ui8, ?>
  %one = arith.constant 1 : index
  // CHECK: %[[T:.+]] = arvr.stage "t" : !arvr.image<f32, ?> {
  %t = arvr.stage "t" : !arvr.image<f32, ?> {
  ^bb0(%x: index, %y: index, %ch: index):
    %v = arvr.access %src[%x, %y, %ch] clamp : !arvr.image<ui8, ?>
    %f = arith.uitofp %v : i8 to f32
    arvr.yield %f : f32
  }
  // CHECK: %[[U:.+]] = arvr.stage "u" [%{{.+}}, %{{.+}}, %{{.+}}] at [%{{.+}}, %{{.+}}, %{{.+}}] gpu_block [64, 4] : !arvr.image<f32, ?> {
  %u = arvr.stage "u" [%w, %h, %c] at [%one, %one, %one] gpu_block [64, 4] : !arvr.image<f32, ?> {
  ^bb0(%x: index, %y: index, %ch: index):
    // CHECK: arvr.access %[[T]][%{{.+}}, %{{.+}}, %{{.+}}] in_bounds : !arvr.image<f32, ?>
    %v = arvr.access %t[%x, %y, %ch] in_bounds : !arvr.image<f32, ?>
    arvr.yield %v : f32
  }
  // CHECK: arvr.stage "out" [%{{.+}}, %{{.+}}, %{{.+}}] gpu_block [32, 8] gpu_pixels 4 : !arvr.image<f32, ?>
  %out = arvr.stage "out" [%w, %h, %c] gpu_block [32, 8] gpu_pixels 4 : !arvr.image<f32, ?> {
  ^bb0(%x: index, %y: index, %ch: index):
    %v = arvr.access %u[%x, %y, %ch] in_bounds : !arvr.image<f32, ?>
    arvr.yield %v : f32
  }
  arvr.return %out : !arvr.image<f32, ?>
}

// An NV12 frame and its planes.
// CHECK-LABEL: arvr.kernel @nv12
// CHECK-SAME: (%[[F:.+]]: !arvr.nv12)
// CHECK: %[[Y:.+]] = arvr.plane %[[F]] y : !arvr.image<ui8, 1>
// CHECK: %[[UV:.+]] = arvr.plane %[[F]] uv : !arvr.image<ui8, 2>
// CHECK: arvr.dim %[[Y]] width
// CHECK: arvr.access %[[UV]]
arvr.kernel @nv12(%frame: !arvr.nv12) -> !arvr.image<ui8, 1> {
  %y = arvr.plane %frame y : !arvr.image<ui8, 1>
  %uv = arvr.plane %frame uv : !arvr.image<ui8, 2>
  %w = arvr.dim %y width : !arvr.image<ui8, 1>
  %one = arith.constant 1 : index
  %out = arvr.stage "out" [%w, %w, %one] : !arvr.image<ui8, 1> {
  ^bb0(%x: index, %yy: index, %c: index):
    %v = arvr.access %uv[%x, %yy, %c] clamp : !arvr.image<ui8, 2>
    arvr.yield %v : i8
  }
  arvr.return %out : !arvr.image<ui8, 1>
}

// An inline stage (a function the schedule leaves inline), read in place.
// CHECK-LABEL: arvr.kernel @inline_stage
arvr.kernel @inline_stage(%src: !arvr.image<f32, 1> {arvr.name = "src"}) -> !arvr.image<f32, 1> {
  %w = arvr.dim %src width : !arvr.image<f32, 1>
  %h = arvr.dim %src height : !arvr.image<f32, 1>
  %one = arith.constant 1 : index
  // CHECK: %[[T:.+]] = arvr.stage "twice" inline : !arvr.image<f32, 1> {
  // CHECK-NEXT: ^bb0(%[[X:.+]]: index, %[[Y:.+]]: index, %{{.+}}: index):
  // CHECK: arvr.access %src[%[[X]], %[[Y]], %{{.+}}] in_bounds
  %t = arvr.stage "twice" inline : !arvr.image<f32, 1> {
  ^bb0(%x: index, %y: index, %c: index):
    %v = arvr.access %src[%x, %y, %c] in_bounds : !arvr.image<f32, 1>
    %d = arith.addf %v, %v : f32
    arvr.yield %d : f32
  }
  // CHECK: arvr.stage "out" [%{{.+}}, %{{.+}}, %{{.+}}] : !arvr.image<f32, 1>
  // CHECK: arvr.access %[[T]][%{{.+}}, %{{.+}}, %{{.+}}] in_bounds : !arvr.image<f32, 1>
  %out = arvr.stage "out" [%w, %h, %one] : !arvr.image<f32, 1> {
  ^bb0(%x: index, %y: index, %c: index):
    %v = arvr.access %t[%x, %y, %c] in_bounds : !arvr.image<f32, 1>
    arvr.yield %v : f32
  }
  arvr.return %out : !arvr.image<f32, 1>
}
