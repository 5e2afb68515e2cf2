// arvr-map-to-gpu: an outermost 2-D scf.parallel over (y, x) becomes a
// gpu.launch of block-x x block-y threads, x on threadIdx.x, guarded by the
// loop's range.
// RUN: arvr-opt %s --arvr-map-to-gpu="block-x=16 block-y=4 rows-per-thread=1" | FileCheck %s
// RUN: arvr-opt %s --arvr-map-to-gpu="block-x=16 block-y=4" | FileCheck %s --check-prefix=ROWS
// RUN: arvr-opt %s --arvr-map-to-gpu | FileCheck %s --check-prefix=AUTO
// RUN: arvr-opt %s --arvr-map-to-gpu="rows-per-thread=1" | FileCheck %s --check-prefix=ONEROW
// RUN: arvr-opt %s --arvr-map-to-gpu="block-x=16 block-y=4 columns-per-thread=4" | FileCheck %s --check-prefix=RUN4
// RUN: not arvr-opt %s --arvr-map-to-gpu="rows-per-thread=0" 2>&1 | FileCheck %s --check-prefix=BADROWS
// RUN: not arvr-opt %s --arvr-map-to-gpu="block-x=64 block-y=64" 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK: module attributes {gpu.container_module}
// BADROWS: error: rows per thread must be at least 1

// By default each thread computes two consecutive rows: the grid covers 8
// rows per block, and a loop over the thread's rows (marked
// arvr.thread_points, for arvr-specialize-interior to unroll) holds one
// copy of the body, under the point's guard.
// ROWS-LABEL: func.func @copy
// ROWS-DAG: %[[TY:.+]] = arith.constant 8 : index
// ROWS-DAG: %[[TWO:.+]] = arith.constant 2 : index
// ROWS: %[[GY:.+]] = arith.ceildivsi %{{.+}}, %[[TY]]
// ROWS: gpu.launch blocks(%{{.+}}, %[[BIDY:.+]], %{{.+}}) in (%{{.+}} = %{{.+}}, %{{.+}} = %[[GY]], %{{.+}}) threads(%{{.+}}, %[[TIDY:.+]], %{{.+}}) in
// ROWS-DAG: %[[Y0:.+]] = arith.muli %[[BIDY]], %[[TY]]
// ROWS-DAG: %[[YT:.+]] = arith.muli %[[TIDY]], %[[TWO]]
// ROWS: %[[Y:.+]] = arith.addi %[[Y0]], %[[YT]]
// ROWS: scf.for %[[R:.+]] = %{{.+}} to %[[TWO]] step
// ROWS: %[[YR:.+]] = arith.addi %[[Y]], %[[R]]
// ROWS: arith.cmpi slt, %[[YR]]
// ROWS: scf.if
// ROWS: memref.store %{{.+}}, %{{.+}}[%[[YR]],
// ROWS-NOT: memref.store
// ROWS: } {arvr.thread_points}
// ROWS-NEXT: gpu.terminator

// CHECK-LABEL: func.func @copy
// CHECK-SAME: (%[[IN:[^:]+]]: memref<?x?x?xi8>, %[[OUT:[^:]+]]: memref<?x?x?xi8>, %[[H:[^:]+]]: index, %[[W:[^:]+]]: index, %[[C:[^:]+]]: index)
func.func @copy(%in: memref<?x?x?xi8>, %out: memref<?x?x?xi8>, %h: index, %w: index, %c: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // CHECK-DAG: %[[BX:.+]] = arith.constant 16 : index
  // CHECK-DAG: %[[BY:.+]] = arith.constant 4 : index
  // CHECK-DAG: %[[ONE:.+]] = arith.constant 1 : index
  // CHECK-DAG: %[[GX:.+]] = arith.ceildivsi %[[W]], %[[BX]]
  // CHECK-DAG: %[[GY:.+]] = arith.ceildivsi %[[H]], %[[BY]]
  // CHECK: gpu.launch blocks(%[[BIDX:.+]], %[[BIDY:.+]], %{{.+}}) in (%{{.+}} = %[[GX]], %{{.+}} = %[[GY]], %{{.+}} = %[[ONE]]) threads(%[[TIDX:.+]], %[[TIDY:.+]], %{{.+}}) in (%{{.+}} = %[[BX]], %{{.+}} = %[[BY]], %{{.+}} = %[[ONE]])
  // CHECK: %[[X0:.+]] = arith.muli %[[BIDX]], %[[BX]]
  // CHECK: %[[X:.+]] = arith.addi %[[X0]], %[[TIDX]]
  // CHECK: %[[Y0:.+]] = arith.muli %[[BIDY]], %[[BY]]
  // CHECK: %[[Y:.+]] = arith.addi %[[Y0]], %[[TIDY]]
  // CHECK-DAG: %[[XOK:.+]] = arith.cmpi slt, %[[X]], %[[W]]
  // CHECK-DAG: %[[YOK:.+]] = arith.cmpi slt, %[[Y]], %[[H]]
  // CHECK: %[[OK:.+]] = arith.andi
  // CHECK: scf.if %[[OK]] {
  // CHECK: scf.for %[[CH:.+]] = %{{.+}} to %[[C]]
  // CHECK: %[[V:.+]] = memref.load %[[IN]][%[[Y]], %[[X]], %[[CH]]]
  // CHECK: memref.store %[[V]], %[[OUT]][%[[Y]], %[[X]], %[[CH]]]
  // CHECK: gpu.terminator
  // CHECK-NOT: scf.parallel
  scf.parallel (%y, %x) = (%c0, %c0) to (%h, %w) step (%c1, %c1) {
    scf.for %ch = %c0 to %c step %c1 {
      %v = memref.load %in[%y, %x, %ch] : memref<?x?x?xi8>
      memref.store %v, %out[%y, %x, %ch] : memref<?x?x?xi8>
    }
    scf.reduce
  }
  return
}

