// arvr-occupancy-bounds: kernels of 512, 256 and 128 threads get 2, 4 and
// 9 (1152 threads) as their minimum of resident blocks, one of 32 threads
// sm_90's most, 32; a kernel of 128 threads with a block-wide barrier
// (tiles computed together in shared memory) 8 (1024 threads); a kernel of
// 1024 threads, and a function that is not a kernel, get nothing. A kernel
// that gathers (a load from an argument's memory at an address computed
// from a float converted to an integer) gets 1280 threads' worth: 10
// blocks of 128 threads, 5 of 256; a conversion that only feeds a store is
// no gather, nor is a table read at a loaded value, nor a read of a
// module's constant table at a converted float.
// RUN: arvr-opt %s --pass-pipeline='builtin.module(gpu.module(arvr-occupancy-bounds))' | FileCheck %s

// CHECK-LABEL: llvm.func @k512
// CHECK-SAME: nvvm.minctasm = 2 : i32
// CHECK-LABEL: llvm.func @k256
// CHECK-SAME: nvvm.minctasm = 4 : i32
// CHECK-LABEL: llvm.func @k128
// CHECK-SAME: nvvm.minctasm = 9 : i32
// CHECK-LABEL: llvm.func @k128_tiles
// CHECK-SAME: nvvm.minctasm = 8 : i32
// CHECK-LABEL: llvm.func @k32
// CHECK-SAME: nvvm.minctasm = 32 : i32
// CHECK-LABEL: llvm.func @k128_sample
// CHECK-SAME: nvvm.minctasm = 10 : i32
// CHECK-LABEL: llvm.func @k256_sample
// CHECK-SAME: nvvm.minctasm = 5 : i32
// CHECK-LABEL: llvm.func @k128_lookup
// CHECK-SAME: nvvm.minctasm = 9 : i32
// CHECK-LABEL: llvm.func @k128_convert_stored
// CHECK-SAME: nvvm.minctasm = 9 : i32
// CHECK-LABEL: llvm.func @k128_constant_table
// CHECK-SAME: nvvm.minctasm = 9 : i32
// CHECK-LABEL: llvm.func @k1024
// CHECK-NOT: nvvm.minctasm
// CHECK-LABEL: llvm.func @helper
// CHECK-NOT: nvvm.minctasm
gpu.module @kernels {
  llvm.func @k512() attributes {nvvm.kernel, nvvm.maxntid = array<i32: 32, 16, 1>} {
    llvm.return
  }
  llvm.func @k256() attributes {nvvm.kernel, nvvm.maxntid = array<i32: 32, 8, 1>} {
    llvm.return
  }
  llvm.func @k128() attributes {nvvm.kernel, nvvm.maxntid = array<i32: 32, 4, 1>} {
    llvm.return
  }
  llvm.func @k128_tiles() attributes {nvvm.kernel, nvvm.maxntid = array<i32: 32, 4, 1>} {
    nvvm.barrier0
    llvm.return
  }
  llvm.func @k32() attributes {nvvm.kernel, nvvm.maxntid = array<i32: 32, 1, 1>} {
    llvm.return
  }
  llvm.func @k128_sample(%src: !llvm.ptr, %u: f32) attributes {nvvm.kernel, nvvm.maxntid = array<i32: 32, 4, 1>} {
    %x = llvm.fptosi %u : f32 to i32
    %x1 = llvm.add %x, %x : i32
    %p = llvm.getelementptr %src[%x1] : (!llvm.ptr, i32) -> !llvm.ptr, i8
    %v = llvm.load %p : !llvm.ptr -> i8
    llvm.return
  }
  llvm.func @k256_sample(%src: !llvm.ptr, %u: f32) attributes {nvvm.kernel, nvvm.maxntid = array<i32: 32, 8, 1>} {
    %x = llvm.fptoui %u : f32 to i32
    %p = llvm.getelementptr %src[%x] : (!llvm.ptr, i32) -> !llvm.ptr, i8
    %v = llvm.load %p : !llvm.ptr -> i8
    llvm.return
  }
  llvm.func @k128_lookup(%src: !llvm.ptr, %lut: !llvm.ptr, %i: i32) attributes {nvvm.kernel, nvvm.maxntid = array<i32: 32, 4, 1>} {
    %p = llvm.getelementptr %src[%i] : (!llvm.ptr, i32) -> !llvm.ptr, i8
    %b = llvm.load %p : !llvm.ptr -> i8
    %j = llvm.zext %b : i8 to i32
    %q = llvm.getelementptr %lut[%j] : (!llvm.ptr, i32) -> !llvm.ptr, i8
    %v = llvm.load %q : !llvm.ptr -> i8
    llvm.return
  }
  llvm.func @k128_convert_stored(%src: !llvm.ptr, %dst: !llvm.ptr, %i: i32) attributes {nvvm.kernel, nvvm.maxntid = array<i32: 32, 4, 1>} {
    %p = llvm.getelementptr %src[%i] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %f = llvm.load %p : !llvm.ptr -> f32
    %x = llvm.fptosi %f : f32 to i32
    %q = llvm.getelementptr %dst[%i] : (!llvm.ptr, i32) -> !llvm.ptr, i32
    llvm.store %x, %q : i32, !llvm.ptr
    llvm.return
  }
  llvm.mlir.global internal constant @table(dense<[1.0, 2.0]> : tensor<2xf32>) {addr_space = 0 : i32} : !llvm.array<2 x f32>
  llvm.func @k128_constant_table(%u: f32) attributes {nvvm.kernel, nvvm.maxntid = array<i32: 32, 4, 1>} {
    %j = llvm.fptosi %u : f32 to i32
    %t = llvm.mlir.addressof @table : !llvm.ptr
    %q = llvm.getelementptr %t[0, %j] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<2 x f32>
    %v = llvm.load %q : !llvm.ptr -> f32
    llvm.return
  }
  llvm.func @k1024() attributes {nvvm.kernel, nvvm.maxntid = array<i32: 32, 32, 1>} {
    llvm.return
  }
  llvm.func @helper() attributes {nvvm.maxntid = array<i32: 32, 8, 1>} {
    llvm.return
  }
}
