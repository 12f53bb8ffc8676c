// cp.async (sm_80 asynchronous global -> shared copies), its group operations, the arrive-on
// an mbarrier that tracks a thread's copies, and the non-tensor bulk copies (sm_90).
//
// Functionally every copy happens at issue: the bytes are in their destination as soon as the
// instruction runs, so cp.async.commit_group / wait_group / wait_all and the bulk groups have
// nothing left to wait for and are no-ops here, cp.async.mbarrier.arrive finds the thread's
// earlier copies complete and arrives at once, and a bulk copy completes its bytes on its
// mbarrier (complete_tx) at once. The asynchrony belongs to the timing model, which keeps this
// result and only delays issue (sim/async_copies.h, docs/timing-model.md "Asynchronous copies"):
// the copies' accesses take their time in the memory model, and the group waits, and
// mbarrier.test_wait / try_wait on an mbarrier that copies are pending on, do not issue until
// those copies complete. The tensor (TMA) forms are not supported yet and are rejected at load
// time.
#include <algorithm>
#include <cstring>
#include <optional>
#include <string>

#include "func/bind.h"
#include "func/lanes.h"
#include "func/ops/mbarrier_object.h"
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

// ---- cp.async.mbarrier.arrive ---------------------------------------------------------------

// s[0] address (+ offset); aux 1 for .noinc. The thread's earlier copies are complete, so the
// asynchronous arrive-on happens now: with .noinc it is one of the expected arrivals; without,
// the pending count is raised by one first, and the pair changes nothing (the object is still
// checked).
template <Space S>
void cp_async_arrive_h(const ExecInst& in, Warp& w) {
  const uint64_t* base = w.r(in.s[0]);
  const bool noinc = in.aux != 0;
  const mbarrier::ArriveForm form{false, false, "cp.async.mbarrier.arrive"};
  for_each_lane(w.exec, [&](uint32_t lane) {
    const uint64_t addr = base[lane] + static_cast<uint64_t>(in.offset);
    uint8_t* p = mbarrier_at(w, S, addr, lane);
    uint64_t word;
    std::memcpy(&word, p, 8);
    std::string e = noinc ? std::string() : mbarrier::increment_pending(word, form.name);
    uint64_t token = 0;
    if (e.empty()) e = mbarrier::arrive(word, 1, 0, form, token);
    if (!e.empty()) mbarrier_fault(w, lane, S == Space::Generic ? addr - kSharedWindow : addr, e);
    std::memcpy(p, &word, 8);
  });
}

// cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64 [addr]
std::optional<ExecInst> bind_mbarrier_arrive(const ir::Instruction& inst, BindContext& ctx) {
  const auto& m = inst.modifiers;  // async, mbarrier, arrive, ...
  bool noinc = false, typed = false;
  NamedSpace space = NamedSpace::Generic;
  for (size_t i = 3; i < m.size(); ++i) {
    if (m[i] == "noinc" && !noinc) {
      noinc = true;
    } else if ((m[i] == "shared" || m[i] == "shared::cta") && space == NamedSpace::Generic) {
      space = NamedSpace::Shared;
    } else if (m[i] == "b64" && !typed) {
      typed = true;
    } else {
      ctx.unsupported(inst);
    }
  }
  if (m.size() < 3 || m[2] != "arrive" || !typed) ctx.unsupported(inst);
  ctx.expect_operands(inst, 1);
  const AddressPlan plan = resolve_address(inst, 0, space, true, ctx);
  if (plan.space != Space::Shared && plan.space != Space::Generic) ctx.unsupported(inst);
  ExecInst e = make_exec(inst, plan.space == Space::Generic ? &cp_async_arrive_h<Space::Generic>
                                                             : &cp_async_arrive_h<Space::Shared>);
  e.s[0] = plan.base_slot;
  e.offset = plan.offset;
  e.aux = noinc ? 1 : 0;
  e.ns = 1;
  return e;
}

// ---- bulk copies ------------------------------------------------------------------------------

