#include "func/ops/tensor_multiply.h"

#include <array>
#include <bit>
#include <cfloat>
#include <cmath>
#include <limits>
#include <type_traits>

#include "func/ops/tensor_common.h"

namespace lockstep::func::tensor {

namespace {

using Matrix = std::array<uint64_t, kMaxMatrixElems>;

// Fills m from the fragments of all 32 lanes. Where several lanes hold copies of an element
// (wmma f16 multiplicands), the lowest lane's copy wins.
template <Elem E>
void gather(Warp& w, const uint32_t* regs, const uint32_t* map, uint32_t per_lane, Matrix& m) {
  for (uint32_t lane = 32; lane-- > 0;) {
    for (uint32_t j = 0; j < per_lane; ++j)
      m[map[lane * per_lane + j]] = fragment_element<E>(w, regs, lane, j);
  }
}

template <Elem E>
void scatter(Warp& w, const uint32_t* regs, uint32_t nregs, const uint32_t* map, const Matrix& m) {
  constexpr uint32_t k = per_reg(E);
  constexpr uint32_t bits = elem_bits(E);
  constexpr uint64_t mask = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  const uint32_t per_lane = nregs * k;
  for (uint32_t lane = 0; lane < 32; ++lane) {
    for (uint32_t r = 0; r < nregs; ++r) {
      uint64_t v = 0;
      for (uint32_t s = 0; s < k; ++s)
        v |= (m[map[lane * per_lane + r * k + s]] & mask) << (s * bits);
      w.r(regs[r])[lane] = v;
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

// acc + sum over k of x[k] * y[k], one rounding per step as fma gives: the inner loop of the
// tensor-core multiplies. Built twice, for CPUs with FMA instructions and for the baseline (whose
// fma is a library call); the loader picks one (GCC function multiversioning). fma is exactly
// rounded either way, so results do not depend on the CPU.
// ThreadSanitizer's runtime is not up yet when the loader runs the clones' resolver, which it
// instruments: that build keeps the baseline version alone.
#if defined(__SANITIZE_THREAD__)
#define LOCKSTEP_FMA_CLONES
#else
#define LOCKSTEP_FMA_CLONES __attribute__((target_clones("fma", "default")))
#endif

template <class T>
LOCKSTEP_FMA_CLONES T fused_dot(const T* x, const T* y, uint32_t n, T acc) {
  for (uint32_t k = 0; k < n; ++k) {
    if constexpr (std::is_same_v<T, float>) acc = __builtin_fmaf(x[k], y[k], acc);
    else acc = __builtin_fma(x[k], y[k], acc);
  }
  return acc;
}

// f16 x f16 products need at most 22 significant bits and stay inside float's normal range, so
// they are exact in float: acc + x * y rounds once, as fma does, and needs no FMA instruction.
float exact_product_dot(const float* x, const float* y, uint32_t n, float acc) {
  for (uint32_t k = 0; k < n; ++k) acc += x[k] * y[k];
  return acc;
}

template <Elem A, Elem B, Elem C, Elem D>
void multiply(const Matrix& a, const Matrix& b, const Matrix& c, Matrix& d, const MmaDesc& s) {
  const uint32_t M = s.m, N = s.n, K = s.k;
  if constexpr (A == Elem::F64) {
    std::array<double, kMaxMatrixElems> fa, fb_t;
    for (uint32_t i = 0; i < M * K; ++i) fa[i] = std::bit_cast<double>(a[i]);
    for (uint32_t k = 0; k < K; ++k)
      for (uint32_t j = 0; j < N; ++j) fb_t[j * K + k] = std::bit_cast<double>(b[k * N + j]);
    for (uint32_t i = 0; i < M; ++i)
      for (uint32_t j = 0; j < N; ++j)
        d[i * N + j] = std::bit_cast<uint64_t>(
            fused_dot<double>(fa.data() + i * K, fb_t.data() + j * K, K, std::bit_cast<double>(c[i * N + j])));
  } else if constexpr (is_int(A)) {
    for (uint32_t i = 0; i < M; ++i) {
      for (uint32_t j = 0; j < N; ++j) {
        const uint32_t out = i * N + j;
        int64_t acc = to_int<C>(c[out]);
        for (uint32_t k = 0; k < K; ++k) acc += to_int<A>(a[i * K + k]) * to_int<B>(b[k * N + j]);
        if (s.satfinite) {
          if (acc > std::numeric_limits<int32_t>::max()) acc = std::numeric_limits<int32_t>::max();
          if (acc < std::numeric_limits<int32_t>::min()) acc = std::numeric_limits<int32_t>::min();
        }
        d[out] = static_cast<uint32_t>(static_cast<uint64_t>(acc));
      }
    }
  } else {
    // Each element is decoded once (not once per product), B transposed so that both
    // operands of the inner loop are contiguous.
    std::array<float, kMaxMatrixElems> fa, fb_t;
    for (uint32_t i = 0; i < M * K; ++i) fa[i] = to_float<A>(a[i]);
    for (uint32_t k = 0; k < K; ++k)
      for (uint32_t j = 0; j < N; ++j) fb_t[j * K + k] = to_float<B>(b[k * N + j]);
    for (uint32_t i = 0; i < M; ++i) {
      const float* row = fa.data() + i * K;
      for (uint32_t j = 0; j < N; ++j) {
        const uint32_t out = i * N + j;
        const float* col = fb_t.data() + j * K;
        const float acc = A == Elem::F16 && B == Elem::F16 ? exact_product_dot(row, col, K, to_float<C>(c[out]))
                                                           : fused_dot<float>(row, col, K, to_float<C>(c[out]));
        d[out] = encode_float<D>(acc, s.satfinite != 0);
      }
    }
  }
}

template <Elem A, Elem B, Elem C, Elem D>
void mma_h(const ExecInst& in, Warp& w) {
  require_whole_warp(w, in.aux2 ? "wmma.mma" : "mma");
  const MmaDesc s = std::bit_cast<MmaDesc>(in.aux);
  const std::vector<uint32_t>& t = operand_table(in, w);
  const uint32_t* d_regs = t.data();
  const uint32_t* a_regs = d_regs + s.regs_d;
  const uint32_t* b_regs = a_regs + s.regs_a;
  const uint32_t* c_regs = b_regs + s.regs_b;
  const uint32_t* map_a = c_regs + s.regs_c;
  const uint32_t per_a = s.regs_a * per_reg(A);
  const uint32_t per_b = s.regs_b * per_reg(B);
  const uint32_t per_c = s.regs_c * per_reg(C);
  const uint32_t* map_b = map_a + 32 * per_a;
  const uint32_t* map_c = map_b + 32 * per_b;
  Matrix a{}, b{}, c{}, d{};
  gather<A>(w, a_regs, map_a, per_a, a);
  gather<B>(w, b_regs, map_b, per_b, b);
  gather<C>(w, c_regs, map_c, per_c, c);
  multiply<A, B, C, D>(a, b, c, d, s);
  scatter<D>(w, d_regs, s.regs_d, map_c, d);
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
  std::vector<uint32_t> table;
  for (const auto* part : {&d, &a, &b, &c, &map_a, &map_b, &map_c})
    table.insert(table.end(), part->begin(), part->end());
  e.table = ctx.table(std::move(table));
  e.aux = std::bit_cast<uint64_t>(desc);
  e.aux2 = is_wmma ? 1 : 0;
  return e;
}

}  // namespace lockstep::func::tensor
