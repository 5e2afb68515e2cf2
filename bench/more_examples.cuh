//===- more_examples.cuh - The bench's second set: five more examples -----===//
//
// `arvr_bench --set more`: examples/bilateral, harris, pyr_down, stereo_sad
// and warp_perspective, arvrc's build of each (launched from its manifest,
// batch 1 and a batch of 8) against NPP where NPP has the operation, with
// the method of the first set (outputs checked first, interleaved, buffers
// rotated over 4x the L2):
//   - bilateral: nppiFilterBilateralGaussBorder_8u_C3R (radius 4, sigmas
//     squared as NPP takes them), its border replicated (NPP has no
//     reflect-101 here) and its window square (OpenCV's, and the example's,
//     is the disc of radius 4);
//   - harris: nppiFilterHarrisCornersBorder_8u32f_C1R (Sobel 3x3, a 3x3
//     window, k 0.04, scaled by 1/3060^4 as OpenCV scales the derivatives),
//     border replicated;
//   - warp_perspective: nppiWarpPerspectiveBack_8u_C3R with the example's
//     homography K R K^-1, bilinear;
//   - pyr_down (three levels) and stereo_sad (block matching): NPP has no
//     such operation (its Gaussian pyramid layer takes another kernel), so
//     arvrc is timed alone.
// NPP's outputs are not the examples' (borders, windows, scales differ):
// their distance is reported, never required.
//
// Included by arvr_bench.cu inside its namespace, after the helpers it uses
// (frames, pools, manifests, measure). The NPP peers are compiled with
// ARVR_BENCH_NPP_MORE (bench/run.sh tries that first, then NPP for the
// first set alone), so that an NPP without one of these functions costs
// only these peers.
//
//===----------------------------------------------------------------------===//

/// The mean of an RGB8 frame's channels, one byte a pixel.
std::vector<uint8_t> greyOf(const std::vector<uint8_t> &rgb) {
  std::vector<uint8_t> grey(rgb.size() / 3);
  for (size_t p = 0; p < grey.size(); ++p)
    grey[p] = uint8_t((rgb[3 * p] + rgb[3 * p + 1] + rgb[3 * p + 2]) / 3);
  return grey;
}

/// `frame` moved left by `shift` columns (the last column repeated): a
/// second camera's view, `shift` pixels of disparity.
std::vector<uint8_t> shiftedLeft(const std::vector<uint8_t> &frame, int width,
                                 int channels, int shift) {
  std::vector<uint8_t> out(frame.size());
  size_t row = size_t(width) * channels;
  for (size_t y = 0; y < frame.size() / row; ++y)
    for (int x = 0; x < width; ++x)
      for (int c = 0; c < channels; ++c)
        out[y * row + size_t(x) * channels + c] =
            frame[y * row + size_t(std::min(x + shift, width - 1)) * channels +
                  c];
  return out;
}

/// `sets` copies of `frame`, one after another.
std::unique_ptr<FramePool> poolOf(const std::vector<uint8_t> &frame, int sets) {
  auto pool = std::make_unique<FramePool>(sets, frame.size());
  for (int s = 0; s < sets; ++s)
    CUDA(cudaMemcpy(pool->ptr(s), frame.data(), frame.size(),
                    cudaMemcpyHostToDevice));
  return pool;
}

struct MoreExample {
  std::string kernel;
  double idealBytesPerPixel; ///< Of the first input's pixels.
  bool f32 = false;
};

/// The scalars each example runs with at `width` x `height`: its defaults,
/// the warp's intrinsics scaled from OpenCV's 640x480 sample camera.
std::map<std::string, double> moreScalars(int width, int height) {
  return {{"sigma_color", 30.0},
          {"sigma_space", 5.0},
          {"k", 0.04},
          {"max_d", 63},
          {"fx", 535.9 * width / 640.0},
          {"fy", 535.9 * height / 480.0},
          {"cx", width / 2.0},
          {"cy", height / 2.0},
          {"yaw", 4.0},
          {"pitch", -2.5},
          {"roll", 1.5}};
}

