#pragma once
// What the timing model needs to know about each instruction of a kernel, worked out once per
// launch from the IR and the preset (never looked up by string on the per-cycle path): the unit
// it issues to, where its result comes from (a unit's pipeline or a memory space), and its
// register operands for the scoreboard and the register banks.
#include <cstdint>
#include <vector>

#include "config/gpu_config.h"
#include "ir/decoded_form.h"
#include "ir/program.h"
#include "mem/mem_request.h"
#include "sim/kernel_timing.h"
#include "sim/scoreboard_operands.h"

namespace lockstep::sim {

enum class MemorySpace : uint8_t { kNone, kGlobal, kLocal, kShared, kConstant, kTexture };


struct InstTiming {
  UnitKind unit = UnitKind::kInt;
  MemorySpace space = MemorySpace::kNone;  // kNone: the result comes out of the unit's pipeline
  uint32_t memory_latency = 0;             // cycles from dispatch to the result, when space != kNone
  bool long_latency = false;  // a load from off-chip memory (two-level demotes on it)
  bool memory_barrier = false;  // membar/fence: waits until the warp's memory accesses are done
  mem::AccessKind access = mem::AccessKind::kRead;  // st: write; atom, red: atomic; else read
  bool bypass_l1 = false;  // ld.cg / ld.cv / ld.volatile: served by the L2, never allocated in the L1
  // May change launch-wide state (global memory, printf, the device heap;
  // func/instruction_effects.h): it runs at the end of its cycle, in SM order (Sm::commit).
  bool deferred = false;
  // bar / barrier (CTA and cluster): may release warps of its block that wait at a barrier.
  bool cta_barrier = false;
  // nanosleep: the warp sleeps for the time its lanes ask (Sm::sleep).
  bool sleeps = false;
  // A mov of an immediate into a register of at most 32 bits, with timing.immediate_moves =
  // fold: ptxas propagates the constant into the instructions that read it, so on hardware it
  // is no instruction at all. It takes no fetch, I-buffer entry, issue slot or unit; the SM
  // runs it with the instruction before it (Sm::run_folded).
  bool folded = false;
  ir::AsyncOp async = ir::AsyncOp::None;  // its part in the asynchronous copies (sim/async_copies.h)
  uint32_t async_groups = 0;  // the N of a wait_group
  InstOperands operands;
};

// Register numbering of the scoreboard and the banks: slots 0 .. slot_count - 1 are the kernel's
// register slots, predicate p is slot_count + p.
struct RegisterSpace {
  uint32_t slot_count = 0;
  uint32_t pred_count = 0;
  uint32_t total() const { return slot_count + pred_count; }
};

// The unit an instruction runs on by the preset's [opcodes] table, then by its type modifiers.
UnitKind unit_of(const ir::Instruction& inst, const config::GpuConfig& gpu);

// The latency class of the memory an instruction of unit `unit` reaches, from its decoded space
// (ir::DecodedForm::space): a state space with a sub-qualifier (shared::cta, shared::cluster,
// param::entry, ...) is that space; a generic address is taken as global (the timing model's
// LD/ST unit sees each lane's resolved space at run time). Texture and surface instructions
// take the texture latency on whatever unit; anything else off the LD/ST unit, or an opcode that
// reaches no memory (cvta, isspacep), comes out of its unit's pipeline.
MemorySpace space_of(const ir::Instruction& inst, UnitKind unit);

// The register operands of `inst`: destinations are the first operand's registers unless the
// opcode writes no register (st, bar, bra, ...); everything else it reads (the guard too).
// Consecutive slots merge into ranges; past the range limit the rest fold into one covering range.
InstOperands register_operands(const ir::Instruction& inst, const RegisterSpace& regs,
                               uint32_t max_dst_ranges = kMaxDstRanges);

// One entry per instruction of the kernel. `max_dst_ranges`: a rid-table with fewer entries than
// kMaxDstRanges gets destinations folded to fit, so that every instruction can issue.
std::vector<InstTiming> instruction_timing(const ir::KernelProgram& kernel, const config::GpuConfig& gpu,
                                           const RegisterSpace& regs, uint32_t max_dst_ranges = kMaxDstRanges);

}  // namespace lockstep::sim
