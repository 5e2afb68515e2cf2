// arvr-prune-kernel-params: a kernel's parameters its body never reads
// leave its signature, and each launch of it says which words it still
// takes (indices over the launch's words); a kernel that reads all of
// them, a function that is not a kernel and a kernel nothing launches
// keep theirs.
// RUN: arvr-opt %s --arvr-prune-kernel-params | FileCheck %s

module attributes {gpu.container_module} {
  func.func @host(%p: !llvm.ptr, %q: !llvm.ptr, %n: i32, %m: i32) {
    %c1 = arith.constant 1 : index
    // CHECK: gpu.launch_func @kernels::@scale {{.*}} args(%{{.*}} : !llvm.ptr, %{{.*}} : !llvm.ptr, %{{.*}} : i32, %{{.*}} : i32) {arvr.kernel_params = array<i32: 1, 3>}
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%p : !llvm.ptr, %q : !llvm.ptr, %n : i32, %m : i32)
    // CHECK: gpu.launch_func @kernels::@scale {{.*}} {arvr.kernel_params = array<i32: 1, 3>}
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%p : !llvm.ptr, %q : !llvm.ptr, %n : i32, %m : i32)
    // CHECK: gpu.launch_func @kernels::@copy
    // CHECK-NOT: arvr.kernel_params
    // CHECK-SAME: {{$}}
    gpu.launch_func @kernels::@copy blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%p : !llvm.ptr, %q : !llvm.ptr)
    return
  }
  gpu.module @kernels {
    // CHECK: llvm.func @scale(%{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: i32) attributes {gpu.kernel, nvvm.kernel}
    llvm.func @scale(%unused: !llvm.ptr, %p: !llvm.ptr {llvm.noalias}, %n: i32, %m: i32) attributes {gpu.kernel, nvvm.kernel} {
      %x = llvm.load %p : !llvm.ptr -> i32
      %y = llvm.mul %x, %m : i32
      llvm.store %y, %p : i32, !llvm.ptr
      llvm.return
    }
    // CHECK: llvm.func @copy(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel}
    llvm.func @copy(%p: !llvm.ptr, %q: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      %x = llvm.load %q : !llvm.ptr -> i32
      llvm.store %x, %p : i32, !llvm.ptr
      llvm.return
    }
    // CHECK: llvm.func @idle(%{{.*}}: !llvm.ptr, %{{.*}}: i32) attributes {gpu.kernel, nvvm.kernel}
    llvm.func @idle(%p: !llvm.ptr, %n: i32) attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
    // CHECK: llvm.func @helper(%{{.*}}: !llvm.ptr, %{{.*}}: i32)
    llvm.func @helper(%p: !llvm.ptr, %n: i32) {
      llvm.return
    }
  }
}
