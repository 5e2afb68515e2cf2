//===- hand_kernels.cuh - Strong hand-written CUDA baselines --------------===//
//
// What a CUDA engineer writes to make each kernel of examples/ fast on
// sm_90, with the same maths, rounding and border handling as the .arvr
// kernels, so outputs can be compared (at most 1 apart) before anything is
// timed. Every kernel takes a batch of same-size frames at a fixed stride
// as the grid's z dimension: one launch for the whole batch.
//
// - nv12ToRgbHand: BT.601 limited range. Each warp converts 512x2 pixels,
//   each lane 16x2: one 16-byte load per luma row and one of the shared
//   chroma row; bytes become floats by the exponent trick (one PRMT and the
//   same subtraction the kernel does anyway); the 96 output bytes of a lane
//   are staged in shared memory so that the warp writes each row with
//   coalesced 16-byte stores.
// - gaussianHandR<R>: both passes fused. A block of 192 threads computes a
//   32x56 output tile (5 blocks a multiprocessor: 64-row tiles in 37 KB). The
//   u8 input tile and its halo go to shared memory with 16-byte loads (rows
//   reflected per row, columns only in the blocks at the left and right edges);
//   the horizontal pass takes runs of 16 floats, converting each input byte
//   once, into a float tile; the vertical pass walks 7 rows of 4 float columns
//   with a register window of 2R+1 rows and stores 4 bytes at a time.
// - lensUndistortHand: Brown-Conrady with per-channel chromatic aberration,
//   bilinear, black outside. Each thread computes 8 pixels of a row, its
//   per-row terms hoisted, the map evaluated with FMAs, the four taps of a
//   sample read with one bounds test when all are inside (per-tap tests
//   otherwise), the 24 output bytes stored as three 8-byte words.
//
// Images are RGB8 (interleaved) unless said otherwise, rows without padding.
//
//===----------------------------------------------------------------------===//

#ifndef ARVRC_BENCH_HAND_KERNELS_CUH
#define ARVRC_BENCH_HAND_KERNELS_CUH

#include <cstdint>

