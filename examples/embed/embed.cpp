// embed: blurs frames with a Gaussian compiled into this program by arvrc
// (examples/gaussian_blur.arvr; see CMakeLists.txt), through the arvr
// runtime's C++ API: on the CPU from the object linked in, or, with
// --gpu, on the GPU from the PTX compiled beside it. Frames of one size go
// to the kernel in one call.
//
//   embed [--gpu [PLAN]] [--sigma S] [--radius R] IN.ppm OUT.ppm [IN2 OUT2 ...]
//
// Images are binary PPM (P6) or PGM (P5), 8 bits. Exit 0, or 1 with a
// message naming the file or the call that failed; no output is written
// unless every frame ran.
#include "gaussian_blur.h" // Generated: arvr_open_gaussian_blur().

#include <arvr/runtime.hpp>

#ifdef EMBED_CUDA
#include <cuda_runtime.h>
#endif

#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

struct Frame {
  int width = 0, height = 0, channels = 0;
  std::vector<unsigned char> pixels;
};

std::runtime_error failure(const std::string &path, const std::string &why) {
  return std::runtime_error(path + ": " + why);
}

/// The next header number of a PNM file, skipping blanks and comments.
int pnmNumber(std::istream &in, const std::string &path) {
  int c;
  while ((c = in.peek()) != EOF && (std::isspace(c) || c == '#'))
    if (in.get() == '#')
      while ((c = in.get()) != EOF && c != '\n')
        ;
  long value = -1;
  if (!(in >> value) || value <= 0 || value > 65535)
    throw failure(path, "a PPM/PGM header with a bad size");
  return static_cast<int>(value);
}

Frame readPnm(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw failure(path, "cannot be read");
  char magic[2] = {0, 0};
  in.read(magic, 2);
  if (magic[0] != 'P' || (magic[1] != '5' && magic[1] != '6'))
    throw failure(path, "not a binary PPM (P6) or PGM (P5) image");
  Frame f;
  f.channels = magic[1] == '6' ? 3 : 1;
  f.width = pnmNumber(in, path);
  f.height = pnmNumber(in, path);
  if (pnmNumber(in, path) != 255)
    throw failure(path, "only 8-bit images (maximum value 255) are read");
  in.get(); // The one blank after the header.
  f.pixels.resize(size_t(f.width) * f.height * f.channels);
  if (!in.read(reinterpret_cast<char *>(f.pixels.data()), f.pixels.size()))
    throw failure(path, "truncated: fewer pixels than its header says");
  return f;
}

/// Written aside and renamed, so that a failure leaves no partial file.
void writePnm(const std::string &path, const Frame &f) {
  std::string partial = path + ".partial";
  {
    std::ofstream out(partial, std::ios::binary);
    out << (f.channels == 3 ? "P6" : "P5") << "\n"
        << f.width << " " << f.height << "\n255\n";
    out.write(reinterpret_cast<const char *>(f.pixels.data()), f.pixels.size());
    if (!out.flush())
      throw failure(path, "cannot be written");
  }
  if (std::rename(partial.c_str(), path.c_str()) != 0)
    throw failure(path, "cannot be written");
}

struct Options {
  std::string gpuPlan; ///< Empty: the CPU.
  bool gpu = false;
  float sigma = 2.0f;
  int radius = 4;
  std::vector<std::string> inputs, outputs;
};

Options parse(int argc, char **argv) {
  Options o;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc)
        throw std::runtime_error("missing value after " + a);
      return argv[++i];
    };
    if (a == "--gpu") {
      o.gpu = true;
      if (i + 1 < argc &&
          std::string(argv[i + 1]).find(".plan.json") != std::string::npos)
        o.gpuPlan = argv[++i];
    } else if (a == "--sigma") {
      o.sigma = std::stof(next());
    } else if (a == "--radius") {
      o.radius = std::stoi(next());
    } else {
      files.push_back(a);
    }
  }
  if (files.empty() || files.size() % 2)
    throw std::runtime_error(
        "usage: embed [--gpu [PLAN]] [--sigma S] [--radius R] IN OUT [IN OUT "
        "...]");
  for (size_t i = 0; i < files.size(); i += 2) {
    o.inputs.push_back(files[i]);
    o.outputs.push_back(files[i + 1]);
  }
  return o;
}

