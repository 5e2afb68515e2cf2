//===- gpu_run.cpp - A kernel run on the GPU through the runtime library --===//
//
// The GPU machine's check of libarvr_runtime (scripts/gpu-tests.sh builds
// it with nvcc and compares its outputs with `arvrc run --target cpu`):
// reads FRAMES binary PPM images of one size, uploads them one after
// another into one device buffer, binds the kernel's first input image to
// it and every scalar to the values given, launches once for all the
// frames on a stream of its own, and writes each frame's first output as
// OUT_PREFIX<i>.ppm (or .pgm for one channel). With `--first`, the
// values after it are bound for a first launch, synchronised, before the
// scalars are bound again to those before it for the launch whose outputs
// are written: a launch the plan calls reusable (a table computed from
// the scalars) must run again for the new values, not keep the first's.
//
//   gpu_run PLAN OUT_PREFIX [name=value ...] [--first name=value ...]
//           -- IN.ppm [IN.ppm ...]
//
//===----------------------------------------------------------------------===//

#include "arvr/runtime.hpp"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace {

struct Pnm {
  int width = 0, height = 0, channels = 0;
  std::vector<unsigned char> pixels;
};

Pnm readPnm(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::string magic;
  int max = 0;
  Pnm p;
  in >> magic >> p.width >> p.height >> max;
  in.get();
  if (!in || (magic != "P6" && magic != "P5") || max != 255)
    throw std::runtime_error(path + ": not an 8-bit binary PPM/PGM");
  p.channels = magic == "P6" ? 3 : 1;
  p.pixels.resize(size_t(p.width) * p.height * p.channels);
  in.read(reinterpret_cast<char *>(p.pixels.data()), p.pixels.size());
  if (!in)
    throw std::runtime_error(path + ": truncated");
  return p;
}

void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

} // namespace

int main(int argc, char **argv) try {
  if (argc < 5)
    throw std::runtime_error(
        "usage: gpu_run PLAN OUT_PREFIX [name=value ...] -- IN.ppm ...");
  arvr::Kernel k(argv[1]);
  std::string prefix = argv[2];
  auto bind = [&](const std::string &p) {
    size_t eq = p.find('=');
    int index = k.index(p.substr(0, eq));
    std::string value = p.substr(eq + 1);
    std::string type = k.arg(index).type;
    if (type == "f32")
      k.scalar(p.substr(0, eq), std::stof(value));
    else if (type == "i1")
      k.scalar(p.substr(0, eq), value == "true" || value == "1");
    else
      k.scalar(p.substr(0, eq), int32_t(std::stoi(value)));
  };
  // The values are bound at once (the output's size may depend on them);
  // those after --first only for the first launch.
  std::vector<std::string> values, firstValues;
  int a = 3;
  for (bool isFirst = false; a < argc && std::string(argv[a]) != "--"; ++a) {
    if (std::string(argv[a]) == "--first") {
      isFirst = true;
    } else if (isFirst) {
      firstValues.push_back(argv[a]);
    } else {
      values.push_back(argv[a]);
      bind(argv[a]);
    }
  }
  std::vector<Pnm> frames;
  for (++a; a < argc; ++a)
    frames.push_back(readPnm(argv[a]));
  if (frames.empty())
    throw std::runtime_error("no input frames");
  const Pnm &first = frames[0];
  size_t inBytes = first.pixels.size();
  unsigned char *in = nullptr, *out = nullptr;
  check(cudaMalloc(&in, inBytes * frames.size()), "cudaMalloc");
  for (size_t f = 0; f < frames.size(); ++f)
    check(cudaMemcpy(in + f * inBytes, frames[f].pixels.data(), inBytes,
                     cudaMemcpyHostToDevice),
          "cudaMemcpy");
  int input = -1, output = -1;
  for (int i = 0; i < k.numArgs(); ++i) {
    arvr_arg_info info = k.arg(i);
    if (info.is_image && !info.is_output && input < 0)
      input = i;
    if (info.is_image && info.is_output && output < 0)
      output = i;
  }
  k.image(k.arg(input).name, in, first.width, first.height, first.channels);
  auto [w, h, c] = k.outputSize(k.arg(output).name);
  size_t outBytes = size_t(w) * h * c;
  check(cudaMalloc(&out, outBytes * frames.size()), "cudaMalloc");
  check(cudaMemset(out, 0xA5, outBytes * frames.size()), "cudaMemset");
  k.image(k.arg(output).name, out, w, h, c);
  cudaStream_t stream;
  check(cudaStreamCreate(&stream), "cudaStreamCreate");
  if (!firstValues.empty()) {
    for (const std::string &v : firstValues)
      bind(v);
    k.launch(stream, int(frames.size()));
    check(cudaStreamSynchronize(stream), "the first launch");
    for (const std::string &v : values)
      bind(v);
  }
  k.launch(stream, int(frames.size()));
  check(cudaStreamSynchronize(stream), "the kernel");
  std::vector<unsigned char> host(outBytes);
  for (size_t f = 0; f < frames.size(); ++f) {
    check(cudaMemcpy(host.data(), out + f * outBytes, outBytes,
                     cudaMemcpyDeviceToHost),
          "cudaMemcpy");
    std::string path = prefix + std::to_string(f) + (c == 1 ? ".pgm" : ".ppm");
    std::ofstream file(path, std::ios::binary);
    file << (c == 1 ? "P5\n" : "P6\n") << w << " " << h << "\n255\n";
    file.write(reinterpret_cast<const char *>(host.data()), host.size());
  }
  std::printf("gpu_run: %s, %zu frame(s) %dx%d -> %dx%dx%d\n", k.name().c_str(),
              frames.size(), first.width, first.height, w, h, c);
  cudaFree(in);
  cudaFree(out);
  return 0;
} catch (const std::exception &e) {
  std::fprintf(stderr, "gpu_run: %s\n", e.what());
  return 1;
}
