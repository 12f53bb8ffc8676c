#pragma once
// Binding: IR instruction -> ExecInst with a handler. Each opcode family registers binders in
// an OpTable; a binder returns std::nullopt when the form is not its own (another family may
// take it, e.g. integer and float `add`) and throws ptx::Error for a form it owns but finds
// malformed. A form nobody takes is rejected with
//   unsupported PTX instruction '<form>' at <file>:<line>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "func/bound_kernel.h"
#include "func/exec_inst.h"
#include "ir/program.h"
#include "ptx/ast.h"

namespace lockstep::func {

class BindContext {
 public:
  BindContext(BoundKernel& kernel, const ir::KernelProgram& program,
              std::function<uint64_t(uint32_t)> global_address)
      : kernel_(kernel), program_(program), global_address_(std::move(global_address)) {}

  // The slot holding an operand's value: a register's own slot, or a slot pre-filled with an
  // immediate (`imm` bits, as written) or a static special register. Predicates: use pred().
  // For a FloatImmediate the slot holds its bits as written (f32 bits for 0f, f64 for 0d).
  uint32_t slot(const ir::Operand& op);
  // A slot filled with `value` in every lane.
  uint32_t constant(uint64_t value);
  // A scratch slot for sink operands (_) and discarded results.
  uint32_t scratch();
  // The slot holding each lane's carry flag (CC.CF) between add.cc/addc and friends; kept apart
  // from scratch() so a sink between two links of a carry chain cannot clobber it.
  uint32_t carry_slot();
  // Predicate index of a Pred operand (throws if the operand is not a predicate).
  uint32_t pred(const ir::Operand& op);
  // Device address of a symbol in the Global space (module variable), plus nothing else.
  uint64_t global_address(const ir::SymbolRef& sym) { return global_address_(sym.global); }
  // Stores a long operand list, returns its index into BoundKernel::tables.
  uint32_t table(std::vector<uint32_t> values);

  const ir::KernelProgram& program() const { return program_; }
  const BoundKernel& kernel() const { return kernel_; }

  // Errors located at the instruction / operand.
  [[noreturn]] void error(const ir::Instruction& inst, const std::string& message) const;
  [[noreturn]] void error(const ir::Operand& op, const std::string& message) const;
  [[noreturn]] void unsupported(const ir::Instruction& inst) const;
  // Checks the operand count, else error "expected N operands for '<form>', got M".
  void expect_operands(const ir::Instruction& inst, size_t n) const;

 private:
  BoundKernel& kernel_;
  const ir::KernelProgram& program_;
  std::function<uint64_t(uint32_t)> global_address_;
  std::map<uint64_t, uint32_t> constant_slots_;
  std::map<std::pair<int, uint32_t>, uint32_t> special_slots_;
  uint32_t scratch_slot_ = ~0u;
  uint32_t carry_slot_ = ~0u;
};

// Fills the common fields (guard, pc, control targets) of an ExecInst for inst.
ExecInst make_exec(const ir::Instruction& inst, Handler fn);

using Binder = std::optional<ExecInst> (*)(const ir::Instruction& inst, BindContext& ctx);

class OpTable {
 public:
  void add(std::string_view opcode, Binder binder) { binders_[std::string(opcode)].push_back(binder); }
  // Binds one instruction or throws ptx::Error (unsupported form / malformed operands).
  ExecInst bind(const ir::Instruction& inst, BindContext& ctx) const;
  bool knows(std::string_view opcode) const { return binders_.count(std::string(opcode)) != 0; }

 private:
  std::map<std::string, std::vector<Binder>, std::less<>> binders_;
};

// One registration function per opcode family (func/ops/*.cpp). Called explicitly by
// default_op_table() so that nothing depends on static initialisation order.
void register_control_ops(OpTable& table);   // bra, call, ret, exit, bar/barrier, trap, ...
void register_move_ops(OpTable& table);      // mov, cvta, special registers, param access
void register_integer_ops(OpTable& table);   // integer arithmetic, logic, bit ops, setp/selp
void register_float_ops(OpTable& table);     // f16/bf16/f32/f64 arithmetic, cvt, math
void register_memory_ops(OpTable& table);    // ld/st/atom/red/cp.async/fence/prefetch
void register_warp_ops(OpTable& table);      // shfl/vote/match/redux/activemask
void register_tensor_ops(OpTable& table);    // wmma/mma/ldmatrix
void register_texture_ops(OpTable& table);   // tex/tld4/txq, suld/sust/suq (texture_ops.cpp)
void register_cluster_ops(OpTable& table);   // barrier.cluster, mapa (one-CTA clusters)

// The table with every family registered; built once per engine (immutable afterwards).
const OpTable& default_op_table();

}  // namespace lockstep::func
