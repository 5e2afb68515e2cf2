// arvr-kernel-arg-aliasing: a kernel's pointer arguments used only as the
// addresses of loads and stores get llvm.noalias, and llvm.readonly when
// only read; one that escapes, an unused one, and non-kernel functions are
// left alone.
// RUN: arvr-opt %s --pass-pipeline="builtin.module(gpu.module(arvr-kernel-arg-aliasing))" | FileCheck %s

gpu.module @kernels {
  // CHECK-LABEL: llvm.func @copy
  // CHECK-SAME: (%{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr {llvm.noalias, llvm.readonly}, %{{.+}}: !llvm.ptr {llvm.noalias}, %{{.+}}: !llvm.ptr, %{{.+}}: i64)
  llvm.func @copy(%unused: !llvm.ptr, %in: !llvm.ptr, %out: !llvm.ptr, %escapes: !llvm.ptr, %i: i64) attributes {gpu.kernel, nvvm.kernel} {
    %g = llvm.addrspacecast %in : !llvm.ptr to !llvm.ptr<1>
    %p = llvm.getelementptr %g[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
    %v = llvm.load %p : !llvm.ptr<1> -> i8
    %q = llvm.getelementptr %out[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i8
    llvm.store %v, %q : i8, !llvm.ptr
    // Stored as a value: it escapes.
    llvm.store %escapes, %q : !llvm.ptr, !llvm.ptr
    llvm.return
  }

  // An address read as a number (an alignment test) is no access: the
  // argument keeps its marks; made a pointer again, it escapes.
  // CHECK-LABEL: llvm.func @aligned
  // CHECK-SAME: (%{{.+}}: !llvm.ptr {llvm.noalias, llvm.readonly}, %{{.+}}: !llvm.ptr, %{{.+}}: i64)
  llvm.func @aligned(%in: !llvm.ptr, %back: !llvm.ptr, %i: i64) attributes {gpu.kernel, nvvm.kernel} {
    %n = llvm.ptrtoint %in : !llvm.ptr to i64
    %v = llvm.load %in : !llvm.ptr -> i8
    %m = llvm.ptrtoint %back : !llvm.ptr to i64
    %p = llvm.inttoptr %m : i64 to !llvm.ptr
    llvm.store %v, %p : i8, !llvm.ptr
    llvm.return
  }

  // CHECK-LABEL: llvm.func @device_function
  // CHECK-SAME: (%{{.+}}: !llvm.ptr)
  llvm.func @device_function(%in: !llvm.ptr) -> i8 {
    %v = llvm.load %in : !llvm.ptr -> i8
    llvm.return %v : i8
  }
}
