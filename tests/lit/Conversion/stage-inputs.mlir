// arvr-stage-inputs: a stencil's input image, read by a stage that thread
// blocks compute together, is read through a new stage in shared memory.
// RUN: arvr-opt %s -split-input-file --arvr-stage-inputs | FileCheck %s

// A horizontal 5-tap pass in shared memory reading `src` mirrored at
// x + i, i in -2..2: `src` is staged (the image under mirror), and the
// taps read the new stage in range (its channels those of its window, not
// the image's: they are read at the reader's c). `out` reads the pass only.
// CHECK-LABEL: arvr.kernel @taps
// CHECK-SAME: (%[[SRC:[^:]+]]: !arvr.image<ui8, 3>
// CHECK: %[[STAGED:.+]] = arvr.stage "src_staged_for_bx" gpu_shared : !arvr.image<ui8, ?> {
// CHECK-NEXT: ^bb0(%[[X:.+]]: index, %[[Y:.+]]: index, %[[C:.+]]: index):
// CHECK-NEXT: %[[V:.+]] = arvr.access %[[SRC]][%[[X]], %[[Y]], %[[C]]] mirror : !arvr.image<ui8, 3>
// CHECK-NEXT: arvr.yield %[[V]] : i8
// CHECK: arvr.stage "bx" gpu_shared
// CHECK: arvr.access %[[STAGED]][%{{.+}}, %{{.+}}, %{{.+}}] in_bounds : !arvr.image<ui8, ?>
// CHECK-NOT: _staged_for_
arvr.kernel @taps(%src: !arvr.image<ui8, 3> {arvr.name = "src"}) -> !arvr.image<ui8, 3> {
  %bx = arvr.stage "bx" gpu_shared : !arvr.image<f32, 3> {
  ^bb0(%x: index, %y: index, %c: index):
    %lo = arith.constant -2 : i32
    %hi = arith.constant 2 : i32
    %s = arvr.reduce sum %lo to %hi : f32 {
    ^bb0(%i: i32):
      %xi = arith.index_cast %x : index to i32
      %xs = arith.addi %xi, %i : i32
      %xx = arith.index_cast %xs : i32 to index
      %v = arvr.access %src[%xx, %y, %c] mirror : !arvr.image<ui8, 3>
      %f = arith.uitofp %v : i8 to f32
      arvr.yield %f : f32
    }
    arvr.yield %s : f32
  }
  %w = arvr.dim %src width : !arvr.image<ui8, 3>
  %h = arvr.dim %src height : !arvr.image<ui8, 3>
  %n = arvr.dim %src channels : !arvr.image<ui8, 3>
  %out = arvr.stage "out" [%w, %h, %n] : !arvr.image<ui8, 3> {
  ^bb0(%x: index, %y: index, %c: index):
    %v = arvr.access %bx[%x, %y, %c] in_bounds : !arvr.image<f32, 3>
    %b = arith.fptoui %v : f32 to i8
    arvr.yield %b : i8
  }
  arvr.return %out : !arvr.image<ui8, 3>
}

// -----

