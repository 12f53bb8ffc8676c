// EngineOptions: the thread-count parser and the checks the Engine runs on its options.
#include "engine/engine_options.h"

#include <algorithm>
#include <charconv>
#include <stdexcept>

#include "config/gpu_config.h"
#include "fmt/format.h"
#include "func/divergence/divergence_unit.h"
#include "func/divergence/warp_formation.h"

namespace lockstep {

std::optional<uint32_t> parse_sim_threads(std::string_view text) {
  uint32_t n = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (error != std::errc{} || end != text.data() + text.size() || n < 1 || n > kMaxSimThreads) return std::nullopt;
  return n;
}

EngineOptions checked_engine_options(EngineOptions options) {
  const uint32_t w = options.warp_size;
  if (w < 1 || w > 64 || (w & (w - 1)) != 0)
    throw std::invalid_argument(fmt::format("warp_size must be 1, 2, 4, 8, 16, 32 or 64, got {}", w));
  if (options.timing && options.timing->sm.warp_size != w)
    throw std::invalid_argument(fmt::format("warp_size {} differs from the timing model's sm.warp_size {}", w,
                                            options.timing->sm.warp_size));
  // Timing mode: the preset's sm.divergence rules, so that the two modes run the same unit.
  if (options.timing && !options.timing->sm.divergence.empty()) {
    options.divergence = options.timing->sm.divergence;
    options.yield_after = options.timing->sm.yield_after;
    options.large_warp_size = options.timing->sm.large_warp_size;
  }
  if (options.timing) options.watchdog = options.timing->run;
  const std::vector<std::string>& units = func::divergence_unit_names();
  if (std::find(units.begin(), units.end(), options.divergence) == units.end()) {
    std::string known;
    for (const std::string& u : units) known += (known.empty() ? "" : ", ") + u;
    throw std::invalid_argument(fmt::format("bad divergence unit '{}' (sm.divergence): expected one of {}",
                                            options.divergence, known));
  }
  if (options.yield_after == 0) throw std::invalid_argument("sm.yield_after must be at least 1");
  if (options.large_warp_size == 0) throw std::invalid_argument("sm.large_warp_size must be at least 1");
  return options;
}

}  // namespace lockstep
