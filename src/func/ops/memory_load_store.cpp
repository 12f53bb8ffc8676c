// ld / ldu / st: every state space, scalar and .v2/.v4 vectors of 8- to 64-bit elements.
//
// A handler is instantiated per (space, element size, vector width, sign extension), so the
// per-lane loop only computes an address, asks the space's Access for a host pointer (inline
// for global and shared memory) and copies bytes. Cache and ordering qualifiers change nothing
// in a functional engine; they are checked against the ISA's lists and otherwise ignored.
#include <cstring>
#include <optional>
#include <type_traits>

#include "func/bind.h"
#include "func/lanes.h"
#include "func/ops/memory_operands.h"
#include "func/ops/memory_ops.h"
#include "func/ops/memory_space.h"
#include "func/ops/store_footprint.h"
#include "func/warp.h"

namespace lockstep::func::memory {
namespace {

template <uint32_t B>
using Bits = std::conditional_t<
    B == 1, uint8_t,
    std::conditional_t<B == 2, uint16_t, std::conditional_t<B == 4, uint32_t, uint64_t>>>;

template <uint32_t B, bool Signed>
inline uint64_t load_element(const uint8_t* p) {
  Bits<B> raw;
  std::memcpy(&raw, p, B);
  if constexpr (Signed) {
    using S = std::make_signed_t<Bits<B>>;
    return static_cast<uint64_t>(static_cast<int64_t>(static_cast<S>(raw)));
  } else {
    return raw;
  }
}

template <uint32_t B>
inline void store_element(uint8_t* p, uint64_t value) {
  const Bits<B> raw = static_cast<Bits<B>>(value);
  std::memcpy(p, &raw, B);
}

// ld: d[0..N-1] destinations, s[0] base, offset, aux = destination register mask (a value
// sign-extended to 64 bits is cut back to the register's width), aux2 bit 0 = frame relative.
template <Space S, uint32_t B, uint32_t N, bool Signed>
void ld_h(const ExecInst& in, Warp& w) {
  Access<S> access(w);
  const uint64_t bias = frame_bias(in, w);
  const uint64_t* base = w.r(in.s[0]);
  uint64_t* dst[N];
  for (uint32_t i = 0; i < N; ++i) dst[i] = w.r(in.d[i]);
  const uint64_t mask = in.aux;
  for_each_lane(w.exec, [&](uint32_t lane) {
    const uint8_t* p = access.at(base[lane] + bias, B * N, B * N, lane);
    for (uint32_t i = 0; i < N; ++i) dst[i][lane] = load_element<B, Signed>(p + i * B) & mask;
  });
}

// st: s[0] base, s[1..N] values, offset, aux2 bit 0 = frame relative.
template <Space S, uint32_t B, uint32_t N>
void st_h(const ExecInst& in, Warp& w) {
  Access<S> access(w);
  const uint64_t bias = frame_bias(in, w);
  const uint64_t* base = w.r(in.s[0]);
  const uint64_t* src[N];
  for (uint32_t i = 0; i < N; ++i) src[i] = w.r(in.s[1 + i]);
  for_each_lane(w.exec, [&](uint32_t lane) {
    uint8_t* p = writable<S>(access, base[lane] + bias, B * N, B * N, lane);
    for (uint32_t i = 0; i < N; ++i) store_element<B>(p + i * B, src[i][lane]);
  });
}

// ---- handler selection --------------------------------------------------------------------

template <Space S, uint32_t B, uint32_t N>
Handler load_handler(bool sign) {
  if constexpr (B < 8) {
    if (sign) return &ld_h<S, B, N, true>;
  }
  return &ld_h<S, B, N, false>;
}

template <Space S, uint32_t B>
Handler load_handler(uint32_t n, bool sign) {
  switch (n) {
    case 1:
      return load_handler<S, B, 1>(sign);
    case 2:
      return load_handler<S, B, 2>(sign);
    case 4:
      return load_handler<S, B, 4>(sign);
    default:
      return nullptr;
  }
}

template <Space S>
Handler load_handler(uint32_t bytes, uint32_t n, bool sign) {
  switch (bytes) {
    case 1:
      return load_handler<S, 1>(n, sign);
    case 2:
      return load_handler<S, 2>(n, sign);
    case 4:
      return load_handler<S, 4>(n, sign);
    case 8:
      return load_handler<S, 8>(n, sign);
    default:
      return nullptr;
  }
}

Handler load_handler(Space space, uint32_t bytes, uint32_t n, bool sign) {
  switch (space) {
    case Space::Global:
      return load_handler<Space::Global>(bytes, n, sign);
    case Space::Shared:
      return load_handler<Space::Shared>(bytes, n, sign);
    case Space::Local:
      return load_handler<Space::Local>(bytes, n, sign);
    case Space::Generic:
      return load_handler<Space::Generic>(bytes, n, sign);
    case Space::Param:
      return load_handler<Space::Param>(bytes, n, sign);
  }
  return nullptr;
}

template <Space S, uint32_t B>
Handler store_handler(uint32_t n) {
  switch (n) {
    case 1:
      return &st_h<S, B, 1>;
    case 2:
      return &st_h<S, B, 2>;
    case 4:
      return &st_h<S, B, 4>;
    default:
      return nullptr;
  }
}

template <Space S>
Handler store_handler(uint32_t bytes, uint32_t n) {
  switch (bytes) {
    case 1:
      return store_handler<S, 1>(n);
    case 2:
      return store_handler<S, 2>(n);
    case 4:
      return store_handler<S, 4>(n);
    case 8:
      return store_handler<S, 8>(n);
    default:
      return nullptr;
  }
}

Handler store_handler(Space space, uint32_t bytes, uint32_t n) {
  switch (space) {
    case Space::Global:
      return store_handler<Space::Global>(bytes, n);
    case Space::Shared:
      return store_handler<Space::Shared>(bytes, n);
    case Space::Local:
      return store_handler<Space::Local>(bytes, n);
    case Space::Generic:
      return store_handler<Space::Generic>(bytes, n);
    case Space::Param:
      return nullptr;  // kernel parameters are read only
  }
  return nullptr;
}

// ---- qualifiers ---------------------------------------------------------------------------

bool load_qualifier(std::string_view m) {
  return m == "ca" || m == "cg" || m == "cs" || m == "lu" || m == "cv" || m == "nc" ||
         (is_ordering(m) && m != "release" && m != "acq_rel" && m != "sc") || is_scope(m) ||
         is_cache_hint(m);
}

bool store_qualifier(std::string_view m) {
  return m == "wb" || m == "cg" || m == "cs" || m == "wt" ||
         (is_ordering(m) && m != "acquire" && m != "acq_rel" && m != "sc") || is_scope(m) ||
         is_cache_hint(m);
}

template <class Pred>
bool all_of_rest(const MemoryForm& form, Pred pred) {
  for (std::string_view m : form.rest) {
    if (!pred(m)) return false;
  }
  return true;
}

// Element size and vector width of a form this file can run (no .b128, no .v8).
uint32_t checked_bytes(const ir::Instruction& inst, const MemoryForm& form,
                       const BindContext& ctx) {
  const uint32_t bytes = type_bytes(form.type);
  if (bytes == 0 || bytes > 8 || form.vector > 4) ctx.unsupported(inst);
  return bytes;
}

std::optional<ExecInst> bind_load(const ir::Instruction& inst, BindContext& ctx, bool ldu) {
  const MemoryForm form = classify(inst, ctx);
  if (ldu) {
    if (!form.rest.empty() || form.cache_hint ||
        (form.space != NamedSpace::Global && form.space != NamedSpace::Generic)) {
      ctx.unsupported(inst);
    }
  } else if (!all_of_rest(form, load_qualifier)) {
    ctx.unsupported(inst);
  }
  const uint32_t bytes = checked_bytes(inst, form, ctx);
  ctx.expect_operands(inst, form.cache_hint ? 3 : 2);
  const auto dsts = value_operands(inst, 0, form.vector, false, true, ctx);
  const AddressPlan plan = resolve_address(inst, 1, form.space, false, ctx);
  const Handler fn = load_handler(plan.space, bytes, form.vector, is_signed_int(form.type));
  if (fn == nullptr) ctx.unsupported(inst);
  ExecInst e = make_exec(inst, fn);
  for (uint32_t i = 0; i < form.vector; ++i) e.d[i] = ctx.slot(*dsts[i]);
  e.nd = static_cast<uint8_t>(form.vector);
  store_plan(plan, 0, e);
  e.ns = 1;
  e.aux = ~uint64_t{0};
  for (const ir::Operand* d : dsts) {
    if (d->kind == ir::Operand::Kind::Reg) {
      e.aux = register_mask(*d);
      break;
    }
  }
  e.width = static_cast<uint8_t>(form.vector);
  return e;
}

std::optional<ExecInst> bind_ld(const ir::Instruction& inst, BindContext& ctx) {
  return bind_load(inst, ctx, false);
}

std::optional<ExecInst> bind_ldu(const ir::Instruction& inst, BindContext& ctx) {
  return bind_load(inst, ctx, true);
}

std::optional<ExecInst> bind_st(const ir::Instruction& inst, BindContext& ctx) {
  const MemoryForm form = classify(inst, ctx);
  if (!all_of_rest(form, store_qualifier) || form.space == NamedSpace::Const) {
    ctx.unsupported(inst);
  }
  const uint32_t bytes = checked_bytes(inst, form, ctx);
  ctx.expect_operands(inst, form.cache_hint ? 3 : 2);
  const AddressPlan plan = resolve_address(inst, 0, form.space, true, ctx);
  const auto srcs = value_operands(inst, 1, form.vector, true, false, ctx);
  const Handler fn = store_handler(plan.space, bytes, form.vector);
  if (fn == nullptr) ctx.unsupported(inst);
  ExecInst e = make_exec(inst, fn);
  store_plan(plan, 0, e);
  for (uint32_t i = 0; i < form.vector; ++i) e.s[1 + i] = ctx.slot(*srcs[i]);
  e.ns = static_cast<uint8_t>(1 + form.vector);
  e.width = static_cast<uint8_t>(form.vector);
  return e;
}

}  // namespace

uint32_t plain_store_bytes(Handler fn) {
  if (fn == nullptr) return 0;
  for (const uint32_t bytes : {1u, 2u, 4u, 8u}) {
    for (const uint32_t n : {1u, 2u, 4u}) {
      if (fn == store_handler(Space::Global, bytes, n) || fn == store_handler(Space::Generic, bytes, n))
        return bytes * n;
    }
  }
  return 0;
}

void register_load_store_ops(OpTable& table) {
  table.add("ld", bind_ld);
  table.add("ldu", bind_ldu);
  table.add("st", bind_st);
}

}  // namespace lockstep::func::memory
