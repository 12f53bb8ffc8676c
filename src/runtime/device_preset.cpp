#include "runtime/device_preset.h"

#include <cstdio>
#include <cstring>

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
  return p;
}

void fill_properties(const DevicePreset& p, uint32_t warp_size, cudaDeviceProp& prop) {
  std::memset(&prop, 0, sizeof prop);
  std::snprintf(prop.name, sizeof prop.name, "%s", p.name.c_str());
  prop.totalGlobalMem = p.global_memory;
  prop.sharedMemPerBlock = p.shared_per_block;
  prop.regsPerBlock = static_cast<int>(p.registers_per_block);
  prop.warpSize = static_cast<int>(warp_size);
  prop.memPitch = 2147483647;
  prop.maxThreadsPerBlock = static_cast<int>(p.threads_per_block);
  prop.maxThreadsDim[0] = prop.maxThreadsDim[1] = static_cast<int>(p.threads_per_block);
  prop.maxThreadsDim[2] = 64;
  prop.maxGridSize[0] = 2147483647, prop.maxGridSize[1] = 65535, prop.maxGridSize[2] = 65535;
  prop.totalConstMem = p.constant_memory;
  prop.major = static_cast<int>(p.sm / 10);
  prop.minor = static_cast<int>(p.sm % 10);
  prop.textureAlignment = 512;
  prop.texturePitchAlignment = 32;
  prop.multiProcessorCount = static_cast<int>(p.multiprocessors);
  prop.canMapHostMemory = 0;
  prop.concurrentKernels = 1;
  prop.memoryBusWidth = static_cast<int>(p.memory_bus_width);
  prop.l2CacheSize = static_cast<int>(p.l2_bytes);
  prop.maxThreadsPerMultiProcessor = static_cast<int>(p.threads_per_sm);
  prop.globalL1CacheSupported = 1;
  prop.localL1CacheSupported = 1;
  prop.sharedMemPerMultiprocessor = p.shared_per_sm;
  prop.regsPerMultiprocessor = static_cast<int>(p.registers_per_sm);
  prop.unifiedAddressing = 1;
  prop.cooperativeLaunch = 1;  // cudaLaunchCooperativeKernel with grid-wide sync
  prop.managedMemory = 1;      // cudaMallocManaged and __managed__, host-accessible
  prop.concurrentManagedAccess = 1;
  prop.sharedMemPerBlockOptin = p.shared_per_block_optin;
  prop.maxBlocksPerMultiProcessor = static_cast<int>(p.blocks_per_sm);
  prop.reservedSharedMemPerBlock = p.reserved_shared_per_block;
}

bool device_attribute(const DevicePreset& p, uint32_t warp_size, cudaDeviceAttr attr, int& value) {
  auto as_int = [](uint64_t v) { return static_cast<int>(v); };
  switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: value = as_int(p.threads_per_block); return true;
    case cudaDevAttrMaxBlockDimX: value = as_int(p.threads_per_block); return true;
    case cudaDevAttrMaxBlockDimY: value = as_int(p.threads_per_block); return true;
    case cudaDevAttrMaxBlockDimZ: value = 64; return true;
    case cudaDevAttrMaxGridDimX: value = 2147483647; return true;
    case cudaDevAttrMaxGridDimY: value = 65535; return true;
    case cudaDevAttrMaxGridDimZ: value = 65535; return true;
    case cudaDevAttrMaxSharedMemoryPerBlock: value = as_int(p.shared_per_block); return true;
    case cudaDevAttrTotalConstantMemory: value = as_int(p.constant_memory); return true;
    case cudaDevAttrWarpSize: value = as_int(warp_size); return true;
    case cudaDevAttrMaxRegistersPerBlock: value = as_int(p.registers_per_block); return true;
    case cudaDevAttrClockRate: value = as_int(p.clock_khz); return true;
    case cudaDevAttrMultiProcessorCount: value = as_int(p.multiprocessors); return true;
    case cudaDevAttrComputeCapabilityMajor: value = as_int(p.sm / 10); return true;
    case cudaDevAttrComputeCapabilityMinor: value = as_int(p.sm % 10); return true;
    case cudaDevAttrMaxThreadsPerMultiProcessor: value = as_int(p.threads_per_sm); return true;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: value = as_int(p.shared_per_sm); return true;
    case cudaDevAttrMaxRegistersPerMultiprocessor: value = as_int(p.registers_per_sm); return true;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: value = as_int(p.shared_per_block_optin); return true;
    case cudaDevAttrMaxBlocksPerMultiprocessor: value = as_int(p.blocks_per_sm); return true;
    case cudaDevAttrL2CacheSize: value = as_int(p.l2_bytes); return true;
    case cudaDevAttrMemoryClockRate: value = as_int(p.memory_clock_khz); return true;
    case cudaDevAttrGlobalMemoryBusWidth: value = as_int(p.memory_bus_width); return true;
    case cudaDevAttrUnifiedAddressing: value = 1; return true;
    case cudaDevAttrConcurrentKernels: value = 1; return true;
    case cudaDevAttrIntegrated: value = 0; return true;
    case cudaDevAttrCooperativeLaunch: value = 1; return true;
    case cudaDevAttrManagedMemory: value = 1; return true;
    case cudaDevAttrConcurrentManagedAccess: value = 1; return true;
    // Managed memory is host memory mapped at the same address; pageable memory that was not
    // allocated through CUDA is not device-accessible (an H100 without HMM or ATS).
    case cudaDevAttrPageableMemoryAccess: value = 0; return true;
    case cudaDevAttrPageableMemoryAccessUsesHostPageTables: value = 0; return true;
    case cudaDevAttrDirectManagedMemAccessFromHost: value = 0; return true;
    case cudaDevAttrReservedSharedMemoryPerBlock: value = as_int(p.reserved_shared_per_block); return true;
    default: return false;
  }
}

}  // namespace lockstep::runtime
