#pragma once
// The device runtime of dynamic parallelism (the __cudaCDP2* functions that -rdc code calls,
// cuda_device_runtime_api.h): parameter buffers and launches (func/device_launches.h), device
// streams and events, the last error and error strings, device-side cudaMalloc, cudaFree,
// cudaMemcpyAsync and cudaMemsetAsync, and the device's attributes (func/device_info.h).
#include <cstddef>
#include <string_view>

#include "func/exec_inst.h"

namespace lockstep::func {

struct DeviceRuntimeCall {
  const char* name;
  Handler fn;    // table: the arguments' frame offsets, then the result's
  size_t args;
};

// The device runtime's call `name`, or null when it is none lockstep runs (a call it does not
// run stays unknown, so binding the kernel names it).
const DeviceRuntimeCall* find_device_runtime_call(std::string_view name);

}  // namespace lockstep::func
