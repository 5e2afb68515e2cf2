//===- Sema.h - Semantic checks of .arvr kernels ----------------*- C++ -*-===//
//
// Resolves names, gives every expression its type, and checks the rules of
// the language (docs/language.md): parameter and default types, the output
// function, argument counts, operand types, and that every image read is
// either provably inside the image or has a boundary mode. Reports every
// problem it finds with its location; the AST is fit for MLIRGen only when
// no error was reported.
//
//===----------------------------------------------------------------------===//

#ifndef ARVR_FRONTEND_SEMA_H
#define ARVR_FRONTEND_SEMA_H

#include "arvr/Frontend/AST.h"
#include "arvr/Frontend/Diagnostics.h"

namespace arvr {

/// Checks and annotates `module`; returns false if any error was reported.
bool checkModule(ModuleAST &module, DiagnosticEngine &diags);

} // namespace arvr

#endif // ARVR_FRONTEND_SEMA_H
