#include "ir/kernel_lowering.h"

#include <algorithm>
#include <deque>

#include "ir/module_layout.h"
#include "ir/special_regs.h"
#include "ir/types.h"

namespace lockstep::ir {

namespace {

uint32_t align_up(uint32_t value, uint32_t align) { return (value + align - 1) / align * align; }

// What a name means inside a function scope.
struct Binding {
  enum class Kind : uint8_t { Reg, Pred, Symbol } kind = Kind::Reg;
  uint32_t index = 0;
  ptx::Type type = ptx::Type::None;
  SymbolRef symbol;
};

class KernelLowering {
 public:
  KernelLowering(const ModuleSymbols& symbols, const ptx::Function& kernel)
      : symbols_(symbols), file_(symbols.module->filename) {
    program_.name = kernel.name;
    program_.file = file_;
    program_.hints = kernel.hints;
    function_order_.push_back(&kernel);
    function_index_[kernel.name] = 0;
  }

  // The kernel's name, hints and parameter layout alone (for a kernel that cannot be lowered).
  KernelProgram signature() {
    layout_kernel_params(*function_order_[0]);
    return std::move(program_);
  }

  KernelProgram run() {
    layout_kernel_params(*function_order_[0]);
    collect_reachable();
    layout_shared();
    program_.functions.resize(function_order_.size());
    for (uint32_t i = 0; i < function_order_.size(); ++i) lower_function(i);
    patch_labels();
    program_.slot_count = next_slot_;
    program_.pred_count = next_pred_;
    compute_reconvergence(program_);
    compute_frame_depth(program_);
    return std::move(program_);
  }

 private:
  [[noreturn]] void error(ptx::SourceLoc loc, const std::string& message) const {
    throw ptx::Error(file_, loc, message);
  }

  // ---- kernel parameters -------------------------------------------------------------
  void layout_kernel_params(const ptx::Function& kernel) {
    uint32_t offset = 0;
    for (const ptx::VariableDecl& p : kernel.params) {
      const uint32_t align = variable_align(p);
      offset = align_up(offset, align);
      const auto size = static_cast<uint32_t>(variable_size(p));
      program_.params.push_back({p.name, offset, size, align});
      offset += size;
    }
    program_.param_buffer_size = offset;
  }

  // ---- call graph ----------------------------------------------------------------------
  static void for_each_instruction(const ptx::Block& block, auto&& f) {
    for (const ptx::Statement& s : block.statements) {
      if (auto* inst = std::get_if<ptx::Instruction>(&s.node)) f(*inst);
      else if (auto* inner = std::get_if<ptx::Block>(&s.node)) for_each_instruction(*inner, f);
    }
  }

  static void for_each_name(const ptx::Operand& op, auto&& f) {
    if (op.kind == ptx::Operand::Kind::Symbol || op.kind == ptx::Operand::Kind::Address) f(op.name);
    for (const ptx::Operand& e : op.elements) for_each_name(e, f);
  }

  static bool is_indirect_call(const ptx::Instruction& inst) {
    if (inst.opcode != "call" || inst.operands.empty()) return false;
    const size_t callee = inst.operands[0].kind == ptx::Operand::Kind::Vector ? 1 : 0;
    return callee < inst.operands.size() && inst.operands[callee].kind == ptx::Operand::Kind::Register;
  }

  // Functions the kernel can reach by name; with a call through a register, every function of
  // the module, since its targets are only known at run time.
  // The kernel itself and the functions it may call; other kernels appear only by address.
  bool has_lowered_body(size_t index) const {
    const ptx::Function* f = function_order_[index];
    return f->has_body && (index == 0 || !f->is_entry);
  }

