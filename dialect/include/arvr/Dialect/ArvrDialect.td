//===- ArvrDialect.td - The arvr dialect ------------------*- tablegen -*-===//
//
// The `arvr` dialect describes image and stencil kernels: a kernel is a
// function over images; each stage computes one point of an image from its
// coordinates, reading images through accesses that carry their boundary
// handling. Scalar maths use `arith` and `math`.
//
//===----------------------------------------------------------------------===//

#ifndef ARVR_DIALECT_TD
#define ARVR_DIALECT_TD

include "mlir/IR/OpBase.td"

def Arvr_Dialect : Dialect {
  let name = "arvr";
  let summary = "Image and stencil kernels for AR/VR pipelines";
  let description = [{
    The `arvr` dialect is the middle of the arvrc compiler. A `.arvr` kernel
    becomes an `arvr.kernel` whose body holds `arvr.stage` ops, one per
    materialised image; each stage's region computes one point `(x, y, c)`
    of its image with `arith`/`math` ops and `arvr.access` reads of other
    images. Boundary handling is an attribute of each access, so passes can
    reason about halos before any memory exists.
  }];
  let cppNamespace = "::mlir::arvr";
  let useDefaultTypePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

class Arvr_Op<string mnemonic, list<Trait> traits = []>
    : Op<Arvr_Dialect, mnemonic, traits>;

#endif // ARVR_DIALECT_TD
