#pragma once
// Builds the smallest valid PTX module around one census example instruction: it declares
// every register, label, parameter, variable and function the instruction names (see
// census_operands.h for how each name is recognised) and places the instruction in a kernel,
// or in a .func that a kernel calls when the instruction writes the function's own result.
#include <cstdint>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/census_operands.h"

namespace lockstep::test::census {

struct CensusForm {
  std::string form;     // "ld.global.nc.f32"
  std::string example;  // the instruction as nvcc emitted it, without ';'
};

// The tab-separated census table; '#' lines are comments.
inline std::vector<CensusForm> read_census_forms(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::vector<CensusForm> forms;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line.front() == '#') continue;
    const size_t tab = line.find('\t');
    if (tab == std::string::npos) throw std::runtime_error("census line without a tab: " + line);
    forms.push_back({line.substr(0, tab), line.substr(tab + 1)});
  }
  return forms;
}

struct SynthesizedModule {
  std::string text;
  uint32_t example_line = 0;  // 1-based line of the example instruction
  uint32_t example_col = 0;   // 1-based column where its opcode starts
};

// Prototypes of the functions the CUDA runtime supplies (.extern .func without a body, as
// nvcc declares them); any other callee gets a small .func definition.
struct CalleePrototype {
  std::string_view name;
  std::vector<std::string_view> results, params;  // .param types
};
inline const std::vector<CalleePrototype>& runtime_functions() {
  static const std::vector<CalleePrototype> kFunctions = {
      {"vprintf", {"b32"}, {"b64", "b64"}},
      {"__assertfail", {}, {"b64", "b64", "b32", "b64", "b64"}},
  };
  return kFunctions;
}

namespace detail {

// Everything the example needs declared, gathered from its name uses.
struct Requirements {
  std::map<std::string_view, uint32_t> register_counts;      // family prefix -> <count>
  std::map<std::string_view, std::string_view> family_types;  // family prefix -> type
  std::map<std::string, std::string> named_registers;        // %SP, %temp -> type
  std::map<std::string, std::string> bare_registers;         // low, __$temp3 -> type
  std::map<uint32_t, std::string> kernel_params;             // index -> type
  std::string kernel_param_prefix;
  std::map<std::string, std::string> call_params;            // param0 / retval0 -> type
  std::map<std::string, std::string> function_results;       // func_retval0 -> type
  std::vector<std::string> labels;
  std::set<std::string> local_arrays;                        // __local_depot0
  std::map<std::string, std::string> module_variables;       // name -> state space
  std::string callee;
  std::vector<std::string> call_results, call_args;
};

inline std::string param_type(const std::string& type) { return "b" + std::to_string(type_bytes(type) * 8); }

inline void note_call(Requirements& req, const std::vector<NameUse>& uses) {
  for (const NameUse& use : uses) {
    if (!use.in_call_list) req.callee = use.name;
    else if (use.operand == 0) req.call_results.push_back(use.name);
    else req.call_args.push_back(use.name);
  }
  const CalleePrototype* proto = nullptr;
  for (const auto& f : runtime_functions())
    if (f.name == req.callee) proto = &f;
  for (size_t i = 0; i < req.call_results.size(); ++i)
    req.call_params[req.call_results[i]] = proto && i < proto->results.size() ? std::string(proto->results[i]) : "b32";
  for (size_t i = 0; i < req.call_args.size(); ++i)
    req.call_params[req.call_args[i]] = proto && i < proto->params.size() ? std::string(proto->params[i]) : "b64";
}

inline void note_name(Requirements& req, const ExampleInstruction& inst, const NameUse& use) {
  const std::string& name = use.name;
  const std::string type = operand_type(inst, use);
  if (name.front() == '%') {
    if (is_special_register(name)) return;
    if (auto numbered = numbered_register(name)) {
      uint32_t& count = req.register_counts[numbered->first.prefix];
      count = std::max(count, numbered->second + 1);
      req.family_types[numbered->first.prefix] = numbered->first.type;
    } else {
      // The stack pointers of a local-memory frame are always 64-bit.
      const bool stack_pointer = name == "%SP" || name == "%SPL";
      req.named_registers.emplace(name, stack_pointer ? "b64" : register_decl_type(type));
    }
  } else if (inst.opcode == "bra") {
    req.labels.push_back(name);
  } else if (auto index = kernel_param_index(name)) {
    req.kernel_params[*index] = param_type(type);
    req.kernel_param_prefix = name.substr(0, name.rfind("_param_"));
  } else if (name.starts_with("func_retval")) {
    req.function_results[name] = param_type(type);
  } else if (is_call_scope_param(name)) {
    req.call_params.emplace(name, param_type(type));
  } else if (name.starts_with("__local_depot")) {
    req.local_arrays.insert(name);
  } else if (use.in_address) {
    bool constant = false;
    for (const auto& m : inst.modifiers) constant = constant || m == "const";
    req.module_variables[name] = constant ? "const" : "global";
  } else {
    req.bare_registers.emplace(name, register_decl_type(type));
  }
}

inline Requirements gather(const ExampleInstruction& inst) {
  Requirements req;
  const std::vector<NameUse> uses = scan_names(inst.operands);
  if (inst.opcode == "call") {
    note_call(req, uses);
    return req;
  }
  for (const NameUse& use : uses) note_name(req, inst, use);
  return req;
}

// Appends text line by line so that the example's line number is known exactly.
class ModuleText {
 public:
  void line(const std::string& text) {
    text_ += text;
    text_ += '\n';
    ++lines_;
  }
  uint32_t next_line() const { return lines_ + 1; }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
  uint32_t lines_ = 0;
};

inline std::string callee_params(std::string_view callee, const std::vector<std::string_view>& types) {
  std::string out;
  for (size_t i = 0; i < types.size(); ++i)
    out += (i ? ", " : "") + std::string(".param .") + std::string(types[i]) + " " + std::string(callee) +
           "_param_" + std::to_string(i);
  return out;
}

// .extern prototype of a runtime function, or a definition of a user function that takes the
// call's arguments and results (all as .b64 / .b32, matching the call scope's declarations).
inline void emit_callee(ModuleText& out, const Requirements& req) {
  if (req.callee.empty()) return;
  for (const auto& f : runtime_functions()) {
    if (f.name != req.callee) continue;
    std::string results = f.results.empty() ? "" : "(.param ." + std::string(f.results[0]) + " func_retval0) ";
    out.line(".extern .func " + results + req.callee + "(" + callee_params(f.name, f.params) + ");");
    return;
  }
  std::vector<std::string_view> params(req.call_args.size(), "b64");
  std::string results = req.call_results.empty() ? "" : "(.param .b32 func_retval0) ";
  out.line(".func " + results + req.callee + "(" + callee_params(req.callee, params) + ")");
  out.line("{");
  out.line("  ret;");
  out.line("}");
}

// Register and local declarations, then the example in its own { } scope (as inline asm and
// call sequences are), then the labels it branches to, then ret.
inline void emit_body(ModuleText& out, const Requirements& req, const std::string& example,
                      SynthesizedModule& module) {
  for (const auto& [prefix, count] : req.register_counts)
    out.line("  .reg ." + std::string(req.family_types.at(prefix)) + " " + std::string(prefix) + "<" +
             std::to_string(count) + ">;");
  for (const auto& [name, type] : req.named_registers) out.line("  .reg ." + type + " " + name + ";");
  for (const auto& name : req.local_arrays) out.line("  .local .align 16 .b8 " + name + "[256];");
  out.line("  {");
  for (const auto& [name, type] : req.bare_registers) out.line("  .reg ." + type + " " + name + ";");
  for (const auto& [name, type] : req.call_params) out.line("  .param ." + type + " " + name + ";");
  module.example_line = out.next_line();
  module.example_col = 3;
  out.line("  " + example + ";");
  out.line("  }");
  for (const auto& label : req.labels) out.line(label + ":");
  out.line("  ret;");
}

}  // namespace detail