#ifdef ARVR_BENCH_NPP_MORE
/// The warp's homography from output pixels to source pixels, K R K^-1,
/// R as examples/warp_perspective.arvr builds it (degrees, z-x-y).
void warpHomography(const std::map<std::string, double> &s, double h[3][3]) {
  const double rad = 0.017453292519943295;
  double ay = s.at("yaw") * rad, ax = s.at("pitch") * rad,
         az = s.at("roll") * rad;
  double r[3][3] = {
      {std::cos(az) * std::cos(ay) - std::sin(az) * std::sin(ax) * std::sin(ay),
       -std::sin(az) * std::cos(ax),
       std::cos(az) * std::sin(ay) +
           std::sin(az) * std::sin(ax) * std::cos(ay)},
      {std::sin(az) * std::cos(ay) + std::cos(az) * std::sin(ax) * std::sin(ay),
       std::cos(az) * std::cos(ax),
       std::sin(az) * std::sin(ay) -
           std::cos(az) * std::sin(ax) * std::cos(ay)},
      {-std::cos(ax) * std::sin(ay), std::sin(ax),
       std::cos(ax) * std::cos(ay)}};
  double fx = s.at("fx"), fy = s.at("fy"), cx = s.at("cx"), cy = s.at("cy");
  double k[3][3] = {{fx, 0, cx}, {0, fy, cy}, {0, 0, 1}};
  double kInv[3][3] = {{1 / fx, 0, -cx / fx}, {0, 1 / fy, -cy / fy}, {0, 0, 1}};
  double kr[3][3] = {};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int m = 0; m < 3; ++m)
        kr[i][j] += k[i][m] * r[m][j];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      h[i][j] = 0;
      for (int m = 0; m < 3; ++m)
        h[i][j] += kr[i][m] * kInv[m][j];
    }
}

/// The size NPP's Harris wants for its scratch buffer, whichever integer
/// type this NPP's query writes.
template <typename Size>
size_t harrisScratch(NppStatus (*query)(NppiSize, Size *), NppiSize roi) {
  Size bytes = 0;
  NPP(query(roi, &bytes));
  return size_t(bytes);
}

/// NPP's version of `kernel`, writing into `peer`, or none.
std::function<void(int, int, cudaStream_t)>
nppPeer(const std::string &kernel, const std::vector<FramePool *> &in,
        FramePool &peer, int width, int height,
        const std::map<std::string, double> &scalars,
        std::vector<std::unique_ptr<DeviceBuffer>> &owned,
        cudaStream_t stream) {
  NppStreamContext ctx = nppContext(stream);
  NppiSize size = {width, height};
  NppiPoint origin = {0, 0};
  FramePool &src = *in[0];
  if (kernel == "bilateral")
    return [&src, &peer, ctx, size, origin](int first, int count,
                                            cudaStream_t) {
      for (int s = first; s < first + count; ++s)
        NPP(nppiFilterBilateralGaussBorder_8u_C3R_Ctx(
            src.u8(s), size.width * 3, size, origin, peer.u8(s), size.width * 3,
            size, 4, 1, 30.0f * 30.0f, 5.0f * 5.0f, NPP_BORDER_REPLICATE, ctx));
    };
  if (kernel == "harris") {
    owned.emplace_back(new DeviceBuffer(
        harrisScratch(nppiFilterHarrisCornersBorderGetBufferSize, size)));
    Npp8u *scratch = owned.back()->u8();
    const float scale = float(1.0 / std::pow(3060.0, 4));
    return [&src, &peer, ctx, size, origin, scratch,
            scale](int first, int count, cudaStream_t) {
      for (int s = first; s < first + count; ++s)
        NPP(nppiFilterHarrisCornersBorder_8u32f_C1R_Ctx(
            src.u8(s), size.width, size, origin,
            reinterpret_cast<Npp32f *>(peer.u8(s)), size.width * 4, size,
            NPP_FILTER_SOBEL, NPP_MASK_SIZE_3_X_3, NPP_MASK_SIZE_3_X_3, 0.04f,
            scale, NPP_BORDER_REPLICATE, scratch, ctx));
    };
  }
  if (kernel == "warp_perspective") {
    auto h = std::make_shared<std::array<double[3], 3>>();
    warpHomography(scalars, h->data());
    return [&src, &peer, ctx, size, h](int first, int count, cudaStream_t) {
      NppiRect all = {0, 0, size.width, size.height};
      for (int s = first; s < first + count; ++s)
        NPP(nppiWarpPerspectiveBack_8u_C3R_Ctx(
            src.u8(s), size, size.width * 3, all, peer.u8(s), size.width * 3,
            all, h->data(), NPPI_INTER_LINEAR, ctx));
    };
  }
  return {};
}
#endif

