// Every CUDA atomic function, on global memory and on shared memory. The targets live in one
// struct; the global kernel works on a struct in global memory, the shared kernel on a copy in
// shared memory per block (written back to global by thread 0 at the end). Each thread also
// records the old values that the order-revealing atomics return, so a test can check them
// with order-independent properties (chains, permutations, multisets).
#include <cuda_bf16.h>
#include <cuda_fp16.h>

struct AtomicTargets {
  unsigned long long add_u64, min_u64, max_u64, and_u64, or_u64, xor_u64, exch_u64, cas_u64;
  long long min_s64, max_s64;
  double add_f64;
  int add_s32, sub_s32, exch_s32, min_s32, max_s32;
  unsigned add_u32, min_u32, max_u32, inc_u32, dec_u32, and_u32, or_u32, xor_u32, cas_u32;
  float add_f32, exch_f32;
  unsigned add_h2;    // __half2 bits
  unsigned add_bf2;   // __nv_bfloat162 bits
  unsigned short cas_u16[2];
};

constexpr int kOldsPerThread = 8;
constexpr unsigned kIncWrap = 17;
constexpr unsigned kDecWrap = 13;

// pos: a positive value per thread; sgn: any 32-bit value per thread.
__device__ __forceinline__ void apply_atomics(AtomicTargets* t, int i, int pos, int sgn,
                                              unsigned* olds) {
  unsigned long long wide = (static_cast<unsigned long long>(static_cast<unsigned>(sgn)) << 32) |
                            static_cast<unsigned>(pos * 2654435761u);
  long long swide = static_cast<long long>(wide);
  olds[0] = static_cast<unsigned>(atomicAdd(&t->add_s32, pos));
  atomicAdd(&t->add_u32, static_cast<unsigned>(sgn));
  atomicAdd(&t->add_u64, wide);
  atomicAdd(&t->add_f32, static_cast<float>(pos));
  atomicAdd(&t->add_f64, static_cast<double>(pos) * 0.25);
  __half2 h2 = __halves2half2(__float2half_rn(1.0f), __float2half_rn(static_cast<float>(pos & 3)));
  atomicAdd(reinterpret_cast<__half2*>(&t->add_h2), h2);
  __nv_bfloat162 b2 = __floats2bfloat162_rn((i & 1) ? 1.0f : 0.0f, (i % 3 == 0) ? 2.0f : 0.0f);
  atomicAdd(reinterpret_cast<__nv_bfloat162*>(&t->add_bf2), b2);
  olds[1] = static_cast<unsigned>(atomicSub(&t->sub_s32, pos));
  olds[2] = static_cast<unsigned>(atomicExch(&t->exch_s32, i + 1));
  olds[3] = __float_as_uint(atomicExch(&t->exch_f32, static_cast<float>(i + 1)));
  atomicExch(&t->exch_u64, wide);
  atomicMin(&t->min_s32, sgn);
  atomicMax(&t->max_s32, sgn);
  atomicMin(&t->min_u32, static_cast<unsigned>(sgn));
  atomicMax(&t->max_u32, static_cast<unsigned>(sgn));
  atomicMin(&t->min_s64, swide);
  atomicMax(&t->max_s64, swide);
  atomicMin(&t->min_u64, wide);
  atomicMax(&t->max_u64, wide);
  olds[4] = atomicInc(&t->inc_u32, kIncWrap);
  olds[5] = atomicDec(&t->dec_u32, kDecWrap);
  atomicAnd(&t->and_u32, static_cast<unsigned>(sgn) | (1u << (i & 31)));
  atomicOr(&t->or_u32, 1u << (pos & 31));
  atomicXor(&t->xor_u32, static_cast<unsigned>(sgn));
  atomicAnd(&t->and_u64, wide | (1ull << (i & 63)));
  atomicOr(&t->or_u64, 1ull << (sgn & 63));
  atomicXor(&t->xor_u64, wide);
  // Ticket counters built from compare-and-swap loops: every thread gets a distinct ticket.
  unsigned assumed, seen = t->cas_u32;
  do {
    assumed = seen;
    seen = atomicCAS(&t->cas_u32, assumed, assumed + 1);
  } while (seen != assumed);
  olds[6] = assumed;
  unsigned long long assumed64, seen64 = t->cas_u64;
  do {
    assumed64 = seen64;
    seen64 = atomicCAS(&t->cas_u64, assumed64, assumed64 + 0x100000001ull);
  } while (seen64 != assumed64);
  olds[7] = static_cast<unsigned>(assumed64);
  // 16-bit CAS on the second half-word only; the first must stay untouched.
  unsigned short assumed16, seen16 = t->cas_u16[1];
  do {
    assumed16 = seen16;
    seen16 = atomicCAS(&t->cas_u16[1], assumed16, static_cast<unsigned short>(assumed16 + 3));
  } while (seen16 != assumed16);
}

extern "C" __global__ void atomics_global(AtomicTargets* targets, unsigned* olds, const int* pos,
                                          const int* sgn, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  apply_atomics(targets, i, pos[i], sgn[i], olds + kOldsPerThread * i);
}

// Each block starts from *init in shared memory and writes its final struct to per_block.
extern "C" __global__ void atomics_shared(const AtomicTargets* init, AtomicTargets* per_block,
                                          unsigned* olds, const int* pos, const int* sgn, int n) {
  __shared__ AtomicTargets s;
  if (threadIdx.x == 0) s = *init;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) apply_atomics(&s, i, pos[i], sgn[i], olds + kOldsPerThread * i);
  __syncthreads();
  if (threadIdx.x == 0) per_block[blockIdx.x] = s;
}
