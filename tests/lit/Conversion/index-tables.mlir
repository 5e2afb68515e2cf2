// RUN: arvr-opt %s --arvr-index-tables | FileCheck %s

// A reduction's weight exp(-i*i/24.5), computed from its index alone,
// becomes a table folded when compiling (the values unrolling would give),
// read at i - lower.
// CHECK-LABEL: func.func @weights
// CHECK: %[[T:.+]] = arith.constant dense<[0.135335281, 0.230066299, 0.360447794, 0.520450115, 0.692569315, 0.84936583, 0.960005462, 1.000000e+00, 0.960005462, 0.84936583, 0.692569315, 0.520450115, 0.360447794, 0.230066299, 0.135335281]> : vector<15xf32>
// CHECK: scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step
// CHECK: %[[K:.+]] = arith.subi %[[I]], %{{.+}} : index
// CHECK: %[[W:.+]] = vector.extract %[[T]][%[[K]]] : f32 from vector<15xf32>
// CHECK: arith.mulf %[[W]], %{{.+}} : f32
func.func @weights(%src: memref<64xf32>) -> f32 {
  %c-7 = arith.constant -7 : index
  %c1 = arith.constant 1 : index
  // Bounds and divisor made of constants (as before canonicalisation).
  %c7 = arith.constant 7 : index
  %c8 = arith.addi %c7, %c1 : index
  %cst = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %var = arith.constant 12.25 : f32
  %k = arith.mulf %two, %var : f32
  %r = scf.for %i = %c-7 to %c8 step %c1 iter_args(%acc = %cst) -> (f32) {
    %0 = arith.index_cast %i : index to i32
    %1 = arith.muli %0, %0 : i32
    %2 = arith.sitofp %1 : i32 to f32
    %3 = arith.negf %2 : f32
    %4 = arith.divf %3, %k : f32
    %5 = math.exp %4 : f32
    %at = arith.addi %i, %c7 : index
    %x = memref.load %src[%at] : memref<64xf32>
    %6 = arith.mulf %5, %x : f32
    %7 = arith.addf %acc, %6 : f32
    scf.yield %7 : f32
  }
  return %r : f32
}

// A stage of a table's values: a 1 x 5 loop (one row) storing exp(i) at
// step 2 becomes stores of the table's values, read at (i - 0) / 2.
// CHECK-LABEL: func.func @stage
// CHECK: %[[T:.+]] = arith.constant dense<[1.000000e+00, 7.3890562, 54.5981483]> : vector<3xf32>
// CHECK: scf.parallel (%[[R:.+]], %[[I:.+]]) =
// CHECK: %[[D:.+]] = arith.subi %[[I]], %{{.+}} : index
// CHECK: %[[K:.+]] = arith.divui %[[D]], %{{.+}} : index
// CHECK: %[[V:.+]] = vector.extract %[[T]][%[[K]]] : f32 from vector<3xf32>
// CHECK: memref.store %[[V]]
func.func @stage(%out: memref<1x5xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  scf.parallel (%r, %i) = (%c0, %c0) to (%c1, %c5) step (%c1, %c2) {
    %0 = arith.index_cast %i : index to i32
    %1 = arith.sitofp %0 : i32 to f32
    %2 = math.exp %1 : f32
    memref.store %2, %out[%r, %i] : memref<1x5xf32>
    scf.reduce
  }
  return
}

// A stage's loop may have up to 1024 points (each reads its own entry
// once), a reduction's loop 256: a 766-point stage (a bilateral filter's
// colour weights) is a table; one of 2000 points is left alone.
// CHECK-LABEL: func.func @big_stage
// CHECK: arith.constant dense<"0x0000803F{{[0-9A-F]+}}"> : vector<766xf32>
// CHECK: vector.extract
// CHECK-LABEL: func.func @huge_stage
// CHECK-NOT: vector.extract
// CHECK: math.exp
func.func @big_stage(%out: memref<766xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c766 = arith.constant 766 : index
  %k = arith.constant -0.0005 : f32
  scf.parallel (%i) = (%c0) to (%c766) step (%c1) {
    %0 = arith.index_cast %i : index to i32
    %1 = arith.muli %0, %0 : i32
    %2 = arith.sitofp %1 : i32 to f32
    %3 = arith.mulf %2, %k : f32
    %4 = math.exp %3 : f32
    memref.store %4, %out[%i] : memref<766xf32>
    scf.reduce
  }
  return
}
func.func @huge_stage(%out: memref<2000xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2000 = arith.constant 2000 : index
  scf.parallel (%i) = (%c0) to (%c2000) step (%c1) {
    %0 = arith.index_cast %i : index to i32
    %1 = arith.sitofp %0 : i32 to f32
    %2 = math.exp %1 : f32
    memref.store %2, %out[%i] : memref<2000xf32>
    scf.reduce
  }
  return
}

// Left alone: arithmetic alone (it costs what a table read costs); math of
// a value read from memory; bounds not known when compiling; more than
// 256 iterations.
// CHECK-LABEL: func.func @untouched
// CHECK-NOT: vector.extract
// CHECK-NOT: dense<
// CHECK: return
func.func @untouched(%src: memref<1024xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c1000 = arith.constant 1000 : index
  %cst = arith.constant 0.0 : f32
  %a = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %cst) -> (f32) {
    %0 = arith.index_cast %i : index to i32
    %1 = arith.muli %0, %0 : i32
    %2 = arith.sitofp %1 : i32 to f32
    %3 = arith.addf %acc, %2 : f32
    scf.yield %3 : f32
  }
  %b = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %a) -> (f32) {
    %x = memref.load %src[%i] : memref<1024xf32>
    %e = math.exp %x : f32
    %3 = arith.addf %acc, %e : f32
    scf.yield %3 : f32
  }
  %c = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %b) -> (f32) {
    %0 = arith.index_cast %i : index to i32
    %1 = arith.sitofp %0 : i32 to f32
    %e = math.exp %1 : f32
    %3 = arith.addf %acc, %e : f32
    scf.yield %3 : f32
  }
  %d = scf.for %i = %c0 to %c1000 step %c1 iter_args(%acc = %c) -> (f32) {
    %0 = arith.index_cast %i : index to i32
    %1 = arith.sitofp %0 : i32 to f32
    %e = math.exp %1 : f32
    %3 = arith.addf %acc, %e : f32
    scf.yield %3 : f32
  }
  return %d : f32
}
