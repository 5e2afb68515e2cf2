// The whole CUDA pipeline: arvr -> loops -> gpu.launch -> outlined kernel
// taking the host function's arguments, each image with its frame height
// (arvr-batch-frames: frames may be stacked) -> NVVM -> PTX for sm_90.
// RUN: arvr-opt %s --arvr-cuda-pipeline | FileCheck %s

// CHECK: module attributes {gpu.container_module}
// CHECK-LABEL: func.func @invert
// CHECK-SAME: (%[[SRC:[^:]+]]: memref<?x?x?xi8>{{.*}}, %[[OUT:[^:]+]]: memref<?x?x?xi8>
// CHECK: gpu.launch_func @invert_kernels::@invert_out blocks in ({{.+}}) threads in ({{.+}}) args(%[[OUT]] : memref<?x?x?xi8>, %{{.+}} : index, %[[SRC]] : memref<?x?x?xi8>, %{{.+}} : index)
// CHECK: gpu.binary @invert_kernels [#gpu.object<#nvvm.target<O = 3, chip = "sm_90">
// CHECK-SAME: .target sm_90
// CHECK-SAME: .visible .entry invert_out(
// CHECK-SAME: .maxntid 32, 8, 1
// CHECK-SAME: ld.global
// CHECK-SAME: st.global
arvr.kernel @invert(%src: !arvr.image<ui8, ?>) -> !arvr.image<ui8, ?> {
  %w = arvr.dim %src width : !arvr.image<ui8, ?>
  %h = arvr.dim %src height : !arvr.image<ui8, ?>
  %c = arvr.dim %src channels : !arvr.image<ui8, ?>
  %out = arvr.stage "out" [%w, %h, %c] : !arvr.image<ui8, ?> {
  ^bb0(%x: index, %y: index, %ch: index):
    %v = arvr.access %src[%x, %y, %ch] in_bounds : !arvr.image<ui8, ?>
    %m = arith.constant -1 : i8
    %r = arith.xori %v, %m : i8
    arvr.yield %r : i8
  }
  arvr.return %out : !arvr.image<ui8, ?>
}
