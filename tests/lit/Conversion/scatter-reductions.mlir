// arvr-scatter-reductions: a stage of one row whose every point counts the
// domain's keys equal to it (a histogram written as gathers) becomes zeros
// at the points and one parallel loop over the domain adding each term at
// its key, atomically (or not, for a CPU's one thread), when the key is
// inside the window.
// RUN: arvr-opt %s --arvr-scatter-reductions | FileCheck %s
// With atomic=false (the CPU's: one thread runs the domain), plain adds.
// RUN: arvr-opt %s --arvr-scatter-reductions=atomic=false | FileCheck %s --check-prefix=PLAIN

// Two ranges (rows, columns of an image), a count (extui of the test); the
// bounds are computed in the stage's body, as convert-arvr-to-loops does.
// CHECK-LABEL: func.func @count
// CHECK: scf.parallel (%[[R:.+]], %[[P:.+]]) = {{.+}} {
// CHECK-NOT: scf.for
// CHECK: memref.store %c0_i32{{.*}}, %[[H:.+]][%[[R]], %[[P]], %{{.+}}]
// CHECK-NEXT: scf.reduce
// CHECK-NEXT: } {arvr.schedule = #arvr.loop<stage = "hist">}
// CHECK: %[[ROWS:.+]] = memref.dim %[[SRC:.+]], %c0
// CHECK: %[[COLS:.+]] = memref.dim %[[SRC]], %c1
// CHECK: scf.parallel (%[[Y:.+]], %[[X:.+]]) = (%{{.+}}, %{{.+}}) to (%{{.+}}, %{{.+}}) step
// CHECK: %[[V:.+]] = memref.load %[[SRC]]
// CHECK: %[[K:.+]] = arith.extui %[[V]] : i8 to i32
// CHECK: %[[IN:.+]] = arith.andi
// CHECK: scf.if %[[IN]] {
// CHECK: %[[KI:.+]] = arith.index_cast %[[K]] : i32 to index
// CHECK: memref.atomic_rmw addi %{{.+}}, %[[H]][%{{.+}}, %[[KI]], %{{.+}}]
// CHECK: } {arvr.schedule = #arvr.loop<stage = "hist_scatter">}
// PLAIN-LABEL: func.func @count
// PLAIN: scf.if %{{.+}} {
// PLAIN: %[[KI:.+]] = arith.index_cast %{{.+}} : i32 to index
// PLAIN-NEXT: %[[OLD:.+]] = memref.load %[[H:.+]][%{{.+}}, %[[KI]], %{{.+}}]
// PLAIN-NEXT: %[[NEW:.+]] = arith.addi %[[OLD]], %{{.+}} : i32
// PLAIN-NEXT: memref.store %[[NEW]], %[[H]][%{{.+}}, %[[KI]], %{{.+}}]
// PLAIN-NOT: atomic_rmw
// PLAIN: } {arvr.schedule = #arvr.loop<stage = "hist_scatter">}
// CHECK-NOT: scf.for
// CHECK: return
func.func @count(%src: memref<?x?x1xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0 : i32
  %hist = memref.alloc(%c1, %c256) : memref<?x?x1xi32>
  scf.parallel (%r, %p) = (%c0, %c0) to (%c1, %c256) step (%c1, %c1) {
    %c0_in = arith.constant 0 : index
    %c1_in = arith.constant 1 : index
    %v = arith.index_cast %p : index to i32
    %rows = memref.dim %src, %c0_in : memref<?x?x1xi8>
    %sum = scf.for %y = %c0_in to %rows step %c1_in iter_args(%acc = %zero) -> (i32) {
      %cols = memref.dim %src, %c1_in : memref<?x?x1xi8>
      %row = scf.for %x = %c0_in to %cols step %c1_in iter_args(%acc2 = %zero) -> (i32) {
        %b = memref.load %src[%y, %x, %c0_in] : memref<?x?x1xi8>
        %k = arith.extui %b : i8 to i32
        %eq = arith.cmpi eq, %k, %v : i32
        %t = arith.extui %eq : i1 to i32
        %n = arith.addi %acc2, %t : i32
        scf.yield %n : i32
      }
      %m = arith.addi %acc, %row : i32
      scf.yield %m : i32
    }
    memref.store %sum, %hist[%r, %p, %c0_in] : memref<?x?x1xi32>
    scf.reduce
  } {arvr.schedule = #arvr.loop<stage = "hist">}
  return
}

// One range, a weighted term (select), the point shifted by the window's
// origin (p + 10 == k): the key's place is k - 10.
// CHECK-LABEL: func.func @weighted
// CHECK: scf.parallel (%{{.+}}, %[[I0:.+]]) = (%{{.+}}, %{{.+}}) to (%c1{{.*}}, %{{.+}})
// CHECK: %[[I:.+]] = arith.addi %[[I0]], %c0
// CHECK: %[[K:.+]] = memref.load %{{.+}}[%[[I]]]
// CHECK: %[[W:.+]] = memref.load %{{.+}}[%[[I]]]
// CHECK: %[[AT:.+]] = arith.subi %[[K]], %c10_i32
// CHECK: scf.if
// CHECK: %[[ATI:.+]] = arith.index_cast %[[AT]] : i32 to index
// CHECK: memref.atomic_rmw addi %[[W]], %{{.+}}[%c0{{.*}}, %[[ATI]], %c0{{.*}}]
func.func @weighted(%keys: memref<?xi32>, %weights: memref<?xi32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c10 = arith.constant 10 : i32
  %zero = arith.constant 0 : i32
  %out = memref.alloc() : memref<1x16x1xi32>
  scf.parallel (%p) = (%c0) to (%c16) step (%c1) {
    %i32 = arith.index_cast %p : index to i32
    %v = arith.addi %i32, %c10 : i32
    %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i32) {
      %k = memref.load %keys[%i] : memref<?xi32>
      %w = memref.load %weights[%i] : memref<?xi32>
      %eq = arith.cmpi eq, %v, %k : i32
      %t = arith.select %eq, %w, %zero : i32
      %s = arith.addi %t, %acc : i32
      scf.yield %s : i32
    }
    memref.store %sum, %out[%c0, %p, %c0] : memref<1x16x1xi32>
    scf.reduce
  }
  return
}

