// convert-arvr-to-loops: a reduction becomes an scf.for from lower to
// upper + 1 carrying the accumulator, which starts at the identity.
// RUN: arvr-opt %s --split-input-file --convert-arvr-to-loops --cse | FileCheck %s

// CHECK-LABEL: func.func @reduce
// CHECK-SAME: (%{{.+}}: memref<?x?x1xi8>, %[[R:[^:]+]]: i32
arvr.kernel @reduce(%src: !arvr.image<ui8, 1>, %r: i32) -> !arvr.image<f32, 1> {
  %w = arvr.dim %src width : !arvr.image<ui8, 1>
  %h = arvr.dim %src height : !arvr.image<ui8, 1>
  %c = arvr.dim %src channels : !arvr.image<ui8, 1>
  %out = arvr.stage "out" [%w, %h, %c] : !arvr.image<f32, 1> {
  ^bb0(%x: index, %y: index, %ch: index):
    %neg = arith.constant -2 : i32
    // CHECK: %[[INIT:.+]] = arith.constant 0.000000e+00 : f32
    // CHECK: %[[LO:.+]] = arith.index_cast %{{.+}} : i32 to index
    // CHECK: %[[HI:.+]] = arith.index_cast %[[R]] : i32 to index
    // CHECK: %[[END:.+]] = arith.addi %[[HI]], %{{.+}} : index
    // CHECK: %[[SUM:.+]] = scf.for %[[IV:.+]] = %[[LO]] to %[[END]] step %{{.+}} iter_args(%[[ACC:.+]] = %[[INIT]]) -> (f32) {
    // CHECK: %[[I:.+]] = arith.index_cast %[[IV]] : index to i32
    // CHECK: %[[TERM:.+]] = arith.sitofp %[[I]] : i32 to f32
    // CHECK: %[[NEXT:.+]] = arith.addf %[[ACC]], %[[TERM]] : f32
    // CHECK: scf.yield %[[NEXT]] : f32
    %s = arvr.reduce sum %neg to %r : f32 {
    ^bb0(%i: i32):
      %f = arith.sitofp %i : i32 to f32
      arvr.yield %f : f32
    }
    // CHECK: %[[MAXINIT:.+]] = arith.constant -2147483648 : i32
    // CHECK: scf.for {{.+}} iter_args(%[[MACC:.+]] = %[[MAXINIT]]) -> (i32) {
    // CHECK: arith.maxsi %[[MACC]]
    %m = arvr.reduce max %neg to %r : i32 {
    ^bb0(%j: i32):
      %p = arith.muli %j, %j : i32
      arvr.yield %p : i32
    }
    // CHECK: %[[MININIT:.+]] = arith.constant 0x7F800000 : f32
    // CHECK: scf.for {{.+}} iter_args(%[[NACC:.+]] = %[[MININIT]]) -> (f32) {
    // CHECK: arith.minnumf %[[NACC]]
    %n = arvr.reduce min %neg to %r : f32 {
    ^bb0(%k: i32):
      %g = arith.sitofp %k : i32 to f32
      arvr.yield %g : f32
    }
    %mf = arith.sitofp %m : i32 to f32
    %t = arith.addf %s, %mf : f32
    %u = arith.addf %t, %n : f32
    arvr.yield %u : f32
  }
  // CHECK-NOT: {{(= |^ *)arvr\.}}
  arvr.return %out : !arvr.image<f32, 1>
}

// -----