inline SynthesizedModule synthesize_module(const CensusForm& form) {
  const ExampleInstruction inst = split_example(form.example);
  const detail::Requirements req = detail::gather(inst);
  SynthesizedModule module;
  detail::ModuleText out;
  out.line(".version 9.0");
  out.line(".target sm_90");
  out.line(".address_size 64");
  detail::emit_callee(out, req);
  for (const auto& [name, space] : req.module_variables) out.line("." + space + " .align 16 .b8 " + name + "[256];");

  std::string kernel_params;
  if (!req.kernel_params.empty()) {
    const uint32_t count = req.kernel_params.rbegin()->first + 1;
    for (uint32_t i = 0; i < count; ++i) {
      auto it = req.kernel_params.find(i);
      kernel_params += (i ? ", " : "") + std::string(".param .") + (it == req.kernel_params.end() ? "b64" : it->second) +
                       " " + req.kernel_param_prefix + "_param_" + std::to_string(i);
    }
  }
  if (req.function_results.empty()) {
    out.line(".visible .entry census_kernel(" + kernel_params + ")");
    out.line("{");
    detail::emit_body(out, req, form.example, module);
    out.line("}");
  } else {
    // The example writes a function result: it lives in a .func that the kernel calls.
    const auto& [result, type] = *req.function_results.begin();
    out.line(".func (.param ." + type + " " + result + ") census_function()");
    out.line("{");
    detail::emit_body(out, req, form.example, module);
    out.line("}");
    out.line(".visible .entry census_kernel(" + kernel_params + ")");
    out.line("{");
    out.line("  {");
    out.line("  .param ." + type + " retval0;");
    out.line("  call.uni (retval0), census_function, ();");
    out.line("  }");
    out.line("  ret;");
    out.line("}");
  }
  module.text = out.text();
  return module;
}

}  // namespace lockstep::test::census
