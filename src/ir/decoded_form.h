#pragma once
// Everything the simulator derives from an instruction's opcode and modifier strings, decoded
// once when the kernel is lowered (ir::Instruction::decoded). The binder's effects, the
// functional model's turn ends and the timing model's unit, space and latency all read this one
// record, so they cannot disagree about what an instruction is (ld.shared::cta is shared memory
// for all of them). The binders still parse their own type and rounding modifiers.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ir/memory_space.h"
#include "ir/opcode.h"

namespace lockstep::ir {

// What a memory instruction does to the bytes it reaches.
enum class MemoryOperation : uint8_t {
  None,             // reaches no memory
  Read,             // ld, ldu, tex, cp, ... (the timing model's default access)
  Write,            // st, sust
  ReadModifyWrite,  // atom, red, sured
};

// The arithmetic an instruction's type modifiers ask for: the unit it falls back to when the
// preset's [opcodes] table does not place it.
enum class ValueClass : uint8_t { Integer, Fp32, Fp64 };

// An instruction's part in the asynchronous copies (the timing model's sim/async_copies.h
// tracks them). Decoded from the modifiers' names, wherever in the list they stand (.L2::cache_hint,
// .multicast::cluster and the like may follow).
enum class AsyncOp : uint8_t {
  None,
  Copy,             // cp.async.{ca,cg}: joins the warp's open group
  CommitGroup,      // cp.async.commit_group
  WaitGroup,        // cp.async.wait_group N
  WaitAll,          // cp.async.wait_all
  CopyArrive,       // cp.async.mbarrier.arrive{.noinc}: the warp's copies pend on the mbarrier
  BulkCopyBarrier,  // cp.async.bulk (not .tensor) ... mbarrier::complete_tx::bytes: pends on its mbarrier
  BulkCopyGroup,    // cp.async.bulk (not .tensor) ... bulk_group: joins the warp's open bulk group
  BulkCommitGroup,  // cp.async.bulk.commit_group
  BulkWaitGroup,    // cp.async.bulk.wait_group{.read} N
  BarrierWait,      // mbarrier.test_wait / try_wait: held while copies pend on its mbarrier
};

struct DecodedForm {
  Opcode opcode = Opcode::Unknown;
  // The space whose memory the instruction waits on. Copies (cp.*) wait on their global side;
  // mbarrier, ldmatrix and stmatrix objects are always in shared memory (a generic address of
  // one too); cvta and isspacep name a space but reach no memory.
  MemorySpace space = MemorySpace::None;
  // cp.*: the first space its modifiers name (the destination of cp.async.*.shared::cluster.global);
  // None for other opcodes.
  MemorySpace copy_destination = MemorySpace::None;
  MemoryOperation operation = MemoryOperation::None;
  // May change global memory (func/instruction_effects.h): st/atom/red in the global or generic
  // space, wmma.store, every cp but cp.async.mbarrier.arrive, multimem, sust, sured, tensormap.
  bool may_write_global = false;
  // Reaches memory other warps of the block can see (shared, global or generic: not local, param
  // or const), so the functional model ends the warp's turn after it.
  bool shares_memory = false;
  bool orders_memory = false;  // membar, fence: wait until the warp's accesses are done
  // ld that the non-coherent L1 may not serve: .cg, .cv, .volatile, .L1::no_allocate, or
  // relaxed/acquire at gpu, sys or cluster scope.
  bool bypasses_l1 = false;
  // The first operand (unless it is an address) is a register the instruction writes; false for
  // st, bra, call, red, cp, bar.sync, wmma.store, ...
  bool writes_first_operand = false;
  ValueClass value_class = ValueClass::Integer;
  AsyncOp async = AsyncOp::None;
};

DecodedForm decode_form(std::string_view opcode, const std::vector<std::string>& modifiers);

}  // namespace lockstep::ir
