#pragma once
// Reads the names an example PTX instruction uses and decides what each one must be declared
// as, so that census_module.h can build a module around the instruction. Everything is
// driven by the instruction's tokens: where a name stands (address, vector, call list, d|p
// pair, operand position) and what the opcode and its type modifiers say about it.
#include <cctype>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lockstep::test::census {

// One occurrence of a name in the operand text.
struct NameUse {
  std::string name;
  size_t operand = 0;         // index of the top-level (comma separated) operand
  bool in_address = false;    // inside [ ]
  bool in_vector = false;     // inside { }
  size_t vector_size = 0;     // element count of the enclosing { }
  bool in_call_list = false;  // inside ( )
  bool pair_second = false;   // the p of d|p
};

// The instruction split into opcode form, modifiers and operand text.
struct ExampleInstruction {
  std::string form;                    // "ld.global.nc.f32"
  std::string opcode;                  // "ld"
  std::vector<std::string> modifiers;  // {"global", "nc", "f32"}
  std::string operands;                // everything after the form
};

inline ExampleInstruction split_example(std::string_view example) {
  ExampleInstruction inst;
  size_t end = 0;
  while (end < example.size() && !std::isspace(static_cast<unsigned char>(example[end]))) ++end;
  inst.form = std::string(example.substr(0, end));
  inst.operands = std::string(example.substr(end));
  size_t start = 0;
  for (size_t dot = inst.form.find('.'); ; dot = inst.form.find('.', start)) {
    std::string part = inst.form.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (start == 0) inst.opcode = part; else inst.modifiers.push_back(part);
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return inst;
}

inline bool is_name_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%';
}
inline bool is_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$';
}

// Walks the operand text once, tracking brackets, and records every name with its context.
// Numbers (42, 0f3F800000, 0d...) are skipped whole, so their hex digits are never names.
inline std::vector<NameUse> scan_names(const std::string& text) {
  std::vector<NameUse> uses;
  size_t operand = 0;
  int square = 0, paren = 0;
  size_t brace_start = std::string::npos;  // start of the current { } (for its element count)
  bool after_pipe = false;
  auto count_elements = [&](size_t open) {
    size_t n = 1;
    for (size_t k = open + 1; k < text.size() && text[k] != '}'; ++k) n += text[k] == ',';
    return n;
  };
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '[') ++square;
    else if (c == ']') --square;
    else if (c == '(') ++paren;
    else if (c == ')') --paren;
    else if (c == '{') brace_start = i;
    else if (c == '}') brace_start = std::string::npos;
    else if (c == '|') after_pipe = true;
    else if (c == ',' && square == 0 && paren == 0 && brace_start == std::string::npos) {
      ++operand;
      after_pipe = false;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      while (i < text.size() && is_name_char(text[i])) ++i;
      continue;
    }
    if (!is_name_start(c)) {
      ++i;
      continue;
    }
    size_t end = i + 1;
    while (end < text.size() && is_name_char(text[end])) ++end;
    // A special register's component (%tid.x) belongs to the name.
    if (c == '%' && end + 1 < text.size() && text[end] == '.' && std::isalpha(static_cast<unsigned char>(text[end + 1]))) {
      end += 2;
      while (end < text.size() && is_name_char(text[end])) ++end;
    }
    NameUse use;
    use.name = text.substr(i, end - i);
    use.operand = operand;
    use.in_address = square > 0;
    use.in_vector = brace_start != std::string::npos;
    use.vector_size = use.in_vector ? count_elements(brace_start) : 0;
    use.in_call_list = paren > 0;
    use.pair_second = after_pipe;
    uses.push_back(std::move(use));
    i = end;
  }
  return uses;
}

inline bool is_type_modifier(std::string_view m) {
  static constexpr std::string_view kTypes[] = {
      "pred", "b8",  "b16", "b32", "b64", "b128", "u8",   "u16",    "u32", "u64", "s8",
      "s16",  "s32", "s64", "f16", "f16x2", "bf16", "bf16x2", "tf32", "f32", "f64"};
  for (std::string_view t : kTypes)
    if (t == m) return true;
  return false;
}

inline std::vector<std::string> type_modifiers(const ExampleInstruction& inst) {
  std::vector<std::string> types;
  for (const auto& m : inst.modifiers)
    if (is_type_modifier(m)) types.push_back(m);
  return types;
}

