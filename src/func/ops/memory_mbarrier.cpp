// mbarrier: arrive-wait barriers in shared memory (sm_80+; the tx-count forms sm_90+).
//
//   mbarrier.init{.shared{::cta}}.b64                          [addr], count
//   mbarrier.arrive{.expect_tx}{.noComplete}{.sem}{.scope}{.space}.b64   state|_, [addr]{, count|txCount}
//   mbarrier.arrive_drop{...same...}.b64                       state|_, [addr]{, count|txCount}
//   mbarrier.expect_tx / complete_tx{.sem}{.scope}{.space}.b64 [addr], txCount
//   mbarrier.test_wait{.parity}{.sem}{.scope}{.shared{::cta}}.b64 waitComplete, [addr], state|phaseParity
//   mbarrier.try_wait{.parity}{...}.b64                        waitComplete, [addr], state|phaseParity{, suspendTimeHint}
//   mbarrier.pending_count.b64                                 count, state
//   mbarrier.inval{.shared{::cta}}.b64                         [addr]
//
// The object's encoding and the operations are in mbarrier_object.h. The lanes of a warp apply
// their operations one after another in lane order, as atomics do (memory_atomic.cpp), so a run
// is deterministic. Ordering and scope qualifiers change nothing in this sequentially consistent
// engine; clusters hold one CTA, so .shared::cluster names the CTA's own shared memory. A wait
// never suspends: try_wait returns false at once when the phase has not completed (the
// suspend-time hint is a hint); the functional runner ends a warp's turn after every mbarrier
// operation (func/instruction_effects.h: shares_memory), so the warps a failed wait waits for run.
#include <cstring>
#include <optional>
#include <string_view>

#include "func/bind.h"
#include "func/lanes.h"
#include "func/ops/mbarrier_object.h"
#include "func/ops/memory_operands.h"
#include "func/ops/memory_ops.h"
#include "func/ops/memory_space.h"
#include "func/warp.h"

