#pragma once
// The real per-thread register count and static shared memory of a program's kernels, which
// the occupancy model needs (PTX virtual registers say nothing about either). Two exact
// sources: the cubin (SASS ELF) nvcc put in the fat binary for the modelled GPU, or ptxas run
// on the PTX for it. When neither is there, the caller estimates.
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace lockstep::runtime {

struct KernelResources {
  uint32_t registers = 0;       // per thread
  uint32_t static_shared = 0;   // bytes, as `ptxas -v` reports "smem" (no system-reserved part)
  enum class Source : uint8_t { Cubin, Ptxas, Estimate } source = Source::Estimate;
};

// "cubin", "ptxas", "estimate".
std::string_view resource_source_name(KernelResources::Source source);

// Per-kernel figures read from a cubin (CUDA ELF64) image: kernel mangled name -> resources.
// Registers come from the EIATTR_REGCOUNT attributes of the .nv.info section, static shared
// memory from the size of the kernel's .nv.shared.<name> section, less the 1 KiB that sm_90
// and newer cubins reserve there for the system. Throws std::runtime_error ("malformed cubin:
// ...") on an image that is not a well-formed CUDA ELF; never reads outside `elf`.
std::map<std::string, KernelResources> read_cubin_resources(std::span<const uint8_t> elf);

// Runs `ptxas -v --gpu-name sm_<sm>` on PTX text and reads its report. nullopt, never an
// exception, when ptxas is not on PATH, fails (e.g. PTX for a newer target), or sm < 75
// (CUDA 13's ptxas knows nothing older).
// `relocatable`: the PTX is one unit of a program built with -rdc=true (ptxas -c).
std::optional<std::map<std::string, KernelResources>> ptxas_resources(std::string_view ptx, uint32_t sm,
                                                                      bool relocatable = false);

// Reads the report `ptxas -v` writes on stderr: per "Compiling entry function '<name>'" line,
// the "Used N registers, ... M bytes smem ..." line that follows it. Exposed for tests.
std::map<std::string, KernelResources> parse_ptxas_report(std::string_view report);

}  // namespace lockstep::runtime