  void collect_reachable() {
    for (size_t i = 0; i < function_order_.size(); ++i) {
      const ptx::Function* f = function_order_[i];
      if (!has_lowered_body(i)) continue;
      for_each_instruction(f->body, [&](const ptx::Instruction& inst) {
        if (is_indirect_call(inst) && !program_.indirect_calls) {
          program_.indirect_calls = true;
          for (const auto& [name, fn] : symbols_.functions)
            if (!fn->is_entry && function_index_.emplace(name, function_order_.size()).second)
              function_order_.push_back(fn);
        }
        for (const ptx::Operand& op : inst.operands) {
          for_each_name(op, [&](const std::string& name) {
            if (auto it = symbols_.functions.find(name); it != symbols_.functions.end()) {
              // Another kernel is named only for its address (a device-side launch): it gets an
              // entry here, without its body.
              if (function_index_.emplace(name, function_order_.size()).second)
                function_order_.push_back(it->second);
            } else if (symbols_.shared.count(name)) {
              used_module_shared_.insert(name);
            }
          });
        }
      });
    }
  }

  // Static shared variables of the module (those used) and of every reachable function body,
  // then the dynamic (.extern) region after them.
  void layout_shared() {
    uint32_t offset = 0;
    uint32_t extern_align = 16;
    auto place = [&](const ptx::VariableDecl& v) -> uint32_t {
      if (v.linkage == "extern" || (!v.dims.empty() && v.dims.back() == 0 && !v.has_init)) {
        extern_align = std::max(extern_align, variable_align(v));
        program_.uses_dynamic_shared = true;
        return ~0u;  // patched below
      }
      offset = align_up(offset, variable_align(v));
      const uint32_t at = offset;
      offset += static_cast<uint32_t>(variable_size(v));
      return at;
    };
    for (const auto& [name, decl] : symbols_.shared) {
      if (used_module_shared_.count(name)) shared_offsets_[decl] = place(*decl);
    }
    for (size_t i = 0; i < function_order_.size(); ++i)
      if (has_lowered_body(i)) collect_body_shared(function_order_[i]->body, place);
    program_.static_shared_size = offset;
    program_.dynamic_shared_align = extern_align;
    const uint32_t dynamic_base = align_up(offset, extern_align);
    for (auto& [decl, at] : shared_offsets_)
      if (at == ~0u) at = dynamic_base;
  }

  void collect_body_shared(const ptx::Block& block, auto&& place) {
    for (const ptx::Statement& s : block.statements) {
      if (auto* v = std::get_if<ptx::VariableDecl>(&s.node)) {
        if (v->space == ptx::StateSpace::Shared) shared_offsets_[v] = place(*v);
      } else if (auto* inner = std::get_if<ptx::Block>(&s.node)) {
        collect_body_shared(*inner, place);
      }
    }
  }

  // ---- functions -----------------------------------------------------------------------
  void lower_function(uint32_t index) {
    const ptx::Function& f = *function_order_[index];
    Function& out = program_.functions[index];
    out.name = f.name;
    out.is_entry = f.is_entry && index == 0;
    out.is_extern = !has_lowered_body(index);
    out.module_ordinal = symbols_.function_ordinals.at(f.name);
    current_function_ = index;
    frame_size_ = 0;
    scopes_.clear();
    labels_.clear();
    scopes_.emplace_back();

    if (index != 0) {
      for (const ptx::VariableDecl& r : f.results) out.results.push_back(frame_param(r));
      for (const ptx::VariableDecl& p : f.params) out.params.push_back(frame_param(p));
    } else {
      for (const ParamSlot& p : program_.params)
        scopes_.back()[p.name] = symbol_binding(SymbolSpace::KernelParam, p.offset, p.name, p.size);
    }
    if (!has_lowered_body(index)) {
      out.frame_size = align_up(frame_size_, 16);
      return;
    }
    out.first_slot = next_slot_;
    out.first_pred = next_pred_;
    out.entry = static_cast<Pc>(program_.code.size());
    lower_block(f.body, /*new_scope=*/false);

    Instruction exit;
    exit.opcode = "$exit";
    exit.decoded = decode_form(exit.opcode, exit.modifiers);
    exit.loc = f.body.statements.empty() ? f.loc : last_loc_;
    exit.function = index;
    out.exit = static_cast<Pc>(program_.code.size());
    program_.code.push_back(exit);
    for (Pc pc = out.entry; pc < out.exit; ++pc) {
      Instruction& inst = program_.code[pc];
      if (inst.decoded.opcode == Opcode::Ret) inst.target = out.exit;
    }
    for (const auto& [name, pc] : labels_) {
      program_.labels.emplace_back(f.is_entry ? name : f.name + "::" + name, pc);
      function_labels_[index][name] = pc;
    }
    out.slot_count = next_slot_ - out.first_slot;
    out.pred_count = next_pred_ - out.first_pred;
    out.frame_size = align_up(frame_size_, 16);
  }

