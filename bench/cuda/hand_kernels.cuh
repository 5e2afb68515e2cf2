//===- hand_kernels.cuh - Hand-written CUDA baselines for the examples ----===//
//
// What a CUDA engineer would write for each kernel of examples/, for sm_90,
// with the same maths, rounding and border handling as the .arvr kernels,
// so outputs can be compared (at most 1 apart) before anything is timed:
//
// - lensUndistortHand: Brown-Conrady with per-channel chromatic-aberration
//   scales, bilinear, black outside; 4 pixels per thread along x, read-only
//   (__ldg) gathers, the 12 output bytes stored as three 32-bit words.
// - gaussianHandR<R>: both passes fused in one kernel, the radius a
//   compile-time constant. A 32x32 output tile per block of 32x8 threads:
//   the input tile and its halo (reflect-101 at the edges only) are loaded
//   once into shared memory as bytes, the horizontal pass is computed into a
//   shared float tile, then each thread computes 4 output rows.
// - nv12ToRgbHand: BT.601 limited range; each thread converts 4x2 pixels
//   (two chroma pairs per row): 32-bit loads of Y and UV, 32-bit stores.
//
// Images are RGB8 (interleaved) unless said otherwise, rows without padding.
//
//===----------------------------------------------------------------------===//

#ifndef ARVRC_BENCH_HAND_KERNELS_CUH
#define ARVRC_BENCH_HAND_KERNELS_CUH

#include <cstdint>

namespace hand {

/// The language's u8_sat: clamp to [0, 255], round half to even.
__device__ __forceinline__ uint8_t saturateU8(float v) {
  v = fminf(fmaxf(v, 0.0f), 255.0f);
  return static_cast<uint8_t>(__float2int_rn(v));
}

//===----------------------------------------------------------------------===//
// Lens undistortion with chromatic aberration
//===----------------------------------------------------------------------===//

struct LensParams {
  float fx, fy, cx, cy, k1, k2, p1, p2, k3, caRed, caBlue;
};

/// Channel c of src at (u, v), bilinear, 0 outside (OpenCV's remap
/// convention: pixel centres at integers).
__device__ __forceinline__ float sampleBilinear(const uint8_t *__restrict__ src,
                                                int width, int height, float u,
                                                float v, int c) {
  float x0f = floorf(u), y0f = floorf(v);
  float ax = u - x0f, ay = v - y0f;
  // Far outside, every read is 0 anyway; this keeps the int conversion
  // defined.
  x0f = fminf(fmaxf(x0f, -1073741824.0f), 1073741824.0f);
  y0f = fminf(fmaxf(y0f, -1073741824.0f), 1073741824.0f);
  int x0 = static_cast<int>(x0f), y0 = static_cast<int>(y0f);
  auto at = [&](int x, int y) -> float {
    bool inside = x >= 0 && x < width && y >= 0 && y < height;
    return inside ? static_cast<float>(__ldg(
                        src + (static_cast<size_t>(y) * width + x) * 3 + c))
                  : 0.0f;
  };
  float p00 = at(x0, y0), p10 = at(x0 + 1, y0);
  float p01 = at(x0, y0 + 1), p11 = at(x0 + 1, y0 + 1);
  float top = (1.0f - ax) * p00 + ax * p10;
  float bottom = (1.0f - ax) * p01 + ax * p11;
  return (1.0f - ay) * top + ay * bottom;
}

__device__ __forceinline__ uint8_t undistortOne(const uint8_t *__restrict__ src,
                                                int width, int height, int x,
                                                int y, int c,
                                                const LensParams &p) {
  float s = c == 1 ? 1.0f : (c == 0 ? p.caRed : p.caBlue);
  float xn = s * (static_cast<float>(x) - p.cx) / p.fx;
  float yn = s * (static_cast<float>(y) - p.cy) / p.fy;
  float r2 = xn * xn + yn * yn;
  float radial = 1.0f + r2 * (p.k1 + r2 * (p.k2 + r2 * p.k3));
  float xd = xn * radial + 2.0f * p.p1 * xn * yn + p.p2 * (r2 + 2.0f * xn * xn);
  float yd = yn * radial + p.p1 * (r2 + 2.0f * yn * yn) + 2.0f * p.p2 * xn * yn;
  return saturateU8(sampleBilinear(src, width, height, p.fx * xd + p.cx,
                                   p.fy * yd + p.cy, c));
}

/// Block 32x8; each thread computes pixels x..x+3 of row y.
__global__ void __launch_bounds__(256)
    lensUndistortHand(const uint8_t *__restrict__ src,
                      uint8_t *__restrict__ dst, int width, int height,
                      LensParams p) {
  int x = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height)
    return;
  uint8_t *row = dst + static_cast<size_t>(y) * width * 3;
  if (x + 3 < width && width % 4 == 0) {
    uint8_t bytes[12];
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
      for (int c = 0; c < 3; ++c)
        bytes[i * 3 + c] = undistortOne(src, width, height, x + i, y, c, p);
    uint32_t words[3];
    memcpy(words, bytes, 12);
    uint32_t *out = reinterpret_cast<uint32_t *>(row + x * 3);
    out[0] = words[0];
    out[1] = words[1];
    out[2] = words[2];
    return;
  }
  for (int i = 0; i < 4 && x + i < width; ++i)
    for (int c = 0; c < 3; ++c)
      row[(x + i) * 3 + c] = undistortOne(src, width, height, x + i, y, c, p);
}

