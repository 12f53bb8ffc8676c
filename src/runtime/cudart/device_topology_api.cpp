// Where the device sits and whom it can reach: its PCI address (the one cudaGetDeviceProperties
// reports) and, with one simulated device, no peers. Every other device number is
// cudaErrorInvalidDevice, as CUDA answers for a device that does not exist; device 0 is no peer of
// itself, as on CUDA.
#include <cstdio>
#include <cstring>

#include "cudart/process_runtime.h"
#include "runtime/device_attributes.h"

using lockstep::runtime::process_runtime;

namespace {

struct PciAddress {
  unsigned domain = 0, bus = 0, device = 0;
};

PciAddress device_address() {
  const auto attribute = [](cudaDeviceAttr a) {
    return lockstep::runtime::device_attribute(process_runtime()->preset(), process_runtime()->warp_size(), a)
        .value_or(0);
  };
  return {static_cast<unsigned>(attribute(cudaDevAttrPciDomainId)),
          static_cast<unsigned>(attribute(cudaDevAttrPciBusId)),
          static_cast<unsigned>(attribute(cudaDevAttrPciDeviceId))};
}

// CUDA's forms, hexadecimal: domain:bus:device.function, domain:bus:device, bus:device.function.
bool parse_pci(const char* text, PciAddress& out) {
  // Digits and separators only (sscanf's %x would also take signs, spaces and "0x").
  if (text[std::strspn(text, "0123456789abcdefABCDEF:.")] != '\0') return false;
  unsigned a = 0, b = 0, c = 0, function = 0;
  char tail = 0;
  if (std::sscanf(text, "%x:%x:%x.%x%c", &a, &b, &c, &function, &tail) == 4) {
    out = {a, b, c};
    return true;
  }
  if (std::sscanf(text, "%x:%x:%x%c", &a, &b, &c, &tail) == 3) {
    out = {a, b, c};
    return true;
  }
  if (std::sscanf(text, "%x:%x.%x%c", &b, &c, &function, &tail) == 3) {
    out = {0, b, c};
    return true;
  }
  return false;
}

}  // namespace

extern "C" cudaError_t cudaDeviceGetPCIBusId(char* pciBusId, int len, int device) {
  if (pciBusId == nullptr || len <= 0) return process_runtime()->record(cudaErrorInvalidValue);
  if (device != 0) return process_runtime()->record(cudaErrorInvalidDevice);
  const PciAddress a = device_address();
  std::snprintf(pciBusId, static_cast<size_t>(len), "%04x:%02x:%02x.0", a.domain, a.bus, a.device);
  return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceGetByPCIBusId(int* device, const char* pciBusId) {
  if (device == nullptr || pciBusId == nullptr) return process_runtime()->record(cudaErrorInvalidValue);
  PciAddress asked;
  if (!parse_pci(pciBusId, asked)) return process_runtime()->record(cudaErrorInvalidValue);
  const PciAddress a = device_address();
  if (asked.domain != a.domain || asked.bus != a.bus || asked.device != a.device)
    return process_runtime()->record(cudaErrorInvalidDevice);
  *device = 0;
  return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceEnablePeerAccess(int /*peerDevice*/, unsigned int flags) {
  if (flags != 0) return process_runtime()->record(cudaErrorInvalidValue);
  return process_runtime()->record(cudaErrorInvalidDevice);
}

extern "C" cudaError_t cudaDeviceDisablePeerAccess(int /*peerDevice*/) {
  return process_runtime()->record(cudaErrorInvalidDevice);
}

extern "C" cudaError_t cudaDeviceGetP2PAttribute(int* value, cudaDeviceP2PAttr /*attr*/, int /*srcDevice*/,
                                                 int /*dstDevice*/) {
  if (value == nullptr) return process_runtime()->record(cudaErrorInvalidValue);
  return process_runtime()->record(cudaErrorInvalidDevice);
}

// The devices the runtime may pick from: only device 0 exists.
extern "C" cudaError_t cudaSetValidDevices(int* device_arr, int len) {
  if (len < 0 || (len > 0 && device_arr == nullptr)) return process_runtime()->record(cudaErrorInvalidValue);
  for (int i = 0; i < len; ++i)
    if (device_arr[i] != 0) return process_runtime()->record(cudaErrorInvalidDevice);
  return cudaSuccess;
}
