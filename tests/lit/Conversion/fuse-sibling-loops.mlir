// arvr-fuse-sibling-loops: in a gpu.launch, sibling loops with equal
// bounds become one when their iterations share work and no memory order
// changes; what the second needs from between them moves above the first.
// RUN: arvr-opt %s --split-input-file --arvr-fuse-sibling-loops | FileCheck %s

// Two points' taps over a run-time radius, each its own loop and bounds
// (computed apart), writing neighbouring columns; then, nested, two
// points' channel loops each with its tap loop: both levels fuse, the
// weight is loaded once an iteration.
// CHECK-LABEL: func.func @two_points
// CHECK: %[[R:.+]]:2 = scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}) -> (f32, f32) {
// CHECK: memref.load %{{.+}}[%[[I]]] : memref<?xf32>
// CHECK: memref.load %{{.+}}[%[[I]]] : memref<?xf32>
// CHECK: scf.yield
// CHECK: memref.store %[[R]]#0
// CHECK: memref.store %[[R]]#1
// CHECK: scf.for %{{.+}} = %c0 to %{{.+}} step %c1 {
// CHECK: %{{.+}}:2 = scf.for
// CHECK-NOT: scf.for
// CHECK: gpu.terminator
func.func @two_points(%in: memref<?x?xf32>, %w: memref<?xf32>, %out: memref<?x?xf32>, %img: memref<?x?x?xf32>, %r: index, %c: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %x1 = arith.addi %tx, %c1 : index
    %n0 = arith.addi %r, %c1 : index
    %a = scf.for %i = %c0 to %n0 step %c1 iter_args(%acc = %zero) -> (f32) {
      %wi = memref.load %w[%i] : memref<?xf32>
      %xi = arith.addi %tx, %i : index
      %v = memref.load %in[%ty, %xi] : memref<?x?xf32>
      %m = arith.mulf %wi, %v : f32
      %s = arith.addf %acc, %m : f32
      scf.yield %s : f32
    }
    memref.store %a, %out[%ty, %tx] : memref<?x?xf32>
    %n1 = arith.addi %r, %c1 : index
    %b = scf.for %i = %c0 to %n1 step %c1 iter_args(%acc = %zero) -> (f32) {
      %wi = memref.load %w[%i] : memref<?xf32>
      %xi = arith.addi %x1, %i : index
      %v = memref.load %in[%ty, %xi] : memref<?x?xf32>
      %m = arith.mulf %wi, %v : f32
      %s = arith.addf %acc, %m : f32
      scf.yield %s : f32
    }
    memref.store %b, %out[%ty, %x1] : memref<?x?xf32>
    scf.for %ch = %c0 to %c step %c1 {
      %p = scf.for %i = %c0 to %n0 step %c1 iter_args(%acc = %zero) -> (f32) {
        %wi = memref.load %w[%i] : memref<?xf32>
        %s = arith.addf %acc, %wi : f32
        scf.yield %s : f32
      }
      memref.store %p, %img[%ty, %tx, %ch] : memref<?x?x?xf32>
    }
    scf.for %ch = %c0 to %c step %c1 {
      %p = scf.for %i = %c0 to %n1 step %c1 iter_args(%acc = %zero) -> (f32) {
        %wi = memref.load %w[%i] : memref<?xf32>
        %s = arith.addf %acc, %wi : f32
        scf.yield %s : f32
      }
      memref.store %p, %img[%ty, %x1, %ch] : memref<?x?x?xf32>
    }
    gpu.terminator
  }
  return
}

// -----

// Left apart, though each iteration loads the same weight: a barrier
// between; the second reads what the first writes; other bounds; writes of
// one buffer at indices that differ with the loop.
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-7: scf.for
// CHECK-NOT: scf.for
func.func @kept(%in: memref<?xf32>, %out: memref<?xf32>, %w: memref<?xf32>, %n: index, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    scf.for %i = %c0 to %n step %c1 {
      %wi = memref.load %w[%i] : memref<?xf32>
      memref.store %wi, %out[%tx] : memref<?xf32>
    }
    gpu.barrier
    scf.for %i = %c0 to %n step %c1 {
      %wi = memref.load %w[%i] : memref<?xf32>
      memref.store %wi, %out[%ty] : memref<?xf32>
    }
    scf.for %i = %c0 to %n step %c1 {
      %wi = memref.load %w[%i] : memref<?xf32>
      %v = memref.load %out[%i] : memref<?xf32>
      %s = arith.addf %v, %wi : f32
      memref.store %s, %in[%i] : memref<?xf32>
    }
    scf.for %i = %c0 to %m step %c1 {
      %wi = memref.load %w[%i] : memref<?xf32>
      memref.store %wi, %out[%c0] : memref<?xf32>
    }
    scf.for %i = %c0 to %m step %c2 {
      %wi = memref.load %w[%i] : memref<?xf32>
      memref.store %wi, %out[%c1] : memref<?xf32>
    }
    scf.for %i = %c0 to %n step %c2 {
      %wi = memref.load %w[%i] : memref<?xf32>
      memref.store %wi, %in[%i] : memref<?xf32>
    }
    scf.for %i = %c0 to %n step %c2 {
      %wi = memref.load %w[%i] : memref<?xf32>
      %j = arith.addi %i, %c1 : index
      memref.store %wi, %in[%j] : memref<?xf32>
    }
    gpu.terminator
  }
  return
}

