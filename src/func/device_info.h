#pragma once
// What device code's runtime calls answer about the device (cudaDeviceGetAttribute,
// cudaRuntimeGetVersion, cudaGetDeviceCount from a kernel), as the host runtime answers them:
// the runtime fills it from the preset (runtime/device_attributes.h). An engine without a
// runtime leaves it empty, and device code's questions get cudaErrorInvalidValue.
#include <cstdint>
#include <optional>
#include <vector>

namespace lockstep::func {

struct DeviceInfo {
  // By cudaDeviceAttr number (index 0 is no attribute); a number past the end is none either.
  std::vector<std::optional<int32_t>> attributes;
  int32_t runtime_version = 0;

  std::optional<int32_t> attribute(uint32_t attr) const {
    return attr < attributes.size() ? attributes[attr] : std::nullopt;
  }
};

}  // namespace lockstep::func
