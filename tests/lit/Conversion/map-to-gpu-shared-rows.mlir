// arvr-map-to-gpu on a stage computed in shared memory whose halo is known
// when compiling (bx: a horizontal pair of taps, its window the image's
// grown by 2 each way; out, its reader, on blocks of 8 x 2 threads, each
// 16 consecutive rows). bx's tile is 18 x 10 points (the reader's 16 x 8
// and the halo), 3 runs of 4 points a row: a number known when compiling
// and at most the 16 threads, so each thread keeps one run column (thread
// % 3) and takes every fifth row from thread / 3; thread 15, past the 5 x 3
// working ones, starts past the last row. No division inside the loop.
// (map-to-gpu-shared.mlir has a halo known only when running: runs dealt
// out in turn.)
// RUN: arvr-opt %s --arvr-map-to-gpu --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @box
// CHECK: gpu.launch
// CHECK: %[[COL0:.+]] = arith.muli %{{.+}}, %c8 : index
// CHECK: %[[TILE:.+]] = memref.view {{.+}} to memref<18x10x1xf32
// CHECK: %[[T:.+]] = arith.addi %{{.+}}, %{{.+}} : index
// CHECK: %[[ROW:.+]] = arith.divui %[[T]], %c3 : index
// CHECK: %[[WORKING:.+]] = arith.cmpi ult, %[[T]], %c15 : index
// CHECK: %[[FIRST:.+]] = arith.select %[[WORKING]], %[[ROW]], %c18 : index
// CHECK: %[[Q:.+]] = arith.remui %[[T]], %c3 : index
// CHECK: %[[COL:.+]] = arith.muli %[[Q]], %c4 : index
// CHECK: scf.for %[[I:.+]] = %[[FIRST]] to %c18 step %c5 {
// CHECK-NOT: arith.divui
// CHECK-NOT: arith.remui
// CHECK: arith.addi %[[COL0]], %[[COL]] : index
// CHECK: scf.if
// CHECK: memref.store %{{.+}}, %[[TILE]][%[[I]], %[[COL]], %c0]
// CHECK: } {arvr.boundary}
// CHECK: arith.addi %[[COL]], %c1 : index
// CHECK: scf.if
// CHECK: } {arvr.boundary}
// CHECK: arith.addi %[[COL]], %c2 : index
// CHECK: scf.if
// CHECK: } {arvr.boundary}
// CHECK: arith.addi %[[COL]], %c3 : index
// CHECK: scf.if
// CHECK: } {arvr.boundary}
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK: memref.load %[[TILE]]
module {
  func.func @box(%arg0: memref<?x?x1xi8> {arvr.name = "src"}, %arg1: memref<?x?x1xi8> {arvr.output = 0 : i64}) {
    %c-1 = arith.constant -1 : index
    %c2 = arith.constant 2 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant 2.550000e+02 : f32
    %cst_0 = arith.constant 0.000000e+00 : f32
    %c1_i32 = arith.constant 1 : i32
    %c1 = arith.constant 1 : index
    %dim = memref.dim %arg0, %c1 : memref<?x?x1xi8>
    %dim_1 = memref.dim %arg0, %c0 : memref<?x?x1xi8>
    %0 = arith.subi %dim, %c2 : index
    %1 = arith.maxsi %dim, %0 : index
    %2 = arith.subi %dim_1, %c2 : index
    %3 = arith.maxsi %dim_1, %2 : index
    %4 = arith.addi %1, %c2 : index
    %5 = arith.maxsi %4, %c0 : index
    %6 = arith.addi %3, %c2 : index
    %7 = arith.maxsi %6, %c0 : index
    %w2 = arith.addi %dim, %c2 : index
    %h2 = arith.addi %dim_1, %c2 : index
    %alloc = memref.alloc(%h2, %w2) : memref<?x?x1xf32>
    scf.parallel (%arg2, %arg3) = (%c0, %c0) to (%h2, %w2) step (%c1, %c1) {
      %8 = arith.addi %arg3, %c-1 : index
      %9 = arith.addi %arg2, %c-1 : index
      %10 = arith.index_cast %8 : index to i32
      %11 = arith.subi %10, %c1_i32 : i32
      %12 = arith.index_cast %11 : i32 to index
      %dim_2 = memref.dim %arg0, %c0 : memref<?x?x1xi8>
      %13 = arith.subi %dim_2, %c1 : index
      %14 = arith.minsi %9, %13 : index
      %15 = arith.maxsi %14, %c0 {arvr.boundary} : index
      %dim_3 = memref.dim %arg0, %c1 : memref<?x?x1xi8>
      %16 = arith.subi %dim_3, %c1 : index
      %17 = arith.minsi %12, %16 : index
      %18 = arith.maxsi %17, %c0 {arvr.boundary} : index
      %19 = memref.load %arg0[%15, %18, %c0] : memref<?x?x1xi8>
      %20 = arith.uitofp %19 : i8 to f32
      %21 = arith.addi %10, %c1_i32 : i32
      %22 = arith.index_cast %21 : i32 to index
      %dim_4 = memref.dim %arg0, %c0 : memref<?x?x1xi8>
      %23 = arith.subi %dim_4, %c1 : index
      %24 = arith.minsi %9, %23 : index
      %25 = arith.maxsi %24, %c0 {arvr.boundary} : index
      %dim_5 = memref.dim %arg0, %c1 : memref<?x?x1xi8>
      %26 = arith.subi %dim_5, %c1 : index
      %27 = arith.minsi %22, %26 : index
      %28 = arith.maxsi %27, %c0 {arvr.boundary} : index
      %29 = memref.load %arg0[%25, %28, %c0] : memref<?x?x1xi8>
      %30 = arith.uitofp %29 : i8 to f32
      %31 = arith.addf %20, %30 : f32
      memref.store %31, %alloc[%arg2, %arg3, %c0] : memref<?x?x1xf32>
      scf.reduce 
    } {arvr.schedule = #arvr.loop<stage = "bx" shared = true>}
    scf.parallel (%arg2, %arg3) = (%c0, %c0) to (%dim_1, %dim) step (%c1, %c1) {
      %8 = arith.index_cast %arg2 : index to i32
      %9 = arith.index_cast %arg3 : index to i32
      %10 = arith.subi %9, %c1_i32 : i32
      %11 = arith.index_cast %10 : i32 to index
      %12 = arith.subi %8, %c1_i32 : i32
      %13 = arith.index_cast %12 : i32 to index
      %14 = arith.subi %11, %c-1 : index
      %15 = arith.subi %13, %c-1 : index
      %16 = memref.load %alloc[%15, %14, %c0] : memref<?x?x1xf32>
      %17 = arith.addi %9, %c1_i32 : i32
      %18 = arith.index_cast %17 : i32 to index
      %19 = arith.addi %8, %c1_i32 : i32
      %20 = arith.index_cast %19 : i32 to index
      %21 = arith.subi %18, %c-1 : index
      %22 = arith.subi %20, %c-1 : index
      %23 = memref.load %alloc[%22, %21, %c0] : memref<?x?x1xf32>
      %24 = arith.addf %16, %23 : f32
      %25 = arith.maxnumf %24, %cst_0 : f32
      %26 = arith.minnumf %25, %cst : f32
      %27 = math.roundeven %26 : f32
      %28 = arith.fptoui %27 : f32 to i8
      memref.store %28, %arg1[%arg2, %arg3, %c0] : memref<?x?x1xi8>
      scf.reduce 
    } {arvr.schedule = #arvr.loop<stage = "out" block = [8, 2]>}
    memref.dealloc %alloc : memref<?x?x1xf32>
    return
  }
}

