//===- ArvrAttrs.td - Attributes of the arvr dialect ------*- tablegen -*-===//
//
// Enumerations carried by arvr ops: how an access treats coordinates
// outside the image, and which size of an image `arvr.dim` asks for.
//
//===----------------------------------------------------------------------===//

#ifndef ARVR_ATTRS_TD
#define ARVR_ATTRS_TD

include "arvr/Dialect/ArvrDialect.td"
include "mlir/IR/EnumAttr.td"

def Arvr_BoundaryInBounds : I32EnumAttrCase<"in_bounds", 0>;
def Arvr_BoundaryClamp : I32EnumAttrCase<"clamp", 1>;

def Arvr_Boundary : I32EnumAttr<"Boundary",
    "how an access treats coordinates outside the image",
    [Arvr_BoundaryInBounds, Arvr_BoundaryClamp]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::arvr";
}
def Arvr_BoundaryAttr : EnumAttr<Arvr_Dialect, Arvr_Boundary, "boundary">;

def Arvr_DimWidth : I32EnumAttrCase<"width", 0>;
def Arvr_DimHeight : I32EnumAttrCase<"height", 1>;
def Arvr_DimChannels : I32EnumAttrCase<"channels", 2>;

def Arvr_Dim : I32EnumAttr<"Dim", "a size of an image",
    [Arvr_DimWidth, Arvr_DimHeight, Arvr_DimChannels]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::arvr";
}
def Arvr_DimAttr : EnumAttr<Arvr_Dialect, Arvr_Dim, "dim">;

#endif // ARVR_ATTRS_TD
