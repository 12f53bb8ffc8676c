#pragma once
// A Runtime with one registered kernel for the graph tests: scale(float* x, float a, int n)
// from data/scale.cu, x[i] = x[i] * a + c_tab[i & 3] with c_tab = {1, 2, 3, 4}, registered from
// the committed fat binary as nvcc's start-up code would.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "runtime/fatbin_test_data.h"
#include "runtime/runtime.h"

namespace lockstep::test {

class GraphRuntime : public ::testing::Test {
 protected:
  GraphRuntime()
      : err_(std::tmpfile()),
        runtime_(runtime::RuntimeOptions{}, stdout, err_),
        image_(read_data_file("ptx80_ptx90.fatbin")) {
    wrapper_.data = image_.data();
    void** handle = runtime_.register_fatbin(&wrapper_);
    runtime_.register_kernel(handle, kScale, "_Z5scalePffi");
  }
  ~GraphRuntime() override { std::fclose(err_); }

  std::string messages() {
    std::fflush(err_);
    std::rewind(err_);
    std::string text;
    for (int c = std::fgetc(err_); c != EOF; c = std::fgetc(err_)) text += static_cast<char>(c);
    return text;
  }
  // Device memory holding `values`.
  float* upload(const std::vector<float>& values) {
    void* p = nullptr;
    EXPECT_EQ(runtime_.malloc(&p, values.size() * sizeof(float)), cudaSuccess);
    EXPECT_EQ(runtime_.memcpy(p, values.data(), values.size() * sizeof(float), cudaMemcpyHostToDevice), cudaSuccess);
    return static_cast<float*>(p);
  }
  std::vector<float> download(const float* p, size_t count) {
    std::vector<float> out(count);
    EXPECT_EQ(runtime_.memcpy(out.data(), p, count * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
    return out;
  }
  // A scale node over `count` floats at `x`, one block.
  runtime::KernelNodeOp scale_node(float*& x, float& a, int& n) {
    runtime::KernelNodeOp op;
    void* args[] = {&x, &a, &n};
    EXPECT_EQ(runtime_.kernel_node(op, kScale, Dim3{1, 1, 1}, Dim3{32, 1, 1}, 0, args, nullptr), cudaSuccess);
    return op;
  }
  cudaError_t run(const runtime::Graph& g) {
    std::optional<std::vector<size_t>> order = g.topological_order();
    EXPECT_TRUE(order.has_value());
    return runtime_.run_graph(g, *order);
  }

  // Stands for the kernel's host stub: only its address matters.
  static inline const char kScaleStubToken = 0;
  static constexpr const void* kScale = &kScaleStubToken;

  struct Wrapper {  // __fatBinC_Wrapper_t
    int magic = 0x466243b1;
    int version = 1;
    const void* data = nullptr;
    void* unused = nullptr;
  };
  std::FILE* err_;
  runtime::Runtime runtime_;
  std::vector<uint8_t> image_;
  Wrapper wrapper_;
};

}  // namespace lockstep::test
