#pragma once
// What device code's runtime calls answer about the device (cudaDeviceGetAttribute,
// cudaRuntimeGetVersion, cudaGetDeviceCount from a kernel) and its errors (cudaGetErrorName,
// cudaGetErrorString), as the host runtime answers them: the runtime fills it from the preset
// (runtime/device_attributes.h) and its error table (runtime/cuda_errors.h). An engine without a
// runtime leaves it empty: device code's questions get cudaErrorInvalidValue, and its errors
// the words CUDA has for a code it does not know.
#include <cstdint>
#include <optional>
#include <vector>

namespace lockstep::func {

struct DeviceInfo {
  // By cudaDeviceAttr number (index 0 is no attribute); a number past the end is none either.
  std::vector<std::optional<int32_t>> attributes;
  int32_t runtime_version = 0;
  const char* (*error_name)(int code) = nullptr;
  const char* (*error_string)(int code) = nullptr;

  std::optional<int32_t> attribute(uint32_t attr) const {
    return attr < attributes.size() ? attributes[attr] : std::nullopt;
  }
};

}  // namespace lockstep::func
