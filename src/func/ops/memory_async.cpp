// cp.async (sm_80 asynchronous global -> shared copies) and its group operations.
//
// Functionally the copy happens at issue: the bytes are in shared memory as soon as the
// cp.async instruction runs, so cp.async.commit_group / wait_group / wait_all have nothing
// left to wait for and are no-ops here. The asynchrony (and the wait stalls) belong to the
// timing model, which adds them on top of this result. The bulk and tensor (TMA) forms and
// cp.async.mbarrier.arrive are not supported yet and are rejected at load time.
#include <algorithm>
#include <cstring>
#include <optional>
#include <string>

#include "func/bind.h"
#include "func/lanes.h"
#include "func/ops/memory_operands.h"
#include "func/ops/memory_ops.h"
#include "func/ops/memory_space.h"
#include "func/warp.h"

namespace lockstep::func::memory {
namespace {

// How many source bytes a lane reads: all cp-size bytes, the src-size operand, or none when
// the ignore-src predicate is true.
enum class SourceBytes : uint8_t { All, Operand, IgnorePredicate };

// s[0] shared base + offset, s[1] global base + aux (offset), s[2] src-size slot, d[0] the
// ignore-src predicate index (aux2 = 1 when written !p).
template <uint32_t Cp, SourceBytes Mode>
void cp_async_h(const ExecInst& in, Warp& w) {
  Access<Space::Shared> shared(w);
  Access<Space::Global> global(w);
  const uint64_t* dst = w.r(in.s[0]);
  const uint64_t* src = w.r(in.s[1]);
  const uint64_t* src_size = w.r(in.s[2]);
  LaneMask ignore = 0;
  if constexpr (Mode == SourceBytes::IgnorePredicate) {
    ignore = in.aux2 ? ~w.p(in.d[0]) : w.p(in.d[0]);
  }
  const uint64_t dst_offset = static_cast<uint64_t>(in.offset);
  for_each_lane(w.exec, [&](uint32_t lane) {
    uint8_t* to = shared.at(dst[lane] + dst_offset, Cp, Cp, lane);
    uint32_t n = Cp;
    if constexpr (Mode == SourceBytes::Operand) {
      n = static_cast<uint32_t>(std::min<uint64_t>(get<uint32_t>(src_size[lane]), Cp));
    } else if constexpr (Mode == SourceBytes::IgnorePredicate) {
      if (ignore >> lane & 1) n = 0;
    }
    if (n > 0) {
      const uint8_t* from = global.at(src[lane] + in.aux, n, Cp, lane);
      std::memmove(to, from, n);
    }
    std::memset(to + n, 0, Cp - n);  // the rest of the cp-size bytes are zero-filled
  });
}

template <uint32_t Cp>
Handler cp_async_handler(SourceBytes mode) {
  switch (mode) {
    case SourceBytes::All:
      return &cp_async_h<Cp, SourceBytes::All>;
    case SourceBytes::Operand:
      return &cp_async_h<Cp, SourceBytes::Operand>;
    case SourceBytes::IgnorePredicate:
      return &cp_async_h<Cp, SourceBytes::IgnorePredicate>;
  }
  return nullptr;
}

void nothing_h(const ExecInst&, Warp&) {}

// cp.async.ca|cg.shared{::cta}.global{.L2::cache_hint}{.L2::64B|128B|256B}
//   [dst], [src], cp-size{, src-size | ignore-src}{, cache-policy}
std::optional<ExecInst> bind_copy(const ir::Instruction& inst, BindContext& ctx) {
  const auto& m = inst.modifiers;
  bool cache_hint = false, level = false;
  if (m.size() < 4 || (m[1] != "ca" && m[1] != "cg") ||
      (m[2] != "shared" && m[2] != "shared::cta") || m[3] != "global") {
    ctx.unsupported(inst);
  }
  for (size_t i = 4; i < m.size(); ++i) {
    if (m[i] == "L2::cache_hint" && !cache_hint) {
      cache_hint = true;
    } else if ((m[i] == "L2::64B" || m[i] == "L2::128B" || m[i] == "L2::256B") && !level) {
      level = true;
    } else {
      ctx.unsupported(inst);
    }
  }
  const size_t n = inst.operands.size() - (cache_hint ? 1 : 0);
  if (n != 3 && n != 4) ctx.expect_operands(inst, cache_hint ? 4 : 3);
  const ir::Operand& size_op = inst.operands[2];
  if (size_op.kind != ir::Operand::Kind::Imm) {
    ctx.error(size_op, "operand 2 of '" + inst.form() + "' must be an immediate");
  }
  const uint64_t cp = size_op.imm;
  if (!(cp == 4 || cp == 8 || cp == 16) || (m[1] == "cg" && cp != 16)) {
    ctx.error(size_op,
              "cp-size of '" + inst.form() + "' must be " + (m[1] == "cg" ? "16" : "4, 8 or 16"));
  }
  const AddressPlan to = resolve_address(inst, 0, NamedSpace::Shared, true, ctx);
  const AddressPlan from = resolve_address(inst, 1, NamedSpace::Global, false, ctx);

  SourceBytes mode = SourceBytes::All;
  if (n == 4) {
    mode = inst.operands[3].kind == ir::Operand::Kind::Pred ? SourceBytes::IgnorePredicate
                                                            : SourceBytes::Operand;
  }
  const Handler fn = cp == 4   ? cp_async_handler<4>(mode)
                     : cp == 8 ? cp_async_handler<8>(mode)
                               : cp_async_handler<16>(mode);
  ExecInst e = make_exec(inst, fn);
  e.s[0] = to.base_slot;
  e.offset = to.offset;
  e.s[1] = from.base_slot;
  e.aux = static_cast<uint64_t>(from.offset);
  e.s[2] = e.s[1];
  if (mode == SourceBytes::Operand) {
    const auto size = value_operands(inst, 3, 1, true, false, ctx);
    e.s[2] = ctx.slot(*size[0]);
  } else if (mode == SourceBytes::IgnorePredicate) {
    e.d[0] = ctx.pred(inst.operands[3]);
    e.aux2 = inst.operands[3].negated ? 1 : 0;
  }
  e.ns = 3;
  e.width = static_cast<uint8_t>(cp);
  return e;
}

std::optional<ExecInst> bind_cp(const ir::Instruction& inst, BindContext& ctx) {
  const auto& m = inst.modifiers;
  if (m.empty() || m[0] != "async") ctx.unsupported(inst);  // cp.reduce.async.bulk, ...
  if (m.size() == 2 && m[1] == "commit_group") {
    ctx.expect_operands(inst, 0);
    return make_exec(inst, &nothing_h);
  }
  if (m.size() == 2 && m[1] == "wait_all") {
    ctx.expect_operands(inst, 0);
    return make_exec(inst, &nothing_h);
  }
  if (m.size() == 2 && m[1] == "wait_group") {
    ctx.expect_operands(inst, 1);
    if (inst.operands[0].kind != ir::Operand::Kind::Imm) {
      ctx.error(inst.operands[0], "operand 0 of '" + inst.form() + "' must be an immediate");
    }
    return make_exec(inst, &nothing_h);
  }
  if (m.size() >= 2 && (m[1] == "ca" || m[1] == "cg")) return bind_copy(inst, ctx);
  ctx.unsupported(inst);  // cp.async.bulk*, cp.async.mbarrier.arrive: not modelled yet
}

}  // namespace

void register_async_copy_ops(OpTable& table) {
  table.add("cp", bind_cp);
}

}  // namespace lockstep::func::memory
