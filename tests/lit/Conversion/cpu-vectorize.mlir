// RUN: arvr-opt %s --pass-pipeline='builtin.module(func.func(arvr-cpu-vectorize{lanes=4}))' | FileCheck %s
// RUN: not arvr-opt %s --pass-pipeline='builtin.module(func.func(arvr-cpu-vectorize{lanes=1}))' 2>&1 | FileCheck %s --check-prefix=ONE
// ONE: error: lanes must be at least 2

// A run of a horizontal 3-tap sum over interleaved RGB u8 pixels, as
// arvr-cpu-interior leaves an interior run: i32 coordinates, a weight read
// at a fixed index, three channel stores. The vector loop covers the
// whole groups of 4 columns: each tap one load of the 4 pixels (12 bytes)
// through a view with the last two dimensions as one, a shuffle per
// channel; the weight stays a scalar load, broadcast; the channels are
// shuffled together for one store. The loop as it was runs what is left.
// CHECK-LABEL: func.func @rgb
// CHECK: %[[COUNT:.+]] = arith.maxsi
// CHECK: %[[REM:.+]] = arith.remui %[[COUNT]], %c4
// CHECK: %[[WHOLE:.+]] = arith.subi %[[COUNT]], %[[REM]]
// CHECK: %[[MID:.+]] = arith.addi %arg4, %[[WHOLE]]
// CHECK: %[[SRC:.+]] = memref.collapse_shape %arg0 {{\[}}[0], [1, 2]] : memref<?x?x3xi8> into memref<?x?xi8>
// CHECK: %[[DST:.+]] = memref.collapse_shape %arg2 {{\[}}[0], [1, 2]] : memref<?x?x3xf32> into memref<?x?xf32>
// CHECK: scf.for %[[X:.+]] = %arg4 to %[[MID]] step %c4 {
// CHECK: memref.load %arg1[%c0] : memref<3xf32>
// CHECK: %[[PIX:.+]] = vector.load %[[SRC]][%arg3, {{.+}}] : memref<?x?xi8>, vector<12xi8>
// CHECK: vector.shuffle %[[PIX]], %[[PIX]] [0, 3, 6, 9] : vector<12xi8>, vector<12xi8>
// CHECK: arith.uitofp {{.+}} : vector<4xi8> to vector<4xf32>
// CHECK: vector.broadcast {{.+}} : f32 to vector<4xf32>
// CHECK: math.fma {{.+}} : vector<4xf32>
// CHECK: vector.shuffle {{.+}} [1, 4, 7, 10]
// CHECK: vector.shuffle {{.+}} [2, 5, 8, 11]
// CHECK-NOT: memref.store
// CHECK: vector.shuffle {{.+}} [0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11] : vector<12xf32>, vector<12xf32>
// CHECK: vector.store {{.+}}, %[[DST]][%arg3, {{.+}}] : memref<?x?xf32>, vector<12xf32>
// CHECK: }
// CHECK: scf.for %{{.+}} = %[[MID]] to %arg5 step %c1 {
// CHECK: memref.load %arg0
// CHECK: memref.store
func.func @rgb(%src: memref<?x?x3xi8>, %w: memref<3xf32>,
               %dst: memref<?x?x3xf32>, %y: index, %x0: index, %x1: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %m1 = arith.constant -1 : i32
  %p1 = arith.constant 1 : i32
  scf.for %x = %x0 to %x1 step %c1 {
    %xi = arith.index_cast %x : index to i32
    %l = arith.addi %xi, %m1 : i32
    %r = arith.addi %xi, %p1 : i32
    %li = arith.index_cast %l : i32 to index
    %ri = arith.index_cast %r : i32 to index
    %w0 = memref.load %w[%c0] : memref<3xf32>
    %w1 = memref.load %w[%c1] : memref<3xf32>
    %w2 = memref.load %w[%c2] : memref<3xf32>
    %a0 = memref.load %src[%y, %li, %c0] : memref<?x?x3xi8>
    %b0 = memref.load %src[%y, %x, %c0] : memref<?x?x3xi8>
    %c0v = memref.load %src[%y, %ri, %c0] : memref<?x?x3xi8>
    %fa0 = arith.uitofp %a0 : i8 to f32
    %fb0 = arith.uitofp %b0 : i8 to f32
    %fc0 = arith.uitofp %c0v : i8 to f32
    %s0 = math.fma %w0, %fa0, %zero : f32
    %t0 = math.fma %w1, %fb0, %s0 : f32
    %u0 = math.fma %w2, %fc0, %t0 : f32
    %a1 = memref.load %src[%y, %li, %c1] : memref<?x?x3xi8>
    %fa1 = arith.uitofp %a1 : i8 to f32
    %u1 = arith.mulf %w0, %fa1 : f32
    %a2 = memref.load %src[%y, %li, %c2] : memref<?x?x3xi8>
    %fa2 = arith.uitofp %a2 : i8 to f32
    %u2 = arith.mulf %w0, %fa2 : f32
    memref.store %u0, %dst[%y, %x, %c0] : memref<?x?x3xf32>
    memref.store %u1, %dst[%y, %x, %c1] : memref<?x?x3xf32>
    memref.store %u2, %dst[%y, %x, %c2] : memref<?x?x3xf32>
  }
  return
}

