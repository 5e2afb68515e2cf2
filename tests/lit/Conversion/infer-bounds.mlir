// arvr-infer-bounds: a stage without sizes gets the window its readers
// need, found by the bounds analysis (Utils/Ranges.h) over their
// coordinates.
// RUN: arvr-opt %s -split-input-file --arvr-infer-bounds --canonicalize --cse -verify-diagnostics | FileCheck %s

// A vertical 2r+1 tap read of `t` from `out` over [0, w) x [0, h): `t`
// needs the rows [-r, h - 1 + r], all columns and channels.
// CHECK-LABEL: arvr.kernel @halo
// CHECK-SAME: %[[SRC:[^:]+]]: !arvr.image<ui8, ?>, %[[R:[^:]+]]: i32
arvr.kernel @halo(%src: !arvr.image<ui8, ?>, %r: i32) -> !arvr.image<f32, ?> {
  // CHECK-DAG: %[[W:.+]] = arvr.dim %[[SRC]] width
  // CHECK-DAG: %[[H:.+]] = arvr.dim %[[SRC]] height
  // CHECK-DAG: %[[C:.+]] = arvr.dim %[[SRC]] channels
  %w = arvr.dim %src width : !arvr.image<ui8, ?>
  %h = arvr.dim %src height : !arvr.image<ui8, ?>
  %c = arvr.dim %src channels : !arvr.image<ui8, ?>
  // CHECK-DAG: %[[RI:.+]] = arith.index_cast %[[R]] : i32 to index
  // CHECK-DAG: %[[Y0:.+]] = arith.subi %{{.+}}, %[[RI]] : index
  // CHECK-DAG: %[[Y1:.+]] = arith.addi %{{.+}}, %[[RI]] : index
  // CHECK: %[[T:.+]] = arvr.stage "t" [%{{.+}}, %{{.+}}, %{{.+}}] at [%{{.+}}, %[[Y0]], %{{.+}}] : !arvr.image<f32, ?>
  %t = arvr.stage "t" : !arvr.image<f32, ?> {
  ^bb0(%x: index, %y: index, %ch: index):
    %v = arvr.access %src[%x, %y, %ch] mirror : !arvr.image<ui8, ?>
    %f = arith.uitofp %v : i8 to f32
    arvr.yield %f : f32
  }
  // CHECK: arvr.stage "out" [%[[W]], %[[H]], %[[C]]]
  %out = arvr.stage "out" [%w, %h, %c] : !arvr.image<f32, ?> {
  ^bb0(%x: index, %y: index, %ch: index):
    %zero = arith.constant 0 : i32
    %lo = arith.subi %zero, %r : i32
    %s = arvr.reduce sum %lo to %r : f32 {
    ^bb0(%j: i32):
      %yi = arith.index_cast %y : index to i32
      %yj = arith.addi %yi, %j : i32
      %yy = arith.index_cast %yj : i32 to index
      // CHECK: arvr.access %[[T]]
      %v = arvr.access %t[%x, %yy, %ch] in_bounds : !arvr.image<f32, ?>
      arvr.yield %v : f32
    }
    arvr.yield %s : f32
  }
  arvr.return %out : !arvr.image<f32, ?>
}

// -----