// A loop scheduled with gpu_tile keeps its own block.
// CHECK-LABEL: func.func @tiled
// CHECK-DAG: %[[TBX:.+]] = arith.constant 64 : index
// CHECK-DAG: %[[TBY:.+]] = arith.constant 2 : index
// CHECK: gpu.launch blocks({{.+}}) in ({{.+}}) threads({{.+}}) in (%{{.+}} = %[[TBX]], %{{.+}} = %[[TBY]], %{{.+}} = %{{.+}})
func.func @tiled(%out: memref<?x?xi8>, %h: index, %w: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = arith.constant 7 : i8
  scf.parallel (%y, %x) = (%c0, %c0) to (%h, %w) step (%c1, %c1) {
    memref.store %v, %out[%y, %x] : memref<?x?xi8>
    scf.reduce
  } {arvr.schedule = #arvr.loop<stage = "tiled" block = [64, 2]>}
  return
}

// BAD: error: block of 64x64 threads is not a valid CUDA block (1 to 1024 threads)

// gpu_pixels 3: each thread computes three points of its row, a block's
// width (16) apart, in a loop; the grid covers 48 columns per block; each
// point is guarded.
// CHECK-LABEL: func.func @pixels
// CHECK-SAME: (%[[POUT:[^:]+]]: memref<?x?xi8>, %[[PH:[^:]+]]: index, %[[PW:[^:]+]]: index)
// CHECK-DAG: %[[PBX:.+]] = arith.constant 16 : index
// CHECK-DAG: %[[TILE:.+]] = arith.constant 48 : index
// CHECK-DAG: %[[PGX:.+]] = arith.ceildivsi %[[PW]], %[[TILE]]
// CHECK: gpu.launch blocks(%[[PBIDX:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %[[PGX]], {{.+}}) threads(%[[PTIDX:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %[[PBX]],
// CHECK: %[[PX0:.+]] = arith.muli %[[PBIDX]], %[[TILE]]
// CHECK: %[[PX:.+]] = arith.addi %[[PX0]], %[[PTIDX]]
// CHECK: %[[PY:.+]] = arith.addi
// CHECK: scf.for %[[P:.+]] = %{{.+}} to %[[THREE:[^ ]+]] step
// CHECK: %[[PSTEP:.+]] = arith.muli %[[P]], %[[PBX]]
// CHECK: %[[PXP:.+]] = arith.addi %[[PX]], %[[PSTEP]]
// CHECK: arith.cmpi slt, %[[PXP]], %[[PW]]
// CHECK: scf.if
// CHECK: memref.store %{{.+}}, %[[POUT]][%[[PY]], %[[PXP]]]
// CHECK-NOT: memref.store
// CHECK: } {arvr.thread_points}
// CHECK-NEXT: gpu.terminator
func.func @pixels(%out: memref<?x?xi8>, %h: index, %w: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%y, %x) = (%c0, %c0) to (%h, %w) step (%c1, %c1) {
    %xi = arith.index_cast %x : index to i8
    memref.store %xi, %out[%y, %x] : memref<?x?xi8>
    scf.reduce
  } {arvr.schedule = #arvr.loop<stage = "pixels" pixels = 3>}
  return
}

// Runs of consecutive columns. A cheap body storing 3-byte pixels, two
// rows a thread: 8 columns a thread (24 bytes, three 8-byte vectors for
// arvr-wide-access; a run of 16 would be 32 points a thread, over the
// limit of 16), and without a gpu_tile a block of 32 x 4 threads (128
// threads, a tile 256 columns wide). An explicit run of 4 keeps the block.
// AUTO-LABEL: func.func @rgb
// AUTO-DAG: %[[STEP:.+]] = arith.constant 8 : index
// AUTO-DAG: %[[TILE:.+]] = arith.constant 256 : index
// AUTO-DAG: %[[BX:.+]] = arith.constant 32 : index
// AUTO-DAG: %[[BY:.+]] = arith.constant 4 : index
// AUTO: %[[GX:.+]] = arith.ceildivsi %{{.+}}, %[[TILE]]
// AUTO: gpu.launch blocks(%[[BIDX:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %[[GX]], {{.+}}) threads(%[[TIDX:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %[[BX]], %{{.+}} = %[[BY]],
// AUTO-DAG: %[[X0:.+]] = arith.muli %[[BIDX]], %[[TILE]]
// AUTO-DAG: %[[XT:.+]] = arith.muli %[[TIDX]], %[[STEP]]
// AUTO: %[[X:.+]] = arith.addi %[[X0]], %[[XT]]
// AUTO: scf.for %[[K:.+]] = %{{.+}} to %[[STEP]] step
// AUTO: %[[XK:.+]] = arith.addi %[[X]], %[[K]]
// AUTO: scf.if
// AUTO: memref.store %{{.+}}, %{{.+}}[%{{.+}}, %[[XK]], %{{.+}}]
// AUTO-NOT: memref.store
// AUTO: } {arvr.thread_points}
// AUTO-NEXT: } {arvr.thread_points}
// One row a thread: a run of 16 is 16 points, within the limit, so 16
// columns a thread (48 bytes, three 16-byte vectors) and a block of
// 16 x 8 threads over the 256-column tile.
// ONEROW-LABEL: func.func @rgb
// ONEROW-DAG: %[[STEP:.+]] = arith.constant 16 : index
// ONEROW-DAG: %[[TILE:.+]] = arith.constant 256 : index
// ONEROW-DAG: %[[BY:.+]] = arith.constant 8 : index
// ONEROW: arith.ceildivsi %{{.+}}, %[[TILE]]
// ONEROW: gpu.launch {{.+}} threads({{.+}}) in (%{{.+}} = %[[STEP]], %{{.+}} = %[[BY]],
// ONEROW: scf.for %{{.+}} = %{{.+}} to %[[STEP]] step
// RUN4-LABEL: func.func @rgb
// RUN4-DAG: %[[TILE:.+]] = arith.constant 64 : index
// RUN4-DAG: %[[BX:.+]] = arith.constant 16 : index
// RUN4: arith.ceildivsi %{{.+}}, %[[TILE]]
// RUN4-DAG: %[[FOUR:.+]] = arith.constant 4 : index
// RUN4: gpu.launch {{.+}} threads({{.+}}) in (%{{.+}} = %[[BX]],
// RUN4: scf.for %{{.+}} = %{{.+}} to %[[FOUR]] step
func.func @rgb(%out: memref<?x?x3xi8>, %h: index, %w: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = arith.constant 7 : i8
  scf.parallel (%y, %x) = (%c0, %c0) to (%h, %w) step (%c1, %c1) {
    memref.store %v, %out[%y, %x, %c0] : memref<?x?x3xi8>
    scf.reduce
  }
  return
}

// Before the body is put in the loop over a thread's points (and unrolled
// in the interior), a loop of one iteration (what arvr-unroll-reductions
// leaves of a sum over a short table) is inlined and its constants folded:
// the point stores the sum, 1 + 2, and the only loop is the points'.
// CHECK-LABEL: func.func @one_iteration
// CHECK-DAG: %[[THREE:.+]] = arith.constant 3.000000e+00 : f32
// CHECK: gpu.launch
// CHECK: scf.for
// CHECK-NOT: scf.for
// CHECK: memref.store %[[THREE]]
// CHECK-NOT: scf.for
// CHECK: } {arvr.thread_points}
// CHECK-NEXT: gpu.terminator
func.func @one_iteration(%out: memref<?x?xf32>, %h: index, %w: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %table = arith.constant dense<[1.0, 2.0]> : vector<2xf32>
  scf.parallel (%y, %x) = (%c0, %c0) to (%h, %w) step (%c1, %c1) {
    %sum = scf.for %i = %c0 to %c2 step %c2 iter_args(%acc = %zero) -> (f32) {
      %a = vector.extract %table[%i] : f32 from vector<2xf32>
      %i1 = arith.addi %i, %c1 : index
      %b = vector.extract %table[%i1] : f32 from vector<2xf32>
      %s = arith.addf %acc, %a : f32
      %t = arith.addf %s, %b : f32
      scf.yield %t : f32
    }
    memref.store %sum, %out[%y, %x] : memref<?x?xf32>
    scf.reduce
  } {arvr.schedule = #arvr.loop<stage = "one" pixels = 2>}
  return
}
