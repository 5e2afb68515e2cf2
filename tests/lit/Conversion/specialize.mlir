// arvr-specialize: known values become constants, and stages of constants
// read at places known when compiling are marked inline.
// RUN: arvr-opt %s --arvr-specialize="values=gain=2.5,radius=1,src.channels=3" | FileCheck %s
// RUN: arvr-opt %s --arvr-specialize | FileCheck %s --check-prefix=GENERIC
// RUN: not arvr-opt %s --arvr-specialize="values=nope=1" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not arvr-opt %s --arvr-specialize="values=gain=fast" 2>&1 | FileCheck %s --check-prefix=BADVALUE
// RUN: not arvr-opt %s --arvr-specialize="values=src.channels=9" 2>&1 | FileCheck %s --check-prefix=BADCHANNELS

// UNKNOWN: error: no kernel has a parameter 'nope' to specialise ('nope=1')
// BADVALUE: error: parameter 'gain' is f32, but 'fast' is not a finite number
// BADCHANNELS: error: 'src.channels=9': an image specialises as src.channels=N, N from 1 to 4

// The scalar reads the constant; the channel count is 3; the table of
// weights (a stage of its coordinate only), read at the reduction's
// variable over -1..1, becomes inline.
// The output, sized by the image, gets its channel count in its type, and
// the kernel's result with it (without values it stays `?`).
// CHECK-LABEL: arvr.kernel @k(%{{.+}}: !arvr.image<ui8, 3> {arvr.name = "src"}
// CHECK-SAME: -> !arvr.image<f32, 3>
// CHECK-DAG: %[[GAIN:.+]] = arith.constant 2.500000e+00 : f32
// CHECK-DAG: %[[THREE:.+]] = arith.constant 3 : index
// CHECK: arvr.stage "weight" inline
// CHECK: arvr.stage "out" [%{{.+}}, %{{.+}}, %[[THREE]]]{{.*}}: !arvr.image<f32, 3>
// CHECK: arvr.reduce sum %{{.+}} to %{{.+}}
// CHECK: arith.mulf %{{.+}}, %[[GAIN]] : f32
// CHECK: arvr.return %{{.+}} : !arvr.image<f32, 3>
// Without values, the radius is unknown: the table stays at the root.
// GENERIC-LABEL: arvr.kernel @k
// GENERIC-SAME: -> !arvr.image<f32, ?>
// GENERIC: arvr.stage "weight" : !arvr.image<f32, 1>
arvr.kernel @k(%src: !arvr.image<ui8, ?> {arvr.name = "src"}, %gain: f32 {arvr.name = "gain"}, %radius: i32 {arvr.name = "radius"}) -> !arvr.image<f32, ?> {
  %weight = arvr.stage "weight" : !arvr.image<f32, 1> {
  ^bb0(%x: index, %y: index, %c: index):
    %i = arith.index_cast %x : index to i32
    %f = arith.sitofp %i : i32 to f32
    arvr.yield %f : f32
  }
  %w = arvr.dim %src width : !arvr.image<ui8, ?>
  %h = arvr.dim %src height : !arvr.image<ui8, ?>
  %ch = arvr.dim %src channels : !arvr.image<ui8, ?>
  %out = arvr.stage "out" [%w, %h, %ch] : !arvr.image<f32, ?> {
  ^bb0(%x: index, %y: index, %c: index):
    %zero = arith.constant 0 : i32
    %low = arith.subi %zero, %radius : i32
    %s = arvr.reduce sum %low to %radius : f32 {
    ^bb0(%i: i32):
      %ii = arith.index_cast %i : i32 to index
      %c0 = arith.constant 0 : index
      %wt = arvr.access %weight[%ii, %c0, %c0] in_bounds : !arvr.image<f32, 1>
      arvr.yield %wt : f32
    }
    %v = arvr.access %src[%x, %y, %c] clamp : !arvr.image<ui8, ?>
    %vf = arith.uitofp %v : i8 to f32
    %p = arith.mulf %vf, %gain : f32
    %r = arith.mulf %p, %s : f32
    arvr.yield %r : f32
  }
  arvr.return %out : !arvr.image<f32, ?>
}

// A table read at a pixel's value is left at the root, constants or not.
// CHECK-LABEL: arvr.kernel @lut
// CHECK: arvr.stage "table" : !arvr.image<f32, 1>
// GENERIC-LABEL: arvr.kernel @lut
// GENERIC: arvr.stage "table" : !arvr.image<f32, 1>
arvr.kernel @lut(%src: !arvr.image<ui8, 1> {arvr.name = "img"}) -> !arvr.image<f32, 1> {
  %table = arvr.stage "table" : !arvr.image<f32, 1> {
  ^bb0(%x: index, %y: index, %c: index):
    %i = arith.index_cast %x : index to i32
    %f = arith.sitofp %i : i32 to f32
    arvr.yield %f : f32
  }
  %w = arvr.dim %src width : !arvr.image<ui8, 1>
  %h = arvr.dim %src height : !arvr.image<ui8, 1>
  %ch = arvr.dim %src channels : !arvr.image<ui8, 1>
  %out = arvr.stage "out" [%w, %h, %ch] : !arvr.image<f32, 1> {
  ^bb0(%x: index, %y: index, %c: index):
    %v = arvr.access %src[%x, %y, %c] in_bounds : !arvr.image<ui8, 1>
    %vi = arith.index_castui %v : i8 to index
    %c0 = arith.constant 0 : index
    %t = arvr.access %table[%vi, %c0, %c0] in_bounds : !arvr.image<f32, 1>
    arvr.yield %t : f32
  }
  arvr.return %out : !arvr.image<f32, 1>
}