namespace lockstep::func::memory {

uint8_t* mbarrier_at(Warp& w, Space space, uint64_t addr, uint32_t lane) {
  if (space == Space::Generic) {
    if (addr - kSharedWindow >= kWindowSize) {
      w.fault(FaultKind::MbarrierMisuse, lane, addr, 8, "generic",
              fmt::format("the mbarrier object at generic address {:#x} is not in shared memory", addr));
    }
    addr -= kSharedWindow;
  }
  return Access<Space::Shared>(w).at(addr, 8, 8, lane);
}

void mbarrier_fault(Warp& w, uint32_t lane, uint64_t offset, const std::string& why) {
  w.fault(FaultKind::MbarrierMisuse, lane, offset, 8, "shared",
          fmt::format("{} (object at shared address {:#x})", why, wrap32(offset)));
}

namespace {

// The shared offset of a lane's object, for fault reports.
uint64_t offset_of(Space space, uint64_t addr) { return space == Space::Generic ? addr - kSharedWindow : addr; }

uint64_t load(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

void store(uint8_t* p, uint64_t v) { std::memcpy(p, &v, 8); }

// s[0] address base (+ offset), s[1] count.
template <Space S>
void init_h(const ExecInst& in, Warp& w) {
  const uint64_t* base = w.r(in.s[0]);
  const uint64_t* count = w.r(in.s[1]);
  for_each_lane(w.exec, [&](uint32_t lane) {
    const uint64_t addr = base[lane] + static_cast<uint64_t>(in.offset);
    uint8_t* p = mbarrier_at(w, S, addr, lane);
    const uint32_t n = static_cast<uint32_t>(count[lane]);
    if (n == 0 || n > mbarrier::kMaxCount) {
      mbarrier_fault(w, lane, offset_of(S, addr),
                     fmt::format("mbarrier.init with count {}, outside 1..{}", n, mbarrier::kMaxCount));
    }
    store(p, mbarrier::initial(n));
  });
}

// d[0] state token, s[0] address, s[1] count, s[2] expect_tx bytes; aux bit 0 drop, bit 1
// noComplete.
template <Space S>
void arrive_h(const ExecInst& in, Warp& w) {
  const uint64_t* base = w.r(in.s[0]);
  const uint64_t* count = w.r(in.s[1]);
  const uint64_t* tx = w.r(in.s[2]);
  uint64_t* token = w.r(in.d[0]);
  mbarrier::ArriveForm form;
  form.drop = (in.aux & 1) != 0;
  form.no_complete = (in.aux & 2) != 0;
  form.name = form.drop ? "mbarrier.arrive_drop" : "mbarrier.arrive";
  for_each_lane(w.exec, [&](uint32_t lane) {
    const uint64_t addr = base[lane] + static_cast<uint64_t>(in.offset);
    uint8_t* p = mbarrier_at(w, S, addr, lane);
    uint64_t word = load(p);
    const std::string e = mbarrier::arrive(word, static_cast<uint32_t>(count[lane]),
                                           static_cast<uint32_t>(tx[lane]), form, token[lane]);
    if (!e.empty()) mbarrier_fault(w, lane, offset_of(S, addr), e);
    store(p, word);
  });
}

// s[0] address, s[1] txCount.
template <Space S, bool Complete>
void tx_h(const ExecInst& in, Warp& w) {
  const uint64_t* base = w.r(in.s[0]);
  const uint64_t* bytes = w.r(in.s[1]);
  const char* name = Complete ? "mbarrier.complete_tx" : "mbarrier.expect_tx";
  for_each_lane(w.exec, [&](uint32_t lane) {
    const uint64_t addr = base[lane] + static_cast<uint64_t>(in.offset);
    uint8_t* p = mbarrier_at(w, S, addr, lane);
    uint64_t word = load(p);
    const uint32_t n = static_cast<uint32_t>(bytes[lane]);
    const std::string e = Complete ? mbarrier::complete_tx(word, n, name) : mbarrier::expect_tx(word, n, name);
    if (!e.empty()) mbarrier_fault(w, lane, offset_of(S, addr), e);
    store(p, word);
  });
}

// d[0] predicate, s[0] address, s[1] state token or phase parity.
template <Space S, bool Parity>
void wait_h(const ExecInst& in, Warp& w) {
  const uint64_t* base = w.r(in.s[0]);
  const uint64_t* state = w.r(in.s[1]);
  LaneMask done = 0;
  for_each_lane(w.exec, [&](uint32_t lane) {
    const uint64_t addr = base[lane] + static_cast<uint64_t>(in.offset);
    const uint64_t word = load(mbarrier_at(w, S, addr, lane));
    if (!mbarrier::is_valid(word)) {
      mbarrier_fault(w, lane, offset_of(S, addr), mbarrier::not_valid(Parity ? "mbarrier wait (parity)" : "mbarrier wait"));
    }
    const bool completed = Parity ? mbarrier::parity_completed(word, static_cast<uint32_t>(state[lane]))
                                  : mbarrier::phase_completed(word, state[lane]);
    if (completed) done |= LaneMask{1} << lane;
  });
  LaneMask& p = w.p(in.d[0]);
  p = (p & ~w.exec) | done;
}

// d[0] count, s[0] state token.
void pending_count_h(const ExecInst& in, Warp& w) {
  const uint64_t* token = w.r(in.s[0]);
  uint64_t* d = w.r(in.d[0]);
  for_each_lane(w.exec, [&](uint32_t lane) { d[lane] = mbarrier::pending_of(token[lane]); });
}

// s[0] address. Invalidating memory that holds no barrier is harmless here (nothing is checked).
template <Space S>
void inval_h(const ExecInst& in, Warp& w) {
  const uint64_t* base = w.r(in.s[0]);
  for_each_lane(w.exec, [&](uint32_t lane) {
    store(mbarrier_at(w, S, base[lane] + static_cast<uint64_t>(in.offset), lane), 0);
  });
}

// ---- binding ----------------------------------------------------------------------------------

enum class Op : uint8_t { Init, Arrive, ArriveDrop, ExpectTx, CompleteTx, TestWait, TryWait, PendingCount, Inval };

std::optional<Op> parse_op(std::string_view m) {
  if (m == "init") return Op::Init;
  if (m == "arrive") return Op::Arrive;
  if (m == "arrive_drop") return Op::ArriveDrop;
  if (m == "expect_tx") return Op::ExpectTx;
  if (m == "complete_tx") return Op::CompleteTx;
  if (m == "test_wait") return Op::TestWait;
  if (m == "try_wait") return Op::TryWait;
  if (m == "pending_count") return Op::PendingCount;
  if (m == "inval") return Op::Inval;
  return std::nullopt;
}

struct Form {
  Op op = Op::Init;
  bool expect_tx = false;
  bool no_complete = false;
  bool parity = false;
  NamedSpace space = NamedSpace::Generic;
};

Form parse_form(const ir::Instruction& inst, const BindContext& ctx) {
  const auto& m = inst.modifiers;
  std::optional<Op> op = m.empty() ? std::nullopt : parse_op(m[0]);
  if (!op) ctx.unsupported(inst);
  Form f;
  f.op = *op;
  const bool arrives = f.op == Op::Arrive || f.op == Op::ArriveDrop;
  const bool waits = f.op == Op::TestWait || f.op == Op::TryWait;
  bool typed = false, spaced = false, sem = false, scope = false;
  for (size_t i = 1; i < m.size(); ++i) {
    const std::string_view q = m[i];
    if (q == "b64" && !typed) {
      typed = true;
    } else if ((q == "shared" || q == "shared::cta") && !spaced && f.op != Op::PendingCount) {
      spaced = true;
      f.space = NamedSpace::Shared;
    } else if (q == "shared::cluster" && !spaced && f.op != Op::PendingCount) {
      spaced = true;
      f.space = NamedSpace::SharedCluster;
    } else if ((q == "release" || q == "relaxed" || q == "acquire") && !sem && f.op != Op::PendingCount) {
      sem = true;
    } else if ((q == "cta" || q == "cluster") && !scope && f.op != Op::PendingCount) {
      scope = true;
    } else if (q == "expect_tx" && arrives && !f.expect_tx) {
      f.expect_tx = true;
    } else if (q == "noComplete" && arrives && !f.no_complete) {
      f.no_complete = true;
    } else if (q == "parity" && waits && !f.parity) {
      f.parity = true;
    } else {
      ctx.unsupported(inst);
    }
  }
  if (!typed) ctx.unsupported(inst);
  return f;
}

template <template <Space> class H>
Handler by_space(Space space) {
  return space == Space::Generic ? &H<Space::Generic>::run : &H<Space::Shared>::run;
}

// Function templates wrapped so that by_space can pick among them.
template <Space S> struct Init { static void run(const ExecInst& in, Warp& w) { init_h<S>(in, w); } };
template <Space S> struct ArriveOp { static void run(const ExecInst& in, Warp& w) { arrive_h<S>(in, w); } };
template <Space S> struct ExpectOp { static void run(const ExecInst& in, Warp& w) { tx_h<S, false>(in, w); } };
template <Space S> struct CompleteOp { static void run(const ExecInst& in, Warp& w) { tx_h<S, true>(in, w); } };
template <Space S> struct WaitToken { static void run(const ExecInst& in, Warp& w) { wait_h<S, false>(in, w); } };
template <Space S> struct WaitParity { static void run(const ExecInst& in, Warp& w) { wait_h<S, true>(in, w); } };
template <Space S> struct InvalOp { static void run(const ExecInst& in, Warp& w) { inval_h<S>(in, w); } };

// The slot of a count operand (register or immediate).
uint32_t value_slot(const ir::Instruction& inst, size_t index, BindContext& ctx) {
  return ctx.slot(*value_operands(inst, index, 1, true, false, ctx)[0]);
}

std::optional<ExecInst> bind_mbarrier(const ir::Instruction& inst, BindContext& ctx) {
  const Form f = parse_form(inst, ctx);
  if (f.op == Op::PendingCount) {
    ctx.expect_operands(inst, 2);
    ExecInst e = make_exec(inst, &pending_count_h);
    e.d[0] = ctx.slot(*value_operands(inst, 0, 1, false, false, ctx)[0]);
    e.s[0] = value_slot(inst, 1, ctx);
    e.nd = 1;
    e.ns = 1;
    return e;
  }
  // The address operand: first, or after the destination.
  const bool has_dst = f.op == Op::Arrive || f.op == Op::ArriveDrop || f.op == Op::TestWait || f.op == Op::TryWait;
  const size_t at = has_dst ? 1 : 0;
  if (inst.operands.size() <= at) ctx.expect_operands(inst, at + 1);
  const bool writes = f.op != Op::TestWait && f.op != Op::TryWait;
  const AddressPlan plan = resolve_address(inst, at, f.space, writes, ctx);
  if (plan.space != Space::Shared && plan.space != Space::Generic) ctx.unsupported(inst);

  ExecInst e;
  switch (f.op) {
    case Op::Init:
      ctx.expect_operands(inst, 2);
      e = make_exec(inst, by_space<Init>(plan.space));
      e.s[1] = value_slot(inst, 1, ctx);
      break;
    case Op::Inval:
      ctx.expect_operands(inst, 1);
      e = make_exec(inst, by_space<InvalOp>(plan.space));
      break;
    case Op::ExpectTx:
    case Op::CompleteTx:
      ctx.expect_operands(inst, 2);
      e = make_exec(inst, f.op == Op::ExpectTx ? by_space<ExpectOp>(plan.space) : by_space<CompleteOp>(plan.space));
      e.s[1] = value_slot(inst, 1, ctx);
      break;
    case Op::Arrive:
    case Op::ArriveDrop: {
      // state, [addr]; a third operand is the count, or the tx bytes of .expect_tx (whose count
      // is one); .noComplete takes its count.
      const size_t n = inst.operands.size();
      if (n != 3 && (n != 2 || f.expect_tx || f.no_complete)) ctx.expect_operands(inst, 3);
      e = make_exec(inst, by_space<ArriveOp>(plan.space));
      e.d[0] = ctx.slot(*value_operands(inst, 0, 1, false, true, ctx)[0]);
      e.s[1] = (n == 3 && !f.expect_tx) ? value_slot(inst, 2, ctx) : ctx.constant(1);
      e.s[2] = f.expect_tx ? value_slot(inst, 2, ctx) : ctx.constant(0);
      e.aux = (f.op == Op::ArriveDrop ? 1u : 0u) | (f.no_complete ? 2u : 0u);
      e.nd = 1;
      break;
    }
    case Op::TestWait:
    case Op::TryWait: {
      const size_t n = inst.operands.size();
      if (n != 3 && !(n == 4 && f.op == Op::TryWait)) ctx.expect_operands(inst, 3);
      e = make_exec(inst, f.parity ? by_space<WaitParity>(plan.space) : by_space<WaitToken>(plan.space));
      e.d[0] = ctx.pred(inst.operands[0]);
      e.s[1] = value_slot(inst, 2, ctx);
      if (n == 4) value_slot(inst, 3, ctx);  // the suspend-time hint: checked, not used
      break;
    }
    case Op::PendingCount:
      break;
  }
  e.s[0] = plan.base_slot;
  e.offset = plan.offset;
  e.ns = f.op == Op::Inval ? 1 : (f.op == Op::Arrive || f.op == Op::ArriveDrop) ? 3 : 2;
  return e;
}

}  // namespace

void register_mbarrier_ops(OpTable& table) { table.add("mbarrier", bind_mbarrier); }

}  // namespace lockstep::func::memory
