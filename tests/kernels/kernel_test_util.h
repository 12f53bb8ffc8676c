#pragma once
// Shared code for the tests/kernels program tests: the (architecture, warp size) parameter
// space, a fixture that owns an Engine configured for one parameter, a portable deterministic
// random generator, and vector comparisons that report the first mismatch instead of
// thousands of lines.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "common/harness.h"
#include "config/gpu_config.h"
#include "engine/engine.h"

namespace lockstep::test {

// One run of a program: which committed PTX (sm_XX), which engine warp size, and functional
// mode or the cycle-level model of a preset (whose results must be the same, issue 5).
struct KernelCase {
  int sm = 80;
  uint32_t warp_size = 32;
  const char* timing = nullptr;  // a preset name: timing mode on it; null: functional mode
  const char* divergence = nullptr;  // sm.divergence; null: the default (branch-barrier)
};

inline void PrintTo(const KernelCase& c, std::ostream* os) {
  *os << "sm_" << c.sm << "/warp" << c.warp_size;
  if (c.timing != nullptr) *os << "/timing-" << c.timing;
  if (c.divergence != nullptr) *os << "/" << c.divergence;
}

// Whether a program uses warp-level operations (shfl, vote, match, redux, activemask, wmma).
// Those only make sense at the hardware warp size of 32; everything else must also give the
// same results at warp sizes 8 and 64.
enum class WarpOps { kNone, kUsed };

inline std::vector<KernelCase> kernel_cases(WarpOps warp_ops,
                                            std::initializer_list<int> archs = {75, 80, 90}) {
  std::vector<KernelCase> cases;
  for (int sm : archs) {
    cases.push_back({sm, 32});
    if (warp_ops == WarpOps::kNone) {
      cases.push_back({sm, 8});
      cases.push_back({sm, 64});
    }
  }
  // Timing mode, on the newest PTX: the h100 preset, and the teaching preset's 8-lane warps for
  // programs without warp-level operations, with SMs stepped on two threads.
  const int newest = *std::max_element(archs.begin(), archs.end());
  cases.push_back({newest, 32, "h100"});
  if (warp_ops == WarpOps::kNone) cases.push_back({newest, 8, "teaching"});
  // The default divergence unit is branch-barrier (every case above); the SIMT stack must run
  // them all too (functional mode: the timing model runs the same func::execute step).
  cases.push_back({newest, 32, nullptr, "ipdom-stack"});
  // Thread frontiers (lowest PC first) in both modes, and on 8-lane warps, where more warps split.
  cases.push_back({newest, 32, nullptr, "thread-frontier"});
  if (warp_ops == WarpOps::kNone) cases.push_back({newest, 8, nullptr, "thread-frontier"});
  cases.push_back({newest, 32, "h100", "thread-frontier"});
  // The block-level units, which form warps across a block's warps; warp size 8 as well, so that
  // small warps merge across a block.
  for (const char* unit : {"dwf", "tbc", "large-warp", "sbi", "swi"}) {
    cases.push_back({newest, 32, nullptr, unit});
    if (warp_ops == WarpOps::kNone) cases.push_back({newest, 8, nullptr, unit});
  }
  // The block-level units in timing mode (sbi and swi co-issue on top of the same formation;
  // tests/timing/co_issue_test.cpp pins the seed figures' traces), at one warp width only (test
  // time): the teaching preset's 8 lanes, or h100's 32 for programs with warp-level operations.
  for (const char* unit : {"dwf", "tbc", "large-warp", "sbi", "swi"}) {
    if (warp_ops == WarpOps::kNone) {
      cases.push_back({newest, 8, "teaching", unit});
    } else {
      cases.push_back({newest, 32, "h100", unit});
    }
  }
  return cases;
}

// Test-name suffix for INSTANTIATE_TEST_SUITE_P, e.g. "sm80_warp32".
inline std::string kernel_case_name(const ::testing::TestParamInfo<KernelCase>& info) {
  std::string name = "sm" + std::to_string(info.param.sm) + "_warp" + std::to_string(info.param.warp_size);
  if (info.param.timing != nullptr) name += std::string("_timing_") + info.param.timing;
  if (info.param.divergence != nullptr) {
    std::string unit = info.param.divergence;
    if (unit == "ipdom-stack") unit = "ipdom";
    if (unit == "branch-barrier") unit = "barrier";
    std::replace(unit.begin(), unit.end(), '-', '_');  // gtest names take no '-'
    name += "_" + unit;
  }
  return name;
}

// Fixture: an Engine built with the parameter's warp size. load() reads the committed PTX of a
// program for the parameter's architecture.
class KernelProgramTest : public ::testing::TestWithParam<KernelCase> {
 protected:
  static EngineOptions options_for(const KernelCase& c) {
    EngineOptions options;
    options.warp_size = c.warp_size;
    if (c.divergence != nullptr) options.divergence = c.divergence;
    if (c.timing != nullptr) {
      std::vector<std::string> overrides = {"sm.warp_size=" + std::to_string(c.warp_size)};
      if (c.divergence != nullptr) overrides.push_back(std::string("sm.divergence=") + c.divergence);
      // The teaching SM holds 256 threads; some programs here use blocks of up to 1024.
      if (std::string(c.timing) == "teaching") {
        for (const char* o : {"sm.max_threads=1024", "sm.max_threads_per_block=1024", "sm.registers=32768",
                              "sm.max_registers_per_block=32768"})
          overrides.emplace_back(o);
      }
      options.timing = std::make_shared<const config::GpuConfig>(config::load_gpu_config(c.timing, overrides));
    }
    // Two threads step the SMs or run the resident blocks: results must not depend on it
    // (tests/timing/parallel_steps_test, tests/engine/functional_threads_test).
    options.sim_threads = 2;
    return options;
  }

