#include "program_check.h"

#include <elf.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <string_view>

namespace lockstep::tool {

namespace {

// Bounds-checked view of the file's bytes.
class Bytes {
 public:
  explicit Bytes(std::vector<char> data) : data_(std::move(data)) {}
  template <class T>
  bool read(uint64_t offset, T& out) const {
    if (offset > data_.size() || sizeof(T) > data_.size() - offset) return false;
    std::memcpy(&out, data_.data() + offset, sizeof(T));
    return true;
  }
  std::string_view string_at(uint64_t offset) const {
    if (offset >= data_.size()) return {};
    const char* s = data_.data() + offset;
    return std::string_view(s, strnlen(s, data_.size() - offset));
  }
  bool contains(std::string_view needle) const {
    return std::string_view(data_.data(), data_.size()).find(needle) != std::string_view::npos;
  }

 private:
  std::vector<char> data_;
};

std::vector<Elf64_Shdr> section_headers(const Bytes& b, const Elf64_Ehdr& eh) {
  std::vector<Elf64_Shdr> sections(eh.e_shnum);
  for (uint32_t i = 0; i < eh.e_shnum; ++i)
    if (!b.read(eh.e_shoff + uint64_t{i} * sizeof(Elf64_Shdr), sections[i])) return {};
  return sections;
}

void read_needed(const Bytes& b, const std::vector<Elf64_Shdr>& sections, ProgramLinkage& out) {
  for (const Elf64_Shdr& s : sections) {
    if (s.sh_type != SHT_DYNAMIC || s.sh_link >= sections.size()) continue;
    const Elf64_Shdr& strtab = sections[s.sh_link];
    for (uint64_t off = s.sh_offset; off + sizeof(Elf64_Dyn) <= s.sh_offset + s.sh_size; off += sizeof(Elf64_Dyn)) {
      Elf64_Dyn d;
      if (!b.read(off, d) || d.d_tag == DT_NULL) break;
      if (d.d_tag == DT_NEEDED) out.needed.emplace_back(b.string_at(strtab.sh_offset + d.d_un.d_val));
    }
  }
}

bool defines_runtime_symbol(const Bytes& b, const std::vector<Elf64_Shdr>& sections) {
  for (const Elf64_Shdr& s : sections) {
    if (s.sh_type != SHT_SYMTAB || s.sh_link >= sections.size()) continue;
    const Elf64_Shdr& strtab = sections[s.sh_link];
    for (uint64_t off = s.sh_offset; off + sizeof(Elf64_Sym) <= s.sh_offset + s.sh_size; off += sizeof(Elf64_Sym)) {
      Elf64_Sym sym;
      if (!b.read(off, sym)) break;
      if (sym.st_shndx == SHN_UNDEF) continue;
      const std::string_view name = b.string_at(strtab.sh_offset + sym.st_name);
      if (name == "cudaMalloc" || name == "__cudaRegisterFatBinary") return true;
    }
  }
  return false;
}

bool has_section(const Bytes& b, const Elf64_Ehdr& eh, const std::vector<Elf64_Shdr>& sections,
                 std::string_view wanted) {
  if (eh.e_shstrndx >= sections.size()) return false;
  for (const Elf64_Shdr& s : sections)
    if (b.string_at(sections[eh.e_shstrndx].sh_offset + s.sh_name) == wanted) return true;
  return false;
}

}  // namespace

ProgramLinkage inspect_program(const std::string& path) {
  ProgramLinkage out;
  std::ifstream in(path, std::ios::binary);
  if (!in) return out;
  const Bytes b(std::vector<char>(std::istreambuf_iterator<char>(in), {}));
  Elf64_Ehdr eh;
  if (!b.read(0, eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64)
    return out;
  out.readable_elf = true;
  const std::vector<Elf64_Shdr> sections = section_headers(b, eh);
  read_needed(b, sections, out);
  for (const std::string& n : out.needed)
    if (n == "libcudart.so.13" || n == "libcudart.so.12") out.needs_cudart = true;
  out.static_cudart = !out.needs_cudart && (defines_runtime_symbol(b, sections) || b.contains("libcudart_static") ||
                                            has_section(b, eh, sections, ".nv_fatbin"));
  return out;
}

}  // namespace lockstep::tool
