//===- FloatIntervalsTest.cpp - Block proofs against brute force ----------===//
//
// arvr-gpu-block-proofs' interval arithmetic (lowering/lib/Utils/
// FloatIntervals.h) on random lens- and perspective-like maps: the
// condition it builds for a block, evaluated by MLIR's folders (IEEE f32,
// rounded to nearest even, as the GPU computes), must be true only where
// the sample test holds at every point of the block, each point's test
// evaluated the same way. And it must prove something: most blocks away
// from the image's edges.
//
//===----------------------------------------------------------------------===//

#include "../../lowering/lib/Utils/FloatIntervals.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include <doctest/doctest.h>

#include <random>

using namespace mlir;

namespace {

/// A point's sample test: a map of (x, y) = (bx * sx + tx, by * sy + ty)
/// to (u, v) with a radial polynomial (squares, fused multiply-adds) and a
/// perspective division, then `bits(floor) <u bits(last)` for both, as
/// convert-arvr-to-loops tests a bilinear sample.
std::string mapSource(const std::array<float, 8> &p, float lastX, float lastY) {
  // Each value exactly, as its bits.
  auto f = [](float v) {
    char text[64];
    std::snprintf(text, sizeof text, "0x%08X", llvm::bit_cast<uint32_t>(v));
    return std::string("arith.constant ") + text + " : f32";
  };
  std::string s =
      "func.func @map(%bx: index, %by: index, %tx: index, %ty: index, "
      "%sx: index, %sy: index) -> i1 {\n";
  const char *names[] = {"cx", "cy", "rf", "k1", "k2", "fx", "g", "one"};
  for (int i = 0; i < 8; ++i)
    s += "  %" + std::string(names[i]) + " = " + f(p[i]) + "\n";
  s += "  %lx = " + f(lastX) + "\n  %ly = " + f(lastY) + "\n";
  s += R"(  %x0 = arith.muli %bx, %sx : index
  %x = arith.addi %x0, %tx : index
  %y0 = arith.muli %by, %sy : index
  %y = arith.addi %y0, %ty : index
  %xi = arith.index_cast %x : index to i32
  %yi = arith.index_cast %y : index to i32
  %xf = arith.sitofp %xi : i32 to f32
  %yf = arith.sitofp %yi : i32 to f32
  %dx = arith.subf %xf, %cx : f32
  %xg = arith.mulf %dx, %rf : f32
  %dy = arith.subf %yf, %cy : f32
  %yg = arith.mulf %dy, %rf : f32
  %yy = arith.mulf %yg, %yg : f32
  %r2 = math.fma %xg, %xg, %yy : f32
  %p0 = math.fma %r2, %k2, %k1 : f32
  %p1 = math.fma %r2, %p0, %one : f32
  %xr = arith.mulf %xg, %p1 : f32
  %yr = arith.mulf %yg, %p1 : f32
  %u0 = math.fma %fx, %xr, %cx : f32
  %v = math.fma %fx, %yr, %cy : f32
  %d = math.fma %xg, %g, %one : f32
  %u = arith.divf %u0, %d : f32
  %fu = math.floor %u : f32
  %fv = math.floor %v : f32
  %bu = arith.bitcast %fu : f32 to i32
  %bv = arith.bitcast %fv : f32 to i32
  %blx = arith.bitcast %lx : f32 to i32
  %bly = arith.bitcast %ly : f32 to i32
  %iu = arith.cmpi ult, %bu, %blx : i32
  %iv = arith.cmpi ult, %bv, %bly : i32
  %inside = arith.andi %iu, %iv : i1
  return %inside : i1
}
)";
  return s;
}

