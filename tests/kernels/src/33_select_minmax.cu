// Selection and conversions whose results are fully specified, so a test compares bits:
// fminf/fmaxf with NaN, fabsf, copysignf, __saturatef, integer abs, float->int in all
// rounding modes (saturating, NaN -> 0), int->float and double->float in all rounding modes,
// and double/float->half.
#include <cuda_fp16.h>

constexpr int kSelectOuts = 7;
extern "C" __global__ void float_select(const float* a, const float* b, const int* k,
                                        float* out, int* iout, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = a[i], y = b[i];
  float* o = out + kSelectOuts * i;
  o[0] = fminf(x, y);
  o[1] = fmaxf(x, y);
  o[2] = fabsf(x);
  o[3] = copysignf(x, y);
  o[4] = __saturatef(x);
  o[5] = -x;
  o[6] = x > y ? x : y;   // a plain compare-select (differs from fmaxf for NaN)
  iout[2 * i] = abs(k[i]);
  iout[2 * i + 1] = max(k[i], -k[i] / 2);
}

constexpr int kToIntOuts = 12;
extern "C" __global__ void float_to_int(const float* a, unsigned long long* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = a[i];
  unsigned long long* o = out + kToIntOuts * i;
  o[0] = static_cast<unsigned>(__float2int_rn(x));
  o[1] = static_cast<unsigned>(__float2int_rz(x));
  o[2] = static_cast<unsigned>(__float2int_ru(x));
  o[3] = static_cast<unsigned>(__float2int_rd(x));
  o[4] = __float2uint_rn(x);
  o[5] = __float2uint_rz(x);
  o[6] = __float2uint_ru(x);
  o[7] = __float2uint_rd(x);
  o[8] = static_cast<unsigned long long>(__float2ll_rn(x));
  o[9] = static_cast<unsigned long long>(__float2ll_rz(x));
  o[10] = __float2ull_rn(x);
  o[11] = __float2ull_ru(x);
}

constexpr int kToFloatOuts = 16;
// out as float bits: int->float rn/rz/ru/rd, uint->float rn/rz/ru/rd, ll->float rn/rz/ru/rd,
// ull->float rn/rd, ll->double rn, ull->double rz (low word of the double bits... full bits
// in dout).
extern "C" __global__ void int_to_float(const unsigned long long* a, float* out, double* dout,
                                        int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned long long u = a[i];
  int s32 = static_cast<int>(u);
  unsigned u32 = static_cast<unsigned>(u >> 16);
  long long s64 = static_cast<long long>(u);
  float* o = out + kToFloatOuts * i;
  o[0] = __int2float_rn(s32);
  o[1] = __int2float_rz(s32);
  o[2] = __int2float_ru(s32);
  o[3] = __int2float_rd(s32);
  o[4] = __uint2float_rn(u32);
  o[5] = __uint2float_rz(u32);
  o[6] = __uint2float_ru(u32);
  o[7] = __uint2float_rd(u32);
  o[8] = __ll2float_rn(s64);
  o[9] = __ll2float_rz(s64);
  o[10] = __ll2float_ru(s64);
  o[11] = __ll2float_rd(s64);
  o[12] = __ull2float_rn(u);
  o[13] = __ull2float_rd(u);
  o[14] = __ull2float_ru(u);
  o[15] = __ull2float_rz(u);
  dout[2 * i] = __ll2double_rn(s64);
  dout[2 * i + 1] = __ull2double_rz(u);
}

constexpr int kFromDoubleOuts = 8;
// out as 32-bit words: double->float rn/rz/ru/rd, double->int rn, double->uint rd,
// double->half rn (low 16 bits), float->half rn of the rn float (low 16 bits).
extern "C" __global__ void double_narrow(const double* a, unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double x = a[i];
  unsigned* o = out + kFromDoubleOuts * i;
  o[0] = __float_as_uint(__double2float_rn(x));
  o[1] = __float_as_uint(__double2float_rz(x));
  o[2] = __float_as_uint(__double2float_ru(x));
  o[3] = __float_as_uint(__double2float_rd(x));
  o[4] = static_cast<unsigned>(__double2int_rn(x));
  o[5] = __double2uint_rd(x);
  o[6] = __half_as_ushort(__double2half(x));
  o[7] = __half_as_ushort(__float2half_rn(__double2float_rn(x)));
}
