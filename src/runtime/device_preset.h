#pragma once
// The GPU the drop-in runtime reports to programs (cudaGetDeviceProperties,
// cudaDeviceGetAttribute): a view of the modelled GPU's configuration (config::GpuConfig) in
// the units CUDA reports.
#include <cstdint>
#include <string>

#include <driver_types.h>

#include "config/gpu_config.h"

namespace lockstep::runtime {

struct DevicePreset {
  std::string name;                    // "lockstep H100 SXM5 (simulated)"
  uint32_t sm = 0;                     // compute capability major*10 + minor
  uint32_t multiprocessors = 0;
  uint32_t threads_per_sm = 0;
  uint32_t blocks_per_sm = 0;
  uint32_t registers_per_sm = 0;
  uint32_t registers_per_block = 0;
  uint32_t shared_per_sm = 0;            // bytes
  uint32_t shared_per_block = 0;         // bytes, the default limit without opt-in
  uint32_t shared_per_block_optin = 0;   // bytes
  uint32_t reserved_shared_per_block = 0;
  uint32_t threads_per_block = 0;
  uint32_t clock_khz = 0;
  uint64_t global_memory = 0;
  uint32_t l2_bytes = 0;
  uint32_t memory_clock_khz = 0;
  uint32_t memory_bus_width = 0;
  uint64_t constant_memory = 64 * 1024;  // every CUDA GPU [PG]
  uint32_t pci_device_id = 0;
  uint32_t async_engines = 0;
  uint32_t host_link_mb_s = 0;  // per direction: what host<->device copies take (event times)
  bool ecc_enabled = false;
  uint32_t fp32_to_fp64_ratio = 0;
};

DevicePreset device_preset(const config::GpuConfig& gpu);

// Fills every field of `prop` from the preset's attributes (device_attributes.h), so the two
// queries agree field by field; warp_size comes from the engine options.
void fill_properties(const DevicePreset& preset, uint32_t warp_size, cudaDeviceProp& prop);

}  // namespace lockstep::runtime
