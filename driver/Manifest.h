//===- Manifest.h - How to launch the PTX of a kernel without arvrc -*- C++
//-*-===//
//
// `arvrc build` writes, beside the PTX, a launch manifest: the kernel's
// arguments, the buffers of its intermediate stages, and each launch
// (entry, grid, block, shared memory, arguments), with every size written
// as a short program over the image sizes and scalars. The format is
// described in docs/manifest.md; bench/ reads it.
//
//===----------------------------------------------------------------------===//

#ifndef ARVRC_DRIVER_MANIFEST_H
#define ARVRC_DRIVER_MANIFEST_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace arvrc {

/// Writes the manifest of `kernel` from `lowered` (the CUDA pipeline's
/// output, host code included) and `arvr` (the same kernel as MLIRGen made
/// it, for its output size); `ptxFile` is the PTX (or, with `cubin`, the
/// cubin) beside it. False, with `error` set, if the host code holds
/// something the format cannot say (a compiler bug).
bool writeLaunchManifest(mlir::ModuleOp lowered, mlir::ModuleOp arvr,
                         const std::string &kernel, const std::string &ptxFile,
                         bool cubin, llvm::raw_ostream &os, std::string &error);

} // namespace arvrc

#endif // ARVRC_DRIVER_MANIFEST_H
