//===- ArvrAttrs.td - Attributes of the arvr dialect ------*- tablegen -*-===//
//
// Enumerations carried by arvr ops (how an access treats coordinates
// outside the image, which size of an image `arvr.dim` asks for, ...), and
// the schedule a stage's loop carries once lowered to scf.
//
//===----------------------------------------------------------------------===//

#ifndef ARVR_ATTRS_TD
#define ARVR_ATTRS_TD

include "arvr/Dialect/ArvrDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def Arvr_BoundaryInBounds : I32EnumAttrCase<"in_bounds", 0>;
def Arvr_BoundaryClamp : I32EnumAttrCase<"clamp", 1>;
def Arvr_BoundaryMirror : I32EnumAttrCase<"mirror", 2>;
def Arvr_BoundaryWrap : I32EnumAttrCase<"wrap", 3>;
def Arvr_BoundaryConstant : I32EnumAttrCase<"constant", 4>;

// in_bounds: the access promises to stay inside (outside is undefined).
// clamp:     repeat the edge (aaa|abcd|ddd).
// mirror:    reflect without repeating the edge, OpenCV's BORDER_REFLECT_101
//            (dcb|abcd|cba).
// wrap:      tile the image (bcd|abcd|abc).
// constant:  a fixed value outside (the access's `padding`).
def Arvr_Boundary : I32EnumAttr<"Boundary",
    "how an access treats coordinates outside the image",
    [Arvr_BoundaryInBounds, Arvr_BoundaryClamp, Arvr_BoundaryMirror,
     Arvr_BoundaryWrap, Arvr_BoundaryConstant]> {
  let cppNamespace = "::mlir::arvr";
}

def Arvr_DimWidth : I32EnumAttrCase<"width", 0>;
def Arvr_DimHeight : I32EnumAttrCase<"height", 1>;
def Arvr_DimChannels : I32EnumAttrCase<"channels", 2>;

def Arvr_Dim : I32EnumAttr<"Dim", "a size of an image",
    [Arvr_DimWidth, Arvr_DimHeight, Arvr_DimChannels]> {
  let cppNamespace = "::mlir::arvr";
}

def Arvr_InterpolationNearest : I32EnumAttrCase<"nearest", 0>;
def Arvr_InterpolationBilinear : I32EnumAttrCase<"bilinear", 1>;

def Arvr_Interpolation : I32EnumAttr<"Interpolation",
    "how a sample between pixel centres is computed",
    [Arvr_InterpolationNearest, Arvr_InterpolationBilinear]> {
  let cppNamespace = "::mlir::arvr";
}

def Arvr_ReductionSum : I32EnumAttrCase<"sum", 0>;
def Arvr_ReductionMin : I32EnumAttrCase<"min", 1>;
def Arvr_ReductionMax : I32EnumAttrCase<"max", 2>;
def Arvr_ReductionArgmin : I32EnumAttrCase<"argmin", 3>;
def Arvr_ReductionArgmax : I32EnumAttrCase<"argmax", 4>;
def Arvr_ReductionProduct : I32EnumAttrCase<"product", 5>;

def Arvr_ReductionKind : I32EnumAttr<"ReductionKind",
    "how the values of a reduction combine",
    [Arvr_ReductionSum, Arvr_ReductionMin, Arvr_ReductionMax,
     Arvr_ReductionArgmin, Arvr_ReductionArgmax, Arvr_ReductionProduct]> {
  let cppNamespace = "::mlir::arvr";
}

def Arvr_PlaneY : I32EnumAttrCase<"y", 0>;
def Arvr_PlaneUV : I32EnumAttrCase<"uv", 1>;

def Arvr_Plane : I32EnumAttr<"Plane", "a plane of an NV12 frame",
    [Arvr_PlaneY, Arvr_PlaneUV]> {
  let cppNamespace = "::mlir::arvr";
}

class Arvr_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Arvr_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Arvr_LoopScheduleAttr : Arvr_Attr<"LoopSchedule", "loop"> {
  let summary = "the stage a loop computes and how the GPU maps it";
  let description = [{
    Carried as `arvr.schedule` by the `scf.parallel` over `(y, x)` that
    convert-arvr-to-loops makes of a stage: the stage's name (its kernel is
    named after it), and its schedule, from the stage's `gpu_block`,
    `gpu_pixels` and `gpu_shared`: the thread block (two sizes of at most
    1024 threads in all), the points a thread computes along x (1 to 16),
    and whether the stage lives in its reader's shared memory (then it has
    neither of the others). arvr-map-to-gpu reads it.

    ```mlir
    scf.parallel (%y, %x) = ... {
      ...
    } {arvr.schedule = #arvr.loop<stage = "out" block = [32, 16] pixels = 2>}
    ```
  }];
  let parameters = (ins StringRefParameter<"the stage's name">:$stage,
                        OptionalArrayRefParameter<"int64_t">:$block,
                        OptionalParameter<"std::optional<int64_t>">:$pixels,
                        DefaultValuedParameter<"bool", "false">:$shared);
  let assemblyFormat = [{
    `<` `stage` `=` $stage (`block` `=` `[` $block^ `]`)?
    (`pixels` `=` $pixels^)? (`shared` `=` $shared^)? `>`
  }];
  let genVerifyDecl = 1;
}

#endif // ARVR_ATTRS_TD
