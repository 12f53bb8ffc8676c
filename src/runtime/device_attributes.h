#pragma once
// Every device attribute a CUDA 13 program can ask for (cudaDeviceGetAttribute), answered as the
// preset's real GPU answers it. The runtime's cudaDeviceAttr values are the driver's
// CUdevice_attribute numbers, and cudart passes any number through to the driver, so the table
// covers every driver attribute from 1 to the last one CUDA 13 defines (the runtime enum leaves
// gaps, such as 44 or 102-105, that programs can still ask for by number). An attribute that has
// no meaning for a simulated GPU (PCI location, NUMA, interop) gets the value a real one
// reports, never an error: programs branch on these answers, they must not stop on them.
#include <cstdint>
#include <optional>

#include "runtime/device_preset.h"

namespace lockstep::runtime {

// The last attribute number CUDA 13 defines (CU_DEVICE_ATTRIBUTE_ONLY_PARTIAL_HOST_NATIVE_ATOMIC_SUPPORTED).
constexpr int kLastDeviceAttribute = 147;

// The value of attribute `attr` (a cudaDeviceAttr / CUdevice_attribute number); nullopt for a
// number that is no attribute (0, or past kLastDeviceAttribute), which CUDA refuses with
// cudaErrorInvalidValue.
std::optional<int> device_attribute(const DevicePreset& preset, uint32_t warp_size, int attr);

// The CUDA version lockstep's runtime and driver stand in for (13.0, as CUDART_VERSION encodes
// it): what cudaRuntimeGetVersion and cudaDriverGetVersion answer, on the host and the device.
constexpr int kCudaVersion = 13000;

}  // namespace lockstep::runtime
