// arvr-batch-frames: the frames of a batch stacked, block z the frame. Each
// image and buffer a launch uses gets the frame's height (from the host:
// memref.dim of an argument there, a buffer's own size) and first row
// (block z times it). A byte image is used through a view of its frame
// (memref.view of its bytes at the frame's first byte: the base pointer
// advanced once), indexed from the frame's row 0, flattened views of it
// spanning the frame; any other buffer's loads and stores move to the
// frame's row, its flattened views to the frame's first element. memref.dim
// 0 in the launch is the frame's height; the host function is marked. A
// function with a launch it cannot batch is left alone.
// RUN: arvr-opt %s --arvr-batch-frames | FileCheck %s

// CHECK-LABEL: func.func @copy
// CHECK-SAME: attributes {arvr.frames_in_grid_z}
func.func @copy(%src: memref<?x?x3xi8>, %n: index, %out: memref<?x?x3xi8>) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %buf = memref.alloc(%n, %n) : memref<?x?x1xf32>
  // CHECK-DAG: %[[SRC_H:.+]] = memref.dim %arg0, %{{.+}} : memref<?x?x3xi8>
  // CHECK-DAG: %[[OUT_H:.+]] = memref.dim %arg2, %{{.+}} : memref<?x?x3xi8>
  // CHECK: gpu.launch blocks(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}, %[[BZ:arg[0-9]+]]) in
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // CHECK-NOT: arith.divui
    // CHECK-DAG: %[[OUT_ROWS:.+]] = memref.dim %arg2, %c0
    // CHECK-DAG: %[[OUT_ROW:.+]] = arith.muli %[[BZ]], %[[OUT_H]]
    // CHECK-DAG: %[[OUT_ROW_ELEMS:.+]] = arith.muli %{{.+}}, %{{.+}} : index
    // CHECK-DAG: %[[OUT_ELEM:.+]] = arith.muli %[[OUT_ROW]], %[[OUT_ROW_ELEMS]]
    // CHECK-DAG: %[[OUT_ALL:.+]] = arith.muli %[[OUT_ROWS]], %[[OUT_ROW_ELEMS]]
    // CHECK-DAG: %[[OUT_BYTES:.+]] = memref.reinterpret_cast %arg2 to offset: [0], sizes: [%[[OUT_ALL]]], strides: [1] : memref<?x?x3xi8> to memref<?xi8>
    // CHECK-DAG: %[[OUT:.+]] = memref.view %[[OUT_BYTES]][%[[OUT_ELEM]]][%[[OUT_H]], %{{.+}}] : memref<?xi8> to memref<?x?x3xi8>
    // CHECK-DAG: %[[OUT_FRAME:.+]] = arith.muli %[[OUT_H]], %[[OUT_ROW_ELEMS]]
    // CHECK-DAG: %[[BUF_ROW:.+]] = arith.muli %[[BZ]], %arg1
    // CHECK-DAG: %[[BUF_ELEM:.+]] = arith.muli %[[BUF_ROW]], %{{.+}}
    // CHECK-DAG: %[[SRC_ROW:.+]] = arith.muli %[[BZ]], %[[SRC_H]]
    // CHECK-DAG: %[[SRC:.+]] = memref.view %{{.+}}[%{{.+}}][%[[SRC_H]], %{{.+}}] : memref<?xi8> to memref<?x?x3xi8>

    // The frame's height where the body asks for the image's.
    // CHECK: %[[H:.+]] = memref.dim %[[SRC]], %c0
    // CHECK: arith.cmpi ult, %{{.+}}, %[[H]]
    %h = memref.dim %src, %c0 : memref<?x?x3xi8>
    %inside = arith.cmpi ult, %by, %h : index
    // The frame's own rows.
    // CHECK-NEXT: memref.load %[[SRC]][%{{[a-z0-9]+}}, %{{[a-z0-9]+}}, %c0]
    %v = memref.load %src[%by, %bx, %c0] : memref<?x?x3xi8>
    %f = arith.uitofp %v : i8 to f32
    // A buffer of f32: the frame's row added.
    // CHECK: %[[BY:.+]] = arith.addi %{{.+}}, %[[BUF_ROW]]
    // CHECK: memref.store %{{.+}}, %{{.+}}[%[[BY]], %{{.+}}, %{{.+}}]
    memref.store %f, %buf[%by, %bx, %c0] : memref<?x?x1xf32>
    // A flattened view of a byte image spans its frame, indexed from the
    // frame's first element.
    // CHECK: %[[FLAT:.+]] = memref.reinterpret_cast %[[OUT]] to offset: [0], sizes: [%[[OUT_FRAME]]], strides: [1]
    %size = arith.muli %n, %n : index
    %flat = memref.reinterpret_cast %out to offset: [0], sizes: [%size], strides: [1] : memref<?x?x3xi8> to memref<?xi8>
    // CHECK-NEXT: %[[W:.+]] = vector.load %[[FLAT]][%{{[a-z0-9]+}}]
    %w = vector.load %flat[%bx] : memref<?xi8>, vector<4xi8>
    // CHECK-NEXT: vector.store %[[W]], %[[FLAT]][%{{[a-z0-9]+}}]
    vector.store %w, %flat[%by] : memref<?xi8>, vector<4xi8>
    // A flattened view of any other buffer spans the stacked frames; its
    // accesses move to the frame's first element.
    // CHECK: memref.reinterpret_cast %{{.+}} to offset: [0], sizes: [%{{.+}}], strides: [1] : memref<?x?x1xf32> to memref<?xf32>
    // CHECK-NEXT: %[[K:.+]] = arith.addi %{{[a-z0-9]+}}, %[[BUF_ELEM]]
    // CHECK-NEXT: vector.load %{{.+}}[%[[K]]] : memref<?xf32>, vector<4xf32>
    %bflat = memref.reinterpret_cast %buf to offset: [0], sizes: [%size], strides: [1] : memref<?x?x1xf32> to memref<?xf32>
    %bw = vector.load %bflat[%bx] : memref<?xf32>, vector<4xf32>
    gpu.terminator
  }
  memref.dealloc %buf : memref<?x?x1xf32>
  return
}