// The bytes of a bulk copy as the timing model's LD/ST unit sees them: 16-byte pieces spread over
// the lanes of a warp-wide access (piece i as lane i % 32 of round i / 32), so that the copy
// engine's transfer coalesces into whole lines.
void log_bulk(AccessLog* log, uint64_t address, uint32_t size, AccessSpace space) {
  if (log == nullptr) return;
  for (uint32_t i = 0; i < size / 16; ++i) log->add(i % 32, address + 16ull * i, 16, space);
}

enum class BulkDst : uint8_t { SharedFromGlobal, SharedFromShared, GlobalFromShared };

// s[0] destination base (+ offset), s[1] source base (+ aux), s[2] size, s[3] mbarrier base
// (+ aux2; the shared destinations only). Sizes and addresses are multiples of 16.
template <BulkDst D>
void bulk_copy_h(const ExecInst& in, Warp& w) {
  const uint64_t* dst = w.r(in.s[0]);
  const uint64_t* src = w.r(in.s[1]);
  const uint64_t* size = w.r(in.s[2]);
  const uint64_t* bar = w.r(in.s[3]);
  AccessLog* log = w.launch->access_log;
  for_each_lane(w.exec, [&](uint32_t lane) {
    const uint32_t n = static_cast<uint32_t>(size[lane]);
    const uint64_t to = D == BulkDst::GlobalFromShared ? dst[lane] + static_cast<uint64_t>(in.offset)
                                                       : wrap32(dst[lane] + static_cast<uint64_t>(in.offset));
    const uint64_t from = D == BulkDst::SharedFromGlobal ? src[lane] + in.aux : wrap32(src[lane] + in.aux);
    if (n % 16 != 0) {  // reported as a misaligned access of n bytes at the destination
      w.fault(FaultKind::Misaligned, lane, to, n, D == BulkDst::GlobalFromShared ? "global" : "shared");
    }
    if (n == 0) return;
    uint8_t* out = D == BulkDst::GlobalFromShared ? w.global(to, n, 16, lane) : w.shared(to, n, 16, lane);
    const uint8_t* from_p = D == BulkDst::SharedFromGlobal ? w.global(from, n, 16, lane) : w.shared(from, n, 16, lane);
    log_bulk(log, from, n, D == BulkDst::SharedFromGlobal ? AccessSpace::kGlobal : AccessSpace::kShared);
    log_bulk(log, to, n, D == BulkDst::GlobalFromShared ? AccessSpace::kGlobal : AccessSpace::kShared);
    std::memmove(out, from_p, n);
    if constexpr (D != BulkDst::GlobalFromShared) {
      const uint64_t at = wrap32(bar[lane] + in.aux2);
      uint8_t* p = mbarrier_at(w, Space::Shared, at, lane);
      uint64_t word;
      std::memcpy(&word, p, 8);
      const std::string e = mbarrier::complete_tx(word, n, "cp.async.bulk complete_tx");
      if (!e.empty()) mbarrier_fault(w, lane, at, e);
      std::memcpy(p, &word, 8);
    }
  });
}

// A register (or absolute) address operand of a bulk copy: base slot and offset. Symbols resolve
// through resolve_address in the space the instruction names.
AddressPlan bulk_address(const ir::Instruction& inst, size_t index, NamedSpace space, BindContext& ctx) {
  const AddressPlan plan = resolve_address(inst, index, space, true, ctx);
  if (plan.space != (space == NamedSpace::Global ? Space::Global : Space::Shared)) ctx.unsupported(inst);
  return plan;
}

