#include "runtime/device_attributes.h"

#include <driver_types.h>

namespace lockstep::runtime {

namespace {

// Texture and surface limits by compute capability: the programming guide's "Technical
// Specifications per Compute Capability" table [PG]. Every capability from 5.0 to 12.x has the
// same limits; Fermi (2.x) had smaller ones.
struct TextureLimits {
  int tex1d, tex1d_linear, tex1d_mipmap;
  int tex2d_w, tex2d_h, tex2d_linear_w, tex2d_linear_h, tex2d_linear_pitch, tex2d_mipmap, tex2d_gather;
  int tex3d, tex3d_alt_w, tex3d_alt_d;
  int layered1d_w, layered_layers, layered2d, cubemap, cubemap_layered_layers;
  int surf1d, surf2d_w, surf2d_h, surf3d, surf_layered1d, surf_layered2d, surf_cubemap;
};

constexpr TextureLimits kModernTextures = {
    131072, 268435456, 32768,                          // 1D, 1D linear, 1D mipmapped
    131072, 65536, 131072, 65000, 2097120, 32768, 32768,  // 2D, 2D linear (w, h, pitch), mipmapped, gather
    16384, 8192, 32768,                                // 3D, alternate 3D (8192 x 8192 x 32768)
    32768, 2048, 32768, 32768, 2046,                   // layered 1D/2D and their layers, cubemap, cubemap layers
    32768, 131072, 65536, 16384, 32768, 32768, 32768};   // surfaces
constexpr TextureLimits kFermiTextures = {
    65536, 134217728, 16384,
    65536, 65535, 65000, 65000, 1048544, 16384, 16384,
    2048, 2048, 2048,
    16384, 2048, 16384, 16384, 2046,
    65536, 65536, 32768, 2048, 65536, 32768, 32768};

const TextureLimits& texture_limits(uint32_t sm) { return sm >= 30 ? kModernTextures : kFermiTextures; }

// CUdevice_attribute numbers the runtime enum lists as reserved or leaves out (cuda.h).
enum DriverOnlyAttribute : int {
  kCanTex2dGather = 44,
  kStreamMemOpsV1 = 92,
  kStreamMemOps64BitV1 = 93,
  kWaitValueNorV1 = 94,
  kCooperativeMultiDeviceLaunch = 96,
  kVirtualMemoryManagement = 102,
  kPosixFdHandles = 103,
  kWin32Handles = 104,
  kWin32KmtHandles = 105,
  kGenericCompression = 107,
  kRdmaWithVmm = 110,
  kStreamMemOps64Bit = 122,
  kWaitValueNor = 123,
  kDmaBuf = 124,
  kTensorMapAccess = 127,
  kFabricHandles = 128,
  kUnifiedFunctionPointers = 129,
  kMulticast = 132,
  kDecompressAlgorithms = 136,
  kDecompressMaxLength = 137,
  kHostNumaVirtualMemory = 141,
  kHostVirtualMemory = 145,
  kHostAllocDmaBuf = 146,
};

constexpr int kNvidiaVendorId = 0x10de;

}  // namespace

std::optional<int> device_attribute(const DevicePreset& p, uint32_t warp_size, int attr) {
  auto as_int = [](uint64_t v) { return static_cast<int>(v); };
  const TextureLimits& t = texture_limits(p.sm);
  const bool hopper = p.sm >= 90;
  const bool ampere = p.sm >= 80;
  switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: return as_int(p.threads_per_block);
    case cudaDevAttrMaxBlockDimX: return as_int(p.threads_per_block);
    case cudaDevAttrMaxBlockDimY: return as_int(p.threads_per_block);
    case cudaDevAttrMaxBlockDimZ: return 64;
    case cudaDevAttrMaxGridDimX: return 2147483647;
    case cudaDevAttrMaxGridDimY: return 65535;
    case cudaDevAttrMaxGridDimZ: return 65535;
    case cudaDevAttrMaxSharedMemoryPerBlock: return as_int(p.shared_per_block);
    case cudaDevAttrTotalConstantMemory: return as_int(p.constant_memory);
    case cudaDevAttrWarpSize: return as_int(warp_size);
    case cudaDevAttrMaxPitch: return 2147483647;
    case cudaDevAttrMaxRegistersPerBlock: return as_int(p.registers_per_block);
    case cudaDevAttrClockRate: return as_int(p.clock_khz);
    case cudaDevAttrTextureAlignment: return 512;
    case cudaDevAttrGpuOverlap: return p.async_engines > 0 ? 1 : 0;
    case cudaDevAttrMultiProcessorCount: return as_int(p.multiprocessors);
    case cudaDevAttrKernelExecTimeout: return 0;  // no display watchdog on a compute GPU
    case cudaDevAttrIntegrated: return 0;
    case cudaDevAttrCanMapHostMemory: return 1;
    case cudaDevAttrComputeMode: return cudaComputeModeDefault;
    case cudaDevAttrMaxTexture1DWidth: return t.tex1d;
    case cudaDevAttrMaxTexture2DWidth: return t.tex2d_w;
    case cudaDevAttrMaxTexture2DHeight: return t.tex2d_h;
    case cudaDevAttrMaxTexture3DWidth: return t.tex3d;
    case cudaDevAttrMaxTexture3DHeight: return t.tex3d;
    case cudaDevAttrMaxTexture3DDepth: return t.tex3d;
    case cudaDevAttrMaxTexture2DLayeredWidth: return t.layered2d;
    case cudaDevAttrMaxTexture2DLayeredHeight: return t.layered2d;
    case cudaDevAttrMaxTexture2DLayeredLayers: return t.layered_layers;
    case cudaDevAttrSurfaceAlignment: return 512;
    case cudaDevAttrConcurrentKernels: return 1;
    case cudaDevAttrEccEnabled: return p.ecc_enabled ? 1 : 0;
    // The PCI location of a GPU in the first slot of a typical server (bus 1, device 0,
    // domain 0): no program can reach the bus of a simulated GPU, so any location will do.
    case cudaDevAttrPciBusId: return 1;
    case cudaDevAttrPciDeviceId: return 0;
    case cudaDevAttrTccDriver: return 0;  // TCC is a Windows driver model
    case cudaDevAttrMemoryClockRate: return as_int(p.memory_clock_khz);
    case cudaDevAttrGlobalMemoryBusWidth: return as_int(p.memory_bus_width);
    case cudaDevAttrL2CacheSize: return as_int(p.l2_bytes);
    case cudaDevAttrMaxThreadsPerMultiProcessor: return as_int(p.threads_per_sm);
    case cudaDevAttrAsyncEngineCount: return as_int(p.async_engines);
    case cudaDevAttrUnifiedAddressing: return 1;
    case cudaDevAttrMaxTexture1DLayeredWidth: return t.layered1d_w;
    case cudaDevAttrMaxTexture1DLayeredLayers: return t.layered_layers;
    case kCanTex2dGather: return 1;
    case cudaDevAttrMaxTexture2DGatherWidth: return t.tex2d_gather;
    case cudaDevAttrMaxTexture2DGatherHeight: return t.tex2d_gather;
    case cudaDevAttrMaxTexture3DWidthAlt: return t.tex3d_alt_w;
    case cudaDevAttrMaxTexture3DHeightAlt: return t.tex3d_alt_w;
    case cudaDevAttrMaxTexture3DDepthAlt: return t.tex3d_alt_d;
    case cudaDevAttrPciDomainId: return 0;
    case cudaDevAttrTexturePitchAlignment: return 32;
    case cudaDevAttrMaxTextureCubemapWidth: return t.cubemap;
    case cudaDevAttrMaxTextureCubemapLayeredWidth: return t.cubemap;
    case cudaDevAttrMaxTextureCubemapLayeredLayers: return t.cubemap_layered_layers;
    case cudaDevAttrMaxSurface1DWidth: return t.surf1d;
    case cudaDevAttrMaxSurface2DWidth: return t.surf2d_w;
    case cudaDevAttrMaxSurface2DHeight: return t.surf2d_h;
    case cudaDevAttrMaxSurface3DWidth: return t.surf3d;
    case cudaDevAttrMaxSurface3DHeight: return t.surf3d;
    case cudaDevAttrMaxSurface3DDepth: return t.surf3d;
    case cudaDevAttrMaxSurface1DLayeredWidth: return t.surf_layered1d;
    case cudaDevAttrMaxSurface1DLayeredLayers: return t.layered_layers;
    case cudaDevAttrMaxSurface2DLayeredWidth: return t.surf_layered2d;
    case cudaDevAttrMaxSurface2DLayeredHeight: return t.surf_layered2d;
    case cudaDevAttrMaxSurface2DLayeredLayers: return t.layered_layers;
    case cudaDevAttrMaxSurfaceCubemapWidth: return t.surf_cubemap;
    case cudaDevAttrMaxSurfaceCubemapLayeredWidth: return t.surf_cubemap;
    case cudaDevAttrMaxSurfaceCubemapLayeredLayers: return t.cubemap_layered_layers;
    case cudaDevAttrMaxTexture1DLinearWidth: return t.tex1d_linear;
    case cudaDevAttrMaxTexture2DLinearWidth: return t.tex2d_linear_w;
    case cudaDevAttrMaxTexture2DLinearHeight: return t.tex2d_linear_h;
    case cudaDevAttrMaxTexture2DLinearPitch: return t.tex2d_linear_pitch;
    case cudaDevAttrMaxTexture2DMipmappedWidth: return t.tex2d_mipmap;
    case cudaDevAttrMaxTexture2DMipmappedHeight: return t.tex2d_mipmap;
    case cudaDevAttrComputeCapabilityMajor: return as_int(p.sm / 10);
    case cudaDevAttrComputeCapabilityMinor: return as_int(p.sm % 10);
    case cudaDevAttrMaxTexture1DMipmappedWidth: return t.tex1d_mipmap;
    case cudaDevAttrStreamPrioritiesSupported: return 1;
    case cudaDevAttrGlobalL1CacheSupported: return 1;
    case cudaDevAttrLocalL1CacheSupported: return 1;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: return as_int(p.shared_per_sm);
    case cudaDevAttrMaxRegistersPerMultiprocessor: return as_int(p.registers_per_sm);
    case cudaDevAttrManagedMemory: return 1;
    case cudaDevAttrIsMultiGpuBoard: return 0;
    case cudaDevAttrMultiGpuBoardGroupID: return 0;
    case cudaDevAttrHostNativeAtomicSupported: return 0;  // PCIe/SXM on an x86 host (NVLink-C2C hosts: 1)
    case cudaDevAttrSingleToDoublePrecisionPerfRatio: return as_int(p.fp32_to_fp64_ratio);
    // Managed memory is host memory mapped at the same address; pageable memory that was not
    // allocated through CUDA is not device-accessible (a GPU without HMM or ATS).
    case cudaDevAttrPageableMemoryAccess: return 0;
    case cudaDevAttrConcurrentManagedAccess: return 1;
    case cudaDevAttrComputePreemptionSupported: return 1;
    case cudaDevAttrCanUseHostPointerForRegisteredMem: return 1;
    // The first stream memory-operation API was withdrawn in CUDA 12: drivers answer 0.
    case kStreamMemOpsV1: return 0;
    case kStreamMemOps64BitV1: return 0;
    case kWaitValueNorV1: return 0;
    case cudaDevAttrCooperativeLaunch: return 1;
    case kCooperativeMultiDeviceLaunch: return 0;  // withdrawn in CUDA 12
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: return as_int(p.shared_per_block_optin);
    case cudaDevAttrCanFlushRemoteWrites: return 0;
    case cudaDevAttrHostRegisterSupported: return 1;
    case cudaDevAttrPageableMemoryAccessUsesHostPageTables: return 0;
    case cudaDevAttrDirectManagedMemAccessFromHost: return 0;
    case kVirtualMemoryManagement: return 1;
    case kPosixFdHandles: return 1;
    case kWin32Handles: return 0;
    case kWin32KmtHandles: return 0;
    case cudaDevAttrMaxBlocksPerMultiprocessor: return as_int(p.blocks_per_sm);
    case kGenericCompression: return ampere ? 1 : 0;
    // L2 set-aside for persisting accesses (cc 8.0+): up to three quarters of the L2.
    case cudaDevAttrMaxPersistingL2CacheSize: return ampere ? as_int(uint64_t{p.l2_bytes} / 4 * 3) : 0;
    case cudaDevAttrMaxAccessPolicyWindowSize: return ampere ? 134213632 : 0;  // 128 MiB - 4 KiB
    case kRdmaWithVmm: return 1;
    case cudaDevAttrReservedSharedMemoryPerBlock: return as_int(p.reserved_shared_per_block);
    case cudaDevAttrSparseCudaArraySupported: return 1;
    case cudaDevAttrHostRegisterReadOnlySupported: return 1;
    case cudaDevAttrTimelineSemaphoreInteropSupported: return 1;
    case cudaDevAttrMemoryPoolsSupported: return 1;
    case cudaDevAttrGPUDirectRDMASupported: return 1;
    case cudaDevAttrGPUDirectRDMAFlushWritesOptions: return cudaFlushGPUDirectRDMAWritesOptionHost;
    case cudaDevAttrGPUDirectRDMAWritesOrdering: return cudaGPUDirectRDMAWritesOrderingOwner;
    case cudaDevAttrMemoryPoolSupportedHandleTypes: return cudaMemHandleTypePosixFileDescriptor;
    case cudaDevAttrClusterLaunch: return hopper ? 1 : 0;
    case cudaDevAttrDeferredMappingCudaArraySupported: return 1;
    case kStreamMemOps64Bit: return 1;
    case kWaitValueNor: return 1;
    case kDmaBuf: return 0;
    case cudaDevAttrIpcEventSupport: return 1;
    case cudaDevAttrMemSyncDomainCount: return hopper ? 4 : 1;
    case kTensorMapAccess: return hopper ? 1 : 0;
    case kFabricHandles: return 0;
    case kUnifiedFunctionPointers: return 0;
    case cudaDevAttrNumaConfig: return cudaDeviceNumaConfigNone;
    case cudaDevAttrNumaId: return -1;
    case kMulticast: return 0;
    case cudaDevAttrMpsEnabled: return 0;
    case cudaDevAttrHostNumaId: return -1;
    case cudaDevAttrD3D12CigSupported: return 0;
    case kDecompressAlgorithms: return 0;  // the copy engines' decompression is Blackwell's
    case kDecompressMaxLength: return 0;
    case cudaDevAttrVulkanCigSupported: return 0;
    case cudaDevAttrGpuPciDeviceId: return as_int(uint64_t{p.pci_device_id} << 16 | kNvidiaVendorId);
    // The board's subsystem id is not in hardware.md: the product id stands in for it.
    case cudaDevAttrGpuPciSubsystemId: return as_int(uint64_t{p.pci_device_id} << 16 | kNvidiaVendorId);
    case kHostNumaVirtualMemory: return 0;
    case cudaDevAttrHostNumaMemoryPoolsSupported: return 0;
    case cudaDevAttrHostNumaMultinodeIpcSupported: return 0;
    case cudaDevAttrHostMemoryPoolsSupported: return 0;
    case kHostVirtualMemory: return 0;
    case kHostAllocDmaBuf: return 0;
    case cudaDevAttrOnlyPartialHostNativeAtomicSupported: return 0;
    default: return std::nullopt;
  }
}

}  // namespace lockstep::runtime
