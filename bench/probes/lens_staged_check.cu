//===- lens_staged_check.cu - A hand lens staging its source in shared ----===//
//
// (Written against lensUndistortHand's maths before 2026-12-05 17:58, each
// channel's polynomial in full; the hand kernel now computes green's r^2
// once a pixel, so the byte-for-byte check below would need its maths
// restated alike before it is run again.)
//
// A probe, on the GPU machine, of the technique issue 15 names for a strong
// hand lens: hand::lensStagedHand below (8 pixels a thread, each block's
// source box in shared memory). Measured in the bench on the H200
// (2026-12-04 08:00, docs/gpu-runs.md) it was slower than the bench's
// lensUndistortHand (4K batch 8: 91.6 against 72.9 us: 96 registers, 31%
// occupancy), so the bench keeps the direct kernel; this file keeps the
// experiment. It checks that the staged kernel gives the bytes of
// hand::lensUndistortHand (the
// same maths, taps from global memory) at every size, odd ones included
// (widths not a multiple of 4 take the global path), on 1 and 3 stacked
// frames, with the bench's scaled calibration and with a strong one (boxes
// too big for the tile). Prints one line a case and exits 1 on any
// difference. Run it under compute-sanitizer too (`small`: the cases up to
// 1280x720 only).
//
//   nvcc -O3 -std=c++17 -arch=sm_90 -Ibench bench/probes/lens_staged_check.cu
//   ./a.out [small]
//
//===----------------------------------------------------------------------===//

#include "cuda/hand_kernels.cuh"

