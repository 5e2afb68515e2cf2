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
  let cppNamespace = "::mlir::arvr";
}

def Arvr_DimWidth : I32EnumAttrCase<"width", 0>;
def Arvr_DimHeight : I32EnumAttrCase<"height", 1>;
def Arvr_DimChannels : I32EnumAttrCase<"channels", 2>;

def Arvr_Dim : I32EnumAttr<"Dim", "a size of an image",
    [Arvr_DimWidth, Arvr_DimHeight, Arvr_DimChannels]> {
  let cppNamespace = "::mlir::arvr";
}

#endif // ARVR_ATTRS_TD
