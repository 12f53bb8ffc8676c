// prefetch / prefetchu, membar / fence, isspacep, and the family's registration.
//
// Prefetches only move data between cache levels, so they are no-ops functionally (and, as
// on the device, never fault). Memory barriers and fences order memory operations between
// threads; this engine runs one warp at a time and every access takes effect immediately, in
// program order, so every execution is already sequentially consistent and there is nothing
// to order. The timing model gives them their cost.
#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "func/bind.h"
#include "func/device_memory.h"
#include "func/lanes.h"
#include "func/ops/memory_operands.h"
#include "func/ops/memory_ops.h"
#include "func/warp.h"

namespace lockstep::func {
namespace memory {
namespace {

void nothing_h(const ExecInst&, Warp&) {}

template <size_t N>
bool one_of(std::string_view m, const std::array<std::string_view, N>& names) {
  return std::find(names.begin(), names.end(), m) != names.end();
}

// prefetch{.global|.local}.L1|.L2|.L2::evict_last|.L2::evict_normal [a];  prefetchu.L1 [a];
// prefetch{.const|.param}.tensormap [a]
std::optional<ExecInst> bind_prefetch(const ir::Instruction& inst, BindContext& ctx) {
  static constexpr std::array<std::string_view, 9> kAllowed{
      "global",           "local",    "const", "param", "L1", "L2", "L2::evict_last",
      "L2::evict_normal", "tensormap"};
  const bool uniform = inst.opcode == "prefetchu";
  for (const std::string& m : inst.modifiers) {
    if (uniform ? m != "L1" : !one_of(m, kAllowed)) ctx.unsupported(inst);
  }
  if (inst.modifiers.empty()) ctx.unsupported(inst);
  ctx.expect_operands(inst, 1);
  if (inst.operands[0].kind != ir::Operand::Kind::Address) {
    ctx.error(inst.operands[0], "operand 0 of '" + inst.form() + "' must be an address");
  }
  return make_exec(inst, &nothing_h);
}

// membar.cta|gl|sys;  membar.proxy.alias
std::optional<ExecInst> bind_membar(const ir::Instruction& inst, BindContext& ctx) {
  const auto& m = inst.modifiers;
  const bool level = m.size() == 1 && (m[0] == "cta" || m[0] == "gl" || m[0] == "sys");
  const bool proxy = m.size() == 2 && m[0] == "proxy" && m[1] == "alias";
  if (!level && !proxy) ctx.unsupported(inst);
  ctx.expect_operands(inst, 0);
  return make_exec(inst, &nothing_h);
}

// fence{.sem}.scope, fence.proxy.<kind>, fence.mbarrier_init.release.cluster,
// fence.proxy.tensormap::generic.release|acquire.scope {[a], size}, ...
std::optional<ExecInst> bind_fence(const ir::Instruction& inst, BindContext& ctx) {
  static constexpr std::array<std::string_view, 13> kWords{"sc",
                                                           "acq_rel",
                                                           "acquire",
                                                           "release",
                                                           "proxy",
                                                           "alias",
                                                           "async",
                                                           "global",
                                                           "shared::cta",
                                                           "shared::cluster",
                                                           "tensormap::generic",
                                                           "mbarrier_init",
                                                           "op_restrict"};
  bool takes_address = false;
  for (const std::string& m : inst.modifiers) {
    if (!one_of(m, kWords) && !is_scope(m)) ctx.unsupported(inst);
    if (m == "tensormap::generic") takes_address = true;
  }
  if (inst.modifiers.empty()) ctx.unsupported(inst);
  const bool acquire =
      std::find(inst.modifiers.begin(), inst.modifiers.end(), "acquire") != inst.modifiers.end();
  ctx.expect_operands(inst, takes_address && acquire ? 2 : 0);
  return make_exec(inst, &nothing_h);
}

// ---- isspacep -----------------------------------------------------------------------------

enum class Window : uint8_t { Global, Shared, Local, Param, None };

// Generic addresses are global outside the shared, local and kernel-parameter windows. Const
// data has no window of its own here (.const variables are reached through their global
// addresses), so isspacep.const is false for every address.
template <Window W>
bool in_window(uint64_t addr) {
  const bool shared = addr - kSharedWindow < kWindowSize;
  const bool local = addr - kLocalWindow < kWindowSize;
  const bool param = addr - kParamWindow < kWindowSize;
  if constexpr (W == Window::Global) return !shared && !local && !param;
  if constexpr (W == Window::Shared) return shared;
  if constexpr (W == Window::Local) return local;
  if constexpr (W == Window::Param) return param;
  return false;
}

// d[0] predicate index, s[0] the address.
template <Window W>
void isspacep_h(const ExecInst& in, Warp& w) {
  const uint64_t* a = w.r(in.s[0]);
  LaneMask result = 0;
  for_each_lane(w.exec, [&](uint32_t lane) {
    if (in_window<W>(a[lane])) result |= LaneMask{1} << lane;
  });
  LaneMask& p = w.p(in.d[0]);
  p = (p & ~w.exec) | result;
}

std::optional<ExecInst> bind_isspacep(const ir::Instruction& inst, BindContext& ctx) {
  if (inst.modifiers.size() != 1) ctx.unsupported(inst);
  const std::string& m = inst.modifiers[0];
  Handler fn = nullptr;
  if (m == "global") fn = &isspacep_h<Window::Global>;
  if (m == "shared" || m == "shared::cta") fn = &isspacep_h<Window::Shared>;
  if (m == "local") fn = &isspacep_h<Window::Local>;
  if (m == "param" || m == "param::entry") fn = &isspacep_h<Window::Param>;
  if (m == "const") fn = &isspacep_h<Window::None>;
  if (fn == nullptr) ctx.unsupported(inst);  // shared::cluster needs cluster windows
  ctx.expect_operands(inst, 2);
  ExecInst e = make_exec(inst, fn);
  e.d[0] = ctx.pred(inst.operands[0]);
  e.nd = 1;
  const auto a = value_operands(inst, 1, 1, true, false, ctx);
  e.s[0] = ctx.slot(*a[0]);
  e.ns = 1;
  return e;
}

}  // namespace

void register_memory_misc_ops(OpTable& table) {
  table.add("prefetch", bind_prefetch);
  table.add("prefetchu", bind_prefetch);
  table.add("membar", bind_membar);
  table.add("fence", bind_fence);
  table.add("isspacep", bind_isspacep);
}

}  // namespace memory

void register_memory_ops(OpTable& table) {
  memory::register_load_store_ops(table);
  memory::register_atomic_ops(table);
  memory::register_async_copy_ops(table);
  memory::register_mbarrier_ops(table);
  memory::register_memory_misc_ops(table);
}

}  // namespace lockstep::func
