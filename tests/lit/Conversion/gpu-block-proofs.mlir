// arvr-gpu-block-proofs: a launch's tests expected true (a bilinear
// sample's "all four pixels inside", on coordinates computed from floats)
// are proved for each block by a launch before it, one thread a block,
// with f32 interval arithmetic over the block's points; the kernel loads
// its block's byte and each test becomes `byte != 0 || test`, marked for
// arvr-specialize-interior, whose interior version then has no test.
// RUN: arvr-opt %s --split-input-file --arvr-gpu-block-proofs | FileCheck %s
// RUN: arvr-opt %s --split-input-file --arvr-gpu-block-proofs --arvr-specialize-interior | FileCheck %s --check-prefix=INTERIOR

// u = f32(x) * s + 0.5 with x = block x * 32 + thread x, over [32 bx,
// 32 bx + 31]: its ends are the products at the ends of x (the least and
// greatest of the two, s of unknown sign), plus 0.5 each; the test holds
// where u's low end is > 0 and floor(u)'s high end, finite, is below the
// last index as bits. The table (grid y, here 1, by grid x bytes) is
// marked a parameter table: the plan calls its launch reusable.
// CHECK-LABEL: func.func @affine
// CHECK: %[[GX:.+]] = arith.ceildivsi %{{.+}}, %c32
// CHECK: %[[TABLE:.+]] = memref.alloc(%[[GX]]) {arvr.parameter_table} : memref<1x1x?xi8>
// CHECK: %[[PGX:.+]] = arith.ceildivsi %[[GX]], %c64
// CHECK: gpu.launch blocks(%[[PBX:.+]], %[[PBY:.+]], %[[PBZ:.+]]) in ({{.+}} = %[[PGX]], {{.+}} = %c1{{.*}}, {{.+}} = %c1{{.*}}) threads(%[[PTX:.+]], %{{.+}}, %{{.+}}) in ({{.+}} = %c64
// CHECK: %[[BX:.+]] = arith.addi %{{.+}}, %[[PTX]] : index
// CHECK: %[[FIRST:.+]] = arith.cmpi eq, %[[PBZ]], %c0
// CHECK: %[[IN:.+]] = arith.cmpi slt, %[[BX]], %[[GX]]
// CHECK: %[[GO:.+]] = arith.andi %[[FIRST]], %[[IN]]
// CHECK: scf.if %[[GO]] {
// CHECK: %[[X0:.+]] = arith.muli %[[BX]], %c32
// CHECK: %[[X1:.+]] = arith.addi %[[X0]], %{{.+}} : index
// CHECK: %[[F0:.+]] = arith.sitofp %{{.+}} : i32 to f32
// CHECK: %[[F1:.+]] = arith.sitofp %{{.+}} : i32 to f32
// CHECK: %[[P0:.+]] = arith.mulf %[[F0]], %arg1 : f32
// CHECK: %[[P1:.+]] = arith.mulf %[[F1]], %arg1 : f32
// CHECK: %[[LO:.+]] = arith.minimumf %[[P0]], %[[P1]] : f32
// CHECK: %[[HI:.+]] = arith.maximumf %[[P0]], %[[P1]] : f32
// CHECK: %[[ULO:.+]] = arith.addf %[[LO]], %{{.+}} : f32
// CHECK: %[[UHI:.+]] = arith.addf %[[HI]], %{{.+}} : f32
// CHECK: %[[FLO:.+]] = math.floor %[[ULO]] : f32
// CHECK: %[[FHI:.+]] = math.floor %[[UHI]] : f32
// CHECK: %[[BITS:.+]] = arith.bitcast %[[FHI]] : f32 to i32
// CHECK: math.absf %[[FLO]]
// CHECK: math.absf %[[FHI]]
// CHECK: arith.cmpf ogt, %[[ULO]], %{{.+}} : f32
// CHECK: arith.cmpi ult, %[[BITS]], %{{.+}} : i32
// CHECK: %[[BYTE:.+]] = arith.extui %{{.+}} : i1 to i8
// CHECK: memref.store %[[BYTE]], %[[TABLE]][%c0{{.*}}, %[[PBY]], %[[BX]]]
// CHECK: gpu.launch blocks(%[[KBX:[^,]+]], %[[KBY:[^,]+]], %{{[^,]+}}) in
// CHECK: %[[B:.+]] = memref.load %[[TABLE]][%c0{{.*}}, %[[KBY]], %[[KBX]]] {arvr.block_proof}
// CHECK: %[[PROVED:.+]] = arith.cmpi ne, %[[B]], %c0_i8
// CHECK: %[[EITHER:.+]] = arith.ori %[[PROVED]], %{{.+}} : i1
// CHECK: %[[E:.+]] = llvm.intr.expect %[[EITHER]], %true : i1
// CHECK: scf.if %[[E]] -> (i8) {
// CHECK: } {arvr.boundary}
// CHECK: gpu.terminator
// CHECK: memref.dealloc %[[TABLE]]

