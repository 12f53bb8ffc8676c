#pragma once
// The caller frame's .param variables that a call to a runtime-provided function reads its
// arguments from and writes its result to (func/ops/device_calls.cpp, device_runtime.cpp):
// `offset` bytes into the frame of lane `lane`.
#include <cstdint>
#include <cstring>

#include "func/warp.h"

namespace lockstep::func {

template <class T>
T read_local(Warp& w, uint32_t offset, uint32_t lane) {
  T v;
  std::memcpy(&v, w.local(w.frame_base() + offset, sizeof(T), 1, lane), sizeof(T));
  return v;
}

template <class T>
void write_local(Warp& w, uint32_t offset, uint32_t lane, T value) {
  std::memcpy(w.local(w.frame_base() + offset, sizeof(T), 1, lane), &value, sizeof(T));
}

}  // namespace lockstep::func
