// Half precision: scalar __half and vector __half2 arithmetic, and float<->half conversions in
// every rounding mode. Every result is a correctly rounded f16 operation, so tests compare bits.
#include <cuda_fp16.h>

// Six results per element: a+b, a-b, a*b, fma(a,b,c), max(a,b), min(a,b).
extern "C" __global__ void half_scalar_ops(const __half* a, const __half* b, const __half* c,
                                           __half* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half x = a[i], y = b[i], z = c[i];
  out[6 * i + 0] = __hadd(x, y);
  out[6 * i + 1] = __hsub(x, y);
  out[6 * i + 2] = __hmul(x, y);
  out[6 * i + 3] = __hfma(x, y, z);
  out[6 * i + 4] = __hmax(x, y);
  out[6 * i + 5] = __hmin(x, y);
}

// The same five operations on both halves of a __half2 at once.
extern "C" __global__ void half2_vector_ops(const __half2* a, const __half2* b, const __half2* c,
                                            __half2* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half2 x = a[i], y = b[i], z = c[i];
  out[5 * i + 0] = __hadd2(x, y);
  out[5 * i + 1] = __hsub2(x, y);
  out[5 * i + 2] = __hmul2(x, y);
  out[5 * i + 3] = __hfma2(x, y, z);
  out[5 * i + 4] = __hmax2(x, y);
}

// float -> half in all four rounding modes, and the round-to-nearest result widened back.
extern "C" __global__ void half_conversions(const float* in, __half* rn, __half* rz, __half* rd,
                                            __half* ru, float* back, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float f = in[i];
  __half h = __float2half_rn(f);
  rn[i] = h;
  rz[i] = __float2half_rz(f);
  rd[i] = __float2half_rd(f);
  ru[i] = __float2half_ru(f);
  back[i] = __half2float(h);
}

// Two floats packed into one __half2 (round to nearest) and unpacked again.
extern "C" __global__ void half2_pack(const float2* in, __half2* packed, float2* back, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float2 f = in[i];
  __half2 h = __floats2half2_rn(f.x, f.y);
  packed[i] = h;
  back[i] = __half22float2(h);
}
