#include "func/ops/device_runtime.h"

#include <algorithm>
#include <cstring>

#include "func/bound_kernel.h"
#include "func/device_heap.h"
#include "func/device_info.h"
#include "func/device_launches.h"
#include "func/lanes.h"
#include "func/ops/frame_access.h"
#include "func/warp.h"

namespace lockstep::func {

namespace {

// What cudaGetErrorName and cudaGetErrorString say of `code`: the host runtime's words
// (func/device_info.h), or CUDA's for a code it does not know when there is no runtime.
const char* error_name(const Warp& w, uint32_t code) {
  const DeviceInfo* info = w.launch->device_info;
  return info != nullptr && info->error_name != nullptr ? info->error_name(static_cast<int>(code)) : "cudaErrorUnknown";
}

const char* error_string(const Warp& w, uint32_t code) {
  const DeviceInfo* info = w.launch->device_info;
  return info != nullptr && info->error_string != nullptr ? info->error_string(static_cast<int>(code))
                                                         : "unrecognized error code";
}

constexpr uint32_t kCudaEventDisableTiming = 0x2;

// `value` into the int (or enum) an argument points to (a generic address).
void store_int(Warp& w, uint64_t address, uint32_t lane, int32_t value) {
  std::memcpy(w.generic(address, 4, 4, lane, true), &value, 4);
}

// A device string the caller may read like any other: copied into the device heap, where it
// lives as long as the heap does; 0 when the heap is full.
uint64_t heap_string(Warp& w, const char* text, uint32_t lane) {
  const size_t bytes = std::strlen(text) + 1;
  const uint64_t address = w.launch->heap ? w.launch->heap->allocate(bytes) : 0;
  for (size_t i = 0; address != 0 && i < bytes; ++i)
    *w.generic(address + i, 1, 1, lane, true) = static_cast<uint8_t>(text[i]);
  return address;
}

// The launching thread's number in the whole grid, which keys its last error.
uint64_t global_thread(const Warp& w, uint32_t lane) {
  const uint64_t per_block = uint64_t{w.launch->block[0]} * w.launch->block[1] * w.launch->block[2];
  return uint64_t{w.cta->linear_id} * per_block + uint64_t{w.warp_id} * w.width + lane;
}

// A program that launches from device code but reaches a launch lockstep runs without a queue
// (none is set up outside Engine::launch) fails loudly rather than losing the launch.
DeviceLaunches& device_launches(Warp& w, uint32_t lane) {
  if (w.launch->device_launches == nullptr)
    w.fault(FaultKind::Trap, lane, 0, 0, "", "device-side kernel launch outside a launch that can run child grids");
  return *w.launch->device_launches;
}

// table: [function, grid (3 x u32), block (3 x u32), shared bytes, result]
void get_parameter_buffer_h(const ExecInst& in, Warp& w) {
  const std::vector<uint32_t>& t = w.launch->kernel->tables[in.table];
  for_each_lane(w.exec, [&](uint32_t lane) {
    DeviceLaunch request;
    request.function = read_local<uint64_t>(w, t[0], lane);
    for (uint32_t d = 0; d < 3; ++d) {
      request.grid[d] = read_local<uint32_t>(w, t[1] + 4 * d, lane);
      request.block[d] = read_local<uint32_t>(w, t[2] + 4 * d, lane);
    }
    request.dynamic_shared = read_local<uint32_t>(w, t[3], lane);
    request.parent_grid = w.launch->grid_id;
    request.parent_block = w.cta->linear_id;
    DeviceLaunches& launches = device_launches(w, lane);
    uint32_t error = 0;
    const uint64_t buffer = launches.get_parameter_buffer(request, error);
    if (error != 0) launches.set_error(global_thread(w, lane), error);
    write_local<uint64_t>(w, t[4], lane, buffer);
  });
}

// table: [parameter buffer, stream, result]
void launch_device_h(const ExecInst& in, Warp& w) {
  const std::vector<uint32_t>& t = w.launch->kernel->tables[in.table];
  for_each_lane(w.exec, [&](uint32_t lane) {
    DeviceLaunches& launches = device_launches(w, lane);
    const uint32_t error = launches.launch(read_local<uint64_t>(w, t[0], lane), read_local<uint64_t>(w, t[1], lane));
    if (error != 0) launches.set_error(global_thread(w, lane), error);
    write_local<uint32_t>(w, t[2], lane, error);
  });
}

// table: [result]; cudaGetLastError clears the error, cudaPeekAtLastError keeps it.
template <bool kClear>
void last_error_h(const ExecInst& in, Warp& w) {
  const std::vector<uint32_t>& t = w.launch->kernel->tables[in.table];
  for_each_lane(w.exec, [&](uint32_t lane) {
    const uint32_t error = w.launch->device_launches == nullptr
                               ? 0
                               : w.launch->device_launches->last_error(global_thread(w, lane), kClear);
    write_local<uint32_t>(w, t[0], lane, error);
  });
}

// table: [stream pointer, flags, result]. Device streams need nothing beyond a handle: launches
// into them run in launch order, which every stream's order allows.
void stream_create_h(const ExecInst& in, Warp& w) {
  const std::vector<uint32_t>& t = w.launch->kernel->tables[in.table];
  for_each_lane(w.exec, [&](uint32_t lane) {
    const uint64_t handle = device_launches(w, lane).create_stream();
    std::memcpy(w.generic(read_local<uint64_t>(w, t[0], lane), 8, 8, lane), &handle, 8);
    write_local<uint32_t>(w, t[2], lane, 0);
  });
}

// Device-side cudaMalloc and cudaFree come from the device heap, as malloc and free do (CUDA
// documents them as the same heap). table: [pointer to the result, size, result].
void device_malloc_h(const ExecInst& in, Warp& w) {
  const std::vector<uint32_t>& t = w.launch->kernel->tables[in.table];
  for_each_lane(w.exec, [&](uint32_t lane) {
    const auto bytes = read_local<uint64_t>(w, t[1], lane);
    const uint64_t address = w.launch->heap ? w.launch->heap->allocate(bytes) : 0;
    std::memcpy(w.generic(read_local<uint64_t>(w, t[0], lane), 8, 8, lane, true), &address, 8);
    write_local<uint32_t>(w, t[2], lane, address != 0 ? 0 : 2);  // cudaErrorMemoryAllocation
  });
}

// table: [pointer, result]; cudaErrorInvalidValue (1) for a pointer the heap did not hand out.
void device_free_h(const ExecInst& in, Warp& w) {
  const std::vector<uint32_t>& t = w.launch->kernel->tables[in.table];
  for_each_lane(w.exec, [&](uint32_t lane) {
    const auto address = read_local<uint64_t>(w, t[0], lane);
    const bool freed = address == 0 || (w.launch->heap != nullptr && w.launch->heap->release(address));
    write_local<uint32_t>(w, t[1], lane, freed ? 0 : 1);
  });
}

// Device-side cudaMemcpyAsync and cudaMemsetAsync: a device stream's work runs in order and at
// once here, as the launches into it do. table: [dst, src, count, kind, stream, result] and
// [dst, value, count, stream, result]; addresses are generic.
void device_memcpy_h(const ExecInst& in, Warp& w) {
  const std::vector<uint32_t>& t = w.launch->kernel->tables[in.table];
  for_each_lane(w.exec, [&](uint32_t lane) {
    const auto dst = read_local<uint64_t>(w, t[0], lane);
    const auto src = read_local<uint64_t>(w, t[1], lane);
    const auto count = read_local<uint64_t>(w, t[2], lane);
    for (uint64_t i = 0; i < count; ++i) *w.generic(dst + i, 1, 1, lane, true) = *w.generic(src + i, 1, 1, lane);
    write_local<uint32_t>(w, t[5], lane, 0);
  });
}

void device_memset_h(const ExecInst& in, Warp& w) {
  const std::vector<uint32_t>& t = w.launch->kernel->tables[in.table];
  for_each_lane(w.exec, [&](uint32_t lane) {
    const auto dst = read_local<uint64_t>(w, t[0], lane);
    const auto value = static_cast<uint8_t>(read_local<uint32_t>(w, t[1], lane));
    const auto count = read_local<uint64_t>(w, t[2], lane);
    for (uint64_t i = 0; i < count; ++i) *w.generic(dst + i, 1, 1, lane, true) = value;
    write_local<uint32_t>(w, t[4], lane, 0);
  });
}

// table: [error, result]: the string is copied into the device heap (the caller may read it
// like any device string; it lives as long as the heap does), nullptr when the heap is full.
void device_error_string_h(const ExecInst& in, Warp& w) {
  const std::vector<uint32_t>& t = w.launch->kernel->tables[in.table];
  for_each_lane(w.exec, [&](uint32_t lane) {
    write_local<uint64_t>(w, t[1], lane, heap_string(w, error_string(w, read_local<uint32_t>(w, t[0], lane)), lane));
  });
}


// table: [error, result], as cudaGetErrorString above.
void device_error_name_h(const ExecInst& in, Warp& w) {
  const std::vector<uint32_t>& t = w.launch->kernel->tables[in.table];
  for_each_lane(w.exec, [&](uint32_t lane) {
    write_local<uint64_t>(w, t[1], lane, heap_string(w, error_name(w, read_local<uint32_t>(w, t[0], lane)), lane));
  });
}

// table: [value pointer, attribute, device, result]: the host runtime's answer for the one
// device (func/device_info.h).
void device_get_attribute_h(const ExecInst& in, Warp& w) {
  const std::vector<uint32_t>& t = w.launch->kernel->tables[in.table];
  for_each_lane(w.exec, [&](uint32_t lane) {
    const auto attr = read_local<uint32_t>(w, t[1], lane);
    const std::optional<int32_t> value =
        w.launch->device_info != nullptr ? w.launch->device_info->attribute(attr) : std::nullopt;
    uint32_t error = 0;
    if (read_local<int32_t>(w, t[2], lane) != 0) {
      error = kCudaErrorInvalidDevice;
    } else if (!value) {
      error = kCudaErrorInvalidValue;
    } else {
      store_int(w, read_local<uint64_t>(w, t[0], lane), lane, *value);
    }
    write_local<uint32_t>(w, t[3], lane, error);
  });
}

// table: [pointer, result]: one int the device runtime knows without asking anyone.
template <int32_t (*kValue)(const Warp&)>
void device_query_h(const ExecInst& in, Warp& w) {
  const std::vector<uint32_t>& t = w.launch->kernel->tables[in.table];
  for_each_lane(w.exec, [&](uint32_t lane) {
    store_int(w, read_local<uint64_t>(w, t[0], lane), lane, kValue(w));
    write_local<uint32_t>(w, t[1], lane, 0);
  });
}
int32_t device_zero(const Warp&) { return 0; }  // the one device
int32_t one_device(const Warp&) { return 1; }
int32_t runtime_version(const Warp& w) { return w.launch->device_info ? w.launch->device_info->runtime_version : 0; }
int32_t prefer_none(const Warp&) { return 0; }   // cudaFuncCachePreferNone
int32_t four_byte_banks(const Warp&) { return 1; }  // cudaSharedMemBankSizeFourByte

// table: [event pointer, flags, result]. Device code may only create events that take no
// time (cudaEventDisableTiming), as CUDA documents; its streams run in order and at once
// here, so recording one and waiting for it need nothing beyond a handle.
void event_create_h(const ExecInst& in, Warp& w) {
  const std::vector<uint32_t>& t = w.launch->kernel->tables[in.table];
  for_each_lane(w.exec, [&](uint32_t lane) {
    if (read_local<uint32_t>(w, t[1], lane) != kCudaEventDisableTiming) {
      write_local<uint32_t>(w, t[2], lane, kCudaErrorInvalidValue);
      return;
    }
    const uint64_t handle = device_launches(w, lane).create_event();
    std::memcpy(w.generic(read_local<uint64_t>(w, t[0], lane), 8, 8, lane, true), &handle, 8);
    write_local<uint32_t>(w, t[2], lane, 0);
  });
}

// cudaEventRecord, cudaStreamWaitEvent, cudaEventDestroy and cudaStreamDestroy of device code:
// cudaSuccess. table: [the arguments..., result].
template <size_t kArgs>
void succeed_h(const ExecInst& in, Warp& w) {
  const std::vector<uint32_t>& t = w.launch->kernel->tables[in.table];
  for_each_lane(w.exec, [&](uint32_t lane) { write_local<uint32_t>(w, t[kArgs], lane, 0); });
}

constexpr DeviceRuntimeCall kCalls[] = {
    {"__cudaCDP2GetParameterBufferV2", get_parameter_buffer_h, 4},
    {"__cudaCDP2LaunchDeviceV2", launch_device_h, 2},
    {"__cudaCDP2GetLastError", last_error_h<true>, 0},
    {"__cudaCDP2PeekAtLastError", last_error_h<false>, 0},
    {"__cudaCDP2GetErrorString", device_error_string_h, 1},
    {"__cudaCDP2GetErrorName", device_error_name_h, 1},
    {"__cudaCDP2StreamCreateWithFlags", stream_create_h, 2},
    {"__cudaCDP2StreamDestroy", succeed_h<1>, 1},
    {"__cudaCDP2EventCreateWithFlags", event_create_h, 2},
    {"__cudaCDP2EventDestroy", succeed_h<1>, 1},
    {"__cudaCDP2EventRecord", succeed_h<2>, 2},
    {"__cudaCDP2EventRecord_ptsz", succeed_h<2>, 2},
    {"__cudaCDP2EventRecordWithFlags", succeed_h<3>, 3},
    {"__cudaCDP2EventRecordWithFlags_ptsz", succeed_h<3>, 3},
    {"__cudaCDP2StreamWaitEvent", succeed_h<3>, 3},
    {"__cudaCDP2StreamWaitEvent_ptsz", succeed_h<3>, 3},
    {"__cudaCDP2Malloc", device_malloc_h, 2},
    {"__cudaCDP2Free", device_free_h, 1},
    {"__cudaCDP2MemcpyAsync", device_memcpy_h, 5},
    {"__cudaCDP2MemcpyAsync_ptsz", device_memcpy_h, 5},
    {"__cudaCDP2MemsetAsync", device_memset_h, 4},
    {"__cudaCDP2MemsetAsync_ptsz", device_memset_h, 4},
    {"__cudaCDP2GetDevice", device_query_h<device_zero>, 1},
    {"__cudaCDP2GetDeviceCount", device_query_h<one_device>, 1},
    {"__cudaCDP2DeviceGetAttribute", device_get_attribute_h, 3},
    {"__cudaCDP2RuntimeGetVersion", device_query_h<runtime_version>, 1},
    {"__cudaCDP2DeviceGetCacheConfig", device_query_h<prefer_none>, 1},
    {"__cudaCDP2DeviceGetSharedMemConfig", device_query_h<four_byte_banks>, 1},
};

}  // namespace

const DeviceRuntimeCall* find_device_runtime_call(std::string_view name) {
  const auto* call =
      std::find_if(std::begin(kCalls), std::end(kCalls), [&](const DeviceRuntimeCall& c) { return name == c.name; });
  return call != std::end(kCalls) ? call : nullptr;
}

}  // namespace lockstep::func
