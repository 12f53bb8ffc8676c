// Fat binary walker. Layout facts: reference/fatbin.md section 2. Every size read from the
// image is untrusted: each read is checked against the bytes actually available, so a
// corrupt image ends in a FatbinError, never in a read outside the image.
#include "runtime/fatbin.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "runtime/fatbin_decompress.h"

namespace lockstep::runtime {
namespace {

constexpr uint32_t kWrapperMagic = 0x466243B1;   // __fatBinC_Wrapper_t.magic
constexpr uint32_t kWrapperLinkVersion = 2;      // the device-link object's wrapper (-rdc=true)
constexpr size_t kMaxPrelinkedUnits = 1 << 16;
constexpr uint32_t kFatbinMagic = 0xBA55ED50;
constexpr size_t kFatbinHeaderSize = 16;          // smallest header: magic, version, hsize, size
constexpr size_t kEntryHeaderSize = 0x40;         // smallest entry header: every field we read
constexpr uint64_t kFlagLz4 = 0x2000;
constexpr uint64_t kFlagZstd = 0x8000;
// A garbage uncompressed size must not become a huge allocation; real PTX and cubins of a
// single translation unit stay far below this.
constexpr uint64_t kMaxUncompressedBytes = uint64_t{1} << 30;

template <class T>
T load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);   // unaligned little-endian read (x86-64 host)
  return v;
}

// One entry header, decoded (fields as in reference/fatbin.md, "Entry header").
struct EntryHeader {
  uint16_t kind;
  uint32_t header_size;
  uint64_t payload_size;
  uint32_t compressed_size;
  uint16_t ptx_minor, ptx_major;
  uint32_t sm;
  uint64_t flags;
  uint64_t uncompressed_size;
};

EntryHeader decode_entry_header(const uint8_t* p) {
  return EntryHeader{load<uint16_t>(p), load<uint32_t>(p + 0x04), load<uint64_t>(p + 0x08),
                     load<uint32_t>(p + 0x10), load<uint16_t>(p + 0x18), load<uint16_t>(p + 0x1a),
                     load<uint32_t>(p + 0x1c), load<uint64_t>(p + 0x28), load<uint64_t>(p + 0x38)};
}

FatbinEntry::Kind kind_of(uint16_t kind) {
  switch (kind) {
    case 1: return FatbinEntry::Kind::Ptx;
    case 2: return FatbinEntry::Kind::Elf;
    default: return FatbinEntry::Kind::Other;
  }
}

// Turns the stored payload into the bytes it stands for. `number` is the 1-based entry
// number used in messages.
std::vector<uint8_t> decode_payload(const EntryHeader& h, const uint8_t* payload, size_t number) {
  const bool zstd = (h.flags & kFlagZstd) != 0;
  const bool lz4 = (h.flags & kFlagLz4) != 0;
  if (!zstd && !lz4) return std::vector<uint8_t>(payload, payload + h.payload_size);
  const char* method = zstd ? "zstd" : "LZ4";
  if (zstd && lz4) {
    throw FatbinError(fmt::format("fat binary entry {}: both zstd and LZ4 flags set (flags {:#x})",
                                  number, h.flags));
  }
  if (h.compressed_size == 0 || h.compressed_size > h.payload_size) {
    throw FatbinError(fmt::format(
        "fat binary entry {}: {} compressed size {} does not fit the payload of {} bytes", number,
        method, h.compressed_size, h.payload_size));
  }
  if (h.uncompressed_size > kMaxUncompressedBytes) {
    throw FatbinError(fmt::format(
        "fat binary entry {}: uncompressed size {} exceeds the limit of {} bytes", number,
        h.uncompressed_size, kMaxUncompressedBytes));
  }
  const size_t expected = static_cast<size_t>(h.uncompressed_size);
  detail::Decompressed out =
      zstd ? detail::decompress_zstd(payload, h.compressed_size, expected)
           : detail::decompress_lz4_block(payload, h.compressed_size, expected);
  if (!out.error.empty()) {
    throw FatbinError(fmt::format("fat binary entry {}: {} payload does not decompress ({})",
                                  number, method, out.error));
  }
  return std::move(out.bytes);
}