// Left alone: taps whose range is a parameter (the tile's size would not
// be known when compiling); a shared stage reading one point only; taps
// farther than 16 from the point; taps under two boundaries. (`out` reads
// shared stages, but not `src`.)
// CHECK-LABEL: arvr.kernel @left_alone
// CHECK-NOT: _staged_for_
arvr.kernel @left_alone(%src: !arvr.image<ui8, 1> {arvr.name = "src"}, %r: i32) -> !arvr.image<ui8, 1> {
  %far = arith.constant 17 : index
  %a = arvr.stage "a" gpu_shared : !arvr.image<f32, 1> {
  ^bb0(%x: index, %y: index, %c: index):
    %zero = arith.constant 0 : i32
    %lo = arith.subi %zero, %r : i32
    %s = arvr.reduce sum %lo to %r : f32 {
    ^bb0(%i: i32):
      %yi = arith.index_cast %y : index to i32
      %ys = arith.addi %yi, %i : i32
      %yy = arith.index_cast %ys : i32 to index
      %v = arvr.access %src[%x, %yy, %c] clamp : !arvr.image<ui8, 1>
      %f = arith.uitofp %v : i8 to f32
      arvr.yield %f : f32
    }
    arvr.yield %s : f32
  }
  %b = arvr.stage "b" gpu_shared : !arvr.image<f32, 1> {
  ^bb0(%x: index, %y: index, %c: index):
    %v = arvr.access %src[%x, %y, %c] clamp : !arvr.image<ui8, 1>
    %f = arith.uitofp %v : i8 to f32
    arvr.yield %f : f32
  }
  %d = arvr.stage "d" gpu_shared : !arvr.image<f32, 1> {
  ^bb0(%x: index, %y: index, %c: index):
    %xf = arith.addi %x, %far : index
    %v = arvr.access %src[%xf, %y, %c] clamp : !arvr.image<ui8, 1>
    %f = arith.uitofp %v : i8 to f32
    arvr.yield %f : f32
  }
  %e = arvr.stage "e" gpu_shared : !arvr.image<f32, 1> {
  ^bb0(%x: index, %y: index, %c: index):
    %one = arith.constant 1 : index
    %x1 = arith.addi %x, %one : index
    %v = arvr.access %src[%x, %y, %c] clamp : !arvr.image<ui8, 1>
    %u = arvr.access %src[%x1, %y, %c] mirror : !arvr.image<ui8, 1>
    %f = arith.uitofp %v : i8 to f32
    %g = arith.uitofp %u : i8 to f32
    %s = arith.addf %f, %g : f32
    arvr.yield %s : f32
  }
  %w = arvr.dim %src width : !arvr.image<ui8, 1>
  %h = arvr.dim %src height : !arvr.image<ui8, 1>
  %n = arvr.dim %src channels : !arvr.image<ui8, 1>
  %out = arvr.stage "out" [%w, %h, %n] : !arvr.image<ui8, 1> {
  ^bb0(%x: index, %y: index, %c: index):
    %va = arvr.access %a[%x, %y, %c] in_bounds : !arvr.image<f32, 1>
    %vb = arvr.access %b[%x, %y, %c] in_bounds : !arvr.image<f32, 1>
    %vd = arvr.access %d[%x, %y, %c] in_bounds : !arvr.image<f32, 1>
    %ve = arvr.access %e[%x, %y, %c] in_bounds : !arvr.image<f32, 1>
    %s1 = arith.addf %va, %vb : f32
    %s2 = arith.addf %vd, %ve : f32
    %s3 = arith.addf %s1, %s2 : f32
    %b8 = arith.fptoui %s3 : f32 to i8
    arvr.yield %b8 : i8
  }
  arvr.return %out : !arvr.image<ui8, 1>
}

// -----

// Left alone: a stencil in a stage whose blocks do not work together (it
// is in no shared memory and reads no stage that is).
// CHECK-LABEL: arvr.kernel @alone
// CHECK-NOT: _staged_for_
arvr.kernel @alone(%src: !arvr.image<ui8, 1> {arvr.name = "src"}) -> !arvr.image<ui8, 1> {
  %w = arvr.dim %src width : !arvr.image<ui8, 1>
  %h = arvr.dim %src height : !arvr.image<ui8, 1>
  %n = arvr.dim %src channels : !arvr.image<ui8, 1>
  %out = arvr.stage "out" [%w, %h, %n] : !arvr.image<ui8, 1> {
  ^bb0(%x: index, %y: index, %c: index):
    %one = arith.constant 1 : index
    %x1 = arith.addi %x, %one : index
    %p = arvr.access %src[%x, %y, %c] clamp : !arvr.image<ui8, 1>
    %q = arvr.access %src[%x1, %y, %c] clamp : !arvr.image<ui8, 1>
    %sum = arith.addi %p, %q : i8
    arvr.yield %sum : i8
  }
  arvr.return %out : !arvr.image<ui8, 1>
}

// -----

