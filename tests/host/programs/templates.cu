// Templates: one kernel template instantiated for int, float, double and a user struct, a
// functor template parameter, and a non-type (block size) template parameter.
#include <cstdio>

#include <cuda_runtime.h>

struct Pair {
  int a;
  short b;
  __host__ __device__ Pair operator+(const Pair& o) const { return Pair{a + o.a, short(b + o.b)}; }
  __host__ __device__ bool operator!=(const Pair& o) const { return a != o.a || b != o.b; }
};

struct Times3 {
  template <class T>
  __device__ T operator()(T v) const { return v + v + v; }
};

struct Plus1 {
  __device__ Pair operator()(Pair v) const { return Pair{v.a + 1, short(v.b + 1)}; }
  template <class T>
  __device__ T operator()(T v) const { return v + T(1); }
};

template <class T, class Op>
__global__ void apply(const T* in, T* out, int n, Op op) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = op(in[i]);
}

// Block-wide sum of a fixed block size (a compile-time constant sizes the shared array).
template <int BLOCK, class T>
__global__ void block_total(const T* in, T* out) {
  __shared__ T s[BLOCK];
  s[threadIdx.x] = in[blockIdx.x * BLOCK + threadIdx.x];
  __syncthreads();
  for (int stride = BLOCK / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) s[threadIdx.x] = s[threadIdx.x] + s[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

template <class T, class Op>
int check_apply(const char* name, Op op, T (*host_op)(T)) {
  const int n = 300;
  T h_in[n], h_out[n];
  for (int i = 0; i < n; ++i) h_in[i] = T(i % 50);
  T *d_in, *d_out;
  cudaMalloc(&d_in, sizeof h_in);
  cudaMalloc(&d_out, sizeof h_out);
  cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
  apply<<<(n + 127) / 128, 128>>>(d_in, d_out, n, op);
  cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
  cudaFree(d_in);
  cudaFree(d_out);
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += h_out[i] != host_op(h_in[i]);
  std::printf("%s: %d mismatches\n", name, bad);
  return bad;
}

template <int BLOCK, class T>
int check_total(const char* name) {
  const int blocks = 3;
  T h_in[BLOCK * blocks], h_out[blocks];
  for (int i = 0; i < BLOCK * blocks; ++i) h_in[i] = T(i % 9);
  T *d_in, *d_out;
  cudaMalloc(&d_in, sizeof h_in);
  cudaMalloc(&d_out, sizeof h_out);
  cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
  block_total<BLOCK, T><<<blocks, BLOCK>>>(d_in, d_out);
  cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
  cudaFree(d_in);
  cudaFree(d_out);
  int bad = 0;
  for (int b = 0; b < blocks; ++b) {
    T expected = T(0);
    for (int t = 0; t < BLOCK; ++t) expected = expected + h_in[b * BLOCK + t];
    bad += h_out[b] != expected;
  }
  std::printf("%s: totals %g %g %g, %d mismatches\n", name, double(h_out[0]), double(h_out[1]), double(h_out[2]),
              bad);
  return bad;
}

int times3_int(int v) { return 3 * v; }
float times3_float(float v) { return 3.0f * v; }
double plus1_double(double v) { return v + 1.0; }

int main() {
  int bad = 0;
  bad += check_apply<int>("apply<int, Times3>", Times3{}, times3_int);
  bad += check_apply<float>("apply<float, Times3>", Times3{}, times3_float);
  bad += check_apply<double>("apply<double, Plus1>", Plus1{}, plus1_double);
  // A struct element type.
  const int n = 40;
  Pair h_in[n], h_out[n];
  for (int i = 0; i < n; ++i) h_in[i] = Pair{i * 1000, short(i)};
  Pair *d_in, *d_out;
  cudaMalloc(&d_in, sizeof h_in);
  cudaMalloc(&d_out, sizeof h_out);
  cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
  apply<<<1, 64>>>(d_in, d_out, n, Plus1{});
  cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
  int pair_bad = 0;
  for (int i = 0; i < n; ++i) pair_bad += h_out[i] != Pair{i * 1000 + 1, short(i + 1)};
  std::printf("apply<Pair, Plus1>: %d mismatches\n", pair_bad);
  bad += pair_bad;
  bad += check_total<64, int>("block_total<64, int>");
  bad += check_total<128, float>("block_total<128, float>");
  bad += check_total<32, double>("block_total<32, double>");
  std::printf(bad == 0 && cudaGetLastError() == cudaSuccess ? "PASSED\n" : "FAILED\n");
  return bad == 0 ? 0 : 1;
}