// Reads the entries in [begin, end) of `image`, appending them to `out`.
void read_entries(const uint8_t* image, size_t begin, size_t end, std::vector<FatbinEntry>& out) {
  size_t at = begin;
  while (at < end) {
    const size_t number = out.size() + 1;
    if (end - at < kEntryHeaderSize) {
      throw FatbinError(fmt::format(
          "fat binary entry {}: header at offset {} runs past the end of the fat binary ({} bytes "
          "left, at least {} needed)", number, at, end - at, kEntryHeaderSize));
    }
    const EntryHeader h = decode_entry_header(image + at);
    if (h.header_size < kEntryHeaderSize || h.header_size > end - at) {
      throw FatbinError(fmt::format(
          "fat binary entry {}: header size {} at offset {} is below {} or past the end of the "
          "fat binary", number, h.header_size, at, kEntryHeaderSize));
    }
    const size_t payload_at = at + h.header_size;
    if (h.payload_size > end - payload_at) {
      throw FatbinError(fmt::format(
          "fat binary entry {}: payload of {} bytes at offset {} runs past the end of the fat "
          "binary ({} bytes left)", number, h.payload_size, payload_at, end - payload_at));
    }
    FatbinEntry e;
    e.kind = kind_of(h.kind);
    e.sm = h.sm;
    if (e.kind == FatbinEntry::Kind::Ptx) {
      e.ptx_major = h.ptx_major;
      e.ptx_minor = h.ptx_minor;
    }
    e.compressed = (h.flags & (kFlagZstd | kFlagLz4)) != 0;
    e.payload = decode_payload(h, image + payload_at, number);
    if (e.kind == FatbinEntry::Kind::Ptx) {
      // The text is stored NUL-terminated and padded to 8 bytes.
      while (!e.payload.empty() && e.payload.back() == 0) e.payload.pop_back();
    }
    out.push_back(std::move(e));
    at = payload_at + static_cast<size_t>(h.payload_size);
  }
}

bool all_zero(const uint8_t* p, size_t n) {
  return std::all_of(p, p + n, [](uint8_t b) { return b == 0; });
}

}  // namespace

std::vector<FatbinEntry> read_fatbin(const uint8_t* data, size_t size) {
  if (data == nullptr) throw FatbinError("fat binary: null image pointer");
  std::vector<FatbinEntry> entries;
  size_t at = 0;
  do {
    if (size - at < kFatbinHeaderSize) {
      throw FatbinError(fmt::format(
          "fat binary: truncated header at offset {} ({} bytes left, {} needed)", at, size - at,
          kFatbinHeaderSize));
    }
    const uint32_t magic = load<uint32_t>(data + at);
    if (magic != kFatbinMagic) {
      throw FatbinError(fmt::format("fat binary: bad magic {:#010x} at offset {} (expected {:#010x})",
                                    magic, at, kFatbinMagic));
    }
    const uint16_t header_size = load<uint16_t>(data + at + 6);
    const uint64_t body_size = load<uint64_t>(data + at + 8);
    if (header_size < kFatbinHeaderSize || header_size > size - at) {
      throw FatbinError(fmt::format(
          "fat binary: header size {} at offset {} is below {} or past the end of the image",
          header_size, at, kFatbinHeaderSize));
    }
    const size_t body_at = at + header_size;
    if (body_size > size - body_at) {
      throw FatbinError(fmt::format(
          "fat binary: {} bytes of entries at offset {} run past the end of the image ({} bytes "
          "left)", body_size, body_at, size - body_at));
    }
    const size_t end = body_at + static_cast<size_t>(body_size);
    read_entries(data, body_at, end, entries);
    at = end;
    // Fat binaries may follow one another (a whole .nv_fatbin section); zero bytes at the
    // end are alignment padding.
  } while (at < size && !all_zero(data + at, size - at));
  return entries;
}

