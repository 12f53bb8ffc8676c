#include "func/ops/memory_operands.h"

#include <algorithm>
#include <array>
#include <string>
#include <utility>

#include "ir/memory_space.h"

namespace lockstep::func::memory {
namespace {

// The space a modifier names, by the one parser of space spellings (ir/memory_space.h).
std::optional<NamedSpace> parse_space(std::string_view m) {
  const std::optional<ir::MemorySpace> space = ir::space_named(m);
  if (!space) return std::nullopt;
  switch (*space) {
    case ir::MemorySpace::Global: return NamedSpace::Global;
    case ir::MemorySpace::Shared: return NamedSpace::Shared;
    case ir::MemorySpace::SharedCluster: return NamedSpace::SharedCluster;
    case ir::MemorySpace::Local: return NamedSpace::Local;
    case ir::MemorySpace::Const: return NamedSpace::Const;
    case ir::MemorySpace::Param: return NamedSpace::Param;
    case ir::MemorySpace::KernelParam: return NamedSpace::KernelParam;
    case ir::MemorySpace::FuncParam: return NamedSpace::FuncParam;
    default: return std::nullopt;
  }
}

// The constant banks of old PTX (.const[2]): a bank's base is not modelled.
bool is_constant_bank(std::string_view m) { return m.starts_with("const["); }

std::optional<ptx::Type> parse_type(std::string_view m) {
  using ptx::Type;
  static constexpr std::array<std::pair<std::string_view, Type>, 20> kTypes{{
      {"b8", Type::B8},         {"b16", Type::B16}, {"b32", Type::B32},     {"b64", Type::B64},
      {"b128", Type::B128},     {"u8", Type::U8},   {"u16", Type::U16},     {"u32", Type::U32},
      {"u64", Type::U64},       {"s8", Type::S8},   {"s16", Type::S16},     {"s32", Type::S32},
      {"s64", Type::S64},       {"f16", Type::F16}, {"f16x2", Type::F16x2}, {"bf16", Type::BF16},
      {"bf16x2", Type::BF16x2}, {"f32", Type::F32}, {"f64", Type::F64},     {"tf32", Type::TF32},
  }};
  for (const auto& [name, type] : kTypes) {
    if (m == name) return type;
  }
  return std::nullopt;
}

std::optional<uint32_t> parse_vector(std::string_view m) {
  if (m == "v2") return 2;
  if (m == "v4") return 4;
  if (m == "v8") return 8;
  return std::nullopt;
}

std::string operand_text(const ir::Instruction& inst, size_t index) {
  return "operand " + std::to_string(index) + " of '" + inst.form() + "'";
}

// Does a symbol of `space` belong to an access that names `named`?
bool space_matches(ir::SymbolSpace space, NamedSpace named) {
  switch (space) {
    case ir::SymbolSpace::Global:
      return named == NamedSpace::Global || named == NamedSpace::Const ||
             named == NamedSpace::Generic;
    case ir::SymbolSpace::Shared:
      return named == NamedSpace::Shared || named == NamedSpace::SharedCluster ||
             named == NamedSpace::Generic;
    case ir::SymbolSpace::Local:
      return named == NamedSpace::Local || named == NamedSpace::Generic;
    case ir::SymbolSpace::KernelParam:
      return named == NamedSpace::Param || named == NamedSpace::KernelParam;
    case ir::SymbolSpace::FrameParam:
      return named == NamedSpace::Param || named == NamedSpace::FuncParam;
    case ir::SymbolSpace::Function:
    case ir::SymbolSpace::Label:
      return false;
  }
  return false;
}

// The space a register or absolute address is interpreted in.
Space space_of(NamedSpace named) {
  switch (named) {
    case NamedSpace::Global:
    case NamedSpace::Const:  // .const variables live in device memory
      return Space::Global;
    case NamedSpace::Shared:
    case NamedSpace::SharedCluster:  // the engine's clusters hold one CTA: its own window
      return Space::Shared;
    case NamedSpace::Local:
      return Space::Local;
    case NamedSpace::Param:
    case NamedSpace::KernelParam:
    case NamedSpace::FuncParam:
      return Space::Param;
    case NamedSpace::Generic:
      return Space::Generic;
  }
  return Space::Generic;
}

}  // namespace

MemoryForm classify(const ir::Instruction& inst, const BindContext& ctx) {
  MemoryForm form;
  bool have_space = false, have_vector = false;
  for (const std::string& m : inst.modifiers) {
    if (is_constant_bank(m)) ctx.unsupported(inst);
    if (auto space = parse_space(m)) {
      if (have_space) ctx.unsupported(inst);
      form.space = *space;
      have_space = true;
    } else if (auto type = parse_type(m)) {
      if (form.type != ptx::Type::None) ctx.unsupported(inst);
      form.type = *type;
    } else if (auto width = parse_vector(m)) {
      if (have_vector) ctx.unsupported(inst);
      form.vector = *width;
      have_vector = true;
    } else if (m == "L2::cache_hint") {
      form.cache_hint = true;
    } else {
      form.rest.push_back(m);
    }
  }
  return form;
}

bool is_ordering(std::string_view m) {
  return m == "weak" || m == "relaxed" || m == "acquire" || m == "release" || m == "acq_rel" ||
         m == "sc" || m == "volatile" || m == "mmio";
}

bool is_scope(std::string_view m) {
  return m == "cta" || m == "cluster" || m == "gpu" || m == "sys";
}

bool is_cache_hint(std::string_view m) {
  static constexpr std::array<std::string_view, 11> kHints{
      "L1::no_allocate", "L1::evict_normal", "L1::evict_unchanged",
      "L1::evict_first", "L1::evict_last",   "L2::evict_normal",
      "L2::evict_first", "L2::evict_last",   "L2::64B",
      "L2::128B",        "L2::256B",
  };
  return std::find(kHints.begin(), kHints.end(), m) != kHints.end();
}

uint32_t type_bytes(ptx::Type type) {
  using ptx::Type;
  switch (type) {
    case Type::B8:
    case Type::U8:
    case Type::S8:
      return 1;
    case Type::B16:
    case Type::U16:
    case Type::S16:
    case Type::F16:
    case Type::BF16:
      return 2;
    case Type::B32:
    case Type::U32:
    case Type::S32:
    case Type::F32:
    case Type::F16x2:
    case Type::BF16x2:
    case Type::TF32:
      return 4;
    case Type::B64:
    case Type::U64:
    case Type::S64:
    case Type::F64:
      return 8;
    case Type::B128:
      return 16;
    default:
      return 0;
  }
}

bool is_signed_int(ptx::Type type) {
  return type == ptx::Type::S8 || type == ptx::Type::S16 || type == ptx::Type::S32 ||
         type == ptx::Type::S64;
}

AddressPlan resolve_address(const ir::Instruction& inst, size_t index, NamedSpace named,
                            bool writes, BindContext& ctx) {
  const ir::Operand& op = inst.operands.at(index);
  if (op.kind != ir::Operand::Kind::Address) {
    ctx.error(op, operand_text(inst, index) + " must be an address");
  }
  AddressPlan plan;
  if (op.has_symbol) {
    const ir::SymbolRef& sym = op.symbol;
    if (!space_matches(sym.space, named)) {
      ctx.error(op, "'" + sym.name + "' is not in the state space of '" + inst.form() + "'");
    }
    uint64_t at = sym.value + static_cast<uint64_t>(op.offset);
    switch (sym.space) {
      case ir::SymbolSpace::Global:
        plan.space = Space::Global;
        at = ctx.global_address(sym) + static_cast<uint64_t>(op.offset);
        break;
      case ir::SymbolSpace::Shared:
        plan.space = Space::Shared;
        break;
      case ir::SymbolSpace::KernelParam:
        if (writes) ctx.error(op, "kernel parameter '" + sym.name + "' cannot be written");
        plan.space = Space::Param;
        break;
      default:  // Local variables and call-frame parameters: per-thread, frame relative
        plan.space = Space::Local;
        plan.frame_relative = true;
        break;
    }
    plan.base_slot = ctx.constant(at);
    return plan;
  }
  plan.space = space_of(named);
  if (plan.space == Space::Param && (writes || named == NamedSpace::FuncParam)) {
    // A register or absolute address into a call frame's parameters has no meaning here.
    ctx.unsupported(inst);
  }
  if (op.base_is_reg) {
    plan.base_slot = op.index;
    plan.offset = op.offset;
  } else {
    plan.base_slot = ctx.constant(static_cast<uint64_t>(op.offset));
  }
  return plan;
}

void store_plan(const AddressPlan& plan, uint32_t slot, ExecInst& e) {
  e.s[slot] = plan.base_slot;
  e.offset = plan.offset;
  e.aux2 = plan.frame_relative ? 1 : 0;
}

std::vector<const ir::Operand*> value_operands(const ir::Instruction& inst, size_t index,
                                               uint32_t n, bool immediate_ok, bool sink_ok,
                                               const BindContext& ctx) {
  const ir::Operand& op = inst.operands.at(index);
  auto acceptable = [&](const ir::Operand& o) {
    switch (o.kind) {
      case ir::Operand::Kind::Reg:
        return true;
      case ir::Operand::Kind::Imm:
      case ir::Operand::Kind::Special:
        return immediate_ok;
      case ir::Operand::Kind::Sink:
        return sink_ok;
      default:
        return false;
    }
  };
  const char* what = immediate_ok ? "register or immediate" : "register";
  std::vector<const ir::Operand*> out;
  if (n == 1) {
    if (!acceptable(op)) ctx.error(op, operand_text(inst, index) + " must be a " + what);
    out.push_back(&op);
    return out;
  }
  if (op.kind != ir::Operand::Kind::Vector || op.elements.size() != n) {
    ctx.error(
        op, operand_text(inst, index) + " must be a vector of " + std::to_string(n) + " elements");
  }
  for (const ir::Operand& e : op.elements) {
    if (!acceptable(e)) {
      ctx.error(e, "elements of " + operand_text(inst, index) + " must be a " + what);
    }
    out.push_back(&e);
  }
  return out;
}

uint64_t register_mask(const ir::Operand& op) {
  if (op.kind != ir::Operand::Kind::Reg) return ~uint64_t{0};
  const uint32_t bytes = type_bytes(op.reg_type);
  if (bytes == 0 || bytes >= 8) return ~uint64_t{0};
  return (uint64_t{1} << (bytes * 8)) - 1;
}

}  // namespace lockstep::func::memory
