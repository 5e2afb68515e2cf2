//===- StageInputs.cpp - A stencil's input staged in shared memory --------===//
//
// On the GPU, a stage whose tiles thread blocks compute together (one in
// shared memory, or the reader of one), or in a kernel without a schedule
// any stored stage with a stencil of 9 taps or more, and that reads one of the
// kernel's images as a stencil, at its own (x, y) plus offsets known when
// compiling and not all zero, under a boundary (clamp, mirror, wrap, constant),
// reads it through a new stage in shared memory instead: the image itself
// over the tile and its halo, read once per block under that boundary.
// The stencil's taps then read shared memory at in-range places, with no
// boundary handling: blocks at the image's edges run the same code as the
// others but for the copy, whose cost is one read per byte instead of one
// per tap. Halide stages an input the same way (`f.in().compute_at(...)`).
//
// Values do not change: the staged stage is the image, read as the taps
// read it. Its channels are those of its window (the reader's, as it is
// read at the reader's c), not the image's: a reader may have more
// channels than the image, read under the boundary. Runs in the GPU pipeline
// only, before arvr-infer-bounds (which sizes the new stage from the taps), and
// only where the halo is at most kMaxSharedHalo on each side (the tile stays
// small).
//
//===----------------------------------------------------------------------===//

#include "../Utils/Translation.h"
#include "arvr/Dialect/ArvrDialect.h"
#include "arvr/Lowering/Passes.h"

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRSTAGEINPUTS
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;
using namespace mlir::arvr;

namespace {

/// The fewest taps (reads a point makes, each counted once per term of
/// the reductions around it) for which a stage of a kernel without a
/// schedule (`auto_schedule`) that is not computed by blocks is given a
/// staged input all the same: a 3 x 3 window.
constexpr int64_t kMinAutoTaps = 9;

/// Whether tiles of `stage` are computed by thread blocks together: it is
/// in shared memory, or reads a stage that is.
static bool isComputedByBlocks(StageOp stage) {
  if (stage.getGpuShared())
    return true;
  bool readsShared = false;
  stage.walk([&](AccessOp access) {
    if (auto source = access.getImage().getDefiningOp<StageOp>())
      readsShared |= source.getGpuShared();
  });
  return readsShared;
}

/// The reads of `image` in `reader` if they form a stencil worth staging:
/// all under the same boundary (not in_bounds) and padding, at the reader's
/// (x + i, y + j, c) with i and j in ranges known when compiling, not all
/// zero, the halo within kMaxSharedHalo.
static SmallVector<AccessOp> stencilReads(StageOp reader, Value image) {
  SmallVector<AccessOp> reads;
  bool ok = true, moves = false;
  reader.walk([&](AccessOp access) {
    if (access.getImage() != image)
      return;
    reads.push_back(access);
    AccessOp first = reads.front();
    ok = ok && access.getBoundary() != Boundary::in_bounds &&
         access.getBoundary() == first.getBoundary() &&
         access.getPaddingAttr() == first.getPaddingAttr();
    Value c = access.getC();
    ok = ok && c == reader.getC();
    Value coords[2] = {access.getX(), access.getY()};
    for (unsigned dim = 0; dim < 2 && ok; ++dim) {
      Translation offset = translationOf(coords[dim], reader, dim);
      ok = offset.isTranslated() && offset.range &&
           offset.range->first >= -kMaxSharedHalo &&
           offset.range->second <= kMaxSharedHalo;
      moves = moves ||
              (ok && (offset.range->first != 0 || offset.range->second != 0));
    }
  });
  if (!ok || !moves)
    reads.clear();
  return reads;
}

/// A stage in shared memory before `reader` that is `image` read under
/// the boundary of `reads`; the reads then read it, in range.
static void stage(StageOp reader, Value image, ArrayRef<AccessOp> reads,
                  StringRef imageName) {
  OpBuilder b(reader);
  Location loc = image.getLoc();
  auto staged = StageOp::create(
      b, loc,
      ImageType::get(b.getContext(),
                     cast<ImageType>(image.getType()).getElementType(),
                     ShapedType::kDynamic),
      (imageName + "_staged_for_" + reader.getName()).str());
  staged.setGpuShared(true);
  Type index = b.getIndexType();
  Block *body = b.createBlock(&staged.getBody(), {}, {index, index, index},
                              {loc, loc, loc});
  AccessOp first = reads.front();
  Value value = AccessOp::create(b, first.getLoc(), image, body->getArgument(0),
                                 body->getArgument(1), body->getArgument(2),
                                 first.getBoundary(), first.getPaddingAttr());
  YieldOp::create(b, loc, value);
  for (AccessOp access : reads) {
    access.getImageMutable().assign(staged.getResult());
    access.setBoundary(Boundary::in_bounds);
    access.removePaddingAttr();
  }
}

struct ArvrStageInputsPass
    : public arvr::impl::ArvrStageInputsBase<ArvrStageInputsPass> {
  void runOnOperation() override {
    getOperation().walk([&](KernelOp kernel) {
      if (kernel.getBody().empty())
        return;
      SmallVector<StageOp> stages(kernel.getBody().front().getOps<StageOp>());
      for (StageOp reader : stages) {
        // A stage computed by blocks anyway; in a kernel scheduled by the
        // compiler, any stored stage with a stencil of kMinAutoTaps.
        bool blocks = isComputedByBlocks(reader);
        if (reader.getInlined() || (!blocks && !kernel.getAutoSchedule()))
          continue;
        for (BlockArgument image : kernel.getArguments()) {
          if (!isa<ImageType>(image.getType()))
            continue;
          SmallVector<AccessOp> reads = stencilReads(reader, image);
          int64_t taps = 0;
          for (AccessOp read : reads)
            taps += termsAround(read, reader, kMinAutoTaps);
          if (reads.empty() || (!blocks && taps < kMinAutoTaps))
            continue;
          auto name = kernel.getArgAttrOfType<StringAttr>(image.getArgNumber(),
                                                          "arvr.name");
          stage(reader, image, reads, name ? name.getValue() : "image");
        }
      }
    });
  }
};

} // namespace
