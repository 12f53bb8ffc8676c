#pragma once
// Reading the fat binaries that nvcc embeds in host programs (layout: ../shared/reference/
// fatbin.md): the wrapper passed to __cudaRegisterFatBinary points at a fat binary made of
// entries (PTX text or cubin ELF, per architecture), each possibly zstd- or LZ4-compressed.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace lockstep::runtime {

struct FatbinEntry {
  enum class Kind : uint8_t { Ptx, Elf, Other };
  Kind kind = Kind::Other;
  uint32_t sm = 0;                // architecture number: 75, 80, 90, ...
  uint32_t ptx_major = 0, ptx_minor = 0;
  bool compressed = false;
  std::vector<uint8_t> payload;   // decompressed bytes (PTX: text without trailing NULs)
};

class FatbinError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Parses the fat binary that a __fatBinC_Wrapper_t points to (`wrapper` is the pointer
// __cudaRegisterFatBinary receives). Throws FatbinError on a bad magic, truncated data or a
// payload that fails to decompress. The image's extent comes from its own 16-byte header,
// which is read only after its magic has been checked.
std::vector<FatbinEntry> read_fatbin_wrapper(const void* wrapper);
// A program built with separate compilation (-rdc=true) registers the device-link object's
// wrapper (version 2), whose own fat binary holds only the linked SASS; its
// filename_or_fatbins field lists, null-terminated, the fat binary of every translation unit
// that took part, each with that unit's PTX. Returns those units' entries in list order, or
// nothing for any other wrapper. Throws FatbinError as read_fatbin_wrapper does.
std::vector<std::vector<FatbinEntry>> read_prelinked_fatbins(const void* wrapper);
// Parses a fat binary image (starting with magic 0xBA55ED50) of at most `size` bytes. Fat
// binaries that follow one another (e.g. a whole .nv_fatbin section) are all read; trailing
// zero bytes are taken as padding. No read goes past data + size, whatever the headers say.
// Entries are returned in image order; messages number them from 1 in that order
// ("fat binary entry 2: zstd payload does not decompress (...)").
std::vector<FatbinEntry> read_fatbin(const uint8_t* data, size_t size);

// The code a program loads at run time (cudaLibraryLoadData, cuModuleLoadData), as entries: a
// fat binary image, a fat binary wrapper, a cubin (one Elf entry, which has no PTX to run), or
// NUL-terminated PTX text (one Ptx entry for the sm of its .target; 0 when it names none).
// Throws FatbinError as read_fatbin_wrapper does.
std::vector<FatbinEntry> read_loaded_code(const void* code);

// The PTX entry best suited to a GPU of compute capability `sm`: the highest PTX target that
// is <= sm (the first such entry on a tie). nullopt when there is none: the fat binary
// carries no PTX at all, or PTX only for newer targets than `sm` (PTX for sm_90 cannot run
// on sm_80); the caller tells the user how to rebuild (ptx_targets lists what is there).
std::optional<std::string> select_ptx(const std::vector<FatbinEntry>& entries, uint32_t sm);

// The distinct sm targets of the PTX entries, ascending (empty when there is no PTX).
std::vector<uint32_t> ptx_targets(const std::vector<FatbinEntry>& entries);

}  // namespace lockstep::runtime
