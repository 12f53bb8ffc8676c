#pragma once
// What the Engine makes of the options it is given, before anything runs.
#include "engine/engine.h"

namespace lockstep {

// `options` with timing mode's preset keys applied (sm.divergence, sm.yield_after,
// sm.large_warp_size, the watchdog), so that both modes run the same divergence unit; throws
// std::invalid_argument naming the bad value (warp size, divergence unit, a count of 0, a
// block-level unit in timing mode).
EngineOptions checked_engine_options(EngineOptions options);

}  // namespace lockstep
