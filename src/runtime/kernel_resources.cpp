// Reading kernel resources from a cubin. What nvcc 13 writes (checked against `ptxas -v` for
// sm_75, 80, 86, 89, 90, 100 and 120 on kernels with 4 to 152 registers and 0 to 48 KiB of
// static shared memory):
// - every kernel is a FUNC symbol whose st_other has bit 0x10 (an entry; device functions lack it);
// - the .nv.info section holds EIATTR_REGCOUNT (0x2f) attributes: { symbol index, registers }.
//   The register count also sits in the top byte of the .text.<name> section's sh_info up to
//   sm_89, but is 0 there from sm_90 on, so the attribute is the source;
// - static shared memory is the size of the NOBITS section .nv.shared.<name>, absent when the
//   kernel has none. From sm_90 on that section also holds a 1 KiB system-reserved region
//   (the section is 1024 bytes larger than ptxas's "smem", or exactly 1024 for a kernel with
//   none), which the occupancy model counts separately, so it is taken off.
#include "runtime/kernel_resources.h"

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "fmt/format.h"

namespace lockstep::runtime {

std::string_view resource_source_name(KernelResources::Source source) {
  switch (source) {
    case KernelResources::Source::Cubin: return "cubin";
    case KernelResources::Source::Ptxas: return "ptxas";
    case KernelResources::Source::Estimate: return "estimate";
  }
  return "estimate";
}

namespace {

constexpr uint16_t kMachineCuda = 190;       // EM_CUDA
constexpr uint32_t kSectionSymtab = 2;       // SHT_SYMTAB
constexpr uint32_t kSectionNobits = 8;       // SHT_NOBITS
constexpr uint8_t kSymbolFunc = 2;           // STT_FUNC
constexpr uint8_t kSymbolEntry = 0x10;       // st_other bit of a kernel entry
constexpr uint8_t kAttrFormatNoValue = 1;    // EIFMT_NVAL: 4-byte record, no payload
constexpr uint8_t kAttrFormatByte = 2;       // EIFMT_BVAL: value in the 16-bit field
constexpr uint8_t kAttrFormatHalf = 3;       // EIFMT_HVAL: value in the 16-bit field
constexpr uint8_t kAttrFormatSized = 4;      // EIFMT_SVAL: 16-bit size, then that many bytes
constexpr uint8_t kAttrRegcount = 0x2f;      // EIATTR_REGCOUNT
constexpr uint32_t kReservedSharedFromSm90 = 1024;

[[noreturn]] void malformed(const std::string& why) { throw std::runtime_error("malformed cubin: " + why); }

// Bounds-checked little-endian reads from the image.
class Image {
 public:
  explicit Image(std::span<const uint8_t> bytes) : bytes_(bytes) {}
  size_t size() const { return bytes_.size(); }
  bool holds(uint64_t offset, uint64_t length) const {
    return offset <= bytes_.size() && length <= bytes_.size() - offset;
  }
  template <typename T>
  T read(uint64_t offset) const {
    if (!holds(offset, sizeof(T))) malformed(fmt::format("read of {} bytes at offset {} past the image end ({} bytes)", sizeof(T), offset, size()));
    T value;
    std::memcpy(&value, bytes_.data() + offset, sizeof(T));
    return value;
  }
  // The NUL-terminated string at `offset` inside [begin, begin + length).
  std::string string_at(uint64_t begin, uint64_t length, uint64_t offset, std::string_view table) const {
    if (offset >= length) malformed(fmt::format("name offset {} is outside {} ({} bytes)", offset, table, length));
    const uint8_t* first = bytes_.data() + begin + offset;
    const void* nul = std::memchr(first, 0, length - offset);
    if (nul == nullptr) malformed(fmt::format("name at offset {} in {} has no terminating NUL", offset, table));
    return std::string(reinterpret_cast<const char*>(first), static_cast<size_t>(static_cast<const uint8_t*>(nul) - first));
  }

