//===- Passes.h - arvr lowering passes --------------------------*- C++ -*-===//
//
// Declares the passes of lowering/ (see Passes.td) and their registration.
//
//===----------------------------------------------------------------------===//

#ifndef ARVR_LOWERING_PASSES_H
#define ARVR_LOWERING_PASSES_H

#include "arvr/Dialect/ArvrDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;
class TypeConverter;

namespace arvr {

#define GEN_PASS_DECL
#include "arvr/Lowering/Passes.h.inc"

/// Marks an op of boundary handling (the clamp of an index, the test of an
/// index against its dimension, the choice of a padding, the guard of a
/// thread's point), which arvr-specialize-interior replaces by its value
/// inside where it proves the test passes for a whole block.
constexpr llvm::StringLiteral kBoundaryAttrName =
    ArvrDialect::kBoundaryAttrName;

/// Marks the `scf.if` arvr-specialize-interior makes of a launch's body:
/// its then-branch is the interior version, its else-branch the border
/// one. arvr-wide-access works on the interior version.
constexpr llvm::StringLiteral kInteriorAttrName =
    ArvrDialect::kInteriorAttrName;

/// Adds the patterns that lower arvr ops to scf/memref/arith.
void populateArvrToLoopsConversionPatterns(TypeConverter &typeConverter,
                                           RewritePatternSet &patterns);

#define GEN_PASS_REGISTRATION
#include "arvr/Lowering/Passes.h.inc"

} // namespace arvr
} // namespace mlir

#endif // ARVR_LOWERING_PASSES_H
