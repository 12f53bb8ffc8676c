// Several kernels in one module: a kernel template instantiated for int, float and double
// (mangled names), module-scope __device__ variables and __constant__ arrays that the host
// sets through the symbol's address.
__device__ int g_calls;
__device__ float g_table[16];
__constant__ float c_coeffs[4];
__constant__ int c_offset;

template <class T>
__global__ void axpy(T a, const T* x, T* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
template __global__ void axpy<int>(int, const int*, int*, int);
template __global__ void axpy<float>(float, const float*, float*, int);
template __global__ void axpy<double>(double, const double*, double*, int);

// Cubic polynomial with constant-memory coefficients (Horner, contracted to fma), plus a
// per-slot bias from a __device__ table; counts its calls in a __device__ variable.
extern "C" __global__ void poly_eval(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  float acc = c_coeffs[3];
  for (int k = 2; k >= 0; --k) acc = acc * v + c_coeffs[k];
  y[i] = acc + g_table[(i + c_offset) & 15];
  atomicAdd(&g_calls, 1);
}

// Reads back the __device__ table scaled by the constant offset: proves a device-side write
// from one kernel is visible to the next one and the host.
extern "C" __global__ void table_update(int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i < 16) g_table[i] = g_table[i] * 2.0f + static_cast<float>(c_offset);
}
