//===- arvr_bench.cu - arvrc against hand-written CUDA and NPP ------------===//
//
// For each example kernel (lens undistortion with chromatic aberration,
// Gaussian r=4, NV12 -> RGB8) and each implementation (arvrc's PTX launched
// through the runtime library from its launch plan, the hand-written CUDA
// of cuda/hand_kernels.cuh, NPP where it has the operation), at 1080p, 4K
// and 8K, batch 1 and batch 8:
//   1. checks the outputs first (outputs poisoned, arvrc vs hand CUDA at
//      most 1 apart; NPP's difference reported);
//   2. warms up, then times >= 50 repetitions with CUDA events, the
//      implementations interleaved (A B C A B C ...), input/output buffers
//      rotated so the working set exceeds 4x the L2 cache; a batch of 8 is
//      one launch of the hand kernels and of arvrc's (the frames as the
//      grid's z, where the plan says "grid-z") and one launch per frame of
//      NPP's;
//   3. reports median/min/max us per frame, GB/s of the ideal traffic, % of
//      the device-to-device copy bandwidth measured in the same run,
//      registers, spills, theoretical occupancy, and ratios.
// Also: end-to-end (upload + kernel + download, pinned memory) of one 4K
// frame through arvrc's kernels.
//
//   arvr_bench --plans DIR [--photo photo.ppm] [--reps N] [--csv FILE]
//              [--set main|more] [--extra DIR2] [--count]
//              [--only KERNEL,...] [--sizes 1080p,4K,8K]
//
// `--only` and `--sizes` keep those examples of the set and those frame
// sizes (the second set has no 8K): a short device call, or one kernel at
// one size under Nsight Compute (bench/README.md).
//
// `--count`: nothing timed; at 4K only, after the same output checks, each
// implementation runs one batch of 8 between cudaProfilerStart and
// cudaProfilerStop, after a one-thread marker kernel, and a line
// "# count,KERNEL,SIZE,WxH,8,IMPLEMENTATION" says which: run under
// `ncu --profile-from-start off`, the kernels after each marker are that
// implementation's (bench/run.sh counts their instructions a pixel).
//
// `--set more` runs five other examples instead (more_examples.cuh). DIR
// holds lens_undistort.plan.json, gaussian_blur.plan.json and
// nv12_to_rgb.plan.json with their PTX (arvrc build ... -o DIR/NAME.ptx).
// DIR2 holds more builds of the examples of either set, named
// KERNEL@LABEL.plan.json (gaussian_blur@LABEL, bilateral@LABEL, ...: built
// by a changed compiler, an A/B in one run, bench/README.md).
//
//===----------------------------------------------------------------------===//

#include "arvr/runtime.h"
#include "cuda/hand_kernels.cuh"

#include <cuda.h>
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>
#ifdef ARVR_BENCH_NPP
#include <nppi_color_conversion.h>
#include <nppi_filtering_functions.h>
#include <nppi_geometry_transforms.h>
#endif
#ifdef ARVR_BENCH_NPP_MORE
#include <npp.h>
#endif

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

[[noreturn]] void die(const std::string &message) {
  std::fprintf(stderr, "arvr_bench: %s\n", message.c_str());
  std::exit(1);
}

void checkCu(CUresult result, const char *call) {
  if (result == CUDA_SUCCESS)
    return;
  const char *name = nullptr;
  cuGetErrorName(result, &name);
  die(std::string(call) + ": " + (name ? name : "unknown error"));
}
void checkCuda(cudaError_t result, const char *call) {
  if (result != cudaSuccess)
    die(std::string(call) + ": " + cudaGetErrorString(result));
}
#define CU(call) checkCu((call), #call)
#define CUDA(call) checkCuda((call), #call)

//===----------------------------------------------------------------------===//
// Device facts
//===----------------------------------------------------------------------===//

struct Device {
  cudaDeviceProp prop;
  int l2Bytes = 0;
  double copyBytesPerUs = 0; ///< Read + write, measured.
};
Device device;

struct KernelFacts {
  std::string name;
  int registers = 0, spillBytes = 0, blockThreads = 0;
  double occupancy = 0; ///< Theoretical, 0..1.
};

std::string describe(const std::vector<KernelFacts> &facts, int what) {
  std::string s;
  for (const KernelFacts &f : facts) {
    if (!s.empty())
      s += "+";
    char buf[32];
    if (what == 0)
      std::snprintf(buf, sizeof buf, "%d", f.registers);
    else if (what == 1)
      std::snprintf(buf, sizeof buf, "%d", f.spillBytes);
    else
      std::snprintf(buf, sizeof buf, "%.0f%%", 100 * f.occupancy);
    s += buf;
  }
  return s.empty() ? "-" : s;
}

//===----------------------------------------------------------------------===//
// arvrc's kernels, launched by the runtime library from their plans
//===----------------------------------------------------------------------===//

/// An argument of an arvrc kernel, as its plan lists it.
struct PlanArg {
  std::string name, type; ///< type: u8 u16 i32 f32 (images), i32 f32 i1.
  bool isImage = false, isOutput = false;
  int channels = 0; ///< Images: 0 when any.
};

/// What one argument is bound to: an image's shape (H, W, C) and device
/// address, or a scalar's bits.
struct Binding {
  std::array<int64_t, 3> shape = {0, 0, 0};
  uint64_t pointer = 0;
  uint64_t scalarBits = 0;
};

void checkArvr(arvr_status status, const char *call) {
  if (status != ARVR_OK)
    die(std::string(call) + ": " + arvr_last_error());
}
#define ARVR(call) checkArvr((call), #call)

/// One arvrc kernel, run through the runtime library (arvr/runtime.h) from
/// its launch plan, as a user's program runs it: a runtime kernel per frame
/// set, bound once and prepared before the timing, so that a launch in
/// the timed loop is the library's cuLaunchKernel calls alone.
struct ArvrKernel {
  std::string plan;
  std::vector<PlanArg> args;
  bool batchGridZ = false;
  arvr_kernel *probe = nullptr; ///< For output sizes.
  std::vector<arvr_kernel *> opened;

  ArvrKernel() = default;
  ArvrKernel(const ArvrKernel &) = delete;
  ~ArvrKernel() {
    for (arvr_kernel *k : opened)
      arvr_kernel_close(k);
  }

  void load(const std::string &dir, const std::string &name) {
    plan = dir + "/" + name + ".plan.json";
    probe = open();
    for (int a = 0; a < arvr_kernel_num_args(probe); ++a) {
      arvr_arg_info info;
      ARVR(arvr_kernel_arg_info(probe, a, &info));
      args.push_back({info.name, info.type, bool(info.is_image),
                      bool(info.is_output), info.channels});
    }
    batchGridZ = arvr_kernel_takes_batches(probe);
  }

  arvr_kernel *open() {
    arvr_kernel *k = nullptr;
    ARVR(arvr_kernel_open(plan.c_str(), &k));
    opened.push_back(k);
    return k;
  }

  /// Binds `bindings` (inputs, and outputs when `outputs`) to `k`.
  void bind(arvr_kernel *k, const std::vector<Binding> &bindings,
            bool outputs = true) const {
    for (size_t a = 0; a < args.size(); ++a) {
      const Binding &b = bindings[a];
      if (args[a].isImage && (outputs || !args[a].isOutput)) {
        ARVR(arvr_kernel_bind_image(k, int(a), b.pointer ? b.pointer : 1,
                                    int(b.shape[1]), int(b.shape[0]),
                                    int(b.shape[2])));
      } else if (!args[a].isImage) {
        uint32_t bits = uint32_t(b.scalarBits);
        float f;
        std::memcpy(&f, &bits, 4);
        ARVR(args[a].type == "f32" ? arvr_kernel_bind_f32(k, int(a), f)
             : args[a].type == "i32"
                 ? arvr_kernel_bind_i32(k, int(a), int32_t(bits))
                 : arvr_kernel_bind_bool(k, int(a), bits));
      }
    }
  }

