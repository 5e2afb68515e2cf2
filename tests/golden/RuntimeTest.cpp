//===- RuntimeTest.cpp - The runtime library, as a user's program uses it -===//
//
// The C API without a GPU (tests/golden/PlanTest.cpp reads plans, and
// scripts/gpu-runtime-tests.sh launches them on the H200): arguments by name,
// output sizes, and every error a caller can make, each a status and a
// message, never a crash; and plans that are not plans.
//
//===----------------------------------------------------------------------===//

#include <doctest/doctest.h>

#include "Plan.h"
#include "arvr/runtime.h"
#include "arvr/runtime.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

const std::string kSource = ARVRC_SOURCE_DIR;
const std::string kArvrcBinary = ARVRC_BINARY;

std::string scratch(const std::string &name) {
  const char *dir = std::getenv("TMPDIR");
  return std::string(dir ? dir : "/tmp") + "/arvrc-runtime-" +
         std::to_string(getpid()) + "-" + name;
}

/// Builds `example` with `flags`; the path of its plan (the manifest and
/// PTX beside it).
std::string buildPlan(const std::string &example,
                      const std::string &flags = "") {
  std::string base = scratch(example.substr(example.rfind('/') + 1));
  std::string command = kArvrcBinary + " build " + kSource + "/" + example +
                        " " + flags + " -o " + base + ".ptx";
  INFO(command);
  REQUIRE(std::system(command.c_str()) == 0);
  return base + ".plan.json";
}

std::string slurp(const std::string &path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void removePlan(const std::string &plan) {
  std::string base = plan.substr(0, plan.size() - strlen(".plan.json"));
  unlink(plan.c_str());
  unlink((base + ".ptx").c_str());
  unlink((base + ".manifest").c_str());
}

} // namespace

