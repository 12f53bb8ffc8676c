#pragma once
// Test helpers shared by every room's tests: load PTX (inline text or a committed file),
// move typed buffers to and from the device, launch and fail loudly on device faults.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/engine.h"

namespace lockstep::test {

// Path of a file under tests/ (LOCKSTEP_TEST_DATA is the tests/ source folder).
// Engine options for a functional engine of `warp_size` lanes.
inline EngineOptions warp_options(uint32_t warp_size) {
  EngineOptions options;
  options.warp_size = warp_size;
  return options;
}

inline std::string data_path(const std::string& relative) {
  return std::string(LOCKSTEP_TEST_DATA) + "/" + relative;
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A typed device buffer owned by a test.
template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer(Engine& engine, size_t count) : engine_(engine), count_(count) {
    address_ = engine.malloc(count * sizeof(T));
  }
  DeviceBuffer(Engine& engine, const std::vector<T>& host) : DeviceBuffer(engine, host.size()) {
    upload(host);
  }
  ~DeviceBuffer() { engine_.free(address_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  void upload(const std::vector<T>& host) {
    engine_.copy_to_device(address_, host.data(), host.size() * sizeof(T));
  }
  std::vector<T> download() const {
    std::vector<T> host(count_);
    engine_.copy_to_host(host.data(), address_, count_ * sizeof(T));
    return host;
  }
  uint64_t address() const { return address_; }
  KernelArg arg() const { return KernelArg::of(address_); }

 private:
  Engine& engine_;
  size_t count_;
  uint64_t address_;
};

template <class T>
KernelArg arg(const T& value) {
  return KernelArg::of(value);
}

// Launches and asserts that no device fault happened (the fault text is the failure message).
inline LaunchResult launch_ok(Engine& engine, ModuleId module, const std::string& kernel,
                              Dim3 grid, Dim3 block, const std::vector<KernelArg>& args,
                              uint32_t dynamic_shared = 0) {
  LaunchResult r = engine.launch(module, kernel, grid, block, dynamic_shared, args);
  EXPECT_FALSE(r.fault.has_value()) << (r.fault ? r.fault->message : std::string());
  return r;
}

// The PTX of a tests/kernels program for one architecture: tests/kernels/ptx/<name>.sm_XX.ptx
inline std::string kernel_ptx_path(const std::string& program, int sm) {
  return data_path("kernels/ptx/" + program + ".sm_" + std::to_string(sm) + ".ptx");
}

}  // namespace lockstep::test