// Left alone: a sum of f32 (its order matters), a term reading the point,
// a test other than equality.
// CHECK-LABEL: func.func @left
// CHECK-NOT: atomic_rmw
// CHECK: return
func.func @left(%keys: memref<?xi32>, %weights: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0 : i32
  %fzero = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<1x16x1xf32>
  %b = memref.alloc() : memref<1x16x1xi32>
  %c = memref.alloc() : memref<1x16x1xi32>
  scf.parallel (%p) = (%c0) to (%c16) step (%c1) {
    %v = arith.index_cast %p : index to i32
    %fsum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %fzero) -> (f32) {
      %k = memref.load %keys[%i] : memref<?xi32>
      %w = memref.load %weights[%i] : memref<?xf32>
      %eq = arith.cmpi eq, %k, %v : i32
      %t = arith.select %eq, %w, %fzero : f32
      %s = arith.addf %acc, %t : f32
      scf.yield %s : f32
    }
    memref.store %fsum, %a[%c0, %p, %c0] : memref<1x16x1xf32>
    scf.reduce
  }
  scf.parallel (%p) = (%c0) to (%c16) step (%c1) {
    %v = arith.index_cast %p : index to i32
    %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i32) {
      %k = memref.load %keys[%i] : memref<?xi32>
      %eq = arith.cmpi eq, %k, %v : i32
      %t = arith.select %eq, %v, %zero : i32
      %s = arith.addi %acc, %t : i32
      scf.yield %s : i32
    }
    memref.store %sum, %b[%c0, %p, %c0] : memref<1x16x1xi32>
    scf.reduce
  }
  scf.parallel (%p) = (%c0) to (%c16) step (%c1) {
    %v = arith.index_cast %p : index to i32
    %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i32) {
      %k = memref.load %keys[%i] : memref<?xi32>
      %le = arith.cmpi sle, %k, %v : i32
      %t = arith.extui %le : i1 to i32
      %s = arith.addi %acc, %t : i32
      scf.yield %s : i32
    }
    memref.store %sum, %c[%c0, %p, %c0] : memref<1x16x1xi32>
    scf.reduce
  }
  return
}
