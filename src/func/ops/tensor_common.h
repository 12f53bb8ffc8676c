#pragma once
// Shared pieces of the tensor family (tensor_wmma.cpp, tensor_mma.cpp, tensor_ldmatrix.cpp):
// address operands, memory spaces, the whole-warp requirement and fragment registers.
#include <cstdint>
#include <string>
#include <vector>

#include "func/bind.h"
#include "func/bound_kernel.h"
#include "func/lanes.h"
#include "func/ops/tensor_types.h"
#include "func/warp.h"

namespace lockstep::func::tensor {

// The state space an instruction names (.global, .shared / .shared::cta, or none = generic).
enum class Space : uint8_t { Generic, Global, Shared };

// A host pointer for `size` bytes at `addr` in space S (faults on a bad or misaligned access;
// `write`: also on a generic address of the read-only kernel parameters).
template <Space S>
inline uint8_t* at(Warp& w, uint64_t addr, uint32_t size, uint32_t align, uint32_t lane, bool write) {
  if constexpr (S == Space::Global) return w.global(addr, size, align, lane);
  if constexpr (S == Space::Shared) return w.shared(addr, size, align, lane);
  return w.generic(addr, size, align, lane, write);
}

// As at(), but nullptr instead of a fault: for reading a whole segment at once where one
// inaccessible element must still be reported on its own.
template <Space S>
inline uint8_t* try_at(Warp& w, uint64_t addr, uint32_t size, uint32_t align, uint32_t lane, bool write) {
  try {
    return at<S>(w, addr, size, align, lane, write);
  } catch (const FaultException&) {
    return nullptr;
  }
}

// [reg + offset], [symbol + offset] or [offset] as a base slot plus a constant offset.
struct AddressOperand {
  uint32_t base = 0;
  int64_t offset = 0;
};
AddressOperand bind_address(const ir::Instruction& inst, size_t index, BindContext& ctx);

// The register slots of a brace-enclosed vector operand that must have exactly `count`
// registers; errors name the operand and the expected count.
std::vector<uint32_t> vector_slots(const ir::Instruction& inst, size_t index, size_t count,
                                   const char* what, BindContext& ctx);

// Tensor instructions are warp-collective over exactly 32 lanes (.sync.aligned): raise
// FaultKind::Unsupported when the warp is not 32 wide or not every lane executes (the ISA
// leaves both undefined; a fault is better than an invented result).
void require_whole_warp(Warp& w, const char* what);

// The operand list of the instruction (BoundKernel::tables[in.table]).
inline const std::vector<uint32_t>& operand_table(const ExecInst& in, const Warp& w) {
  return w.launch->kernel->tables[in.table];
}

// Element j of a lane's fragment held in `regs` (slots) with elements of type E.
template <Elem E>
inline uint64_t fragment_element(Warp& w, const uint32_t* regs, uint32_t lane, uint32_t j) {
  constexpr uint32_t k = per_reg(E);
  const uint64_t v = w.r(regs[j / k])[lane];
  if constexpr (k == 1) {
    return elem_bits(E) == 64 ? v : (v & 0xffffffffu);
  } else {
    return (v >> ((j % k) * elem_bits(E))) & ((uint64_t{1} << elem_bits(E)) - 1);
  }
}

}  // namespace lockstep::func::tensor
