// Integer and bit-type comparisons: setp (with the optional .and/.or/.xor combine and the p|q
// pair destination, q receiving the complement) and set (.u32/.s32 destination: all ones when
// true; .f32 destination: 1.0f).
//
// Compare operators: eq ne lt le gt ge compare in the type's signedness (bN as unsigned);
// lo ls hi hs are the unsigned lt le gt ge. The float-only operators (equ, num, ...) on an
// integer type are unsupported.
#include "func/ops/integer_common.h"
#include "func/ops/integer_ops.h"

namespace lockstep::func::integer {
namespace {

enum class Cmp : uint8_t { Eq, Ne, Lt, Le, Gt, Ge };

template <class T, Cmp C>
bool compare(T a, T b) {
  if constexpr (C == Cmp::Eq)
    return a == b;
  else if constexpr (C == Cmp::Ne)
    return a != b;
  else if constexpr (C == Cmp::Lt)
    return a < b;
  else if constexpr (C == Cmp::Le)
    return a <= b;
  else if constexpr (C == Cmp::Gt)
    return a > b;
  else
    return a >= b;
}

// Bit per executing lane: a CmpOp b.
template <class T, Cmp C>
LaneMask compare_lanes(const ExecInst& in, Warp& w) {
  const uint64_t* a = w.r(in.s[0]);
  const uint64_t* b = w.r(in.s[1]);
  LaneMask t = 0;
  each_lane(w, [&](uint32_t l) { t |= LaneMask{compare<T, C>(get<T>(a[l]), get<T>(b[l]))} << l; });
  return t;
}

// aux bits 0-1: combine (0 none, 1 and, 2 or, 3 xor) with predicate s[2]; bit 2: c negated.
inline LaneMask combine(const ExecInst& in, Warp& w, LaneMask t) {
  const uint64_t op = in.aux & 3;
  if (op == 0) return t;
  const LaneMask c = (in.aux & 4) ? ~w.p(in.s[2]) : w.p(in.s[2]);
  if (op == 1) return t & c;
  if (op == 2) return t | c;
  return t ^ c;
}

template <class T, Cmp C>
void setp_h(const ExecInst& in, Warp& w) {
  const LaneMask t = compare_lanes<T, C>(in, w);
  const LaneMask p = combine(in, w, t);
  const LaneMask q = in.nd == 2 ? combine(in, w, ~t) : 0;
  write_pred(w.p(in.d[0]), p, w.exec);
  if (in.nd == 2) write_pred(w.p(in.d[1]), q, w.exec);
}

// aux2: the value written when true (0xffffffff or the bits of 1.0f).
template <class T, Cmp C>
void set_h(const ExecInst& in, Warp& w) {
  const LaneMask r = combine(in, w, compare_lanes<T, C>(in, w));
  uint64_t* d = w.r(in.d[0]);
  const uint64_t yes = in.aux2;
  each_lane(w, [&](uint32_t l) { d[l] = ((r >> l) & 1) ? yes : 0; });
}

struct CmpInfo {
  Cmp cmp;
  bool force_unsigned;
};
std::optional<CmpInfo> cmp_of(std::string_view f) {
  if (f == "eq") return CmpInfo{Cmp::Eq, false};
  if (f == "ne") return CmpInfo{Cmp::Ne, false};
  if (f == "lt") return CmpInfo{Cmp::Lt, false};
  if (f == "le") return CmpInfo{Cmp::Le, false};
  if (f == "gt") return CmpInfo{Cmp::Gt, false};
  if (f == "ge") return CmpInfo{Cmp::Ge, false};
  if (f == "lo") return CmpInfo{Cmp::Lt, true};
  if (f == "ls") return CmpInfo{Cmp::Le, true};
  if (f == "hi") return CmpInfo{Cmp::Gt, true};
  if (f == "hs") return CmpInfo{Cmp::Ge, true};
  return std::nullopt;
}

template <template <class, Cmp> class H>
struct Pick {
  template <Cmp C>
  static Handler by_type(IntType t) {
    return dispatch_int(t, []<class T>(std::type_identity<T>) { return &H<T, C>::run; });
  }
  static Handler get(IntType t, const CmpInfo& c) {
    if (c.force_unsigned || t.kind == IntType::Kind::Bits) t.kind = IntType::Kind::Unsigned;
    switch (c.cmp) {
      case Cmp::Eq:
        return by_type<Cmp::Eq>(t);
      case Cmp::Ne:
        return by_type<Cmp::Ne>(t);
      case Cmp::Lt:
        return by_type<Cmp::Lt>(t);
      case Cmp::Le:
        return by_type<Cmp::Le>(t);
      case Cmp::Gt:
        return by_type<Cmp::Gt>(t);
      default:
        return by_type<Cmp::Ge>(t);
    }
  }
};
template <class T, Cmp C>
struct SetpH {
  static void run(const ExecInst& in, Warp& w) { setp_h<T, C>(in, w); }
};
template <class T, Cmp C>
struct SetH {
  static void run(const ExecInst& in, Warp& w) { set_h<T, C>(in, w); }
};

// The compare operator and combine of a setp/set form; nullopt when a flag is unknown.
struct Parsed {
  CmpInfo cmp;
  uint64_t combine = 0;
};
std::optional<Parsed> parse_compare(const Form& f) {
  std::optional<CmpInfo> cmp;
  uint64_t comb = 0;
  for (const auto& flag : f.flags) {
    if (auto c = cmp_of(flag); c && !cmp)
      cmp = c;
    else if (flag == "and" && !comb)
      comb = 1;
    else if (flag == "or" && !comb)
      comb = 2;
    else if (flag == "xor" && !comb)
      comb = 3;
    else
      return std::nullopt;
  }
  if (!cmp) return std::nullopt;
  return Parsed{*cmp, comb};
}

// Fills the combine predicate operand (index `at`) when the form has a BoolOp.
void bind_combine(const ir::Instruction& inst, BindContext& ctx, ExecInst& e, uint64_t comb,
                  size_t at) {
  e.aux = comb;
  if (comb == 0) return;
  e.s[2] = pred_index(inst, ctx, at);
  if (inst.operands[at].negated) e.aux |= 4;
}

}  // namespace

BindResult bind_setp(const ir::Instruction& inst, BindContext& ctx) {
  const Form f = parse_form(inst);
  if (f.has_float()) return std::nullopt;
  const auto t = f.types.size() == 1 ? int_type(f.types[0]) : std::nullopt;
  if (!t) return std::nullopt;
  const auto parsed = parse_compare(f);
  Handler h = parsed && t->bits >= 16 ? Pick<SetpH>::get(*t, parsed->cmp) : nullptr;
  if (!h) ctx.unsupported(inst);
  ctx.expect_operands(inst, parsed->combine ? 4 : 3);
  ExecInst e = make_exec(inst, h);
  const ir::Operand& dst = inst.operands[0];
  if (dst.kind == ir::Operand::Kind::Vector && dst.is_pair && dst.elements.size() == 2) {
    e.d[0] = ctx.pred(dst.elements[0]);
    e.d[1] = ctx.pred(dst.elements[1]);
    e.nd = 2;
  } else {
    e.d[0] = pred_index(inst, ctx, 0);
    e.nd = 1;
  }
  e.s[0] = source_slot(inst, ctx, 1);
  e.s[1] = source_slot(inst, ctx, 2);
  e.ns = 2;
  bind_combine(inst, ctx, e, parsed->combine, 3);
  return e;
}

// set.CmpOp{.BoolOp}.dtype.stype d, a, b{, {!}c}: stype integer (a float stype is the float
// family's); dtype .u32/.s32 (all ones) or .f32 (1.0f).
BindResult bind_set(const ir::Instruction& inst, BindContext& ctx) {
  const Form f = parse_form(inst);
  if (f.types.size() != 2 || is_float_type(f.types[1])) return std::nullopt;
  const std::string& dtype = f.types[0];
  if (dtype != "u32" && dtype != "s32" && dtype != "f32") {
    if (is_float_type(dtype)) return std::nullopt;
    ctx.unsupported(inst);
  }
  const auto t = int_type(f.types[1]);
  const auto parsed = parse_compare(f);
  Handler h = t && parsed && t->bits >= 16 ? Pick<SetH>::get(*t, parsed->cmp) : nullptr;
  if (!h) ctx.unsupported(inst);
  ctx.expect_operands(inst, parsed->combine ? 4 : 3);
  ExecInst e = make_exec(inst, h);
  e.d[0] = dest_slot(inst, ctx, 0);
  e.nd = 1;
  e.s[0] = source_slot(inst, ctx, 1);
  e.s[1] = source_slot(inst, ctx, 2);
  e.ns = 2;
  bind_combine(inst, ctx, e, parsed->combine, 3);
  e.aux2 = dtype == "f32" ? 0x3f800000u : 0xffffffffu;
  return e;
}

}  // namespace lockstep::func::integer