// In a kernel without a schedule (`auto_schedule`), a stored stage that is
// not computed by blocks gets its input staged all the same where the
// stencil has at least 9 taps (a 3 x 3 window: `wide`, three reads in a
// sum of three), not for 3 (`thin`);
// in a kernel with a schedule, never (`scheduled`, below).
// CHECK-LABEL: arvr.kernel @auto_window
// CHECK: %[[STAGED:.+]] = arvr.stage "src_staged_for_wide" gpu_shared
// CHECK: arvr.stage "wide"
// CHECK-COUNT-3: arvr.access %[[STAGED]]
// CHECK-NOT: _staged_for_thin
arvr.kernel @auto_window(%src: !arvr.image<ui8, 1> {arvr.name = "src"}) -> (!arvr.image<ui8, 1>, !arvr.image<ui8, 1>) attributes {auto_schedule} {
  %w = arvr.dim %src width : !arvr.image<ui8, 1>
  %h = arvr.dim %src height : !arvr.image<ui8, 1>
  %n = arvr.dim %src channels : !arvr.image<ui8, 1>
  %wide = arvr.stage "wide" [%w, %h, %n] : !arvr.image<ui8, 1> {
  ^bb0(%x: index, %y: index, %c: index):
    %lo = arith.constant -1 : i32
    %hi = arith.constant 1 : i32
    %s = arvr.reduce sum %lo to %hi : i32 {
    ^bb0(%j: i32):
      %yi = arith.index_cast %y : index to i32
      %ys = arith.addi %yi, %j : i32
      %yy = arith.index_cast %ys : i32 to index
      %one = arith.constant 1 : index
      %xl = arith.subi %x, %one : index
      %xr = arith.addi %x, %one : index
      %a = arvr.access %src[%xl, %yy, %c] clamp : !arvr.image<ui8, 1>
      %b = arvr.access %src[%x, %yy, %c] clamp : !arvr.image<ui8, 1>
      %d = arvr.access %src[%xr, %yy, %c] clamp : !arvr.image<ui8, 1>
      %a32 = arith.extui %a : i8 to i32
      %b32 = arith.extui %b : i8 to i32
      %d32 = arith.extui %d : i8 to i32
      %ab = arith.addi %a32, %b32 : i32
      %abd = arith.addi %ab, %d32 : i32
      arvr.yield %abd : i32
    }
    %r = arith.trunci %s : i32 to i8
    arvr.yield %r : i8
  }
  %thin = arvr.stage "thin" [%w, %h, %n] : !arvr.image<ui8, 1> {
  ^bb0(%x: index, %y: index, %c: index):
    %lo = arith.constant -1 : i32
    %hi = arith.constant 1 : i32
    %s = arvr.reduce sum %lo to %hi : i32 {
    ^bb0(%j: i32):
      %yi = arith.index_cast %y : index to i32
      %ys = arith.addi %yi, %j : i32
      %yy = arith.index_cast %ys : i32 to index
      %a = arvr.access %src[%x, %yy, %c] clamp : !arvr.image<ui8, 1>
      %a32 = arith.extui %a : i8 to i32
      arvr.yield %a32 : i32
    }
    %r = arith.trunci %s : i32 to i8
    arvr.yield %r : i8
  }
  arvr.return %wide, %thin : !arvr.image<ui8, 1>, !arvr.image<ui8, 1>
}

// -----

// CHECK-LABEL: arvr.kernel @scheduled
// CHECK-NOT: _staged_for_
arvr.kernel @scheduled(%src: !arvr.image<ui8, 1> {arvr.name = "src"}) -> !arvr.image<ui8, 1> {
  %w = arvr.dim %src width : !arvr.image<ui8, 1>
  %h = arvr.dim %src height : !arvr.image<ui8, 1>
  %n = arvr.dim %src channels : !arvr.image<ui8, 1>
  %out = arvr.stage "out" [%w, %h, %n] : !arvr.image<ui8, 1> {
  ^bb0(%x: index, %y: index, %c: index):
    %lo = arith.constant -1 : i32
    %hi = arith.constant 1 : i32
    %s = arvr.reduce sum %lo to %hi : i32 {
    ^bb0(%j: i32):
      %s2 = arvr.reduce sum %lo to %hi : i32 {
      ^bb0(%i: i32):
        %yi = arith.index_cast %y : index to i32
        %ys = arith.addi %yi, %j : i32
        %yy = arith.index_cast %ys : i32 to index
        %xi = arith.index_cast %x : index to i32
        %xs = arith.addi %xi, %i : i32
        %xx = arith.index_cast %xs : i32 to index
        %a = arvr.access %src[%xx, %yy, %c] clamp : !arvr.image<ui8, 1>
        %a32 = arith.extui %a : i8 to i32
        arvr.yield %a32 : i32
      }
      arvr.yield %s2 : i32
    }
    %r = arith.trunci %s : i32 to i8
    arvr.yield %r : i8
  }
  arvr.return %out : !arvr.image<ui8, 1>
}