/// NPP's remap takes a stored map: (u, v) of the green channel (no
/// chromatic aberration), computed once.
__global__ void lensMapForNpp(float *mapX, float *mapY, int width, int height,
                              LensParams p) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height)
    return;
  float xn = (static_cast<float>(x) - p.cx) / p.fx;
  float yn = (static_cast<float>(y) - p.cy) / p.fy;
  float r2 = xn * xn + yn * yn;
  float radial = 1.0f + r2 * (p.k1 + r2 * (p.k2 + r2 * p.k3));
  float xd = xn * radial + 2.0f * p.p1 * xn * yn + p.p2 * (r2 + 2.0f * xn * xn);
  float yd = yn * radial + p.p1 * (r2 + 2.0f * yn * yn) + 2.0f * p.p2 * xn * yn;
  mapX[static_cast<size_t>(y) * width + x] = p.fx * xd + p.cx;
  mapY[static_cast<size_t>(y) * width + x] = p.fy * yd + p.cy;
}

//===----------------------------------------------------------------------===//
// Separable Gaussian, both passes fused
//===----------------------------------------------------------------------===//

constexpr int kGaussTileX = 32, kGaussTileY = 32, kGaussThreadsY = 8;
constexpr int kGaussMaxRadius = 16;
__constant__ float gaussWeights[2 * kGaussMaxRadius + 1];

/// The weights exp(-i^2 / (2 sigma^2)) divided by their sum (normalised
/// before they are applied, as examples/gaussian_blur.arvr and OpenCV's
/// getGaussianKernel do), on the device with the same expf and order as
/// the .arvr kernel.
__global__ void gaussianWeights(float *weights, float sigma, int radius) {
  if (threadIdx.x != 0 || blockIdx.x != 0)
    return;
  float sum = 0.0f;
  for (int i = -radius; i <= radius; ++i) {
    float w = expf(-static_cast<float>(i * i) / (2.0f * sigma * sigma));
    weights[i + radius] = w;
    sum = sum + w;
  }
  for (int i = 0; i <= 2 * radius; ++i)
    weights[i] = weights[i] / sum;
}

/// Reflect-101 (OpenCV's BORDER_REFLECT_101): -1 -> 1, n -> n - 2.
__device__ __forceinline__ int reflect101(int i, int n) {
  if (n == 1)
    return 0;
  while (i < 0 || i >= n)
    i = i < 0 ? -i : 2 * n - 2 - i;
  return i;
}

