// arvr-inline-stages: each read of an inline stage becomes a copy of its
// region at the read's coordinates; inline stages read by inline stages
// are inlined first; the stages are erased. Stages computed at the root
// stay.
// RUN: arvr-opt %s --split-input-file --arvr-inline-stages | FileCheck %s

// `out` reads `f` twice; `f` reads `g` (inline) and `r` (root).
// CHECK-LABEL: arvr.kernel @chain
// CHECK-NOT: "g"
// CHECK-NOT: "f"
// CHECK: %[[R:.+]] = arvr.stage "r" : !arvr.image<f32, 1>
// CHECK: arvr.stage "out"
// CHECK-NEXT: ^bb0(%[[X:.+]]: index, %[[Y:.+]]: index, %[[C:.+]]: index):
// The first read of f, at (x, y): g at (x + 1, y), then r at (x, y).
// CHECK: %[[ONE:.+]] = arith.constant 1 : index
// CHECK: %[[X1:.+]] = arith.addi %[[X]], %[[ONE]] : index
// CHECK: %[[G1:.+]] = arvr.access %src[%[[X1]], %[[Y]], %[[C]]] in_bounds
// CHECK: %[[R1:.+]] = arvr.access %[[R]][%[[X]], %[[Y]], %[[C]]] in_bounds
// CHECK: %[[F1:.+]] = arith.addf %[[G1]], %[[R1]] : f32
// The second, at (x - 2, y).
// CHECK: %[[XM:.+]] = arith.subi %[[X]], %{{.+}} : index
// CHECK: %[[ONE2:.+]] = arith.constant 1 : index
// CHECK: %[[X2:.+]] = arith.addi %[[XM]], %[[ONE2]] : index
// CHECK: %[[G2:.+]] = arvr.access %src[%[[X2]], %[[Y]], %[[C]]] in_bounds
// CHECK: %[[R2:.+]] = arvr.access %[[R]][%[[XM]], %[[Y]], %[[C]]] in_bounds
// CHECK: %[[F2:.+]] = arith.addf %[[G2]], %[[R2]] : f32
// CHECK: %[[S:.+]] = arith.addf %[[F1]], %[[F2]] : f32
// CHECK: arvr.yield %[[S]] : f32
arvr.kernel @chain(%src: !arvr.image<f32, 1> {arvr.name = "src"}) -> !arvr.image<f32, 1> {
  %w = arvr.dim %src width : !arvr.image<f32, 1>
  %h = arvr.dim %src height : !arvr.image<f32, 1>
  %one = arith.constant 1 : index
  %g = arvr.stage "g" inline : !arvr.image<f32, 1> {
  ^bb0(%x: index, %y: index, %c: index):
    %v = arvr.access %src[%x, %y, %c] in_bounds : !arvr.image<f32, 1>
    arvr.yield %v : f32
  }
  %r = arvr.stage "r" : !arvr.image<f32, 1> {
  ^bb0(%x: index, %y: index, %c: index):
    %v = arvr.access %src[%x, %y, %c] clamp : !arvr.image<f32, 1>
    arvr.yield %v : f32
  }
  %f = arvr.stage "f" inline : !arvr.image<f32, 1> {
  ^bb0(%x: index, %y: index, %c: index):
    %k = arith.constant 1 : index
    %x1 = arith.addi %x, %k : index
    %a = arvr.access %g[%x1, %y, %c] in_bounds : !arvr.image<f32, 1>
    %b = arvr.access %r[%x, %y, %c] in_bounds : !arvr.image<f32, 1>
    %s = arith.addf %a, %b : f32
    arvr.yield %s : f32
  }
  %out = arvr.stage "out" [%w, %h, %one] : !arvr.image<f32, 1> {
  ^bb0(%x: index, %y: index, %c: index):
    %a = arvr.access %f[%x, %y, %c] in_bounds : !arvr.image<f32, 1>
    %two = arith.constant 2 : index
    %xm = arith.subi %x, %two : index
    %b = arvr.access %f[%xm, %y, %c] in_bounds : !arvr.image<f32, 1>
    %s = arith.addf %a, %b : f32
    arvr.yield %s : f32
  }
  arvr.return %out : !arvr.image<f32, 1>
}

// -----

// A read inside a reduction: the copy goes inside its region; an inline
// stage never read just goes.
// CHECK-LABEL: arvr.kernel @in_reduction
// CHECK-NOT: "unused"
// CHECK-NOT: "w"
// CHECK: arvr.reduce sum
// CHECK-NEXT: ^bb0(%[[I:.+]]: i32):
// CHECK-NEXT: %[[II:.+]] = arith.index_cast %[[I]] : i32 to index
// CHECK: %[[I32:.+]] = arith.index_cast %[[II]] : index to i32
// CHECK-NEXT: %[[F:.+]] = arith.sitofp %[[I32]] : i32 to f32
// CHECK-NEXT: arvr.yield %[[F]] : f32
arvr.kernel @in_reduction(%src: !arvr.image<f32, 1> {arvr.name = "src"}) -> !arvr.image<f32, 1> {
  %w = arvr.dim %src width : !arvr.image<f32, 1>
  %one = arith.constant 1 : index
  %unused = arvr.stage "unused" inline : !arvr.image<f32, 1> {
  ^bb0(%x: index, %y: index, %c: index):
    %v = arith.constant 0.0 : f32
    arvr.yield %v : f32
  }
  %wt = arvr.stage "w" inline : !arvr.image<f32, 1> {
  ^bb0(%x: index, %y: index, %c: index):
    %i = arith.index_cast %x : index to i32
    %f = arith.sitofp %i : i32 to f32
    arvr.yield %f : f32
  }
  %out = arvr.stage "out" [%w, %w, %one] : !arvr.image<f32, 1> {
  ^bb0(%x: index, %y: index, %c: index):
    %lo = arith.constant -2 : i32
    %hi = arith.constant 2 : i32
    %s = arvr.reduce sum %lo to %hi : f32 {
    ^bb0(%i: i32):
      %ii = arith.index_cast %i : i32 to index
      %zero = arith.constant 0 : index
      %v = arvr.access %wt[%ii, %zero, %zero] in_bounds : !arvr.image<f32, 1>
      arvr.yield %v : f32
    }
    arvr.yield %s : f32
  }
  arvr.return %out : !arvr.image<f32, 1>
}