// cp.async.bulk.shared::cluster|shared::cta.global.mbarrier::complete_tx::bytes{.L2::cache_hint}
//     [dst], [src], size, [mbar]{, cache-policy}
// cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [dst], [src], size, [mbar]
// cp.async.bulk.global.shared::cta.bulk_group{.L2::cache_hint} [dst], [src], size{, cache-policy}
// cp.async.bulk.commit_group, cp.async.bulk.wait_group{.read} N, cp.async.bulk.prefetch.L2.global
std::optional<ExecInst> bind_bulk(const ir::Instruction& inst, BindContext& ctx) {
  const auto& m = inst.modifiers;  // async, bulk, ...
  if (m.size() == 3 && m[2] == "commit_group") {
    ctx.expect_operands(inst, 0);
    return make_exec(inst, &nothing_h);
  }
  if ((m.size() == 3 || (m.size() == 4 && m[3] == "read")) && m[2] == "wait_group") {
    ctx.expect_operands(inst, 1);
    if (inst.operands[0].kind != ir::Operand::Kind::Imm) {
      ctx.error(inst.operands[0], "operand 0 of '" + inst.form() + "' must be an immediate");
    }
    return make_exec(inst, &nothing_h);
  }
  if (m.size() >= 5 && m[2] == "prefetch" && m[3] == "L2" && m[4] == "global") {
    // [src], size{, cache-policy}: a hint, nothing to do.
    const bool hint = m.size() == 6 && m[5] == "L2::cache_hint";
    if (m.size() != 5 && !hint) ctx.unsupported(inst);
    ctx.expect_operands(inst, hint ? 3 : 2);
    return make_exec(inst, &nothing_h);
  }
  if (m.size() < 5) ctx.unsupported(inst);
  BulkDst kind;
  NamedSpace dst_space = NamedSpace::Shared, src_space = NamedSpace::Global;
  if ((m[2] == "shared::cluster" || m[2] == "shared::cta") && m[3] == "global" &&
      m[4] == "mbarrier::complete_tx::bytes") {
    kind = BulkDst::SharedFromGlobal;
  } else if (m[2] == "shared::cluster" && m[3] == "shared::cta" && m[4] == "mbarrier::complete_tx::bytes") {
    kind = BulkDst::SharedFromShared;
    src_space = NamedSpace::Shared;
  } else if (m[2] == "global" && m[3] == "shared::cta" && m[4] == "bulk_group") {
    kind = BulkDst::GlobalFromShared;
    dst_space = NamedSpace::Global;
    src_space = NamedSpace::Shared;
  } else {
    ctx.unsupported(inst);  // multicast, .cp_mask, tensor forms: not modelled
  }
  bool cache_hint = false;
  for (size_t i = 5; i < m.size(); ++i) {
    if (m[i] == "L2::cache_hint" && !cache_hint && kind != BulkDst::SharedFromShared) {
      cache_hint = true;
    } else {
      ctx.unsupported(inst);
    }
  }
  const size_t operands = (kind == BulkDst::GlobalFromShared ? 3 : 4) + (cache_hint ? 1 : 0);
  ctx.expect_operands(inst, operands);
  const AddressPlan to = bulk_address(inst, 0, dst_space, ctx);
  const AddressPlan from = bulk_address(inst, 1, src_space, ctx);
  Handler fn = kind == BulkDst::SharedFromGlobal   ? &bulk_copy_h<BulkDst::SharedFromGlobal>
               : kind == BulkDst::SharedFromShared ? &bulk_copy_h<BulkDst::SharedFromShared>
                                                   : &bulk_copy_h<BulkDst::GlobalFromShared>;
  ExecInst e = make_exec(inst, fn);
  e.s[0] = to.base_slot;
  e.offset = to.offset;
  e.s[1] = from.base_slot;
  e.aux = static_cast<uint64_t>(from.offset);
  e.s[2] = ctx.slot(*value_operands(inst, 2, 1, true, false, ctx)[0]);
  e.s[3] = e.s[0];
  if (kind != BulkDst::GlobalFromShared) {
    const AddressPlan bar = bulk_address(inst, 3, NamedSpace::Shared, ctx);
    e.s[3] = bar.base_slot;
    e.aux2 = static_cast<uint64_t>(bar.offset);
  }
  e.ns = 4;
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
  if (m.size() >= 3 && m[1] == "mbarrier") return bind_mbarrier_arrive(inst, ctx);
  if (m.size() >= 3 && m[1] == "bulk") return bind_bulk(inst, ctx);
  ctx.unsupported(inst);  // cp.async.bulk.tensor, cp.reduce.async.bulk: not modelled yet
}

}  // namespace

void register_async_copy_ops(OpTable& table) {
  table.add("cp", bind_cp);
}

}  // namespace lockstep::func::memory