// A launch whose grid z is not 1: nothing changes.
// CHECK-LABEL: func.func @in_z
// CHECK-NOT: arvr.frames_in_grid_z
// CHECK-NOT: arith.divui
func.func @in_z(%src: memref<?x?x3xi8>, %n: index) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %src[%by, %bx, %bz] : memref<?x?x3xi8>
    gpu.terminator
  }
  return
}

// An image used otherwise (a subview) in one launch: no launch of the
// function changes.
// CHECK-LABEL: func.func @subview
// CHECK-NOT: arvr.frames_in_grid_z
// CHECK-NOT: arith.divui
func.func @subview(%src: memref<?x?x3xi8>, %n: index) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %src[%by, %bx, %c0] : memref<?x?x3xi8>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %s = memref.subview %src[0, 0, 0] [1, 1, 3] [1, 1, 1] : memref<?x?x3xi8> to memref<1x1x3xi8, strided<[?, 3, 1]>>
    gpu.terminator
  }
  return
}

// Buffers of a static height (tables of one row, of values computed from
// parameters) are not stacked: their row index may be folded to 0. Tables
// written by launches that use no frame (run once a frame over z, writing
// the same values) and read by the frames' launch: batched; the tables'
// accesses keep their rows, the image's move to the frame's.
// CHECK-LABEL: func.func @tables
// CHECK-SAME: attributes {arvr.frames_in_grid_z}
// CHECK: gpu.launch
// CHECK-NOT: arith.muli
// CHECK: memref.store %{{.+}}, %{{.+}}[%c0, %{{.+}}, %c0] : memref<1x?x1xf32>
// CHECK: gpu.launch
// CHECK-NOT: arith.muli
// CHECK: memref.load %{{.+}}[%c0, %{{.+}}, %c0] : memref<1x?x1xf32>
// CHECK: memref.store %{{.+}}, %{{.+}}[%c0, %c0, %c0] : memref<1x1x1xf32>
// CHECK: gpu.launch blocks(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}, %[[BZ:arg[0-9]+]]) in
// CHECK: %[[ROW:.+]] = arith.muli %[[BZ]]
// CHECK: memref.load %{{.+}}[%c0, %c0, %c0] : memref<1x1x1xf32>
// CHECK: %[[Y:.+]] = arith.addi %{{.+}}, %[[ROW]]
// CHECK: memref.store %{{.+}}, %arg1[%[[Y]], %{{.+}}, %c0]
func.func @tables(%n: index, %out: memref<?x?x1xf32>, %p: f32) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %t = memref.alloc(%n) : memref<1x?x1xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %p, %t[%c0, %bx, %c0] : memref<1x?x1xf32>
    gpu.terminator
  }
  %u = memref.alloc() : memref<1x1x1xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %t[%c0, %bx, %c0] : memref<1x?x1xf32>
    memref.store %v, %u[%c0, %c0, %c0] : memref<1x1x1xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %u[%c0, %c0, %c0] : memref<1x1x1xf32>
    memref.store %v, %out[%by, %bx, %c0] : memref<?x?x1xf32>
    gpu.terminator
  }
  memref.dealloc %t : memref<1x?x1xf32>
  memref.dealloc %u : memref<1x1x1xf32>
  return
}

// A table written by a launch that reads an image (a frame's histogram):
// each frame would need its own; nothing changes.
// CHECK-LABEL: func.func @table_of_a_frame
// CHECK-NOT: arvr.frames_in_grid_z
// CHECK-NOT: arith.muli
func.func @table_of_a_frame(%n: index, %src: memref<?x?x1xf32>) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %t = memref.alloc(%n) : memref<1x?x1xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %src[%by, %bx, %c0] : memref<?x?x1xf32>
    memref.store %v, %t[%c0, %bx, %c0] : memref<1x?x1xf32>
    gpu.terminator
  }
  memref.dealloc %t : memref<1x?x1xf32>
  return
}

// A launch that reads a table it writes (run F times, a copy could read
// another's writes): nothing changes.
// CHECK-LABEL: func.func @table_updated
// CHECK-NOT: arvr.frames_in_grid_z
func.func @table_updated(%n: index) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %t = memref.alloc(%n) : memref<1x?x1xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %t[%c0, %bx, %c0] : memref<1x?x1xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %t[%c0, %bx, %c0] : memref<1x?x1xf32>
    gpu.terminator
  }
  memref.dealloc %t : memref<1x?x1xf32>
  return
}
