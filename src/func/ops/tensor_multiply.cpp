#include "func/ops/tensor_multiply.h"

#include <array>
#include <bit>
#include <cfloat>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <type_traits>

#include "func/ops/tensor_common.h"

namespace lockstep::func::tensor {

namespace {

using Matrix = std::array<uint64_t, kMaxMatrixElems>;

// A source entry (see sources()): the register-file offset of the register holding the element
// in the high bits, the element's bit position / 8 in the low two.
inline uint64_t source_bits(const uint64_t* regs, uint32_t entry) {
  return regs[entry >> 2] >> ((entry & 3u) * 8);
}

template <Elem E, class T>
void gather_floats(const uint64_t* regs, const uint32_t* src, uint32_t count, T* out) {
  if constexpr (E == Elem::F16) {
    // Fetch the bits, then decode them as a block (F16C where the CPU has it): f16 multiplies
    // decode 512 elements each. The quieted signaling NaNs change no result (see
    // f16_to_float_quiet).
    static_assert(std::is_same_v<T, float>);
    alignas(16) uint16_t bits[kMaxMatrixElems];
    for (uint32_t i = 0; i < count; ++i) bits[i] = static_cast<uint16_t>(source_bits(regs, src[i]));
    f16_to_float_quiet(bits, out, count);
    return;
  }
  for (uint32_t i = 0; i < count; ++i) {
    const uint64_t bits = source_bits(regs, src[i]);
    if constexpr (E == Elem::F64)
      out[i] = std::bit_cast<double>(bits);
    else
      out[i] = to_float<E>(bits);
  }
}

template <Elem E>
void gather_ints(const uint64_t* regs, const uint32_t* src, uint32_t count, int64_t* out) {
  for (uint32_t i = 0; i < count; ++i) out[i] = to_int<E>(source_bits(regs, src[i]));
}

template <Elem E>
void scatter(Warp& w, const uint32_t* regs, uint32_t nregs, const uint32_t* map, const Matrix& m) {
  constexpr uint32_t k = per_reg(E);
  constexpr uint32_t bits = elem_bits(E);
  constexpr uint64_t mask = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  const uint32_t per_lane = nregs * k;
  // Register by register: the register file is slot-major, so the 32 lanes of a register are
  // contiguous.
  for (uint32_t r = 0; r < nregs; ++r) {
    uint64_t* out = w.r(regs[r]);
    for (uint32_t lane = 0; lane < 32; ++lane) {
      uint64_t v = 0;
      for (uint32_t s = 0; s < k; ++s)
        v |= (m[map[lane * per_lane + r * k + s]] & mask) << (s * bits);
      out[lane] = v;
    }
  }
}

template <Elem D>
uint64_t encode_float(float acc, bool satfinite) {
  if (satfinite && std::isinf(acc))
    acc = std::copysign(D == Elem::F16 ? 65504.0f : FLT_MAX, acc);
  if constexpr (D == Elem::F16) return float_to_f16(acc);
  return std::bit_cast<uint32_t>(acc);
}

// acc[i][j] += sum over k of a[i][k] * b[k][j] (row-major M x K, K x N, M x N), one rounding
// per step in k order: the inner loop of the tensor-core multiplies. Each output element sees
// exactly the sequence acc = step(a[i][k], b[k][j], acc) for k = 0..K-1, but the loop runs over
// a row of outputs at once so the compiler keeps N independent sums in vector registers (a
// dot product per element is one long dependent chain of adds).
// kFused: step is fma, built twice, for CPUs with FMA instructions and for the baseline (whose
// fma is a library call); the loader picks one (GCC function multiversioning). fma is exactly
// rounded either way, so results do not depend on the CPU.
// Not fused: step is acc + a * b, for f16 x f16 products, which need at most 22 significant bits
// and stay inside float's normal range, so they are exact in float and the add is the only
// rounding, as with fma. Built for AVX (8 floats a vector) and the baseline; neither has FMA,
// so the compiler cannot contract the two into one and change a NaN's payload.
// ThreadSanitizer's runtime is not up yet when the loader runs the clones' resolver, which it
// instruments: that build keeps the baseline version alone.
#if defined(__SANITIZE_THREAD__)
#define LOCKSTEP_FMA_CLONES
#define LOCKSTEP_AVX_CLONES
#else
#define LOCKSTEP_FMA_CLONES __attribute__((target_clones("fma", "default")))
#define LOCKSTEP_AVX_CLONES __attribute__((target_clones("avx", "default")))
#endif

// The helpers below are always inlined so that each clone compiles them for its own target.
template <uint32_t N, bool kFused, class T>
[[gnu::always_inline]] inline void accumulate_rows(const T* a, const T* b, T* acc, uint32_t M,
                                                   uint32_t K) {
  for (uint32_t i = 0; i < M; ++i) {
    T row[N];
    for (uint32_t j = 0; j < N; ++j) row[j] = acc[i * N + j];
    for (uint32_t k = 0; k < K; ++k) {
      const T x = a[i * K + k];
      const T* y = b + k * N;
      for (uint32_t j = 0; j < N; ++j) {
        if constexpr (!kFused)
          row[j] = row[j] + x * y[j];
        else if constexpr (std::is_same_v<T, float>)
          row[j] = __builtin_fmaf(x, y[j], row[j]);
        else
          row[j] = __builtin_fma(x, y[j], row[j]);
      }
    }
    for (uint32_t j = 0; j < N; ++j) acc[i * N + j] = row[j];
  }
}

// Any other N (none of the shapes here has one): the same steps, one element at a time.
template <bool kFused, class T>
[[gnu::always_inline]] inline void accumulate_any(const T* a, const T* b, T* acc, uint32_t M,
                                                  uint32_t N, uint32_t K) {
  for (uint32_t i = 0; i < M; ++i)
    for (uint32_t j = 0; j < N; ++j) {
      T sum = acc[i * N + j];
      for (uint32_t k = 0; k < K; ++k) {
        if constexpr (!kFused)
          sum = sum + a[i * K + k] * b[k * N + j];
        else if constexpr (std::is_same_v<T, float>)
          sum = __builtin_fmaf(a[i * K + k], b[k * N + j], sum);
        else
          sum = __builtin_fma(a[i * K + k], b[k * N + j], sum);
      }
      acc[i * N + j] = sum;
    }
}

template <bool kFused, class T>
[[gnu::always_inline]] inline void accumulate(const T* a, const T* b, T* acc, uint32_t M,
                                              uint32_t N, uint32_t K) {
  switch (N) {
    case 8:
      return accumulate_rows<8, kFused>(a, b, acc, M, K);
    case 16:
      return accumulate_rows<16, kFused>(a, b, acc, M, K);
    case 32:
      return accumulate_rows<32, kFused>(a, b, acc, M, K);
    default:
      return accumulate_any<kFused>(a, b, acc, M, N, K);
  }
}

template <class T>
LOCKSTEP_FMA_CLONES void fused_accumulate(const T* a, const T* b, T* acc, uint32_t M, uint32_t N,
                                          uint32_t K) {
  accumulate<true>(a, b, acc, M, N, K);
}

LOCKSTEP_AVX_CLONES void exact_product_accumulate(const float* a, const float* b, float* acc,
                                                  uint32_t M, uint32_t N, uint32_t K) {
  accumulate<false>(a, b, acc, M, N, K);
}

// The operand sources of a multiply in its ExecInst table (bind_multiply).
struct Sources {
  const uint32_t *a, *b, *c;
};

template <Elem A, Elem B, Elem C, Elem D>
void multiply(const uint64_t* regs, const Sources& src, Matrix& d, const MmaDesc& s) {
  const uint32_t M = s.m, N = s.n, K = s.k;
  if constexpr (A == Elem::F64) {
    alignas(32) std::array<double, kMaxMatrixElems> fa, fb, acc;
    gather_floats<A>(regs, src.a, M * K, fa.data());
    gather_floats<B>(regs, src.b, K * N, fb.data());
    gather_floats<C>(regs, src.c, M * N, acc.data());
    fused_accumulate<double>(fa.data(), fb.data(), acc.data(), M, N, K);
    for (uint32_t i = 0; i < M * N; ++i) d[i] = std::bit_cast<uint64_t>(acc[i]);
  } else if constexpr (is_int(A)) {
    std::array<int64_t, kMaxMatrixElems> ia, ib, acc;
    gather_ints<A>(regs, src.a, M * K, ia.data());
    gather_ints<B>(regs, src.b, K * N, ib.data());
    gather_ints<C>(regs, src.c, M * N, acc.data());
    for (uint32_t i = 0; i < M; ++i) {
      for (uint32_t k = 0; k < K; ++k) {
        const int64_t x = ia[i * K + k];
        for (uint32_t j = 0; j < N; ++j) acc[i * N + j] += x * ib[k * N + j];
      }
    }
    for (uint32_t out = 0; out < M * N; ++out) {
      int64_t v = acc[out];
      if (s.satfinite) {
        if (v > std::numeric_limits<int32_t>::max()) v = std::numeric_limits<int32_t>::max();
        if (v < std::numeric_limits<int32_t>::min()) v = std::numeric_limits<int32_t>::min();
      }
      d[out] = static_cast<uint32_t>(static_cast<uint64_t>(v));
    }
  } else {
    // Each element is decoded once (not once per product).
    alignas(32) std::array<float, kMaxMatrixElems> fa, fb, acc;
    gather_floats<A>(regs, src.a, M * K, fa.data());
    gather_floats<B>(regs, src.b, K * N, fb.data());
    gather_floats<C>(regs, src.c, M * N, acc.data());
    if constexpr (A == Elem::F16 && B == Elem::F16)
      exact_product_accumulate(fa.data(), fb.data(), acc.data(), M, N, K);
    else
      fused_accumulate<float>(fa.data(), fb.data(), acc.data(), M, N, K);
    for (uint32_t i = 0; i < M * N; ++i) d[i] = encode_float<D>(acc[i], s.satfinite != 0);
  }
}

template <Elem A, Elem B, Elem C, Elem D>
void mma_h(const ExecInst& in, Warp& w) {
  require_whole_warp(w, in.aux2 ? "wmma.mma" : "mma");
  const MmaDesc s = std::bit_cast<MmaDesc>(in.aux);
  const uint32_t* d_regs = operand_table(in, w).data();
  const uint32_t* map_d = d_regs + s.regs_d;
  const uint32_t per_d = s.regs_d * per_reg(D);
  Sources src;
  src.a = map_d + 32 * per_d;
  src.b = src.a + uint32_t{s.m} * s.k;
  src.c = src.b + uint32_t{s.k} * s.n;
  Matrix d;
  multiply<A, B, C, D>(w.regs, src, d, s);
  scatter<D>(w, d_regs, s.regs_d, map_d, d);
}

// Where each element (row-major) of an operand matrix is read from: for every element, the
// lowest lane holding a copy of it (several lanes hold copies in wmma's f16 multiplicands, and
// a program may have changed one copy) and that lane's register and bit position, as one
// entry (register-file offset slot * 32 + lane, shifted left by 2) | (bit position / 8). The
// tensor handlers run only in 32-lane warps, so the offset is fixed at bind time. An element no
// lane holds (no layout here leaves one out) reads the constant 0.
std::vector<uint32_t> sources(const std::vector<uint32_t>& slots, const FragmentMap& map,
                              uint32_t elems, BindContext& ctx) {
  const uint32_t per_lane = static_cast<uint32_t>(map.size() / 32);
  const uint32_t per_reg = per_lane / static_cast<uint32_t>(slots.size());
  const uint32_t bits = per_reg == 1 ? 0 : 32 / per_reg;
  constexpr uint32_t kNone = ~0u;
  std::vector<uint32_t> src(elems, kNone);
  auto entry = [&](uint32_t slot, uint32_t lane, uint32_t shift) {
    if (slot >= (1u << 25)) throw std::length_error("tensor multiply: register slot out of range");
    return ((slot * 32 + lane) << 2) | (shift / 8);
  };
  for (uint32_t lane = 32; lane-- > 0;)
    for (uint32_t j = 0; j < per_lane; ++j)
      src[map[lane * per_lane + j]] = entry(slots[j / per_reg], lane, (j % per_reg) * bits);
  for (uint32_t& e : src)
    if (e == kNone) e = entry(ctx.constant(0), 0, 0);
  return src;
}

}  // namespace

Handler mma_handler(Elem a, Elem b, Elem c, Elem d) {
  using E = Elem;
  if (a == E::F16 && b == E::F16) {
    if (c == E::F32 && d == E::F32) return &mma_h<E::F16, E::F16, E::F32, E::F32>;
    if (c == E::F16 && d == E::F32) return &mma_h<E::F16, E::F16, E::F16, E::F32>;
    if (c == E::F32 && d == E::F16) return &mma_h<E::F16, E::F16, E::F32, E::F16>;
    if (c == E::F16 && d == E::F16) return &mma_h<E::F16, E::F16, E::F16, E::F16>;
    return nullptr;
  }
  if (c == E::F32 && d == E::F32) {
    if (a == E::BF16 && b == E::BF16) return &mma_h<E::BF16, E::BF16, E::F32, E::F32>;
    if (a == E::TF32 && b == E::TF32) return &mma_h<E::TF32, E::TF32, E::F32, E::F32>;
  }
  if (a == E::F64 && b == E::F64 && c == E::F64 && d == E::F64)
    return &mma_h<E::F64, E::F64, E::F64, E::F64>;
  if (c == E::S32 && d == E::S32) {
    if (a == E::S8 && b == E::S8) return &mma_h<E::S8, E::S8, E::S32, E::S32>;
    if (a == E::S8 && b == E::U8) return &mma_h<E::S8, E::U8, E::S32, E::S32>;
    if (a == E::U8 && b == E::S8) return &mma_h<E::U8, E::S8, E::S32, E::S32>;
    if (a == E::U8 && b == E::U8) return &mma_h<E::U8, E::U8, E::S32, E::S32>;
  }
  return nullptr;
}

ExecInst bind_multiply(const ir::Instruction& inst, BindContext& ctx, Handler fn,
                       const MmaDesc& desc, const std::vector<uint32_t>& d,
                       const std::vector<uint32_t>& a, const std::vector<uint32_t>& b,
                       const std::vector<uint32_t>& c, const FragmentMap& map_a,
                       const FragmentMap& map_b, const FragmentMap& map_c, bool is_wmma) {
  ExecInst e = make_exec(inst, fn);
  std::vector<uint32_t> table = d;
  const uint32_t m = desc.m, n = desc.n, k = desc.k;
  for (const auto& part : {map_c, sources(a, map_a, m * k, ctx), sources(b, map_b, k * n, ctx),
                           sources(c, map_c, m * n, ctx)})
    table.insert(table.end(), part.begin(), part.end());
  e.table = ctx.table(std::move(table));
  e.aux = std::bit_cast<uint64_t>(desc);
  e.aux2 = is_wmma ? 1 : 0;
  return e;
}

}  // namespace lockstep::func::tensor