// Halving: `out` of size (w / 2, h / 2) reads `t` at (2x, 2y) and
// (2x + 1, 2y + 1): `t`'s window starts at (0, 0) and ends at
// 2 (w / 2 - 1) + 1.
// CHECK-LABEL: arvr.kernel @downscale
arvr.kernel @downscale(%src: !arvr.image<ui8, 1>) -> !arvr.image<ui8, 1> {
  %w = arvr.dim %src width : !arvr.image<ui8, 1>
  %h = arvr.dim %src height : !arvr.image<ui8, 1>
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %hw = arith.floordivsi %w, %c2 : index
  %hh = arith.floordivsi %h, %c2 : index
  // CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
  // CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
  // CHECK-DAG: %[[C2:.+]] = arith.constant 2 : index
  // CHECK: %[[HW:.+]] = arith.floordivsi
  // CHECK: %[[LASTX:.+]] = arith.subi %[[HW]], %[[C1]]
  // CHECK: %[[X2:.+]] = arith.muli %[[LASTX]], %[[C2]]
  // CHECK: %[[X3:.+]] = arith.addi %[[X2]], %[[C1]]
  // CHECK: %[[HI:.+]] = arith.maxsi %[[X3]], %[[X2]]
  // CHECK: %[[TW0:.+]] = arith.addi %[[HI]], %[[C1]]
  // CHECK: %[[TW:.+]] = arith.maxsi %[[TW0]], %[[C0]]
  // CHECK: arvr.stage "t" [%[[TW]], %{{.+}}, %{{.+}}] at [%[[C0]], %[[C0]], %[[C0]]] : !arvr.image<ui8, 1>
  %t = arvr.stage "t" : !arvr.image<ui8, 1> {
  ^bb0(%x: index, %y: index, %ch: index):
    %v = arvr.access %src[%x, %y, %ch] clamp : !arvr.image<ui8, 1>
    arvr.yield %v : i8
  }
  %out = arvr.stage "out" [%hw, %hh, %c1] : !arvr.image<ui8, 1> {
  ^bb0(%x: index, %y: index, %ch: index):
    %x2 = arith.muli %x, %c2 : index
    %y2 = arith.muli %y, %c2 : index
    %x3 = arith.addi %x2, %c1 : index
    %y3 = arith.addi %y2, %c1 : index
    %a = arvr.access %t[%x2, %y2, %ch] in_bounds : !arvr.image<ui8, 1>
    %b = arvr.access %t[%x3, %y3, %ch] in_bounds : !arvr.image<ui8, 1>
    %s = arith.addi %a, %b : i8
    arvr.yield %s : i8
  }
  arvr.return %out : !arvr.image<ui8, 1>
}

// -----

// A stage nobody reads is dropped.
// CHECK-LABEL: arvr.kernel @dead
// CHECK-NOT: arvr.stage "t"
// CHECK: arvr.stage "out"
arvr.kernel @dead(%src: !arvr.image<ui8, ?>) -> !arvr.image<ui8, ?> {
  %w = arvr.dim %src width : !arvr.image<ui8, ?>
  %t = arvr.stage "t" : !arvr.image<ui8, ?> {
  ^bb0(%x: index, %y: index, %ch: index):
    %v = arvr.access %src[%x, %y, %ch] clamp : !arvr.image<ui8, ?>
    arvr.yield %v : i8
  }
  %out = arvr.stage "out" [%w, %w, %w] : !arvr.image<ui8, ?> {
  ^bb0(%x: index, %y: index, %ch: index):
    %v = arvr.access %src[%x, %y, %ch] clamp : !arvr.image<ui8, ?>
    arvr.yield %v : i8
  }
  arvr.return %out : !arvr.image<ui8, ?>
}

// -----

// A coordinate computed from a float has no range to infer.
arvr.kernel @data_dependent(%src: !arvr.image<ui8, ?>) -> !arvr.image<ui8, ?> {
  %w = arvr.dim %src width : !arvr.image<ui8, ?>
  %t = arvr.stage "t" : !arvr.image<ui8, ?> {
  ^bb0(%x: index, %y: index, %ch: index):
    %v = arvr.access %src[%x, %y, %ch] clamp : !arvr.image<ui8, ?>
    arvr.yield %v : i8
  }
  %out = arvr.stage "out" [%w, %w, %w] : !arvr.image<ui8, ?> {
  ^bb0(%x: index, %y: index, %ch: index):
    %v = arvr.access %src[%x, %y, %ch] clamp : !arvr.image<ui8, ?>
    %f = arith.uitofp %v : i8 to f32
    %n = arith.fptosi %f : f32 to i32
    %i = arith.index_cast %n : i32 to index
    // expected-error @+1 {{cannot infer which part of 't' this read needs: its first coordinate must be built from the reader's coordinates, reduction variables, uniform values and u8 or u16 values with + - * / min max clamp abs; compute 't' inline instead}}
    %r = arvr.access %t[%i, %y, %ch] in_bounds : !arvr.image<ui8, ?>
    arvr.yield %r : i8
  }
  arvr.return %out : !arvr.image<ui8, ?>
}

