//===- arvr-opt.cpp - mlir-opt with the arvr dialect and passes -----------===//
//
// The testing tool for the dialect and its passes: parses MLIR, runs the
// passes named on the command line and prints the result (used by lit).
//
//===----------------------------------------------------------------------===//

#include "arvr/Lowering/Passes.h"
#include "arvr/Lowering/Pipelines.h"

#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::registerTransformsPasses();
  mlir::registerGPUPasses();
  mlir::arvr::registerArvrLoweringPasses();
  mlir::arvr::registerArvrPipelines();

  mlir::DialectRegistry registry;
  mlir::arvr::registerPipelineDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "arvr optimizer driver\n", registry));
}
