#include "sim/instruction_timing.h"

#include <algorithm>
#include <array>
#include <string_view>

#include "func/instruction_effects.h"

namespace lockstep::sim {

namespace {

bool has_modifier(const ir::Instruction& inst, std::string_view m) {
  return std::find(inst.modifiers.begin(), inst.modifiers.end(), m) != inst.modifiers.end();
}

// A form of the [opcodes] table matches the opcode alone or the opcode with one modifier.
bool listed(const std::vector<std::string>& forms, const ir::Instruction& inst) {
  for (const std::string& f : forms) {
    const size_t dot = f.find('.');
    if (dot == std::string::npos) {
      if (f == inst.opcode) return true;
    } else if (std::string_view(f).substr(0, dot) == inst.opcode &&
               has_modifier(inst, std::string_view(f).substr(dot + 1))) {
      return true;
    }
  }
  return false;
}

bool is_float_type(std::string_view m) {
  return m == "f32" || m == "f16" || m == "f16x2" || m == "bf16" || m == "bf16x2" || m == "tf32" ||
         m == "e4m3" || m == "e5m2" || m == "e4m3x2" || m == "e5m2x2" || m == "ftz";
}

// Opcodes that write no register: their first operand is read (an address, a value) or absent.
bool writes_no_register(const ir::Instruction& inst) {
  static constexpr std::array<std::string_view, 20> kNoDst = {
      "st",        "bra",      "brx",      "call",  "ret",        "exit",      "trap",
      "membar",    "fence",    "sust",     "sured", "red",        "prefetch",  "prefetchu",
      "cp",        "stmatrix", "nanosleep", "griddepcontrol", "pmevent", "brkpt"};
  const std::string_view op = inst.opcode;
  if (std::find(kNoDst.begin(), kNoDst.end(), op) != kNoDst.end()) return true;
  if (op == "bar" || op == "barrier") return !has_modifier(inst, "red");
  if (op == "wmma") return has_modifier(inst, "store");
  return false;
}

uint32_t latency_of(MemorySpace space, const config::GpuConfig& gpu) {
  switch (space) {
    case MemorySpace::kNone: return 0;
    case MemorySpace::kGlobal: return gpu.memory.global_latency;
    case MemorySpace::kLocal: return gpu.memory.local_latency;
    case MemorySpace::kShared: return gpu.memory.shared_latency;
    case MemorySpace::kConstant: return gpu.memory.constant_latency;
    case MemorySpace::kTexture: return gpu.memory.texture_latency;
  }
  return 0;
}

// A load the L1 may not serve: the L1 is not coherent between SMs, so a load that must see other
// SMs' writes (volatile, or relaxed/acquire at gpu or system scope: spin loops, grid barriers)
// goes to the L2, as do the cache operators that say so (.cg, .cv, L1::no_allocate).
bool bypasses_l1(const ir::Instruction& inst) {
  if (inst.opcode != "ld") return false;
  if (has_modifier(inst, "cg") || has_modifier(inst, "cv") || has_modifier(inst, "volatile") ||
      has_modifier(inst, "L1::no_allocate"))
    return true;
  const bool strong = has_modifier(inst, "relaxed") || has_modifier(inst, "acquire");
  return strong && (has_modifier(inst, "gpu") || has_modifier(inst, "sys") || has_modifier(inst, "cluster"));
}

// Collects register ids, then packs them into ranges.
class RegisterIds {
 public:
  explicit RegisterIds(const RegisterSpace& regs) : regs_(regs) {}

  void add(const ir::Operand& op) {
    using K = ir::Operand::Kind;
    switch (op.kind) {
      case K::Reg: push(op.index); break;
      case K::Pred: push(regs_.slot_count + op.index); break;
      case K::Address:
        if (op.base_is_reg) push(op.index);
        for (const ir::Operand& e : op.elements) add(e);
        break;
      case K::Vector:
        for (const ir::Operand& e : op.elements) add(e);
        break;
      default: break;
    }
  }
  void push(uint32_t reg) {
    if (reg < regs_.total()) ids_.push_back(reg);
  }

  // Sorted, deduplicated, merged into runs; more runs than `limit` fold the tail into one range.
  template <typename Emit>
  void emit(size_t limit, Emit&& out) {
    std::sort(ids_.begin(), ids_.end());
    ids_.erase(std::unique(ids_.begin(), ids_.end()), ids_.end());
    std::vector<RegRange> runs;
    for (uint32_t id : ids_) {
      if (!runs.empty() && runs.back().end() == id) {
        ++runs.back().count;
      } else {
        runs.push_back({id, 1});
      }
    }
    if (runs.size() > limit) {
      const RegRange last = runs.back();
      runs.resize(limit);
      runs.back().count = static_cast<uint32_t>(last.end() - runs.back().first);
    }
    for (const RegRange& r : runs) out(r);
  }