/// Dynamic shared memory: the input tile (bytes) then the horizontal pass
/// (floats); see gaussianSharedBytes.
__host__ __device__ inline size_t gaussianSharedBytes(int radius) {
  size_t rows = kGaussTileY + 2 * radius;
  size_t inBytes = rows * (kGaussTileX + 2 * radius) * 3;
  inBytes = (inBytes + 15) / 16 * 16;
  return inBytes + rows * kGaussTileX * 3 * sizeof(float);
}

/// The radius is a template parameter (kernels are instantiated for 1 to
/// kGaussMaxRadius and chosen at run time), so tile sizes are constants:
/// index arithmetic becomes shifts and multiplies, loops unroll. Blocks
/// away from the image's edges load their tile without reflection.
template <int R>
__global__ void __launch_bounds__(kGaussTileX *kGaussThreadsY)
    gaussianHandR(const uint8_t *__restrict__ src, uint8_t *__restrict__ dst,
                  int width, int height) {
  extern __shared__ __align__(16) uint8_t shared[];
  constexpr int rows = kGaussTileY + 2 * R;
  constexpr int cols = kGaussTileX + 2 * R;
  constexpr int rowBytes = cols * 3;
  constexpr int threads = kGaussTileX * kGaussThreadsY;
  uint8_t *in = shared;
  float *hsum = reinterpret_cast<float *>(
      shared + (static_cast<size_t>(rows) * rowBytes + 15) / 16 * 16);
  const int x0 = blockIdx.x * kGaussTileX, y0 = blockIdx.y * kGaussTileY;
  const int tid = threadIdx.y * kGaussTileX + threadIdx.x;

  // 1. The input tile and its halo, byte by byte along each row (a warp
  //    reads consecutive bytes), reflected only in blocks at an edge.
  const bool interior = x0 - R >= 0 && y0 - R >= 0 &&
                        x0 + kGaussTileX + R <= width &&
                        y0 + kGaussTileY + R <= height;
  if (interior) {
    const uint8_t *origin =
        src + (static_cast<size_t>(y0 - R) * width + (x0 - R)) * 3;
    for (int i = tid; i < rows * rowBytes; i += threads) {
      int r = i / rowBytes, b = i - r * rowBytes;
      in[i] = __ldg(origin + static_cast<size_t>(r) * width * 3 + b);
    }
  } else {
    for (int i = tid; i < rows * rowBytes; i += threads) {
      int r = i / rowBytes, b = i - r * rowBytes;
      int gx = reflect101(x0 - R + b / 3, width);
      int gy = reflect101(y0 - R + r, height);
      in[i] = __ldg(src + (static_cast<size_t>(gy) * width + gx) * 3 + b % 3);
    }
  }
  __syncthreads();

  // 2. The horizontal pass over every row of the tile and halo.
  for (int i = tid; i < rows * kGaussTileX * 3; i += threads) {
    int r = i / (kGaussTileX * 3), rest = i - r * kGaussTileX * 3;
    const uint8_t *line = in + r * rowBytes + rest;
    float sum = 0.0f;
#pragma unroll
    for (int k = 0; k <= 2 * R; ++k)
      sum = sum + gaussWeights[k] * static_cast<float>(line[k * 3]);
    hsum[i] = sum;
  }
  __syncthreads();

  // 3. The vertical pass: each thread 4 rows of one column, 3 channels.
  const int x = x0 + threadIdx.x;
  if (x >= width)
    return;
#pragma unroll
  for (int k = 0; k < kGaussTileY / kGaussThreadsY; ++k) {
    int ty = threadIdx.y + k * kGaussThreadsY;
    int y = y0 + ty;
    if (y >= height)
      break;
#pragma unroll
    for (int c = 0; c < 3; ++c) {
      const float *column = hsum + (ty * kGaussTileX + threadIdx.x) * 3 + c;
      float sum = 0.0f;
#pragma unroll
      for (int j = 0; j <= 2 * R; ++j)
        sum = sum + gaussWeights[j] * column[j * kGaussTileX * 3];
      dst[(static_cast<size_t>(y) * width + x) * 3 + c] = saturateU8(sum);
    }
  }
}