  ParamSlot frame_param(const ptx::VariableDecl& p) {
    const uint32_t align = variable_align(p);
    frame_size_ = align_up(frame_size_, align);
    ParamSlot slot{p.name, frame_size_, static_cast<uint32_t>(variable_size(p)), align};
    frame_size_ += slot.size;
    scopes_.back()[p.name] = symbol_binding(SymbolSpace::FrameParam, slot.offset, p.name, slot.size);
    return slot;
  }

  static Binding symbol_binding(SymbolSpace space, uint64_t value, const std::string& name,
                                uint64_t size) {
    Binding b;
    b.kind = Binding::Kind::Symbol;
    b.symbol.space = space;
    b.symbol.value = value;
    b.symbol.name = name;
    b.symbol.size = size;
    return b;
  }

  void declare(const ptx::VariableDecl& v) {
    auto& scope = scopes_.back();
    switch (v.space) {
      case ptx::StateSpace::Reg: {
        if (v.vector_width != 1)
          error(v.loc, "vector register '" + v.name + "' (.reg .v" + std::to_string(v.vector_width) +
                           ") is not supported");
        const bool is_pred = v.type == ptx::Type::Pred;
        auto bind = [&](const std::string& name) {
          Binding b;
          b.kind = is_pred ? Binding::Kind::Pred : Binding::Kind::Reg;
          b.index = is_pred ? next_pred_++ : next_slot_++;
          b.type = v.type;
          scope[name] = b;
        };
        if (v.range == 0) bind(v.name);
        else
          for (uint32_t i = 0; i < v.range; ++i) bind(v.name + std::to_string(i));
        break;
      }
      case ptx::StateSpace::Local:
      case ptx::StateSpace::Param: {
        const uint32_t align = variable_align(v);
        frame_size_ = align_up(frame_size_, align);
        scope[v.name] = symbol_binding(
            v.space == ptx::StateSpace::Local ? SymbolSpace::Local : SymbolSpace::FrameParam,
            frame_size_, v.name, variable_size(v));
        frame_size_ += static_cast<uint32_t>(variable_size(v));
        break;
      }
      case ptx::StateSpace::Shared:
        scope[v.name] = symbol_binding(SymbolSpace::Shared, shared_offsets_.at(&v), v.name, variable_size(v));
        break;
      default:
        error(v.loc, "variables in this state space are not supported inside a function");
    }
  }

  void lower_block(const ptx::Block& block, bool new_scope) {
    if (new_scope) scopes_.emplace_back();
    for (const ptx::Statement& s : block.statements)
      if (auto* v = std::get_if<ptx::VariableDecl>(&s.node)) declare(*v);
    for (const ptx::Statement& s : block.statements) {
      if (auto* inst = std::get_if<ptx::Instruction>(&s.node)) {
        lower_instruction(*inst);
      } else if (auto* label = std::get_if<ptx::Label>(&s.node)) {
        if (!labels_.emplace(label->name, static_cast<Pc>(program_.code.size())).second)
          error(label->loc, "duplicate label '" + label->name + "'");
      } else if (auto* inner = std::get_if<ptx::Block>(&s.node)) {
        lower_block(*inner, true);
      }
    }
    if (new_scope) scopes_.pop_back();
  }

