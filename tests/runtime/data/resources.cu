// Source of resources_sm80.cubin and resources_sm90.cubin (regenerate with make_cubins.sh):
// kernels with few and many registers, with and without static shared memory.
__global__ void tiny(float* x) { x[threadIdx.x] = 1.0f; }

__global__ void with_shared(float* x, int n) {
  __shared__ float buf[256];
  __shared__ double extra[17];
  buf[threadIdx.x] = x[threadIdx.x];
  extra[threadIdx.x % 17] = buf[threadIdx.x];
  __syncthreads();
  x[threadIdx.x] = buf[(threadIdx.x + 1) % 256] + static_cast<float>(extra[n % 17]);
}

__global__ void heavy(float* x, int n) {
  float a[48];
#pragma unroll
  for (int i = 0; i < 48; ++i) a[i] = x[i * n + threadIdx.x];
  float s = 0;
#pragma unroll
  for (int i = 0; i < 48; ++i) s += a[i] * a[(i * 7) % 48];
#pragma unroll
  for (int i = 0; i < 48; ++i) x[i * n + threadIdx.x + 1000] = a[i] * s;
}

extern "C" __global__ void dynamic_only(char* y) {
  extern __shared__ char d[];
  d[threadIdx.x] = y[threadIdx.x];
  __syncthreads();
  y[threadIdx.x] = d[threadIdx.x + 1];
}
