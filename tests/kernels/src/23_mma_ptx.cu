// lockstep-archs: 80 90
// Inline PTX tensor-core ops: ldmatrix (x4 for A, x2 and x2.trans for B) from shared memory
// and mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32. One warp per 16x8 tile of
// D = A*B + C, looping over K in steps of 16. A is MxK row-major, C and D are MxN row-major.
#include <cuda_fp16.h>
#include <cstdint>

__device__ __forceinline__ uint32_t smem_addr(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void mma_16816(float d[4], const uint32_t a[4], const uint32_t b[2]) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
      "{%8,%9}, {%0,%1,%2,%3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// B_TRANSPOSED == false: B is given as NxK (element (k,n) at B[n*K+k]) and loaded with plain
// ldmatrix; true: B is KxN row-major and loaded with ldmatrix .trans.
template <bool B_TRANSPOSED>
__device__ void mma_tile(const __half* A, const __half* B, const float* C, float* D, int M,
                         int N, int K) {
  __shared__ __align__(16) __half sa[4][16 * 16];
  __shared__ __align__(16) __half sb[4][16 * 8];
  int w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int local = threadIdx.x / 32, lane = threadIdx.x % 32;
  int tiles_n = N / 8;
  if (w >= (M / 16) * tiles_n) return;
  int tm = w / tiles_n, tn = w % tiles_n;
  int group = lane / 4, quad = lane % 4;
  float d[4];
  d[0] = C[(tm * 16 + group) * N + tn * 8 + quad * 2];
  d[1] = C[(tm * 16 + group) * N + tn * 8 + quad * 2 + 1];
  d[2] = C[(tm * 16 + group + 8) * N + tn * 8 + quad * 2];
  d[3] = C[(tm * 16 + group + 8) * N + tn * 8 + quad * 2 + 1];
  for (int k = 0; k < K; k += 16) {
    for (int e = lane; e < 16 * 16; e += 32) sa[local][e] = A[(tm * 16 + e / 16) * K + k + e % 16];
    for (int e = lane; e < 16 * 8; e += 32) {
      if (B_TRANSPOSED)
        sb[local][e] = B[(k + e / 8) * N + tn * 8 + e % 8];    // sb is 16(k) x 8(n)
      else
        sb[local][e] = B[(tn * 8 + e / 16) * K + k + e % 16];  // sb is 8(n) x 16(k)
    }
    __syncwarp();
    uint32_t a[4], b[2];
    const __half* arow = &sa[local][(lane % 16) * 16 + (lane / 16) * 8];
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3])
                 : "r"(smem_addr(arow)));
    if (B_TRANSPOSED) {
      const __half* brow = &sb[local][(lane % 16) * 8];
      asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];\n"
                   : "=r"(b[0]), "=r"(b[1])
                   : "r"(smem_addr(brow)));
    } else {
      const __half* brow = &sb[local][(lane % 8) * 16 + ((lane / 8) % 2) * 8];
      asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];\n"
                   : "=r"(b[0]), "=r"(b[1])
                   : "r"(smem_addr(brow)));
    }
    mma_16816(d, a, b);
    __syncwarp();
  }
  D[(tm * 16 + group) * N + tn * 8 + quad * 2] = d[0];
  D[(tm * 16 + group) * N + tn * 8 + quad * 2 + 1] = d[1];
  D[(tm * 16 + group + 8) * N + tn * 8 + quad * 2] = d[2];
  D[(tm * 16 + group + 8) * N + tn * 8 + quad * 2 + 1] = d[3];
}

// Blocks hold at most 4 warps.
extern "C" __global__ void mma_ldmatrix(const __half* A, const __half* B, const float* C,
                                        float* D, int M, int N, int K) {
  mma_tile<false>(A, B, C, D, M, N, K);
}

extern "C" __global__ void mma_ldmatrix_trans(const __half* A, const __half* B, const float* C,
                                              float* D, int M, int N, int K) {
  mma_tile<true>(A, B, C, D, M, N, K);
}
