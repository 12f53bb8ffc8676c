#include "ptx/check.h"

#include <string_view>
#include <unordered_map>
#include <vector>

#include "ptx/decl_scope.h"
#include "ptx/special_registers.h"

namespace lockstep::ptx {
namespace {

// Resolves every name used in a module against the declarations visible at the use.
// Module scope: variables, functions, aliases. Function scope: parameters and the body's
// top-level declarations (one scope, so a body variable may not redeclare a parameter).
// Each nested { } opens a scope whose names shadow outer ones. Labels are function-wide.
// Declarations anywhere in a scope are visible in the whole scope, as ptxas allows.
class ModuleChecker {
 public:
  explicit ModuleChecker(const Module& module) : module_(module) {}

  void run() {
    declare_module_names();
    for (const auto& global : module_.globals) check_initializers(global);
    for (const auto& function : module_.functions) {
      if (function.has_body) check_function(function);
    }
  }

 private:
  [[noreturn]] void fail(SourceLoc loc, std::string message) const {
    throw Error(module_.filename, loc, std::move(message));
  }

  void declare_module_names() {
    std::unordered_map<std::string_view, bool> extern_variable;
    for (const auto& global : module_.globals) {
      bool is_extern = global.linkage == "extern";
      auto previous = extern_variable.find(global.name);
      if (previous != extern_variable.end() && (previous->second || is_extern)) continue;
      if (auto clash = module_scope_.declare(global)) fail(global.loc, "duplicate declaration of '" + *clash + "'");
      extern_variable.emplace(global.name, is_extern);
    }
    std::unordered_map<std::string_view, bool> function_has_body;
    for (const auto& function : module_.functions) {
      auto previous = function_has_body.find(function.name);
      if (previous != function_has_body.end()) {
        if (previous->second && function.has_body) fail(function.loc, "duplicate function '" + function.name + "'");
        previous->second = previous->second || function.has_body;
        continue;
      }
      if (module_scope_.declare_name(function.name, DeclScope::Kind::Variable)) {
        fail(function.loc, "duplicate declaration of '" + function.name + "'");
      }
      function_has_body.emplace(function.name, function.has_body);
    }
    for (const auto& alias : module_.aliases) {
      if (module_scope_.declare_name(alias.name, DeclScope::Kind::Variable)) {
        fail(alias.loc, "duplicate declaration of '" + alias.name + "'");
      }
      if (!function_has_body.contains(alias.aliasee)) fail(alias.loc, "undefined function '" + alias.aliasee + "'");
    }
  }

  void check_initializers(const VariableDecl& decl) const {
    for (const auto& init : decl.init) {
      if (init.kind != Initializer::Kind::SymbolAddress) continue;
      if (!module_scope_.find(init.symbol) && !scope_find(init.symbol)) {
        fail(init.loc, "undefined symbol '" + init.symbol + "'");
      }
    }
  }

  void check_function(const Function& function) {
    labels_.clear();
    scopes_.clear();
    scopes_.emplace_back();
    for (const auto* list : {&function.results, &function.params}) {
      for (const auto& param : *list) declare(param);
    }
    collect_labels(function.body);
    check_block(function.body, false);
    scopes_.clear();
  }

  void declare(const VariableDecl& decl) {
    if (auto clash = scopes_.back().declare(decl)) fail(decl.loc, "duplicate declaration of '" + *clash + "'");
  }

  void collect_labels(const Block& block) {
    for (const auto& statement : block.statements) {
      if (const auto* label = std::get_if<Label>(&statement.node)) {
        if (!labels_.emplace(label->name, label->loc).second) {
          fail(label->loc, "duplicate label '" + label->name + "'");
        }
      } else if (const auto* inner = std::get_if<Block>(&statement.node)) {
        collect_labels(*inner);
      }
    }
  }

  // `own_scope` is false for a function body, whose declarations share the parameters' scope.
  void check_block(const Block& block, bool own_scope) {
    if (own_scope) scopes_.emplace_back();
    for (const auto& statement : block.statements) {
      if (const auto* decl = std::get_if<VariableDecl>(&statement.node)) declare(*decl);
    }
    for (const auto& statement : block.statements) {
      if (const auto* decl = std::get_if<VariableDecl>(&statement.node)) {
        check_initializers(*decl);
      } else if (const auto* inst = std::get_if<Instruction>(&statement.node)) {
        check_instruction(*inst);
      } else if (const auto* inner = std::get_if<Block>(&statement.node)) {
        check_block(*inner, true);
      }
    }
    if (own_scope) scopes_.pop_back();
  }

  void check_instruction(const Instruction& inst) const {
    if (!inst.guard.empty()) check_register(inst.guard, inst.loc);
    bool branch = inst.opcode == "bra";
    for (const auto& operand : inst.operands) check_operand(operand, branch);
  }

  void check_operand(const Operand& operand, bool branch) const {
    switch (operand.kind) {
      case Operand::Kind::Register:
        check_register(operand.name, operand.loc);
        break;
      case Operand::Kind::Symbol:
        if (branch) {
          if (!labels_.contains(operand.name)) fail(operand.loc, "undefined label '" + operand.name + "'");
        } else {
          check_symbol(operand.name, operand.loc);
        }
        break;
      case Operand::Kind::Address:
        if (operand.name.empty()) break;
        if (operand.name.front() == '%') {
          check_register(operand.name, operand.loc);
        } else {
          check_symbol(operand.name, operand.loc);
        }
        break;
      default:
        break;
    }
    for (const auto& element : operand.elements) check_operand(element, false);
  }

  void check_register(const std::string& name, SourceLoc loc) const {
    if (is_special_register(name)) return;
    if (scope_find(name) == DeclScope::Kind::Register) return;
    fail(loc, "undefined register '" + name + "'");
  }

  void check_symbol(const std::string& name, SourceLoc loc) const {
    if (scope_find(name) || labels_.contains(name) || module_scope_.find(name)) return;
    fail(loc, "undefined symbol '" + name + "'");
  }

  std::optional<DeclScope::Kind> scope_find(std::string_view name) const {
    for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope) {
      if (auto kind = scope->find(name)) return kind;
    }
    return std::nullopt;
  }

  const Module& module_;
  DeclScope module_scope_;
  std::vector<DeclScope> scopes_;  // innermost last; empty outside functions
  std::unordered_map<std::string_view, SourceLoc> labels_;
};

}  // namespace

void check(const Module& module) { ModuleChecker(module).run(); }

}  // namespace lockstep::ptx
