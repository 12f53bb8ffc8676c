#pragma once
// The chains the memory benchmarks chase, shared by the model's bench (memory_bench.cpp) and the
// real-GPU one (hw/measure.cu), so that both walk exactly the same addresses. Host-only, C++17
// (nvcc compiles measure.cu as such).
#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace lockstep::bench {

// `lines` distinct 128-byte lines of a `footprint`-byte buffer, in a random order from `seed`:
// line order[i] points to line order[i + 1], the last back to the first.
inline std::vector<uint64_t> chase_order(uint64_t footprint, uint64_t lines, uint32_t seed) {
  const uint64_t total_lines = footprint / 128;
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> order;
  if (lines == total_lines) {
    order.resize(lines);
    for (uint64_t i = 0; i < lines; ++i) order[i] = i;
    std::shuffle(order.begin(), order.end(), rng);
  } else {
    std::vector<bool> used(total_lines);
    while (order.size() < lines) {
      const uint64_t l = rng() % total_lines;
      if (!used[l]) used[l] = true, order.push_back(l);
    }
  }
  return order;
}

// The shared-memory chase over `words` 4-byte words: chain[w] is the word after w, in a fixed
// random cycle through all of them.
inline std::vector<uint32_t> shared_chase_chain(int words) {
  std::vector<uint32_t> perm(static_cast<size_t>(words));
  for (int i = 0; i < words; ++i) perm[i] = static_cast<uint32_t>(i);
  std::shuffle(perm.begin(), perm.end(), std::mt19937(7));
  std::vector<uint32_t> chain(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) chain[perm[i]] = perm[(i + 1) % perm.size()];
  return chain;
}

}  // namespace lockstep::bench