 private:
  const RegisterSpace& regs_;
  std::vector<uint32_t> ids_;
};

}  // namespace

MemorySpace space_of(const ir::Instruction& inst, UnitKind unit) {
  const std::string_view op = inst.opcode;
  if (op == "tex" || op == "tld4" || op == "txq" || op == "suld" || op == "sust" || op == "suq" || op == "sured")
    return MemorySpace::kTexture;
  if (unit != UnitKind::kLdSt) return MemorySpace::kNone;
  if (op == "cvta" || op == "isspacep") return MemorySpace::kNone;
  if (op == "ldmatrix" || op == "stmatrix") return MemorySpace::kShared;
  // mbarrier objects live in shared memory (a generic address of one too); cp.async.mbarrier.arrive
  // touches only the object; cp.async and the bulk copies read global memory.
  if (op == "mbarrier") return MemorySpace::kShared;
  if (op == "cp") return has_modifier(inst, "mbarrier") ? MemorySpace::kShared : MemorySpace::kGlobal;
  for (const std::string& m : inst.modifiers) {
    const std::string_view space = std::string_view(m).substr(0, m.find("::"));
    if (space == "shared") return MemorySpace::kShared;
    if (space == "local") return MemorySpace::kLocal;
    if (space == "const" || space == "param") return MemorySpace::kConstant;
    if (space == "global") return MemorySpace::kGlobal;
  }
  return MemorySpace::kGlobal;  // generic addresses (most of them are global)
}

UnitKind unit_of(const ir::Instruction& inst, const config::GpuConfig& gpu) {
  const config::GpuConfig::Opcodes& t = gpu.opcodes;
  if (listed(t.sfu, inst)) return UnitKind::kSfu;
  if (listed(t.tensor, inst)) return UnitKind::kTensor;
  if (listed(t.ldst, inst)) return UnitKind::kLdSt;
  if (listed(t.fp64, inst)) return UnitKind::kFp64;
  if (listed(t.fp32, inst)) return UnitKind::kFp32;
  if (listed(t.integer, inst)) return UnitKind::kInt;
  if (has_modifier(inst, "f64")) return UnitKind::kFp64;
  for (const std::string& m : inst.modifiers)
    if (is_float_type(m)) return UnitKind::kFp32;
  return UnitKind::kInt;
}

InstOperands register_operands(const ir::Instruction& inst, const RegisterSpace& regs, uint32_t max_dst_ranges) {
  RegisterIds dst(regs), src(regs);
  size_t first_source = 0;
  if (!writes_no_register(inst) && !inst.operands.empty()) {
    const ir::Operand& d = inst.operands[0];
    if (d.kind != ir::Operand::Kind::Address) {
      dst.add(d);
      first_source = 1;
    }
  }
  for (size_t i = first_source; i < inst.operands.size(); ++i) src.add(inst.operands[i]);
  if (inst.has_guard) src.push(regs.slot_count + inst.guard);
  InstOperands ops;
  dst.emit(std::min<size_t>(max_dst_ranges, kMaxDstRanges), [&](RegRange r) { ops.write(r.first, r.count); });
  src.emit(kMaxSrcRanges, [&](RegRange r) { ops.read(r.first, r.count); });
  return ops;
}

std::vector<InstTiming> instruction_timing(const ir::KernelProgram& kernel, const config::GpuConfig& gpu,
                                           const RegisterSpace& regs, uint32_t max_dst_ranges) {
  std::vector<InstTiming> table;
  table.reserve(kernel.code.size());
  for (const ir::Instruction& inst : kernel.code) {
    InstTiming t;
    t.unit = unit_of(inst, gpu);
    t.space = space_of(inst, t.unit);
    t.memory_latency = latency_of(t.space, gpu);
    t.operands = register_operands(inst, regs, max_dst_ranges);
    t.long_latency = t.operands.dst_count != 0 &&
                     (t.space == MemorySpace::kGlobal || t.space == MemorySpace::kLocal ||
                      t.space == MemorySpace::kTexture);
    t.memory_barrier = inst.opcode == "membar" || inst.opcode == "fence";
    if (inst.opcode == "st" || inst.opcode == "sust") t.access = mem::AccessKind::kWrite;
    if (inst.opcode == "atom" || inst.opcode == "red" || inst.opcode == "sured") t.access = mem::AccessKind::kAtomic;
    t.bypass_l1 = bypasses_l1(inst);
    t.deferred = func::may_write_global(inst) || func::calls_launch_service(kernel, inst);
    table.push_back(t);
  }
  return table;
}

}  // namespace lockstep::sim
