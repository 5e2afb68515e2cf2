//===- SplitPlanes.cpp - NV12 frames as two image arguments ---------------===//
//
// Replaces each `!arvr.nv12` argument of an arvr.kernel by two image
// arguments in its place, its Y plane (`!arvr.image<ui8, 1>`, named
// NAME_y) and its UV plane (`!arvr.image<ui8, 2>`, named NAME_uv), and
// each `arvr.plane` of it by the matching argument. What follows (the
// lowerings, the runners, the launch manifest) sees images only; the
// caller passes the planes of a frame as two images whose sizes are tied
// (the UV plane ceil(W/2) x ceil(H/2)).
//
//===----------------------------------------------------------------------===//

#include "arvr/Dialect/ArvrDialect.h"
#include "arvr/Lowering/Passes.h"

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRSPLITPLANES
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;
using namespace mlir::arvr;

namespace {

struct ArvrSplitPlanesPass
    : public arvr::impl::ArvrSplitPlanesBase<ArvrSplitPlanesPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    Type u8 = IntegerType::get(context, 8, IntegerType::Unsigned);
    Type planeTypes[2] = {ImageType::get(context, u8, 1),
                          ImageType::get(context, u8, 2)};
    const char *suffixes[2] = {"_y", "_uv"};
    WalkResult result = getOperation().walk([&](KernelOp kernel) {
      if (kernel.getBody().empty())
        return WalkResult::advance();
      // From the last argument down, so that indices stay valid.
      for (int index = kernel.getNumArguments() - 1; index >= 0; --index) {
        BlockArgument frame = kernel.getArgument(index);
        if (!isa<NV12Type>(frame.getType()))
          continue;
        auto name = kernel.getArgAttrOfType<StringAttr>(index, "arvr.name");
        Location loc = frame.getLoc();
        if (failed(kernel.insertArguments(
                {unsigned(index + 1), unsigned(index + 1)},
                {planeTypes[0], planeTypes[1]}, {}, {loc, loc})))
          return WalkResult::interrupt();
        Value planes[2] = {kernel.getArgument(index + 1),
                           kernel.getArgument(index + 2)};
        for (int p = 0; p < 2; ++p)
          kernel.setArgAttr(
              index + 1 + p, "arvr.name",
              StringAttr::get(context,
                              (name ? name.getValue().str()
                                    : "frame" + std::to_string(index)) +
                                  suffixes[p]));
        for (Operation *user : llvm::make_early_inc_range(frame.getUsers())) {
          auto plane = dyn_cast<PlaneOp>(user);
          if (!plane) {
            user->emitError("an NV12 frame is used other than through "
                            "'arvr.plane'");
            return WalkResult::interrupt();
          }
          plane.getResult().replaceAllUsesWith(
              planes[plane.getPlane() == Plane::y ? 0 : 1]);
          plane.erase();
        }
        if (failed(kernel.eraseArgument(index)))
          return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
