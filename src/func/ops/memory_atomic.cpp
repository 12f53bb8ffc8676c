// atom / red on global, shared and generic addresses.
//
// Determinism: the engine runs one warp at a time, and within a warp the lanes of an atomic
// apply their operations one after another in lane order (lowest lane first), so every run
// gives the same old values and the same final memory. Ordering (.relaxed/.acquire/.release/
// .acq_rel) and scope (.cta/.cluster/.gpu/.sys) qualifiers are accepted and change nothing in
// this sequentially consistent engine.
#include <cstring>
#include <optional>
#include <string_view>

#include "func/bind.h"
#include "func/lanes.h"
#include "func/ops/memory_atomic_ops.h"
#include "func/ops/memory_operands.h"
#include "func/ops/memory_ops.h"
#include "func/ops/memory_space.h"
#include "func/warp.h"

namespace lockstep::func::memory {
namespace {

// s[0] base, s[1] b, s[2] c (cas; b again otherwise), d[0] old value (atom only), offset.
template <Space S, class Op, bool Returns>
void atom_h(const ExecInst& in, Warp& w) {
  using T = typename Op::Type;
  Access<S> access(w);
  const uint64_t bias = frame_bias(in, w);
  const uint64_t* base = w.r(in.s[0]);
  const uint64_t* b = w.r(in.s[1]);
  const uint64_t* c = w.r(in.s[2]);
  uint64_t* d = Returns ? w.r(in.d[0]) : nullptr;
  for_each_lane(w.exec, [&](uint32_t lane) {
    uint8_t* p = writable<S>(access, base[lane] + bias, sizeof(T), sizeof(T), lane);
    T old;
    std::memcpy(&old, p, sizeof(T));
    const T now = Op::apply(old, get<T>(b[lane]), get<T>(c[lane]));
    std::memcpy(p, &now, sizeof(T));
    if constexpr (Returns) d[lane] = put<T>(old);
  });
}

// Vector f32 add (sm_90 atom/red .v2/.v4.f32): s[0] base, s[1..N] values, d[0..N-1] old
// values; the elements are added one by one, as scalar atom.add.f32 would.
template <uint32_t N, bool Returns>
void atom_add_f32_vector_h(const ExecInst& in, Warp& w) {
  Access<Space::Global> access(w);
  const uint64_t bias = frame_bias(in, w);
  const uint64_t* base = w.r(in.s[0]);
  const uint64_t* b[N];
  uint64_t* d[N];
  for (uint32_t i = 0; i < N; ++i) {
    b[i] = w.r(in.s[1 + i]);
    d[i] = Returns ? w.r(in.d[i]) : nullptr;
  }
  for_each_lane(w.exec, [&](uint32_t lane) {
    uint8_t* p = access.at(base[lane] + bias, 4 * N, 4 * N, lane);
    float old[N];
    float values[N];
    std::memcpy(old, p, sizeof(old));
    for (uint32_t i = 0; i < N; ++i) values[i] = get<float>(b[i][lane]);
    for (uint32_t i = 0; i < N; ++i) {
      const float now = OpAddF32::apply(old[i], values[i], 0.0f);
      std::memcpy(p + 4 * i, &now, 4);
    }
    if constexpr (Returns) {
      for (uint32_t i = 0; i < N; ++i) d[i][lane] = put<float>(old[i]);
    }
  });
}

// ---- handler selection --------------------------------------------------------------------

enum class AtomOp : uint8_t { Add, Exch, Cas, Inc, Dec, Min, Max, And, Or, Xor };

std::optional<AtomOp> parse_op(std::string_view m) {
  if (m == "add") return AtomOp::Add;
  if (m == "exch") return AtomOp::Exch;
  if (m == "cas") return AtomOp::Cas;
  if (m == "inc") return AtomOp::Inc;
  if (m == "dec") return AtomOp::Dec;
  if (m == "min") return AtomOp::Min;
  if (m == "max") return AtomOp::Max;
  if (m == "and") return AtomOp::And;
  if (m == "or") return AtomOp::Or;
  if (m == "xor") return AtomOp::Xor;
  return std::nullopt;
}

template <class Op>
Handler pick(Space space, bool returns) {
  switch (space) {
    case Space::Global:
      return returns ? &atom_h<Space::Global, Op, true> : &atom_h<Space::Global, Op, false>;
    case Space::Shared:
      return returns ? &atom_h<Space::Shared, Op, true> : &atom_h<Space::Shared, Op, false>;
    case Space::Generic:
      return returns ? &atom_h<Space::Generic, Op, true> : &atom_h<Space::Generic, Op, false>;
    default:
      return nullptr;
  }
}

// Bit-pattern ops (exch, cas, and, or, xor) on 16/32/64-bit memory.
template <template <class> class Op>
Handler pick_bits(uint32_t bytes, Space space, bool returns, bool allow16) {
  switch (bytes) {
    case 2:
      return allow16 ? pick<Op<uint16_t>>(space, returns) : nullptr;
    case 4:
      return pick<Op<uint32_t>>(space, returns);
    case 8:
      return pick<Op<uint64_t>>(space, returns);
    default:
      return nullptr;
  }
}

template <template <class> class Op>
Handler pick_ordered(ptx::Type type, Space space, bool returns) {
  using ptx::Type;
  switch (type) {
    case Type::U32:
      return pick<Op<uint32_t>>(space, returns);
    case Type::S32:
      return pick<Op<int32_t>>(space, returns);
    case Type::U64:
      return pick<Op<uint64_t>>(space, returns);
    case Type::S64:
      return pick<Op<int64_t>>(space, returns);
    default:
      return nullptr;
  }
}

bool is_integer(ptx::Type t) {
  using ptx::Type;
  return t == Type::B16 || t == Type::B32 || t == Type::B64 || t == Type::U16 || t == Type::U32 ||
         t == Type::U64 || t == Type::S16 || t == Type::S32 || t == Type::S64;
}

bool is_half(ptx::Type t) {
  using ptx::Type;
  return t == Type::F16 || t == Type::F16x2 || t == Type::BF16 || t == Type::BF16x2;
}

Handler add_handler(ptx::Type type, Space space, bool returns) {
  using ptx::Type;
  switch (type) {
    case Type::U32:
    case Type::S32:
      return pick<OpAdd<uint32_t>>(space, returns);
    case Type::U64:
    case Type::S64:
      return pick<OpAdd<uint64_t>>(space, returns);
    case Type::F32:
      return pick<OpAddF32>(space, returns);
    case Type::F64:
      return pick<OpAddF64>(space, returns);
    case Type::F16:
      return pick<OpAddF16>(space, returns);
    case Type::BF16:
      return pick<OpAddBF16>(space, returns);
    case Type::F16x2:
      return pick<OpAddPair<OpAddF16>>(space, returns);
    case Type::BF16x2:
      return pick<OpAddPair<OpAddBF16>>(space, returns);
    default:
      return nullptr;
  }
}

Handler atomic_handler(AtomOp op, ptx::Type type, Space space, bool returns) {
  const uint32_t bytes = type_bytes(type);
  const bool integer = is_integer(type);
  switch (op) {
    case AtomOp::Add:
      return add_handler(type, space, returns);
    case AtomOp::Exch:
      return integer ? pick_bits<OpExch>(bytes, space, returns, false) : nullptr;
    case AtomOp::Cas:
      return integer ? pick_bits<OpCas>(bytes, space, returns, true) : nullptr;
    case AtomOp::Inc:
      return type == ptx::Type::U32 ? pick<OpInc>(space, returns) : nullptr;
    case AtomOp::Dec:
      return type == ptx::Type::U32 ? pick<OpDec>(space, returns) : nullptr;
    case AtomOp::Min:
      return pick_ordered<OpMin>(type, space, returns);
    case AtomOp::Max:
      return pick_ordered<OpMax>(type, space, returns);
    case AtomOp::And:
      return integer ? pick_bits<OpAnd>(bytes, space, returns, false) : nullptr;
    case AtomOp::Or:
      return integer ? pick_bits<OpOr>(bytes, space, returns, false) : nullptr;
    case AtomOp::Xor:
      return integer ? pick_bits<OpXor>(bytes, space, returns, false) : nullptr;
  }
  return nullptr;
}

Handler vector_handler(uint32_t n, bool returns) {
  if (n == 2) return returns ? &atom_add_f32_vector_h<2, true> : &atom_add_f32_vector_h<2, false>;
  if (n == 4) return returns ? &atom_add_f32_vector_h<4, true> : &atom_add_f32_vector_h<4, false>;
  return nullptr;
}

// atom d, [a], b{, c}{, cache-policy}   /   red [a], b{, cache-policy}
std::optional<ExecInst> bind_atomic(const ir::Instruction& inst, BindContext& ctx, bool returns) {
  const MemoryForm form = classify(inst, ctx);
  std::optional<AtomOp> op;
  bool noftz = false;
  for (std::string_view m : form.rest) {
    if (auto parsed = parse_op(m); parsed && !op) {
      op = parsed;
    } else if (m == "noftz" && !noftz) {
      noftz = true;
    } else if (!(is_scope(m) || m == "relaxed" || m == "acquire" || m == "release" ||
                 m == "acq_rel")) {
      ctx.unsupported(inst);
    }
  }
  const bool space_ok = form.space == NamedSpace::Generic || form.space == NamedSpace::Global ||
                        form.space == NamedSpace::Shared || form.space == NamedSpace::SharedCluster;
  if (!op || !space_ok || (noftz && !is_half(form.type))) ctx.unsupported(inst);
  if (!returns && (*op == AtomOp::Cas || *op == AtomOp::Exch)) ctx.unsupported(inst);

  const bool vector = form.vector > 1;
  if (vector && (*op != AtomOp::Add || form.type != ptx::Type::F32 ||
                 form.space == NamedSpace::Shared || form.space == NamedSpace::SharedCluster)) {
    ctx.unsupported(inst);  // 16-bit vector atomics (.v2/.v4/.v8 .f16/.bf16) are not modelled
  }
  const size_t value_count = (*op == AtomOp::Cas) ? 2 : 1;
  const size_t first_value = returns ? 2 : 1;
  ctx.expect_operands(inst, first_value + value_count + (form.cache_hint ? 1 : 0));

  const size_t address_index = returns ? 1 : 0;
  const AddressPlan plan = resolve_address(inst, address_index, form.space, true, ctx);
  const Handler fn = vector ? (plan.space == Space::Global || plan.space == Space::Generic
                                   ? vector_handler(form.vector, returns)
                                   : nullptr)
                            : atomic_handler(*op, form.type, plan.space, returns);
  if (fn == nullptr) ctx.unsupported(inst);
  ExecInst e = make_exec(inst, fn);
  store_plan(plan, 0, e);
  if (vector) {
    // A generic address of a global vector atomic is its global address (no windows apply).
    const auto values = value_operands(inst, first_value, form.vector, true, false, ctx);
    for (uint32_t i = 0; i < form.vector; ++i) e.s[1 + i] = ctx.slot(*values[i]);
    if (returns) {
      const auto dsts = value_operands(inst, 0, form.vector, false, true, ctx);
      for (uint32_t i = 0; i < form.vector; ++i) e.d[i] = ctx.slot(*dsts[i]);
    }
    e.ns = static_cast<uint8_t>(1 + form.vector);
    e.nd = returns ? static_cast<uint8_t>(form.vector) : 0;
    e.width = static_cast<uint8_t>(form.vector);
    return e;
  }
  const auto b = value_operands(inst, first_value, 1, true, false, ctx);
  e.s[1] = ctx.slot(*b[0]);
  e.s[2] = e.s[1];
  if (value_count == 2) {
    const auto c = value_operands(inst, first_value + 1, 1, true, false, ctx);
    e.s[2] = ctx.slot(*c[0]);
  }
  e.ns = 3;
  if (returns) {
    const auto d = value_operands(inst, 0, 1, false, true, ctx);
    e.d[0] = ctx.slot(*d[0]);
    e.nd = 1;
  }
  return e;
}

std::optional<ExecInst> bind_atom(const ir::Instruction& inst, BindContext& ctx) {
  return bind_atomic(inst, ctx, true);
}

std::optional<ExecInst> bind_red(const ir::Instruction& inst, BindContext& ctx) {
  return bind_atomic(inst, ctx, false);
}

}  // namespace

void register_atomic_ops(OpTable& table) {
  table.add("atom", bind_atom);
  table.add("red", bind_red);
}

}  // namespace lockstep::func::memory