  /// (W, H, C) of output argument `arg` for the inputs of `bindings`.
  std::array<int64_t, 3> outputSize(const std::vector<Binding> &bindings,
                                    int arg) {
    bind(probe, bindings, /*outputs=*/false);
    int w = 0, h = 0, c = 0;
    ARVR(arvr_kernel_output_size(probe, arg, &w, &h, &c));
    return {w, h, c};
  }

  /// The bits of scalar `value` for argument `arg`.
  static uint64_t scalarBits(const PlanArg &arg, double value) {
    uint64_t bits = 0;
    if (arg.type == "f32") {
      float f = static_cast<float>(value);
      std::memcpy(&bits, &f, 4);
    } else {
      int32_t i = static_cast<int32_t>(value);
      std::memcpy(&bits, &i, 4);
    }
    return bits;
  }
};

/// A runtime kernel of `k` bound to one frame set (`frames` frames stacked
/// from it) and prepared.
struct ArvrFrame {
  arvr_kernel *kernel = nullptr;
  int frames = 1;
};

ArvrFrame prepare(ArvrKernel &k, const std::vector<Binding> &bindings,
                  int frames = 1) {
  ArvrFrame frame{k.open(), frames};
  k.bind(frame.kernel, bindings);
  ARVR(arvr_kernel_prepare(frame.kernel, frames));
  return frame;
}

void launchArvr(ArvrFrame &frame, cudaStream_t stream) {
  ARVR(arvr_kernel_launch(frame.kernel, stream, frame.frames));
}

/// The arguments of one launch of `k`: each image as `imageOf(arg)` binds
/// it (shape and device address), each scalar from `scalars` by name.
template <typename ImageOf>
std::vector<Binding> bindArgs(const ArvrKernel &k, ImageOf imageOf,
                              const std::map<std::string, double> &scalars) {
  std::vector<Binding> b(k.args.size());
  for (size_t a = 0; a < b.size(); ++a) {
    const PlanArg &arg = k.args[a];
    if (arg.isImage)
      b[a] = imageOf(arg);
    else
      b[a].scalarBits = ArvrKernel::scalarBits(arg, scalars.at(arg.name));
  }
  return b;
}

/// An interleaved RGB8 image of `width` x `height` at `address`.
Binding rgbImage(int width, int height, uint64_t address) {
  return {{height, width, 3}, address, 0};
}

/// Registers, spills and occupancy of each launch of a prepared frame, as
/// the library reports them.
std::vector<KernelFacts> factsOf(const ArvrFrame &frame) {
  std::vector<KernelFacts> facts;
  for (int i = 0; i < arvr_kernel_num_launches(frame.kernel); ++i) {
    arvr_launch_info info;
    ARVR(arvr_kernel_launch_info(frame.kernel, i, &info));
    KernelFacts kf;
    kf.name = info.entry;
    kf.registers = info.registers;
    kf.spillBytes = info.local_bytes;
    kf.blockThreads = int(info.block[0] * info.block[1] * info.block[2]);
    kf.occupancy = double(info.blocks_per_sm) * kf.blockThreads /
                   device.prop.maxThreadsPerMultiProcessor;
    facts.push_back(kf);
  }
  return facts;
}

template <typename Kernel>
KernelFacts factsOfHand(const char *name, Kernel kernel, int blockThreads,
                        size_t shared) {
  cudaFuncAttributes attr;
  CUDA(cudaFuncGetAttributes(&attr, kernel));
  KernelFacts kf;
  kf.name = name;
  kf.registers = attr.numRegs;
  kf.spillBytes = static_cast<int>(attr.localSizeBytes);
  kf.blockThreads = blockThreads;
  int blocks = 0;
  CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel,
                                                     blockThreads, shared));
  kf.occupancy =
      double(blocks) * blockThreads / device.prop.maxThreadsPerMultiProcessor;
  return kf;
}

//===----------------------------------------------------------------------===//
// Frames
//===----------------------------------------------------------------------===//

struct HostImage {
  int width = 0, height = 0, channels = 0;
  std::vector<uint8_t> pixels;
};

/// A binary PPM (P6) or PGM (P5), as written by OpenCV.
HostImage readPnm(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::string magic;
  int maxValue = 0;
  HostImage img;
  in >> magic >> img.width >> img.height >> maxValue;
  in.get();
  if (!in || (magic != "P6" && magic != "P5") || maxValue != 255)
    die(path + ": not an 8-bit binary PPM/PGM");
  img.channels = magic == "P6" ? 3 : 1;
  img.pixels.resize(size_t(img.width) * img.height * img.channels);
  in.read(reinterpret_cast<char *>(img.pixels.data()), img.pixels.size());
  if (!in)
    die(path + ": truncated");
  return img;
}

/// The photo scaled to width x height (nearest), RGB; a gradient if none.
std::vector<uint8_t> makeRgbFrame(const HostImage &photo, int width,
                                  int height) {
  std::vector<uint8_t> rgb(size_t(width) * height * 3);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      for (int c = 0; c < 3; ++c) {
        uint8_t v;
        if (photo.width) {
          int sx = int(int64_t(x) * photo.width / width);
          int sy = int(int64_t(y) * photo.height / height);
          v = photo.pixels[(size_t(sy) * photo.width + sx) * photo.channels +
                           (photo.channels == 3 ? c : 0)];
        } else {
          v = uint8_t((x * 7 + y * 3 + c * 50) & 255);
        }
        rgb[(size_t(y) * width + x) * 3 + c] = v;
      }
  return rgb;
}

/// NV12 (BT.601 limited range) of an RGB frame: Y plane then UV plane.
std::vector<uint8_t> makeNv12Frame(const std::vector<uint8_t> &rgb, int width,
                                   int height) {
  std::vector<uint8_t> nv12(size_t(width) * height * 3 / 2);
  auto px = [&](int x, int y, int c) {
    return float(rgb[(size_t(y) * width + x) * 3 + c]);
  };
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      nv12[size_t(y) * width + x] = uint8_t(std::lround(
          std::clamp(16.0f + 0.257f * px(x, y, 0) + 0.504f * px(x, y, 1) +
                         0.098f * px(x, y, 2),
                     0.0f, 255.0f)));
  uint8_t *uv = nv12.data() + size_t(width) * height;
  for (int y = 0; y < height / 2; ++y)
    for (int x = 0; x < width / 2; ++x) {
      float r = 0, g = 0, b = 0;
      for (int d = 0; d < 4; ++d) {
        r += px(2 * x + d % 2, 2 * y + d / 2, 0) / 4;
        g += px(2 * x + d % 2, 2 * y + d / 2, 1) / 4;
        b += px(2 * x + d % 2, 2 * y + d / 2, 2) / 4;
      }
      uv[size_t(y) * width + 2 * x] = uint8_t(std::lround(std::clamp(
          128 - 0.148f * r - 0.291f * g + 0.439f * b, 0.0f, 255.0f)));
      uv[size_t(y) * width + 2 * x + 1] = uint8_t(std::lround(std::clamp(
          128 + 0.439f * r - 0.368f * g - 0.071f * b, 0.0f, 255.0f)));
    }
  return nv12;
}

