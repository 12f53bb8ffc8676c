// Tensor-core matrix multiply through nvcuda::wmma, 16x16x16 tiles with f16 inputs:
// f32 accumulation with row/col-major operand layouts loaded from global memory, operands
// staged through shared memory, and f16 accumulation. One warp computes one 16x16 tile of
// D = A*B + C; warps are numbered across the grid, tiles in row-major order of D.
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;
constexpr int kT = 16;

__device__ __forceinline__ int warp_id_in_grid() {
  return (blockIdx.x * blockDim.x + threadIdx.x) / 32;
}

// A is MxK row-major, B is KxN column-major (element (k,n) at B[n*K+k]), C and D row-major.
extern "C" __global__ void wmma_f32_row_col(const __half* A, const __half* B, const float* C,
                                            float* D, int M, int N, int K) {
  int w = warp_id_in_grid();
  int tiles_n = N / kT;
  if (w >= (M / kT) * tiles_n) return;
  int tm = w / tiles_n, tn = w % tiles_n;
  wmma::fragment<wmma::matrix_a, kT, kT, kT, __half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, kT, kT, kT, __half, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, kT, kT, kT, float> acc;
  wmma::load_matrix_sync(acc, C + tm * kT * N + tn * kT, N, wmma::mem_row_major);
  for (int k = 0; k < K; k += kT) {
    wmma::load_matrix_sync(a, A + tm * kT * K + k, K);
    wmma::load_matrix_sync(b, B + tn * kT * K + k, K);
    wmma::mma_sync(acc, a, b, acc);
  }
  wmma::store_matrix_sync(D + tm * kT * N + tn * kT, acc, N, wmma::mem_row_major);
}

// A is MxK column-major (element (m,k) at A[k*M+m]), B is KxN row-major, C and D column-major.
extern "C" __global__ void wmma_f32_col_row(const __half* A, const __half* B, const float* C,
                                            float* D, int M, int N, int K) {
  int w = warp_id_in_grid();
  int tiles_n = N / kT;
  if (w >= (M / kT) * tiles_n) return;
  int tm = w / tiles_n, tn = w % tiles_n;
  wmma::fragment<wmma::matrix_a, kT, kT, kT, __half, wmma::col_major> a;
  wmma::fragment<wmma::matrix_b, kT, kT, kT, __half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, kT, kT, kT, float> acc;
  wmma::load_matrix_sync(acc, C + tn * kT * M + tm * kT, M, wmma::mem_col_major);
  for (int k = 0; k < K; k += kT) {
    wmma::load_matrix_sync(a, A + k * M + tm * kT, M);
    wmma::load_matrix_sync(b, B + k * N + tn * kT, N);
    wmma::mma_sync(acc, a, b, acc);
  }
  wmma::store_matrix_sync(D + tn * kT * M + tm * kT, acc, M, wmma::mem_col_major);
}

// Same layouts as wmma_f32_row_col, but every operand tile is first copied to shared memory
// by the warp's lanes, and the accumulator starts from zero (fill_fragment) instead of C.
// Blocks hold exactly 2 warps.
extern "C" __global__ void wmma_f32_shared(const __half* A, const __half* B, float* D, int M,
                                           int N, int K) {
  __shared__ __half sa[2][kT * kT];
  __shared__ __half sb[2][kT * kT];
  int w = warp_id_in_grid();
  int local = threadIdx.x / 32, lane = threadIdx.x % 32;
  int tiles_n = N / kT;
  if (w >= (M / kT) * tiles_n) return;
  int tm = w / tiles_n, tn = w % tiles_n;
  wmma::fragment<wmma::matrix_a, kT, kT, kT, __half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, kT, kT, kT, __half, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, kT, kT, kT, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int k = 0; k < K; k += kT) {
    for (int e = lane; e < kT * kT; e += 32) {
      int r = e / kT, c = e % kT;
      sa[local][e] = A[(tm * kT + r) * K + k + c];
      sb[local][e] = B[(tn * kT + r) * K + k + c];   // column n = tn*16+r of B
    }
    __syncwarp();
    wmma::load_matrix_sync(a, sa[local], kT);
    wmma::load_matrix_sync(b, sb[local], kT);
    wmma::mma_sync(acc, a, b, acc);
    __syncwarp();
  }
  wmma::store_matrix_sync(D + tm * kT * N + tn * kT, acc, N, wmma::mem_row_major);
}

// f16 accumulation: A row-major, B row-major, C and D row-major half matrices.
extern "C" __global__ void wmma_f16_acc(const __half* A, const __half* B, const __half* C,
                                        __half* D, int M, int N, int K) {
  int w = warp_id_in_grid();
  int tiles_n = N / kT;
  if (w >= (M / kT) * tiles_n) return;
  int tm = w / tiles_n, tn = w % tiles_n;
  wmma::fragment<wmma::matrix_a, kT, kT, kT, __half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, kT, kT, kT, __half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, kT, kT, kT, __half> acc;
  wmma::load_matrix_sync(acc, C + tm * kT * N + tn * kT, N, wmma::mem_row_major);
  for (int k = 0; k < K; k += kT) {
    wmma::load_matrix_sync(a, A + tm * kT * K + k, K);
    wmma::load_matrix_sync(b, B + k * N + tn * kT, N);
    wmma::mma_sync(acc, a, b, acc);
  }
  wmma::store_matrix_sync(D + tm * kT * N + tn * kT, acc, N, wmma::mem_row_major);
}