/// Bytes of one element of an image of `type`.
int elementBytes(const std::string &type) {
  return type == "f32" ? 4 : type == "u16" ? 2 : 1;
}

/// Example `e` at `width` x `height`: its inputs made from the photo (RGB
/// or grey as the kernel takes them; a second input is the first moved 16
/// columns, a stereo pair), its outputs sized by its plan.
void benchMore(ArvrKernel &k, const MoreExample &e, const HostImage &photo,
               const std::string &sizeName, int width, int height, int reps,
               const std::string &extra, cudaStream_t stream) {
  const auto &args = k.args;
  std::map<std::string, double> scalars = moreScalars(width, height);
  std::vector<uint8_t> rgb = makeRgbFrame(photo, width, height);
  // Each image argument's frame shape (H, W, C) and element bytes.
  std::vector<std::array<int64_t, 3>> shape(args.size());
  std::vector<std::vector<uint8_t>> inputFrames(args.size());
  int inputs = 0;
  for (size_t a = 0; a < args.size(); ++a) {
    if (!args[a].isImage || args[a].isOutput)
      continue;
    int channels = args[a].channels ? args[a].channels : 3;
    shape[a] = {height, width, channels};
    std::vector<uint8_t> frame = channels == 1 ? greyOf(rgb) : rgb;
    inputFrames[a] = inputs++ ? shiftedLeft(frame, width, channels, 16) : frame;
  }
  auto bindingOf = [&](ArvrKernel &of, const std::vector<uint64_t> &address) {
    return bindArgs(
        of,
        [&](const PlanArg &arg) {
          size_t a = &arg - of.args.data(); // The same arguments as k's.
          return Binding{shape[a], address[a], 0};
        },
        scalars);
  };
  auto binding = [&](const std::vector<uint64_t> &address) {
    return bindingOf(k, address);
  };
  std::vector<Binding> sizes = binding(std::vector<uint64_t>(args.size(), 0));
  size_t bytesPerSet = 0;
  for (size_t a = 0; a < args.size(); ++a) {
    if (args[a].isOutput) {
      auto whc = k.outputSize(sizes, int(a));
      shape[a] = {whc[1], whc[0], whc[2]};
    }
    if (args[a].isImage)
      bytesPerSet += size_t(shape[a][0]) * shape[a][1] * shape[a][2] *
                     elementBytes(args[a].type);
  }
  int sets = setsFor(bytesPerSet);
  std::vector<std::unique_ptr<FramePool>> pools(args.size());
  std::vector<FramePool *> inputPools, outputPools;
  for (size_t a = 0; a < args.size(); ++a) {
    if (!args[a].isImage)
      continue;
    if (args[a].isOutput)
      pools[a] = std::make_unique<FramePool>(
          sets, size_t(shape[a][0]) * shape[a][1] * shape[a][2] *
                    elementBytes(args[a].type));
    else
      pools[a] = poolOf(inputFrames[a], sets);
    (args[a].isOutput ? outputPools : inputPools).push_back(pools[a].get());
  }
  std::vector<std::unique_ptr<DeviceBuffer>> owned;
  auto setsOf = [&](ArvrKernel &of) {
    return arvrSets(
        of,
        [&](int s) {
          std::vector<uint64_t> address(args.size(), 0);
          for (size_t a = 0; a < args.size(); ++a)
            if (pools[a])
              address[a] = pools[a]->address(s);
          return bindingOf(of, address);
        },
        sets);
  };
  ArvrSets frames = setsOf(k);
  std::vector<Impl> impls;
  impls.push_back({"arvrc", arvrLauncher(k, frames), factsOf(frames.one[0])});
  // Builds by another compiler (`--extra`), on arvrc's frames and outputs.
  std::vector<std::unique_ptr<ArvrKernel>> extraKernels;
  std::vector<std::pair<std::string, ArvrKernel *>> extras;
  addExtraVariants(extra, e.kernel, extras, extraKernels);
  std::vector<std::unique_ptr<ArvrSets>> extraFrames;
  for (auto &[name, variant] : extras) {
    if (variant->args.size() != args.size()) {
      std::printf("# %s %s: other arguments than arvrc's, not run\n",
                  e.kernel.c_str(), name.c_str());
      continue;
    }
    extraFrames.push_back(std::make_unique<ArvrSets>(setsOf(*variant)));
    impls.push_back({name, arvrLauncher(*variant, *extraFrames.back()),
                     factsOf(extraFrames.back()->one[0])});
  }
  // NPP's output: the first output's shape.
  FramePool peer(sets, outputPools[0]->frameBytes);
#ifdef ARVR_BENCH_NPP_MORE
  if (auto launch = nppPeer(e.kernel, inputPools, peer, width, height, scalars,
                            owned, stream))
    impls.push_back({"NPP", launch, {}});
#endif
  auto poolsOf = [&](int impl) {
    return impls[impl].name != "NPP" ? outputPools
                                     : std::vector<FramePool *>{&peer};
  };
  measure(
      {e.kernel, e.idealBytesPerPixel, e.f32}, sizeName, width, height, impls,
      [&](int i, int f, std::vector<uint8_t> &host) {
        host.clear();
        for (FramePool *p : poolsOf(i)) {
          size_t at = host.size();
          host.resize(at + p->frameBytes);
          CUDA(cudaMemcpy(host.data() + at, p->ptr(f), p->frameBytes,
                          cudaMemcpyDeviceToHost));
        }
      },
      [&](int i, int f) {
        for (FramePool *p : poolsOf(i))
          CUDA(cudaMemset(p->ptr(f), 0xA5, p->frameBytes));
      },
      sets, reps, stream);
}

/// The second set's five examples.
const MoreExample kMoreExamples[] = {{"bilateral", 6.0},
                                     {"harris", 5.0, true},
                                     {"pyr_down", 3.0 + 3.0 * 21 / 64},
                                     {"stereo_sad", 3.0},
                                     {"warp_perspective", 6.0}};

/// The second set: each of its examples whose plan is in `dir`, at 1080p
/// and 4K.
void benchMoreExamples(const std::string &dir, const HostImage &photo, int reps,
                       const std::string &extra, cudaStream_t stream) {
  for (const MoreExample &e : kMoreExamples) {
    if (!wanted(e.kernel))
      continue;
    if (!std::ifstream(dir + "/" + e.kernel + ".plan.json")) {
      std::printf("# %s: no plan in %s, not run\n", e.kernel.c_str(),
                  dir.c_str());
      continue;
    }
    ArvrKernel k;
    k.load(dir, e.kernel);
    if (!countMode && wantedSize("1080p"))
      benchMore(k, e, photo, "1080p", 1920, 1080, reps, extra, stream);
    if (wantedSize("4K"))
      benchMore(k, e, photo, "4K", 3840, 2160, reps, extra, stream);
  }
}
