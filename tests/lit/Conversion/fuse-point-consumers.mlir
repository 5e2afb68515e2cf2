// arvr-fuse-point-consumers: a loop that reads a stage's buffer only at its
// own point moves into the stage's loop, its reads of what was just stored
// taking the stored values; reads elsewhere, other domains, effects in the
// way or shared schedules keep the loops apart.
// RUN: arvr-opt %s --split-input-file --arvr-fuse-point-consumers | FileCheck %s

// A pyramid: level 1 stored in a buffer, the next level reading it around
// each point (stays), the level's output reading it at each point (fused,
// its extents computed apart, across the next level's loop and its
// allocation); its three channels' loads forwarded.
// CHECK-LABEL: func.func @level
// CHECK: memref.alloc
// CHECK: scf.parallel (%[[Y:.+]], %[[X:.+]]) =
// CHECK: %[[V0:.+]] = arith.addi
// CHECK: %[[V1:.+]] = arith.addi
// CHECK: memref.store %[[V0]], %[[L1:.+]][%[[Y]], %[[X]], %c0]
// CHECK: memref.store %[[V1]], %[[L1]][%[[Y]], %[[X]], %c1]
// CHECK-NOT: memref.load %[[L1]]
// CHECK: %[[T0:.+]] = arith.trunci %[[V0]] : i32 to i8
// CHECK: %[[T1:.+]] = arith.trunci %[[V1]] : i32 to i8
// CHECK: memref.store %[[T0]], %arg1[%[[Y]], %[[X]], %c0]
// CHECK: memref.store %[[T1]], %arg1[%[[Y]], %[[X]], %c1]
// CHECK: } {arvr.schedule = #arvr.loop<stage = "l1">}
// CHECK: memref.alloc
// CHECK: scf.parallel
// CHECK: } {arvr.schedule = #arvr.loop<stage = "l2">}
// CHECK-NOT: scf.parallel
// CHECK: return
func.func @level(%src: memref<?x?x2xi32>, %half: memref<?x?x2xi8>, %next: memref<?x?x2xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1 : i32
  %h0 = memref.dim %src, %c0 : memref<?x?x2xi32>
  %w0 = memref.dim %src, %c1 : memref<?x?x2xi32>
  %h = arith.divui %h0, %c2 : index
  %w = arith.divui %w0, %c2 : index
  %l1 = memref.alloc(%h, %w) : memref<?x?x2xi32>
  scf.parallel (%y, %x) = (%c0, %c0) to (%h, %w) step (%c1, %c1) {
    %a = memref.load %src[%y, %x, %c0] : memref<?x?x2xi32>
    %b = memref.load %src[%y, %x, %c1] : memref<?x?x2xi32>
    %a1 = arith.addi %a, %one : i32
    %b1 = arith.addi %b, %one : i32
    memref.store %a1, %l1[%y, %x, %c0] : memref<?x?x2xi32>
    memref.store %b1, %l1[%y, %x, %c1] : memref<?x?x2xi32>
    scf.reduce
  } {arvr.schedule = #arvr.loop<stage = "l1">}
  %hn = arith.divui %h, %c2 : index
  %wn = arith.divui %w, %c2 : index
  %l2 = memref.alloc(%hn, %wn) : memref<?x?x2xi32>
  scf.parallel (%y, %x) = (%c0, %c0) to (%hn, %wn) step (%c1, %c1) {
    %y2 = arith.muli %y, %c2 : index
    %x2 = arith.muli %x, %c2 : index
    %x3 = arith.addi %x2, %c1 : index
    %a = memref.load %l1[%y2, %x2, %c0] : memref<?x?x2xi32>
    %b = memref.load %l1[%y2, %x3, %c0] : memref<?x?x2xi32>
    %s = arith.addi %a, %b : i32
    memref.store %s, %l2[%y, %x, %c0] : memref<?x?x2xi32>
    memref.store %s, %next[%y, %x, %c0] : memref<?x?x2xi32>
    scf.reduce
  } {arvr.schedule = #arvr.loop<stage = "l2">}
  %h2 = memref.dim %src, %c0 : memref<?x?x2xi32>
  %w2 = memref.dim %src, %c1 : memref<?x?x2xi32>
  %hh = arith.divui %h2, %c2 : index
  %wh = arith.divui %w2, %c2 : index
  scf.parallel (%y, %x) = (%c0, %c0) to (%hh, %wh) step (%c1, %c1) {
    %a = memref.load %l1[%y, %x, %c0] : memref<?x?x2xi32>
    %b = memref.load %l1[%y, %x, %c1] : memref<?x?x2xi32>
    %a8 = arith.trunci %a : i32 to i8
    %b8 = arith.trunci %b : i32 to i8
    memref.store %a8, %half[%y, %x, %c0] : memref<?x?x2xi8>
    memref.store %b8, %half[%y, %x, %c1] : memref<?x?x2xi8>
    scf.reduce
  } {arvr.schedule = #arvr.loop<stage = "half">}
  memref.dealloc %l1 : memref<?x?x2xi32>
  memref.dealloc %l2 : memref<?x?x2xi32>
  return
}

// -----

// Channels in a loop in both: fused, the load kept (the same thread reads
// what it stored).
// CHECK-LABEL: func.func @channel_loops
// CHECK: scf.parallel
// CHECK: scf.for
// CHECK: memref.store %{{.+}}, %[[B:.+]][
// CHECK: scf.for
// CHECK: memref.load %[[B]][
// CHECK: memref.store
// CHECK-NOT: scf.parallel
// CHECK: return
func.func @channel_loops(%src: memref<?x?x?xf32>, %out: memref<?x?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %h = memref.dim %src, %c0 : memref<?x?x?xf32>
  %w = memref.dim %src, %c1 : memref<?x?x?xf32>
  %n = memref.dim %src, %c2 : memref<?x?x?xf32>
  %buf = memref.alloc(%h, %w, %n) : memref<?x?x?xf32>
  scf.parallel (%y, %x) = (%c0, %c0) to (%h, %w) step (%c1, %c1) {
    scf.for %c = %c0 to %n step %c1 {
      %v = memref.load %src[%y, %x, %c] : memref<?x?x?xf32>
      %d = arith.addf %v, %v : f32
      memref.store %d, %buf[%y, %x, %c] : memref<?x?x?xf32>
    }
    scf.reduce
  }
  scf.parallel (%y, %x) = (%c0, %c0) to (%h, %w) step (%c1, %c1) {
    scf.for %c = %c0 to %n step %c1 {
      %v = memref.load %buf[%y, %x, %c] : memref<?x?x?xf32>
      %d = arith.mulf %v, %v : f32
      memref.store %d, %out[%y, %x, %c] : memref<?x?x?xf32>
    }
    scf.reduce
  }
  memref.dealloc %buf : memref<?x?x?xf32>
  return
}

// -----

// Not fused: a read of a neighbour; a domain of another size; a buffer the
// consumer reads written between the loops; a producer in shared memory.
// Seven loops stay seven.
// CHECK-LABEL: func.func @apart
// CHECK-COUNT-7: scf.parallel
// CHECK-NOT: scf.parallel
// CHECK: return
func.func @apart(%src: memref<?x?xi32>, %o1: memref<?x?xi32>, %o2: memref<?x?xi32>, %o3: memref<?x?xi32>, %o4: memref<?x?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %h = memref.dim %src, %c0 : memref<?x?xi32>
  %w = memref.dim %src, %c1 : memref<?x?xi32>
  %w1 = arith.subi %w, %c1 : index
  %a = memref.alloc(%h, %w) : memref<?x?xi32>
  scf.parallel (%y, %x) = (%c0, %c0) to (%h, %w) step (%c1, %c1) {
    %v = memref.load %src[%y, %x] : memref<?x?xi32>
    memref.store %v, %a[%y, %x] : memref<?x?xi32>
    scf.reduce
  }
  // The neighbour to the right.
  scf.parallel (%y, %x) = (%c0, %c0) to (%h, %w) step (%c1, %c1) {
    %x1 = arith.addi %x, %c1 : index
    %v = memref.load %a[%y, %x1] : memref<?x?xi32>
    memref.store %v, %o1[%y, %x] : memref<?x?xi32>
    scf.reduce
  }
  // A narrower domain.
  scf.parallel (%y, %x) = (%c0, %c0) to (%h, %w1) step (%c1, %c1) {
    %v = memref.load %a[%y, %x] : memref<?x?xi32>
    memref.store %v, %o2[%y, %x] : memref<?x?xi32>
    scf.reduce
  }
  // %b is written between the loops (by a loop reading %a around the
  // point, itself not a point consumer), and read by the last.
  %b = memref.alloc(%h, %w) : memref<?x?xi32>
  scf.parallel (%y, %x) = (%c0, %c0) to (%h, %w1) step (%c1, %c1) {
    %x1 = arith.addi %x, %c1 : index
    %v = memref.load %a[%y, %x1] : memref<?x?xi32>
    memref.store %v, %b[%y, %x] : memref<?x?xi32>
    scf.reduce
  }
  scf.parallel (%y, %x) = (%c0, %c0) to (%h, %w) step (%c1, %c1) {
    %u = memref.load %a[%y, %x] : memref<?x?xi32>
    %v = memref.load %b[%y, %x] : memref<?x?xi32>
    %s = arith.addi %u, %v : i32
    memref.store %s, %o3[%y, %x] : memref<?x?xi32>
    scf.reduce
  }
  // A producer in shared memory (its reader's), and a point consumer.
  %s = memref.alloc(%h, %w) : memref<?x?xi32>
  scf.parallel (%y, %x) = (%c0, %c0) to (%h, %w) step (%c1, %c1) {
    %v = memref.load %src[%y, %x] : memref<?x?xi32>
    memref.store %v, %s[%y, %x] : memref<?x?xi32>
    scf.reduce
  } {arvr.schedule = #arvr.loop<stage = "s" shared = true>}
  scf.parallel (%y, %x) = (%c0, %c0) to (%h, %w) step (%c1, %c1) {
    %v = memref.load %s[%y, %x] : memref<?x?xi32>
    memref.store %v, %o4[%y, %x] : memref<?x?xi32>
    scf.reduce
  } {arvr.schedule = #arvr.loop<stage = "t">}
  memref.dealloc %a : memref<?x?xi32>
  memref.dealloc %b : memref<?x?xi32>
  memref.dealloc %s : memref<?x?xi32>
  return
}
