#pragma once
// One lexical scope of declared names: single names and register ranges (%r<12> declares
// %r0..%r11). Ranges are never expanded, and every operation costs a few hash lookups
// whatever the number of declarations, so hostile input cannot make checking quadratic.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "ptx/ast.h"

namespace lockstep::ptx {

class DeclScope {
 public:
  enum class Kind : uint8_t { Register, Variable };

  // Declares `decl` (its range, if any); a .reg is a Register, anything else a Variable.
  // Returns the first name that was already declared in this scope, or nullopt. Names are
  // views into `decl`, which must outlive the scope.
  std::optional<std::string> declare(const VariableDecl& decl);
  // Declares a single name (a function, an alias, a parameter-less symbol).
  std::optional<std::string> declare_name(std::string_view name, Kind kind);

  std::optional<Kind> find(std::string_view name) const;

 private:
  struct Range {
    uint32_t count;
    Kind kind;
  };
  // The smallest number n such that some declared name is `stem` + decimal(n), and that name.
  struct Numbered {
    uint64_t value;
    std::string_view name;
  };

  std::optional<std::string> declare_range(std::string_view prefix, uint32_t count, Kind kind);
  static void note(std::unordered_map<std::string_view, Numbered>& index, std::string_view stem,
                   uint64_t value, std::string_view name);

  std::unordered_map<std::string_view, Kind> names_;
  std::unordered_map<std::string_view, Range> ranges_;              // by prefix
  std::unordered_map<std::string_view, Numbered> single_stems_;    // single names split as stem+number
  std::unordered_map<std::string_view, Numbered> range_stems_;     // range prefixes split as stem+digits
};

}  // namespace lockstep::ptx
