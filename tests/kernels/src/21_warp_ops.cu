// Warp-level operations: every shuffle kind with widths 32/16/8 and a partial mask, votes,
// __activemask under divergence, match (32 and 64 bit), the sm_80 redux reductions (with a
// shuffle fallback below sm_80 that must give the same values) and __syncwarp.
// All threads of the grid stay alive through the collective operations: a thread past n reads
// a filler value and only its stores are skipped, so every warp is always full.

constexpr unsigned kFull = 0xffffffffu;
constexpr int kShuffleOuts = 11;

extern "C" __global__ void warp_shuffles(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31;
  int v = i < n ? in[i] : -7;
  int r[kShuffleOuts];
  r[0] = __shfl_sync(kFull, v, (lane * 7 + 3) & 31);
  r[1] = __shfl_sync(kFull, v, 5, 16);
  r[2] = __shfl_sync(kFull, v, lane + 3, 8);  // source lane wraps inside each 8-lane segment
  r[3] = __shfl_up_sync(kFull, v, 3);
  r[4] = __shfl_up_sync(kFull, v, 2, 8);
  r[5] = __shfl_down_sync(kFull, v, 5);
  r[6] = __shfl_down_sync(kFull, v, 3, 16);
  r[7] = __shfl_xor_sync(kFull, v, 1);
  r[8] = __shfl_xor_sync(kFull, v, 6, 8);
  r[9] = __shfl_xor_sync(kFull, v, 16);
  r[10] = v;
  // Partial mask: only lanes 0..19 take part, each reading its right neighbour inside 0..19.
  if (lane < 20) r[10] = __shfl_sync(0x000fffffu, v, (lane + 1) % 20);
  if (i < n)
    for (int k = 0; k < kShuffleOuts; ++k) out[kShuffleOuts * i + k] = r[k];
}

// A 64-bit value moves through a shuffle as two 32-bit halves.
extern "C" __global__ void warp_shuffle_double(const double* in, double* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double v = i < n ? in[i] : 0.0;
  double r = __shfl_xor_sync(kFull, v, 9);
  if (i < n) out[i] = r;
}

// out per thread: ballot, all, any, partial-mask ballot (lanes 0..15), activemask inside each
// side of a divergent branch, and a uniform all/any.
extern "C" __global__ void warp_votes(const int* in, unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31;
  int v = i < n ? in[i] : 0;
  bool pred = v > 0;
  unsigned r[6];
  r[0] = __ballot_sync(kFull, pred);
  r[1] = __all_sync(kFull, pred);
  r[2] = __any_sync(kFull, pred);
  r[3] = 0xdeadbeefu;
  if (lane < 16) r[3] = __ballot_sync(0x0000ffffu, pred);
  if (v & 1) {
    r[4] = __activemask();
  } else {
    r[4] = __activemask() ^ 0x80000000u;
  }
  r[5] = (__all_sync(kFull, v > -1000000000) ? 2u : 0u) | (__any_sync(kFull, v == 12345) ? 1u : 0u);
  if (i < n)
    for (int k = 0; k < 6; ++k) out[6 * i + k] = r[k];
}

// out per thread: match_any and match_all (with its predicate) on 32-bit and 64-bit values.
extern "C" __global__ void warp_matches(const int* in, unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31;
  int v = i < n ? in[i] : 99;
  unsigned long long w = (static_cast<unsigned long long>(v & 3) << 40) | static_cast<unsigned>(v % 5);
  int all_pred = 0, all_pred64 = 0;
  unsigned r[6];
  r[0] = __match_any_sync(kFull, v);
  r[1] = __match_any_sync(kFull, w);
  r[2] = __match_all_sync(kFull, v >> 8, &all_pred);   // uniform inside some warps only
  r[3] = __match_all_sync(kFull, w & (1ull << 40), &all_pred64);
  r[4] = (all_pred ? 1u : 0u) | (all_pred64 ? 2u : 0u);
  r[5] = 0;
  if (lane >= 8) r[5] = __match_any_sync(0xffffff00u, v & 1);
  if (i < n)
    for (int k = 0; k < 6; ++k) out[6 * i + k] = r[k];
}

// Warp reductions: add/min/max over unsigned and int, and/or/xor over unsigned.
extern "C" __global__ void warp_reduces(const int* in, unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  unsigned u = static_cast<unsigned>(v);
  unsigned r[8];
#if __CUDA_ARCH__ >= 800
  r[0] = __reduce_add_sync(kFull, u);
  r[1] = __reduce_min_sync(kFull, u);
  r[2] = __reduce_max_sync(kFull, u);
  r[3] = static_cast<unsigned>(__reduce_min_sync(kFull, v));
  r[4] = static_cast<unsigned>(__reduce_max_sync(kFull, v));
  r[5] = __reduce_and_sync(kFull, u);
  r[6] = __reduce_or_sync(kFull, u);
  r[7] = __reduce_xor_sync(kFull, u);
#else
  unsigned add = u, umin = u, umax = u, aand = u, oor = u, xxor = u;
  int smin = v, smax = v;
  for (int off = 16; off > 0; off >>= 1) {
    add += __shfl_xor_sync(kFull, add, off);
    umin = min(umin, __shfl_xor_sync(kFull, umin, off));
    umax = max(umax, __shfl_xor_sync(kFull, umax, off));
    smin = min(smin, __shfl_xor_sync(kFull, smin, off));
    smax = max(smax, __shfl_xor_sync(kFull, smax, off));
    aand &= __shfl_xor_sync(kFull, aand, off);
    oor |= __shfl_xor_sync(kFull, oor, off);
    xxor ^= __shfl_xor_sync(kFull, xxor, off);
  }
  r[0] = add; r[1] = umin; r[2] = umax;
  r[3] = static_cast<unsigned>(smin); r[4] = static_cast<unsigned>(smax);
  r[5] = aand; r[6] = oor; r[7] = xxor;
#endif
  if (i < n)
    for (int k = 0; k < 8; ++k) out[8 * i + k] = r[k];
}

// Lanes exchange through shared memory, ordered by __syncwarp (no block barrier).
extern "C" __global__ void warp_syncwarp_exchange(const int* in, int* out, int n) {
  __shared__ int s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int t = threadIdx.x;
  s[t] = i < n ? in[i] : 0;
  __syncwarp();
  int a = s[t ^ 1];
  int b = s[(t & ~31) | ((t + 5) & 31)];
  __syncwarp();
  s[t] = a * 3 + b;
  __syncwarp();
  if (i < n) out[i] = s[(t & ~31) | ((t + 17) & 31)];
}
