//===- Passes.td - arvr lowering passes -------------------*- tablegen -*-===//
//
// The passes that take an arvr kernel down to loops and onto the GPU.
//
//===----------------------------------------------------------------------===//

#ifndef ARVR_LOWERING_PASSES_TD
#define ARVR_LOWERING_PASSES_TD

include "mlir/Pass/PassBase.td"

def ArvrAutoSchedule : Pass<"arvr-auto-schedule", "::mlir::ModuleOp"> {
  let summary = "Choose the schedule of a kernel written without one";
  let description = [{
    For a kernel marked `auto_schedule` (its source has no `schedule`
    block): an `inline` stage of at most one coordinate (uses neither `y`
    nor `c`) that reads no image but such stages, depends on a scalar
    parameter of the kernel (one of constants alone folds inline) and
    costs something (a reduction, a `math` op, a read of such a stage),
    read only at coordinates built from constants and reduction variables
    by sums and differences, is computed at the root (a table, or a single
    value, once per run). Then an `inline` stage of `(x, y)` (its body
    uses both) making at least five reads a point (each read counts the
    terms of the reductions around it; one of unknown length counts as
    five), read by one
    stored stage only, at that stage's `x` and `y` plus offsets known when
    compiling (constants and reduction variables whose bounds are sums of
    constants; at most 16 on each side) spanning at least three points,
    and at its `c` or a constant, becomes `gpu_shared` (computed in its
    reader's tiles on the GPU, at the root on the CPU); its reader,
    without a `gpu_block`, gets 32 x 4 threads. Values never change; other
    kernels are left as they are. Runs in the dialect pipeline after
    `arvr-specialize`, so that known values are constants.
  }];
}

def ArvrInlineStages : Pass<"arvr-inline-stages", "::mlir::ModuleOp"> {
  let summary = "Replace each read of an inline stage by its computation";
  let description = [{
    Each read (`arvr.access ... in_bounds`) of a stage marked `inline` (a
    function the schedule does not compute at the root) becomes a copy of
    the stage's region, its coordinates `(x, y, c)` being the read's, and
    the stage is erased. The copied ops keep their locations, in the
    function they were written in. Stages are inlined in program order, so
    an inline stage that reads another is copied once that one is inlined
    into it. Runs in both pipelines after `arvr-auto-schedule`.
  }];
}

def ArvrSpecialize : Pass<"arvr-specialize", "::mlir::ModuleOp"> {
  let summary = "Make known parameters constants; inline constant stages";
  let description = [{
    Each `name=value` of `values` makes a scalar parameter a constant
    (`sigma=2.0`, `radius=4`, `flip=true`), or the channel count of an image
    parameter one (`src.channels=3`: every `arvr.dim` of its channels, and
    the image's type, whose memref then has constant strides). The
    kernel keeps its signature; the specialised scalar's argument is no
    longer read. A name no kernel has, a value that does not parse as the
    parameter's type, or a channel count outside 1 to 4 or other than the
    image type's is an error.

    Then, with or without values, a stage computed at the root whose value
    depends only on its coordinates and constants (no image, no parameter,
    only other such stages), read only at coordinates known once
    reductions over constant ranges are unrolled completely (within
    `arvr.reduce`'s budget of 16 terms for a whole nest),
    becomes `inline`: copied into its readers by `arvr-inline-stages`, it
    folds to constants there instead of being computed by a launch of its
    own. Runs first in the dialect pipeline.
  }];
  let options = [
    ListOption<"values", "values", "std::string",
               "name=value pairs: scalar parameters, or image.channels">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def ArvrCheckBounds : Pass<"arvr-check-bounds", "::mlir::ModuleOp"> {
  let summary = "Prove that every read without boundary stays inside; drop boundary modes proved idle";
  let description = [{
    An `arvr.access ... in_bounds` of a kernel's image (an argument, or a
    plane of an NV12 frame) promises to stay inside the image. This pass
    proves it, or reports the read as an error at its location, naming the
    image and the coordinate, with a note saying how far the coordinate may
    go in the source's names (`src.width`, `(frame.width + 1) / 2`).

    The ranges come from the compiler's one bounds analysis
    (lowering/lib/Utils/Ranges.h, which `arvr-infer-bounds` and the
    interior versions use too), its ends affine forms of the kernel's
    sizes: each coordinate ranges over the window of the stage reading
    (from its origin to origin + size - 1; for a stage without sizes, the
    union of what its readers read, stages being visited from the last),
    reduction variables over `lower` to `upper`, a byte or u16 value over
    its type, and the analysis' rules combine ranges (+, -, multiplication
    and floor division by constants, remainders, min, max, abs, select).
    An image's width, height and channel count are at least 1, and the UV
    plane of a frame of width W is ceil(W / 2) wide. A read is in range
    when `0 <= low` and `high <= size - 1` hold for every value of the
    sizes, with `floor(a / k)` bounded by `(a - k + 1) / k` and `a / k`, or
    below by the least integer it can be. An end of a range that min, max,
    select or a union leave undecided keeps its candidates side by side.
    Samples and reads of stages without sizes are in range by definition.
    A read with a boundary mode is proved the same way, and where it is
    inside (a stage read at its reader's own point over a window of the
    same size: a pyramid level stored as an output) it becomes `in_bounds`,
    its boundary handling never emitted; where it is not, it keeps its
    mode, and nothing is reported. Run after `arvr-inline-stages` and
    canonicalisation, before `arvr-split-planes`.
  }];
}

def ConvertArvrToLoops : Pass<"convert-arvr-to-loops", "::mlir::ModuleOp"> {
  let summary = "Lower arvr kernels to scf.parallel loops over memrefs";
  let description = [{
    Each `arvr.kernel` becomes a `func.func` of the same name taking its
    images as `memref<height x width x channels x T>` (row-major, channels
    innermost), its scalars as they are, and then one memref per output
    (destination-passing style). Each stage becomes an `scf.parallel`
    over the `(y, x)` of its window, from 0, with a sequential `scf.for` over
    channels (or, for 1 to 4 channels known at compile time, the channels'
    computations one after the other, then their stores, so that what they
    share is computed once), storing the value its region yields: a returned stage into
    its output at the window's place, any other into a `memref.alloc` of
    its window's size (freed before the function returns), read back at
    `coordinate - origin`. The loop carries the stage's name and GPU
    schedule as `arvr.schedule = #arvr.loop<stage = "name" block = [x, y]
    pixels = n shared = true>` (a typed attribute the dialect verifies);
    accesses become `memref.load`s after their
    boundary handling, as index arithmetic (clamp: `max(0, min(i, size -
    1))`; wrap: `i mod size`; mirror: reflect-101 with period `2 size - 2`;
    constant: a select between the clamped load and the padding). Samples
    become one (nearest, ties to even) or four (bilinear) such loads,
    weighed in f32; under a boundary, the four are read as they are when
    all are inside, a test expected true (`llvm.intr.expect`). Reductions
    become `scf.for` loops carrying their
    accumulator. The function is marked `llvm.emit_c_interface` for the CPU
    runner.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect"];
}

def ArvrMapToGPU : Pass<"arvr-map-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Map the outermost 2-D scf.parallel loops onto gpu.launch";
  let description = [{
    Replaces every outermost `scf.parallel` over `(y, x)` in a `func.func`
    with a `gpu.launch` of 2-D blocks of `block-x` x `block-y` threads and a
    grid covering the loop's range: thread `(tx, ty)` of block `(bx, by)`
    computes the iterations `x = bx * block-x + tx`,
    `y = (by * block-y + ty) * rows-per-thread + r` for
    `r < rows-per-thread`, each when it lies inside the range (a guard
    marked `arvr.boundary`); with `columns-per-thread = n`, x becomes
    `bx * block-x * n + tx * n + k` for `k < n`, a run of consecutive
    points. A thread's points are a nest of `scf.for` loops over its rows,
    its runs and a run's points (those of more than one iteration), each
    marked `arvr.thread_points`, around one copy of the loop's body:
    `arvr-specialize-interior` unrolls them in its interior versions and
    leaves a nest of at least 16 points a loop in its border versions.
    By default (0) the run is chosen per loop from what it stores
    and what its body costs: enough points for the bytes a thread stores
    per row to be whole 16-byte vectors (16 points of 3- or 1-byte pixels)
    while the body's ops times the thread's points stay within 2560;
    otherwise whole 4-byte words (4 points of 3-byte pixels) within 2048;
    otherwise, or where the body has a loop (a reduction not unrolled) or
    a stored image's channel count is not known, one.
    A loop without a `gpu_tile` whose run is longer than 4 gets a
    block of `256 / n` by `128 n / 256` threads (128 threads, a tile 256
    points wide: 16 x 8 threads for runs of 16), so that a warp's wide
    accesses cover long stretches of few rows. `arvr-wide-access` merges the run's reads and writes.
    The innermost loop dimension goes to `threadIdx.x`, so neighbouring threads touch neighbouring pixels, and
    a thread's consecutive rows share what they read in common (a chroma
    row, a stencil's rows) once the guards are gone in interior blocks. A
    loop whose `arvr.schedule` (`#arvr.loop`) has a `block` (a `gpu_tile`
    of the schedule) uses that block instead, and `pixels = n` gives each
    thread n points along x, a block's width apart. A stage whose schedule
    says `shared = true` is fused into its one
    reader: each block computes the stage's tile and halo into dynamic
    shared memory in runs of 4 consecutive points (where a row's runs are
    a number R known when compiling and at most the block's threads, each
    thread keeps run column `t % R` and steps down the rows from `t / R`;
    otherwise the runs are dealt out to the threads in turn), waits at a
    barrier, then computes its tile of the
    reader, `shared-rows-per-thread` consecutive rows per thread, or more
    (up to 16) where the stage's halo of rows (taken as 8 where it is not
    known when compiling) would otherwise be more than an eighth of the
    tile (a block of 32 x 8 threads under a halo of 8: 8 rows each). Shared
    stages may chain: a shared stage read by another is computed first,
    over that one's tile and halo, each tile followed by a barrier, all in
    the last one's reader's launch. The tiles lie one after the other in
    dynamic shared memory, each at a multiple of 16 bytes, a tile of bytes
    with rows of a multiple of 4 elements; where a halo is fixed (an image
    size plus a constant), tile sizes are constants. A tile's channels are
    interleaved as in the image where their count is known when
    compiling; otherwise the tile is planar (channel, row, column), so that
    its rows are a fixed number of elements apart and a thread's
    consecutive rows load at constant offsets from one address.
    Before any of this, scf.for loops of one iteration are inlined and
    constants folded (scf.for's canonical patterns, not scf.parallel's: a
    stage of one row stays a loop), so that the bodies copied for a
    thread's points, and the counts of ops above, are those the
    canonicaliser would leave.
    Marks the module as a `gpu.container_module`.
  }];
  let options = [
    Option<"blockX", "block-x", "int64_t", "32", "threads per block along x">,
    Option<"blockY", "block-y", "int64_t", "8", "threads per block along y">,
    Option<"rowsPerThread", "rows-per-thread", "int64_t", "2",
           "consecutive rows each thread computes">,
    Option<"sharedRowsPerThread", "shared-rows-per-thread", "int64_t", "4",
           "consecutive rows (at least) each thread of a shared stage's reader computes">,
    Option<"columnsPerThread", "columns-per-thread", "int64_t", "0",
           "consecutive points along x each thread computes (0: chosen per "
           "loop, see above)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::scf::SCFDialect"];
}

def ArvrGpuBlockProofs : Pass<"arvr-gpu-block-proofs", "::mlir::ModuleOp"> {
  let summary = "Prove a launch's sample tests per block, in a launch before it";
  let description = [{
    A bilinear sample's inside test (`scf.if` on `llvm.intr.expect(%c,
    true)`, from `convert-arvr-to-loops`) on coordinates computed from
    floats cannot be proved by `arvr-specialize-interior`'s integer ranges,
    and interval arithmetic over a block's points costs more than the
    block's work. For each `gpu.launch` (grid z 1) whose every such test
    can be bounded from block ids, thread ids over the block size, loop
    variables over their ranges and values from above, a launch before it
    evaluates, one thread for each of its blocks, the condition under which
    all of them hold at every point of that block (f32 interval arithmetic
    in the points' own rounding, lowering/lib/Utils/FloatIntervals.h, over
    the integer ranges of InteriorBounds.h), and stores it as a byte in a
    table `memref<1x?x?xi8>` (grid y by grid x), allocated before and freed
    after. The kernel loads its block's byte (marked `arvr.block_proof`, a
    value fixed over the block for `arvr-specialize-interior`) and each
    test becomes `byte != 0 || test`, its `scf.if` marked `arvr.boundary`:
    the interior version, in blocks whose byte is set, reads without the
    tests. Values do not change. The table is one row high: under
    `arvr-batch-frames` the proof launch is frame-free, its copies for
    frames after the first returning at once.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def ArvrSpecializeInterior
    : Pass<"arvr-specialize-interior", "::mlir::ModuleOp"> {
  let summary = "Give each launch a version for blocks without boundary work";
  let description = [{
    Boundary handling is marked `arvr.boundary` where it is generated: the
    clamp of an index (`maxsi(minsi(i, hi), lo)`), the `scf.if` testing an
    index against its dimension before a mirror or wrap, the `arith.select`
    of the padding, and the `scf.if` guarding a thread's point against the
    loop's range. For each `gpu.launch`, the pass bounds the integers these
    ops test over one block, with values computed once at the start of the
    block: block ids, grid and block sizes and values from above the launch
    are fixed, a thread id ranges over `[0, block size - 1]`, the variable
    of an `scf.for` with a positive constant step over
    `[lower, upper - 1]`, and the rules of the compiler's one bounds
    analysis (lowering/lib/Utils/Ranges.h, which `arvr-infer-bounds` and
    `arvr-check-bounds` use too) combine ranges: `+`, `-`, products,
    division by a positive constant, remainders, unsigned division by a
    value fixed for the block (only where its dividend is `>= 0`, which the
    block's condition then checks), `min`, `max`, `abs`, `select`, casts,
    and a byte or u16 value is within its type.
    The body becomes `scf.if (every provable test holds over the block)
    {the body, each proved op replaced by its value inside} else {the body
    as it was}`, the `scf.if` marked `arvr.interior`. Signed divisions and remainders by a positive constant of
    a value bounded below by `0` over the block (a coordinate's `x / 2`)
    become unsigned ones there too (a shift or a mask for a power of two),
    the bound's test joining the condition. In a launch without a barrier,
    thread ids are fixed too and each thread tests its own points, so that
    the threads of a block the image's edge cuts through that are inside
    run the interior version (a thread's values followed through integer
    arithmetic only: a test of a coordinate computed from floats stays in
    both versions). In a launch whose barriers are all ops of its body
    itself (shared stages' tiles, each followed by one), each phase between
    barriers is versioned on its own, per thread, the barriers outside the
    versions: a block at the image's edge runs the interior version of the
    phases that need no boundary work there (a stencil's input staged with
    mirrored rows, then passes over the staged tiles), the threads of a
    partial tile inside it too. The leading pure ops of a phase (views,
    index arithmetic) stay before its versions, shared by both; a phase
    whose values a later phase uses, or a barrier nested in another op,
    makes the whole body one versioned region, its condition the same for
    the block (no divergence around a barrier).
    Values do not change. Marked ops
    whose operands escape the arithmetic (a coordinate computed from
    floats) stay in both versions. Then the loops over a thread's points
    (`arvr.thread_points`, from `arvr-map-to-gpu`) are unrolled, inner
    first, but a nest of at least 16 points in a border version: there one
    copy of the body and its boundary handling serves all of a thread's
    points (NV12's 32 points a thread: its kernel's PTX 2109 -> 915
    lines), while in the interior the points' copies share their reads
    (`arvr-reuse-loads`, `arvr-wide-access`). A border loop over fewer
    points saves little code, and the lens's 4, pyr_down's 2 and 8 ran
    1.3-1.4% slower with one. The marks are removed. Run after
    `arvr-map-to-gpu` and canonicalisation, before outlining.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def ArvrGpuStageSamples : Pass<"arvr-gpu-stage-samples", "::mlir::ModuleOp"> {
  let summary = "Stage a proved block's sample box in shared memory";
  let description = [{
    Where `arvr-gpu-block-proofs` stored, beside a block's proof, the box of
    the places its likely branches read in one image of bytes (the kernel
    loads its ends, marked `arvr.block_box`; the reads are marked
    `arvr.boxed`), each block whose proof is set and whose box, its rows
    padded to 16 bytes, fits 8 KB copies the box into its dynamic shared
    memory (tile rows of 512 bytes, at most 16; each thread issues all its
    16-byte loads before its stores where the image's rows start 16-byte
    aligned, a byte at a time otherwise) and synchronises; the interior
    version's marked reads then read the tile, at 32-bit offsets of a base
    fixed for the block, a tap's next row at a constant offset, and the
    interior version runs only in blocks that staged (the others take the
    border version). Values do not change. A launch already using dynamic
    shared memory, or whose blocks are not whole warps sharing the tile's
    rows evenly, is left as it is. Runs after `arvr-specialize-interior`.
    An experiment, in the CUDA pipeline only with `arvrc build
    --stage-samples`: slower than without on an H100 (lens 4K batch 8
    47.1-51.5 us against 44.9, 2026-12-07 16:04; the copy and barrier
    cost more than the shared-memory taps save).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def ArvrReuseLoads : Pass<"arvr-reuse-loads"> {
  let summary = "Read a value once where a thread reads it twice";
  let description = [{
    Within a block, a `memref.load` of the same memref as an earlier load,
    at indices that are the same linear forms (sums of values times
    constants plus a constant, through index casts, additions,
    subtractions and products by constants: `y0 + 1 + j` and
    `(y0 + 4 + j - 3) - r0 + r0` alike), takes
    the earlier load's value when nothing between them may write that
    memref. An op of unknown effects or a `gpu.barrier` may write
    anything; a write may change a memref in the same address space that
    is a view of the same buffer, or any memref when either is not a
    function's argument or an allocation. Distinct kernel arguments and
    allocations never overlap (the runner gives each image and stage a
    buffer of its own, as `arvr-kernel-arg-aliasing` also relies on), and
    memory in different address spaces (workgroup and global) is distinct.

    The vertical pass of a separable stencil, computing several rows per
    thread from a horizontal pass in shared memory, so reads each row once
    (4 rows of a 9-tap column: 12 reads, not 36), across the stores of its
    output between points.
  }];
}

def ArvrMergeLikelyBranches
    : Pass<"arvr-merge-likely-branches", "::mlir::ModuleOp"> {
  let summary = "A run of branches expected taken, behind one test";
  let description = [{
    In each block of a `gpu.launch`, a run of `scf.if` ops on tests expected
    true (`llvm.intr.expect %c, true`: a bilinear sample's "all four pixels
    inside"), with else branches, branches that at most read memory, and no
    write to memory between them, becomes one `scf.if` on the conjunction
    of their tests (expected true): its then branch is their then
    branches one after the other, its else branch the original ifs. The
    later ifs' tests and what their branches use are computed before the
    first (an if whose test depends on an earlier one's results ends the
    run); at most 4 ifs a run (a pixel's channels). A lens point's three
    samples then take one divergent branch, not three, and their reads
    share a basic block. Values do not change. Run after
    `convert-arvr-to-loops` and `arvr-map-to-gpu`.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def ArvrGpuSaturatingFma : Pass<"arvr-gpu-saturating-fma", "::mlir::ModuleOp"> {
  let summary = "u8_sat as a saturating FMA and a min, without a conversion";
  let description = [{
    In each `gpu.launch`, u8_sat's chain `fptoui(roundeven(minnumf(maxnumf(x,
    0), 255)))` to i8, with at least one of its clamps left, becomes
    `min(bits(fma.rn.sat(x, 2^-149, 0)), 255)` to i8
    (`llvm.nvvm.fma.rn.sat.f`): below 2^23, x times f32's least subnormal
    rounds to nearest even onto the subnormal whose bits are roundeven(x);
    above, the bits exceed 255; negatives, NaN and a product rounding to -0
    saturate to +0. The same byte for every f32 (all 2^32 checked on an
    H100: bench/probes/saturating_fma_check.cu), for an FMA and an integer
    `min` instead of a conversion on the GPU's narrow conversion pipe and a
    `min`. With the clamp at 255 gone (x below 255.5 or NaN) the bits are at
    most 255 and the `min` goes too, for an integer move (`mov.b32`, which
    ptxas removes; a byte store of the FMA's own register it compiles as a
    conversion of the float's value). A rounding converted with both clamps
    gone (one conversion) is left. Run after `arvr-redundant-clamps`, and after the passes that move
    ops across others (`arvr-merge-likely-branches`,
    `arvr-sink-guarded-stores`): the FMA is an `llvm.call_intrinsic`,
    which they take for a write.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def ArvrSinkGuardedStores : Pass<"arvr-sink-guarded-stores", "::mlir::ModuleOp"> {
  let summary = "Issue a thread's loads before its stores behind control flow";
  let description = [{
    In each block of a `gpu.launch`, an op that holds regions and writes
    memory (the `scf.if` of `arvr-stage-stores` choosing between a warp's
    exchange through shared memory and direct stores) moves down past the
    ops after it until one conflicts with it: one that reads or writes
    memory it writes or writes memory it reads (different address spaces,
    distinct kernel arguments and allocations never overlap), one with
    another memory effect or a synchronisation, one that uses its results,
    or the block's end. Warp synchronisations inside it are allowed. A
    thread's next point's loads then no longer wait behind the previous
    point's stores, which ended a basic block. Values do not change. Run
    after `arvr-stage-stores`.
  }];
}

def ArvrCompactBorders : Pass<"arvr-compact-borders", "::mlir::ModuleOp"> {
  let summary = "Compute what border loops repeat once, before them";
  let description = [{
    In the border version of each `gpu.launch` (the else branch of the
    `scf.if` that `arvr-specialize-interior` marks `arvr.interior`), ops
    without memory effects, their regions' ops included, move out of each
    `scf.for` that runs at least once (static trip count >= 1) when their
    operands are defined outside it, even if not speculatable (a mirror's
    `scf.if` with its remainder, which MLIR's loop-invariant code motion
    leaves): a tap column's mirrored coordinate is computed once, not once
    per tap row, and the CSE after it merges the copies of a point's
    channels. pyr_down's level kernels: 65 -> 45 branches, 4K batch 8
    53.59 -> 51.48 us, 1080p batch 1 35.87 -> 33.74 (H100). The interior
    version is untouched. Values do not change. Run after
    `arvr-specialize-interior` and the passes that work on its versions,
    before CSE.
  }];
}

def ArvrHoistUniform : Pass<"arvr-hoist-uniform", "::mlir::ModuleOp"> {
  let summary = "Compute what is the same for every thread once per thread";
  let description = [{
    In each `gpu.launch`, operations computed from the kernel's parameters
    alone (values defined outside the launch, constants, and what is
    computed from them: a rotation's sines and cosines, a focal length's
    reciprocal) move to the top of the launch body, out of the guards and
    per-point copies they sit in, and CSE then keeps one of each: every
    thread computes them once instead of once per point and channel. Only
    operations without memory effects or regions that are speculatable
    move (an integer division that could trap stays); constants, ids and
    whatever depends on them or on loads stay. Values do not change. Run
    after `arvr-map-to-gpu`.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def ArvrHostUniforms : Pass<"arvr-host-uniforms", "::mlir::ModuleOp"> {
  let summary = "Compute the f32 arithmetic of parameters alone on the host";
  let description = [{
    In each `gpu.launch`, f32 additions, subtractions, products, divisions,
    negations and fused multiply-adds (`math.fma`) computed from values
    defined outside the launch, f32 constants and one another (a focal
    length's reciprocal, an aberration factor over it) move before the
    launch: kernel outlining passes their results as kernel arguments, and
    the launch plan computes them on the host once a launch, exactly as the
    GPU would (IEEE binary32, rounded to nearest even), instead of every
    thread. Operations with fast-math flags, math functions and whatever
    depends on them stay. Values do not change. Run after
    `arvr-hoist-uniform`, before `gpu-kernel-outlining`.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::arith::ArithDialect"];
}

def ArvrBatchFrames : Pass<"arvr-batch-frames", "::mlir::ModuleOp"> {
  let summary = "Let a batch of same-size frames run as one launch per "
                "kernel, the frames as the grid's z dimension";
  let description = [{
    The caller stacks the frames of each image and stage buffer one under
    another (one image F times as tall, frames contiguous), evaluates the
    host code for one frame, and multiplies the grid's z size (1 from
    `arvr-map-to-gpu`) by F. In each `gpu.launch`, block z is the frame:
    for each image or buffer the body uses (an argument of the host
    function or a `memref.alloc` there), the frame's height comes from the
    host (`memref.dim` there, which callers evaluate for one frame, or the
    buffer's size: a kernel argument), and its first row is block z times
    that height. The pass adds that row to the row index of every `memref.load`
    and `memref.store` (and `vector.load`/`vector.store`) of the image,
    adds the frame's first element to every access through a flattened
    view (`memref.reinterpret_cast` to one dimension, offset 0, stride 1;
    the view then spans every frame), and replaces `memref.dim %m, 0` in
    the body by the frame's height. A byte image (`i8` elements) is used
    instead through a view of its frame: `memref.view` of the stack's bytes
    (`memref.reinterpret_cast` to one dimension) at the frame's first byte,
    sized as one frame, so that its lowering advances the base pointer once
    a thread and no access adds the frame's row; its flattened views span
    the frame. The first byte is below 2^31 (`arvrc run` and the runtime
    library refuse larger stacks).

    A buffer whose height is static (a table of one row, computed from
    parameters: a generic Gaussian's weights) is not stacked, since folding
    may take a row index into it for 0: every frame reads the first
    frame's table. So only a launch that uses no image or stacked buffer
    may write tables, and only tables it does not read; run F times over
    the grid's z, it writes the same values F times.

    All or nothing per host function: if a launch uses an image or a table
    in any other way, writes a table while using an image or stacked
    buffer, reads a table it writes, or its grid z is not 1, nothing
    changes. Otherwise the
    function gets the unit attribute `arvr.frames_in_grid_z`, which the
    launch manifest reports as `batch grid-z`. With one frame the kernels
    compute what they did before. Runs after
    `gpu-launch-sink-index-computations`, so that every `memref.dim` a
    kernel computes is inside its launch.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def ArvrStageStores : Pass<"arvr-stage-stores", "::mlir::ModuleOp"> {
  let summary = "Stage a warp's 16- or 8-byte stores through shared memory "
                "so each store instruction writes contiguous bytes";
  let description = [{
    In the wide version of a `gpu.launch` (the `vector.store`s of
    `vector<16xi8>` or `vector<8xi8>` that `arvr-wide-access` made under
    the `scf.if` marked `arvr.interior`), a thread storing n > 1 vectors of
    W bytes of a run of columns (offsets 0, W, ... W (n - 1) from one index,
    in which thread x appears only as `thread_x * W n`: lane x + 1's bytes
    follow lane x's) writes them to its slot of dynamic shared memory;
    after `nvvm.bar.warp.sync`, each lane stores chunks `k * G + x` of its
    group of G lanes (threads x 0..G-1 of one thread y), so each store
    instruction writes G * W contiguous bytes instead of W bytes of every
    W n. A single vector a lane is left alone (its lanes' bytes are
    contiguous already). The block must have a multiple of 32 threads,
    G = block x must divide 32, and the launch must not already use dynamic
    shared memory; it gets `G * block y * W n` bytes (the largest W n of
    its groups).

    The interior version is chosen per thread, so the warp first votes
    (`nvvm.vote.sync all`) on that choice where all its lanes are present,
    before the split; a group is staged only when the whole warp is in the
    interior, and otherwise stores as before. The bytes written are the
    same.
  }];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::gpu::GPUDialect"];
}

def ArvrFusePointConsumers : Pass<"arvr-fuse-point-consumers", "::mlir::ModuleOp"> {
  let summary = "Compute a stage's point-wise readers in the stage's own loop";
  let description = [{
    A stage stored in a buffer of its own (a pyramid level, which the next
    level reads around each point) may also be read by another stage at
    each point only (the level stored as an output, `half(x, y, c) =
    u8(l1(x, y, c))`): two `scf.parallel` loops over the same domain, on
    the GPU two launches and the buffer's round trip through memory. In
    each function's body, a consumer loop moves into its producer's, its
    body after the producer's on the producer's variables, and its loads
    of what the producer's body has just stored take the stored values
    (the stores stay, for other readers); repeated to a fixed point.

    Legal when both loops have equivalent bounds and steps (the same
    values or the same pure computation of them) and no results, their
    schedules agree (neither in shared memory; the consumer's block and
    pixels unset or the producer's), every buffer both touch with a write
    is one the producer writes and the consumer only reads, both at their
    loop's own point (its variables as the first indices), and the
    consumer can move up to follow the producer: what it uses from between
    them is pure (moved above the producer), and nothing staying between
    writes what it reads or touches what it writes (allocations aside; a
    deallocation writes its buffer; any other effect prevents the fusion).
    A consumer must read at least one of the producer's buffers. Run on
    the loops of convert-arvr-to-loops, before arvr-map-to-gpu, with
    `arvr-check-bounds` having made such reads `in_bounds`.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
}

def ArvrFuseSiblingLoops : Pass<"arvr-fuse-sibling-loops", "::mlir::ModuleOp"> {
  let summary = "Fuse a point's sibling loops with equal bounds where they share work";
  let description = [{
    A thread computing several points with reductions over the same taps
    runs one `scf.for` per point (and channel) with the same bounds. In
    each function (on the GPU, the bodies of its `gpu.launch` ops; on the
    CPU, a point's body in its loops), sibling loops whose lower bounds, upper
    bounds and steps are equal (the same values, or the same pure
    computation of the same values) become one loop
    (`fuseIndependentSiblingForLoops`) doing each point's iteration in
    turn, so that what the iterations share (a tap's weight, the loop's
    counting) is done once; repeated to a fixed point (fused channel loops
    make their tap loops siblings). Legal when the second loop's initial
    values are known before the first, what it uses from between them is
    pure (moved above the first, with what that uses), and no buffer is
    written by one of the loops (or an op between them that stays) and
    read or written by the other, except writes of one buffer at indices
    that differ by a nonzero constant in a dimension whose index neither
    loop changes. Views of the launch's dynamic shared memory count as one
    buffer; any other memory effect (a barrier, a call) prevents the
    fusion. Worth it only where the iterations share work: an op of the
    second loop's body (nested loops included) computes what one of the
    first's does (operands equivalent, or such ops' results, induction
    variables and carried values paired) and is a load or has a
    floating-point result. Loops sharing only integer arithmetic (each
    point's own addresses: a disparity search's windows) stay apart, as
    do loops sharing nothing.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
}

def ArvrWideAccess : Pass<"arvr-wide-access", "::mlir::ModuleOp"> {
  let summary = "Merge a thread's neighbouring byte reads and writes into "
                "aligned vectors";
  let description = [{
    Works on the interior version of each `gpu.launch` (the then-branch of
    the `scf.if` marked `arvr.interior` by `arvr-specialize-interior`),
    where a thread's points have no guards left and their accesses sit in
    one block. The `memref.load`s of a u8 image with a known channel count
    (`memref<?x?xCxi8>`) at a constant channel, in one block, at the same
    row and at columns `base + k` (k constant), are grouped; the byte each
    reads in its row is `k * C + channel` from the base column's first
    byte. When that byte is known to be a multiple of 4, 8 or 16 (from how
    `base` is made: `bx * tile + tx * run`), the group's bytes are read as
    aligned `vector.load`s of that many bytes from the image flattened to
    one dimension (`memref.reinterpret_cast`), at the group's first load, and
    each load becomes a `vector.extract`. The `memref.store`s of an image
    no load of the launch reads that fill such an aligned vector whole
    (each byte once, no other store to the image between them) become
    `vector.from_elements` and one `vector.store` after the last of them.
    Indices are seen through index casts, additions and products of
    constants and unsigned divisions by constants (the chroma row
    `(y0 + 1) / 2` of an even `y0` is the row `y0 / 2`), and sums whose
    terms cancel (a tile's column `(c0 + k) - c0`). A u8 tile in shared
    memory (a view of `gpu.dynamic_shared_memory`, which the launch both
    writes and reads) is widened too, its loads where no store to it lies
    between them, its stores where no access to it does; its rows are
    aligned when the view's byte offset and row pitch are multiples.

    Aligned accesses need each image's rows to start at aligned addresses
    (every widened image's first byte and row pitch multiples of its
    vector size), a test the same for all threads of a launch. Where every
    widened image is made before the split and the split has a border
    version, the test joins the split's condition: `scf.if (interior and
    aligned) {the wide version} else {the border version}`, rows that are
    not aligned taking the border version, which handles every point, and
    the kernel carries two copies of its body, not three. Otherwise the
    interior version becomes `scf.if (aligned) {the wide version} else {the
    interior version as it was}`. Launches with nothing to widen are left
    alone. Run after `arvr-specialize-interior`, before outlining.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def ArvrSplitPlanes : Pass<"arvr-split-planes", "::mlir::ModuleOp"> {
  let summary = "Turn each NV12 frame argument into its two plane images";
  let description = [{
    Replaces each `!arvr.nv12` argument of an `arvr.kernel` by two image
    arguments in its place, the Y plane (`!arvr.image<ui8, 1>`, named
    `NAME_y`) and the UV plane (`!arvr.image<ui8, 2>`, `NAME_uv`), and each
    `arvr.plane` of the frame by the matching argument. Runs first in both
    pipelines: the later passes, the runners and the launch manifest see
    images only.
  }];
}

def ArvrCpuRowBands : Pass<"arvr-cpu-row-bands", "::mlir::ModuleOp"> {
  let summary = "Let each CPU kernel compute a band of output rows";
  let description = [{
    Appends two `index` parameters, `row_begin` and `row_end`, to every
    `arvr.kernel` and narrows the window of each stage it returns to the
    rows `[b, e)` with `b = min(max(row_begin, 0), height)` and
    `e = min(max(row_end, b), height)`. The CPU runner then calls the kernel
    from several threads with disjoint bands, whose union is the whole
    image. Run before `arvr-infer-bounds`: each intermediate stage is then
    computed over what its band needs (the band and its halo), in a buffer
    of the thread's own.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def ArvrCpuInterior : Pass<"arvr-cpu-interior", "::mlir::func::FuncOp"> {
  let summary = "Run columns of a CPU loop without boundary handling where "
                "every read is inside";
  let description = [{
    For the CPU, after `convert-arvr-to-loops`. Each outermost 2-D
    `scf.parallel` over (y, x) takes runs of `columns` columns: its x steps
    by `columns`, and an `scf.for` inside runs the run's columns one by one.
    Before that loop, the boundary tests of its body (what
    `convert-arvr-to-loops` marks `arvr.boundary`: clamps, the tests before
    a mirror or wrap, the choice of a padding value) are bounded over the
    run, the row fixed (by the compiler's one bounds analysis,
    lowering/lib/Utils/Ranges.h, as arvr-specialize-interior does for GPU
    blocks: lowering/lib/Utils/InteriorBounds.h); where they all
    hold, a copy of the loop without them runs, else the loop as it was;
    there, too, a signed division or remainder by a positive constant of a
    value >= 0 (a coordinate halved, as NV12's chroma is read) is the
    unsigned one. A row's interior runs are then straight-line reads and
    arithmetic, which LLVM can vectorise; only the runs at the image's
    edges keep the handling. Values do not change: each replaced test is proved to pass
    for the points it runs for.
  }];
  let options = [
    Option<"columns", "columns", "int64_t", "64",
           "Columns a run: the interior's unit">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def ArvrCpuVectorize : Pass<"arvr-cpu-vectorize", "::mlir::func::FuncOp"> {
  let summary = "Run a CPU loop's iterations as vector lanes";
  let description = [{
    For the CPU, after `arvr-cpu-interior`. First, an `scf.for` inside
    another with constant bounds, at most 8 iterations and no regions in
    its body (a stencil's taps left as a loop) is unrolled: the same
    operations in the same order. Then an innermost `scf.for` of step
    1 without results whose body is straight-line `memref.load`s,
    `memref.store`s and elementwise arithmetic (an interior run of columns)
    becomes a loop over groups of `lanes` iterations, then the loop as it
    was over the iterations left. What does not depend on the loop's
    variable stays scalar; the rest becomes `vector<lanes x T>`, each lane
    computing exactly what its iteration did (arith's elementwise ops,
    `math.fma`, `sqrt`, `absf`, rounding; a body with any other op, a
    library call such as `math.exp`, is left alone), so the results are
    bit-identical. Reads:

    * innermost index the variable plus a fixed value: `vector.load`;
    * innermost index a constant channel of a memref whose last size is
      static (at most 4), the index before it the variable plus a fixed
      value (interleaved RGB pixels): one `vector.load` of the lanes' whole
      pixels through a view with the last two dimensions collapsed, and a
      `vector.shuffle` for the channel;
    * either index above times a constant S from 2 to 8 (a pyramid's 2x):
      one load of the window from lane 0's element (pixel) to the last
      lane's, and a shuffle of every S-th;
    * either index above divided by a constant K (unsigned, as
      `arvr-cpu-interior` leaves NV12's chroma at x / 2): the lanes / K
      elements (pixels) from lane 0's and the one the last lane reads (a
      longer window could pass the end), then a shuffle for each remainder
      of lane 0's numerator by K, chosen by it;
    * any other varying index: `vector.gather` through a flat view.

    Writes take the first two forms; an interleaved pixel's channels are
    shuffled together and written by one `vector.store` once all are
    computed. Where every write is of whole pixels and each channel's value
    is channel 0's computed from its own channel (the same ops on the same
    fixed values; a blur), the lanes run over elements instead, channel
    then pixel: channel 0's ops are built once per channel, each step
    `lanes` elements on, and every such read and write is one contiguous
    `vector.load` or `vector.store` with no shuffles. A loop is left alone
    where a write has another form (lanes could write one place), where a
    memref is both read and written in it (iterations could pass values
    through memory), or where two writes to a memref differ in more than
    their channel.
  }];
  let options = [
    Option<"lanes", "lanes", "int64_t", "8",
           "Iterations run together: the vectors' length">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def ArvrStageInputs : Pass<"arvr-stage-inputs", "::mlir::ModuleOp"> {
  let summary = "Read a stencil's input through a stage in shared memory";
  let description = [{
    For the GPU. A stage whose tiles thread blocks compute together (one
    scheduled `gpu_shared`, or one reading such a stage) or, in a kernel
    without a schedule (`auto_schedule`), any stored stage whose stencil
    has at least 9 taps (reads a point makes, each counted once per term of
    the reductions around it: a 3 x 3 window), and that reads an
    image of the kernel as a stencil gets a new stage before it,
    `<image>_staged_for_<stage>`, in shared memory: the image read under
    the stencil's boundary. The stencil's reads then read that stage
    `in_bounds`. A stencil here: every read of the image in the stage is
    under the same boundary (not `in_bounds`), at the stage's own `c` and
    at its `x` and `y` plus offsets that are constants or reduction
    variables over constant ranges (sums and differences of them), at most
    16 on each side and not all zero. So each block reads its tile of the
    image and the halo once, boundary handled once per byte, and the taps
    read shared memory without boundary handling, the same code in blocks
    at the image's edge as elsewhere. Values do not change. Runs before
    `arvr-infer-bounds`, which sizes the new stage.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def ArvrInferBounds : Pass<"arvr-infer-bounds", "::mlir::ModuleOp"> {
  let summary = "Size each intermediate stage from the reads of it";
  let description = [{
    A stage without sizes (a function scheduled `compute_root`) gets the
    window its readers need. For every `arvr.access` of the stage, the
    range of each coordinate is found by the compiler's one bounds
    analysis (lowering/lib/Utils/Ranges.h, which `arvr-check-bounds` and
    the interior versions use too) over the reader's window, the ranges of
    reduction variables (`lower` to `upper`), byte and u16 values (their
    type's) and the kernel's values (+, -, *, min, max, abs, select,
    division and remainder by a positive constant, casts), as values
    computed before the reader; the union over all reads
    becomes the stage's `origin` and `sizes`, computed just before its first
    reader, where the stage moves. Stages are visited from the last to the
    first, so a chain of stages is sized from the output back. A stage never
    read is erased; a read whose coordinates fall outside this arithmetic
    (e.g. read from an image) is an error at its location.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def ArvrScatterReductions
    : Pass<"arvr-scatter-reductions", "::mlir::ModuleOp"> {
  let summary = "A histogram's gathers as one scatter over its domain";
  let description = [{
    A stage of one coordinate whose every point `v` sums, over one or two
    ranges, the i32 terms whose key equals it (`sum(y in .., x in ..,
    select(key(x, y) == v, t, 0))`: a histogram, written as a gather, one
    pass over the domain per point) becomes a loop storing 0 at every
    point, then one `scf.parallel` over the ranges' domain (from 0; two
    dimensions, the first of one iteration for a single range) adding each
    term at its key with `memref.atomic_rmw addi`, when the key falls in
    the stage's window. Integer sums do not depend on their order, so the
    result is the same bits; the atomic adds let the domain's points run
    in parallel (one GPU launch, named after the stage with `_scatter`).
    Matched on the loops of `convert-arvr-to-loops`: the stage's
    `scf.parallel` over one row (or one-dimensional), its stored value a
    chain of `scf.for` (step 1, summing from 0; what does not change in a
    loop is first hoisted out of it) ending in `select(k == p, t, 0)` or
    `extui(k == p)`, `p` the point (`index_cast`, plus a value fixed for
    the stage), and nothing else in the loops reading the point or writing
    memory. Anything else is left alone.

    With `atomic=false` (the CPU pipeline, where one thread runs a kernel
    call and its stage buffers are its own), each term is added by a load,
    an `addi` and a store instead: a locked add costs about 20 cycles on
    x86, and the sums are the same.
  }];
  let options = [
    Option<"atomic", "atomic", "bool", "true",
           "Add terms with memref.atomic_rmw (false: load, add, store, for "
           "a domain one thread runs)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def ArvrIndexTables : Pass<"arvr-index-tables", "::mlir::ModuleOp"> {
  let summary = "Fold a loop's math of its index alone into a constant table";
  let description = [{
    In an `scf.for` of at most 256 iterations, or a one-dimensional
    `scf.parallel` of at most 1024 (a stage's points, each reading its own
    entry once: a bilateral filter's colour weights have 766), with bounds
    known when compiling, a value computed from the
    loop's index and constants alone by a computation that holds an op of
    the `math` dialect (a Gaussian's weight `exp(-i * i / (2 sigma^2))` in
    a reduction that is not unrolled) is folded for every iteration into
    an `arith.constant` vector before the loop, and read from it with
    `vector.extract` at `(index - lower) / step`. The folders are the ones
    canonicalisation uses on an unrolled loop, so the result is the same
    bits as if the loop had been unrolled, and the same on every target:
    otherwise the value would be computed at run time by the target's
    function (libdevice's `exp` on the GPU, the C library's on the CPU),
    and whether a reduction fits the unrolling budget would change it.
    Values that do not fold at some iteration are left alone.

    ```mlir
    scf.for %i = %c-7 to %c8 step %c1 ... {
      %w = math.exp (-f32(i*i) / 24.5)   // computed from %i alone
    // becomes
    %table = arith.constant dense<[...15 values...]> : vector<15xf32>
    scf.for %i = %c-7 to %c8 step %c1 ... {
      %k = arith.subi %i, %c-7 : index
      %w = vector.extract %table[%k] : f32 from vector<15xf32>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::vector::VectorDialect"];
}

def ArvrUnrollReductions : Pass<"arvr-unroll-reductions", "::mlir::ModuleOp"> {
  let summary = "Unroll the loops of reductions a schedule asks to unroll";
  let description = [{
    Unrolls each `scf.for` marked `arvr.unroll = n` (by
    `convert-arvr-to-loops`, from an `arvr.reduce` with `unroll n`, from a
    schedule's `f.unroll(n)`) n times, with an epilogue loop for the
    remainder when the trip count is not known to be a multiple of n. The
    terms are combined in the same order, so results are unchanged.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def ArvrContractFma : Pass<"arvr-contract-fma"> {
  let summary = "Fuse a product and the sum or difference using it into math.fma";
  let description = [{
    An f32 (or vector of f32) `arith.addf` or `arith.subf` one of whose
    operands is an `arith.mulf` used nowhere else becomes `math.fma`:
    `a * b + c` and `c + a * b` give `fma(a, b, c)`, `a * b - c` gives
    `fma(a, b, -c)`, `c - a * b` gives `fma(-a, b, c)`. The fused op rounds
    once, so its result is the same on every target (the GPU's
    `fma.rn.f32`, the CPU's FMA instructions or libm's `fmaf`), and both
    pipelines run this pass at the same point: CPU and CUDA outputs stay
    bit-identical. Nothing is folded meanwhile, so that both contract the
    same pairs. Runs on the loops, after `arvr-unroll-reductions`.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

def ArvrRedundantClamps : Pass<"arvr-redundant-clamps"> {
  let summary = "Remove float clamps that an interval analysis proves idle";
  let description = [{
    Finds a range for each f32 value of the loops by interval arithmetic:
    constants, integers widened to floats (a u8 read is in [0, 255]),
    `addf`, `subf`, `mulf`, `math.fma`, `divf` by a divisor of one sign,
    `negf`, `absf`, minima, maxima, `select`, and the loads of an
    intermediate buffer that only loads and stores touch (the union of what
    its stores write, each stage after those it reads; a tile in a
    launch's dynamic shared memory counts as one). Every result is
    widened by more than one f32 rounding can move it, never across zero.
    Anything else (a parameter, a float image, a loop-carried value) is
    unknown, and may be NaN. Some values have a range and may also be NaN:
    a bilinear sample's fraction `x - floor(x)` ([0, 1] for a finite x) and
    a lerp `fma(t, b - a, a)` by one (between a and b); an `scf.if`'s
    results take the union of its branches' yields; `maxnumf`/`minnumf`
    with a constant turn NaN into the constant.

    Then `min(x, c)` with x <= c and `max(x, c)` with x >= c (c a constant)
    become x (not where x may equal c = 0: -0 against +0); under `math.roundeven` whose result is only converted to an
    integer (`u8_sat`'s rounding), a chain of such clamps with integer
    bounds goes from the outermost in while x rounds inside them anyway
    (x < c + 1/2 under a min, x > c - 1/2 under a max): a bilinear sample's
    `u8_sat` keeps only its clamp at 0 (which takes a NaN). A Gaussian's `u8_sat`
    of normalised weights over bytes becomes one rounding conversion
    (`arvr-gpu-saturating-convert` then emits one `cvt.rni.u32.f32` for
    it). Values do not change, bit for bit, so CPU and CUDA stay
    bit-identical; the GPU pipeline runs the pass after `arvr-map-to-gpu`,
    the CPU one after `arvr-contract-fma`, each after a canonicalisation
    (a specialised kernel's weights are constants then).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

def ArvrFastReciprocal : Pass<"arvr-fast-reciprocal", "::mlir::ModuleOp"> {
  let summary = "Opt-in: x / d as x * (1 / d) for a divisor fixed for all points";
  let description = [{
    Only under `--fast-math`. An f32 `arith.divf x, d` whose divisor is the
    same for every point (a constant, a scalar parameter, or pure
    arithmetic of those, wherever it is computed) becomes `x * r`, with
    `r = 1 / d` computed just before (folded for a constant; hoisted out of
    the loops by loop-invariant code motion otherwise).
    Not IEEE division: results may differ in the last bit (by 1 after
    rounding to u8). Both pipelines run it once the loops' constants are
    folded (a Gaussian's sum of weights is then one), on the same divisions,
    so CPU and CUDA stay bit-identical to each other.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def ArvrMergeGpuModules : Pass<"arvr-merge-gpu-modules", "::mlir::ModuleOp"> {
  let summary = "Move every outlined kernel into one gpu.module";
  let description = [{
    `gpu-kernel-outlining` gives each outlined kernel a `gpu.module` of its
    own; a kernel with intermediate stages launches several. This pass
    moves every `gpu.func` into the first `gpu.module` (renaming one whose
    name is taken, e.g. `k_kernel` to `k_kernel_0`) and updates the
    `gpu.launch_func` ops, so the module compiles to a single PTX file that
    one `cuModuleLoad` serves. Run it after outlining, before
    `nvvm-attach-target`.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def ArvrGpuModuleToPtx : Pass<"arvr-gpu-module-to-ptx", "::mlir::ModuleOp"> {
  let summary = "Each gpu.module to PTX, as gpu-module-to-binary, its kernels optimised in parallel";
  let description = [{
    What `gpu-module-to-binary` does with the `isa` format (the module's
    LLVM IR through LLVM's O-level pipeline and the NVPTX backend, into a
    `gpu.binary` of PTX), with one difference: where a module's only
    definitions are two or more kernels and it has no global variables (no
    kernel calls or reads what another defines), each kernel is optimised in
    a clone of the module holding its definition alone, on an LLVMContext
    and target machine of its own, on the context's threads, and goes
    through the backend's IR passes there too (its codegen pipeline stopped
    before instruction selection, as `llc -stop-before=nvptx-isel`:
    straight-line strength reduction was half of the backend's time for
    pyr_down); the kernels are linked back in their order and the backend
    compiles the module from instruction selection on (`llc
    -start-before=nvptx-isel`). The passes work a function at a time or over
    what a function calls, and a kernel calls nothing, so the PTX is the
    whole-module run's, byte for byte (every example's is; a kernel linked
    back just before instruction selection may see its values' uses listed
    in another order, which reorders a few instructions of 3 of the 117
    kernels of the examples and the tests' inputs). A module with another
    definition (libdevice's functions) or a global (a constant table) is
    compiled whole. The cut is made through LLVM's -stop-before /
    -start-before options (TargetPassConfig reads no other way), the
    process's: set while the pass builds those pipelines, one module at a
    time, and emptied after (a codegen pipeline another thread built
    meanwhile would be cut too; arvrc builds none then). `toolkit`: the CUDA
    toolkit whose libdevice is linked where a kernel calls it.
    `backend-level`: the NVPTX backend's optimisation level (llc's -O), 2 by
    default, the IR pipeline staying at the target's O: at 3 the backend
    runs GVN where 2 runs EarlyCSE after its straight-line strength
    reduction, a fifth of the backend's time for pyr_down, for no shorter
    PTX (every example's is the same at 2 but for pyr_down's, 15
    instructions shorter, and brightness_contrast's register numbers); 3
    gives gpu-module-to-binary's PTX byte for byte.
  }];
  let options = [
    Option<"toolkit", "toolkit", "std::string", "\"\"",
           "CUDA toolkit for libdevice">,
    Option<"backendLevel", "backend-level", "int", "2",
           "The NVPTX backend's optimisation level (llc's -O, 0-3)">,
  ];
  let statistics = [
    Statistic<"kernelsApart", "kernels-apart",
              "Kernels optimised in a module of their own">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def ArvrKernelArgAliasing
    : Pass<"arvr-kernel-arg-aliasing", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Mark kernels' image pointers noalias, and readonly if read only";
  let description = [{
    The images of one launch never overlap (each has a buffer of its own:
    see docs/manifest.md). On each kernel `llvm.func` (after
    convert-gpu-to-nvvm), every pointer argument used only as the address
    of loads and stores (through GEPs and address-space casts) gets
    `llvm.noalias`, and `llvm.readonly` when nothing is stored through it,
    so that the NVPTX backend reads inputs through the read-only data cache
    (`ld.global.nc`). Other pointer arguments are left alone.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def ArvrRebaseAddresses
    : Pass<"arvr-rebase-addresses", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Address neighbouring loads and stores from an earlier one's address";
  let description = [{
    In a kernel (after convert-gpu-to-nvvm), a GEP with one index whose
    address is loaded from or stored to in its block, and whose index
    differs by a constant from that of an earlier such GEP (same base and
    element type; in the same block or one that dominates it), becomes a
    GEP from the earlier address: `gep base[i1]` becomes
    `gep (gep base[i0])[d]`, and the constant folds into the load's
    immediate offset. Differences are found on polynomials over the values
    the indices are computed from (add, sub, mul, shl by a constant,
    distributed modulo 2^n; other pure operations on equal operands are
    one value). Addresses are taken only from anchors (GEPs left as they
    were), so an address two points reach stays one value and LLVM still
    merges their loads. Both accesses happen and lie in one buffer of
    under 2^31 elements, so the addresses are equal.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def ArvrGpuSaturatingConvert
    : Pass<"arvr-gpu-saturating-convert", "::mlir::gpu::GPUModuleOp"> {
  let summary = "u8_sat of an f32 as PTX's saturating rounding conversion";
  let description = [{
    Rewrites `fptoui(roundeven(minnum(maxnum(x, 0), 255)))` to i8 (the
    lowered `u8_sat`, four PTX instructions) as
    `trunc(umin(llvm.nvvm.f2ui.rn(x), 255))` (`cvt.rni.u32.f32`, which
    rounds to nearest even, clamps to the u32 range and gives 0 for NaN,
    then `min.u32`): the same byte for every `x` in two instructions; with
    the clamp at 255 gone (`arvr-redundant-clamps` proved x below 255.5 or
    NaN), or both, the conversion alone. Run on the kernels' LLVM dialect
    after `arvr-native-gpu-math`.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def ArvrGpuBiasedIntToFloat
    : Pass<"arvr-gpu-biased-int-to-float", "::mlir::gpu::GPUModuleOp"> {
  let summary = "u8/u16 to f32 as an integer `or` where a subtraction takes the bias";
  let description = [{
    A u8 or u16 `x` converted to f32 (`uitofp`, a conversion instruction on
    the GPU's narrow conversion pipe) whose every use is an addition or
    subtraction with an integral constant below 2^23 in magnitude, or a
    subtraction with another such conversion, becomes the f32 with the
    bits `0x4B000000 | x` (exactly 2^23 + x, built by an integer `or`), and
    each use one subtraction of biased values: `x - K` as
    `(2^23 + x) - (2^23 + K)`, `x + K` as `(2^23 + x) - (2^23 - K)`,
    `K - x` as `(2^23 + K) - (2^23 + x)`, `x - y` as
    `(2^23 + x) - (2^23 + y)`. Each is exact, so the results are the bits
    `uitofp` gives; the instruction count is the same, with one conversion
    fewer. Conversions with any other use are left alone. Where `x` is a
    constant element of a vector of u8 or u16 filling whole words (a vector
    load's bytes), one `prmt` (`llvm.nvvm.prmt`) builds `0x4B000000 | x`
    from `x`'s word and the constant `0x4B000000`: one instruction instead
    of a byte extraction and the `or`. Scalars and vectors; run on the
    kernels' LLVM dialect after convert-gpu-to-nvvm.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def ArvrOccupancyBounds
    : Pass<"arvr-occupancy-bounds", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Ask ptxas for registers that leave 50-56% of an SM's threads resident";
  let description = [{
    Each kernel `llvm.func` (marked `nvvm.kernel`, its block size in
    `nvvm.maxntid`) gets `nvvm.minctasm = min(32, T / threads per block)`
    when that is 2 or more (PTX's `.minnctapersm`, CUDA's
    `__launch_bounds__(threads, blocks)`), so that ptxas keeps each thread
    within 65536 / T registers and at least T threads can be resident to
    hide the latency of memory. T is 1152 (56% of an sm_90 SM, 56
    registers for 128 threads: measured on the H200, the lens 4% faster
    than at 64; kernels that gather, a sample's taps, had T = 1280 until
    2026-12-07, when 56 registers made the lens 3% faster at every size,
    and warp_perspective takes 40 under either). A kernel whose blocks compute
    tiles together (it has a block-wide barrier, `nvvm.barrier0`) gets
    T = 1024 (64 registers): its shared tiles bound its residency, and its
    reader's accumulators spill at 56. Run after `convert-gpu-to-nvvm`.
  }];
}

def ArvrGpuConstantTables
    : Pass<"arvr-gpu-constant-tables", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Read constant vectors at run-time places from globals";
  let description = [{
    An `llvm.extractelement` of a constant vector (a table of
    `arvr-index-tables`) at a place that is not a constant (each point of a
    stage reading its own entry) would be lowered by the NVPTX back end by
    storing the whole vector to the thread's local memory and loading the
    element back (the bilateral's 766 colour weights: a 16 KB stack frame a
    thread). Each such vector becomes an internal constant `llvm.mlir.global`
    of the gpu.module, in the global address space (one a table, however
    many reads), read with `llvm.getelementptr inbounds` and an invariant
    `llvm.load`. The values read are the same. Run on the gpu.module after
    convert-gpu-to-nvvm; the constants left unused go with the next
    canonicalisation.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def ArvrNativeGpuMath : Pass<"arvr-native-gpu-math", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Replace libdevice calls that PTX does in one instruction";
  let description = [{
    convert-gpu-to-nvvm turns math ops (and f32 min/max) into calls to
    CUDA's libdevice (`__nv_rintf`, `__nv_fmaxf`, ...), which must then be
    linked from the CUDA toolkit. For the functions PTX executes in one
    instruction this pass puts back the LLVM intrinsic (roundeven:
    `cvt.rni`, floor, ceil, trunc, fabs, sqrt: `sqrt.rn`, fma, fmin/fmax),
    with libdevice's semantics, and drops the declarations no longer used,
    so kernels that need nothing else compile to self-contained PTX. Run it
    on the gpu.module after convert-gpu-to-nvvm; other calls are left alone,
    for libdevice to resolve, unless `libdevice=false` says it will not be
    linked: then each remaining call is an error at its source location.
  }];
  let options = [
    Option<"libdevice", "libdevice", "bool", "true",
           "libdevice will be linked (CUDA toolkit found)">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // ARVR_LOWERING_PASSES_TD
