// arvr-gpu-stage-samples: where arvr-gpu-block-proofs stored the box of a
// launch's likely reads of one image (its ends loaded `arvr.block_box`, the
// reads marked `arvr.boxed`), proved blocks whose box fits the tile copy it
// into shared memory (16-byte vectors, all of a thread's loads before its
// stores, where the image's rows are 16-byte aligned; bytes otherwise),
// synchronise, and the interior version reads the tile at 32-bit offsets,
// its condition joined by "staged". The border version reads the image.
// RUN: arvr-opt %s --split-input-file --arvr-gpu-block-proofs | FileCheck %s --check-prefix=BOX
// RUN: arvr-opt %s --split-input-file --arvr-gpu-block-proofs --arvr-specialize-interior --arvr-gpu-stage-samples | FileCheck %s

// A block of 32 x 4 threads reads an RGB image at (floor(v), floor(u)) and
// (floor(v) + 1, floor(u) + 1), u = f32(x) * s + 0.5, v = f32(y) + 0.5.
// The proof launch stores the box's ends (columns, then rows), i32, four a
// block.
// BOX-LABEL: func.func @rgb
// BOX: %[[PROOFS:.+]] = memref.alloc(%{{.+}}) {arvr.parameter_table} : memref<1x1x?xi8>
// BOX: %[[BOXES:.+]] = memref.alloc(%{{.+}}) {arvr.parameter_table} : memref<1x1x?xi32>
// BOX: gpu.launch
// BOX-COUNT-4: memref.store %{{.+}}, %[[BOXES]]
// BOX: gpu.launch
// BOX: memref.load %[[PROOFS]]{{.+}} {arvr.block_proof}
// BOX-COUNT-4: memref.load %[[BOXES]]{{.+}} {arvr.block_box}
// BOX: memref.load %arg0{{.+}} {arvr.boxed}
// BOX: memref.load %arg0{{.+}} {arvr.boxed}
// BOX: memref.dealloc %[[BOXES]]
// BOX: memref.dealloc %[[PROOFS]]

// CHECK-LABEL: func.func @rgb
// CHECK: gpu.launch
// CHECK: gpu.launch
// CHECK-SAME: dynamic_shared_memory_size %{{.+}}
// CHECK-COUNT-4: memref.load %{{.+}} : memref<1x1x?xi32>
// CHECK: %[[BYTE:.+]] = memref.load %{{.+}} : memref<1x1x?xi8>
// CHECK: %[[PROVED:.+]] = arith.cmpi ne, %[[BYTE]], %c0_i8
// CHECK: %[[WIDTH:.+]] = arith.cmpi ule, %{{.+}}, %c512
// CHECK: %[[HEIGHT:.+]] = arith.cmpi ule, %{{.+}}, %c16
// CHECK: %[[FITS:.+]] = arith.andi %[[WIDTH]], %[[HEIGHT]]
// CHECK: %[[STAGED:.+]] = arith.andi %[[PROVED]], %[[FITS]]
// CHECK: %[[RAW:.+]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK: %[[TILE:.+]] = memref.view %[[RAW]][%{{.+}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<8192xi8, #gpu.address_space<workgroup>>
// CHECK: scf.if %[[STAGED]] {
// CHECK: scf.if %{{.+}} {
// Four rows a warp's lane (16 rows, 4 warps): four loads, then four stores.
// CHECK-COUNT-4: vector.load {{.+}} {alignment = 16 : i64} : memref<?xi8>, vector<16xi8>
// CHECK-COUNT-4: vector.store {{.+}}, %[[TILE]]{{.+}} {alignment = 16 : i64}
// CHECK: } else {
// CHECK: scf.for
// CHECK: scf.for
// CHECK: memref.load
// CHECK: memref.store %{{.+}}, %[[TILE]]
// CHECK: gpu.barrier
// CHECK: %[[IN:.+]] = arith.andi %{{.+}}, %[[STAGED]] : i1
// CHECK: scf.if %[[IN]] {
// CHECK-NOT: memref.load %arg0
// CHECK: memref.load %[[TILE]]
// CHECK-NOT: memref.load %arg0
// CHECK: memref.load %[[TILE]]
// CHECK: } else {
// CHECK: memref.load %arg0
// CHECK: } {arvr.interior}
func.func @rgb(%in: memref<?x?x3xi8>, %s: f32, %out: memref<?x?x3xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %true = arith.constant true
  %zero = arith.constant 0 : i8
  %half = arith.constant 0.5 : f32
  %h = memref.dim %in, %c0 : memref<?x?x3xi8>
  %w = memref.dim %in, %c1 : memref<?x?x3xi8>
  %gx = arith.ceildivsi %w, %c32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%sgx = %gx, %sgy = %c1, %sgz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c4, %sz = %c1) {
    %x0 = arith.muli %bx, %c32 : index
    %x = arith.addi %x0, %tx : index
    %xi = arith.index_cast %x : index to i32
    %xf = arith.sitofp %xi : i32 to f32
    %p = arith.mulf %xf, %s : f32
    %u = arith.addf %p, %half : f32
    %fu = math.floor %u : f32
    %yi = arith.index_cast %ty : index to i32
    %yf = arith.sitofp %yi : i32 to f32
    %v = arith.addf %yf, %half : f32
    %fv = math.floor %v : f32
    %lastx = arith.subi %w, %c2 : index
    %lastxi = arith.index_cast %lastx : index to i32
    %lastxf = arith.sitofp %lastxi : i32 to f32
    %lastxbits = arith.bitcast %lastxf : f32 to i32
    %lasty = arith.subi %h, %c2 : index
    %lastyi = arith.index_cast %lasty : index to i32
    %lastyf = arith.sitofp %lastyi : i32 to f32
    %lastybits = arith.bitcast %lastyf : f32 to i32
    %ubits = arith.bitcast %fu : f32 to i32
    %vbits = arith.bitcast %fv : f32 to i32
    %inu = arith.cmpi ult, %ubits, %lastxbits : i32
    %inv = arith.cmpi ult, %vbits, %lastybits : i32
    %inside = arith.andi %inu, %inv : i1
    %e = llvm.intr.expect %inside, %true : i1
    %r = scf.if %e -> (i8) {
      %i = arith.fptosi %fu : f32 to i32
      %ii = arith.index_cast %i : i32 to index
      %j = arith.fptosi %fv : f32 to i32
      %jj = arith.index_cast %j : i32 to index
      %i1 = arith.addi %ii, %c1 : index
      %j1 = arith.addi %jj, %c1 : index
      %a = memref.load %in[%jj, %ii, %c1] : memref<?x?x3xi8>
      %b = memref.load %in[%j1, %i1, %c1] : memref<?x?x3xi8>
      %sum = arith.addi %a, %b : i8
      scf.yield %sum : i8
    } else {
      scf.yield %zero : i8
    }
    %inx = arith.cmpi slt, %x, %w : index
    scf.if %inx {
      memref.store %r, %out[%ty, %x, %c0] : memref<?x?x3xi8>
    } {arvr.boundary}
    gpu.terminator
  }
  return
}