TEST_CASE("runtime: the C API, its arguments and its errors, without a GPU") {
  std::string plan = buildPlan("examples/gaussian_blur.arvr");
  arvr_kernel *k = nullptr;
  REQUIRE(arvr_kernel_open(plan.c_str(), &k) == ARVR_OK);
  CHECK(std::string(arvr_kernel_name(k)) == "gaussian_blur");
  REQUIRE(arvr_kernel_num_args(k) == 4);
  int src = arvr_kernel_find_arg(k, "src"),
      sigma = arvr_kernel_find_arg(k, "sigma"),
      radius = arvr_kernel_find_arg(k, "radius"),
      out = arvr_kernel_find_arg(k, "out0");
  CHECK(src == 0);
  CHECK(out == 3);
  CHECK(arvr_kernel_find_arg(k, "nope") == -1);
  arvr_arg_info info;
  REQUIRE(arvr_kernel_arg_info(k, out, &info) == ARVR_OK);
  CHECK(info.is_image);
  CHECK(info.is_output);
  CHECK(std::string(info.type) == "u8");
  REQUIRE(arvr_kernel_arg_info(k, radius, &info) == ARVR_OK);
  CHECK(std::string(info.type) == "i32");
  CHECK(arvr_kernel_arg_info(k, 4, &info) == ARVR_ERROR_INVALID_ARGUMENT);

  // Mistakes: each a status and a message naming what is wrong.
  auto message = [] { return std::string(arvr_last_error()); };
  CHECK(arvr_kernel_bind_f32(k, src, 1.0f) == ARVR_ERROR_INVALID_ARGUMENT);
  CHECK(message().find("'src' is an image") != std::string::npos);
  CHECK(arvr_kernel_bind_i32(k, sigma, 2) == ARVR_ERROR_INVALID_ARGUMENT);
  CHECK(message().find("is f32, not i32") != std::string::npos);
  CHECK(arvr_kernel_bind_image(k, radius, 0x1000, 4, 4, 3) ==
        ARVR_ERROR_INVALID_ARGUMENT);
  CHECK(arvr_kernel_bind_image(k, src, 0, 4, 4, 3) ==
        ARVR_ERROR_INVALID_ARGUMENT);
  CHECK(arvr_kernel_bind_image(k, src, 0x1000, 0, 4, 3) ==
        ARVR_ERROR_INVALID_ARGUMENT);
  CHECK(arvr_kernel_bind_image(k, 7, 0x1000, 4, 4, 3) ==
        ARVR_ERROR_INVALID_ARGUMENT);
  CHECK(arvr_kernel_bind_image(nullptr, 0, 0x1000, 4, 4, 3) ==
        ARVR_ERROR_INVALID_ARGUMENT);
  CHECK(arvr_kernel_bind_image(k, src, 0x1000, 50000, 50000, 3) ==
        ARVR_ERROR_BINDING);
  int w = 0, h = 0, c = 0;
  CHECK(arvr_kernel_output_size(k, out, &w, &h, &c) == ARVR_ERROR_BINDING);
  CHECK(message().find("'src' is not bound") != std::string::npos);
  CHECK(arvr_kernel_output_size(k, src, &w, &h, &c) ==
        ARVR_ERROR_INVALID_ARGUMENT);
  CHECK(arvr_kernel_launch(k, nullptr, 0) == ARVR_ERROR_INVALID_ARGUMENT);
  CHECK(arvr_kernel_launch(nullptr, nullptr, 1) == ARVR_ERROR_INVALID_ARGUMENT);

  // Bound: the output's size follows; unbound or of another size, no launch.
  REQUIRE(arvr_kernel_bind_image(k, src, 0x1000, 641, 479, 3) == ARVR_OK);
  REQUIRE(arvr_kernel_bind_f32(k, sigma, 2.0f) == ARVR_OK);
  REQUIRE(arvr_kernel_bind_i32(k, radius, 4) == ARVR_OK);
  REQUIRE(arvr_kernel_output_size(k, out, &w, &h, &c) == ARVR_OK);
  CHECK(w == 641);
  CHECK(h == 479);
  CHECK(c == 3);
  CHECK(arvr_kernel_launch(k, nullptr, 1) == ARVR_ERROR_BINDING);
  CHECK(message().find("output 'out0' is not bound") != std::string::npos);
  REQUIRE(arvr_kernel_bind_image(k, out, 0x8000, 640, 479, 3) == ARVR_OK);
  CHECK(arvr_kernel_launch(k, nullptr, 1) == ARVR_ERROR_BINDING);
  CHECK(message().find("must be 641x479") != std::string::npos);
  // Nothing prepared yet: no launches to describe; the Gaussian (its
  // weight tables computed by launches that read no frame) runs a batch as
  // one launch per kernel. (Preparing needs a GPU: gpu-runtime-tests.)
  CHECK(arvr_kernel_num_launches(k) == 0);
  arvr_launch_info launchInfo;
  CHECK(arvr_kernel_launch_info(k, 0, &launchInfo) == ARVR_ERROR_BINDING);
  CHECK(message().find("arvr_kernel_prepare first") != std::string::npos);
  CHECK(arvr_kernel_launch_info(k, 0, nullptr) == ARVR_ERROR_INVALID_ARGUMENT);
  CHECK(arvr_kernel_takes_batches(k) == 1);
  CHECK(arvr_kernel_takes_batches(nullptr) == 0);
  // A batch is stacked: 2400 frames of 641x479x3 are 2^31 elements or more
  // (refused before any GPU is needed), 1 is not.
  REQUIRE(arvr_kernel_bind_image(k, out, 0x8000, 641, 479, 3) == ARVR_OK);
  CHECK(arvr_kernel_prepare(k, 2400) == ARVR_ERROR_BINDING);
  CHECK(message().find("'src' in a batch of 2400 frames has 2^31") !=
        std::string::npos);
  CHECK(arvr_kernel_launch(k, nullptr, 2400) == ARVR_ERROR_BINDING);
  CHECK(arvr_kernel_prepare(k, 1) != ARVR_ERROR_BINDING);
  CHECK(arvr_kernel_prepare(k, 0) == ARVR_ERROR_INVALID_ARGUMENT);
  CHECK(arvr_kernel_prepare(nullptr, 1) == ARVR_ERROR_INVALID_ARGUMENT);
  arvr_kernel_close(k);
  // A histogram is a table each frame writes: launched frame by frame.
  std::string perFrame = buildPlan("examples/equalize_hist.arvr");
  arvr_kernel *hist = nullptr;
  REQUIRE(arvr_kernel_open(perFrame.c_str(), &hist) == ARVR_OK);
  CHECK(arvr_kernel_takes_batches(hist) == 0);
  arvr_kernel_close(hist);
  removePlan(perFrame);
  arvr_kernel_close(nullptr);

  // The C++ wrapper: the same, as exceptions.
  arvr::Kernel kernel(plan);
  CHECK(kernel.name() == "gaussian_blur");
  kernel.image("src", uint64_t(0x1000), 64, 48, 3)
      .scalar("sigma", 1.5f)
      .scalar("radius", int32_t(2));
  CHECK(kernel.outputSize("out0") == std::array<int, 3>{64, 48, 3});
  CHECK_THROWS_AS(kernel.scalar("nope", 1.0f), arvr::Error);
  CHECK_THROWS_WITH_AS(kernel.scalar("src", 1.0f),
                       doctest::Contains("is an image"), arvr::Error);
  removePlan(plan);
}

