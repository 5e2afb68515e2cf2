// arvr-map-to-gpu on shared tiles whose channel count is known only when
// running: planar, the channel outermost, so that a tile's rows are a
// fixed number of elements apart (a thread's consecutive rows load at
// constant offsets from one address). From `arvrc build --emit=loops` of
//
//   kernel planar(src: image<u8> clamp) -> image<u8> {
//     func bx(x, y, c) = f32(src(x - 1, y, c)) + f32(src(x + 1, y, c));
//     func out(x, y, c) = u8_sat(bx(x, y - 1, c) + bx(x, y + 1, c));
//     schedule { bx.compute_shared(); out.gpu_tile(8, 2); }
//   }
//
// (src staged by the compiler, a tile of bytes; bx's tile of f32): both
// views are (channels, rows, row pitch), and every store and load of them
// indexes the channel first. (map-to-gpu-shared.mlir: a channel count
// known when compiling, interleaved as in the image.)
// RUN: arvr-opt %s --arvr-map-to-gpu --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @planar
// CHECK: gpu.launch
// CHECK: %[[BYTES:.+]] = memref.view %{{.+}}[%c0][%[[CH:.+]], %{{.+}}, %{{.+}}] : memref<?xi8, #gpu.address_space<workgroup>> to memref<?x?x?xi8
// CHECK: %[[TILE:.+]] = memref.view %{{.+}}[%{{.+}}][%[[CH2:.+]], %{{.+}}, %{{.+}}] : memref<?xi8, #gpu.address_space<workgroup>> to memref<?x?x?xf32
// CHECK: scf.for %[[C:.+]] = %c0 to %[[CH]] step %c1 {
// CHECK: memref.load %arg0
// CHECK: memref.store %{{.+}}, %[[BYTES]][%[[C]], %{{.+}}, %{{.+}}]
// CHECK: gpu.barrier
// CHECK: scf.for %[[C2:.+]] = %c0 to %[[CH2]] step %c1 {
// CHECK: memref.load %[[BYTES]][%[[C2]], %{{.+}}, %{{.+}}]
// CHECK: memref.load %[[BYTES]][%[[C2]], %{{.+}}, %{{.+}}]
// CHECK: memref.store %{{.+}}, %[[TILE]][%[[C2]], %{{.+}}, %{{.+}}]
// CHECK: gpu.barrier
// The reader: a loop over the thread's 16 rows, then its channels.
// CHECK: scf.for %{{.+}} = %c0 to %c16 step %c1 {
// CHECK: scf.for %[[C3:.+]] = %c0 to %{{.+}} step %c1 {
// CHECK: memref.load %[[TILE]][%[[C3]], %{{.+}}, %{{.+}}]
// CHECK: memref.load %[[TILE]][%[[C3]], %{{.+}}, %{{.+}}]
// CHECK: memref.store %{{.+}}, %arg1[%{{.+}}, %{{.+}}, %[[C3]]]
module {
  func.func @planar(%arg0: memref<?x?x?xi8> {arvr.name = "src"}, %arg1: memref<?x?x?xi8> {arvr.output = 0 : i64}) attributes {llvm.emit_c_interface} {
    %c-2 = arith.constant -2 : index
    %c-1 = arith.constant -1 : index
    %c2 = arith.constant 2 : index
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant 2.550000e+02 : f32
    %cst_0 = arith.constant 0.000000e+00 : f32
    %c1_i32 = arith.constant 1 : i32
    %dim = memref.dim %arg0, %c1 : memref<?x?x?xi8>
    %dim_1 = memref.dim %arg0, %c0 : memref<?x?x?xi8>
    %dim_2 = memref.dim %arg0, %c2 : memref<?x?x?xi8>
    %0 = arith.subi %dim, %c1 : index
    %1 = arith.subi %dim_2, %c1 : index
    %2 = arith.subi %dim, %c1 : index
    %3 = arith.maxsi %0, %2 : index
    %4 = arith.subi %dim_1, %c2 : index
    %5 = arith.maxsi %dim_1, %4 : index
    %6 = arith.subi %dim_2, %c1 : index
    %7 = arith.maxsi %1, %6 : index
    %8 = arith.addi %3, %c1 : index
    %9 = arith.maxsi %8, %c0 : index
    %10 = arith.addi %5, %c2 : index
    %11 = arith.maxsi %10, %c0 : index
    %12 = arith.addi %7, %c1 : index
    %13 = arith.maxsi %12, %c0 : index
    %14 = arith.addi %11, %c-2 : index
    %15 = arith.subi %13, %c1 : index
    %16 = arith.subi %9, %c2 : index
    %17 = arith.maxsi %9, %16 : index
    %18 = arith.addi %11, %c-2 : index
    %19 = arith.maxsi %14, %18 : index
    %20 = arith.subi %13, %c1 : index
    %21 = arith.maxsi %15, %20 : index
    %22 = arith.addi %17, %c2 : index
    %23 = arith.maxsi %22, %c0 : index
    %24 = arith.addi %19, %c2 : index
    %25 = arith.maxsi %24, %c0 : index
    %26 = arith.addi %21, %c1 : index
    %27 = arith.maxsi %26, %c0 : index
    %alloc = memref.alloc(%25, %23, %27) : memref<?x?x?xi8>
    scf.parallel (%arg2, %arg3) = (%c0, %c0) to (%25, %23) step (%c1, %c1) {
      scf.for %arg4 = %c0 to %27 step %c1 {
        %28 = arith.addi %arg3, %c-1 : index
        %29 = arith.addi %arg2, %c-1 : index
        %dim_4 = memref.dim %arg0, %c0 : memref<?x?x?xi8>
        %30 = arith.subi %dim_4, %c1 : index
        %31 = arith.minsi %29, %30 : index
        %32 = arith.maxsi %31, %c0 {arvr.boundary} : index
        %dim_5 = memref.dim %arg0, %c1 : memref<?x?x?xi8>
        %33 = arith.subi %dim_5, %c1 : index
        %34 = arith.minsi %28, %33 : index
        %35 = arith.maxsi %34, %c0 {arvr.boundary} : index
        %dim_6 = memref.dim %arg0, %c2 : memref<?x?x?xi8>
        %36 = arith.subi %dim_6, %c1 : index
        %37 = arith.minsi %arg4, %36 : index
        %38 = arith.maxsi %37, %c0 {arvr.boundary} : index
        %39 = memref.load %arg0[%32, %35, %38] : memref<?x?x?xi8>
        memref.store %39, %alloc[%arg2, %arg3, %arg4] : memref<?x?x?xi8>
      }
      scf.reduce 
    } {arvr.schedule = #arvr.loop<stage = "src_staged_for_bx" shared = true>}
    %alloc_3 = memref.alloc(%11, %9, %13) : memref<?x?x?xf32>
    scf.parallel (%arg2, %arg3) = (%c0, %c0) to (%11, %9) step (%c1, %c1) {
      scf.for %arg4 = %c0 to %13 step %c1 {
        %28 = arith.index_cast %arg3 : index to i32
        %29 = arith.subi %28, %c1_i32 : i32
        %30 = arith.index_cast %29 : i32 to index
        %31 = arith.subi %30, %c-1 : index
        %32 = memref.load %alloc[%arg2, %31, %arg4] : memref<?x?x?xi8>
        %33 = arith.uitofp %32 : i8 to f32
        %34 = arith.addi %28, %c1_i32 : i32
        %35 = arith.index_cast %34 : i32 to index
        %36 = arith.subi %35, %c-1 : index
        %37 = memref.load %alloc[%arg2, %36, %arg4] : memref<?x?x?xi8>
        %38 = arith.uitofp %37 : i8 to f32
        %39 = arith.addf %33, %38 : f32
        memref.store %39, %alloc_3[%arg2, %arg3, %arg4] : memref<?x?x?xf32>
      }
      scf.reduce 
    } {arvr.schedule = #arvr.loop<stage = "bx" shared = true>}
    scf.parallel (%arg2, %arg3) = (%c0, %c0) to (%dim_1, %dim) step (%c1, %c1) {
      scf.for %arg4 = %c0 to %dim_2 step %c1 {
        %28 = arith.index_cast %arg2 : index to i32
        %29 = arith.subi %28, %c1_i32 : i32
        %30 = arith.index_cast %29 : i32 to index
        %31 = arith.subi %30, %c-1 : index
        %32 = memref.load %alloc_3[%31, %arg3, %arg4] : memref<?x?x?xf32>
        %33 = arith.addi %28, %c1_i32 : i32
        %34 = arith.index_cast %33 : i32 to index
        %35 = arith.subi %34, %c-1 : index
        %36 = memref.load %alloc_3[%35, %arg3, %arg4] : memref<?x?x?xf32>
        %37 = arith.addf %32, %36 : f32
        %38 = arith.maxnumf %37, %cst_0 : f32
        %39 = arith.minnumf %38, %cst : f32
        %40 = math.roundeven %39 : f32
        %41 = arith.fptoui %40 : f32 to i8
        memref.store %41, %arg1[%arg2, %arg3, %arg4] : memref<?x?x?xi8>
      }
      scf.reduce 
    } {arvr.schedule = #arvr.loop<stage = "out" block = [8, 2]>}
    memref.dealloc %alloc : memref<?x?x?xi8>
    memref.dealloc %alloc_3 : memref<?x?x?xf32>
    return
  }
}