struct DeviceBuffer {
  void *ptr = nullptr;
  size_t bytes = 0;
  explicit DeviceBuffer(size_t n) : bytes(n) {
    if (n)
      CUDA(cudaMalloc(&ptr, n));
  }
  ~DeviceBuffer() {
    if (ptr)
      cudaFree(ptr);
  }
  DeviceBuffer(const DeviceBuffer &) = delete;
  uint8_t *u8() const { return static_cast<uint8_t *>(ptr); }
  uint64_t address() const { return reinterpret_cast<uint64_t>(ptr); }
};

/// `count` frames of `frameBytes` each, one after another in one
/// allocation: a batch of consecutive frames is one launch of a kernel that
/// takes frames at a fixed stride (the hand kernels' grid z).
struct FramePool {
  DeviceBuffer buffer;
  size_t frameBytes;
  FramePool(int count, size_t frameBytes)
      : buffer(size_t(count) * frameBytes), frameBytes(frameBytes) {}
  uint8_t *u8(int s) const { return buffer.u8() + size_t(s) * frameBytes; }
  void *ptr(int s) const { return u8(s); }
  uint64_t address(int s) const { return buffer.address() + s * frameBytes; }
};

//===----------------------------------------------------------------------===//
// Statistics and output
//===----------------------------------------------------------------------===//

struct Stats {
  double median, min, max;
};
Stats stats(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  double median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  return {median, v.front(), v.back()};
}

std::ofstream csv;

//===----------------------------------------------------------------------===//
// One kernel at one size
//===----------------------------------------------------------------------===//

struct Impl {
  std::string name;
  /// Runs frames first .. first + count - 1 (never past the last set).
  std::function<void(int first, int count, cudaStream_t)> launch;
  std::vector<KernelFacts> facts;
};

/// `--count`: profiled batches instead of timing (see the file comment).
bool countMode = false;

/// The first set's examples (the second's are kMoreExamples).
const char *const kLens = "lens_undistort", *const kGaussian = "gaussian_blur",
                  *const kNv12 = "nv12_to_rgb";

/// `--only K1,K2` and `--sizes S1,S2`: the examples and frame sizes run
/// (all when empty): a short device call for one kernel, or one kernel at
/// one size under Nsight Compute.
std::set<std::string> onlyKernels, onlySizes;
bool wanted(const std::string &kernel) {
  return onlyKernels.empty() || onlyKernels.count(kernel);
}
bool wantedSize(const std::string &size) {
  return onlySizes.empty() || onlySizes.count(size);
}

/// Starts each implementation's profiled batch in `--count` mode: the
/// kernels Nsight Compute reports after it are that implementation's.
__global__ void countMarker() {}

struct Case {
  std::string kernel; ///< arvrc's example name
  double idealBytesPerPixel;
  bool f32 = false; ///< Outputs of floats, compared as floats.
};

/// How far `other` is from `reference`, as "max abs diff ...", and that
/// distance in the outputs' unit (bytes, or floats for `f32`).
std::pair<std::string, double>
agreementOf(const std::vector<uint8_t> &reference,
            const std::vector<uint8_t> &other, bool f32) {
  if (reference.size() != other.size())
    return {"outputs of other sizes", 1e30};
  char buf[128];
  if (f32) {
    size_t n = reference.size() / 4;
    std::vector<float> a(n), b(n);
    std::memcpy(a.data(), reference.data(), n * 4);
    std::memcpy(b.data(), other.data(), n * 4);
    double maxAbs = 0, peak = 0;
    for (size_t k = 0; k < n; ++k) {
      maxAbs = std::max(maxAbs, double(std::fabs(a[k] - b[k])));
      peak = std::max(peak, double(std::fabs(a[k])));
    }
    std::snprintf(buf, sizeof buf, "max abs diff %.3g (%.2g of the peak)",
                  maxAbs, peak > 0 ? maxAbs / peak : 0.0);
    return {buf, maxAbs};
  }
  int maxAbs = 0;
  size_t beyondOne = 0;
  for (size_t k = 0; k < reference.size(); ++k) {
    int d = std::abs(int(reference[k]) - int(other[k]));
    maxAbs = std::max(maxAbs, d);
    beyondOne += d > 1;
  }
  std::snprintf(buf, sizeof buf, "max abs diff %d, %.3f%% beyond 1", maxAbs,
                100.0 * beyondOne / std::max<size_t>(1, reference.size()));
  return {buf, double(maxAbs)};
}

/// Whether a batch of 8 (the same input in every frame) gives each frame
/// of every implementation its output of one frame (`outputs`), byte for
/// byte; the first that does not is reported.
bool batchesMatchFrames(
    const Case &c, const std::string &sizeName, int width, int height,
    std::vector<Impl> &impls,
    const std::function<void(int impl, int frame, std::vector<uint8_t> &)>
        &output,
    const std::function<void(int impl, int frame)> &poison,
    const std::vector<std::vector<uint8_t>> &outputs, cudaStream_t stream) {
  for (size_t i = 0; i < impls.size(); ++i) {
    for (int f = 0; f < 8; ++f)
      poison(int(i), f);
    CUDA(cudaDeviceSynchronize());
    impls[i].launch(0, 8, stream);
    CUDA(cudaStreamSynchronize(stream));
    for (int f = 0; f < 8; ++f) {
      std::vector<uint8_t> frame;
      output(int(i), f, frame);
      if (frame != outputs[i]) {
        std::printf("%s,%s,%dx%d,8,%s,MISMATCH: frame %d of a batch of 8 "
                    "differs from the frame alone; not timed\n",
                    c.kernel.c_str(), sizeName.c_str(), width, height,
                    impls[i].name.c_str(), f);
        csv << c.kernel << "," << sizeName << "," << width << "x" << height
            << ",8," << impls[i].name
            << ",0,0,0,0,0,0,-,-,-,,,MISMATCH batch frame " << f << "\n";
        return false;
      }
    }
  }
  return true;
}

/// Each implementation's cost a launch with 100 single-frame launches
/// queued back to back (no synchronisation between): the host's time to
/// enqueue one, and the GPU's time a launch from before the first to after
/// the last. The timed launches below are each between two events and
/// synchronised, so the host's launch cost is in them: a gap there that is
/// in `host` and not in `gpu` is the launch path's, not the kernel's.
void queuedLaunches(const Case &c, const std::string &sizeName,
                    std::vector<Impl> &impls, int sets, cudaStream_t stream) {
  constexpr int kLaunches = 100;
  cudaEvent_t start, stop;
  CUDA(cudaEventCreate(&start));
  CUDA(cudaEventCreate(&stop));
  for (Impl &impl : impls) {
    CUDA(cudaStreamSynchronize(stream));
    CUDA(cudaEventRecord(start, stream));
    auto begin = std::chrono::steady_clock::now();
    for (int n = 0; n < kLaunches; ++n)
      impl.launch(n % sets, 1, stream);
    auto end = std::chrono::steady_clock::now();
    CUDA(cudaEventRecord(stop, stream));
    CUDA(cudaEventSynchronize(stop));
    float ms = 0;
    CUDA(cudaEventElapsedTime(&ms, start, stop));
    double host =
        std::chrono::duration<double, std::micro>(end - begin).count();
    std::printf("# queued,%s,%s,%s,host %.2f us,gpu %.2f us a launch\n",
                c.kernel.c_str(), sizeName.c_str(), impl.name.c_str(),
                host / kLaunches, ms * 1000.0 / kLaunches);
  }
  CUDA(cudaEventDestroy(start));
  CUDA(cudaEventDestroy(stop));
}

