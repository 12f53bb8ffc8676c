#include "ptx/decl_scope.h"

namespace lockstep::ptx {
namespace {

// Calls fn(stem, value) for each way of writing `name` as stem + a number of at most 10
// digits without leading zeros ("%r12" -> ("%r", 12), ("%r1", 2)).
template <typename Fn>
void for_each_numbered_split(std::string_view name, Fn&& fn) {
  size_t digits_start = name.size();
  while (digits_start > 0 && name[digits_start - 1] >= '0' && name[digits_start - 1] <= '9') --digits_start;
  size_t first = name.size() - digits_start > 10 ? name.size() - 10 : digits_start;
  for (size_t split = first; split < name.size(); ++split) {
    std::string_view digits = name.substr(split);
    if (digits.size() > 1 && digits[0] == '0') continue;
    uint64_t value = 0;
    for (char c : digits) value = value * 10 + static_cast<uint64_t>(c - '0');
    fn(name.substr(0, split), value);
  }
}

}  // namespace

void DeclScope::note(std::unordered_map<std::string_view, Numbered>& index, std::string_view stem,
                     uint64_t value, std::string_view name) {
  auto [entry, inserted] = index.try_emplace(stem, Numbered{value, name});
  if (!inserted && value < entry->second.value) entry->second = {value, name};
}

std::optional<std::string> DeclScope::declare(const VariableDecl& decl) {
  Kind kind = decl.space == StateSpace::Reg ? Kind::Register : Kind::Variable;
  if (decl.range > 0) return declare_range(decl.name, decl.range, kind);
  return declare_name(decl.name, kind);
}

std::optional<std::string> DeclScope::declare_name(std::string_view name, Kind kind) {
  if (find(name)) return std::string(name);
  names_.emplace(name, kind);
  for_each_numbered_split(name, [&](std::string_view stem, uint64_t value) { note(single_stems_, stem, value, name); });
  return std::nullopt;
}

// P<c> and Q<d> with Q = P + s (s digits, no leading zero) share a name iff Q0 is in P<c>,
// i.e. s*10 < c: s followed by the digit 0 is the smallest number P's side can be asked for.
std::optional<std::string> DeclScope::declare_range(std::string_view prefix, uint32_t count, Kind kind) {
  std::string first_name = std::string(prefix) + "0";
  if (ranges_.contains(prefix)) return first_name;
  if (auto longer = range_stems_.find(prefix); longer != range_stems_.end() && longer->second.value * 10 < count) {
    return std::string(longer->second.name) + "0";
  }
  std::optional<std::string> clash;
  for_each_numbered_split(prefix, [&](std::string_view stem, uint64_t value) {
    auto shorter = ranges_.find(stem);
    bool leading_zero = prefix[stem.size()] == '0';
    if (!clash && !leading_zero && shorter != ranges_.end() && value * 10 < shorter->second.count) clash = first_name;
  });
  if (clash) return clash;
  if (auto single = single_stems_.find(prefix); single != single_stems_.end() && single->second.value < count) {
    return std::string(single->second.name);
  }
  ranges_.emplace(prefix, Range{count, kind});
  for_each_numbered_split(prefix, [&](std::string_view stem, uint64_t value) {
    if (prefix[stem.size()] != '0') note(range_stems_, stem, value, prefix);
  });
  return std::nullopt;
}

std::optional<DeclScope::Kind> DeclScope::find(std::string_view name) const {
  if (auto found = names_.find(name); found != names_.end()) return found->second;
  std::optional<Kind> kind;
  for_each_numbered_split(name, [&](std::string_view stem, uint64_t value) {
    auto range = ranges_.find(stem);
    if (!kind && range != ranges_.end() && value < range->second.count) kind = range->second.kind;
  });
  return kind;
}

}  // namespace lockstep::ptx