// -----

// A stage whose size is asked for before it has one cannot be sized from
// its reads.
arvr.kernel @dim_of_unsized(%src: !arvr.image<ui8, ?>) -> !arvr.image<ui8, ?> {
  %t = arvr.stage "t" : !arvr.image<ui8, ?> {
  ^bb0(%x: index, %y: index, %ch: index):
    %v = arvr.access %src[%x, %y, %ch] clamp : !arvr.image<ui8, ?>
    arvr.yield %v : i8
  }
  // expected-error @+1 {{cannot infer the window of stage 't': it is used by 'arvr.dim', not only read}}
  %w = arvr.dim %t width : !arvr.image<ui8, ?>
  %out = arvr.stage "out" [%w, %w, %w] : !arvr.image<ui8, ?> {
  ^bb0(%x: index, %y: index, %ch: index):
    %v = arvr.access %t[%x, %y, %ch] in_bounds : !arvr.image<ui8, ?>
    arvr.yield %v : i8
  }
  arvr.return %out : !arvr.image<ui8, ?>
}

// -----

// Two outputs read `t`; the second's window (half the width) is computed
// after the first reader. Its sizes move before the first reader, where
// `t`'s window is computed: the union of both readers' windows.
// CHECK-LABEL: arvr.kernel @two_readers
// CHECK: %[[HALF:.+]] = arith.divsi
// CHECK: %[[T:.+]] = arvr.stage "t"
// CHECK: %[[A:.+]] = arvr.stage "a"
// CHECK: %[[B:.+]] = arvr.stage "b" [%[[HALF]],
// CHECK: arvr.return %[[A]], %[[B]]
arvr.kernel @two_readers(%src: !arvr.image<ui8, 1>) -> (!arvr.image<ui8, 1>, !arvr.image<ui8, 1>) {
  %t = arvr.stage "t" : !arvr.image<ui8, 1> {
  ^bb0(%x: index, %y: index, %ch: index):
    %v = arvr.access %src[%x, %y, %ch] clamp : !arvr.image<ui8, 1>
    arvr.yield %v : i8
  }
  %w = arvr.dim %src width : !arvr.image<ui8, 1>
  %h = arvr.dim %src height : !arvr.image<ui8, 1>
  %one = arith.constant 1 : index
  %a = arvr.stage "a" [%w, %h, %one] : !arvr.image<ui8, 1> {
  ^bb0(%x: index, %y: index, %ch: index):
    %v = arvr.access %t[%x, %y, %ch] in_bounds : !arvr.image<ui8, 1>
    arvr.yield %v : i8
  }
  %two = arith.constant 2 : index
  %half = arith.divsi %w, %two : index
  %b = arvr.stage "b" [%half, %h, %one] : !arvr.image<ui8, 1> {
  ^bb0(%x: index, %y: index, %ch: index):
    %x2 = arith.muli %x, %two : index
    %v = arvr.access %t[%x2, %y, %ch] in_bounds : !arvr.image<ui8, 1>
    arvr.yield %v : i8
  }
  arvr.return %a, %b : !arvr.image<ui8, 1>, !arvr.image<ui8, 1>
}

// -----

