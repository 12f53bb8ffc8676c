#pragma once
// What `lockstep run` checks about a CUDA program before starting it: that it exists, and how
// it links the CUDA runtime (only a dynamically linked libcudart can be replaced).
#include <string>
#include <vector>

namespace lockstep::tool {

struct ProgramLinkage {
  bool readable_elf = false;
  std::vector<std::string> needed;   // DT_NEEDED entries
  bool needs_cudart = false;         // NEEDs libcudart.so.13 or libcudart.so.12
  bool static_cudart = false;        // carries the runtime itself (nvcc's default -cudart static)
};

// Reads the ELF file's dynamic section and symbol table. A program is taken to link the
// runtime statically when it does not NEED libcudart and defines cudaMalloc or
// __cudaRegisterFatBinary, names libcudart_static, or carries a .nv_fatbin section.
ProgramLinkage inspect_program(const std::string& path);

}  // namespace lockstep::tool