  const Binding* find(const std::string& name) const {
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it)
      if (auto b = it->find(name); b != it->end()) return &b->second;
    return nullptr;
  }

  void lower_instruction(const ptx::Instruction& in) {
    Instruction out;
    out.loc = in.loc;
    out.debug = in.debug;
    out.opcode = in.opcode;
    out.modifiers = in.modifiers;
    out.decoded = decode_form(out.opcode, out.modifiers);
    out.function = current_function_;
    last_loc_ = in.loc;
    if (!in.guard.empty()) {
      const Binding* b = find(in.guard);
      if (b == nullptr || b->kind != Binding::Kind::Pred)
        error(in.loc, "undefined predicate '" + in.guard + "'");
      out.has_guard = true;
      out.guard = b->index;
      out.guard_negated = in.guard_negated;
    }
    const Pc pc = static_cast<Pc>(program_.code.size());
    for (size_t i = 0; i < in.operands.size(); ++i)
      out.operands.push_back(lower_operand(in.operands[i], pc, i));
    if (out.decoded.opcode == Opcode::Bra || out.decoded.opcode == Opcode::Brx) {
      if (!out.operands.empty() && out.operands[0].kind == Operand::Kind::Symbol &&
          out.operands[0].symbol.space == SymbolSpace::Label)
        pending_targets_.push_back({pc, current_function_, in.operands[0].name, in.operands[0].loc});
    }
    program_.code.push_back(std::move(out));
  }

  Operand lower_operand(const ptx::Operand& in, Pc pc, size_t position) {
    Operand out;
    out.loc = in.loc;
    out.negated = in.negated;
    using K = ptx::Operand::Kind;
    switch (in.kind) {
      case K::Register:
        lower_register(in, out);
        break;
      case K::Immediate:
        out.kind = Operand::Kind::Imm;
        out.imm = static_cast<uint64_t>(in.int_value);
        break;
      case K::FloatImmediate:
        out.kind = Operand::Kind::Imm;
        out.imm = in.bits;
        out.is_float = true;
        out.is_f64 = in.is_f64;
        break;
      case K::Symbol:
        out.kind = Operand::Kind::Symbol;
        out.has_symbol = true;
        out.symbol = resolve_symbol(in, pc, position);
        break;
      case K::Address:
        out.kind = Operand::Kind::Address;
        out.offset = in.int_value;
        if (!in.name.empty()) {
          const Binding* b = find(in.name);
          if (b != nullptr && b->kind == Binding::Kind::Reg) {
            out.base_is_reg = true;
            out.index = b->index;
            out.reg_type = b->type;
          } else {
            out.has_symbol = true;
            out.symbol = resolve_symbol(in, pc, position);
          }
        }
        for (const ptx::Operand& e : in.elements) out.elements.push_back(lower_operand(e, pc, position));
        break;
      case K::Vector:
      case K::Pair:
        out.kind = Operand::Kind::Vector;
        out.is_pair = in.kind == K::Pair;
        for (const ptx::Operand& e : in.elements) out.elements.push_back(lower_operand(e, pc, position));
        break;
      case K::Sink:
        out.kind = Operand::Kind::Sink;
        break;
    }
    return out;
  }