namespace {

// A fat binary image known only by its start: its extent comes from its own header, read only
// after its magic has been checked.
std::vector<FatbinEntry> read_fatbin_image(const uint8_t* data) {
  if (data == nullptr) throw FatbinError("fat binary wrapper: null data pointer");
  const uint32_t fat_magic = load<uint32_t>(data);
  if (fat_magic != kFatbinMagic) {
    throw FatbinError(fmt::format("fat binary: bad magic {:#010x} at offset 0 (expected {:#010x})",
                                  fat_magic, kFatbinMagic));
  }
  const uint16_t header_size = load<uint16_t>(data + 6);
  const uint64_t body_size = load<uint64_t>(data + 8);
  if (body_size > kMaxUncompressedBytes) {
    throw FatbinError(fmt::format("fat binary: implausible size {} in header", body_size));
  }
  return read_fatbin(data, std::max<size_t>(header_size, kFatbinHeaderSize) + body_size);
}

// __fatBinC_Wrapper_t: int magic; int version; const unsigned long long* data; void* filename_or_fatbins.
const uint8_t* checked_wrapper(const void* wrapper) {
  if (wrapper == nullptr) throw FatbinError("fat binary wrapper: null pointer");
  const auto* w = static_cast<const uint8_t*>(wrapper);
  const uint32_t magic = load<uint32_t>(w);
  if (magic != kWrapperMagic) {
    throw FatbinError(fmt::format("fat binary wrapper: bad magic {:#010x} (expected {:#010x})",
                                  magic, kWrapperMagic));
  }
  return w;
}

}  // namespace

std::vector<FatbinEntry> read_fatbin_wrapper(const void* wrapper) {
  return read_fatbin_image(load<const uint8_t*>(checked_wrapper(wrapper) + 8));
}

std::vector<std::vector<FatbinEntry>> read_prelinked_fatbins(const void* wrapper) {
  const uint8_t* w = checked_wrapper(wrapper);
  if (load<uint32_t>(w + 4) != kWrapperLinkVersion) return {};
  const auto* const* list = load<const uint8_t* const*>(w + 16);
  std::vector<std::vector<FatbinEntry>> units;
  // The device-link stub fills the list as each unit registers and ends it with a null; the
  // bound only stops a list that something else overwrote.
  for (size_t i = 0; list != nullptr && list[i] != nullptr; ++i) {
    if (i == kMaxPrelinkedUnits)
      throw FatbinError(fmt::format("fat binary wrapper: more than {} prelinked units", kMaxPrelinkedUnits));
    units.push_back(read_fatbin_image(list[i]));
  }
  return units;
}

std::optional<std::string> select_ptx(const std::vector<FatbinEntry>& entries, uint32_t sm) {
  const FatbinEntry* best = nullptr;
  for (const FatbinEntry& e : entries) {
    if (e.kind != FatbinEntry::Kind::Ptx || e.sm > sm) continue;
    if (best == nullptr || e.sm > best->sm) best = &e;
  }
  if (best == nullptr) return std::nullopt;
  return std::string(best->payload.begin(), best->payload.end());
}

std::vector<uint32_t> ptx_targets(const std::vector<FatbinEntry>& entries) {
  std::vector<uint32_t> targets;
  for (const FatbinEntry& e : entries) {
    if (e.kind == FatbinEntry::Kind::Ptx) targets.push_back(e.sm);
  }
  std::sort(targets.begin(), targets.end());
  targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
  return targets;
}

std::vector<FatbinEntry> read_loaded_code(const void* code) {
  if (code == nullptr) throw FatbinError("no code to load (null pointer)");
  const auto* bytes = static_cast<const uint8_t*>(code);
  const uint32_t magic = load<uint32_t>(bytes);
  if (magic == kFatbinMagic) return read_fatbin_image(bytes);
  if (magic == kWrapperMagic) return read_fatbin_wrapper(code);
  FatbinEntry entry;
  if (std::memcmp(bytes, "\x7f" "ELF", 4) == 0) {
    entry.kind = FatbinEntry::Kind::Elf;
    return {entry};
  }
  const std::string_view text(static_cast<const char*>(code));
  entry.kind = FatbinEntry::Kind::Ptx;
  entry.payload.assign(text.begin(), text.end());
  if (const size_t at = text.find(".target"); at != std::string_view::npos) {
    const size_t sm = text.find("sm_", at);
    if (sm != std::string_view::npos && sm < text.find('\n', at)) entry.sm = static_cast<uint32_t>(std::atoi(text.data() + sm + 3));
  }
  return {entry};
}

}  // namespace lockstep::runtime
