// arvr-stage-stores: a thread's contiguous wide stores of a run of columns
// (vector<16xi8> or vector<8xi8>, thread x only as thread_x * W n) go
// through its slot of dynamic shared memory when the whole warp is in the
// interior, so each store instruction of a row of lanes writes contiguous
// bytes; otherwise they stay. The launch gets block x * block y * W n bytes.
// RUN: arvr-opt %s --split-input-file --arvr-stage-stores | FileCheck %s

// Three 8-byte stores a thread (24 bytes), blocks of 32 x 4: 3072 bytes.
// Each lane writes its three vectors at 24 * (32 ty + tx) + 0, 8, 16; after
// the warp's synchronisation it stores chunks tx, tx + 32 and tx + 64 of
// its row's 768 bytes.
// CHECK-LABEL: func.func @eight
// CHECK: gpu.launch
// CHECK-SAME: dynamic_shared_memory_size %c3072_i32
// CHECK: %[[ALL:.+]] = nvvm.vote.sync all %c-1_i32, %[[IN:.+]] -> i1
// CHECK-NEXT: scf.if %[[IN]] {
// CHECK: %[[SMEM:.+]] = gpu.dynamic_shared_memory
// CHECK: scf.if %[[ALL]] {
// CHECK-COUNT-3: vector.store %{{.+}}, %[[SMEM]][%{{.+}}] {alignment = 8 : i64} : memref<?xi8, #gpu.address_space<workgroup>>, vector<8xi8>
// CHECK: nvvm.bar.warp.sync
// CHECK: arith.addi %arg6, %c0{{.*}} : index
// CHECK: vector.load %[[SMEM]][%{{.+}}] {alignment = 8 : i64}
// CHECK: vector.store %{{.+}}, %arg1[%{{.+}}] {alignment = 8 : i64}
// CHECK: arith.addi %arg6, %c32{{.*}} : index
// CHECK: vector.load %[[SMEM]]
// CHECK: vector.store %{{.+}}, %arg1
// CHECK: arith.addi %arg6, %c64{{.*}} : index
// CHECK: vector.load %[[SMEM]]
// CHECK: vector.store %{{.+}}, %arg1
// CHECK-NEXT: nvvm.bar.warp.sync
// CHECK-NEXT: } else {
// CHECK-COUNT-3: vector.store %{{.+}}, %arg1[%{{.+}}] {alignment = 8 : i64} : memref<?xi8>, vector<8xi8>
// CHECK-NEXT: }
func.func @eight(%in: memref<?xi8>, %out: memref<?xi8>, %interior: i1) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c24 = arith.constant 24 : index
  %c32 = arith.constant 32 : index
  %c768 = arith.constant 768 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c4, %sz = %c1) {
    scf.if %interior {
      %row = arith.muli %ty, %c768 : index
      %col = arith.muli %tx, %c24 : index
      %i0 = arith.addi %row, %col : index
      %i1 = arith.addi %i0, %c8 : index
      %i2 = arith.addi %i0, %c16 : index
      %v = vector.load %in[%i0] : memref<?xi8>, vector<8xi8>
      vector.store %v, %out[%i0] {alignment = 8 : i64} : memref<?xi8>, vector<8xi8>
      vector.store %v, %out[%i1] {alignment = 8 : i64} : memref<?xi8>, vector<8xi8>
      vector.store %v, %out[%i2] {alignment = 8 : i64} : memref<?xi8>, vector<8xi8>
    } else {
    } {arvr.interior}
    gpu.terminator
  }
  return
}

// -----

// Two 16-byte stores a thread (32 bytes), blocks of 16 x 2: 1024 bytes;
// the lanes of a group are the 16 of one thread y, so the second chunk is
// tx + 16.
// CHECK-LABEL: func.func @sixteen
// CHECK: dynamic_shared_memory_size %c1024_i32
// CHECK: nvvm.vote.sync all
// CHECK-COUNT-2: vector.store %{{.+}}, %{{.+}}[%{{.+}}] {alignment = 16 : i64} : memref<?xi8, #gpu.address_space<workgroup>>, vector<16xi8>
// CHECK: arith.addi %arg6, %c16{{.*}} : index
// CHECK: } else {
// CHECK-COUNT-2: vector.store %{{.+}}, %arg1[%{{.+}}] {alignment = 16 : i64} : memref<?xi8>, vector<16xi8>
func.func @sixteen(%in: memref<?xi8>, %out: memref<?xi8>, %interior: i1) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c512 = arith.constant 512 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c2, %sz = %c1) {
    scf.if %interior {
      %row = arith.muli %ty, %c512 : index
      %col = arith.muli %tx, %c32 : index
      %i0 = arith.addi %row, %col : index
      %i1 = arith.addi %i0, %c16 : index
      %v = vector.load %in[%i0] : memref<?xi8>, vector<16xi8>
      vector.store %v, %out[%i0] {alignment = 16 : i64} : memref<?xi8>, vector<16xi8>
      vector.store %v, %out[%i1] {alignment = 16 : i64} : memref<?xi8>, vector<16xi8>
    } else {
    } {arvr.interior}
    gpu.terminator
  }
  return
}

