// arvr-gpu-constant-tables: a constant vector read at a run-time place
// becomes a constant global of the gpu.module, in the global address
// space, read with an invariant load; one global for two reads of the same
// table; a read at a constant place, and a vector that is not a constant,
// stay as they are.
// RUN: arvr-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(arvr-gpu-constant-tables))' | FileCheck %s

// CHECK-LABEL: gpu.module @tables
// CHECK: llvm.mlir.global internal constant @arvr_table(dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32>) {addr_space = 1 : i32} : !llvm.array<3 x f32>
// CHECK-NOT: llvm.mlir.global
// CHECK: llvm.func @read(%[[I:.+]]: i32, %[[J:.+]]: i32, %[[V:.+]]: vector<3xf32>)
// CHECK: %[[A:.+]] = llvm.mlir.addressof @arvr_table : !llvm.ptr<1>
// CHECK: %[[P:.+]] = llvm.getelementptr inbounds %[[A]][0, %[[I]]] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, !llvm.array<3 x f32>
// CHECK: llvm.load %[[P]] invariant {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK: llvm.mlir.addressof @arvr_table : !llvm.ptr<1>
// CHECK: llvm.getelementptr inbounds %{{.+}}[0, %[[J]]]
// CHECK: llvm.extractelement %{{.+}}[%{{.+}} : i32] : vector<3xf32>
// CHECK: llvm.extractelement %[[V]][%[[I]] : i32] : vector<3xf32>
gpu.module @tables {
  llvm.func @read(%i: i32, %j: i32, %v: vector<3xf32>) -> f32 {
    %table = llvm.mlir.constant(dense<[1.0, 2.0, 3.0]> : vector<3xf32>) : vector<3xf32>
    %c1 = llvm.mlir.constant(1 : i32) : i32
    %a = llvm.extractelement %table[%i : i32] : vector<3xf32>
    %b = llvm.extractelement %table[%j : i32] : vector<3xf32>
    %c = llvm.extractelement %table[%c1 : i32] : vector<3xf32>
    %d = llvm.extractelement %v[%i : i32] : vector<3xf32>
    %s = llvm.fadd %a, %b : f32
    %t = llvm.fadd %s, %c : f32
    %u = llvm.fadd %t, %d : f32
    llvm.return %u : f32
  }
}

// -----

// Two tables, and a symbol already named arvr_table: each table gets a
// name of its own.
// CHECK-LABEL: gpu.module @two
// CHECK-DAG: llvm.mlir.global internal constant @[[T1:arvr_table_[0-9]+]](dense<[5, 6]> : tensor<2xi32>) {addr_space = 1 : i32} : !llvm.array<2 x i32>
// CHECK-DAG: llvm.mlir.global internal constant @[[T2:arvr_table_[0-9]+]](dense<[7, 8]> : tensor<2xi32>) {addr_space = 1 : i32} : !llvm.array<2 x i32>
// CHECK-DAG: llvm.func @arvr_table()
gpu.module @two {
  llvm.func @arvr_table() {
    llvm.return
  }
  llvm.func @read(%i: i32) -> i32 {
    %t = llvm.mlir.constant(dense<[5, 6]> : vector<2xi32>) : vector<2xi32>
    %u = llvm.mlir.constant(dense<[7, 8]> : vector<2xi32>) : vector<2xi32>
    %a = llvm.extractelement %t[%i : i32] : vector<2xi32>
    %b = llvm.extractelement %u[%i : i32] : vector<2xi32>
    %s = llvm.add %a, %b : i32
    llvm.return %s : i32
  }
}
