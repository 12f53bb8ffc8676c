// Sparse matrix-vector product in CSR form, one thread per row. The inner product runs in
// column order with sum += val * x[col], which nvcc contracts to fma.rn.f32.
extern "C" __global__ void spmv_csr(const int* row_ptr, const int* cols, const float* vals,
                                    const float* x, float* y, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float sum = 0.0f;
  for (int j = row_ptr[r]; j < row_ptr[r + 1]; ++j) sum += vals[j] * x[cols[j]];
  y[r] = sum;
}

// y = alpha * A x + beta * y with a double-precision accumulator.
extern "C" __global__ void spmv_csr_axpby(const int* row_ptr, const int* cols, const double* vals,
                                          const double* x, double* y, double alpha, double beta,
                                          int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  double sum = 0.0;
  for (int j = row_ptr[r]; j < row_ptr[r + 1]; ++j) sum += vals[j] * x[cols[j]];
  y[r] = alpha * sum + beta * y[r];
}
