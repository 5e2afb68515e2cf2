// arvr-specialize-interior: a launch whose reads are clamped gets a version
// without the clamps (and without the per-point range guard) for the
// threads whose every read is proved inside; a launch with barriers, one
// for each phase between them; one with a barrier nested in a loop, one
// for the whole body, selected once per block.
// RUN: arvr-opt %s --split-input-file --arvr-infer-bounds --convert-arvr-to-loops --arvr-map-to-gpu=columns-per-thread=1 --canonicalize --arvr-specialize-interior --canonicalize --cse | FileCheck %s

// A 3-tap horizontal sum with clamp-to-edge reads.
// CHECK-LABEL: func.func @blur3
// CHECK: gpu.launch
// No barrier: each thread tests its own points. Its column is
// block_id * 32 + thread_id, so its left tap is that - 1.
// CHECK: %[[BX:.+]] = arith.muli %{{.*}}, %c32 : index
// CHECK: %[[X:.+]] = arith.addi %[[BX]], %{{.+}} : index
// CHECK: %[[LEFT:.+]] = arith.addi %[[X]], %c-1 : index
// CHECK: arith.cmpi sge, %[[LEFT]], %c0 : index
// CHECK: scf.if %{{.+}} {
// The interior: no clamp, no guard; three plain loads.
// CHECK-NOT: arith.maxsi
// CHECK-NOT: arith.minsi
// CHECK-NOT: scf.if
// CHECK: memref.load
// CHECK: memref.load
// CHECK: memref.load
// CHECK: memref.store
// CHECK: } else {
// The border: the guard and the clamps as they were.
// CHECK: scf.if
// CHECK: arith.minsi
// CHECK: arith.maxsi
// CHECK: memref.store
// CHECK: gpu.terminator
// No mark is left.
// CHECK-NOT: arvr.boundary
arvr.kernel @blur3(%src: !arvr.image<ui8, 1>) -> !arvr.image<i32, 1> {
  %w = arvr.dim %src width : !arvr.image<ui8, 1>
  %h = arvr.dim %src height : !arvr.image<ui8, 1>
  %c = arvr.dim %src channels : !arvr.image<ui8, 1>
  %out = arvr.stage "out" [%w, %h, %c] : !arvr.image<i32, 1> {
  ^bb0(%x: index, %y: index, %ch: index):
    %m1 = arith.constant -1 : index
    %p1 = arith.constant 1 : index
    %xl = arith.addi %x, %m1 : index
    %xr = arith.addi %x, %p1 : index
    %a = arvr.access %src[%xl, %y, %ch] clamp : !arvr.image<ui8, 1>
    %b = arvr.access %src[%x, %y, %ch] clamp : !arvr.image<ui8, 1>
    %d = arvr.access %src[%xr, %y, %ch] clamp : !arvr.image<ui8, 1>
    %a32 = arith.extui %a : i8 to i32
    %b32 = arith.extui %b : i8 to i32
    %d32 = arith.extui %d : i8 to i32
    %s0 = arith.addi %a32, %b32 : i32
    %s1 = arith.addi %s0, %d32 : i32
    arvr.yield %s1 : i32
  }
  arvr.return %out : !arvr.image<i32, 1>
}

// -----

// A read at a coordinate computed from a pixel's value: a u8 is in
// [0, 255], so where the image is at least 256 columns wide the read's
// clamp goes too, with the guard of the thread's points.
// CHECK-LABEL: func.func @gather
// CHECK: gpu.launch
// CHECK: arith.cmpi sge, %{{.+}}, %c255 : index
// CHECK: scf.if %{{.+}} {
// CHECK-NOT: arith.maxsi
// CHECK: memref.store
// CHECK-NOT: arith.maxsi
// CHECK: } else {
// CHECK: scf.if
// CHECK: arith.maxsi
// CHECK: gpu.terminator
arvr.kernel @gather(%src: !arvr.image<ui8, 1>) -> !arvr.image<ui8, 1> {
  %w = arvr.dim %src width : !arvr.image<ui8, 1>
  %h = arvr.dim %src height : !arvr.image<ui8, 1>
  %c = arvr.dim %src channels : !arvr.image<ui8, 1>
  %out = arvr.stage "out" [%w, %h, %c] : !arvr.image<ui8, 1> {
  ^bb0(%x: index, %y: index, %ch: index):
    %v = arvr.access %src[%x, %y, %ch] in_bounds : !arvr.image<ui8, 1>
    %vi = arith.index_castui %v : i8 to index
    %g = arvr.access %src[%vi, %y, %ch] clamp : !arvr.image<ui8, 1>
    arvr.yield %g : i8
  }
  arvr.return %out : !arvr.image<ui8, 1>
}

// -----

