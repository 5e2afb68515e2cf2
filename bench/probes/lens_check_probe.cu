// A probe, run once on the H200 (docs/gpu-runs.md, 2026-12-04 01:55): does
// one "all four taps inside" test per thread (every sample's loads issued
// together) beat one branch per sample, for the lens kernel's maths at 4K,
// batch 8? Variants: pixels per thread (columns x rows) and where the test
// sits. Not part of the bench; build with
//   nvcc -O3 -std=c++17 -arch=sm_90 -o lens_check_probe lens_check_probe.cu
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>
struct P {
  float fx, fy, cx, cy, k1, k2, p1, p2, k3, caR, caB;
};
__device__ __forceinline__ uint32_t sat8(float v) {
  uint32_t r;
  asm("cvt.rni.sat.u8.f32 %0, %1;" : "=r"(r) : "f"(v));
  return r;
}
__device__ __forceinline__ void mapc(const P &p, int x, int y, int c, float &u,
                                     float &v) {
  float s = c == 1 ? 1.0f : (c == 0 ? p.caR : p.caB);
  float xn = s * (float(x) - p.cx) / p.fx, yn = s * (float(y) - p.cy) / p.fy;
  float r2 = xn * xn + yn * yn;
  float rad = 1.0f + r2 * (p.k1 + r2 * (p.k2 + r2 * p.k3));
  float xd = xn * rad + 2.0f * p.p1 * xn * yn + p.p2 * (r2 + 2.0f * xn * xn);
  float yd = yn * rad + p.p1 * (r2 + 2.0f * yn * yn) + 2.0f * p.p2 * xn * yn;
  u = p.fx * xd + p.cx;
  v = p.fy * yd + p.cy;
}
__device__ __forceinline__ float slow(const uint8_t *src, int W, int H, int row,
                                      int x0, int y0, float ax, float ay,
                                      int c) {
  auto at = [&](int x, int y) -> float {
    bool in = x >= 0 && x < W && y >= 0 && y < H;
    return in ? float(__ldg(src + y * row + x * 3 + c)) : 0.0f;
  };
  float p00 = at(x0, y0), p10 = at(x0 + 1, y0), p01 = at(x0, y0 + 1),
        p11 = at(x0 + 1, y0 + 1);
  float t = fmaf(ax, p10 - p00, p00), b = fmaf(ax, p11 - p01, p01);
  return fmaf(ay, b - t, t);
}
__device__ __forceinline__ float fast(const uint8_t *src, int row, int x0,
                                      int y0, float ax, float ay, int c) {
  const uint8_t *q = src + y0 * row + x0 * 3 + c;
  float p00 = __ldg(q), p10 = __ldg(q + 3), p01 = __ldg(q + row),
        p11 = __ldg(q + row + 3);
  float t = fmaf(ax, p10 - p00, p00), b = fmaf(ax, p11 - p01, p01);
  return fmaf(ay, b - t, t);
}
template <int PX, int RY, int MODE> // MODE 0: branch per sample; 1: one check
                                    // per thread; 2: one check per pixel
