//===- MLIRGen.h - From the checked AST to the arvr dialect -----*- C++ -*-===//
//
// Emits one `arvr.kernel` per kernel of a module that Sema accepted, with a
// FileLineColLoc from the .arvr text on every op, and verifies the result.
//
//===----------------------------------------------------------------------===//

#ifndef ARVR_FRONTEND_MLIRGEN_H
#define ARVR_FRONTEND_MLIRGEN_H

#include "arvr/Frontend/AST.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace arvr {

/// Returns null (after reporting through the context's diagnostics) if the
/// generated IR does not verify, which is a compiler bug.
mlir::OwningOpRef<mlir::ModuleOp> mlirGen(mlir::MLIRContext &context,
                                          const ModuleAST &module,
                                          const llvm::SourceMgr &sourceMgr);

} // namespace arvr

#endif // ARVR_FRONTEND_MLIRGEN_H
