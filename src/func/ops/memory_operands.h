#pragma once
// Bind-time helpers shared by the memory family: splitting an instruction's modifiers into
// state space, type, vector width and the qualifiers that change nothing functionally, and
// resolving address operands ([reg+off], [symbol+off], [off]) to a base slot + offset.
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "func/bind.h"
#include "func/exec_inst.h"
#include "func/ops/memory_space.h"
#include "ir/program.h"
#include "ptx/ast.h"

namespace lockstep::func::memory {

// The state space an instruction names; Generic when it names none.
enum class NamedSpace : uint8_t {
  Generic,
  Global,
  Shared,
  SharedCluster,
  Local,
  Const,
  KernelParam,
  FuncParam,
  Param,
};

struct MemoryForm {
  NamedSpace space = NamedSpace::Generic;
  ptx::Type type = ptx::Type::None;
  uint32_t vector = 1;                 // .v2 / .v4 / .v8
  bool cache_hint = false;             // .L2::cache_hint: one more operand, the cache policy
  std::vector<std::string_view> rest;  // everything else, for the opcode's own checks
};

// Splits the modifiers. A second space, type or vector width is an unsupported form.
MemoryForm classify(const ir::Instruction& inst, const BindContext& ctx);

// Ordering and scope qualifiers accepted (and ignored) by ld/st/atom/red/fence.
bool is_ordering(std::string_view m);  // weak relaxed acquire release acq_rel sc volatile mmio
bool is_scope(std::string_view m);     // cta cluster gpu sys
// Cache-eviction and prefetch-size hints (.L1::evict_last, .L2::128B, ...).
bool is_cache_hint(std::string_view m);

uint32_t type_bytes(ptx::Type type);
bool is_signed_int(ptx::Type type);

// Where an address operand points.
struct AddressPlan {
  Space space = Space::Global;
  uint32_t base_slot = 0;  // a register, or a constant slot holding the address
  int64_t offset = 0;
  bool frame_relative = false;  // add the current call frame's base at run time
};

// Resolves inst.operands[index] (which must be an Address) for an access in `named` space.
// `writes` rejects stores to kernel parameters.
AddressPlan resolve_address(const ir::Instruction& inst, size_t index, NamedSpace named,
                            bool writes, BindContext& ctx);

// Stores the plan in the ExecInst fields the handlers read: s[slot] = base, offset, aux2 bit 0.
void store_plan(const AddressPlan& plan, uint32_t slot, ExecInst& e);

// The register operands of a value list: one Reg (or Sink, when `sink_ok`) when n == 1, else a
// Vector of exactly n elements. `immediate_ok` also admits immediates (store sources).
std::vector<const ir::Operand*> value_operands(const ir::Instruction& inst, size_t index,
                                               uint32_t n, bool immediate_ok, bool sink_ok,
                                               const BindContext& ctx);

// Mask of the bits a register of op's declared type holds (all 64 when unknown).
uint64_t register_mask(const ir::Operand& op);

}  // namespace lockstep::func::memory
