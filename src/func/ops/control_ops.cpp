// Control flow: bra, ret, exit, the synthetic function exit, call, trap and CTA barriers.
// These handlers own the PC (ExecInst::is_control) and talk to the warp's DivergenceUnit.
#include <algorithm>
#include <cstring>

#include "func/bind.h"
#include "func/bound_kernel.h"
#include "func/divergence/divergence_unit.h"
#include "func/lanes.h"
#include "func/ops/device_calls.h"
#include "func/step.h"
#include "func/warp.h"

namespace lockstep::func {

namespace {

const ir::KernelProgram& program_of(const Warp& w) { return *w.launch->kernel->program; }

void branch_h(const ExecInst& in, Warp& w) {
  const LaneMask taken = w.exec;
  if (taken == w.active) {
    w.pc = in.target;
    if (in.target <= in.pc) {
      w.divergence->backward_branch(w);
    } else {
      w.divergence->forward_branch(w);
    }
  } else if (taken == 0) {
    w.pc = in.pc + 1;
  } else {
    w.divergence->branch(w, taken, in.target, in.pc + 1, in.reconverge);
  }
}

// Pops one call frame: copies the result back, restores the caller's frame and registers.
void return_from_call(Warp& w) {
  const CallFrame frame = w.calls.back();
  w.calls.pop_back();
  if (frame.result_size != 0) {
    for_each_lane(w.active, [&](uint32_t lane) {
      std::memcpy(w.local(frame.caller_frame_base + frame.result_dst, frame.result_size, 1, lane),
                  w.local(frame.frame_base + frame.result_src, frame.result_size, 1, lane),
                  frame.result_size);
    });
  }
  if (frame.saved_regs_at != ~size_t{0}) {
    const ir::Function& f = program_of(w).functions[frame.function];
    const size_t count = static_cast<size_t>(f.slot_count) * w.width;
    std::memcpy(w.r(f.first_slot), w.saved_regs.data() + frame.saved_regs_at, count * sizeof(uint64_t));
    std::memcpy(w.preds + f.first_pred, w.saved_regs.data() + frame.saved_regs_at + count,
                f.pred_count * sizeof(LaneMask));
    w.saved_regs.resize(frame.saved_regs_at);
  }
  w.frame_base_ = frame.caller_frame_base;
  w.function = frame.caller_function;
  w.divergence->return_from_call(w);
}

// After lanes exit, unwind calls whose every lane is gone; the warp ends with its last lane.
void finish_exits(Warp& w, LaneMask exited) {
  w.live &= ~exited;
  w.divergence->exit_lanes(w, exited);
  while (w.active == 0 && !w.calls.empty()) return_from_call(w);
  if (w.live == 0 && w.status != Warp::Status::Exited) {
    w.status = Warp::Status::Exited;
    --w.cta->live_warps;
    w.cta->barriers.on_warp_exit(*w.cta->warps, w.cta->live_warps);
  }
}

void function_exit_h(const ExecInst&, Warp& w) {
  if (w.calls.empty()) {
    finish_exits(w, w.active);
  } else {
    return_from_call(w);
  }
}

void exit_h(const ExecInst& in, Warp& w) {
  w.pc = in.pc + 1;
  if (w.exec != 0) finish_exits(w, w.exec);
}

void trap_h(const ExecInst& in, Warp& w) {
  if (w.exec == 0) {
    w.pc = in.pc + 1;
    return;
  }
  w.fault(FaultKind::Trap, static_cast<uint32_t>(std::countr_zero(w.exec)), 0, 0, "", "trap instruction");
}

void nop_control_h(const ExecInst& in, Warp& w) { w.pc = in.pc + 1; }

// ---- calls ---------------------------------------------------------------------------
// table: [callee, result caller offset, result size, (arg caller offset, arg size)...]
void enter_function(const ExecInst& in, Warp& w, uint32_t callee_index);

void call_h(const ExecInst& in, Warp& w) {
  w.pc = in.pc + 1;
  if (w.exec == 0) return;
  enter_function(in, w, w.launch->kernel->tables[in.table][0]);
}

// call through a register (function pointers, virtual functions): s[0] holds the address.
// Lanes with different targets are serialised: the lanes sharing the lowest lane's target call
// now, the others wait to run this call again; all meet after it, as a divergent branch would.
void indirect_call_h(const ExecInst& in, Warp& w) {
  w.pc = in.pc + 1;
  if (w.exec == 0) return;
  const BoundKernel& k = *w.launch->kernel;
  const uint64_t* target = w.r(in.s[0]);
  const uint32_t first = static_cast<uint32_t>(std::countr_zero(w.exec));
  const uint64_t address = target[first];
  LaneMask group = 0;
  for_each_lane(w.exec, [&](uint32_t l) {
    if (target[l] == address) group |= LaneMask{1} << l;
  });
  if (const LaneMask later = w.exec & ~group; later != 0) {
    w.divergence->set_aside(w, later, in.pc);
    w.exec = group;
  }
  const uint64_t rel = address - k.function_base;
  const uint64_t ordinal = rel / 16;
  if (rel % 16 != 0 || ordinal >= k.function_by_ordinal.size() || k.function_by_ordinal[ordinal] == ~0u)
    w.fault(FaultKind::OutOfBounds, first, address, 0, "code", "indirect call to an address that is no function");
  const uint32_t callee = k.function_by_ordinal[ordinal];
  const ir::Function& f = program_of(w).functions[callee];
  const std::vector<uint32_t>& t = k.tables[in.table];
  const size_t nargs = (t.size() - 3) / 2;
  bool matches = f.params.size() == nargs && (t[2] == 0 || (!f.results.empty() && f.results[0].size == t[2]));
  for (size_t i = 0; matches && i < nargs; ++i) matches = f.params[i].size == t[4 + 2 * i];
  if (!matches || f.is_extern)
    w.fault(FaultKind::Unsupported, first, address, 0, "code",
            "indirect call to '" + f.name + "' does not match the call's prototype");
  enter_function(in, w, callee);
}

void enter_function(const ExecInst& in, Warp& w, uint32_t callee_index) {
  const ir::KernelProgram& prog = program_of(w);
  const std::vector<uint32_t>& t = w.launch->kernel->tables[in.table];
  const ir::Function& callee = prog.functions[callee_index];
  const ir::Function& caller = prog.functions[w.function];
  const uint32_t base = w.frame_base_ + caller.frame_size;
  if (base + callee.frame_size > w.launch->stack_size)
    w.fault(FaultKind::StackOverflow, static_cast<uint32_t>(std::countr_zero(w.exec)), base,
            callee.frame_size, "local", "call to " + callee.name + " needs more stack");
  for (size_t i = 0; i < callee.params.size(); ++i) {
    const uint32_t src = t[3 + 2 * i], size = t[4 + 2 * i];
    const ir::ParamSlot& dst = callee.params[i];
    for_each_lane(w.exec, [&](uint32_t lane) {
      std::memcpy(w.local(base + dst.offset, size, 1, lane), w.local(w.frame_base_ + src, size, 1, lane), size);
    });
  }
  CallFrame frame{};
  frame.return_pc = in.pc + 1;
  frame.function = callee_index;
  frame.caller_function = w.function;
  frame.frame_base = base;
  frame.caller_frame_base = w.frame_base_;
  frame.result_size = t[2];
  frame.result_dst = t[1];
  frame.result_src = callee.results.empty() ? 0 : callee.results[0].offset;
  frame.saved_regs_at = ~size_t{0};
  // A re-entered function would overwrite its caller activation's registers: save them.
  bool reentry = w.function == callee_index;
  for (const CallFrame& c : w.calls) reentry = reentry || c.function == callee_index;
  if (reentry) {
    frame.saved_regs_at = w.saved_regs.size();
    const size_t count = static_cast<size_t>(callee.slot_count) * w.width;
    w.saved_regs.resize(frame.saved_regs_at + count + callee.pred_count);
    std::memcpy(w.saved_regs.data() + frame.saved_regs_at, w.r(callee.first_slot), count * sizeof(uint64_t));
    std::memcpy(w.saved_regs.data() + frame.saved_regs_at + count, w.preds + callee.first_pred,
                callee.pred_count * sizeof(LaneMask));
  }
  w.calls.push_back(frame);
  w.frame_base_ = base;
  w.function = callee_index;
  // A guarded call splits the path: the callers run first (the fall-through path of this
  // split), the others wait at the next instruction, where both meet again.
  if (w.exec != w.active) {
    w.divergence->set_aside(w, w.active & ~w.exec, in.pc + 1);
  }
  w.divergence->call(w, callee.entry, in.pc + 1);
}

uint32_t param_size(BindContext& ctx, const ir::Operand& op) {
  if (op.kind != ir::Operand::Kind::Symbol || op.symbol.space != ir::SymbolSpace::FrameParam)
    ctx.error(op, "call arguments must be .param variables");
  return static_cast<uint32_t>(op.symbol.size);
}

std::optional<ExecInst> bind_call(const ir::Instruction& inst, BindContext& ctx) {
  size_t i = 0;
  const ir::Operand* results = nullptr;
  if (i < inst.operands.size() && inst.operands[i].kind == ir::Operand::Kind::Vector)
    results = &inst.operands[i++];
  if (i >= inst.operands.size()) ctx.error(inst, "expected a function to call");
  const ir::Operand& target = inst.operands[i++];
  const ir::Operand* args = nullptr;
  if (i < inst.operands.size() && inst.operands[i].kind == ir::Operand::Kind::Vector)
    args = &inst.operands[i++];
  auto frame_offset = [&](const ir::Operand& op) -> uint32_t {
    if (op.kind != ir::Operand::Kind::Symbol || op.symbol.space != ir::SymbolSpace::FrameParam)
      ctx.error(op, "call arguments must be .param variables");
    return static_cast<uint32_t>(op.symbol.value);
  };
  const size_t nargs = args ? args->elements.size() : 0;
  const size_t nresults = results ? results->elements.size() : 0;
  if (target.kind == ir::Operand::Kind::Reg) {
    // The callee is known at run time only; argument sizes come from the caller's .param
    // declarations and are checked against the callee's when the call happens.
    if (nresults > 1) ctx.error(inst, "functions with more than one result are not supported");
    std::vector<uint32_t> t{~0u, 0, 0};
    if (nresults == 1) {
      t[1] = frame_offset(results->elements[0]);
      t[2] = param_size(ctx, results->elements[0]);
    }
    for (size_t a = 0; a < nargs; ++a) {
      t.push_back(frame_offset(args->elements[a]));
      t.push_back(param_size(ctx, args->elements[a]));
    }
    ExecInst e = make_exec(inst, indirect_call_h);
    e.is_control = true;
    e.s[0] = ctx.slot(target);
    e.table = ctx.table(std::move(t));
    return e;
  }
  if (target.kind != ir::Operand::Kind::Symbol || target.symbol.space != ir::SymbolSpace::Function)
    ctx.error(target, "expected a function or a register holding a function address");
  const ir::Function& callee = ctx.program().functions[target.symbol.value];
  if (callee.is_extern) {
    if (auto e = bind_device_call(inst, ctx, callee.name, results, args)) return e;
    ctx.error(inst, "call to external function '" + callee.name + "' is not supported");
  }
  if (nargs != callee.params.size() || nresults != callee.results.size())
    ctx.error(inst, "call to '" + callee.name + "' has " + std::to_string(nargs) + " arguments and " +
                        std::to_string(nresults) + " results; the function declares " +
                        std::to_string(callee.params.size()) + " and " +
                        std::to_string(callee.results.size()));
  if (nresults > 1) ctx.error(inst, "functions with more than one result are not supported");
  std::vector<uint32_t> t{static_cast<uint32_t>(target.symbol.value), 0, 0};
  if (nresults == 1) {
    t[1] = frame_offset(results->elements[0]);
    t[2] = callee.results[0].size;
  }
  for (size_t a = 0; a < nargs; ++a) {
    t.push_back(frame_offset(args->elements[a]));
    t.push_back(callee.params[a].size);
  }
  ExecInst e = make_exec(inst, call_h);
  e.is_control = true;
  e.table = ctx.table(std::move(t));
  return e;
}

// ---- barriers ------------------------------------------------------------------------
// aux: 1 = wait (sync), 0 = arrive; width: reduction kind
template <bool kWait, BarrierReduction kRed>
void barrier_h(const ExecInst& in, Warp& w) {
  if (w.exec == 0) {
    w.pc = in.pc + 1;
    return;
  }
  // Under independent thread scheduling the warp's threads may be apart (a yield split them);
  // the warp arrives once, with every live thread.
  if (!w.divergence->converge(w, w.live)) return;
  w.pc = in.pc + 1;
  const uint32_t lane = static_cast<uint32_t>(std::countr_zero(w.exec));
  const uint32_t id = static_cast<uint32_t>(w.r(in.s[0])[lane]);
  uint32_t expected = 0;
  if (in.ns >= 2) {
    const uint32_t threads = static_cast<uint32_t>(w.r(in.s[1])[lane]);
    expected = (threads + w.width - 1) / w.width;
  }
  if (id >= 16) w.fault(FaultKind::Unsupported, lane, id, 0, "", "barrier id must be below 16");
  LaneMask predicate = 0;
  if constexpr (kRed != BarrierReduction::None) {
    const LaneMask p = w.p(in.s[2]);
    predicate = in.aux2 ? ~p : p;
    w.pending_reduction = kRed;
    w.reduction_dst = in.d[0];
    w.reduction_lanes = w.exec;
  }
  w.barrier_pc = in.pc;
  w.cta->barriers.arrive(*w.cta->warps, w, id, expected, kWait, kRed, predicate);
}

std::optional<ExecInst> bind_barrier(const ir::Instruction& inst, BindContext& ctx) {
  // bar.sync / bar.arrive / bar.red / barrier.sync[.aligned] / barrier.arrive / bar.cta.*
  bool arrive = false, sync = false;
  BarrierReduction red = BarrierReduction::None;
  for (const std::string& m : inst.modifiers) {
    if (m == "sync") sync = true;
    else if (m == "arrive") arrive = true;
    else if (m == "red") sync = true;
    else if (m == "popc") red = BarrierReduction::Popc;
    else if (m == "and") red = BarrierReduction::And;
    else if (m == "or") red = BarrierReduction::Or;
    else if (m == "aligned" || m == "cta" || m == "u32" || m == "pred") continue;
    else if (m == "warp" || m == "cluster") return std::nullopt;  // bar.warp.sync: warp ops
    else ctx.unsupported(inst);
  }
  if (sync == arrive) ctx.unsupported(inst);
  ExecInst e;
  if (red == BarrierReduction::None) {
    if (inst.operands.empty() || inst.operands.size() > 2)
      ctx.error(inst, "expected 1 or 2 operands for '" + inst.form() + "', got " +
                          std::to_string(inst.operands.size()));
    e = make_exec(inst, arrive ? barrier_h<false, BarrierReduction::None>
                               : barrier_h<true, BarrierReduction::None>);
    e.ns = static_cast<uint8_t>(inst.operands.size());
    for (size_t i = 0; i < inst.operands.size(); ++i) e.s[i] = ctx.slot(inst.operands[i]);
  } else {
    // bar.red.op.type d, a{, b}, {!}c
    const size_t n = inst.operands.size();
    if (n != 3 && n != 4)
      ctx.error(inst, "expected 3 or 4 operands for '" + inst.form() + "', got " + std::to_string(n));
    Handler fn = red == BarrierReduction::Popc ? barrier_h<true, BarrierReduction::Popc>
                 : red == BarrierReduction::And ? barrier_h<true, BarrierReduction::And>
                                                 : barrier_h<true, BarrierReduction::Or>;
    e = make_exec(inst, fn);
    e.d[0] = red == BarrierReduction::Popc ? ctx.slot(inst.operands[0]) : ctx.pred(inst.operands[0]);
    e.s[0] = ctx.slot(inst.operands[1]);
    e.ns = 1;
    if (n == 4) {
      e.s[1] = ctx.slot(inst.operands[2]);
      e.ns = 2;
    }
    const ir::Operand& c = inst.operands[n - 1];
    e.s[2] = ctx.pred(c);
    e.aux2 = c.negated ? 1 : 0;
  }
  e.is_control = true;
  return e;
}

std::optional<ExecInst> bind_bra(const ir::Instruction& inst, BindContext& ctx) {
  for (const std::string& m : inst.modifiers)
    if (m != "uni") ctx.unsupported(inst);
  ctx.expect_operands(inst, 1);
  if (inst.target == ir::kNoPc) ctx.error(inst.operands[0], "expected a label");
  ExecInst e = make_exec(inst, branch_h);
  e.is_control = true;
  return e;
}

std::optional<ExecInst> bind_ret(const ir::Instruction& inst, BindContext& ctx) {
  for (const std::string& m : inst.modifiers)
    if (m != "uni") ctx.unsupported(inst);
  ctx.expect_operands(inst, 0);
  ExecInst e = make_exec(inst, branch_h);  // ret jumps to the function's exit instruction
  e.is_control = true;
  return e;
}

template <Handler kFn>
std::optional<ExecInst> bind_simple_control(const ir::Instruction& inst, BindContext& ctx) {
  if (!inst.modifiers.empty()) ctx.unsupported(inst);
  ctx.expect_operands(inst, 0);
  ExecInst e = make_exec(inst, kFn);
  e.is_control = true;
  return e;
}

std::optional<ExecInst> bind_nanosleep(const ir::Instruction& inst, BindContext& ctx) {
  ctx.expect_operands(inst, 1);
  ExecInst e = make_exec(inst, nop_control_h);
  e.is_control = true;
  e.s[0] = ctx.slot(inst.operands[0]);  // the duration in ns (u32), for nanosleep_ns
  return e;
}

}  // namespace

uint32_t nanosleep_ns(const ExecInst& in, const Warp& w, LaneMask lanes) {
  constexpr uint32_t kMaxNs = 1'000'000;
  const uint64_t* t = w.regs + static_cast<size_t>(in.s[0]) * w.width;
  uint32_t longest = 0;
  for_each_lane(lanes, [&](uint32_t lane) { longest = std::max(longest, static_cast<uint32_t>(t[lane])); });
  return std::min(longest, kMaxNs);
}

void register_control_ops(OpTable& t) {
  t.add("bra", bind_bra);
  t.add("ret", bind_ret);
  t.add("$exit", bind_simple_control<function_exit_h>);
  t.add("exit", bind_simple_control<exit_h>);
  t.add("trap", bind_simple_control<trap_h>);
  t.add("brkpt", bind_simple_control<nop_control_h>);
  t.add("call", bind_call);
  t.add("bar", bind_barrier);
  t.add("barrier", bind_barrier);
  t.add("nanosleep", bind_nanosleep);
}

}  // namespace lockstep::func