TEST_CASE("runtime: what is not a plan is refused, with where and why") {
  std::string plan = buildPlan("examples/nv12_to_rgb.arvr");
  std::string good = slurp(plan);
  auto refused = [&](const std::string &from, const std::string &to,
                     const std::string &why) {
    std::string text = good;
    size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), to);
    arvr::runtime::Plan p;
    std::string error;
    CAPTURE(from);
    CHECK_FALSE(arvr::runtime::parsePlan(text, p, error));
    CHECK_MESSAGE(error.find(why) != std::string::npos, error);
  };
  refused("\"arvrc-launch-plan\"", "\"something\"", "not an arvrc launch plan");
  refused("\"version\": 1", "\"version\": 2", "'version' must be");
  refused("\"op\": \"dim\"", "\"op\": \"sqrt\"", "unknown operation 'sqrt'");
  // f32 values: 32 bits, and f32 operations of f32 operands only.
  refused("\"op\": \"dim\"", "\"op\": \"fneg\", \"type\": \"f32\"",
          "with 32 bits");
  refused("\"op\": \"dim\"", "\"op\": \"fneg\"", "'fneg' takes and gives f32");
  // v0 (an output's width) made an f32 constant.
  const std::string width =
      "\"bits\": 64,\n      \"dim\": 1,\n      \"id\": \"v0\",\n      \"op\": "
      "\"dim\",\n      \"operands\": [\n        \"a0\"\n      ]";
  const std::string f32Const = "\"bits\": 32, \"id\": \"v0\", \"op\": "
                               "\"const\", \"operands\": [], \"type\": "
                               "\"f32\", \"value\": ";
  refused(width, f32Const + "1.5", "an f32 value cannot be a size or a bound");
  refused(width, f32Const + "0.1",
          "an f32 const's 'value' must be an f32 number");
  refused("\"operands\": [\n        \"a0\"", "\"operands\": [\n        \"v99\"",
          "'v99' is not defined before this use");
  refused("\"kind\": \"ptx\"", "\"kind\": \"elf\"", "binary");
  refused("\"id\": \"a1\"", "\"id\": \"a5\"", "a0, a1, ... in order");
  refused("\"sharedBytes\"", "\"reusable\": 1, \"sharedBytes\"",
          "'reusable' must be true or false");
  arvr::runtime::Plan p;
  std::string error;
  CHECK_FALSE(arvr::runtime::parsePlan("{\"format\": ", p, error));
  CHECK(error.find("not JSON") != std::string::npos);
  CHECK_FALSE(arvr::runtime::parsePlan("[1, 2]", p, error));
  CHECK(error.find("not a JSON object") != std::string::npos);

  // Through the C API: a missing file, a damaged plan, a missing binary.
  arvr_kernel *k = nullptr;
  CHECK(arvr_kernel_open("/nonexistent/k.plan.json", &k) == ARVR_ERROR_IO);
  CHECK(k == nullptr);
  CHECK(arvr_kernel_open(nullptr, &k) == ARVR_ERROR_INVALID_ARGUMENT);
  std::string bad = scratch("bad.plan.json");
  std::ofstream(bad) << good.substr(0, good.size() / 2);
  CHECK(arvr_kernel_open(bad.c_str(), &k) == ARVR_ERROR_PLAN);
  CHECK(std::string(arvr_last_error()).find(bad) != std::string::npos);
  // The plan alone in a folder: its binary is not beside it.
  std::string folder = scratch("orphan");
  REQUIRE(mkdir(folder.c_str(), 0700) == 0);
  std::string orphan = folder + "/k.plan.json";
  std::ofstream(orphan) << good;
  CHECK(arvr_kernel_open(orphan.c_str(), &k) == ARVR_ERROR_IO);
  CHECK(std::string(arvr_last_error()).find(".ptx") != std::string::npos);
  unlink(bad.c_str());
  unlink(orphan.c_str());
  rmdir(folder.c_str());
  removePlan(plan);
}

