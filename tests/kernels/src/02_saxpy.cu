// y = a*x + y. The plain form lets nvcc contract to fma; the _unfused form forces a separately
// rounded multiply and add with the __fmul_rn/__fadd_rn intrinsics.
extern "C" __global__ void saxpy(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

extern "C" __global__ void saxpy_unfused(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __fadd_rn(__fmul_rn(a, x[i]), y[i]);
}

extern "C" __global__ void daxpy(int n, double a, const double* x, double* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
