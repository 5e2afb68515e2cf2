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
  let useDefaultAttributePrinterParser = 1;
  // The discardable `arvr.*` attributes lowering passes put on scf, arith
  // and func ops are checked (ArvrDialect::verifyOperationAttribute).
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let extraClassDeclaration = [{
    /// The stage loop's schedule: `arvr.schedule`.
    static constexpr ::llvm::StringLiteral kScheduleAttrName = "arvr.schedule";
    /// A reduction loop's unroll factor (1 to 64): `arvr.unroll`.
    static constexpr ::llvm::StringLiteral kUnrollAttrName = "arvr.unroll";
    /// Marks (unit attributes) passes leave for later ones: boundary
    /// handling (convert-arvr-to-loops, arvr-map-to-gpu), the interior
    /// version (arvr-specialize-interior), a channel proved in range.
    static constexpr ::llvm::StringLiteral kBoundaryAttrName = "arvr.boundary";
    static constexpr ::llvm::StringLiteral kInteriorAttrName = "arvr.interior";
    static constexpr ::llvm::StringLiteral kChannelInRangeAttrName =
        "arvr.channel_in_range";
    /// On the memref.load of a block's byte in arvr-gpu-block-proofs'
    /// table: a value fixed over the block (arvr-specialize-interior).
    static constexpr ::llvm::StringLiteral kBlockProofAttrName =
        "arvr.block_proof";
    /// On the memref.load of one end of a block's box in
    /// arvr-gpu-block-proofs' box table (a value fixed over the block), and
    /// on the image reads of a likely branch whose places lie in that box
    /// (`arvr.boxed`): arvr-gpu-stage-samples stages the box in shared
    /// memory and the interior version reads it there.
    static constexpr ::llvm::StringLiteral kBlockBoxAttrName =
        "arvr.block_box";
    static constexpr ::llvm::StringLiteral kBoxedAttrName = "arvr.boxed";
    /// On a memref.alloc: a table one launch writes from its scalar
    /// arguments and sizes alone, and no launch writes otherwise
    /// (arvr-gpu-block-proofs): the launch plan calls that launch
    /// reusable.
    static constexpr ::llvm::StringLiteral kParameterTableAttrName =
        "arvr.parameter_table";
    /// On an scf.for over some of a thread's points (arvr-map-to-gpu):
    /// unrolled where the boundary handling is gone, and where the nest
    /// has few points; a loop in a border version (arvr-specialize-interior).
    static constexpr ::llvm::StringLiteral kThreadPointsAttrName =
        "arvr.thread_points";
    /// On a host function: its launches take a batch of frames stacked,
    /// the frame as the grid's z (arvr-batch-frames).
    static constexpr ::llvm::StringLiteral kFramesInGridZAttrName =
        "arvr.frames_in_grid_z";
  }];
  let hasConstantMaterializer = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

class Arvr_Op<string mnemonic, list<Trait> traits = []>
    : Op<Arvr_Dialect, mnemonic, traits>;

#endif // ARVR_DIALECT_TD