namespace {

/// What a CPU object's entry was called with, call by call.
struct EntryCall {
  std::vector<std::array<int64_t, 8>> images; ///< data, offset, sizes, strides
  float sigma = 0;
  int32_t radius = 0;
  int64_t rowBegin = 0, rowEnd = 0;
};
std::mutex entryMutex;
std::vector<EntryCall> entryCalls;

/// Stands for gaussian_blur's CPU entry: (src, sigma, radius, row_begin,
/// row_end, out), each through a pointer; images as memref descriptors.
void fakeGaussianEntry(void **args) {
  auto image = [](void *slot) {
    auto *d = *static_cast<int64_t **>(slot);
    return std::array<int64_t, 8>{d[1], d[2], d[3], d[4],
                                  d[5], d[6], d[7], d[8]};
  };
  EntryCall call;
  call.images = {image(args[0]), image(args[5])};
  call.sigma = *static_cast<float *>(args[1]);
  call.radius = *static_cast<int32_t *>(args[2]);
  call.rowBegin = *static_cast<int64_t *>(args[3]);
  call.rowEnd = *static_cast<int64_t *>(args[4]);
  std::lock_guard<std::mutex> lock(entryMutex);
  entryCalls.push_back(call);
}

} // namespace

/// The plan of examples/gaussian_blur.arvr compiled to a CPU object.
static std::string gaussianCpuPlan() {
  std::string base = scratch("blur-cpu");
  std::string command = kArvrcBinary + " build " + kSource +
                        "/examples/gaussian_blur.arvr --target cpu "
                        "--emit=obj -o " +
                        base + ".o";
  REQUIRE(std::system(command.c_str()) == 0);
  std::string plan = slurp(base + ".plan.json");
  for (const char *ext : {".o", ".h", ".plan.json"})
    unlink((base + ext).c_str());
  return plan;
}