/// Checks outputs, then times every implementation, interleaved.
void measure(const Case &c, const std::string &sizeName, int width, int height,
             std::vector<Impl> &impls,
             const std::function<void(int impl, int frame,
                                      std::vector<uint8_t> &)> &output,
             const std::function<void(int impl, int frame)> &poison, int sets,
             int reps, cudaStream_t stream) {
  // 1. Outputs first: arvrc (impl 0) against each other, one frame.
  std::vector<std::vector<uint8_t>> outputs(impls.size());
  // cudaMemset is asynchronous and on the legacy stream, which `stream`
  // (non-blocking) does not wait for: the device is synchronised after
  // poisoning, before any launch.
  for (size_t i = 0; i < impls.size(); ++i) {
    poison(int(i), 0);
    CUDA(cudaDeviceSynchronize());
    impls[i].launch(0, 1, stream);
    CUDA(cudaStreamSynchronize(stream));
    output(int(i), 0, outputs[i]);
  }
  if (!batchesMatchFrames(c, sizeName, width, height, impls, output, poison,
                          outputs, stream))
    return;
  std::vector<std::string> agreement(impls.size(), "reference");
  for (size_t i = 1; i < impls.size(); ++i) {
    auto [text, maxAbs] = agreementOf(outputs[0], outputs[i], c.f32);
    const char *buf = text.c_str();
    agreement[i] = text;
    bool mustAgree = impls[i].name != "NPP";
    if (mustAgree && maxAbs > 1) {
      // Reported, and nothing timed: a wrong kernel's speed means nothing.
      std::printf("%s,%s,%dx%d,-,%s,MISMATCH: %s against arvrc; not timed\n",
                  c.kernel.c_str(), sizeName.c_str(), width, height,
                  impls[i].name.c_str(), buf);
      csv << c.kernel << "," << sizeName << "," << width << "x" << height
          << ",0," << impls[i].name << ",0,0,0,0,0,0,-,-,-,,,MISMATCH " << buf
          << "\n";
      return;
    }
  }

  if (countMode) {
    for (Impl &impl : impls) {
      CUDA(cudaStreamSynchronize(stream));
      CUDA(cudaProfilerStart());
      countMarker<<<1, 1, 0, stream>>>();
      impl.launch(0, 8, stream);
      CUDA(cudaStreamSynchronize(stream));
      CUDA(cudaProfilerStop());
      std::printf("# count,%s,%s,%dx%d,8,%s\n", c.kernel.c_str(),
                  sizeName.c_str(), width, height, impl.name.c_str());
    }
    std::fflush(stdout);
    return;
  }
  queuedLaunches(c, sizeName, impls, sets, stream);
  // 2. Timing, batch 1 and batch 8, interleaved, buffers rotated: each
  //    launch reads the frame set after the previous launch's, whichever
  //    implementation made it, so that none reads frames another has just
  //    brought into L2 (before the run of 2026-12-05 17:19 the
  //    implementations of a repetition shared one set: every one but the
  //    first, arvrc, read its input from L2 where it fits, at batch 1 and
  //    at 1080p).
  cudaEvent_t start, stop;
  CUDA(cudaEventCreate(&start));
  CUDA(cudaEventCreate(&stop));
  for (int batch : {1, 8}) {
    std::vector<std::vector<double>> times(impls.size());
    int next = 0;
    for (int rep = -5; rep < reps; ++rep) {
      for (size_t i = 0; i < impls.size(); ++i) {
        CUDA(cudaEventRecord(start, stream));
        impls[i].launch(next, batch, stream);
        CUDA(cudaEventRecord(stop, stream));
        CUDA(cudaEventSynchronize(stop));
        float ms = 0;
        CUDA(cudaEventElapsedTime(&ms, start, stop));
        if (rep >= 0) // The first 5 are warm-up.
          times[i].push_back(ms * 1000.0 / batch);
        next = (next + batch) % sets;
      }
    }
    double pixels = double(width) * height;
    double floorUs = c.idealBytesPerPixel * pixels / device.copyBytesPerUs;
    std::vector<Stats> s;
    for (auto &t : times)
      s.push_back(stats(t));
    for (size_t i = 0; i < impls.size(); ++i) {
      double gbps = c.idealBytesPerPixel * pixels / s[i].median / 1e3;
      auto ratio = [&](const char *peer) -> std::string {
        for (size_t j = 0; j < impls.size(); ++j)
          if (impls[j].name == peer && j != i) {
            char buf[16];
            std::snprintf(buf, sizeof buf, "%.2f", s[i].median / s[j].median);
            return buf;
          }
        return "";
      };
      char line[512];
      std::snprintf(
          line, sizeof line,
          "%s,%s,%dx%d,%d,%s,%.2f,%.2f,%.2f,%.1f,%.1f,%.2f,%s,%s,%s,%s,%s,%s",
          c.kernel.c_str(), sizeName.c_str(), width, height, batch,
          impls[i].name.c_str(), s[i].median, s[i].min, s[i].max, gbps,
          100.0 * floorUs / s[i].median, floorUs,
          describe(impls[i].facts, 0).c_str(),
          describe(impls[i].facts, 1).c_str(),
          describe(impls[i].facts, 2).c_str(), ratio("hand CUDA").c_str(),
          ratio("NPP").c_str(), agreement[i].c_str());
      csv << line << "\n";
      std::printf("%s\n", line);
    }
    csv.flush();
  }
  CUDA(cudaEventDestroy(start));
  CUDA(cudaEventDestroy(stop));
}

/// `sets` RGB8 frames of the photo, each scaled to width x height.
std::unique_ptr<FramePool> rgbInputs(const HostImage &photo, int width,
                                     int height, int sets) {
  size_t frameBytes = size_t(width) * height * 3;
  std::vector<uint8_t> rgb = makeRgbFrame(photo, width, height);
  auto pool = std::make_unique<FramePool>(sets, frameBytes);
  for (int s = 0; s < sets; ++s)
    CUDA(cudaMemcpy(pool->ptr(s), rgb.data(), frameBytes,
                    cudaMemcpyHostToDevice));
  return pool;
}

/// `count` pools of `sets` output frames of `frameBytes`.
std::vector<std::unique_ptr<FramePool>> outputPools(int count, int sets,
                                                    size_t frameBytes) {
  std::vector<std::unique_ptr<FramePool>> pools;
  for (int i = 0; i < count; ++i)
    pools.emplace_back(new FramePool(sets, frameBytes));
  return pools;
}

/// Frame sets rotated through: together over 4x the L2 cache, a multiple
/// of 8 so that a batch of 8 never wraps around.
int setsFor(size_t bytesPerSet) {
  size_t wanted = 4 * size_t(device.l2Bytes);
  size_t sets = std::max<size_t>(2, (wanted + bytesPerSet - 1) / bytesPerSet);
  return int((sets + 7) / 8 * 8);
}

/// arvrc's launches for each frame set (`one`), and, for a kernel whose
/// plan says `batch grid-z`, for each 8 sets from a multiple of 8
/// (`eight`: one launch per kernel for the 8 frames, stacked).
struct ArvrSets {
  std::vector<ArvrFrame> one, eight;
};

/// The launches of `k` for `sets` frame sets, set s bound as
/// `bindingsOf(s)`, each prepared by the library.
template <typename BindingsOf>
ArvrSets arvrSets(ArvrKernel &k, BindingsOf bindingsOf, int sets) {
  ArvrSets r;
  for (int frames : {1, 8}) {
    if (frames > 1 && !k.batchGridZ)
      break;
    for (int s = 0; s + frames <= sets; s += frames)
      (frames == 1 ? r.one : r.eight)
          .push_back(prepare(k, bindingsOf(s), frames));
  }
  return r;
}

