#include "sim/instruction_timing.h"

#include <algorithm>
#include <string_view>

#include "func/divergence/divergence_unit.h"
#include "func/instruction_effects.h"
#include "ir/types.h"
#include "sim/async_copies.h"

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

// mov.{b,u,s,f}{16,32} %r, immediate, unguarded: what ptxas folds into the immediate operands of
// the instructions that read it (a 64-bit constant takes instructions of its own in SASS).
bool foldable_move(const ir::Instruction& inst) {
  if (inst.decoded.opcode != ir::Opcode::Mov || inst.has_guard || inst.operands.size() != 2) return false;
  const ir::Operand& dst = inst.operands[0];
  const uint32_t bytes = ir::type_size(dst.reg_type);
  return dst.kind == ir::Operand::Kind::Reg && bytes >= 2 && bytes <= 4 &&
         inst.operands[1].kind == ir::Operand::Kind::Imm;
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

// The N of cp.async.wait_group N and cp.async.bulk.wait_group N: its immediate operand.
uint32_t wait_group_count(const ir::Instruction& inst) {
  if (inst.operands.empty() || inst.operands[0].kind != ir::Operand::Kind::Imm) return 0;
  return static_cast<uint32_t>(inst.operands[0].imm);
}

}  // namespace

// The decoded space (ir::DecodedForm::space) as the timing model's latency classes: every
// spelling of shared memory takes the shared latency, param and const the constant one, generic
// addresses the global one (the LD/ST unit sees each lane's resolved space at run time).
MemorySpace space_of(const ir::Instruction& inst, UnitKind unit) {
  using S = ir::MemorySpace;
  const S space = inst.decoded.space;
  if (space == S::Texture || space == S::Surface) return MemorySpace::kTexture;
  if (unit != UnitKind::kLdSt) return MemorySpace::kNone;
  switch (space) {
    case S::None: return MemorySpace::kNone;
    case S::Generic:
    case S::Global: return MemorySpace::kGlobal;
    case S::Shared:
    case S::SharedCluster: return MemorySpace::kShared;
    case S::Local: return MemorySpace::kLocal;
    case S::Param:
    case S::KernelParam:
    case S::FuncParam:
    case S::Const: return MemorySpace::kConstant;
    case S::Texture:
    case S::Surface: return MemorySpace::kTexture;
  }
  return MemorySpace::kNone;
}

UnitKind unit_of(const ir::Instruction& inst, const config::GpuConfig& gpu) {
  const config::GpuConfig::Opcodes& t = gpu.opcodes;
  if (listed(t.sfu, inst)) return UnitKind::kSfu;
  if (listed(t.tensor, inst)) return UnitKind::kTensor;
  if (listed(t.ldst, inst)) return UnitKind::kLdSt;
  if (listed(t.fp64, inst)) return UnitKind::kFp64;
  if (listed(t.fp32, inst)) return UnitKind::kFp32;
  if (listed(t.integer, inst)) return UnitKind::kInt;
  switch (inst.decoded.value_class) {
    case ir::ValueClass::Fp64: return UnitKind::kFp64;
    case ir::ValueClass::Fp32: return UnitKind::kFp32;
    case ir::ValueClass::Integer: return UnitKind::kInt;
  }
  return UnitKind::kInt;
}

InstOperands register_operands(const ir::Instruction& inst, const RegisterSpace& regs, uint32_t max_dst_ranges) {
  RegisterIds dst(regs), src(regs);
  size_t first_source = 0;
  if (inst.decoded.writes_first_operand && !inst.operands.empty()) {
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
  const bool forms_warps = func::divergence_unit(gpu.sm.divergence).traits.block_level;
  for (const ir::Instruction& inst : kernel.code) {
    InstTiming t;
    t.unit = unit_of(inst, gpu);
    t.space = space_of(inst, t.unit);
    t.async = inst.decoded.async;
    using Async = ir::AsyncOp;
    if (t.async == Async::WaitGroup || t.async == Async::BulkWaitGroup) t.async_groups = wait_group_count(inst);
    // The group operations move no data: they come out of the unit's pipeline, not the memory.
    if (t.async == Async::CommitGroup || t.async == Async::WaitGroup || t.async == Async::WaitAll ||
        t.async == Async::BulkCommitGroup || t.async == Async::BulkWaitGroup)
      t.space = MemorySpace::kNone;
    t.memory_latency = latency_of(t.space, gpu);
    t.operands = register_operands(inst, regs, max_dst_ranges);
    t.long_latency = t.operands.dst_count != 0 &&
                     (t.space == MemorySpace::kGlobal || t.space == MemorySpace::kLocal ||
                      t.space == MemorySpace::kTexture);
    t.memory_barrier = inst.decoded.orders_memory;
    if (inst.decoded.operation == ir::MemoryOperation::Write) t.access = mem::AccessKind::kWrite;
    if (inst.decoded.operation == ir::MemoryOperation::ReadModifyWrite) t.access = mem::AccessKind::kAtomic;
    t.bypass_l1 = inst.decoded.bypasses_l1;
    // A block-level unit's stacks move the warps' PCs only as a formed warp issues: a move run
    // beside the instruction before it would leave them behind, so nothing folds there.
    t.folded = gpu.timing.fold_immediate_moves && !forms_warps && foldable_move(inst);
    t.cta_barrier = inst.decoded.opcode == ir::Opcode::Bar || inst.decoded.opcode == ir::Opcode::Barrier;
    t.sleeps = inst.decoded.opcode == ir::Opcode::Nanosleep;
    t.deferred = func::may_write_global(inst) || func::calls_launch_service(kernel, inst);
    table.push_back(t);
  }
  return table;
}

}  // namespace lockstep::sim
