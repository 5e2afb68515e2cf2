//===- ArvrDialect.h - The arvr dialect -------------------------*- C++ -*-===//
//
// Declares the arvr dialect, its types, attributes and operations.
//
//===----------------------------------------------------------------------===//

#ifndef ARVR_DIALECT_ARVRDIALECT_H
#define ARVR_DIALECT_ARVRDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "arvr/Dialect/ArvrDialect.h.inc"
#include "arvr/Dialect/ArvrEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "arvr/Dialect/ArvrAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "arvr/Dialect/ArvrTypes.h.inc"

#define GET_OP_CLASSES
#include "arvr/Dialect/ArvrOps.h.inc"

#endif // ARVR_DIALECT_ARVRDIALECT_H
