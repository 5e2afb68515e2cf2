// bench/probes/launch_params.cu: the host and GPU cost of a launch against
// its parameter count (6 or 30), through the
// runtime API (<<<>>>) and the driver API (cuLaunchKernel, as arvrc's
// runtime library launches).
#include <chrono>
#include <cstdio>
#include <cuda.h>
#include <cuda_runtime.h>
__global__ void k6(char *a, char *b, int w, int h, int c, int d) {
  if (w < 0)
    a[threadIdx.x] = b[h + c + d];
}
__global__ void k30(char *a0, char *a1, int p2, int p3, int p4, int p5, int p6,
                    int p7, int p8, int p9, char *b0, char *b1, int q2, int q3,
                    int q4, int q5, int q6, int q7, int q8, int q9, char *c0,
                    char *c1, int r2, int r3, int r4, int r5, int r6, int r7,
                    int r8, int r9) {
  if (p2 < 0)
    a1[threadIdx.x] = b1[q3 + r4 + p9 + q9 + r9];
}
int main() {
  char *m;
  cudaMalloc(&m, 1 << 20);
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  cudaFunction_t f6, f30;
  cudaGetFuncBySymbol(&f6, (const void *)k6);
  cudaGetFuncBySymbol(&f30, (const void *)k30);
  unsigned long long words[30];
  void *params[30];
  for (int i = 0; i < 30; ++i) {
    words[i] = (i % 10 < 2) ? (unsigned long long)m : 1;
    params[i] = &words[i];
  }
  // k6's: two pointers then four ints.
  void *p6[6] = {&words[0], &words[1], &words[2],
                 &words[3], &words[4], &words[5]};
  auto launch = [&](int which) {
    switch (which) {
    case 0:
      k6<<<2040, 128, 0, s>>>(m, m, 1, 2, 3, 4);
      break;
    case 1:
      k30<<<2040, 128, 0, s>>>(m, m, 1, 2, 3, 4, 5, 6, 7, 8, m, m, 1, 2, 3, 4,
                               5, 6, 7, 8, m, m, 1, 2, 3, 4, 5, 6, 7, 8);
      break;
    case 2:
      cuLaunchKernel((CUfunction)f6, 2040, 1, 1, 128, 1, 1, 0, s, p6, nullptr);
      break;
    case 3:
      cuLaunchKernel((CUfunction)f30, 2040, 1, 1, 128, 1, 1, 0, s, params,
                     nullptr);
      break;
    }
  };
  const char *names[4] = {"runtime API, 6 params", "runtime API, 30 params",
                          "driver API, 6 params", "driver API, 30 params"};
  for (int rep = 0; rep < 3; ++rep)
    for (int which = 0; which < 4; ++which) {
      double host = 0;
      for (int b = 0; b < 10; ++b) {
        cudaStreamSynchronize(s);
        auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < 400; ++i)
          launch(which);
        auto t1 = std::chrono::steady_clock::now();
        host += std::chrono::duration<double, std::micro>(t1 - t0).count();
      }
      cudaStreamSynchronize(s);
      cudaEventRecord(e0, s);
      for (int i = 0; i < 20000; ++i)
        launch(which);
      cudaEventRecord(e1, s);
      cudaEventSynchronize(e1);
      float ms;
      cudaEventElapsedTime(&ms, e0, e1);
      printf("%s: host %.3f us a launch, gpu %.3f us a launch (queued)\n",
             names[which], host / 4000, ms * 1000 / 20000);
    }
  printf("last error: %s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
