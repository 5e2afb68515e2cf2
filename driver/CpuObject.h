//===- CpuObject.h - A kernel as a host object file and header --*- C++ -*-===//
//
// `arvrc build --target cpu --emit=obj`: the CPU pipeline's LLVM module as
// machine code for the host (or a named CPU), ahead of time, with what the
// runtime library needs to call it (docs/runtime.md, "The CPU back end"):
// an entry `arvr_cpu_<kernel>(void **args)` taking a pointer to each
// argument, as the JIT's packed entries do, and the kernel's launch plan
// as a string `arvr_plan_<kernel>`; everything else in the object is
// internal to it. The generated C header declares both and an opener.
//
//===----------------------------------------------------------------------===//

#ifndef ARVRC_DRIVER_CPUOBJECT_H
#define ARVRC_DRIVER_CPUOBJECT_H

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace arvrc {

/// The object file of `kernel` from `lowered` (the CPU pipeline's output,
/// in the LLVM dialect), for the CPU `cpu` ("host": this machine's, with
/// its features; else an LLVM CPU name such as x86-64-v3), with `planJson`
/// embedded. False with `error` if it cannot be made.
bool emitCpuObject(mlir::ModuleOp lowered, const std::string &kernel,
                   const std::string &planJson, const std::string &cpu,
                   std::string &object, std::string &error);

/// The C header declaring the object's entry and plan, and
/// `arvr_open_<kernel>(arvr_kernel **)`, which opens it with the runtime.
std::string cpuObjectHeader(const std::string &kernel,
                            const std::string &objectFile);

} // namespace arvrc

#endif // ARVRC_DRIVER_CPUOBJECT_H
