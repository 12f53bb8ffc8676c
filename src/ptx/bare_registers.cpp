// mark_bare_registers (parser_impl.h): inline-asm scopes declare registers without '%'
// (`.reg .f16 low;`), which the grammar cannot tell from symbol names. After a body is
// parsed, names that resolve to a visible .reg declaration become Register operands.
#include <string_view>
#include <vector>

#include "ptx/decl_scope.h"
#include "ptx/parser_impl.h"

namespace lockstep::ptx {
namespace {

class BareRegisterMarker {
 public:
  // Declaration clashes are check()'s business; here only visibility matters.
  void add_scope(const std::vector<const VariableDecl*>& decls) {
    DeclScope& scope = scopes_.emplace_back();
    for (const VariableDecl* decl : decls) scope.declare(*decl);
  }

  void visit(Block& block) {
    std::vector<const VariableDecl*> decls;
    for (const auto& statement : block.statements) {
      if (const auto* decl = std::get_if<VariableDecl>(&statement.node)) decls.push_back(decl);
    }
    add_scope(decls);
    for (auto& statement : block.statements) {
      if (auto* inst = std::get_if<Instruction>(&statement.node)) {
        for (auto& operand : inst->operands) mark(operand);
      } else if (auto* inner = std::get_if<Block>(&statement.node)) {
        visit(*inner);
      }
    }
    scopes_.pop_back();
  }

 private:
  // The innermost declaration of `name` decides, so a non-register may shadow a register.
  bool is_register(std::string_view name) const {
    for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope) {
      if (auto kind = scope->find(name)) return *kind == DeclScope::Kind::Register;
    }
    return false;
  }

  void mark(Operand& operand) {
    if (operand.kind == Operand::Kind::Symbol && is_register(operand.name)) {
      operand.kind = Operand::Kind::Register;
    }
    for (auto& element : operand.elements) mark(element);
  }

  std::vector<DeclScope> scopes_;
};

}  // namespace

void mark_bare_registers(Function& function) {
  BareRegisterMarker marker;
  std::vector<const VariableDecl*> params;
  for (const auto& decl : function.results) params.push_back(&decl);
  for (const auto& decl : function.params) params.push_back(&decl);
  marker.add_scope(params);
  marker.visit(function.body);
}

}  // namespace lockstep::ptx