/// arvrc's launches of frames first .. first + count - 1: one launch per
/// kernel for 8 stacked frames where the kernel takes them, else one per
/// frame.
std::function<void(int, int, cudaStream_t)> arvrLauncher(ArvrKernel &k,
                                                         ArvrSets &sets) {
  return [&sets](int first, int count, cudaStream_t st) {
    if (count == 8 && first % 8 == 0 && !sets.eight.empty()) {
      launchArvr(sets.eight[first / 8], st);
      return;
    }
    for (int f = 0; f < count; ++f)
      launchArvr(sets.one[first + f], st);
  };
}

#ifdef ARVR_BENCH_NPP
NppStreamContext nppContext(cudaStream_t stream) {
  NppStreamContext ctx = {};
  ctx.hStream = stream;
  CUDA(cudaGetDevice(&ctx.nCudaDeviceId));
  ctx.nMultiProcessorCount = device.prop.multiProcessorCount;
  ctx.nMaxThreadsPerMultiProcessor = device.prop.maxThreadsPerMultiProcessor;
  ctx.nMaxThreadsPerBlock = device.prop.maxThreadsPerBlock;
  ctx.nSharedMemPerBlock = device.prop.sharedMemPerBlock;
  ctx.nCudaDevAttrComputeCapabilityMajor = device.prop.major;
  ctx.nCudaDevAttrComputeCapabilityMinor = device.prop.minor;
  CUDA(cudaStreamGetFlags(stream, &ctx.nStreamFlags));
  return ctx;
}
void checkNpp(NppStatus status, const char *call) {
  if (status < 0)
    die(std::string(call) + ": NPP error " + std::to_string(int(status)));
}
#define NPP(call) checkNpp((call), #call)
#endif

//===----------------------------------------------------------------------===//
// The three kernels
//===----------------------------------------------------------------------===//

/// arvrc's frame sets of `kernel` on 3-channel frames of `in`, its
/// outputs in `out`, its scalars by name.
ArvrSets rgbSets(ArvrKernel &kernel, int width, int height, FramePool &in,
                 FramePool &out, const std::map<std::string, double> &scalars,
                 int sets) {
  return arvrSets(
      kernel,
      [&](int s) {
        return bindArgs(
            kernel,
            [&](const PlanArg &arg) {
              return rgbImage(width, height,
                              arg.isOutput ? out.address(s) : in.address(s));
            },
            scalars);
      },
      sets);
}

/// The variants' frame sets on 3-channel frames of `in`, each writing to
/// a pool of its own appended to `out` (after arvrc's, hand's and NPP's).
std::vector<ArvrSets> variantSets(
    std::vector<std::pair<std::string, ArvrKernel *>> &variants, int width,
    int height, FramePool &in, std::vector<std::unique_ptr<FramePool>> &out,
    const std::map<std::string, double> &scalars, int sets, size_t frameBytes) {
  std::vector<ArvrSets> frames;
  for (auto &variant : variants) {
    out.emplace_back(new FramePool(sets, frameBytes));
    frames.push_back(rgbSets(*variant.second, width, height, in, *out.back(),
                             scalars, sets));
  }
  return frames;
}

/// Appends arvrc's variants (name, kernel) to `impls` (arvrc, hand, NPP
/// or its placeholder), then drops the placeholder where NPP is not built.
void addVariants(std::vector<Impl> &impls,
                 std::vector<std::pair<std::string, ArvrKernel *>> &variants,
                 std::vector<ArvrSets> &variantFrames) {
  for (size_t v = 0; v < variants.size(); ++v) {
    ArvrKernel &kernel = *variants[v].second;
    impls.push_back({variants[v].first, arvrLauncher(kernel, variantFrames[v]),
                     factsOf(variantFrames[v].one[0])});
  }
#ifndef ARVR_BENCH_NPP
  impls.erase(impls.begin() + 2);
#endif
}

/// Implementation number -> its output buffers' index (2 is NPP's, kept
/// where NPP is not built).
int bufferIndex(int i) {
#ifdef ARVR_BENCH_NPP
  return i;
#else
  return i < 2 ? i : i + 1;
#endif
}

/// The kernel of the plan `dir`/`file`.plan.json, kept in `kernels`.
ArvrKernel *loadKernel(const std::string &dir, const std::string &file,
                       std::vector<std::unique_ptr<ArvrKernel>> &kernels) {
  kernels.emplace_back(new ArvrKernel());
  kernels.back()->load(dir, file);
  return kernels.back().get();
}

/// The variants (plan file, name) whose plans are in `plans`, loaded into
/// `kernels`; as (name, kernel).
std::vector<std::pair<std::string, ArvrKernel *>>
loadVariants(const std::string &plans,
             std::vector<std::pair<const char *, const char *>> list,
             std::vector<std::unique_ptr<ArvrKernel>> &kernels) {
  std::vector<std::pair<std::string, ArvrKernel *>> loaded;
  for (auto [file, name] : list)
    if (std::ifstream(plans + "/" + file + ".plan.json"))
      loaded.push_back({name, loadKernel(plans, file, kernels)});
  return loaded;
}

/// Appends to `variants` the plans in `dir` named KERNEL@LABEL.plan.json
/// (`--extra DIR`), as "arvrc LABEL", in the order of their labels: PTX
/// built by another compiler (a change under test), run beside this one's
/// in the same process and checked against its output.
void addExtraVariants(
    const std::string &dir, const std::string &kernel,
    std::vector<std::pair<std::string, ArvrKernel *>> &variants,
    std::vector<std::unique_ptr<ArvrKernel>> &kernels) {
  if (dir.empty())
    return;
  const std::string prefix = kernel + "@", suffix = ".plan.json";
  std::vector<std::string> labels;
  std::error_code error;
  for (const auto &entry : std::filesystem::directory_iterator(dir, error)) {
    std::string file = entry.path().filename().string();
    if (file.size() > prefix.size() + suffix.size() &&
        file.compare(0, prefix.size(), prefix) == 0 &&
        file.compare(file.size() - suffix.size(), suffix.size(), suffix) == 0)
      labels.push_back(file.substr(prefix.size(), file.size() - prefix.size() -
                                                      suffix.size()));
  }
  if (error)
    die("--extra " + dir + ": " + error.message());
  std::sort(labels.begin(), labels.end());
  for (const std::string &label : labels)
    variants.push_back(
        {"arvrc " + label, loadKernel(dir, prefix + label, kernels)});
}

hand::LensParams lensFor(int width, int height) {
  // OpenCV's sample calibration (640x480), scaled to the frame; chromatic
  // aberration on.
  double sx = width / 640.0, sy = height / 480.0;
  return {float(535.915733961632 * sx),
          float(535.915733961632 * sy),
          float(342.283154737084 * sx),
          float(235.570829097882 * sy),
          -0.266372609096607f,
          -0.0385888989223047f,
          0.00178319470428530f,
          -0.000281221004411155f,
          0.238391530808785f,
          0.9975f,
          0.995f};
}