namespace hand {

/// The language's u8_sat: clamp to [0, 255], round half to even, in one
/// instruction.
__device__ __forceinline__ uint32_t saturateU8(float v) {
  uint32_t r;
  asm("cvt.rni.sat.u8.f32 %0, %1;" : "=r"(r) : "f"(v));
  return r;
}

/// Four bytes (each in the low byte of its word) packed into one word.
__device__ __forceinline__ uint32_t pack4(uint32_t b0, uint32_t b1, uint32_t b2,
                                          uint32_t b3) {
  return __byte_perm(__byte_perm(b0, b1, 0x0040), __byte_perm(b2, b3, 0x0040),
                     0x5410);
}

/// Byte `k` of `word` as the float 2^23 + byte (exact); subtract 2^23 (or
/// fold it into a subtraction already there) to get the byte's value.
__device__ __forceinline__ float biasedByte(uint32_t word, int k) {
  return __uint_as_float(__byte_perm(word, 0x4B000000u, 0x7540 | k));
}
constexpr float kByteBias = 8388608.0f;

__device__ __forceinline__ bool aligned16(const void *p) {
  return (reinterpret_cast<uintptr_t>(p) & 15) == 0;
}

//===----------------------------------------------------------------------===//
// NV12 to RGB8
//===----------------------------------------------------------------------===//

constexpr int kNv12WarpPixels = 512, kNv12Warps = 4;

/// One pixel's three bytes from its biased luma byte and its pair's
/// chroma terms.
__device__ __forceinline__ void nv12Pixel(float biasedY, float rv, float guv,
                                          float bu, uint32_t *out) {
  // 1.164 * (Y - 16), the bias folded into the subtraction (exact).
  float luma = 1.164f * (biasedY - (kByteBias + 16.0f));
  out[0] = saturateU8(luma + rv);
  out[1] = saturateU8(luma - guv);
  out[2] = saturateU8(luma + bu);
}

/// Scalar fallback (odd sizes, unaligned frames): one pixel.
__device__ __forceinline__ void nv12Scalar(const uint8_t *luma,
                                           const uint8_t *chroma, uint8_t *dst,
                                           int width, int x, int y) {
  const int chromaStride = (width + 1) / 2 * 2;
  const uint8_t *pair =
      chroma + static_cast<size_t>(y / 2) * chromaStride + (x / 2) * 2;
  float u = static_cast<float>(pair[0]) - 128.0f;
  float v = static_cast<float>(pair[1]) - 128.0f;
  float yv = static_cast<float>(luma[static_cast<size_t>(y) * width + x]);
  uint32_t rgb[3];
  nv12Pixel(yv + kByteBias, 1.596f * v, 0.813f * v + 0.391f * u, 2.018f * u,
            rgb);
  uint8_t *out = dst + (static_cast<size_t>(y) * width + x) * 3;
  out[0] = rgb[0];
  out[1] = rgb[1];
  out[2] = rgb[2];
}

/// Block (32, kNv12Warps); frame blockIdx.z of the batch: the luma planes
/// of the batch one after another, and the chroma planes.
__global__ void __launch_bounds__(32 * kNv12Warps)
    nv12ToRgbHand(const uint8_t *__restrict__ lumaPlanes,
                  const uint8_t *__restrict__ chromaPlanes,
                  uint8_t *__restrict__ outputs, int width, int height) {
  __shared__ __align__(16)
      uint32_t stage[kNv12Warps][2][kNv12WarpPixels * 3 / 4];
  const size_t lumaBytes = static_cast<size_t>(width) * height;
  const size_t chromaBytes =
      static_cast<size_t>((height + 1) / 2) * ((width + 1) / 2 * 2);
  const uint8_t *luma = lumaPlanes + blockIdx.z * lumaBytes;
  const uint8_t *chroma = chromaPlanes + blockIdx.z * chromaBytes;
  uint8_t *dst = outputs + blockIdx.z * lumaBytes * 3;
  const int lane = threadIdx.x, w = threadIdx.y;
  const int y = (blockIdx.y * kNv12Warps + w) * 2;
  const int xw = blockIdx.x * kNv12WarpPixels, x = xw + lane * 16;
  if (y >= height)
    return; // The whole warp: the rest synchronises only within warps.
  const bool vector = width % 16 == 0 && height % 2 == 0 && aligned16(luma) &&
                      aligned16(chroma) && aligned16(dst);
  if (!vector) {
    for (int dy = 0; dy < 2 && y + dy < height; ++dy)
      for (int i = 0; i < 16 && x + i < width; ++i)
        nv12Scalar(luma, chroma, dst, width, x + i, y + dy);
    return;
  }
  if (x < width) {
    uint4 uv = __ldg(reinterpret_cast<const uint4 *>(
        chroma + static_cast<size_t>(y / 2) * width + x));
    const uint32_t uvWords[4] = {uv.x, uv.y, uv.z, uv.w};
    float rv[8], guv[8], bu[8];
#pragma unroll
    for (int p = 0; p < 8; ++p) {
      float u = biasedByte(uvWords[p / 2], (p % 2) * 2) - (kByteBias + 128.0f);
      float v =
          biasedByte(uvWords[p / 2], (p % 2) * 2 + 1) - (kByteBias + 128.0f);
      rv[p] = 1.596f * v;
      guv[p] = 0.813f * v + 0.391f * u;
      bu[p] = 2.018f * u;
    }
#pragma unroll
    for (int dy = 0; dy < 2; ++dy) {
      uint4 l = __ldg(reinterpret_cast<const uint4 *>(
          luma + static_cast<size_t>(y + dy) * width + x));
      const uint32_t lw[4] = {l.x, l.y, l.z, l.w};
      uint32_t b[48];
#pragma unroll
      for (int i = 0; i < 16; ++i)
        nv12Pixel(biasedByte(lw[i / 4], i % 4), rv[i / 2], guv[i / 2],
                  bu[i / 2], b + 3 * i);
      uint4 *s = reinterpret_cast<uint4 *>(&stage[w][dy][lane * 12]);
#pragma unroll
      for (int q = 0; q < 3; ++q)
        s[q] = make_uint4(
            pack4(b[16 * q], b[16 * q + 1], b[16 * q + 2], b[16 * q + 3]),
            pack4(b[16 * q + 4], b[16 * q + 5], b[16 * q + 6], b[16 * q + 7]),
            pack4(b[16 * q + 8], b[16 * q + 9], b[16 * q + 10], b[16 * q + 11]),
            pack4(b[16 * q + 12], b[16 * q + 13], b[16 * q + 14],
                  b[16 * q + 15]));
    }
  }
  __syncwarp();
  // The warp writes its rows' bytes in 16-byte chunks, lane by lane.
  const int chunks = min(kNv12WarpPixels, width - xw) * 3 / 16;
#pragma unroll
  for (int dy = 0; dy < 2; ++dy) {
    uint4 *row = reinterpret_cast<uint4 *>(
        dst + (static_cast<size_t>(y + dy) * width + xw) * 3);
    const uint4 *s = reinterpret_cast<const uint4 *>(stage[w][dy]);
    for (int i = lane; i < chunks; i += 32)
      row[i] = s[i];
  }
}

inline dim3 nv12Grid(int width, int height, int batch) {
  return dim3((width + kNv12WarpPixels - 1) / kNv12WarpPixels,
              (height + 2 * kNv12Warps - 1) / (2 * kNv12Warps), batch);
}
inline dim3 nv12Block() { return dim3(32, kNv12Warps); }

//===----------------------------------------------------------------------===//
// Separable Gaussian, both passes fused
//===----------------------------------------------------------------------===//

constexpr int kGaussTileX = 32, kGaussTileY = 56, kGaussThreads = 192;
constexpr int kGaussSegmentRows = kGaussTileY / 8; // 8 segments of rows
constexpr int kGaussMaxRadius = 8;
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

/// The shared layout for radius R: the u8 tile (rows of kInStride bytes,
/// byte 0 of a row at kShift so that interior rows come with 16-byte loads
/// when a row of the image is a multiple of 16 bytes) then the float tile
/// (rows of kFloatStride floats; the padding keeps both passes free of bank
/// conflicts).
template <int R> struct GaussLayout {
  static constexpr int kRows = kGaussTileY + 2 * R;
  static constexpr int kRowBytes = (kGaussTileX + 2 * R) * 3;
  static constexpr int kShift = (16 - (3 * R) % 16) % 16;
  static constexpr int kChunks = (kShift + kRowBytes + 15) / 16;
  static constexpr int kInStride = kChunks * 16 + 4; // words: 1 bank apart
  static constexpr int kFloats = kGaussTileX * 3;
  static constexpr int kFloatStride = kFloats + 4;
  static constexpr int kInBytes = (kRows * kInStride + 15) / 16 * 16;
  static constexpr int kBytes = kInBytes + kRows * kFloatStride * 4;
};

inline size_t gaussianSharedBytes(int radius) {
  switch (radius) {
#define ARVR_GAUSS_CASE(R)                                                     \
  case R:                                                                      \
    return GaussLayout<R>::kBytes;
    ARVR_GAUSS_CASE(1)
    ARVR_GAUSS_CASE(2)
    ARVR_GAUSS_CASE(3)
    ARVR_GAUSS_CASE(4)
    ARVR_GAUSS_CASE(5)
    ARVR_GAUSS_CASE(6)
    ARVR_GAUSS_CASE(7)
    ARVR_GAUSS_CASE(8)
#undef ARVR_GAUSS_CASE
  default:
    return 0;
  }
}

/// Step 1: the u8 tile and halo of the block at (x0, y0) into `in`.
template <int R>
__device__ __forceinline__ void gaussLoadTile(const uint8_t *src, uint8_t *in,
                                              int width, int height, int x0,
                                              int y0, int tid) {
  using L = GaussLayout<R>;
  const size_t rowBytes = static_cast<size_t>(width) * 3;
  const bool columnsInside = x0 - R >= 0 && x0 + kGaussTileX + R <= width;
  if (columnsInside && rowBytes % 16 == 0 && aligned16(src)) {
    // Whole 16-byte chunks; the first chunk of a row starts kShift bytes
    // before the tile's byte 0. Stored as words (the stride is not a
    // multiple of 16).
    for (int i = tid; i < L::kRows * L::kChunks; i += kGaussThreads) {
      int r = i / L::kChunks, k = i - r * L::kChunks;
      int gy = reflect101(y0 - R + r, height);
      const uint8_t *chunk =
          src + gy * rowBytes + (x0 - R) * 3 - L::kShift + 16 * k;
      uint4 v = __ldg(reinterpret_cast<const uint4 *>(chunk));
      uint32_t *s =
          reinterpret_cast<uint32_t *>(in + r * L::kInStride + 16 * k);
      s[0] = v.x;
      s[1] = v.y;
      s[2] = v.z;
      s[3] = v.w;
    }
    return;
  }
  for (int i = tid; i < L::kRows * L::kRowBytes; i += kGaussThreads) {
    int r = i / L::kRowBytes, b = i - r * L::kRowBytes;
    int gx = reflect101(x0 - R + b / 3, width);
    int gy = reflect101(y0 - R + r, height);
    in[r * L::kInStride + L::kShift + b] =
        __ldg(src + gy * rowBytes + gx * 3 + b % 3);
  }
}

/// Step 2: the horizontal pass. Warp j of the block takes runs of 16
/// floats starting at float 16 j of each row; its lanes take rows.
template <int R>
__device__ __forceinline__ void gaussHorizontal(const uint8_t *in, float *hs,
                                                int tid) {
  using L = GaussLayout<R>;
  constexpr int kTaps = 2 * R + 1, kBytes = 16 + 6 * R;
  constexpr int kOffset = L::kShift % 4;
  const int lane = tid % 32, run = tid / 32;
  static_assert(kGaussThreads / 32 == kGaussTileX * 3 / 16, "a warp per run");
  for (int r = lane; r < L::kRows; r += 32) {
    const uint32_t *words = reinterpret_cast<const uint32_t *>(
        in + r * L::kInStride + (L::kShift - kOffset) + 16 * run);
    float v[kBytes];
#pragma unroll
    for (int m = 0; m < kBytes; ++m)
      v[m] =
          biasedByte(words[(kOffset + m) / 4], (kOffset + m) % 4) - kByteBias;
    float out[16];
#pragma unroll
    for (int f = 0; f < 16; ++f) {
      float sum = 0.0f;
#pragma unroll
      for (int k = 0; k < kTaps; ++k)
        sum = fmaf(gaussWeights[k], v[f + 3 * k], sum);
      out[f] = sum;
    }
    float4 *dst =
        reinterpret_cast<float4 *>(hs + r * L::kFloatStride + 16 * run);
#pragma unroll
    for (int q = 0; q < 4; ++q)
      dst[q] = make_float4(out[4 * q], out[4 * q + 1], out[4 * q + 2],
                           out[4 * q + 3]);
  }
}

/// Step 3: the vertical pass. Thread (g, s): floats 4g..4g+3 of the
/// tile's output rows 7 s .. 7 s + 6.
template <int R>
__device__ __forceinline__ void gaussVertical(const float *hs, uint8_t *dst,
                                              int width, int height, int x0,
                                              int y0, int tid) {
  using L = GaussLayout<R>;
  constexpr int kTaps = 2 * R + 1;
  const int g = tid % (L::kFloats / 4), s = tid / (L::kFloats / 4);
  const int firstRow = s * kGaussSegmentRows;
  const bool fast = x0 + kGaussTileX <= width &&
                    y0 + firstRow + kGaussSegmentRows <= height &&
                    width % 4 == 0 &&
                    (reinterpret_cast<uintptr_t>(dst) & 3) == 0;
  const size_t rowBytes = static_cast<size_t>(width) * 3;
  float4 window[kTaps];
#pragma unroll
  for (int k = 0; k < kTaps - 1; ++k)
    window[k] = *reinterpret_cast<const float4 *>(
        hs + (firstRow + k) * L::kFloatStride + 4 * g);
#pragma unroll
  for (int i = 0; i < kGaussSegmentRows; ++i) {
    window[(i + kTaps - 1) % kTaps] = *reinterpret_cast<const float4 *>(
        hs + (firstRow + i + kTaps - 1) * L::kFloatStride + 4 * g);
    float4 sum = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
#pragma unroll
    for (int k = 0; k < kTaps; ++k) {
      const float4 w = window[(i + k) % kTaps];
      const float c = gaussWeights[k];
      sum.x = fmaf(c, w.x, sum.x);
      sum.y = fmaf(c, w.y, sum.y);
      sum.z = fmaf(c, w.z, sum.z);
      sum.w = fmaf(c, w.w, sum.w);
    }
    uint32_t b[4] = {saturateU8(sum.x), saturateU8(sum.y), saturateU8(sum.z),
                     saturateU8(sum.w)};
    const int y = y0 + firstRow + i;
    uint8_t *out = dst + y * rowBytes + x0 * 3 + 4 * g;
    if (fast) {
      *reinterpret_cast<uint32_t *>(out) = pack4(b[0], b[1], b[2], b[3]);
    } else if (y < height) {
#pragma unroll
      for (int q = 0; q < 4; ++q)
        if (x0 * 3 + 4 * g + q < width * 3)
          out[q] = b[q];
    }
  }
}

/// The radius is a template parameter (kernels are instantiated for 1 to
/// kGaussMaxRadius and chosen at run time), so the layout is constant and
/// loops unroll. Frame blockIdx.z of the batch.
template <int R>
__global__ void __launch_bounds__(kGaussThreads, 5)
    gaussianHandR(const uint8_t *__restrict__ frames,
                  uint8_t *__restrict__ outputs, int width, int height) {
  extern __shared__ __align__(16) uint8_t shared[];
  using L = GaussLayout<R>;
  const size_t frameBytes = static_cast<size_t>(width) * height * 3;
  const uint8_t *src = frames + blockIdx.z * frameBytes;
  uint8_t *dst = outputs + blockIdx.z * frameBytes;
  uint8_t *in = shared;
  float *hs = reinterpret_cast<float *>(shared + L::kInBytes);
  const int x0 = blockIdx.x * kGaussTileX, y0 = blockIdx.y * kGaussTileY;
  const int tid = threadIdx.x;
  gaussLoadTile<R>(src, in, width, height, x0, y0, tid);
  __syncthreads();
  gaussHorizontal<R>(in, hs, tid);
  __syncthreads();
  gaussVertical<R>(hs, dst, width, height, x0, y0, tid);
}

/// The instantiation for `radius` (1 to 8; nullptr otherwise).
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

inline dim3 gaussianGrid(int width, int height, int batch) {
  return dim3((width + kGaussTileX - 1) / kGaussTileX,
              (height + kGaussTileY - 1) / kGaussTileY, batch);
}

//===----------------------------------------------------------------------===//
// Lens undistortion with chromatic aberration
//===----------------------------------------------------------------------===//

struct LensParams {
  float fx, fy, cx, cy, k1, k2, p1, p2, k3, caRed, caBlue;
};

constexpr int kLensPixels = 8;

/// Channel c of src at (u, v), bilinear, 0 outside (OpenCV's remap
/// convention: pixel centres at integers). `row` is the image row stride.
__device__ __forceinline__ float sampleBilinear(const uint8_t *__restrict__ src,
                                                int width, int height, int row,
                                                float u, float v, int c) {
  float x0f = floorf(u), y0f = floorf(v);
  float ax = u - x0f, ay = v - y0f;
  // Far outside, every read is 0 anyway; this keeps the int conversion
  // defined.
  x0f = fminf(fmaxf(x0f, -2.0f), 1073741824.0f);
  y0f = fminf(fmaxf(y0f, -2.0f), 1073741824.0f);
  int x0 = static_cast<int>(x0f), y0 = static_cast<int>(y0f);
  float p00, p10, p01, p11;
  if (static_cast<unsigned>(x0) < static_cast<unsigned>(width - 1) &&
      static_cast<unsigned>(y0) < static_cast<unsigned>(height - 1)) {
    const uint8_t *p = src + y0 * row + x0 * 3 + c;
    p00 = __ldg(p);
    p10 = __ldg(p + 3);
    p01 = __ldg(p + row);
    p11 = __ldg(p + row + 3);
  } else {
    auto at = [&](int x, int y) -> float {
      bool inside = x >= 0 && x < width && y >= 0 && y < height;
      return inside ? static_cast<float>(__ldg(src + y * row + x * 3 + c))
                    : 0.0f;
    };
    p00 = at(x0, y0);
    p10 = at(x0 + 1, y0);
    p01 = at(x0, y0 + 1);
    p11 = at(x0 + 1, y0 + 1);
  }
  float top = fmaf(ax, p10 - p00, p00);
  float bottom = fmaf(ax, p11 - p01, p01);
  return fmaf(ay, bottom - top, top);
}

/// Block (32, 4); thread: pixels x..x+7 of row y of frame blockIdx.z.
__global__ void __launch_bounds__(128)
    lensUndistortHand(const uint8_t *__restrict__ frames,
                      uint8_t *__restrict__ outputs, int width, int height,
                      LensParams p) {
  const int row = width * 3;
  const size_t frameBytes = static_cast<size_t>(row) * height;
  const uint8_t *src = frames + blockIdx.z * frameBytes;
  uint8_t *dst = outputs + blockIdx.z * frameBytes;
  const int x = (blockIdx.x * blockDim.x + threadIdx.x) * kLensPixels;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height)
    return;
  // The example's maths: a channel's normalised coordinate is s times
  // green's (xg, yg), so its r^2 is s^2 times green's; green's radius and
  // tangential terms once a pixel, each channel's factors once a thread.
  const float ifx = 1.0f / p.fx, ify = 1.0f / p.fy;
  const float yg = (static_cast<float>(y) - p.cy) * ify, yg2 = yg * yg;
  const float p1y = 2.0f * p.p1 * yg, p2y = 2.0f * p.p2 * yg;
  float a1[3], a2[3], a3[3], fs[3], fs2[3], gs[3], gs2[3];
#pragma unroll
  for (int c = 0; c < 3; ++c) {
    float s = c == 1 ? 1.0f : (c == 0 ? p.caRed : p.caBlue), s2 = s * s;
    a1[c] = p.k1 * s2;
    a2[c] = p.k2 * (s2 * s2);
    a3[c] = p.k3 * (s2 * s2 * s2);
    fs[c] = p.fx * s;
    fs2[c] = p.fx * s2;
    gs[c] = p.fy * s;
    gs2[c] = p.fy * s2;
  }
  uint32_t bytes[kLensPixels * 3];
#pragma unroll
  for (int i = 0; i < kLensPixels; ++i) {
    float xg = (static_cast<float>(x + i) - p.cx) * ifx, xg2 = xg * xg;
    float g2 = xg2 + yg2;
    float tx = fmaf(p1y, xg, p.p2 * fmaf(2.0f, xg2, g2));
    float ty = fmaf(p.p1, fmaf(2.0f, yg2, g2), p2y * xg);
#pragma unroll
    for (int c = 0; c < 3; ++c) {
      float radial = fmaf(g2, fmaf(g2, fmaf(g2, a3[c], a2[c]), a1[c]), 1.0f);
      float u = fmaf(fs[c], xg * radial, fmaf(fs2[c], tx, p.cx));
      float v = fmaf(gs[c], yg * radial, fmaf(gs2[c], ty, p.cy));
      bytes[i * 3 + c] =
          saturateU8(sampleBilinear(src, width, height, row, u, v, c));
    }
  }
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

inline dim3 lensBlock() { return dim3(32, 4); }
inline dim3 lensGrid(int width, int height, int batch) {
  return dim3((width + 32 * kLensPixels - 1) / (32 * kLensPixels),
              (height + 3) / 4, batch);
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

} // namespace hand

#endif // ARVRC_BENCH_HAND_KERNELS_CUH