  void lower_register(const ptx::Operand& in, Operand& out) {
    std::string base = in.name;
    std::string component = in.component;
    if (component.empty()) {
      if (const size_t dot = base.find('.'); dot != std::string::npos) {
        component = base.substr(dot + 1);
        base = base.substr(0, dot);
      }
    }
    if (component.empty()) {
      if (const Binding* b = find(base)) {
        if (b->kind == Binding::Kind::Symbol) {  // a variable name used as a value
          out.kind = Operand::Kind::Symbol;
          out.has_symbol = true;
          out.symbol = b->symbol;
          return;
        }
        out.kind = b->kind == Binding::Kind::Pred ? Operand::Kind::Pred : Operand::Kind::Reg;
        out.index = b->index;
        out.reg_type = b->type;
        return;
      }
    }
    if (auto special = lookup_special(base, component)) {
      out.kind = Operand::Kind::Special;
      out.special = special->reg;
      out.index = special->index;
      return;
    }
    if (symbols_.globals.count(in.name) || symbols_.shared.count(in.name) ||
        symbols_.functions.count(in.name)) {
      ptx::Operand as_symbol = in;
      as_symbol.kind = ptx::Operand::Kind::Symbol;
      out.kind = Operand::Kind::Symbol;
      out.has_symbol = true;
      out.symbol = resolve_symbol(as_symbol, 0, 0);
      return;
    }
    error(in.loc, "undefined register '" + in.name + (in.component.empty() ? "" : "." + in.component) + "'");
  }

  SymbolRef resolve_symbol(const ptx::Operand& in, Pc, size_t) {
    if (const Binding* b = find(in.name)) {
      if (b->kind == Binding::Kind::Symbol) return b->symbol;
    }
    SymbolRef ref;
    ref.name = in.name;
    if (auto it = symbols_.globals.find(in.name); it != symbols_.globals.end()) {
      ref.space = SymbolSpace::Global;
      ref.global = it->second;
      return ref;
    }
    if (auto it = symbols_.shared.find(in.name); it != symbols_.shared.end()) {
      ref.space = SymbolSpace::Shared;
      ref.value = shared_offsets_.at(it->second);
      return ref;
    }
    if (auto it = function_index_.find(in.name); it != function_index_.end()) {
      ref.space = SymbolSpace::Function;
      ref.value = it->second;
      return ref;
    }
    ref.space = SymbolSpace::Label;  // resolved when the function is complete
    return ref;
  }

  void patch_labels() {
    for (const PendingTarget& t : pending_targets_) {
      const auto& labels = function_labels_[t.function];
      auto it = labels.find(t.label);
      if (it == labels.end()) error(t.loc, "undefined label '" + t.label + "'");
      Instruction& inst = program_.code[t.pc];
      inst.target = it->second;
      inst.operands[0].symbol.value = it->second;
    }
  }

  struct PendingTarget {
    Pc pc;
    uint32_t function;
    std::string label;
    ptx::SourceLoc loc;
  };

  const ModuleSymbols& symbols_;
  std::string file_;
  KernelProgram program_;
  std::vector<const ptx::Function*> function_order_;
  std::map<std::string, uint32_t, std::less<>> function_index_;
  std::set<std::string> used_module_shared_;
  std::map<const ptx::VariableDecl*, uint32_t> shared_offsets_;
  std::vector<std::map<std::string, Binding>> scopes_;
  std::map<std::string, Pc> labels_;
  std::map<uint32_t, std::map<std::string, Pc>> function_labels_;
  std::vector<PendingTarget> pending_targets_;
  uint32_t current_function_ = 0;
  uint32_t frame_size_ = 0;
  uint32_t next_slot_ = 0;
  uint32_t next_pred_ = 0;
  ptx::SourceLoc last_loc_;
};

}  // namespace

KernelProgram lower_kernel(const ModuleSymbols& symbols, const ptx::Function& kernel) {
  try {
    return KernelLowering(symbols, kernel).run();
  } catch (const ptx::Error& e) {
    // Only this kernel is lost: keep its signature (the runtime registers every kernel by its
    // parameters) and the reason, which binding it raises again.
    KernelProgram program = KernelLowering(symbols, kernel).signature();
    program.lowering_error = LoweringError{e.file(), e.loc(), e.message()};
    return program;
  }
}

}  // namespace lockstep::ir