/// `variants`: arvrc builds of the lens with other schedules, each
/// (name, kernel), timed beside the example's own.
void benchLens(ArvrKernel &k,
               std::vector<std::pair<std::string, ArvrKernel *>> &variants,
               const HostImage &photo, const std::string &sizeName, int width,
               int height, int reps, cudaStream_t stream) {
  size_t frameBytes = size_t(width) * height * 3;
  int sets = setsFor(2 * frameBytes);
  std::unique_ptr<FramePool> input = rgbInputs(photo, width, height, sets);
  FramePool &in = *input;
  std::vector<std::unique_ptr<FramePool>> out =
      outputPools(3, sets, frameBytes);
  hand::LensParams p = lensFor(width, height);
  std::map<std::string, double> scalars = {
      {"fx", p.fx}, {"fy", p.fy},        {"cx", p.cx},         {"cy", p.cy},
      {"k1", p.k1}, {"k2", p.k2},        {"p1", p.p1},         {"p2", p.p2},
      {"k3", p.k3}, {"ca_red", p.caRed}, {"ca_blue", p.caBlue}};
  ArvrSets frames = rgbSets(k, width, height, in, *out[0], scalars, sets);
  std::vector<ArvrSets> variantFrames =
      variantSets(variants, width, height, in, out, scalars, sets, frameBytes);

  std::vector<Impl> impls;
  impls.push_back({"arvrc", arvrLauncher(k, frames), factsOf(frames.one[0])});
  dim3 block = hand::lensBlock();
  impls.push_back(
      {"hand CUDA",
       [&, block, p](int s, int count, cudaStream_t st) {
         hand::lensUndistortHand<<<hand::lensGrid(width, height, count), block,
                                   0, st>>>(in.u8(s), out[1]->u8(s), width,
                                            height, p);
       },
       {factsOfHand("lensUndistortHand", hand::lensUndistortHand,
                    block.x * block.y, 0)}});
#ifdef ARVR_BENCH_NPP
  DeviceBuffer mapX(size_t(width) * height * 4),
      mapY(size_t(width) * height * 4);
  hand::lensMapForNpp<<<dim3((width + 31) / 32, (height + 7) / 8), dim3(32, 8),
                        0, stream>>>(static_cast<float *>(mapX.ptr),
                                     static_cast<float *>(mapY.ptr), width,
                                     height, p);
  NppStreamContext ctx = nppContext(stream);
  impls.push_back({"NPP",
                   [&, ctx](int first, int count, cudaStream_t) {
                     NppiSize size = {width, height};
                     NppiRect roi = {0, 0, width, height};
                     for (int s = first; s < first + count; ++s)
                       NPP(nppiRemap_8u_C3R_Ctx(
                           in.u8(s), size, width * 3, roi,
                           static_cast<const Npp32f *>(mapX.ptr), width * 4,
                           static_cast<const Npp32f *>(mapY.ptr), width * 4,
                           out[2]->u8(s), width * 3, size, NPPI_INTER_LINEAR,
                           ctx));
                   },
                   {}});
#else
  // Keep implementation numbers (and so output buffers) as with NPP.
  impls.push_back({"NPP (not built)", [](int, int, cudaStream_t) {}, {}});
#endif
  addVariants(impls, variants, variantFrames);
  measure(
      {kLens, 6.0}, sizeName, width, height, impls,
      [&](int i, int f, std::vector<uint8_t> &host) {
        host.resize(frameBytes);
        CUDA(cudaMemcpy(host.data(), out[bufferIndex(i)]->ptr(f), frameBytes,
                        cudaMemcpyDeviceToHost));
      },
      [&](int i, int f) {
        CUDA(cudaMemset(out[bufferIndex(i)]->ptr(f), 0xA5, frameBytes));
      },
      sets, reps, stream);
}

/// `variants`: arvrc builds of the Gaussian with other schedules, each
/// (name, kernel), timed beside the example's own.
void benchGaussian(ArvrKernel &k,
                   std::vector<std::pair<std::string, ArvrKernel *>> &variants,
                   const HostImage &photo, const std::string &sizeName,
                   int width, int height, int reps, cudaStream_t stream) {
  const float sigma = 2.0f;
  const int radius = 4;
  size_t frameBytes = size_t(width) * height * 3;
  int sets = setsFor(2 * frameBytes);
  std::unique_ptr<FramePool> input = rgbInputs(photo, width, height, sets);
  FramePool &in = *input;
  std::vector<std::unique_ptr<FramePool>> out =
      outputPools(3, sets, frameBytes);
  std::map<std::string, double> scalars = {{"sigma", sigma},
                                           {"radius", radius}};
  ArvrSets frames = rgbSets(k, width, height, in, *out[0], scalars, sets);
  std::vector<ArvrSets> variantFrames =
      variantSets(variants, width, height, in, out, scalars, sets, frameBytes);

  // The hand kernel's weights, computed on the device as arvrc's are.
  DeviceBuffer weights((2 * radius + 1) * 4);
  hand::gaussianWeights<<<1, 1, 0, stream>>>(static_cast<float *>(weights.ptr),
                                             sigma, radius);
  CUDA(cudaMemcpyToSymbolAsync(hand::gaussWeights, weights.ptr, weights.bytes,
                               0, cudaMemcpyDeviceToDevice, stream));
  size_t shared = hand::gaussianSharedBytes(radius);
  hand::GaussianKernel gaussianHand = hand::gaussianHandFor(radius);
  CUDA(cudaFuncSetAttribute(
      gaussianHand, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared)));

  std::vector<Impl> impls;
  impls.push_back({"arvrc", arvrLauncher(k, frames), factsOf(frames.one[0])});
  impls.push_back({"hand CUDA",
                   [&, shared](int s, int count, cudaStream_t st) {
                     gaussianHand<<<hand::gaussianGrid(width, height, count),
                                    hand::kGaussThreads, shared, st>>>(
                         in.u8(s), out[1]->u8(s), width, height);
                   },
                   {factsOfHand("gaussianHandR<4>", gaussianHand,
                                hand::kGaussThreads, shared)}});
#ifdef ARVR_BENCH_NPP
  NppStreamContext ctx = nppContext(stream);
  impls.push_back({"NPP",
                   [&, ctx](int first, int count, cudaStream_t) {
                     NppiSize size = {width, height};
                     NppiPoint offset = {0, 0};
                     for (int s = first; s < first + count; ++s)
                       NPP(nppiFilterGaussBorder_8u_C3R_Ctx(
                           in.u8(s), width * 3, size, offset, out[2]->u8(s),
                           width * 3, size, NPP_MASK_SIZE_9_X_9,
                           NPP_BORDER_REPLICATE, ctx));
                   },
                   {}});
#else
  // Keep implementation numbers (and so output buffers) as with NPP.
  impls.push_back({"NPP (not built)", [](int, int, cudaStream_t) {}, {}});
#endif
  addVariants(impls, variants, variantFrames);
  measure(
      {kGaussian, 6.0}, sizeName, width, height, impls,
      [&](int i, int f, std::vector<uint8_t> &host) {
        host.resize(frameBytes);
        CUDA(cudaMemcpy(host.data(), out[bufferIndex(i)]->ptr(f), frameBytes,
                        cudaMemcpyDeviceToHost));
      },
      [&](int i, int f) {
        CUDA(cudaMemset(out[bufferIndex(i)]->ptr(f), 0xA5, frameBytes));
      },
      sets, reps, stream);
}