// A single channel at x, and a chroma plane at x / 2 (NV12's halved
// coordinate): its lanes read the 2 elements from x / 2 and the one the
// last lane reads (a window of 3 could pass the end), shuffled as x is
// even or odd; lanes get x itself as a vector for the arithmetic.
// CHECK-LABEL: func.func @gray
// CHECK: scf.for %[[X:.+]] = {{.+}} step %c4 {
// CHECK: %[[LANES:.+]] = arith.addi {{.+}}, %cst{{.*}} : vector<4xindex>
// CHECK: vector.load %arg0[%arg3, %[[X]]] : memref<?x?xf32>, vector<4xf32>
// CHECK: %[[HALF:.+]] = arith.divui %[[X]], %c2 : index
// CHECK: %[[PAIR:.+]] = vector.load %arg1[%arg3, %[[HALF]]] : memref<?x?xf32>, vector<2xf32>
// CHECK: %[[ODD:.+]] = arith.remui %[[X]]
// CHECK: %[[LAST:.+]] = vector.load %arg1[%arg3, {{.+}}] : memref<?x?xf32>, vector<1xf32>
// CHECK: %[[ALL:.+]] = vector.shuffle %[[PAIR]], %[[LAST]] [0, 1, 2]
// CHECK: %[[FROM_ODD:.+]] = vector.shuffle %[[ALL]], %[[ALL]] [0, 1, 1, 2]
// CHECK: %[[FROM_EVEN:.+]] = vector.shuffle %[[ALL]], %[[ALL]] [0, 0, 1, 1]
// CHECK: %[[EVEN:.+]] = arith.cmpi eq, %[[ODD]], %c0
// CHECK: arith.select %[[EVEN]], %[[FROM_EVEN]], %[[FROM_ODD]] : vector<4xf32>
// CHECK: arith.sitofp {{.+}} : vector<4xi32> to vector<4xf32>
// CHECK: vector.store {{.+}}, %arg2[%arg3, %[[X]]] : memref<?x?xf32>, vector<4xf32>
func.func @gray(%luma: memref<?x?xf32>, %chroma: memref<?x?xf32>,
                %dst: memref<?x?xf32>, %y: index, %x1: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %x = %c0 to %x1 step %c1 {
    %v = memref.load %luma[%y, %x] : memref<?x?xf32>
    %h = arith.divui %x, %c2 : index
    %u = memref.load %chroma[%y, %h] : memref<?x?xf32>
    %xi = arith.index_cast %x : index to i32
    %xf = arith.sitofp %xi : i32 to f32
    %s = arith.addf %v, %u : f32
    %t = arith.addf %s, %xf : f32
    memref.store %t, %dst[%y, %x] : memref<?x?xf32>
  }
  return
}