 private:
  std::span<const uint8_t> bytes_;
};

struct Section {
  std::string name;
  uint32_t type = 0;
  uint64_t offset = 0, size = 0;
  uint32_t link = 0, info = 0;
  uint64_t entry_size = 0;
};

std::vector<Section> read_sections(const Image& image) {
  const uint64_t table = image.read<uint64_t>(0x28);       // e_shoff
  const uint16_t entry_size = image.read<uint16_t>(0x3a);  // e_shentsize
  const uint16_t count = image.read<uint16_t>(0x3c);       // e_shnum
  const uint16_t names_index = image.read<uint16_t>(0x3e); // e_shstrndx
  if (entry_size < 64) malformed(fmt::format("section header size {} is below 64", entry_size));
  if (!image.holds(table, uint64_t{entry_size} * count))
    malformed(fmt::format("section header table ({} entries at offset {}) runs past the image end ({} bytes)", count,
                          table, image.size()));
  if (names_index >= count) malformed(fmt::format("section name table index {} is not below the section count {}", names_index, count));
  std::vector<Section> sections(count);
  for (uint16_t i = 0; i < count; ++i) {
    const uint64_t header = table + uint64_t{entry_size} * i;
    Section& s = sections[i];
    s.type = image.read<uint32_t>(header + 4);
    s.offset = image.read<uint64_t>(header + 0x18);
    s.size = image.read<uint64_t>(header + 0x20);
    s.link = image.read<uint32_t>(header + 0x28);
    s.info = image.read<uint32_t>(header + 0x2c);
    s.entry_size = image.read<uint64_t>(header + 0x38);
    if (s.type != kSectionNobits && !image.holds(s.offset, s.size))
      malformed(fmt::format("section {} ({} bytes at offset {}) runs past the image end ({} bytes)", i, s.size, s.offset,
                            image.size()));
  }
  const Section& names = sections[names_index];
  if (names.type == kSectionNobits) malformed("the section name table has no contents");
  for (uint16_t i = 0; i < count; ++i) {
    const uint32_t name = image.read<uint32_t>(table + uint64_t{entry_size} * i);
    sections[i].name = image.string_at(names.offset, names.size, name, "the section name table");
  }
  return sections;
}

struct Kernel {
  std::string name;
  uint16_t section = 0;  // st_shndx: its .text.<name> section
};

// Kernel entries by symbol index.
std::unordered_map<uint32_t, Kernel> read_kernels(const Image& image, const std::vector<Section>& sections) {
  std::unordered_map<uint32_t, Kernel> kernels;
  for (const Section& symtab : sections) {
    if (symtab.type != kSectionSymtab) continue;
    if (symtab.entry_size != 24) malformed(fmt::format("symbol table entry size {} is not 24", symtab.entry_size));
    if (symtab.link >= sections.size() || sections[symtab.link].type == kSectionNobits)
      malformed(fmt::format("symbol table names section {}, which does not exist", symtab.link));
    const Section& strings = sections[symtab.link];
    for (uint64_t index = 0; index < symtab.size / 24; ++index) {
      const uint64_t entry = symtab.offset + index * 24;
      const uint8_t info = image.read<uint8_t>(entry + 4);
      const uint8_t other = image.read<uint8_t>(entry + 5);
      if ((info & 0xf) != kSymbolFunc || (other & kSymbolEntry) == 0) continue;
      Kernel k;
      k.name = image.string_at(strings.offset, strings.size, image.read<uint32_t>(entry), "the symbol name table");
      k.section = image.read<uint16_t>(entry + 6);
      kernels.emplace(static_cast<uint32_t>(index), std::move(k));
    }
  }
  return kernels;
}

// EIATTR_REGCOUNT of the module-wide .nv.info section: symbol index -> registers.
std::unordered_map<uint32_t, uint32_t> read_register_counts(const Image& image, const std::vector<Section>& sections) {
  std::unordered_map<uint32_t, uint32_t> counts;
  for (const Section& s : sections) {
    if (s.name != ".nv.info" || s.type == kSectionNobits) continue;
    uint64_t at = 0;
    while (at + 4 <= s.size) {
      const uint8_t format = image.read<uint8_t>(s.offset + at);
      const uint8_t attribute = image.read<uint8_t>(s.offset + at + 1);
      const uint16_t value = image.read<uint16_t>(s.offset + at + 2);
      if (format == kAttrFormatNoValue || format == kAttrFormatByte || format == kAttrFormatHalf) {
        at += 4;
        continue;
      }
      if (format != kAttrFormatSized)
        malformed(fmt::format("attribute 0x{:x} at offset {} of .nv.info has unknown format {}", attribute, at, format));
      if (value > s.size - at - 4)
        malformed(fmt::format("attribute 0x{:x} at offset {} of .nv.info runs past the section end", attribute, at));
      if (attribute == kAttrRegcount) {
        if (value != 8) malformed(fmt::format("EIATTR_REGCOUNT at offset {} of .nv.info has {} bytes, not 8", at, value));
        counts[image.read<uint32_t>(s.offset + at + 4)] = image.read<uint32_t>(s.offset + at + 8);
      }
      at += 4 + uint64_t{value};
    }
  }
  return counts;
}

// e_flags carries the SASS target: bits 8-15 in the ABI version 8 that CUDA 13 writes, the
// low byte in older ones.
uint32_t target_sm(const Image& image) {
  const uint32_t flags = image.read<uint32_t>(0x30);
  return image.read<uint8_t>(8) >= 8 ? (flags >> 8) & 0xff : flags & 0xff;
}

}  // namespace

std::map<std::string, KernelResources> read_cubin_resources(std::span<const uint8_t> elf) {
  const Image image(elf);
  if (elf.size() < 64) malformed(fmt::format("{} bytes, too short for an ELF64 header (64 bytes)", elf.size()));
  if (std::memcmp(elf.data(), "\x7f" "ELF", 4) != 0) malformed("no ELF magic");
  if (elf[4] != 2 || elf[5] != 1) malformed("not a little-endian ELF64 image");
  if (const uint16_t machine = image.read<uint16_t>(0x12); machine != kMachineCuda)
    malformed(fmt::format("machine {} is not CUDA ({})", machine, kMachineCuda));

  const std::vector<Section> sections = read_sections(image);
  const std::unordered_map<uint32_t, Kernel> kernels = read_kernels(image, sections);
  const std::unordered_map<uint32_t, uint32_t> registers = read_register_counts(image, sections);
  const uint32_t reserved_shared = target_sm(image) >= 90 ? kReservedSharedFromSm90 : 0;

  std::unordered_map<std::string_view, const Section*> by_name;
  for (const Section& s : sections) by_name.emplace(s.name, &s);

  std::map<std::string, KernelResources> result;
  for (const auto& [index, kernel] : kernels) {
    KernelResources r;
    r.source = KernelResources::Source::Cubin;
    if (auto it = registers.find(index); it != registers.end()) {
      r.registers = it->second;
    } else if (kernel.section < sections.size()) {
      r.registers = sections[kernel.section].info >> 24;  // the pre-sm_90 copy
    }
    if (auto it = by_name.find(".nv.shared." + kernel.name); it != by_name.end()) {
      const uint64_t size = it->second->size > reserved_shared ? it->second->size - reserved_shared : 0;
      if (size > UINT32_MAX) malformed(fmt::format("shared memory of {} is {} bytes", kernel.name, size));
      r.static_shared = static_cast<uint32_t>(size);
    }
    result.emplace(kernel.name, r);
  }
  return result;
}

}  // namespace lockstep::runtime
