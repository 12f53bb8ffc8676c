// lockstep-archs: 80 90
// bfloat16: scalar and vector arithmetic (sm_80 lowers add/mul to fma.rn.bf16, sm_90 has
// native add/mul) and float<->bf16 conversions in every rounding mode.
#include <cuda_bf16.h>

// Six results per element: a+b, a-b, a*b, fma(a,b,c), max(a,b), min(a,b).
extern "C" __global__ void bf16_scalar_ops(const __nv_bfloat16* a, const __nv_bfloat16* b,
                                           const __nv_bfloat16* c, __nv_bfloat16* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __nv_bfloat16 x = a[i], y = b[i], z = c[i];
  out[6 * i + 0] = __hadd(x, y);
  out[6 * i + 1] = __hsub(x, y);
  out[6 * i + 2] = __hmul(x, y);
  out[6 * i + 3] = __hfma(x, y, z);
  out[6 * i + 4] = __hmax(x, y);
  out[6 * i + 5] = __hmin(x, y);
}

// a+b, a*b, fma(a,b,c) on both halves of a __nv_bfloat162.
extern "C" __global__ void bf162_vector_ops(const __nv_bfloat162* a, const __nv_bfloat162* b,
                                            const __nv_bfloat162* c, __nv_bfloat162* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __nv_bfloat162 x = a[i], y = b[i], z = c[i];
  out[3 * i + 0] = __hadd2(x, y);
  out[3 * i + 1] = __hmul2(x, y);
  out[3 * i + 2] = __hfma2(x, y, z);
}

// float -> bf16 in all four rounding modes, and the round-to-nearest result widened back.
extern "C" __global__ void bf16_conversions(const float* in, __nv_bfloat16* rn, __nv_bfloat16* rz,
                                            __nv_bfloat16* rd, __nv_bfloat16* ru, float* back,
                                            int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float f = in[i];
  __nv_bfloat16 h = __float2bfloat16_rn(f);
  rn[i] = h;
  rz[i] = __float2bfloat16_rz(f);
  rd[i] = __float2bfloat16_rd(f);
  ru[i] = __float2bfloat16_ru(f);
  back[i] = __bfloat162float(h);
}