// A coordinate times 2 (a pyramid's): one load of the window from lane
// 0's element to the last lane's (7 of them), a shuffle of every other;
// on interleaved pixels, the window's whole pixels. Any other varying
// index (here x x): a gather through the flat view.
// CHECK-LABEL: func.func @twice
// CHECK: %[[FLAT:.+]] = memref.collapse_shape %arg0 {{\[}}[0, 1]] : memref<?x?xf32> into memref<?xf32>
// CHECK: scf.for %[[X:.+]] = {{.+}} step %c4 {
// CHECK: %[[D:.+]] = arith.muli %[[X]], %c2 : index
// CHECK: %[[W:.+]] = vector.load %arg0[%arg3, %[[D]]] : memref<?x?xf32>, vector<7xf32>
// CHECK: vector.shuffle %[[W]], %[[W]] [0, 2, 4, 6] : vector<7xf32>, vector<7xf32>
// CHECK: %[[P:.+]] = vector.load %{{.+}}[%arg3, %{{.+}}] : memref<?x?xi8>, vector<21xi8>
// CHECK: vector.shuffle %[[P]], %[[P]] [1, 7, 13, 19] : vector<21xi8>, vector<21xi8>
// CHECK: vector.gather %[[FLAT]][%c0{{.*}}] [{{.+}}], {{.+}} : memref<?xf32>, vector<4xindex>, vector<4xi1>, vector<4xf32> into vector<4xf32>
// CHECK: vector.store
func.func @twice(%src: memref<?x?xf32>, %rgb: memref<?x?x3xi8>,
                 %dst: memref<?x?xf32>, %y: index, %x1: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %x = %c0 to %x1 step %c1 {
    %d = arith.muli %x, %c2 : index
    %v = memref.load %src[%y, %d] : memref<?x?xf32>
    %g = memref.load %rgb[%y, %d, %c1] : memref<?x?x3xi8>
    %gf = arith.uitofp %g : i8 to f32
    %sq = arith.muli %x, %x : index
    %w = memref.load %src[%y, %sq] : memref<?x?xf32>
    %s = arith.addf %v, %gf : f32
    %t = arith.addf %s, %w : f32
    memref.store %t, %dst[%y, %x] : memref<?x?xf32>
  }
  return
}

// Every channel computes the same from its own channel (a blur of RGB):
// the lanes run over consecutive elements, channel then pixel, with no
// shuffles: channel 0's ops, once per channel, each step 4 elements on
// (element 3 (x - 1) + 4s of lane 0 in step s).
// CHECK-LABEL: func.func @flat
// CHECK: scf.for %[[X:.+]] = {{.+}} step %c4 {
// CHECK-NOT: vector.shuffle
// CHECK: vector.load %{{.+}}[%arg2, %{{.+}}] : memref<?x?xi8>, vector<4xi8>
// CHECK: vector.store %{{.+}}, %{{.+}}[%arg2, %{{.+}}] : memref<?x?xf32>, vector<4xf32>
// CHECK: arith.constant 4 : index
// CHECK: vector.load
// CHECK: vector.store
// CHECK: arith.constant 8 : index
// CHECK: vector.load
// CHECK: vector.store
// CHECK-NOT: vector.
// CHECK: scf.for
func.func @flat(%src: memref<?x?x3xi8>, %dst: memref<?x?x3xf32>, %y: index,
                %x0: index, %x1: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %half = arith.constant 0.5 : f32
  scf.for %x = %x0 to %x1 step %c1 {
    %l = arith.subi %x, %c1 : index
    %a0 = memref.load %src[%y, %l, %c0] : memref<?x?x3xi8>
    %a1 = memref.load %src[%y, %l, %c1] : memref<?x?x3xi8>
    %a2 = memref.load %src[%y, %l, %c2] : memref<?x?x3xi8>
    %b0 = memref.load %src[%y, %x, %c0] : memref<?x?x3xi8>
    %b1 = memref.load %src[%y, %x, %c1] : memref<?x?x3xi8>
    %b2 = memref.load %src[%y, %x, %c2] : memref<?x?x3xi8>
    %fa0 = arith.uitofp %a0 : i8 to f32
    %fa1 = arith.uitofp %a1 : i8 to f32
    %fa2 = arith.uitofp %a2 : i8 to f32
    %fb0 = arith.uitofp %b0 : i8 to f32
    %fb1 = arith.uitofp %b1 : i8 to f32
    %fb2 = arith.uitofp %b2 : i8 to f32
    %s0 = arith.addf %fa0, %fb0 : f32
    %s1 = arith.addf %fa1, %fb1 : f32
    %s2 = arith.addf %fa2, %fb2 : f32
    %m0 = arith.mulf %s0, %half : f32
    %m1 = arith.mulf %s1, %half : f32
    %m2 = arith.mulf %s2, %half : f32
    memref.store %m0, %dst[%y, %x, %c0] : memref<?x?x3xf32>
    memref.store %m1, %dst[%y, %x, %c1] : memref<?x?x3xf32>
    memref.store %m2, %dst[%y, %x, %c2] : memref<?x?x3xf32>
  }
  return
}

