#pragma once
// The GPU the drop-in runtime reports to programs (cudaGetDeviceProperties,
// cudaDeviceGetAttribute). One immutable preset: an H100-like part.
#include <cstdint>
#include <driver_types.h>

namespace lockstep::runtime {

struct DevicePreset {
  const char* name = "lockstep H100 (simulated)";
  uint32_t sm = 90;                       // compute capability major*10 + minor
  uint32_t multiprocessors = 132;
  uint32_t threads_per_sm = 2048;
  uint32_t blocks_per_sm = 32;
  uint32_t registers_per_sm = 65536;
  uint32_t registers_per_block = 65536;
  uint32_t shared_per_sm = 228 * 1024;
  uint32_t shared_per_block = 48 * 1024;           // default limit without opt-in
  uint32_t shared_per_block_optin = 227 * 1024;
  uint32_t clock_khz = 1755000;
  uint64_t global_memory = 80ull << 30;
  uint32_t l2_bytes = 50 * 1024 * 1024;
  uint32_t memory_clock_khz = 2619000;
  uint32_t memory_bus_width = 5120;
  uint64_t constant_memory = 64 * 1024;
};

// Fills every field of `prop` from the preset; warp_size comes from the engine options.
void fill_properties(const DevicePreset& preset, uint32_t warp_size, cudaDeviceProp& prop);
// The value of one attribute; false for attributes the preset does not describe.
bool device_attribute(const DevicePreset& preset, uint32_t warp_size, cudaDeviceAttr attr, int& value);

}  // namespace lockstep::runtime
