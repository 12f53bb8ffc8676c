#include "runtime/device_preset.h"


namespace lockstep::runtime {

DevicePreset device_preset(const config::GpuConfig& g) {
  DevicePreset p;
  p.name = "lockstep " + g.gpu.name + " (simulated)";
  p.sm = g.gpu.compute_capability;
  p.multiprocessors = g.gpu.sm_count;
  p.threads_per_sm = g.sm.max_threads;
  p.blocks_per_sm = g.sm.max_blocks;
  p.registers_per_sm = g.sm.registers;
  p.registers_per_block = g.sm.max_registers_per_block;
  p.shared_per_sm = static_cast<uint32_t>(g.sm.shared_bytes());
  p.shared_per_block = static_cast<uint32_t>(g.sm.shared_per_block_bytes());
  p.shared_per_block_optin = static_cast<uint32_t>(g.sm.shared_per_block_optin_bytes());
  p.reserved_shared_per_block = g.sm.shared_reserved_per_block;
  p.threads_per_block = g.sm.max_threads_per_block;
  p.clock_khz = g.gpu.core_clock_mhz * 1000;
  p.global_memory = g.gpu.global_memory_bytes();
  p.l2_bytes = g.gpu.l2_kib * 1024;
  p.memory_clock_khz = g.gpu.memory_clock_mhz * 1000;
  p.memory_bus_width = g.gpu.memory_bus_bits;
  p.pci_device_id = g.gpu.pci_device_id;
  p.async_engines = g.gpu.async_engines;
  p.host_link_mb_s = g.gpu.host_link_mb_s;
  p.ecc_enabled = g.gpu.ecc_enabled;
  p.fp32_to_fp64_ratio = g.gpu.fp32_to_fp64_ratio;
  return p;
}


}  // namespace lockstep::runtime