/// Binds the frames (stacked in `in`, outputs in `out`, both the caller's:
/// host or device memory as the kernel needs) and launches once for all.
void bindAndLaunch(arvr::Kernel &k, const Frame &first, const void *in,
                   void *out, int frames, const Options &o, void *stream) {
  k.image("src", in, first.width, first.height, first.channels)
      .scalar("sigma", o.sigma)
      .scalar("radius", int32_t(o.radius));
  auto [w, h, c] = k.outputSize("out0");
  k.image("out0", out, w, h, c).launch(stream, frames);
}

#ifdef EMBED_CUDA
void cuda(cudaError_t e, const char *what) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

/// The frames through the GPU: uploaded, blurred, downloaded.
double runGpu(arvr::Kernel &k, const Frame &first,
              const std::vector<unsigned char> &in,
              std::vector<unsigned char> &out, int frames, const Options &o) {
  void *dIn = nullptr, *dOut = nullptr;
  cudaStream_t stream;
  cuda(cudaStreamCreate(&stream), "cudaStreamCreate");
  cuda(cudaMalloc(&dIn, in.size()), "cudaMalloc");
  cuda(cudaMalloc(&dOut, out.size()), "cudaMalloc");
  cuda(cudaMemcpy(dIn, in.data(), in.size(), cudaMemcpyHostToDevice), "upload");
  bindAndLaunch(k, first, dIn, dOut, frames, o, stream); // Warm-up: JIT.
  cuda(cudaStreamSynchronize(stream), "the kernel");
  auto start = std::chrono::steady_clock::now();
  k.launch(stream, frames);
  cuda(cudaStreamSynchronize(stream), "the kernel");
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  cuda(cudaMemcpy(out.data(), dOut, out.size(), cudaMemcpyDeviceToHost),
       "download");
  cudaFree(dIn);
  cudaFree(dOut);
  cudaStreamDestroy(stream);
  return seconds;
}
#endif

int run(const Options &o) {
  std::vector<Frame> frames;
  for (const std::string &path : o.inputs) {
    frames.push_back(readPnm(path));
    const Frame &f = frames.back(), &first = frames.front();
    if (f.width != first.width || f.height != first.height ||
        f.channels != first.channels)
      throw failure(path, "not the size of " + o.inputs.front() +
                              ": frames of one call have one size");
  }
  const Frame &first = frames.front();
  std::vector<unsigned char> in, out(first.pixels.size() * frames.size());
  for (const Frame &f : frames)
    in.insert(in.end(), f.pixels.begin(), f.pixels.end());
  int n = static_cast<int>(frames.size());
  double seconds = 0;
  if (o.gpu) {
#ifdef EMBED_CUDA
    arvr::Kernel k(o.gpuPlan.empty() ? std::string(EMBED_GPU_PLAN) : o.gpuPlan);
    seconds = runGpu(k, first, in, out, n, o);
#else
    throw std::runtime_error("--gpu: this embed was built without CUDA");
#endif
  } else {
    arvr::Kernel k(arvr_open_gaussian_blur);
    auto start = std::chrono::steady_clock::now();
    bindAndLaunch(k, first, in.data(), out.data(), n, o, nullptr);
    seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
  }
  for (int i = 0; i < n; ++i) {
    Frame result = first;
    std::copy(out.begin() + i * first.pixels.size(),
              out.begin() + (i + 1) * first.pixels.size(),
              result.pixels.begin());
    writePnm(o.outputs[i], result);
  }
  std::printf("%d frame(s) of %dx%dx%d on the %s: %.3f ms a frame\n", n,
              first.width, first.height, first.channels, o.gpu ? "GPU" : "CPU",
              seconds * 1e3 / n);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  try {
    return run(parse(argc, argv));
  } catch (const arvr::Error &e) {
    std::fprintf(stderr, "embed: arvr: %s\n", e.what());
  } catch (const std::exception &e) {
    std::fprintf(stderr, "embed: %s\n", e.what());
  }
  return 1;
}