namespace hand {
/// Staged: a block of 8 x 16 threads computes a 64 x 16 tile, 8 pixels of
/// a row a thread. Each thread computes its 24 sample positions (kept in
/// registers), the block reduces their bounding box (warp reductions, then
/// shared atomics), and when that box, clipped to the image, fits in
/// kLensTileBytes it is copied into shared memory with 4-byte loads (rows
/// are 4-byte aligned when the width is a multiple of 4); the taps then
/// read shared memory, those outside the image 0. Otherwise (a box too
/// big, an odd width) the taps read global memory, as lensUndistortHand.
constexpr int kLensTileX = 64, kLensTileY = 16, kLensTileBytes = 20 * 1024;

/// A tap source: the image (global) or the staged box (shared), addressed
/// as base + (y - oy) * pitch + (x - ox) * 3 + c.
struct LensTaps {
  const uint8_t *base;
  int pitch, ox, oy;
};

template <bool kShared>
__device__ __forceinline__ float lensTap(const LensTaps &t, int offset) {
  if (kShared)
    return static_cast<float>(t.base[offset]);
  return static_cast<float>(__ldg(t.base + offset));
}

template <bool kShared>
__device__ __forceinline__ float
lensSample(const LensTaps &t, int width, int height, float u, float v, int c) {
  float x0f = floorf(u), y0f = floorf(v);
  float ax = u - x0f, ay = v - y0f;
  x0f = fminf(fmaxf(x0f, -2.0f), 1073741824.0f);
  y0f = fminf(fmaxf(y0f, -2.0f), 1073741824.0f);
  int x0 = static_cast<int>(x0f), y0 = static_cast<int>(y0f);
  int at = (y0 - t.oy) * t.pitch + (x0 - t.ox) * 3 + c;
  float p00, p10, p01, p11;
  if (static_cast<unsigned>(x0) < static_cast<unsigned>(width - 1) &&
      static_cast<unsigned>(y0) < static_cast<unsigned>(height - 1)) {
    p00 = lensTap<kShared>(t, at);
    p10 = lensTap<kShared>(t, at + 3);
    p01 = lensTap<kShared>(t, at + t.pitch);
    p11 = lensTap<kShared>(t, at + t.pitch + 3);
  } else {
    bool left = x0 >= 0 && x0 < width, right = x0 + 1 >= 0 && x0 + 1 < width;
    bool top = y0 >= 0 && y0 < height, bottom = y0 + 1 >= 0 && y0 + 1 < height;
    p00 = left && top ? lensTap<kShared>(t, at) : 0.0f;
    p10 = right && top ? lensTap<kShared>(t, at + 3) : 0.0f;
    p01 = left && bottom ? lensTap<kShared>(t, at + t.pitch) : 0.0f;
    p11 = right && bottom ? lensTap<kShared>(t, at + t.pitch + 3) : 0.0f;
  }
  float top = fmaf(ax, p10 - p00, p00);
  float bottom = fmaf(ax, p11 - p01, p01);
  return fmaf(ay, bottom - top, top);
}

/// The 24 bytes of a thread's 8 pixels from their sample positions.
template <bool kShared>
__device__ __forceinline__ void
lensSampleAll(const LensTaps &t, int width, int height, const float (&u)[24],
              const float (&v)[24], uint32_t (&bytes)[24]) {
#pragma unroll
  for (int k = 0; k < 24; ++k)
    bytes[k] =
        saturateU8(lensSample<kShared>(t, width, height, u[k], v[k], k % 3));
}

__global__ void __launch_bounds__(128)
    lensStagedHand(const uint8_t *__restrict__ frames,
                   uint8_t *__restrict__ outputs, int width, int height,
                   LensParams p) {
  __shared__ int box[4]; // x0, y0, -x1, -y1 (all minima)
  __shared__ __align__(16) uint8_t tile[kLensTileBytes];
  const int row = width * 3;
  const size_t frameBytes = static_cast<size_t>(row) * height;
  const uint8_t *src = frames + blockIdx.z * frameBytes;
  uint8_t *dst = outputs + blockIdx.z * frameBytes;
  const int x = blockIdx.x * kLensTileX + threadIdx.x * kLensPixels;
  const int y = blockIdx.y * kLensTileY + threadIdx.y;
  if (threadIdx.x == 0 && threadIdx.y == 0)
    box[0] = box[1] = box[2] = box[3] = 0x7fffffff;
  // 1. Sample positions, as lensUndistortHand computes them.
  float a[3], b[3], yn[3], yn2[3], p1y[3], p2y[3];
#pragma unroll
  for (int c = 0; c < 3; ++c) {
    float s = c == 1 ? 1.0f : (c == 0 ? p.caRed : p.caBlue);
    a[c] = s / p.fx;
    b[c] = -s * p.cx / p.fx;
    yn[c] = s * (static_cast<float>(y) - p.cy) / p.fy;
    yn2[c] = yn[c] * yn[c];
    p1y[c] = 2.0f * p.p1 * yn[c];
    p2y[c] = 2.0f * p.p2 * yn[c];
  }
  float u[24], v[24];
  float lo[2] = {3e9f, 3e9f}, hi[2] = {-3e9f, -3e9f};
#pragma unroll
  for (int i = 0; i < kLensPixels; ++i)
#pragma unroll
    for (int c = 0; c < 3; ++c) {
      float xn = fmaf(static_cast<float>(x + i), a[c], b[c]);
      float xn2 = xn * xn;
      float r2 = xn2 + yn2[c];
      float radial = fmaf(r2, fmaf(r2, fmaf(r2, p.k3, p.k2), p.k1), 1.0f);
      float xd = fmaf(xn, radial + p1y[c], p.p2 * fmaf(2.0f, xn2, r2));
      float yd =
          fmaf(yn[c], radial, fmaf(p.p1, fmaf(2.0f, yn2[c], r2), p2y[c] * xn));
      u[3 * i + c] = fmaf(p.fx, xd, p.cx);
      v[3 * i + c] = fmaf(p.fy, yd, p.cy);
      // Pixels past the image's edge too: they are sampled (not stored), so
      // their taps must lie in the box.
      lo[0] = fminf(lo[0], u[3 * i + c]);
      hi[0] = fmaxf(hi[0], u[3 * i + c]);
      lo[1] = fminf(lo[1], v[3 * i + c]);
      hi[1] = fmaxf(hi[1], v[3 * i + c]);
    }
  // 2. The box of their taps, clipped to the image (NaN and far positions
  //    clamp as the sampler clamps them).
  int mine[4];
  const int limit[2] = {width - 1, height - 1};
#pragma unroll
  for (int d = 0; d < 2; ++d) {
    int first = static_cast<int>(fminf(fmaxf(floorf(lo[d]), -2.0f), 1e9f));
    int last = static_cast<int>(fminf(fmaxf(floorf(hi[d]), -2.0f), 1e9f)) + 1;
    mine[d] = max(first, 0);
    mine[2 + d] = -min(last, limit[d]);
  }
  __syncthreads();
#pragma unroll
  for (int d = 0; d < 4; ++d) {
    int m = __reduce_min_sync(0xffffffffu, mine[d]);
    if ((threadIdx.x + threadIdx.y * blockDim.x) % 32 == 0)
      atomicMin(&box[d], m);
  }
  __syncthreads();
  const int bx0 = box[0], by0 = box[1], bx1 = -box[2], by1 = -box[3];
  const int lead = (bx0 * 3) & 3;
  const int pitch = (lead + (bx1 - bx0 + 1) * 3 + 3) & ~3;
  const int rows = by1 - by0 + 1;
  const bool staged =
      width % 4 == 0 && (bx1 < bx0 || by1 < by0 ||
                         static_cast<long>(pitch) * rows <= kLensTileBytes);
  uint32_t bytes[24];
  if (staged) {
    // 3. The box into shared memory, a word a thread at a time.
    if (bx1 >= bx0 && by1 >= by0) {
      const int words = pitch / 4;
      const uint8_t *from =
          src + static_cast<size_t>(by0) * row + bx0 * 3 - lead;
      for (int r = threadIdx.y; r < rows; r += kLensTileY)
        for (int w = threadIdx.x; w < words; w += kLensTileX / kLensPixels)
          reinterpret_cast<uint32_t *>(tile + r * pitch)[w] =
              __ldg(reinterpret_cast<const uint32_t *>(
                        from + static_cast<size_t>(r) * row) +
                    w);
    }
    __syncthreads();
    lensSampleAll<true>({tile + lead, pitch, bx0, by0}, width, height, u, v,
                        bytes);
  } else {
    lensSampleAll<false>({src, row, 0, 0}, width, height, u, v, bytes);
  }
  if (x >= width || y >= height)
    return;
  uint8_t *out = dst + static_cast<size_t>(y) * row + x * 3;
  if (x + kLensPixels <= width && width % 8 == 0 &&
      (reinterpret_cast<uintptr_t>(dst) & 7) == 0) {
    uint2 *words = reinterpret_cast<uint2 *>(out);
#pragma unroll
    for (int q = 0; q < 3; ++q)
      words[q] = make_uint2(pack4(bytes[8 * q], bytes[8 * q + 1],
                                  bytes[8 * q + 2], bytes[8 * q + 3]),
                            pack4(bytes[8 * q + 4], bytes[8 * q + 5],
                                  bytes[8 * q + 6], bytes[8 * q + 7]));
    return;
  }
#pragma unroll
  for (int i = 0; i < kLensPixels * 3; ++i)
    if (x * 3 + i < row)
      out[i] = bytes[i];
}

inline dim3 lensStagedBlock() {
  return dim3(kLensTileX / kLensPixels, kLensTileY);
}
inline dim3 lensStagedGrid(int width, int height, int batch) {
  return dim3((width + kLensTileX - 1) / kLensTileX,
              (height + kLensTileY - 1) / kLensTileY, batch);
}

} // namespace hand

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t e = (call);                                                    \
    if (e != cudaSuccess) {                                                    \
      std::printf("%s: %s\n", #call, cudaGetErrorString(e));                   \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

static hand::LensParams scaled(int width, int height, float k1) {
  double sx = width / 640.0, sy = height / 480.0;
  return {float(535.915733961632 * sx),
          float(535.915733961632 * sy),
          float(342.283154737084 * sx),
          float(235.570829097882 * sy),
          k1,
          -0.0385888989223047f,
          0.00178319470428530f,
          -0.000281221004411155f,
          0.238391530808785f,
          0.9975f,
          0.995f};
}

int main(int argc, char **argv) {
  bool small = argc > 1 && std::string(argv[1]) == "small";
  struct Case {
    int width, height, frames;
    float k1;
  } cases[] = {{1, 1, 1, -0.27f},       {7, 3, 2, -0.27f},
               {641, 479, 1, -0.27f},   {640, 480, 3, -0.27f},
               {1920, 1080, 1, -0.27f}, {3840, 2160, 2, -0.27f},
               {1280, 720, 1, -3.0f},   {1281, 720, 1, 2.0f}};
  int failed = 0;
  for (const Case &c : cases) {
    if (small && size_t(c.width) * c.height > 1281u * 720u)
      continue;
    size_t bytes = size_t(c.width) * c.height * 3 * c.frames;
    std::vector<uint8_t> host(bytes);
    for (size_t i = 0; i < bytes; ++i)
      host[i] = uint8_t((i * 2654435761u) >> 13);
    uint8_t *in, *a, *b;
    CHECK(cudaMalloc(&in, bytes));
    CHECK(cudaMalloc(&a, bytes));
    CHECK(cudaMalloc(&b, bytes));
    CHECK(cudaMemcpy(in, host.data(), bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(a, 0xA5, bytes));
    CHECK(cudaMemset(b, 0x5A, bytes));
    hand::LensParams p = scaled(c.width, c.height, c.k1);
    hand::lensStagedHand<<<hand::lensStagedGrid(c.width, c.height, c.frames),
                           hand::lensStagedBlock()>>>(in, a, c.width, c.height,
                                                      p);
    hand::lensUndistortHand<<<hand::lensGrid(c.width, c.height, c.frames),
                              hand::lensBlock()>>>(in, b, c.width, c.height, p);
    CHECK(cudaDeviceSynchronize());
    std::vector<uint8_t> ha(bytes), hb(bytes);
    CHECK(cudaMemcpy(ha.data(), a, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hb.data(), b, bytes, cudaMemcpyDeviceToHost));
    size_t differ = 0;
    for (size_t i = 0; i < bytes; ++i)
      differ += ha[i] != hb[i];
    std::printf("%dx%d x%d k1 %g: %zu bytes differ\n", c.width, c.height,
                c.frames, c.k1, differ);
    failed += differ != 0;
    cudaFree(in);
    cudaFree(a);
    cudaFree(b);
  }
  std::printf("%s\n", failed ? "FAILED" : "all identical");
  return failed ? 1 : 0;
}
