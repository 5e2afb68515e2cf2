// arvr-unroll-reductions: a loop marked arvr.unroll = n becomes a main loop
// of n terms per iteration (step n), then an epilogue for the remainder,
// carrying the accumulator through both in the original order.
// RUN: arvr-opt %s --arvr-unroll-reductions --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @sum
// CHECK-SAME: (%[[LO:[^:]+]]: index, %[[HI:[^:]+]]: index)
func.func @sum(%lo: index, %hi: index) -> f32 {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  // CHECK-DAG: %[[C3:.+]] = arith.constant 3 : index
  // CHECK: %[[MAIN:.+]] = scf.for %{{.+}} = %[[LO]] to %[[SPLIT:[^ ]+]] step %[[C3]] iter_args(%[[ACC:.+]] = %{{.+}}) -> (f32) {
  // CHECK: %[[T0:.+]] = arith.addf %[[ACC]]
  // CHECK: %[[T1:.+]] = arith.addf %[[T0]]
  // CHECK: %[[T2:.+]] = arith.addf %[[T1]]
  // CHECK: scf.yield %[[T2]] : f32
  // CHECK: %[[REST:.+]] = scf.for %{{.+}} = %[[SPLIT]] to %[[HI]] step %{{.+}} iter_args(%[[ACC2:.+]] = %[[MAIN]]) -> (f32) {
  // CHECK: arith.addf %[[ACC2]]
  // CHECK: return %[[REST]] : f32
  // CHECK-NOT: arvr.unroll
  %s = scf.for %i = %lo to %hi step %c1 iter_args(%acc = %zero) -> (f32) {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %next = arith.addf %acc, %f : f32
    scf.yield %next : f32
  } {arvr.unroll = 3 : i64}
  return %s : f32
}

// An unmarked loop is left alone.
// CHECK-LABEL: func.func @plain
// CHECK: scf.for
// CHECK-NOT: scf.for
func.func @plain(%lo: index, %hi: index, %out: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  scf.for %i = %lo to %hi step %c1 {
    memref.store %one, %out[%i] : memref<?xf32>
  }
  return
}