// INTERIOR-LABEL: func.func @affine
// INTERIOR: gpu.launch
// INTERIOR: gpu.launch
// INTERIOR: %[[B:.+]] = memref.load %{{.+}} {arvr.block_proof}
// INTERIOR: %[[PROVED:.+]] = arith.cmpi ne, %[[B]], %c0_i8
// INTERIOR: %[[BOTH:.+]] = arith.andi %[[PROVED]], %{{.+}} : i1
// INTERIOR: scf.if %[[BOTH]] {
// INTERIOR-NOT: scf.if
// INTERIOR: memref.load %arg0
// INTERIOR: memref.store
// INTERIOR: } else {
// INTERIOR: scf.if
// INTERIOR: } {arvr.interior}
func.func @affine(%in: memref<?x?xi8>, %s: f32, %out: memref<?x?xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %true = arith.constant true
  %zero = arith.constant 0 : i8
  %half = arith.constant 0.5 : f32
  %w = memref.dim %in, %c1 : memref<?x?xi8>
  %gx = arith.ceildivsi %w, %c32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%sgx = %gx, %sgy = %c1, %sgz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %x0 = arith.muli %bx, %c32 : index
    %x = arith.addi %x0, %tx : index
    %xi = arith.index_cast %x : index to i32
    %xf = arith.sitofp %xi : i32 to f32
    %p = arith.mulf %xf, %s : f32
    %u = arith.addf %p, %half : f32
    %fl = math.floor %u : f32
    %last = arith.subi %w, %c1 : index
    %lasti = arith.index_cast %last : index to i32
    %lastf = arith.sitofp %lasti : i32 to f32
    %lastbits = arith.bitcast %lastf : f32 to i32
    %bits = arith.bitcast %fl : f32 to i32
    %inside = arith.cmpi ult, %bits, %lastbits : i32
    %e = llvm.intr.expect %inside, %true : i1
    %v = scf.if %e -> (i8) {
      %i = arith.fptosi %fl : f32 to i32
      %ii = arith.index_cast %i : i32 to index
      %r = memref.load %in[%c0, %ii] : memref<?x?xi8>
      scf.yield %r : i8
    } else {
      scf.yield %zero : i8
    }
    %inx = arith.cmpi slt, %x, %w : index
    scf.if %inx {
      memref.store %v, %out[%c0, %x] : memref<?x?xi8>
    } {arvr.boundary}
    gpu.terminator
  }
  return
}

// -----