// An inline stage is inlined before windows are inferred.
arvr.kernel @not_inlined(%src: !arvr.image<ui8, 1>) -> !arvr.image<ui8, 1> {
  // expected-error @+1 {{stage 't' is inline: run arvr-inline-stages first}}
  %t = arvr.stage "t" inline : !arvr.image<ui8, 1> {
  ^bb0(%x: index, %y: index, %ch: index):
    %v = arvr.access %src[%x, %y, %ch] clamp : !arvr.image<ui8, 1>
    arvr.yield %v : i8
  }
  %w = arvr.dim %src width : !arvr.image<ui8, 1>
  %one = arith.constant 1 : index
  %out = arvr.stage "out" [%w, %w, %one] : !arvr.image<ui8, 1> {
  ^bb0(%x: index, %y: index, %ch: index):
    %v = arvr.access %t[%x, %y, %ch] in_bounds : !arvr.image<ui8, 1>
    arvr.yield %v : i8
  }
  arvr.return %out : !arvr.image<ui8, 1>
}

// -----

// A table read at a pixel's value (u8 widened: 0..255) needs entries 0 to
// 255, whatever the pixel.
// CHECK-LABEL: arvr.kernel @table_by_value
// CHECK: arvr.stage "lut" [%c256, %c1, %c1] at [%c0, %c0, %c0]
arvr.kernel @table_by_value(%src: !arvr.image<ui8, ?>) -> !arvr.image<ui8, ?> {
  %w = arvr.dim %src width : !arvr.image<ui8, ?>
  %lut = arvr.stage "lut" : !arvr.image<ui8, 1> {
  ^bb0(%x: index, %y: index, %ch: index):
    %v = arith.index_cast %x : index to i32
    %b = arith.trunci %v : i32 to i8
    arvr.yield %b : i8
  }
  %out = arvr.stage "out" [%w, %w, %w] : !arvr.image<ui8, ?> {
  ^bb0(%x: index, %y: index, %ch: index):
    %v = arvr.access %src[%x, %y, %ch] in_bounds : !arvr.image<ui8, ?>
    %wide = arith.extui %v : i8 to i32
    %i = arith.index_cast %wide : i32 to index
    %c0 = arith.constant 0 : index
    %r = arvr.access %lut[%i, %c0, %c0] in_bounds : !arvr.image<ui8, 1>
    arvr.yield %r : i8
  }
  arvr.return %out : !arvr.image<ui8, ?>
}

// -----

// A clamp lies within its bounds whatever it clamps (here a value computed
// from a float): min(max(e, 2), 9) needs entries 2 to 9.
// CHECK-LABEL: arvr.kernel @table_by_clamp
// CHECK: arvr.stage "lut" [%c8, %c1, %c1] at [%c2, %c0, %c0]
arvr.kernel @table_by_clamp(%src: !arvr.image<ui8, ?>, %k: f32) -> !arvr.image<ui8, ?> {
  %w = arvr.dim %src width : !arvr.image<ui8, ?>
  %lut = arvr.stage "lut" : !arvr.image<ui8, 1> {
  ^bb0(%x: index, %y: index, %ch: index):
    %v = arith.index_cast %x : index to i32
    %b = arith.trunci %v : i32 to i8
    arvr.yield %b : i8
  }
  %out = arvr.stage "out" [%w, %w, %w] : !arvr.image<ui8, ?> {
  ^bb0(%x: index, %y: index, %ch: index):
    %v = arvr.access %src[%x, %y, %ch] in_bounds : !arvr.image<ui8, ?>
    %f = arith.uitofp %v : i8 to f32
    %g = arith.mulf %f, %k : f32
    %n = arith.fptosi %g : f32 to i32
    %c2 = arith.constant 2 : i32
    %c9 = arith.constant 9 : i32
    %lo = arith.maxsi %n, %c2 : i32
    %e = arith.minsi %lo, %c9 : i32
    %i = arith.index_cast %e : i32 to index
    %c0 = arith.constant 0 : index
    %r = arvr.access %lut[%i, %c0, %c0] in_bounds : !arvr.image<ui8, 1>
    arvr.yield %r : i8
  }
  arvr.return %out : !arvr.image<ui8, ?>
}

// -----

