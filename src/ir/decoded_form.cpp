#include "ir/decoded_form.h"

#include <algorithm>

namespace lockstep::ir {
namespace {

class Modifiers {
 public:
  explicit Modifiers(const std::vector<std::string>& list) : list_(list) {}

  bool has(std::string_view m) const { return std::find(list_.begin(), list_.end(), m) != list_.end(); }

  // The first modifier that names a state space.
  MemorySpace named_space() const {
    for (const std::string& m : list_)
      if (auto space = space_named(m)) return *space;
    return MemorySpace::None;
  }

  bool any_of(bool (*pred)(std::string_view)) const {
    return std::any_of(list_.begin(), list_.end(), [&](const std::string& m) { return pred(m); });
  }

 private:
  const std::vector<std::string>& list_;
};

bool is_float_type(std::string_view m) {
  return m == "f32" || m == "f16" || m == "f16x2" || m == "bf16" || m == "bf16x2" || m == "tf32" ||
         m == "e4m3" || m == "e5m2" || m == "e4m3x2" || m == "e5m2x2" || m == "ftz";
}

// Opcodes whose instructions address memory through a state space (named, or generic when
// none is named). Copies, barriers objects and textures have their own rules below.
bool addresses_memory(Opcode op, const Modifiers& mods) {
  switch (op) {
    case Opcode::Ld: case Opcode::Ldu: case Opcode::St: case Opcode::Atom: case Opcode::Red:
    case Opcode::Prefetch: case Opcode::Prefetchu: case Opcode::Multimem: case Opcode::Applypriority:
    case Opcode::Discard: case Opcode::Tensormap:
      return true;
    case Opcode::Wmma:
      return mods.has("load") || mods.has("store");
    default:
      return false;
  }
}

MemorySpace space_of(Opcode op, const Modifiers& mods) {
  const MemorySpace named = mods.named_space();
  switch (op) {
    case Opcode::Tex: case Opcode::Tld4: case Opcode::Txq:
      return MemorySpace::Texture;
    case Opcode::Suld: case Opcode::Sust: case Opcode::Suq: case Opcode::Sured:
      return MemorySpace::Surface;
    case Opcode::Mbarrier: case Opcode::Ldmatrix: case Opcode::Stmatrix:
      return is_shared(named) ? named : MemorySpace::Shared;
    case Opcode::Cp:
      // cp.async.mbarrier.arrive touches only the mbarrier object; the other copies (cp.async,
      // the bulk and tensor copies, cp.reduce) wait on global memory.
      if (mods.has("mbarrier")) return is_shared(named) ? named : MemorySpace::Shared;
      return MemorySpace::Global;
    default:
      if (!addresses_memory(op, mods)) return MemorySpace::None;
      return named == MemorySpace::None ? MemorySpace::Generic : named;
  }
}

MemoryOperation operation_of(Opcode op, MemorySpace space) {
  switch (op) {
    case Opcode::St: case Opcode::Sust:
      return MemoryOperation::Write;
    case Opcode::Atom: case Opcode::Red: case Opcode::Sured:
      return MemoryOperation::ReadModifyWrite;
    default:
      return space == MemorySpace::None ? MemoryOperation::None : MemoryOperation::Read;
  }
}

bool may_write_global(Opcode op, const Modifiers& mods, MemorySpace space) {
  switch (op) {
    case Opcode::St: case Opcode::Atom: case Opcode::Red:
      return space == MemorySpace::Global || space == MemorySpace::Generic;
    case Opcode::Wmma:
      return mods.has("store");
    case Opcode::Cp:
      return !mods.has("mbarrier");
    case Opcode::Multimem: case Opcode::Sust: case Opcode::Sured: case Opcode::Tensormap:
      return true;
    default:
      return false;
  }
}

bool shares_memory(Opcode op, const Modifiers& mods, MemorySpace space) {
  switch (op) {
    case Opcode::Ld: case Opcode::Ldu: case Opcode::St: case Opcode::Atom: case Opcode::Red:
      return !is_private(space);
    case Opcode::Wmma:
      return mods.has("load") || mods.has("store");
    case Opcode::Cp: case Opcode::Mbarrier: case Opcode::Ldmatrix: case Opcode::Stmatrix:
      return true;
    default:
      return false;
  }
}

// The L1 is not coherent between SMs: a load that must see other SMs' writes (volatile, or
// relaxed/acquire at gpu, cluster or system scope: spin loops, grid barriers) goes to the L2, as
// do the cache operators that say so.
bool bypasses_l1(Opcode op, const Modifiers& mods) {
  if (op != Opcode::Ld) return false;
  if (mods.has("cg") || mods.has("cv") || mods.has("volatile") || mods.has("L1::no_allocate")) return true;
  const bool strong = mods.has("relaxed") || mods.has("acquire");
  return strong && (mods.has("gpu") || mods.has("sys") || mods.has("cluster"));
}

bool writes_first_operand(Opcode op, const Modifiers& mods) {
  switch (op) {
    case Opcode::St: case Opcode::Bra: case Opcode::Brx: case Opcode::Call: case Opcode::Ret:
    case Opcode::Exit: case Opcode::Trap: case Opcode::Membar: case Opcode::Fence: case Opcode::Sust:
    case Opcode::Sured: case Opcode::Red: case Opcode::Prefetch: case Opcode::Prefetchu: case Opcode::Cp:
    case Opcode::Stmatrix: case Opcode::Nanosleep: case Opcode::Griddepcontrol: case Opcode::Pmevent:
    case Opcode::Brkpt:
      return false;
    case Opcode::Bar: case Opcode::Barrier:
      return mods.has("red");  // bar.red.popc writes its result; bar.sync writes nothing
    case Opcode::Wmma:
      return !mods.has("store");
    default:
      return true;
  }
}

ValueClass value_class_of(const Modifiers& mods) {
  if (mods.has("f64")) return ValueClass::Fp64;
  return mods.any_of(is_float_type) ? ValueClass::Fp32 : ValueClass::Integer;
}

// The tensor copies (cp.async.bulk.tensor) and cp.reduce.async.bulk are not tracked as copies:
// the timing model sends no accesses for them to complete.
AsyncOp async_op_of(Opcode op, const Modifiers& mods) {
  if (op == Opcode::Mbarrier) return mods.has("test_wait") || mods.has("try_wait") ? AsyncOp::BarrierWait : AsyncOp::None;
  if (op != Opcode::Cp || !mods.has("async") || mods.has("reduce")) return AsyncOp::None;
  if (mods.has("bulk")) {
    if (mods.has("commit_group")) return AsyncOp::BulkCommitGroup;
    if (mods.has("wait_group")) return AsyncOp::BulkWaitGroup;
    if (mods.has("tensor")) return AsyncOp::None;
    if (mods.has("mbarrier::complete_tx::bytes")) return AsyncOp::BulkCopyBarrier;
    if (mods.has("bulk_group")) return AsyncOp::BulkCopyGroup;
    return AsyncOp::None;
  }
  if (mods.has("ca") || mods.has("cg")) return AsyncOp::Copy;
  if (mods.has("commit_group")) return AsyncOp::CommitGroup;
  if (mods.has("wait_group")) return AsyncOp::WaitGroup;
  if (mods.has("wait_all")) return AsyncOp::WaitAll;
  if (mods.has("mbarrier")) return AsyncOp::CopyArrive;
  return AsyncOp::None;
}

}  // namespace

DecodedForm decode_form(std::string_view opcode, const std::vector<std::string>& modifiers) {
  const Modifiers mods(modifiers);
  DecodedForm d;
  d.opcode = opcode_named(opcode);
  d.space = space_of(d.opcode, mods);
  if (d.opcode == Opcode::Cp) d.copy_destination = mods.named_space();
  d.operation = operation_of(d.opcode, d.space);
  d.may_write_global = may_write_global(d.opcode, mods, d.space);
  d.shares_memory = shares_memory(d.opcode, mods, d.space);
  d.orders_memory = d.opcode == Opcode::Membar || d.opcode == Opcode::Fence;
  d.bypasses_l1 = bypasses_l1(d.opcode, mods);
  d.writes_first_operand = writes_first_operand(d.opcode, mods);
  d.value_class = value_class_of(mods);
  d.async = async_op_of(d.opcode, mods);
  return d;
}

}  // namespace lockstep::ir