// -----

// Left alone: 4-byte words; a gap between the stores (offsets 0 and 16 of
// 8-byte vectors); thread x at a scale other than W n (lanes' bytes not
// adjacent); a single 16-byte vector a lane (contiguous already); a mix of
// widths.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: nvvm.vote.sync
// CHECK-NOT: dynamic_shared_memory_size
// CHECK-NOT: gpu.dynamic_shared_memory
// CHECK: return
func.func @left_alone(%in: memref<?xi8>, %out: memref<?xi8>, %interior: i1) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c48 = arith.constant 48 : index
  %c4096 = arith.constant 4096 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    scf.if %interior {
      %w = vector.load %in[%tx] : memref<?xi8>, vector<4xi8>
      %a0 = arith.muli %tx, %c8 : index
      %a1 = arith.addi %a0, %c4096 : index
      vector.store %w, %out[%a0] {alignment = 4 : i64} : memref<?xi8>, vector<4xi8>
      vector.store %w, %out[%a1] {alignment = 4 : i64} : memref<?xi8>, vector<4xi8>
      %v = vector.load %in[%tx] : memref<?xi8>, vector<8xi8>
      %b0 = arith.muli %tx, %c32 : index
      %b = arith.addi %b0, %c4096 : index
      %b1 = arith.addi %b, %c16 : index
      vector.store %v, %out[%b] {alignment = 8 : i64} : memref<?xi8>, vector<8xi8>
      vector.store %v, %out[%b1] {alignment = 8 : i64} : memref<?xi8>, vector<8xi8>
      %c0 = arith.muli %tx, %c48 : index
      %c = arith.addi %c0, %c4096 : index
      %cc = arith.addi %c, %c4096 : index
      %cd = arith.addi %cc, %c8 : index
      vector.store %v, %out[%cc] {alignment = 8 : i64} : memref<?xi8>, vector<8xi8>
      vector.store %v, %out[%cd] {alignment = 8 : i64} : memref<?xi8>, vector<8xi8>
      %u = vector.load %in[%tx] : memref<?xi8>, vector<16xi8>
      %d0 = arith.muli %tx, %c16 : index
      %d = arith.addi %d0, %c4096 : index
      %e = arith.addi %d, %c4096 : index
      %f = arith.addi %e, %c4096 : index
      %g = arith.addi %f, %c16 : index
      vector.store %u, %out[%f] {alignment = 16 : i64} : memref<?xi8>, vector<16xi8>
      vector.store %v, %out[%g] {alignment = 8 : i64} : memref<?xi8>, vector<8xi8>
    } else {
    } {arvr.interior}
    gpu.terminator
  }
  return
}

// -----

// Left alone: two 8-byte vectors a lane, lanes adjacent, but aligned to 4
// bytes only (the staged copies would claim 8).
// CHECK-LABEL: func.func @unaligned
// CHECK-NOT: nvvm.vote.sync
// CHECK: vector.store %{{.+}}, %arg1[%{{.+}}] {alignment = 4 : i64}
// CHECK-NEXT: vector.store %{{.+}}, %arg1[%{{.+}}] {alignment = 4 : i64}
func.func @unaligned(%in: memref<?xi8>, %out: memref<?xi8>, %interior: i1) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    scf.if %interior {
      %v = vector.load %in[%tx] : memref<?xi8>, vector<8xi8>
      %h = arith.muli %tx, %c16 : index
      %h1 = arith.addi %h, %c8 : index
      vector.store %v, %out[%h] {alignment = 4 : i64} : memref<?xi8>, vector<8xi8>
      vector.store %v, %out[%h1] {alignment = 4 : i64} : memref<?xi8>, vector<8xi8>
    } else {
    } {arvr.interior}
    gpu.terminator
  }
  return
}
