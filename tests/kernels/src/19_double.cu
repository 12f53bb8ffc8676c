// Double precision: IEEE add/sub/mul/fma/div/sqrt (all correctly rounded in PTX: add.f64,
// fma.rn.f64, div.rn.f64, sqrt.rn.f64) and conversions between integers and doubles.
// Each result goes to its own output so nvcc cannot contract a mul and an add into an fma.
extern "C" __global__ void double_arith(const double* a, const double* b, const double* c,
                                        double* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double x = a[i], y = b[i], z = c[i];
  out[7 * i + 0] = x + y;
  out[7 * i + 1] = x - y;
  out[7 * i + 2] = x * y;
  out[7 * i + 3] = fma(x, y, z);
  out[7 * i + 4] = x / y;
  out[7 * i + 5] = sqrt(fabs(x));
  out[7 * i + 6] = -x;
}

// int -> double (exact), double -> int truncating, u64 -> double (rounded to nearest),
// double -> s64 truncating.
extern "C" __global__ void double_convert(const int* ints, const unsigned long long* u64s,
                                          const double* ds, double* from_int,
                                          double* from_u64, int* to_int, long long* to_s64,
                                          int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  from_int[i] = static_cast<double>(ints[i]);
  from_u64[i] = static_cast<double>(u64s[i]);
  to_int[i] = static_cast<int>(ds[i]);
  to_s64[i] = static_cast<long long>(ds[i] * 1024.0);
}

// A per-thread loop: Horner evaluation of a degree-7 polynomial with fma, then one division.
extern "C" __global__ void double_horner(const double* x, const double* coeffs, double* out,
                                         int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double v = x[i];
  double acc = coeffs[7];
  for (int k = 6; k >= 0; --k) acc = fma(acc, v, coeffs[k]);
  out[i] = acc / (1.0 + v * v);
}
