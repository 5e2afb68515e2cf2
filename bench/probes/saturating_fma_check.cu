//===- saturating_fma_check.cu - u8_sat by a saturating FMA, every f32 ----===//
//
// A probe, on the GPU machine, of arvr-gpu-saturating-fma's identity:
// min(bits(fma.rn.sat.f32(x, 2^-149, 0)), 255) is u8_sat(x) (clamp to
// [0, 255], round to nearest even) for every f32 x, negatives rounding to
// -0, NaNs and infinities included. Checks all 2^32 bit patterns on the
// device and prints how many differ (0 on an H100, 2026-12-07 09:07 UTC,
// docs/gpu-runs.md) and the bits -0.3 gives (a product rounding to -0:
// saturated to +0, 0x00000000). Exits 1 on any difference.
//
//   nvcc -O3 -arch=sm_90 bench/probes/saturating_fma_check.cu && ./a.out
//
//===----------------------------------------------------------------------===//
#include <cmath>
#include <cstdint>
#include <cstdio>
__device__ unsigned satfma(float x) {
  float s;
  asm("fma.rn.sat.f32 %0, %1, 0f00000001, 0f00000000;" : "=f"(s) : "f"(x));
  unsigned b = __float_as_uint(s);
  return b < 255u ? b : 255u;
}
__device__ unsigned ref(float x) {
  float c = fminf(fmaxf(x, 0.0f), 255.0f);
  return (unsigned)rintf(c);
}
__global__ void k(unsigned long long *bad, unsigned *first, unsigned *negzero) {
  unsigned long long i =
      blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
  for (unsigned long long b = i; b < (1ull << 32);
       b += (unsigned long long)gridDim.x * blockDim.x) {
    float x = __uint_as_float((unsigned)b);
    unsigned a = satfma(x), r = ref(x);
    if (a != r) {
      atomicAdd(bad, 1ull);
      atomicMin(first, (unsigned)b);
    }
  }
  if (i == 0) {
    float s;
    asm("fma.rn.sat.f32 %0, %1, 0f00000001, 0f00000000;"
        : "=f"(s)
        : "f"(-0.3f));
    *negzero = __float_as_uint(s);
  }
}
int main() {
  unsigned long long *bad;
  unsigned *first, *nz;
  cudaMallocManaged(&bad, 8);
  cudaMallocManaged(&first, 4);
  cudaMallocManaged(&nz, 4);
  *bad = 0;
  *first = 0xffffffffu;
  *nz = 7;
  k<<<132 * 16, 256>>>(bad, first, nz);
  cudaDeviceSynchronize();
  printf("patterns differing: %llu (first 0x%08x); bits of sat(-0.3 * 2^-149 + "
         "0): 0x%08x\n",
         *bad, *first, *nz);
  return *bad != 0;
}