  ModuleId load(const std::string& program) {
    return engine_.load_ptx_file(kernel_ptx_path(program, GetParam().sm));
  }

  Engine engine_{options_for(GetParam())};
};

// splitmix64: identical sequences on every platform and standard library (unlike the
// std:: distributions), so test inputs are the same everywhere.
class TestRng {
 public:
  explicit TestRng(uint64_t seed) : state_(seed) {}

  uint64_t next_u64() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint32_t next_u32() { return static_cast<uint32_t>(next_u64() >> 32); }
  // Uniform integer in [lo, hi] (hi - lo < 2^32; the tiny modulo bias does not matter here).
  int32_t range(int32_t lo, int32_t hi) {
    uint64_t span = static_cast<uint64_t>(static_cast<int64_t>(hi) - lo) + 1;
    return static_cast<int32_t>(lo + static_cast<int64_t>(next_u64() % span));
  }
  // Uniform float in [lo, hi): 24 random mantissa bits scaled, so every value is exact.
  float uniform(float lo, float hi) {
    float unit = static_cast<float>(next_u32() >> 8) * (1.0f / 16777216.0f);
    return lo + (hi - lo) * unit;
  }

 private:
  uint64_t state_;
};

template <class T>
std::vector<T> random_ints(TestRng& rng, size_t count, int32_t lo, int32_t hi) {
  std::vector<T> v(count);
  for (auto& x : v) x = static_cast<T>(rng.range(lo, hi));
  return v;
}

inline std::vector<float> random_floats(TestRng& rng, size_t count, float lo, float hi) {
  std::vector<float> v(count);
  for (auto& x : v) x = rng.uniform(lo, hi);
  return v;
}

template <class T>
uint64_t bits_of(const T& value) {
  static_assert(sizeof(T) <= sizeof(uint64_t));
  uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  return bits;
}

// Exact equality of two vectors, by bit pattern (so -0.0f != +0.0f and NaNs compare): reports
// the number of mismatches and the first one.
template <class T>
::testing::AssertionResult same_bits(const std::vector<T>& actual, const std::vector<T>& expected) {
  if (actual.size() != expected.size()) {
    return ::testing::AssertionFailure()
           << "size " << actual.size() << " != expected size " << expected.size();
  }
  size_t mismatches = 0, first = 0;
  for (size_t i = 0; i < actual.size(); ++i) {
    if (bits_of(actual[i]) != bits_of(expected[i])) {
      if (mismatches == 0) first = i;
      ++mismatches;
    }
  }
  if (mismatches == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << mismatches << " of " << actual.size() << " elements differ; first at [" << first
         << "]: got " << +actual[first] << " expected " << +expected[first];
}

// A float product rounded on its own: the volatile store keeps the host compiler from fusing
// it into a following add (matches a PTX mul.f32 that nvcc did not contract).
inline float mul_rn(float a, float b) {
  volatile float product = a * b;
  return product;
}

// Ceiling division for grid sizes.
inline uint32_t blocks_for(uint64_t items, uint32_t per_block) {
  return static_cast<uint32_t>((items + per_block - 1) / per_block);
}

}  // namespace lockstep::test