TEST_CASE("runtime: a CPU object's kernel, its bands, frames and checks") {
  std::string plan = gaussianCpuPlan();

  arvr_kernel *k = nullptr;
  CHECK(arvr_kernel_open_cpu(nullptr, fakeGaussianEntry, &k) ==
        ARVR_ERROR_INVALID_ARGUMENT);
  CHECK(arvr_kernel_open_cpu(plan.c_str(), nullptr, &k) ==
        ARVR_ERROR_INVALID_ARGUMENT);
  CHECK(arvr_kernel_open_cpu("{}", fakeGaussianEntry, &k) == ARVR_ERROR_PLAN);
  REQUIRE(arvr_kernel_open_cpu(plan.c_str(), fakeGaussianEntry, &k) == ARVR_OK);
  CHECK(arvr_kernel_is_cpu(k) == 1);
  CHECK(std::string(arvr_kernel_name(k)) == "gaussian_blur");

  std::vector<uint8_t> in(2 * 37 * 5 * 3), out(in.size());
  REQUIRE(arvr_kernel_bind_image(k, 0, uint64_t(in.data()), 37, 5, 3) ==
          ARVR_OK);
  REQUIRE(arvr_kernel_bind_f32(k, 1, 1.25f) == ARVR_OK);
  REQUIRE(arvr_kernel_bind_i32(k, 2, 3) == ARVR_OK);
  REQUIRE(arvr_kernel_bind_image(k, 3, uint64_t(out.data()), 37, 5, 3) ==
          ARVR_OK);
  entryCalls.clear();
  REQUIRE(arvr_kernel_launch(k, nullptr, 2) == ARVR_OK);
  // Each frame's rows, in bands that cover them once; the second frame's
  // images follow the first's.
  int64_t frameBytes = 37 * 5 * 3;
  for (int frame = 0; frame < 2; ++frame) {
    std::vector<bool> covered(5, false);
    for (const EntryCall &call : entryCalls) {
      if (call.images[0][0] != int64_t(in.data()) + frame * frameBytes)
        continue;
      CHECK(call.images[1][0] == int64_t(out.data()) + frame * frameBytes);
      CHECK(call.sigma == 1.25f);
      CHECK(call.radius == 3);
      for (const auto &d : call.images)
        CHECK(
            std::array<int64_t, 7>{d[1], d[2], d[3], d[4], d[5], d[6], d[7]} ==
            std::array<int64_t, 7>{0, 5, 37, 3, 111, 3, 1});
      for (int64_t row = call.rowBegin; row < call.rowEnd; ++row) {
        CHECK_FALSE(covered[row]);
        covered[row] = true;
      }
    }
    CHECK(std::count(covered.begin(), covered.end(), true) == 5);
  }

  // The plan's checks: a reduction over too many values is refused before
  // the entry is called (by a preparation too).
  entryCalls.clear();
  REQUIRE(arvr_kernel_bind_i32(k, 2, 40000) == ARVR_OK);
  CHECK(arvr_kernel_prepare(k, 1) == ARVR_ERROR_BINDING);
  CHECK(arvr_kernel_launch(k, nullptr, 1) == ARVR_ERROR_BINDING);
  CHECK(std::string(arvr_last_error()).find("ranges over 80001 values") !=
        std::string::npos);
  CHECK(std::string(arvr_last_error()).find("gaussian_blur.arvr:24:17") !=
        std::string::npos);
  CHECK(entryCalls.empty());
  arvr_kernel_close(k);

  // A CPU plan is not opened as a GPU one, nor a GPU plan as a CPU one;
  // a CPU plan with launches is not a plan.
  std::string gpuPlan = buildPlan("examples/gaussian_blur.arvr");
  CHECK(arvr_kernel_open_cpu(slurp(gpuPlan).c_str(), fakeGaussianEntry, &k) ==
        ARVR_ERROR_PLAN);
  CHECK(std::string(arvr_last_error()).find("open it with arvr_kernel_open") !=
        std::string::npos);
  // Nor from memory: arvr_kernel_open_data takes a GPU plan and its binary.
  CHECK(arvr_kernel_open_data(plan.c_str(), "x", 1, &k) == ARVR_ERROR_PLAN);
  CHECK(std::string(arvr_last_error()).find("arvr_kernel_open_cpu") !=
        std::string::npos);
  CHECK(arvr_kernel_open_data(nullptr, "x", 1, &k) ==
        ARVR_ERROR_INVALID_ARGUMENT);
  CHECK(arvr_kernel_open_data(plan.c_str(), "x", 0, &k) ==
        ARVR_ERROR_INVALID_ARGUMENT);
  CHECK(arvr_kernel_open_data("{", "x", 1, &k) == ARVR_ERROR_PLAN);
  std::string gpuText = slurp(gpuPlan);
  REQUIRE(arvr_kernel_open_data(gpuText.c_str(), "ptx", 4, &k) == ARVR_OK);
  CHECK(arvr_kernel_is_cpu(k) == 0);
  CHECK(std::string(arvr_kernel_name(k)) == "gaussian_blur");
  arvr_kernel_close(k);
  std::string cpuPlanFile = scratch("cpu.plan.json");
  std::ofstream(cpuPlanFile) << plan;
  CHECK(arvr_kernel_open(cpuPlanFile.c_str(), &k) == ARVR_ERROR_PLAN);
  CHECK(std::string(arvr_last_error()).find("arvr_open_gaussian_blur") !=
        std::string::npos);
  unlink(cpuPlanFile.c_str());
  std::string withLaunch = plan;
  size_t empty = withLaunch.find("\"launches\": []");
  REQUIRE(empty != std::string::npos);
  arvr::runtime::Plan parsed;
  std::string error;
  CHECK(arvr::runtime::parsePlan(plan, parsed, error));
  CHECK(parsed.cpuEntry == "arvr_cpu_gaussian_blur");
  CHECK(parsed.checks.size() == 3);
  withLaunch.replace(empty, strlen("\"launches\": []"),
                     "\"launches\": [{\"entry\": \"e\", \"grid\": [1, 1, 1], "
                     "\"block\": [1, 1, 1], \"sharedBytes\": 0, \"args\": "
                     "[\"a0\"]}]");
  CHECK_FALSE(arvr::runtime::parsePlan(withLaunch, parsed, error));
  CHECK(error.find("no launches or buffers") != std::string::npos);
  removePlan(gpuPlan);
}

