#include "ir/lower.h"

#include "ir/kernel_lowering.h"
#include "ir/module_layout.h"

namespace lockstep::ir {

ModuleProgram lower(const ptx::Module& module) {
  ModuleProgram program;
  program.file = module.filename;
  ModuleSymbols symbols;
  symbols.module = &module;
  for (const ptx::VariableDecl& v : module.globals) {
    switch (v.space) {
      case ptx::StateSpace::Global:
      case ptx::StateSpace::Const:
        symbols.globals[v.name] = static_cast<uint32_t>(program.globals.size());
        program.globals.push_back(make_global(v, module.filename));
        break;
      case ptx::StateSpace::Shared:
        symbols.shared[v.name] = &v;
        break;
      default:
        break;  // .tex/.surf/.samplerref references: bound by name when used
    }
  }
  for (const ptx::Function& f : module.functions) {
    auto [it, inserted] = symbols.functions.emplace(f.name, &f);
    if (!inserted && f.has_body) it->second = &f;  // a definition replaces a declaration
    if (inserted) {
      symbols.function_ordinals[f.name] = static_cast<uint32_t>(program.function_names.size());
      program.function_names.push_back(f.name);
    }
  }
  for (const ptx::Function& f : module.functions) {
    if (f.is_entry && f.has_body) program.kernels.push_back(lower_kernel(symbols, f));
  }
  return program;
}

}  // namespace lockstep::ir