/// `v`'s value where `env` gives the values it is computed from, by the
/// ops' folders (and APFloat's fused multiply-add for math.fma).
Attribute evaluate(Value v, DenseMap<Value, Attribute> &env) {
  if (auto it = env.find(v); it != env.end())
    return it->second;
  Operation *op = v.getDefiningOp();
  if (!op)
    FAIL("a value without a definition or a binding");
  SmallVector<Attribute> operands;
  for (Value operand : op->getOperands())
    operands.push_back(evaluate(operand, env));
  Attribute result;
  if (isa<math::FmaOp>(op)) {
    llvm::APFloat a = cast<FloatAttr>(operands[0]).getValue();
    a.fusedMultiplyAdd(cast<FloatAttr>(operands[1]).getValue(),
                       cast<FloatAttr>(operands[2]).getValue(),
                       llvm::APFloat::rmNearestTiesToEven);
    result = FloatAttr::get(v.getType(), a);
  } else {
    SmallVector<OpFoldResult> folded;
    if (failed(op->fold(operands, folded)))
      FAIL("no fold for " << op->getName().getStringRef().str());
    OpFoldResult r = folded[cast<OpResult>(v).getResultNumber()];
    result =
        isa<Attribute>(r) ? cast<Attribute>(r) : evaluate(cast<Value>(r), env);
  }
  env[v] = result;
  return result;
}

bool isTrue(Attribute a) { return cast<IntegerAttr>(a).getValue().isOne(); }

} // namespace

TEST_CASE("block proofs: f32 interval ends bound every point of a block") {
  MLIRContext context;
  context.loadDialect<arith::ArithDialect, math::MathDialect, func::FuncDialect,
                      scf::SCFDialect>();
  std::mt19937 random(2026);
  auto uniform = [&](float lo, float hi) {
    return std::uniform_real_distribution<float>(lo, hi)(random);
  };
  constexpr int64_t kSx = 8, kSy = 4, kWidth = 96, kHeight = 48;
  int blocks = 0, proved = 0;
  for (int trial = 0; trial < 40; ++trial) {
    // A centre, an inverse focal length, distortion coefficients, a focal
    // length that maps most points inside (0.5 to 0.95 of the inverse's),
    // a slight perspective.
    float rf = uniform(0.01f, 0.05f);
    std::array<float, 8> p = {uniform(20, 76),
                              uniform(10, 38),
                              rf,
                              uniform(-0.4f, 0.4f),
                              uniform(-0.1f, 0.1f),
                              uniform(0.5f, 0.95f) / rf,
                              uniform(-0.05f, 0.05f),
                              1.0f};
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(
        mapSource(p, float(kWidth - 1), float(kHeight - 1)), &context);
    REQUIRE(module);
    auto map = *module->getOps<func::FuncOp>().begin();
    Block &body = map.getBody().front();
    Value bx = body.getArgument(0), by = body.getArgument(1);
    Value tx = body.getArgument(2), ty = body.getArgument(3);
    Value sx = body.getArgument(4), sy = body.getArgument(5);
    Value inside = body.getTerminator()->getOperand(0);
    OpBuilder b(&body.front());
    arvr::interior::InteriorBounds ints(map.getBody(), map.getLoc(), b,
                                        {{tx, sx}, {ty, sy}});
    arvr::interior::FloatIntervals floats(ints, b, map.getLoc());
    Value holds = floats.alwaysTrue(inside);
    REQUIRE(holds);
    for (Value assumption : ints.assumptions)
      holds = arith::AndIOp::create(b, map.getLoc(), holds, assumption);
    auto index = [&](int64_t i) {
      return IntegerAttr::get(IndexType::get(&context), i);
    };
    for (int64_t blockY = 0; blockY < kHeight / kSy; ++blockY)
      for (int64_t blockX = 0; blockX < kWidth / kSx; ++blockX) {
        DenseMap<Value, Attribute> block{{bx, index(blockX)},
                                         {by, index(blockY)},
                                         {sx, index(kSx)},
                                         {sy, index(kSy)}};
        bool proof = isTrue(evaluate(holds, block));
        bool all = true;
        for (int64_t y = 0; y < kSy; ++y)
          for (int64_t x = 0; x < kSx; ++x) {
            DenseMap<Value, Attribute> point = block;
            point[tx] = index(x);
            point[ty] = index(y);
            all &= isTrue(evaluate(inside, point));
          }
        CAPTURE(trial);
        CAPTURE(blockX);
        CAPTURE(blockY);
        // Sound: proved only where every point's test holds.
        if (proof && !all)
          CHECK_MESSAGE(false, "block proved with a point outside");
        ++blocks;
        proved += proof;
      }
  }
  // Useful: most blocks are proved (their samples inside, away from the
  // edges where the map sends them out).
  MESSAGE(proved << " of " << blocks << " blocks proved");
  CHECK(proved * 2 > blocks);
}