/// `variants`: arvrc builds of NV12 by a changed compiler (`--extra`), each
/// (name, kernel), timed beside the example's own.
void benchNv12(ArvrKernel &k,
               std::vector<std::pair<std::string, ArvrKernel *>> &variants,
               const HostImage &photo, const std::string &sizeName, int width,
               int height, int reps, cudaStream_t stream) {
  size_t lumaBytes = size_t(width) * height, frameIn = lumaBytes * 3 / 2;
  size_t frameOut = lumaBytes * 3;
  int sets = setsFor(frameIn + frameOut);
  std::vector<uint8_t> nv12 =
      makeNv12Frame(makeRgbFrame(photo, width, height), width, height);
  // The planes of each kind one after another (a batch's luma planes are
  // stacked, and its chroma planes).
  FramePool luma(sets, lumaBytes), chroma(sets, frameIn - lumaBytes);
  std::vector<std::unique_ptr<FramePool>> out = outputPools(3, sets, frameOut);
  for (int s = 0; s < sets; ++s) {
    CUDA(cudaMemcpy(luma.ptr(s), nv12.data(), lumaBytes,
                    cudaMemcpyHostToDevice));
    CUDA(cudaMemcpy(chroma.ptr(s), nv12.data() + lumaBytes, frameIn - lumaBytes,
                    cudaMemcpyHostToDevice));
  }
  // The planes in, output pool `o` out.
  auto setsOf = [&](ArvrKernel &kernel, size_t o) {
    return arvrSets(
        kernel,
        [&, o](int s) {
          std::vector<Binding> b(kernel.args.size());
          b[0].shape = {height, width, 1};
          b[0].pointer = luma.address(s);
          b[1].shape = {height / 2, width / 2, 2};
          b[1].pointer = chroma.address(s);
          b[2].shape = {height, width, 3};
          b[2].pointer = out[o]->address(s);
          return b;
        },
        sets);
  };
  ArvrSets frames = setsOf(k, 0);
  std::vector<ArvrSets> variantFrames;
  for (auto &variant : variants) {
    out.emplace_back(new FramePool(sets, frameOut));
    variantFrames.push_back(setsOf(*variant.second, out.size() - 1));
  }
  std::vector<Impl> impls;
  impls.push_back({"arvrc", arvrLauncher(k, frames), factsOf(frames.one[0])});
  dim3 block = hand::nv12Block();
  impls.push_back(
      {"hand CUDA",
       [&, block](int s, int count, cudaStream_t st) {
         hand::nv12ToRgbHand<<<hand::nv12Grid(width, height, count), block, 0,
                               st>>>(luma.u8(s), chroma.u8(s), out[1]->u8(s),
                                     width, height);
       },
       {factsOfHand("nv12ToRgbHand", hand::nv12ToRgbHand, block.x * block.y,
                    0)}});
#ifdef ARVR_BENCH_NPP
  NppStreamContext ctx = nppContext(stream);
  impls.push_back({"NPP",
                   [&, ctx](int first, int count, cudaStream_t) {
                     for (int s = first; s < first + count; ++s) {
                       const Npp8u *planes[2] = {luma.u8(s), chroma.u8(s)};
                       NppiSize size = {width, height};
                       NPP(nppiNV12ToRGB_8u_P2C3R_Ctx(
                           planes, width, out[2]->u8(s), width * 3, size, ctx));
                     }
                   },
                   {}});
#else
  // Keep implementation numbers (and so output buffers) as with NPP.
  impls.push_back({"NPP (not built)", [](int, int, cudaStream_t) {}, {}});
#endif
  addVariants(impls, variants, variantFrames);
  measure(
      {kNv12, 4.5}, sizeName, width, height, impls,
      [&](int i, int f, std::vector<uint8_t> &host) {
        host.resize(frameOut);
        CUDA(cudaMemcpy(host.data(), out[bufferIndex(i)]->ptr(f), frameOut,
                        cudaMemcpyDeviceToHost));
      },
      [&](int i, int f) {
        CUDA(cudaMemset(out[bufferIndex(i)]->ptr(f), 0xA5, frameOut));
      },
      sets, reps, stream);
}

/// Device-to-device copy bandwidth (read + write), the roofline.
double measureCopy(cudaStream_t stream) {
  size_t bytes = std::max<size_t>(size_t(4) * device.l2Bytes, 1 << 30);
  DeviceBuffer a(bytes), b(bytes);
  CUDA(cudaMemset(a.ptr, 1, bytes));
  cudaEvent_t start, stop;
  CUDA(cudaEventCreate(&start));
  CUDA(cudaEventCreate(&stop));
  std::vector<double> us;
  for (int rep = -3; rep < 20; ++rep) {
    CUDA(cudaEventRecord(start, stream));
    CUDA(
        cudaMemcpyAsync(b.ptr, a.ptr, bytes, cudaMemcpyDeviceToDevice, stream));
    CUDA(cudaEventRecord(stop, stream));
    CUDA(cudaEventSynchronize(stop));
    float ms;
    CUDA(cudaEventElapsedTime(&ms, start, stop));
    if (rep >= 0)
      us.push_back(ms * 1000.0);
  }
  double median = stats(us).median;
  std::printf("# copy D2D: %zu MiB in %.1f us median: %.1f GB/s (read + "
              "write)\n",
              bytes >> 20, median, 2.0 * bytes / median / 1e3);
  return 2.0 * bytes / median;
}

/// One 4K frame through arvrc's kernel: upload, kernels, download.
void endToEnd(ArvrKernel &k, const std::string &name, const HostImage &photo,
              cudaStream_t stream) {
  const int width = 3840, height = 2160;
  bool nv12 = name == kNv12;
  size_t inBytes =
      nv12 ? size_t(width) * height * 3 / 2 : size_t(width) * height * 3;
  size_t outBytes = size_t(width) * height * 3;
  uint8_t *hostIn, *hostOut;
  CUDA(cudaMallocHost(&hostIn, inBytes));
  CUDA(cudaMallocHost(&hostOut, outBytes));
  std::vector<uint8_t> rgb = makeRgbFrame(photo, width, height);
  if (nv12) {
    std::vector<uint8_t> f = makeNv12Frame(rgb, width, height);
    std::memcpy(hostIn, f.data(), inBytes);
  } else {
    std::memcpy(hostIn, rgb.data(), inBytes);
  }
  DeviceBuffer in(inBytes), out(outBytes);
  hand::LensParams p = lensFor(width, height);
  std::map<std::string, double> scalars = {
      {"fx", p.fx}, {"fy", p.fy},        {"cx", p.cx},          {"cy", p.cy},
      {"k1", p.k1}, {"k2", p.k2},        {"p1", p.p1},          {"p2", p.p2},
      {"k3", p.k3}, {"ca_red", p.caRed}, {"ca_blue", p.caBlue}, {"sigma", 2.0},
      {"radius", 4}};
  auto b = bindArgs(
      k,
      [&](const PlanArg &arg) {
        if (arg.isOutput)
          return rgbImage(width, height, out.address());
        if (nv12 && arg.name == "frame_uv")
          return Binding{{height / 2, width / 2, 2},
                         in.address() + size_t(width) * height,
                         0};
        if (nv12)
          return Binding{{height, width, 1}, in.address(), 0};
        return rgbImage(width, height, in.address());
      },
      scalars);
  ArvrFrame frame = prepare(k, b);
  cudaEvent_t e[4];
  for (auto &ev : e)
    CUDA(cudaEventCreate(&ev));
  std::vector<double> total, up, kern, down;
  for (int rep = -3; rep < 20; ++rep) {
    CUDA(cudaEventRecord(e[0], stream));
    CUDA(cudaMemcpyAsync(in.ptr, hostIn, inBytes, cudaMemcpyHostToDevice,
                         stream));
    CUDA(cudaEventRecord(e[1], stream));
    launchArvr(frame, stream);
    CUDA(cudaEventRecord(e[2], stream));
    CUDA(cudaMemcpyAsync(hostOut, out.ptr, outBytes, cudaMemcpyDeviceToHost,
                         stream));
    CUDA(cudaEventRecord(e[3], stream));
    CUDA(cudaEventSynchronize(e[3]));
    float ms[3];
    for (int i = 0; i < 3; ++i)
      CUDA(cudaEventElapsedTime(&ms[i], e[i], e[i + 1]));
    if (rep >= 0) {
      up.push_back(ms[0] * 1e3);
      kern.push_back(ms[1] * 1e3);
      down.push_back(ms[2] * 1e3);
      total.push_back((ms[0] + ms[1] + ms[2]) * 1e3);
    }
  }
  char line[256];
  std::snprintf(line, sizeof line,
                "end-to-end,%s,3840x2160,1,arvrc,%.1f,%.1f,%.1f,%.1f",
                name.c_str(), stats(total).median, stats(up).median,
                stats(kern).median, stats(down).median);
  csv << line << "\n";
  std::printf("%s\n", line);
  for (auto &ev : e)
    cudaEventDestroy(ev);
  cudaFreeHost(hostIn);
  cudaFreeHost(hostOut);
}