__global__ void __launch_bounds__(256)
    lens(const uint8_t *__restrict__ frames, uint8_t *__restrict__ outs, int W,
         int H, P p) {
  const int row = W * 3;
  size_t fb = size_t(row) * H;
  const uint8_t *src = frames + blockIdx.z * fb;
  uint8_t *dst = outs + blockIdx.z * fb;
  int x = (blockIdx.x * blockDim.x + threadIdx.x) * PX,
      y = (blockIdx.y * blockDim.y + threadIdx.y) * RY;
  if (x >= W || y >= H)
    return;
  constexpr int N = PX * RY * 3;
  int x0[N], y0[N];
  float ax[N], ay[N];
  uint32_t out[N];
  bool all = true;
#pragma unroll
  for (int r = 0; r < RY; ++r)
#pragma unroll
    for (int i = 0; i < PX; ++i)
#pragma unroll
      for (int c = 0; c < 3; ++c) {
        int k = (r * PX + i) * 3 + c;
        float u, v;
        mapc(p, x + i, y + r, c, u, v);
        float fu = floorf(u), fv = floorf(v);
        ax[k] = u - fu;
        ay[k] = v - fv;
        fu = fminf(fmaxf(fu, -2.0f), 1073741824.0f);
        fv = fminf(fmaxf(fv, -2.0f), 1073741824.0f);
        x0[k] = int(fu);
        y0[k] = int(fv);
        bool in = unsigned(x0[k]) < unsigned(W - 1) &&
                  unsigned(y0[k]) < unsigned(H - 1);
        if (MODE == 0)
          out[k] =
              sat8(in ? fast(src, row, x0[k], y0[k], ax[k], ay[k], c)
                      : slow(src, W, H, row, x0[k], y0[k], ax[k], ay[k], c));
        all = all && in;
      }
  if (MODE == 1) {
    if (all) {
#pragma unroll
      for (int k = 0; k < N; ++k)
        out[k] = sat8(fast(src, row, x0[k], y0[k], ax[k], ay[k], k % 3));
    } else {
#pragma unroll
      for (int k = 0; k < N; ++k)
        out[k] = sat8(slow(src, W, H, row, x0[k], y0[k], ax[k], ay[k], k % 3));
    }
  }
  if (MODE == 2) {
#pragma unroll
    for (int q = 0; q < PX * RY; ++q) {
      bool in = true;
#pragma unroll
      for (int c = 0; c < 3; ++c) {
        int k = q * 3 + c;
        in = in && unsigned(x0[k]) < unsigned(W - 1) &&
             unsigned(y0[k]) < unsigned(H - 1);
      }
      if (in) {
#pragma unroll
        for (int c = 0; c < 3; ++c) {
          int k = q * 3 + c;
          out[k] = sat8(fast(src, row, x0[k], y0[k], ax[k], ay[k], c));
        }
      } else {
#pragma unroll
        for (int c = 0; c < 3; ++c) {
          int k = q * 3 + c;
          out[k] = sat8(slow(src, W, H, row, x0[k], y0[k], ax[k], ay[k], c));
        }
      }
    }
  }
#pragma unroll
  for (int r = 0; r < RY; ++r)
#pragma unroll
    for (int i = 0; i < PX; ++i)
#pragma unroll
      for (int c = 0; c < 3; ++c)
        dst[size_t(y + r) * row + (x + i) * 3 + c] =
            uint8_t(out[(r * PX + i) * 3 + c] & 0xff);
}
template <int PX, int RY, int MODE>
float timeIt(const char *name, uint8_t *in, uint8_t *out, uint8_t *ref, int W,
             int H, int B, P p, dim3 blk) {
  dim3 grid((W / PX + blk.x - 1) / blk.x, (H / RY + blk.y - 1) / blk.y, B);
  cudaMemset(out, 0xCD, size_t(W) * H * 3 * B);
  lens<PX, RY, MODE><<<grid, blk>>>(in, out, W, H, p);
  cudaDeviceSynchronize();
  std::vector<uint8_t> h(size_t(W) * H * 3 * B);
  cudaMemcpy(h.data(), out, h.size(), cudaMemcpyDeviceToHost);
  size_t diff = 0;
  for (size_t i = 0; i < h.size(); ++i)
    diff += h[i] != ref[i];
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  std::vector<float> ts;
  for (int it = 0; it < 60; ++it) {
    cudaEventRecord(a);
    lens<PX, RY, MODE><<<grid, blk>>>(in, out, W, H, p);
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms;
    cudaEventElapsedTime(&ms, a, b);
    ts.push_back(ms * 1000 / B);
  }
  std::sort(ts.begin(), ts.end());
  cudaFuncAttributes fa;
  cudaFuncGetAttributes(&fa, lens<PX, RY, MODE>);
  printf("%-28s %3dx%-3d regs %3d  median %7.2f us/frame  min %7.2f  "
         "mismatches %zu\n",
         name, blk.x, blk.y, fa.numRegs, ts[ts.size() / 2], ts[0], diff);
  return ts[ts.size() / 2];
}
int main() {
  int W = 3840, H = 2160, B = 8;
  size_t n = size_t(W) * H * 3 * B;
  std::vector<uint8_t> h(n);
  uint32_t s = 12345;
  for (auto &v : h) {
    s = s * 1664525u + 1013904223u;
    v = (s >> 24);
  }
  // smooth-ish image: blur the noise a bit so samples are realistic does not
  // matter for timing
  uint8_t *in, *out;
  cudaMalloc(&in, n);
  cudaMalloc(&out, n);
  cudaMemcpy(in, h.data(), n, cudaMemcpyHostToDevice);
  float sc = W / 640.0f;
  P p{535.9157f * sc, 535.9157f * sc,
      342.283f * sc,  235.5708f * sc * 2160 / 480 / sc,
      -0.2663726f,    -0.0385889f,
      0.0017832f,     -0.00028122f,
      0.2383915f,     0.9975f,
      0.995f};
  p.cy = 235.5708f * H / 480.0f;
  dim3 grid(W / 32, (H + 7) / 8, B);
  lens<1, 1, 0><<<grid, dim3(32, 8)>>>(in, out, W, H, p);
  cudaDeviceSynchronize();
  std::vector<uint8_t> ref(n);
  cudaMemcpy(ref.data(), out, n, cudaMemcpyDeviceToHost);
  for (int rep = 0; rep < 2; ++rep) {
    timeIt<1, 2, 0>("1x2 branch/sample", in, out, ref.data(), W, H, B, p,
                    dim3(32, 8));
    timeIt<1, 2, 1>("1x2 check/thread", in, out, ref.data(), W, H, B, p,
                    dim3(32, 8));
    timeIt<1, 2, 2>("1x2 check/pixel", in, out, ref.data(), W, H, B, p,
                    dim3(32, 8));
    timeIt<1, 1, 0>("1x1 branch/sample", in, out, ref.data(), W, H, B, p,
                    dim3(32, 8));
    timeIt<1, 1, 1>("1x1 check/thread", in, out, ref.data(), W, H, B, p,
                    dim3(32, 8));
    timeIt<1, 4, 0>("1x4 branch/sample", in, out, ref.data(), W, H, B, p,
                    dim3(32, 8));
    timeIt<1, 4, 1>("1x4 check/thread", in, out, ref.data(), W, H, B, p,
                    dim3(32, 8));
    timeIt<1, 4, 2>("1x4 check/pixel", in, out, ref.data(), W, H, B, p,
                    dim3(32, 8));
    timeIt<2, 2, 1>("2x2 check/thread", in, out, ref.data(), W, H, B, p,
                    dim3(32, 8));
    timeIt<4, 1, 1>("4x1 check/thread", in, out, ref.data(), W, H, B, p,
                    dim3(32, 8));
    timeIt<4, 1, 0>("4x1 branch/sample", in, out, ref.data(), W, H, B, p,
                    dim3(32, 8));
  }
  printf("err: %s\n", cudaGetErrorString(cudaGetLastError()));
}