// A perspective divide: the divisor's interval must leave out 0 (positive
// or negative throughout), which the byte's condition checks; x * x takes
// the point nearest 0 for its low end.
// CHECK-LABEL: func.func @divide
// CHECK: memref.alloc
// CHECK: gpu.launch
// CHECK: %[[M:.+]] = arith.maximumf %{{.+}}, %{{.+}} : f32
// CHECK: arith.mulf %[[M]], %[[M]] : f32
// CHECK: arith.cmpf ogt, %{{.+}}, %{{.+}} : f32
// CHECK: arith.cmpf olt, %{{.+}}, %{{.+}} : f32
// CHECK: arith.ori
// CHECK: arith.divf
// CHECK: memref.store
// CHECK: memref.load {{.+}} {arvr.block_proof}
func.func @divide(%in: memref<?x?xi8>, %d: f32, %out: memref<?x?xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %true = arith.constant true
  %zero = arith.constant 0 : i8
  %w = memref.dim %in, %c1 : memref<?x?xi8>
  gpu.launch blocks(%bx, %by, %bz) in (%sgx = %c32, %sgy = %c1, %sgz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %x0 = arith.muli %bx, %c32 : index
    %x = arith.addi %x0, %tx : index
    %xi = arith.index_cast %x : index to i32
    %xf = arith.sitofp %xi : i32 to f32
    %sq = arith.mulf %xf, %xf : f32
    %den = arith.addf %sq, %d : f32
    %u = arith.divf %xf, %den : f32
    %fl = math.floor %u : f32
    %last = arith.subi %w, %c1 : index
    %lasti = arith.index_cast %last : index to i32
    %lastf = arith.sitofp %lasti : i32 to f32
    %lastbits = arith.bitcast %lastf : f32 to i32
    %bits = arith.bitcast %fl : f32 to i32
    %inside = arith.cmpi ult, %bits, %lastbits : i32
    %e = llvm.intr.expect %inside, %true : i1
    %v = scf.if %e -> (i8) {
      %r = memref.load %in[%c0, %c0] : memref<?x?xi8>
      scf.yield %r : i8
    } else {
      scf.yield %zero : i8
    }
    memref.store %v, %out[%c0, %x] : memref<?x?xi8>
    gpu.terminator
  }
  return
}

// -----

// Left as they are: a coordinate read from memory (no bounds), a
// launch whose grid z is not 1, and an op with fast-math flags (which the
// back end may contract, rounding differently from the ends).
// CHECK-LABEL: func.func @unprovable
// CHECK-NOT: memref.alloc
// CHECK-NOT: arvr.block_proof
// CHECK: return
func.func @unprovable(%in: memref<?xf32>, %s: f32, %gz: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %true = arith.constant true
  %lim = arith.constant 100.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%sgx = %c1, %sgy = %c1, %sgz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %u = memref.load %in[%tx] : memref<?xf32>
    %t = arith.cmpf olt, %u, %lim : f32
    %e = llvm.intr.expect %t, %true : i1
    scf.if %e {
      memref.store %u, %in[%c0] : memref<?xf32>
    }
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%sgx = %c1, %sgy = %c1, %sgz = %gz)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %xi = arith.index_cast %tx : index to i32
    %xf = arith.sitofp %xi : i32 to f32
    %t = arith.cmpf olt, %xf, %lim : f32
    %e = llvm.intr.expect %t, %true : i1
    scf.if %e {
      memref.store %xf, %in[%c0] : memref<?xf32>
    }
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%sgx = %c1, %sgy = %c1, %sgz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %xi = arith.index_cast %tx : index to i32
    %xf = arith.sitofp %xi : i32 to f32
    %p = arith.mulf %xf, %s fastmath<contract> : f32
    %t = arith.cmpf olt, %p, %lim : f32
    %e = llvm.intr.expect %t, %true : i1
    scf.if %e {
      memref.store %xf, %in[%c0] : memref<?xf32>
    }
    gpu.terminator
  }
  return
}

// -----

// A comparison of f32 values: both finite at their ends, and ordered
// (x < 100 where x's high end is); the thread's range is [0, 31].
// CHECK-LABEL: func.func @compare
// CHECK: gpu.launch
// CHECK: arith.sitofp %{{.+}} : i32 to f32
// CHECK: %[[HI:.+]] = arith.sitofp %{{.+}} : i32 to f32
// CHECK: arith.cmpf olt, %[[HI]], %{{.+}} : f32
// CHECK: memref.store
// CHECK: gpu.launch
// CHECK: arvr.block_proof
func.func @compare(%in: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %true = arith.constant true
  %lim = arith.constant 100.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%sgx = %c1, %sgy = %c1, %sgz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %xi = arith.index_cast %tx : index to i32
    %xf = arith.sitofp %xi : i32 to f32
    %t = arith.cmpf olt, %xf, %lim : f32
    %e = llvm.intr.expect %t, %true : i1
    scf.if %e {
      memref.store %xf, %in[%c0] : memref<?xf32>
    }
    gpu.terminator
  }
  return
}