// The second set (`--set more`): five more examples.
#include "more_examples.cuh"

/// The command line (see the file comment).
struct Options {
  std::string plans, photoPath, csvPath = "bench.csv", set = "main", extra;
  int reps = 60;
};

/// The options of `argv`, checked; `--count` sets countMode.
Options parseOptions(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc)
        die("missing value after " + a);
      return argv[++i];
    };
    if (a == "--plans")
      o.plans = value();
    else if (a == "--photo")
      o.photoPath = value();
    else if (a == "--reps")
      o.reps = std::stoi(value());
    else if (a == "--csv")
      o.csvPath = value();
    else if (a == "--set")
      o.set = value();
    else if (a == "--extra")
      o.extra = value();
    else if (a == "--count")
      countMode = true;
    else if (a == "--only" || a == "--sizes") {
      std::set<std::string> known = {"1080p", "4K", "8K"};
      if (a == "--only") {
        known = {kLens, kGaussian, kNv12};
        for (const MoreExample &e : kMoreExamples)
          known.insert(e.kernel);
      }
      std::set<std::string> &into = a == "--only" ? onlyKernels : onlySizes;
      std::stringstream list(value());
      for (std::string name; std::getline(list, name, ',');) {
        if (!known.count(name))
          die(a + ": no " + (a == "--only" ? "example" : "size") + " '" + name +
              "'");
        into.insert(name);
      }
    } else
      die("unknown option " + a);
  }
  if (o.plans.empty())
    die("usage: arvr_bench --plans DIR [--photo P.ppm] [--reps N] [--csv "
        "F] [--set main|more] [--extra DIR] [--count] [--only K1,K2] "
        "[--sizes S1,S2]");
  if (o.reps < 50)
    die("at least 50 repetitions");
  if (o.set != "main" && o.set != "more")
    die("--set takes main (the three examples) or more (five others)");
  return o;
}

} // namespace

int main(int argc, char **argv) {
  const Options options = parseOptions(argc, argv);
  const std::string &plans = options.plans, &extra = options.extra;
  const int reps = options.reps;

  CUDA(cudaFree(nullptr)); // The runtime's primary context, shared below.
  CU(cuInit(0));
  CUDA(cudaGetDeviceProperties(&device.prop, 0));
  CUDA(cudaDeviceGetAttribute(&device.l2Bytes, cudaDevAttrL2CacheSize, 0));
  int driverVersion = 0;
  CUDA(cudaDriverGetVersion(&driverVersion));
  std::printf("# %s, sm_%d%d, %d SMs, L2 %d MiB, driver API %d\n",
              device.prop.name, device.prop.major, device.prop.minor,
              device.prop.multiProcessorCount, device.l2Bytes >> 20,
              driverVersion);
  cudaStream_t stream;
  CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));

  csv.open(options.csvPath);
  csv << "kernel,size,resolution,batch,implementation,median_us,min_us,max_us,"
         "GBps,pct_of_copy,floor_us,registers,spill_bytes,occupancy,"
         "vs_hand,vs_npp,output_check\n";
  device.copyBytesPerUs = measureCopy(stream);
  csv << "# copy_GBps," << device.copyBytesPerUs / 1e3 << "\n";

  HostImage photo;
  if (!options.photoPath.empty())
    photo = readPnm(options.photoPath);
  if (options.set == "more") {
    benchMoreExamples(plans, photo, reps, extra, stream);
    CUDA(cudaStreamDestroy(stream));
    return 0;
  }

  ArvrKernel lens, gauss, nv12;
  lens.load(plans, kLens);
  gauss.load(plans, kGaussian);
  nv12.load(plans, kNv12);
  // Other schedules of the Gaussian and the lens, when bench/run.sh built
  // them.
  std::vector<std::unique_ptr<ArvrKernel>> variantKernels;
  std::vector<std::pair<std::string, ArvrKernel *>> variants = loadVariants(
      plans,
      {{"gaussian_blur_generic", "arvrc generic"},
       {"gaussian_blur_fastmath", "arvrc --fast-math"},
       {"gaussian_blur_shared_32x16", "arvrc shared 32x16"},
       {"gaussian_blur_shared_64x8", "arvrc shared 64x8"},
       {"gaussian_blur_root", "arvrc root"},
       {"gaussian_blur_inline_weights", "arvrc weights inline"},
       {"gaussian_blur_shared_px4", "arvrc shared 4 px/thread"},
       {"gaussian_blur_shared_px4_unroll", "arvrc shared 4 px unrolled"},
       {"gaussian_blur_root_px2", "arvrc root 2 px/thread"},
       {"gaussian_blur_cubin", "arvrc cubin (ptxas)"},
       {"gaussian_blur_auto", "arvrc no schedule"}},
      variantKernels);
  std::vector<std::pair<std::string, ArvrKernel *>> lensVariants =
      loadVariants(plans,
                   {{"lens_undistort_px1", "arvrc 1 px/thread"},
                    {"lens_undistort_px4", "arvrc 4 px/thread"},
                    {"lens_undistort_32x8", "arvrc 32x8"}},
                   variantKernels);
  addExtraVariants(extra, kGaussian, variants, variantKernels);
  addExtraVariants(extra, kLens, lensVariants, variantKernels);
  std::vector<std::pair<std::string, ArvrKernel *>> nv12Variants;
  addExtraVariants(extra, kNv12, nv12Variants, variantKernels);

  struct Size {
    const char *name;
    int width, height;
  };
  for (Size s : {Size{"1080p", 1920, 1080}, Size{"4K", 3840, 2160},
                 Size{"8K", 7680, 4320}}) {
    if ((countMode && s.width != 3840) || !wantedSize(s.name))
      continue;
    if (wanted(kLens))
      benchLens(lens, lensVariants, photo, s.name, s.width, s.height, reps,
                stream);
    if (wanted(kGaussian))
      benchGaussian(gauss, variants, photo, s.name, s.width, s.height, reps,
                    stream);
    if (wanted(kNv12))
      benchNv12(nv12, nv12Variants, photo, s.name, s.width, s.height, reps,
                stream);
  }
  if (countMode) {
    CUDA(cudaStreamDestroy(stream));
    return 0;
  }
  csv << "# end-to-end: kernel,resolution,batch,implementation,total_us,"
         "upload_us,kernel_us,download_us\n";
  if (wanted(kLens))
    endToEnd(lens, kLens, photo, stream);
  if (wanted(kGaussian))
    endToEnd(gauss, kGaussian, photo, stream);
  if (wanted(kNv12))
    endToEnd(nv12, kNv12, photo, stream);
  CUDA(cudaStreamDestroy(stream));
  return 0;
}
