//===- ArvrTypes.td - Types of the arvr dialect -----------*- tablegen -*-===//
//
// `!arvr.image<T, C>`: an image of element type T with C channels (`?` when
// the channel count is only known at run time).
// `!arvr.nv12`: a camera frame of two planes, read through `arvr.plane`.
//
//===----------------------------------------------------------------------===//

#ifndef ARVR_TYPES_TD
#define ARVR_TYPES_TD

include "arvr/Dialect/ArvrDialect.td"
include "mlir/IR/AttrTypeBase.td"

class Arvr_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Arvr_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Arvr_ImageType : Arvr_Type<"Image", "image"> {
  let summary = "an image: width x height x channels elements";
  let description = [{
    A two-dimensional image whose pixels have `channels` elements of type
    `elementType`. The element type is one of `ui8`, `ui16`, `i32` (signed)
    and `f32`; the channel count is 1 to 4, or `?` when it is fixed only at
    run time. Width and height are always run-time values (`arvr.dim`).

    ```mlir
    !arvr.image<ui8, 3>   // RGB8
    !arvr.image<f32, ?>   // float image, channels known at run time
    ```
  }];
  let parameters = (ins "::mlir::Type":$elementType, "int64_t":$channels);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// True when the channel count is known at compile time.
    bool hasStaticChannels() const {
      return !::mlir::ShapedType::isDynamic(getChannels());
    }
    /// The signless type a single element has once read: `i8` for `ui8`,
    /// `i16` for `ui16`, `i32`, `f32`. Arithmetic happens on these.
    ::mlir::Type getScalarType() const;
  }];
}

def Arvr_NV12Type : Arvr_Type<"NV12", "nv12"> {
  let summary = "an NV12 camera frame: a luma plane and a chroma plane";
  let description = [{
    A frame of width W and height H in two planes: `y`, W x H luma bytes
    (`!arvr.image<ui8, 1>`), and `uv`, ceil(W/2) x ceil(H/2) pairs of
    interleaved U and V bytes (`!arvr.image<ui8, 2>`). The sizes of the two
    planes are tied: a kernel reads the planes with `arvr.plane`, and
    `arvr-split-planes` turns the frame into two image arguments.

    ```mlir
    arvr.kernel @k(%frame: !arvr.nv12) -> !arvr.image<ui8, 3> { ... }
    ```
  }];
}

#endif // ARVR_TYPES_TD
