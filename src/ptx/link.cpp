#include "ptx/link.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace lockstep::ptx {

namespace {

// How strongly a declaration claims its name, weakest first: a later claim replaces an earlier
// one only when it is stronger; two strong claims are an error.
enum class Claim : uint8_t { Declaration, Common, Weak, Strong };

Claim claim_of(const VariableDecl& v) {
  if (v.linkage == "extern") return Claim::Declaration;
  if (v.linkage == "common") return Claim::Common;
  if (v.linkage == "weak") return Claim::Weak;
  return Claim::Strong;
}

Claim claim_of(const Function& f) {
  if (!f.has_body) return Claim::Declaration;
  return f.linkage == "weak" ? Claim::Weak : Claim::Strong;
}

bool is_internal(const std::string& linkage) { return linkage.empty(); }

// Every name a function declares for itself (parameters, results, locals, registers, labels):
// a use of such a name refers to the local, never to a module-scope name of the same spelling.
void collect_local_names(const Block& block, std::unordered_set<std::string>& names) {
  for (const Statement& s : block.statements) {
    if (const auto* v = std::get_if<VariableDecl>(&s.node)) names.insert(v->name);
    else if (const auto* l = std::get_if<Label>(&s.node)) names.insert(l->name);
    else if (const auto* inner = std::get_if<Block>(&s.node)) collect_local_names(*inner, names);
  }
}

// Renames one unit's internal module-scope names that another unit also uses, and shifts its
// .file indices, in place.
class UnitRewriter {
 public:
  UnitRewriter(std::unordered_map<std::string, std::string> renames, uint32_t file_base)
      : renames_(std::move(renames)), file_base_(file_base) {}

  void rewrite(Module& unit) {
    std::map<uint32_t, std::string> files;
    for (auto& [index, path] : unit.files) files[index + file_base_] = std::move(path);
    unit.files = std::move(files);
    if (renames_.empty() && file_base_ == 0) return;
    for (VariableDecl& v : unit.globals) {
      rename(v.name);
      for (Initializer& init : v.init)
        if (init.kind == Initializer::Kind::SymbolAddress) rename(init.symbol);
    }
    for (Alias& a : unit.aliases) {
      rename(a.name);
      rename(a.aliasee);
    }
    for (Function& f : unit.functions) {
      rename(f.name);
      std::unordered_set<std::string> locals;
      for (const VariableDecl& p : f.params) locals.insert(p.name);
      for (const VariableDecl& r : f.results) locals.insert(r.name);
      collect_local_names(f.body, locals);
      rewrite_block(f.body, locals);
    }
  }

 private:
  void rename(std::string& name) const {
    if (auto it = renames_.find(name); it != renames_.end()) name = it->second;
  }

  void rewrite_operand(Operand& op, const std::unordered_set<std::string>& locals) const {
    if (!op.name.empty() && !locals.contains(op.name)) rename(op.name);
    for (Operand& e : op.elements) rewrite_operand(e, locals);
  }

  void rewrite_block(Block& block, const std::unordered_set<std::string>& locals) const {
    for (Statement& s : block.statements) {
      if (auto* inst = std::get_if<Instruction>(&s.node)) {
        if (inst->debug.file != 0) inst->debug.file += file_base_;
        for (Operand& op : inst->operands) rewrite_operand(op, locals);
      } else if (auto* inner = std::get_if<Block>(&s.node)) {
        rewrite_block(*inner, locals);
      }
    }
  }

  std::unordered_map<std::string, std::string> renames_;
  uint32_t file_base_;
};

// Keeps, for each module-scope name, the strongest declaration seen, in order of first
// appearance.
template <class Decl>
class SymbolMerger {
 public:

  void add(Decl decl, const std::string& unit) {
    const Claim claim = claim_of(decl);
    auto [it, inserted] = index_.emplace(decl.name, kept_.size());
    if (inserted) {
      kept_.push_back(Kept{std::move(decl), claim, unit});
      return;
    }
    Kept& kept = kept_[it->second];
    if (claim == Claim::Strong && kept.claim == Claim::Strong) {
      throw Error(unit, decl.loc, "multiple definition of '" + decl.name + "' (also defined in " + kept.unit + ")");
    }
    if (claim == Claim::Common && kept.claim == Claim::Common) {
      if (common_size(decl) > common_size(kept.decl)) kept.decl = std::move(decl);
      return;
    }
    if (claim > kept.claim) kept = Kept{std::move(decl), claim, unit};
  }

  std::vector<Decl> take() {
    std::vector<Decl> out;
    out.reserve(kept_.size());
    for (Kept& k : kept_) out.push_back(std::move(k.decl));
    return out;
  }

 private:
  struct Kept {
    Decl decl;
    Claim claim;
    std::string unit;
  };

  static uint64_t common_size(const Function&) { return 0; }
  static uint64_t common_size(const VariableDecl& v) {
    uint64_t n = v.vector_width;
    for (uint64_t d : v.dims) n *= std::max<uint64_t>(d, 1);
    return n;
  }

  std::unordered_map<std::string, size_t> index_;
  std::vector<Kept> kept_;
};

// Internal names of unit `i` that another unit also declares at module scope, each with the
// unit-qualified name it takes ('$' cannot start a C++ identifier, so no mangled name clashes).
std::unordered_map<std::string, std::string> internal_renames(
    const std::vector<Module>& units, size_t i, const std::vector<std::multiset<std::string>>& names_per_unit,
    const std::multiset<std::string>& all_names) {
  std::unordered_map<std::string, std::string> renames;
  auto consider = [&](const std::string& name, const std::string& linkage) {
    if (!is_internal(linkage)) return;
    if (all_names.count(name) == names_per_unit[i].count(name)) return;  // no other unit uses it
    renames.emplace(name, name + "$unit" + std::to_string(i));
  };
  for (const VariableDecl& v : units[i].globals) consider(v.name, v.linkage);
  for (const Function& f : units[i].functions) consider(f.name, f.linkage);
  return renames;
}

}  // namespace

Module link(std::vector<Module> units, std::string filename) {
  Module out;
  out.filename = std::move(filename);
  if (units.empty()) return out;
  out.target = units.front().target;
  out.address_size = units.front().address_size;

  std::vector<std::multiset<std::string>> names_per_unit(units.size());
  std::multiset<std::string> all_names;
  for (size_t i = 0; i < units.size(); ++i) {
    std::set<std::string> unique;  // a prototype and its definition are one name
    for (const VariableDecl& v : units[i].globals) unique.insert(v.name);
    for (const Function& f : units[i].functions) unique.insert(f.name);
    for (const Alias& a : units[i].aliases) unique.insert(a.name);
    names_per_unit[i].insert(unique.begin(), unique.end());
    all_names.insert(unique.begin(), unique.end());
  }

  SymbolMerger<VariableDecl> globals;
  SymbolMerger<Function> functions;
  uint32_t file_base = 0;
  for (size_t i = 0; i < units.size(); ++i) {
    Module& unit = units[i];
    UnitRewriter(internal_renames(units, i, names_per_unit, all_names), file_base).rewrite(unit);
    file_base = unit.files.empty() ? file_base : unit.files.rbegin()->first;
    out.files.merge(unit.files);
    if (std::tie(unit.version_major, unit.version_minor) > std::tie(out.version_major, out.version_minor)) {
      out.version_major = unit.version_major;
      out.version_minor = unit.version_minor;
    }
    for (VariableDecl& v : unit.globals) globals.add(std::move(v), unit.filename);
    for (Function& f : unit.functions) functions.add(std::move(f), unit.filename);
    for (Alias& a : unit.aliases) out.aliases.push_back(std::move(a));
  }
  out.globals = globals.take();
  out.functions = functions.take();
  return out;
}

}  // namespace lockstep::ptx