/// The instantiation for `radius` (1 to 8 here; nullptr otherwise).
using GaussianKernel = void (*)(const uint8_t *, uint8_t *, int, int);
inline GaussianKernel gaussianHandFor(int radius) {
  switch (radius) {
  case 1:
    return gaussianHandR<1>;
  case 2:
    return gaussianHandR<2>;
  case 3:
    return gaussianHandR<3>;
  case 4:
    return gaussianHandR<4>;
  case 5:
    return gaussianHandR<5>;
  case 6:
    return gaussianHandR<6>;
  case 7:
    return gaussianHandR<7>;
  case 8:
    return gaussianHandR<8>;
  default:
    return nullptr;
  }
}

//===----------------------------------------------------------------------===//
// NV12 to RGB8
//===----------------------------------------------------------------------===//

__device__ __forceinline__ void nv12Pixel(float yv, float u, float v,
                                          uint8_t *out) {
  float luma = 1.164f * (yv - 16.0f);
  out[0] = saturateU8(luma + 1.596f * v);
  out[1] = saturateU8(luma - 0.813f * v - 0.391f * u);
  out[2] = saturateU8(luma + 2.018f * u);
}

/// Block 32x8; each thread converts pixels x..x+3 of rows y and y+1.
__global__ void __launch_bounds__(256)
    nv12ToRgbHand(const uint8_t *__restrict__ luma,
                  const uint8_t *__restrict__ chroma, uint8_t *__restrict__ dst,
                  int width, int height) {
  int x = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  int y = (blockIdx.y * blockDim.y + threadIdx.y) * 2;
  if (x >= width || y >= height)
    return;
  // Interleaved UV: the pair of column x / 2 of chroma row y / 2 is at
  // byte (y / 2) * (2 * ceil(width / 2)) + x.
  const int chromaStride = (width + 1) / 2 * 2;
  if (width % 4 == 0 && x + 3 < width && y + 1 < height) {
    uint32_t uvWord = __ldg(reinterpret_cast<const uint32_t *>(
        chroma + static_cast<size_t>(y / 2) * chromaStride + x));
    uint8_t uv[4];
    memcpy(uv, &uvWord, 4);
#pragma unroll
    for (int dy = 0; dy < 2; ++dy) {
      uint32_t yWord = __ldg(reinterpret_cast<const uint32_t *>(
          luma + static_cast<size_t>(y + dy) * width + x));
      uint8_t ys[4], bytes[12];
      memcpy(ys, &yWord, 4);
#pragma unroll
      for (int i = 0; i < 4; ++i)
        nv12Pixel(static_cast<float>(ys[i]),
                  static_cast<float>(uv[(i / 2) * 2]) - 128.0f,
                  static_cast<float>(uv[(i / 2) * 2 + 1]) - 128.0f,
                  bytes + i * 3);
      uint32_t words[3];
      memcpy(words, bytes, 12);
      uint32_t *out = reinterpret_cast<uint32_t *>(
          dst + (static_cast<size_t>(y + dy) * width + x) * 3);
      out[0] = words[0];
      out[1] = words[1];
      out[2] = words[2];
    }
    return;
  }
  for (int dy = 0; dy < 2 && y + dy < height; ++dy)
    for (int i = 0; i < 4 && x + i < width; ++i) {
      int px = x + i, py = y + dy;
      const uint8_t *pair =
          chroma + static_cast<size_t>(py / 2) * chromaStride + (px / 2) * 2;
      nv12Pixel(static_cast<float>(luma[static_cast<size_t>(py) * width + px]),
                static_cast<float>(pair[0]) - 128.0f,
                static_cast<float>(pair[1]) - 128.0f,
                dst + (static_cast<size_t>(py) * width + px) * 3);
    }
}

} // namespace hand

#endif // ARVRC_BENCH_HAND_KERNELS_CUH