// A clamp of a value that has a range keeps interval arithmetic's tighter
// window: min(max(x - 3, 0), w - 1) over x in [0, w - 1] needs columns
// 0 to w - 1 only (not from -3).
// CHECK-LABEL: arvr.kernel @clamp_of_known
// CHECK-NOT: -3 : index
// CHECK: %[[O:.+]] = arith.minsi %{{.+}}, %c0 : index
// CHECK-NOT: -3 : index
// CHECK: arvr.stage "t" [%{{.+}}, %{{.+}}, %{{.+}}] at [%[[O]], %c0, %c0]
arvr.kernel @clamp_of_known(%src: !arvr.image<ui8, ?>) -> !arvr.image<ui8, ?> {
  %w = arvr.dim %src width : !arvr.image<ui8, ?>
  %t = arvr.stage "t" : !arvr.image<ui8, ?> {
  ^bb0(%x: index, %y: index, %ch: index):
    %v = arvr.access %src[%x, %y, %ch] clamp : !arvr.image<ui8, ?>
    arvr.yield %v : i8
  }
  %out = arvr.stage "out" [%w, %w, %w] : !arvr.image<ui8, ?> {
  ^bb0(%x: index, %y: index, %ch: index):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %s = arith.subi %x, %c3 : index
    %last = arith.subi %w, %c1 : index
    %lo = arith.maxsi %s, %c0 : index
    %i = arith.minsi %lo, %last : index
    %r = arvr.access %t[%i, %y, %ch] in_bounds : !arvr.image<ui8, ?>
    arvr.yield %r : i8
  }
  arvr.return %out : !arvr.image<ui8, ?>
}

// -----

// The rules arvr-check-bounds and the interior versions use are this pass's
// too: the position of a least term (an argmin over 0..4) is in [0, 4], and
// |x - 2| over x in [0, w - 1] in [max(3 - w, -2, 0), max(w - 3, 2)], so `t`
// needs columns max(3 - w, -2, 0) to max(w - 3, 2) + 4.
// CHECK-LABEL: arvr.kernel @shared_rules
// CHECK: %[[LO:.+]] = arith.maxsi %{{.+}}, %c0 : index
// CHECK: %[[HI:.+]] = arith.maxsi %{{.+}}, %c2 : index
// CHECK: arith.addi %[[HI]], %c4 : index
// CHECK: arvr.stage "t" [%{{.+}}, %{{.+}}, %{{.+}}] at [%[[LO]], %c0, %c0]
arvr.kernel @shared_rules(%src: !arvr.image<ui8, ?>) -> !arvr.image<ui8, ?> {
  %w = arvr.dim %src width : !arvr.image<ui8, ?>
  %t = arvr.stage "t" : !arvr.image<ui8, ?> {
  ^bb0(%x: index, %y: index, %ch: index):
    %v = arvr.access %src[%x, %y, %ch] clamp : !arvr.image<ui8, ?>
    arvr.yield %v : i8
  }
  %out = arvr.stage "out" [%w, %w, %w] : !arvr.image<ui8, ?> {
  ^bb0(%x: index, %y: index, %ch: index):
    %c0 = arith.constant 0 : i32
    %c2 = arith.constant 2 : i32
    %c4 = arith.constant 4 : i32
    %xi = arith.index_cast %x : index to i32
    %pos = arvr.reduce argmin %c0 to %c4 : i32 {
    ^bb0(%k: i32):
      %d = arith.subi %xi, %k : i32
      %f = arith.sitofp %d : i32 to f32
      arvr.yield %f : f32
    }
    %s = arith.subi %xi, %c2 : i32
    %a = math.absi %s : i32
    %col = arith.addi %pos, %a : i32
    %i = arith.index_cast %col : i32 to index
    %r = arvr.access %t[%i, %y, %ch] in_bounds : !arvr.image<ui8, ?>
    arvr.yield %r : i8
  }
  arvr.return %out : !arvr.image<ui8, ?>
}