// A half-size read: x / 2 and y / 2 are signed floor divisions, which in
// blocks whose coordinates are >= 0 (all of them) become unsigned ones.
// CHECK-LABEL: func.func @half
// CHECK: gpu.launch
// CHECK: scf.if %{{.+}} {
// CHECK-NOT: arith.floordivsi
// CHECK: arith.divui %{{.+}}, %c2 : index
// CHECK: arith.divui %{{.+}}, %c2 : index
// CHECK: } else {
// CHECK: arith.floordivsi
// CHECK: arith.floordivsi
arvr.kernel @half(%src: !arvr.image<ui8, 1>) -> !arvr.image<ui8, 1> {
  %w = arvr.dim %src width : !arvr.image<ui8, 1>
  %h = arvr.dim %src height : !arvr.image<ui8, 1>
  %c = arvr.dim %src channels : !arvr.image<ui8, 1>
  %out = arvr.stage "out" [%w, %h, %c] : !arvr.image<ui8, 1> {
  ^bb0(%x: index, %y: index, %ch: index):
    %two = arith.constant 2 : index
    %hx = arith.floordivsi %x, %two : index
    %hy = arith.floordivsi %y, %two : index
    %v = arvr.access %src[%hx, %hy, %ch] in_bounds : !arvr.image<ui8, 1>
    arvr.yield %v : i8
  }
  arvr.return %out : !arvr.image<ui8, 1>
}

// -----

// A stage in shared memory: its launch has a barrier. Each phase between
// barriers is versioned on its own, by each thread (no barrier is inside
// a version): the tile of "row", its clamps proved over the thread's runs
// of it (the tile's first column, block_id * 32, less 1, is >= 0), then
// the reader, its guards proved over the thread's points.
// CHECK-LABEL: func.func @shared3
// CHECK: gpu.launch blocks(%[[BIDX:[^,]+]],
// CHECK: %[[BX:.+]] = arith.muli %[[BIDX]], %c32 : index
// CHECK: %[[LEFT:.+]] = arith.addi %[[BX]], %c-1 : index
// CHECK: arith.cmpi sge, %[[LEFT]], %c0 : index
// CHECK: scf.if %{{.+}} {
// CHECK-NEXT: scf.for
// CHECK-NOT: arith.maxsi
// CHECK-NOT: gpu.barrier
// CHECK: } else {
// CHECK-NOT: gpu.barrier
// CHECK: arith.maxsi
// CHECK-NOT: gpu.barrier
// CHECK: } {arvr.interior}
// CHECK-NEXT: gpu.barrier
// CHECK: scf.if %{{.+}} {
// CHECK-NOT: scf.if
// CHECK-NOT: gpu.barrier
// CHECK: } else {
// CHECK: scf.if
// CHECK-NOT: gpu.barrier
// CHECK: } {arvr.interior}
// CHECK-NEXT: gpu.terminator
arvr.kernel @shared3(%src: !arvr.image<ui8, 1>) -> !arvr.image<i32, 1> {
  %row = arvr.stage "row" gpu_shared : !arvr.image<i32, 1> {
  ^bb0(%x: index, %y: index, %ch: index):
    %m1 = arith.constant -1 : index
    %xl = arith.addi %x, %m1 : index
    %a = arvr.access %src[%xl, %y, %ch] clamp : !arvr.image<ui8, 1>
    %b = arvr.access %src[%x, %y, %ch] clamp : !arvr.image<ui8, 1>
    %a32 = arith.extui %a : i8 to i32
    %b32 = arith.extui %b : i8 to i32
    %s = arith.addi %a32, %b32 : i32
    arvr.yield %s : i32
  }
  %w = arvr.dim %src width : !arvr.image<ui8, 1>
  %h = arvr.dim %src height : !arvr.image<ui8, 1>
  %c = arvr.dim %src channels : !arvr.image<ui8, 1>
  %out = arvr.stage "out" [%w, %h, %c] : !arvr.image<i32, 1> {
  ^bb0(%x: index, %y: index, %ch: index):
    %p1 = arith.constant 1 : index
    %yd = arith.addi %y, %p1 : index
    %u = arvr.access %row[%x, %y, %ch] in_bounds : !arvr.image<i32, 1>
    %d = arvr.access %row[%x, %yd, %ch] in_bounds : !arvr.image<i32, 1>
    %s = arith.addi %u, %d : i32
    arvr.yield %s : i32
  }
  arvr.return %out : !arvr.image<i32, 1>
}

// -----

// Per thread, a coordinate computed through floats is not followed (its
// computation would have to come before the versions, its values live
// across them): the clamp of the read at x * 0.5 stays in both versions;
// only the thread's guards go.
// CHECK-LABEL: func.func @float_coordinate
// CHECK: scf.if %{{.+}} {
// CHECK-NOT: scf.if
// CHECK: arith.fptosi
// CHECK: arith.maxsi
// CHECK: memref.store
// CHECK: } else {
// CHECK: scf.if
// CHECK: } {arvr.interior}
arvr.kernel @float_coordinate(%src: !arvr.image<ui8, 1>) -> !arvr.image<ui8, 1> {
  %w = arvr.dim %src width : !arvr.image<ui8, 1>
  %h = arvr.dim %src height : !arvr.image<ui8, 1>
  %c = arvr.dim %src channels : !arvr.image<ui8, 1>
  %out = arvr.stage "out" [%w, %h, %c] : !arvr.image<ui8, 1> {
  ^bb0(%x: index, %y: index, %ch: index):
    %half = arith.constant 0.5 : f32
    %xi = arith.index_cast %x : index to i32
    %xf = arith.sitofp %xi : i32 to f32
    %hf = arith.mulf %xf, %half : f32
    %hi = arith.fptosi %hf : f32 to i32
    %hx = arith.index_cast %hi : i32 to index
    %v = arvr.access %src[%hx, %y, %ch] clamp : !arvr.image<ui8, 1>
    arvr.yield %v : i8
  }
  arvr.return %out : !arvr.image<ui8, 1>
}