// argmin: the smallest term so far and its index; strictly smaller wins.
// CHECK-LABEL: func.func @argmin
// CHECK-SAME: (%{{.+}}: memref<?x?x1xi8>, %[[R:[^:]+]]: i32
// CHECK: %[[BIG:.+]] = arith.constant 0x7F800000 : f32
// CHECK: %[[R2:.+]]:2 = scf.for %[[IV:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[BEST:.+]] = %[[BIG]], %[[AT:.+]] = %[[LO:.+]]) -> (f32, i32) {
// CHECK: %[[I:.+]] = arith.index_cast %[[IV]] : index to i32
// CHECK: %[[T:.+]] = arith.sitofp %[[I]] : i32 to f32
// CHECK: %[[LT:.+]] = arith.cmpf olt, %[[T]], %[[BEST]] : f32
// CHECK: %[[V:.+]] = arith.select %[[LT]], %[[T]], %[[BEST]] : f32
// CHECK: %[[N:.+]] = arith.select %[[LT]], %[[I]], %[[AT]] : i32
// CHECK: scf.yield %[[V]], %[[N]] : f32, i32
arvr.kernel @argmin(%src: !arvr.image<ui8, 1>, %r: i32) -> !arvr.image<i32, 1> {
  %w = arvr.dim %src width : !arvr.image<ui8, 1>
  %h = arvr.dim %src height : !arvr.image<ui8, 1>
  %c = arvr.dim %src channels : !arvr.image<ui8, 1>
  %out = arvr.stage "out" [%w, %h, %c] : !arvr.image<i32, 1> {
  ^bb0(%x: index, %y: index, %ch: index):
    %neg = arith.constant -2 : i32
    %a = arvr.reduce argmin %neg to %r : i32 {
    ^bb0(%i: i32):
      %f = arith.sitofp %i : i32 to f32
      arvr.yield %f : f32
    }
    arvr.yield %a : i32
  }
  arvr.return %out : !arvr.image<i32, 1>
}

// -----

// `unroll 4`: the loop is marked for arvr-unroll-reductions, and an empty
// range ends where it starts (the unrolled trip count is computed from the
// bounds).
// CHECK-LABEL: func.func @unrolled
// CHECK: %[[LO:.+]] = arith.index_cast %{{.+}} : i32 to index
// CHECK: %[[END:.+]] = arith.addi
// CHECK: %[[SAFE:.+]] = arith.maxsi %[[END]], %[[LO]] : index
// CHECK: scf.for %{{.+}} = %[[LO]] to %[[SAFE]] step %{{.+}} iter_args
// CHECK: } {arvr.unroll = 4 : i64}
arvr.kernel @unrolled(%src: !arvr.image<ui8, 1>, %r: i32) -> !arvr.image<f32, 1> {
  %w = arvr.dim %src width : !arvr.image<ui8, 1>
  %one = arith.constant 1 : index
  %out = arvr.stage "out" [%w, %w, %one] : !arvr.image<f32, 1> {
  ^bb0(%x: index, %y: index, %ch: index):
    %zero = arith.constant 0 : i32
    %s = arvr.reduce sum %zero to %r unroll 4 : f32 {
    ^bb0(%i: i32):
      %f = arith.sitofp %i : i32 to f32
      arvr.yield %f : f32
    }
    arvr.yield %s : f32
  }
  arvr.return %out : !arvr.image<f32, 1>
}

// -----

// A small range known when compiling (-2..2, 5 values) is marked to be
// unrolled completely; a large one (0..99) is not.
// CHECK-LABEL: func.func @static_range
// CHECK: scf.for
// CHECK: } {arvr.unroll = 5 : i64}
// CHECK: scf.for
// CHECK-NOT: arvr.unroll
// CHECK: return
arvr.kernel @static_range(%src: !arvr.image<ui8, 1>) -> !arvr.image<f32, 1> {
  %w = arvr.dim %src width : !arvr.image<ui8, 1>
  %one = arith.constant 1 : index
  %out = arvr.stage "out" [%w, %w, %one] : !arvr.image<f32, 1> {
  ^bb0(%x: index, %y: index, %ch: index):
    %lo = arith.constant -2 : i32
    %hi = arith.constant 2 : i32
    %s = arvr.reduce sum %lo to %hi : f32 {
    ^bb0(%i: i32):
      %f = arith.sitofp %i : i32 to f32
      arvr.yield %f : f32
    }
    %zero = arith.constant 0 : i32
    %big = arith.constant 99 : i32
    %t = arvr.reduce sum %zero to %big : f32 {
    ^bb0(%i: i32):
      %f = arith.sitofp %i : i32 to f32
      arvr.yield %f : f32
    }
    %r = arith.addf %s, %t : f32
    arvr.yield %r : f32
  }
  arvr.return %out : !arvr.image<f32, 1>
}