TEST_CASE("runtime: a CPU object's bands of a tall frame") {
  std::string plan = gaussianCpuPlan();
  // A tall frame: bands of at most the plan's band_rows (64), covering
  // every row once; a plan with band_rows 0 (a stage reducing over the
  // whole image) runs one band per hardware thread.
  CHECK(plan.find("\"band_rows\": 64") != std::string::npos);
  std::vector<uint8_t> tallIn(37 * 200 * 3), tallOut(tallIn.size());
  std::string perThreadPlan = plan;
  perThreadPlan.replace(perThreadPlan.find("\"band_rows\": 64"),
                        std::strlen("\"band_rows\": 64"), "\"band_rows\": 0");
  for (const std::string *text : {&plan, &perThreadPlan}) {
    arvr_kernel *tall = nullptr;
    REQUIRE(arvr_kernel_open_cpu(text->c_str(), fakeGaussianEntry, &tall) ==
            ARVR_OK);
    REQUIRE(arvr_kernel_bind_image(tall, 0, uint64_t(tallIn.data()), 37, 200,
                                   3) == ARVR_OK);
    REQUIRE(arvr_kernel_bind_f32(tall, 1, 2.0f) == ARVR_OK);
    REQUIRE(arvr_kernel_bind_i32(tall, 2, 4) == ARVR_OK);
    REQUIRE(arvr_kernel_bind_image(tall, 3, uint64_t(tallOut.data()), 37, 200,
                                   3) == ARVR_OK);
    entryCalls.clear();
    REQUIRE(arvr_kernel_launch(tall, nullptr, 1) == ARVR_OK);
    std::vector<int> covered(200, 0);
    int64_t tallest = 0;
    for (const EntryCall &call : entryCalls) {
      tallest = std::max(tallest, call.rowEnd - call.rowBegin);
      for (int64_t row = call.rowBegin; row < call.rowEnd; ++row)
        ++covered[row];
    }
    CHECK(std::count(covered.begin(), covered.end(), 1) == 200);
    unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    if (text == &plan) {
      CHECK(tallest <= 64);
      CHECK(entryCalls.size() >= 4);
    } else {
      CHECK(entryCalls.size() == std::min(200u, threads));
    }
    arvr_kernel_close(tall);
  }
}