// Size in bytes of a PTX type name (pred counts as 1, as a .param would need).
inline uint32_t type_bytes(std::string_view t) {
  if (t == "pred" || t.ends_with("8")) return 1;
  if (t == "f16" || t == "bf16" || t.ends_with("16")) return 2;
  if (t.ends_with("x2") || t == "tf32" || t.ends_with("32")) return 4;
  if (t.ends_with("64")) return 8;
  if (t.ends_with("128")) return 16;
  return 4;
}

// The PTX type a register in this position holds, from the instruction's type modifiers:
// setp/selp predicates, set/cvt destination vs source types, d|p pairs, and the halves of a
// mov pack/unpack vector ({%r2, %temp} of mov.b64 are two .b32).
inline std::string operand_type(const ExampleInstruction& inst, const NameUse& use) {
  const std::vector<std::string> types = type_modifiers(inst);
  if (use.pair_second) return "pred";
  if (inst.opcode == "setp" && use.operand == 0) return "pred";
  if (inst.opcode == "selp" && use.operand == 3) return "pred";
  if (types.empty()) return "b32";
  if ((inst.opcode == "set" || inst.opcode == "cvt") && types.size() >= 2)
    return use.operand == 0 ? types[0] : types[1];
  if (inst.opcode == "mov" && use.in_vector && use.vector_size > 1)
    return "b" + std::to_string(type_bytes(types.back()) * 8 / use.vector_size);
  return types.back();
}

// How a register of that type is declared. Packed and tf32 values live in .b32 registers and
// bf16 in .b16 ones, as the CUDA headers' inline asm declares them.
inline std::string register_decl_type(std::string_view type) {
  if (type == "f16x2" || type == "bf16x2" || type == "tf32") return "b32";
  if (type == "bf16") return "b16";
  return std::string(type);
}

// Names the nvcc numbering scheme reserves: %r<N>, %rd<N>, ... with their declared types.
struct RegisterFamily {
  std::string_view prefix;
  std::string_view type;
};
inline constexpr RegisterFamily kRegisterFamilies[] = {
    {"%rd", "b64"}, {"%rs", "b16"}, {"%r", "b32"}, {"%fd", "f64"}, {"%f", "f32"}, {"%p", "pred"}};

// The family and number of a numbered register (%rd12 -> {%rd, 12}).
inline std::optional<std::pair<RegisterFamily, uint32_t>> numbered_register(std::string_view name) {
  for (const RegisterFamily& family : kRegisterFamilies) {
    if (!name.starts_with(family.prefix) || name.size() == family.prefix.size()) continue;
    std::string_view digits = name.substr(family.prefix.size());
    bool all_digits = true;
    for (char d : digits) all_digits = all_digits && std::isdigit(static_cast<unsigned char>(d));
    if (all_digits) return std::make_pair(family, static_cast<uint32_t>(std::stoul(std::string(digits))));
  }
  return std::nullopt;
}

inline bool is_special_register(std::string_view name) {
  static constexpr std::string_view kSpecials[] = {
      "%tid", "%ntid", "%ctaid", "%nctaid", "%laneid", "%warpid", "%nwarpid", "%smid", "%nsmid",
      "%gridid", "%clock", "%clock64", "%globaltimer", "%dynamic_smem_size", "%total_smem_size"};
  const std::string_view base = name.substr(0, name.find('.'));
  for (std::string_view s : kSpecials)
    if (s == base) return true;
  return base.starts_with("%envreg") || base.starts_with("%lanemask_") || base.starts_with("%cluster");
}

// "<anything>_param_<N>" -> N (kernel parameters as nvcc names them).
inline std::optional<uint32_t> kernel_param_index(std::string_view name) {
  const size_t at = name.rfind("_param_");
  if (at == std::string_view::npos || at + 7 >= name.size()) return std::nullopt;
  std::string_view digits = name.substr(at + 7);
  for (char d : digits)
    if (!std::isdigit(static_cast<unsigned char>(d))) return std::nullopt;
  return static_cast<uint32_t>(std::stoul(std::string(digits)));
}

// param<N> / retval<N>: the .param variables of a call sequence scope.
inline bool is_call_scope_param(std::string_view name) {
  for (std::string_view prefix : {std::string_view("param"), std::string_view("retval")}) {
    if (!name.starts_with(prefix) || name.size() == prefix.size()) continue;
    bool digits = true;
    for (char d : name.substr(prefix.size())) digits = digits && std::isdigit(static_cast<unsigned char>(d));
    if (digits) return true;
  }
  return false;
}

}  // namespace lockstep::test::census