// -----

// Worth it only where the iterations share work. Two points' window loops
// of a constant trip count, each loading the same weight (computed from
// the tap through equal but distinct ops), fuse; two points' loops that
// share only integer arithmetic (each loads its own pixels: a disparity
// search's windows) stay apart, as do loops sharing nothing.
// CHECK-LABEL: func.func @worth
// CHECK: %[[R:.+]]:2 = scf.for %[[I:.+]] = %c0 to %c9 step %c1
// CHECK: memref.load %{{.+}}[%{{.+}}] : memref<?xf32>
// CHECK: memref.load %{{.+}}[%{{.+}}] : memref<?xf32>
// CHECK: scf.yield
// CHECK: scf.for %{{.+}} = %c0 to %c9 step %c1 iter_args(%{{.+}} = %{{.+}}) -> (f32) {
// CHECK: scf.for %{{.+}} = %c0 to %c9 step %c1 iter_args(%{{.+}} = %{{.+}}) -> (f32) {
// CHECK-NOT: scf.for
// CHECK: gpu.terminator
func.func @worth(%in: memref<?x?xf32>, %w: memref<?xf32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %x1 = arith.addi %tx, %c32 : index
    %a = scf.for %i = %c0 to %c9 step %c1 iter_args(%acc = %zero) -> (f32) {
      %i2 = arith.muli %i, %i : index
      %wi = memref.load %w[%i2] : memref<?xf32>
      %xi = arith.addi %tx, %i : index
      %v = memref.load %in[%ty, %xi] : memref<?x?xf32>
      %s = math.fma %wi, %v, %acc : f32
      scf.yield %s : f32
    }
    memref.store %a, %out[%ty, %tx] : memref<?x?xf32>
    %b = scf.for %i = %c0 to %c9 step %c1 iter_args(%acc = %zero) -> (f32) {
      %i2 = arith.muli %i, %i : index
      %wi = memref.load %w[%i2] : memref<?xf32>
      %xi = arith.addi %x1, %i : index
      %v = memref.load %in[%ty, %xi] : memref<?x?xf32>
      %s = math.fma %wi, %v, %acc : f32
      scf.yield %s : f32
    }
    memref.store %b, %out[%ty, %x1] : memref<?x?xf32>
    %c = scf.for %d = %c0 to %c9 step %c1 iter_args(%acc = %zero) -> (f32) {
      %xd = arith.subi %tx, %d : index
      %v = memref.load %in[%ty, %xd] : memref<?x?xf32>
      %s = arith.addf %acc, %v : f32
      scf.yield %s : f32
    }
    memref.store %c, %out[%tx, %ty] : memref<?x?xf32>
    %e = scf.for %d = %c0 to %c9 step %c1 iter_args(%acc = %zero) -> (f32) {
      %xd = arith.subi %x1, %d : index
      %v = memref.load %in[%ty, %xd] : memref<?x?xf32>
      %s = arith.addf %acc, %v : f32
      scf.yield %s : f32
    }
    memref.store %e, %out[%x1, %ty] : memref<?x?xf32>
    gpu.terminator
  }
  return
}

// -----

// Outside a gpu.launch too (the CPU pipeline: a point's body): two
// channels' sums, each computing a neighbour's weight, as one loop (the
// weight then computed once, by CSE).
// CHECK-LABEL: func.func @on_cpu
// CHECK: %[[R:.+]]:2 = scf.for %{{.+}} = %c0 to %c9 step %c1
// CHECK: math.exp
// CHECK: math.exp
// CHECK: scf.yield
// CHECK-NOT: scf.for
// CHECK: memref.store %[[R]]#0
// CHECK: memref.store %[[R]]#1
func.func @on_cpu(%in: memref<?x?x2xf32>, %out: memref<?x?x2xf32>, %x: index, %y: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  %zero = arith.constant 0.0 : f32
  %a = scf.for %i = %c0 to %c9 step %c1 iter_args(%acc = %zero) -> (f32) {
    %xi = arith.addi %x, %i : index
    %d = memref.load %in[%y, %xi, %c0] : memref<?x?x2xf32>
    %w = math.exp %d : f32
    %v = memref.load %in[%y, %xi, %c0] : memref<?x?x2xf32>
    %s = math.fma %w, %v, %acc : f32
    scf.yield %s : f32
  }
  %b = scf.for %i = %c0 to %c9 step %c1 iter_args(%acc = %zero) -> (f32) {
    %xi = arith.addi %x, %i : index
    %d = memref.load %in[%y, %xi, %c0] : memref<?x?x2xf32>
    %w = math.exp %d : f32
    %v = memref.load %in[%y, %xi, %c1] : memref<?x?x2xf32>
    %s = math.fma %w, %v, %acc : f32
    scf.yield %s : f32
  }
  memref.store %a, %out[%y, %x, %c0] : memref<?x?x2xf32>
  memref.store %b, %out[%y, %x, %c1] : memref<?x?x2xf32>
  return
}
