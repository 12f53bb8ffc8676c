// Tensor-core speed of the functional engine: an n x n x n GEMM through wmma in f16 (f32
// accumulate), bf16, tf32 and f64 (kernels/wmma_gemm.cu), one warp per output tile. Prints the
// seconds and the multiply-accumulates per second of each; every result is checked exactly
// against the CPU (the inputs are small integers, so every sum is exact in each type).
//
//   build/bench/lockstep_wmma_bench [--quick] [--size N] [--threads T] [--type NAME]
//       (N: a multiple of 16, default 1024; T: host threads, default 1; NAME: f16, bf16, tf32
//       or f64 to run that type alone, e.g. under a profiler)
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "fmt/format.h"

namespace {

using Clock = std::chrono::steady_clock;

int a_value(uint32_t i, uint32_t k) { return static_cast<int>((i * 3 + k * 5) % 7) - 3; }
int b_value(uint32_t k, uint32_t j) { return static_cast<int>((k * 2 + j) % 5) - 2; }

// The bits of a small integer in each input type.
uint16_t to_f16(int v) {
  if (v == 0) return 0;
  const uint16_t sign = v < 0 ? 0x8000 : 0;
  uint32_t m = static_cast<uint32_t>(v < 0 ? -v : v);
  int e = 0;
  while ((m >> e) > 1) ++e;
  const uint32_t mantissa = (m << (10 - e)) & 0x3ff;
  return static_cast<uint16_t>(sign | ((e + 15) << 10) | mantissa);
}
uint16_t to_bf16(int v) {
  const float f = static_cast<float>(v);
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return static_cast<uint16_t>(bits >> 16);  // small integers are exact in bf16
}

struct Kind {
  const char* name;
  const char* kernel;
  uint32_t tile_m, tile_n, in_bytes, out_bytes;
};

template <class T>
std::vector<uint8_t> bytes_of(const std::vector<T>& v) {
  std::vector<uint8_t> out(v.size() * sizeof(T));
  std::memcpy(out.data(), v.data(), out.size());
  return out;
}

std::vector<uint8_t> matrix(const Kind& kind, uint32_t n, bool is_a) {
  const size_t count = size_t{n} * n;
  auto value = [&](size_t idx) {
    const uint32_t r = static_cast<uint32_t>(idx / n), c = static_cast<uint32_t>(idx % n);
    return is_a ? a_value(r, c) : b_value(r, c);
  };
  const std::string name = kind.name;
  if (name == "f16" || name == "bf16") {
    std::vector<uint16_t> v(count);
    for (size_t i = 0; i < count; ++i) v[i] = name == "f16" ? to_f16(value(i)) : to_bf16(value(i));
    return bytes_of(v);
  }
  if (name == "tf32") {
    std::vector<float> v(count);
    for (size_t i = 0; i < count; ++i) v[i] = static_cast<float>(value(i));
    return bytes_of(v);
  }
  std::vector<double> v(count);
  for (size_t i = 0; i < count; ++i) v[i] = static_cast<double>(value(i));
  return bytes_of(v);
}

// Elements of C that differ from the exact product.
size_t mismatches(const Kind& kind, uint32_t n, const std::vector<uint8_t>& c) {
  std::vector<int64_t> expected(size_t{n} * n, 0);
  for (uint32_t i = 0; i < n; ++i)
    for (uint32_t k = 0; k < n; ++k) {
      const int64_t a = a_value(i, k);
      for (uint32_t j = 0; j < n; ++j) expected[size_t{i} * n + j] += a * b_value(k, j);
    }
  size_t wrong = 0;
  for (size_t idx = 0; idx < expected.size(); ++idx) {
    double got;
    if (kind.out_bytes == 8) {
      std::memcpy(&got, c.data() + idx * 8, 8);
    } else {
      float f;
      std::memcpy(&f, c.data() + idx * 4, 4);
      got = f;
    }
    wrong += got != static_cast<double>(expected[idx]);
  }
  return wrong;
}

}  // namespace

int main(int argc, char** argv) {
  uint32_t n = 1024, threads = 1;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) n = 256;
    else if (std::strcmp(argv[i], "--size") == 0 && i + 1 < argc) n = static_cast<uint32_t>(std::stoul(argv[++i]));
    else if (std::strcmp(argv[i], "--threads") == 0 && i + 1 < argc)
      threads = static_cast<uint32_t>(std::max(1UL, std::stoul(argv[++i])));
    else if (std::strcmp(argv[i], "--type") == 0 && i + 1 < argc)
      only = argv[++i];
  }
  if (n == 0 || n % 16 != 0) {
    fmt::print(stderr, "lockstep_wmma_bench: --size must be a positive multiple of 16\n");
    return 2;
  }
  lockstep::EngineOptions options;
  options.sim_threads = threads;
  lockstep::Engine engine(options);
  const lockstep::ModuleId m = engine.load_ptx_file(LOCKSTEP_WMMA_PTX);
  const Kind kinds[] = {{"f16", "gemm_f16", 16, 16, 2, 4},
                        {"bf16", "gemm_bf16", 16, 16, 2, 4},
                        {"tf32", "gemm_tf32", 16, 16, 4, 4},
                        {"f64", "gemm_f64", 8, 8, 8, 8}};
  if (!only.empty() && std::none_of(std::begin(kinds), std::end(kinds),
                                    [&](const Kind& k) { return only == k.name; })) {
    fmt::print(stderr, "lockstep_wmma_bench: unknown --type '{}' (known: f16, bf16, tf32, f64)\n",
               only);
    return 2;
  }
  fmt::print("wmma GEMM {0}x{0}x{0}, functional mode, {1} thread{2}\n", n, threads, threads == 1 ? "" : "s");
  int status = 0;
  for (const Kind& kind : kinds) {
    if (!only.empty() && only != kind.name) continue;
    const std::vector<uint8_t> a = matrix(kind, n, true), b = matrix(kind, n, false);
    const uint64_t da = engine.malloc(a.size()), db = engine.malloc(b.size());
    const uint64_t dc = engine.malloc(uint64_t{n} * n * kind.out_bytes);
    engine.copy_to_device(da, a.data(), a.size());
    engine.copy_to_device(db, b.data(), b.size());
    const uint32_t warps = (n / kind.tile_m) * (n / kind.tile_n);
    const auto start = Clock::now();
    const lockstep::LaunchResult r =
        engine.launch(m, kind.kernel, {(warps + 3) / 4, 1, 1}, {128, 1, 1}, 0,
                      {lockstep::KernelArg::of(da), lockstep::KernelArg::of(db), lockstep::KernelArg::of(dc),
                       lockstep::KernelArg::of(static_cast<int>(n))});
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    std::vector<uint8_t> c(size_t{n} * n * kind.out_bytes);
    engine.copy_to_host(c.data(), dc, c.size());
    const size_t wrong = r.fault ? c.size() : mismatches(kind, n, c);
    const double macs = double(n) * n * n;
    fmt::print("{:<5} {:>8.3f} s  {:>8.1f} M MAC/s  {:>9} warp-inst  {}\n", kind.name, seconds, macs / seconds / 1e6,
               r.warp_instructions, wrong == 0 ? "exact" : fmt::format("{} WRONG", wrong));
    if (wrong != 0) status = 1;
    engine.free(da);
    engine.free(db);
    engine.free(dc);
  }
  return status;
}
