//===- ArvrOps.td - Operations of the arvr dialect --------*- tablegen -*-===//
//
// kernel / return: the function-like container of a kernel.
// stage / yield:   one materialised image, computed point by point.
// access / dim:    reading an image (with its boundary handling) and its sizes.
// plane:           an image of an NV12 frame's planes.
//
//===----------------------------------------------------------------------===//

#ifndef ARVR_OPS_TD
#define ARVR_OPS_TD

include "arvr/Dialect/ArvrDialect.td"
include "arvr/Dialect/ArvrTypes.td"
include "arvr/Dialect/ArvrAttrs.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

def Arvr_KernelOp : Arvr_Op<"kernel", [
    FunctionOpInterface, IsolatedFromAbove,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>]> {
  let summary = "an image kernel: images and scalars in, images out";
  let description = [{
    A kernel is a symbol whose arguments are its parameters (images and
    scalars, in source order) and whose results are its output images. Its
    body computes the outputs with `arvr.stage` ops and ends in
    `arvr.return`. Each argument may carry `arvr.name`, its name in the
    `.arvr` source. `auto_schedule` marks a kernel written without a
    `schedule` block, whose schedule the compiler chooses
    (`arvr-auto-schedule`).

    ```mlir
    arvr.kernel @invert(%src: !arvr.image<ui8, ?>) -> !arvr.image<ui8, ?> {
      %w = arvr.dim %src width : !arvr.image<ui8, ?>
      %h = arvr.dim %src height : !arvr.image<ui8, ?>
      %c = arvr.dim %src channels : !arvr.image<ui8, ?>
      %out = arvr.stage "out" [%w, %h, %c] : !arvr.image<ui8, ?> {
      ^bb0(%x: index, %y: index, %ch: index):
        %v = arvr.access %src[%x, %y, %ch] in_bounds : !arvr.image<ui8, ?>
        %m = arith.constant -1 : i8
        %r = arith.xori %v, %m : i8
        arvr.yield %r : i8
      }
      arvr.return %out : !arvr.image<ui8, ?>
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs,
                       UnitAttr:$auto_schedule);
  let regions = (region AnyRegion:$body);
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name,
                                 "::mlir::FunctionType":$type)>];
  let extraClassDeclaration = [{
    //===------------------------------------------------------------------===//
    // FunctionOpInterface Methods
    //===------------------------------------------------------------------===//
    /// Returns the argument types of this kernel.
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    /// Returns the result types of this kernel.
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
    ::mlir::Region *getCallableRegion() { return &getBody(); }
  }];
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
}

def Arvr_ReturnOp : Arvr_Op<"return", [Pure, HasParent<"KernelOp">,
                                       ReturnLike, Terminator]> {
  let summary = "the output images of a kernel";
  let description = [{
    Ends an `arvr.kernel`; its operands are the kernel's outputs, in order,
    and their types must be the kernel's result types.

    ```mlir
    arvr.return %out : !arvr.image<ui8, 3>
    ```
  }];
  let arguments = (ins Variadic<Arvr_ImageType>:$images);
  let assemblyFormat = "($images^ `:` qualified(type($images)))? attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// StageOp
//===----------------------------------------------------------------------===//

def Arvr_StageOp : Arvr_Op<"stage", [RecursiveMemoryEffects,
                                     RecursivelySpeculatable,
                                     AttrSizedOperandSegments]> {
  let summary = "an image defined point by point";
  let description = [{
    Defines an image point by point. The region computes the element at one
    point: its entry block takes the coordinates `(x, y, c)` as `index`
    values and ends in `arvr.yield` of one element of the result's scalar
    type. The region is pure: it reads images only through `arvr.access`,
    so points can be computed in any order. `name` is the `func` of the
    `.arvr` source the stage came from.

    The stage computes the window of `sizes` (width, height, channels)
    whose first point is `origin` (x0, y0, c0; zero when absent). A stage
    the kernel returns writes its window into the output image at the
    window's place; any other stage keeps its window in a buffer of its own,
    and reads of it (`arvr.access ... in_bounds`) use the same coordinates as
    the region. A stage without sizes has its window inferred from its
    readers by `arvr-infer-bounds`; a returned stage always has sizes.
    `gpu_block` is the GPU thread block (x, y) the stage is computed with,
    and `gpu_pixels` the number of points each GPU thread computes along x
    (1 to 16; one when absent), spaced by the block's width so that a warp's
    accesses stay together.
    `gpu_shared` (only on a stage that is not returned, without a
    `gpu_block`) asks that on the GPU the stage be computed by each thread
    block of its one reader, over that block's tile and halo, in shared
    memory; other targets compute it like any intermediate stage.
    `inline` (a function the schedule leaves inline, the default) marks a
    stage that is never materialised: `arvr-inline-stages` replaces each
    read of it by a copy of its region at the read's coordinates. An inline
    stage has no sizes, origin or GPU schedule, is not returned, and is read
    only by `arvr.access ... in_bounds`.
    ```mlir
    %out = arvr.stage "out" [%w, %h, %c] : !arvr.image<ui8, ?> {
    ^bb0(%x: index, %y: index, %ch: index):
      %v = arvr.access %src[%x, %y, %ch] clamp : !arvr.image<ui8, ?>
      arvr.yield %v : i8
    }
    %t = arvr.stage "blur_x" [%w, %h2, %c] at [%zero, %y0, %zero]
        gpu_block [64, 4] gpu_pixels 2 : !arvr.image<f32, ?> {
    ^bb0(%x: index, %y: index, %ch: index):
      %f = arith.constant 1.0 : f32
      arvr.yield %f : f32
    }
    %wt = arvr.stage "weight" inline : !arvr.image<f32, 1> {
    ^bb0(%i: index, %y: index, %ch: index):
      %f = arith.index_cast %i : index to i32
      %g = arith.sitofp %f : i32 to f32
      arvr.yield %g : f32
    }
    ```
  }];
  let arguments = (ins StrAttr:$name, Variadic<Index>:$sizes,
                       Variadic<Index>:$origin,
                       OptionalAttr<DenseI64ArrayAttr>:$gpu_block,
                       OptionalAttr<I64Attr>:$gpu_pixels,
                       UnitAttr:$gpu_shared, UnitAttr:$inlined);
  let results = (outs Arvr_ImageType:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $name (` ` `[` $sizes^ `]`)? (`at` ` ` `[` $origin^ `]`)?
    (`gpu_block` $gpu_block^)? (`gpu_pixels` $gpu_pixels^)?
    (`gpu_shared` $gpu_shared^)? (`inline` $inlined^)? attr-dict `:`
    qualified(type($result))
    $body
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Type":$type, "::llvm::StringRef":$name,
                   "::mlir::Value":$width, "::mlir::Value":$height,
                   "::mlir::Value":$channels), [{
      build($_builder, $_state, type, name,
            ::mlir::ValueRange{width, height, channels}, ::mlir::ValueRange{},
            ::mlir::DenseI64ArrayAttr(), ::mlir::IntegerAttr(), false,
            false);
    }]>,
    OpBuilder<(ins "::mlir::Type":$type, "::llvm::StringRef":$name), [{
      build($_builder, $_state, type, name, ::mlir::ValueRange{},
            ::mlir::ValueRange{}, ::mlir::DenseI64ArrayAttr(),
            ::mlir::IntegerAttr(), false, false);
    }]>];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The coordinates (x, y, c) of the point being computed.
    ::mlir::BlockArgument getX() { return getBody().getArgument(0); }
    ::mlir::BlockArgument getY() { return getBody().getArgument(1); }
    ::mlir::BlockArgument getC() { return getBody().getArgument(2); }
    /// Whether the window is known (else arvr-infer-bounds finds it).
    bool hasSizes() { return !getSizes().empty(); }
    /// The window's sizes; only when hasSizes().
    ::mlir::Value getWidth() { return getSizes()[0]; }
    ::mlir::Value getHeight() { return getSizes()[1]; }
    ::mlir::Value getChannels() { return getSizes()[2]; }
    /// Whether an arvr.return uses this stage (it writes a kernel output).
    bool isOutput();
  }];
}

def Arvr_YieldOp : Arvr_Op<"yield", [Pure,
    ParentOneOf<["StageOp", "ReduceOp"]>, ReturnLike, Terminator]> {
  let summary = "the value of a stage at one point, or of a reduction term";
  let description = [{
    Ends the region of an `arvr.stage` with the element computed there (of
    the stage image's scalar type), or the region of an `arvr.reduce` with
    one term of the reduction (of the reduction's result type).

    ```mlir
    arvr.yield %v : i8
    ```
  }];
  let arguments = (ins AnyType:$value);
  let assemblyFormat = "$value attr-dict `:` type($value)";
  let hasVerifier = 1;
}

def Arvr_ReduceOp : Arvr_Op<"reduce", [RecursiveMemoryEffects,
                                       RecursivelySpeculatable]> {
  let summary = "a bounded reduction (sum, product, min, max, argmin, "
                "argmax) over a range";
  let description = [{
    Combines the values its region yields for each integer `i` from `lower`
    to `upper`, both included: their sum, product (from the first term to
    the last), minimum or maximum, or the first
    `i` whose value is the smallest (argmin) or the largest (argmax). The
    region takes `i` (an `i32`) and ends in `arvr.yield` of the result's
    type (for argmin and argmax, of any number type; the result is the
    `i32` index). An empty range (`upper < lower`) gives the identity of
    the combination (0, 1, the largest value, the smallest value), or `lower`
    for argmin and argmax. `unroll` (from a
    schedule's `f.unroll(n)`) asks that the loop of the reduction be
    unrolled n times; the terms are combined in the same order, so the
    result is the same.

    ```mlir
    %s = arvr.reduce sum %lo to %hi unroll 4 : f32 {
    ^bb0(%i: i32):
      %f = arith.sitofp %i : i32 to f32
      arvr.yield %f : f32
    }
    ```
  }];
  let arguments = (ins Arvr_ReductionKind:$kind, I32:$lower, I32:$upper,
                       OptionalAttr<I64Attr>:$unroll);
  let results = (outs AnyTypeOf<[I32, F32]>:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $kind $lower `to` $upper (`unroll` $unroll^)? attr-dict `:` type($result)
    $body
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The most terms the full unrolling of a nest of reductions may
    /// copy: a reduction is unrolled completely when its range is known
    /// when compiling, it has no `unroll` of its own, and its count times
    /// the terms its body copies (1, or the sum of the unrolled sizes of
    /// the reductions nested in it that read its index or other values of
    /// its body: one that does not is the same in every copy) is at most
    /// this.
    static constexpr int64_t kFullUnrollBudget = 16;
    /// Whether it gives an index (argmin, argmax), not a combined value.
    bool isArg() {
      return getKind() == ReductionKind::argmin ||
             getKind() == ReductionKind::argmax;
    }
    /// The number of terms to unroll this reduction completely into, or
    /// nothing (a loop, or `unroll`'s partial unrolling).
    std::optional<int64_t> getFullUnroll();
    /// The terms a copy of this reduction puts in its parent: its full
    /// unrolling's, or 1 (a loop).
    int64_t getUnrolledTerms();
  }];
}

//===----------------------------------------------------------------------===//
// AccessOp, DimOp
//===----------------------------------------------------------------------===//

def Arvr_AccessOp : Arvr_Op<"access", [Pure,
    TypesMatchWith<"result is the image's scalar type", "image", "result",
                   "::mlir::cast<::mlir::arvr::ImageType>($_self).getScalarType()">]> {
  let summary = "read one element of an image";
  let description = [{
    Reads the element at `(x, y, c)` of `image`. `boundary` says what a
    coordinate outside the image means: `in_bounds` promises it never is
    (reading outside is undefined), `clamp` repeats the edge element,
    `mirror` reflects without repeating the edge (OpenCV's
    BORDER_REFLECT_101), `wrap` tiles the image, and `constant` reads
    `padding` (an attribute of the result's type, required for `constant`
    only). The result is the image's signless scalar type (`i8` for `ui8`).

    A read of a stage whose every point is the same value (a constant, or
    a value computed before the stage) folds to that value, unless the
    boundary is `constant`, which may read the padding instead.

    ```mlir
    %v = arvr.access %src[%x, %y, %c] clamp : !arvr.image<ui8, 3>
    %w = arvr.access %src[%x, %y, %c] constant(0 : i8) : !arvr.image<ui8, 3>
    ```
  }];
  let arguments = (ins Arvr_ImageType:$image, Index:$x, Index:$y, Index:$c,
                       Arvr_Boundary:$boundary,
                       OptionalAttr<TypedAttrInterface>:$padding);
  let results = (outs AnyTypeOf<[I8, I16, I32, F32]>:$result);
  let assemblyFormat = [{
    $image `[` $x `,` $y `,` $c `]` $boundary (`(` $padding^ `)`)? attr-dict
    `:` qualified(type($image))
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$image, "::mlir::Value":$x,
                   "::mlir::Value":$y, "::mlir::Value":$c,
                   "::mlir::arvr::Boundary":$boundary,
                   CArg<"::mlir::TypedAttr", "{}">:$padding), [{
      build($_builder, $_state,
            ::mlir::cast<ImageType>(image.getType()).getScalarType(), image,
            x, y, c, boundary, padding);
    }]>];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Arvr_SampleOp : Arvr_Op<"sample", [Pure]> {
  let summary = "read an image between pixel centres";
  let description = [{
    Reads channel `c` of `image` at the real coordinates `(u, v)`, pixel
    centres being at integers (OpenCV's `remap` convention), and returns it
    as `f32`. `nearest` reads the pixel whose centre is nearest (ties to
    even); `bilinear` weighs the four pixels around `(u, v)`. Pixels outside
    the image are read with `boundary` (and `padding` for `constant`), as
    `arvr.access` does; `in_bounds` is not allowed, since a sample may
    always reach outside.

    ```mlir
    %s = arvr.sample %src[%u, %v, %c] bilinear constant(0 : i8) : !arvr.image<ui8, 3>
    ```
  }];
  let arguments = (ins Arvr_ImageType:$image, F32:$u, F32:$v, Index:$c,
                       Arvr_Interpolation:$interpolation,
                       Arvr_Boundary:$boundary,
                       OptionalAttr<TypedAttrInterface>:$padding);
  let results = (outs F32:$result);
  let assemblyFormat = [{
    $image `[` $u `,` $v `,` $c `]` $interpolation $boundary
    (`(` $padding^ `)`)? attr-dict `:` qualified(type($image))
  }];
  let hasVerifier = 1;
}

def Arvr_PlaneOp : Arvr_Op<"plane", [Pure]> {
  let summary = "one plane of an NV12 frame, as an image";
  let description = [{
    The `y` plane (W x H luma bytes, `!arvr.image<ui8, 1>`) or the `uv`
    plane (ceil(W/2) x ceil(H/2) interleaved U and V bytes,
    `!arvr.image<ui8, 2>`) of an NV12 frame, to read with `arvr.access`
    and size with `arvr.dim`.

    ```mlir
    %y = arvr.plane %frame y : !arvr.image<ui8, 1>
    %uv = arvr.plane %frame uv : !arvr.image<ui8, 2>
    ```
  }];
  let arguments = (ins Arvr_NV12Type:$frame, Arvr_Plane:$plane);
  let results = (outs Arvr_ImageType:$result);
  let assemblyFormat = "$frame $plane attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

def Arvr_DimOp : Arvr_Op<"dim", [Pure]> {
  let summary = "the width, height or channel count of an image";
  let description = [{
    Returns one size of an image as an `index`. The channel count of an
    image with static channels folds to a constant, and a size of a stage's
    image to the size the stage was defined with.

    ```mlir
    %w = arvr.dim %src width : !arvr.image<ui8, 3>
    ```
  }];
  let arguments = (ins Arvr_ImageType:$image, Arvr_Dim:$dim);
  let results = (outs Index:$result);
  let assemblyFormat = "$image $dim attr-dict `:` qualified(type($image))";
  let builders = [
    OpBuilder<(ins "::mlir::Value":$image, "::mlir::arvr::Dim":$dim), [{
      build($_builder, $_state, $_builder.getIndexType(), image, dim);
    }]>];
  let hasFolder = 1;
}

#endif // ARVR_OPS_TD