// A short loop inside (taps left as a loop) is unrolled first: the same
// additions in the same order, then the lanes.
// CHECK-LABEL: func.func @taps
// CHECK: scf.for {{.+}} step %c4 {
// CHECK-COUNT-3: vector.load %arg0[%arg2, {{.+}}] : memref<?x?xf32>, vector<4xf32>
// CHECK: vector.store
// CHECK: scf.for {{.+}} step %c1 {
// CHECK-NOT: scf.for
// CHECK: return
func.func @taps(%src: memref<?x?xf32>, %dst: memref<?x?xf32>, %y: index,
                %x1: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  scf.for %x = %c0 to %x1 step %c1 {
    %sum = scf.for %k = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> f32 {
      %at = arith.addi %x, %k : index
      %v = memref.load %src[%y, %at] : memref<?x?xf32>
      %s = arith.addf %acc, %v : f32
      scf.yield %s : f32
    }
    memref.store %sum, %dst[%y, %x] : memref<?x?xf32>
  }
  return
}

// Left alone: a library call (its vector form could round differently),
// a memref both read and written, a store to one place, a loop with a
// result, a step other than 1, a nested region, two stores to places
// next to each other (lanes' writes would overlap in another order).
// CHECK-LABEL: func.func @scalar
// CHECK-NOT: vector.
// CHECK: return
func.func @scalar(%a: memref<?xf32>, %b: memref<?xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  scf.for %x = %c0 to %n step %c1 {
    %v = memref.load %a[%x] : memref<?xf32>
    %e = math.exp %v : f32
    memref.store %e, %b[%x] : memref<?xf32>
  }
  scf.for %x = %c1 to %n step %c1 {
    %p = arith.subi %x, %c1 : index
    %v = memref.load %a[%p] : memref<?xf32>
    memref.store %v, %a[%x] : memref<?xf32>
  }
  scf.for %x = %c0 to %n step %c1 {
    %v = memref.load %a[%x] : memref<?xf32>
    memref.store %v, %b[%c0] : memref<?xf32>
  }
  %sum = scf.for %x = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
    %v = memref.load %a[%x] : memref<?xf32>
    %s = arith.addf %acc, %v : f32
    scf.yield %s : f32
  }
  scf.for %x = %c0 to %n step %c2 {
    %v = memref.load %a[%x] : memref<?xf32>
    memref.store %v, %b[%x] : memref<?xf32>
  }
  scf.for %x = %c0 to %n step %c1 {
    %v = memref.load %a[%x] : memref<?xf32>
    %pos = arith.cmpf ogt, %v, %zero : f32
    scf.if %pos {
      memref.store %v, %b[%x] : memref<?xf32>
    }
  }
  scf.for %x = %c0 to %n step %c1 {
    %v = memref.load %a[%x] : memref<?xf32>
    %next = arith.addi %x, %c1 : index
    memref.store %v, %b[%x] : memref<?xf32>
    memref.store %v, %b[%next] : memref<?xf32>
  }
  return %sum : f32
}
