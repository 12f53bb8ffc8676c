// Single-precision math: the full-precision library functions (inlined by nvcc from the CUDA
// math library) and the hardware approximation intrinsics. Inputs per function come from
// separate arrays so each function can be fed its own domain.
// math_full: out[k*n+i] for k = sinf, cosf, expf, logf, powf, erff, tanhf, sqrtf, rsqrtf,
//            exp2f, log2f (11 functions), argument k taken from in[k*n+i], powf also from y.
extern "C" __global__ void math_full(const float* in, const float* y, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[0 * n + i] = sinf(in[0 * n + i]);
  out[1 * n + i] = cosf(in[1 * n + i]);
  out[2 * n + i] = expf(in[2 * n + i]);
  out[3 * n + i] = logf(in[3 * n + i]);
  out[4 * n + i] = powf(in[4 * n + i], y[i]);
  out[5 * n + i] = erff(in[5 * n + i]);
  out[6 * n + i] = tanhf(in[6 * n + i]);
  out[7 * n + i] = sqrtf(in[7 * n + i]);
  out[8 * n + i] = rsqrtf(in[8 * n + i]);
  out[9 * n + i] = exp2f(in[9 * n + i]);
  out[10 * n + i] = log2f(in[10 * n + i]);
}

// math_fast: out[k*n+i] for k = __sinf, __cosf, __expf, __logf, __fdividef(x, y).
extern "C" __global__ void math_fast(const float* in, const float* y, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[0 * n + i] = __sinf(in[0 * n + i]);
  out[1 * n + i] = __cosf(in[1 * n + i]);
  out[2 * n + i] = __expf(in[2 * n + i]);
  out[3 * n + i] = __logf(in[3 * n + i]);
  out[4 * n + i] = __fdividef(in[4 * n + i], y[i]);
}
