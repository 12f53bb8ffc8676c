#pragma once
// Gathering MemoryTiming from the units that count (sim/memory_timing.h).
#include "mem/memory_system.h"
#include "mem/sector_cache.h"
#include "sim/ldst_unit.h"
#include "sim/memory_timing.h"

namespace lockstep::sim {

void add_cache_figures(const mem::SectorCacheStats& s, CacheFigures& into);
// One SM's LD/ST unit and L1.
void add_ldst_figures(const LdstUnit& unit, MemoryTiming& into);
// The memory system's L2 and DRAM counters as they stand (cumulative over its life).
MemoryTiming memory_system_figures(const mem::MemorySystem& memory);
// into's L2 and DRAM figures become (after - before): one launch's share.
void add_memory_system_difference(const MemoryTiming& after, const MemoryTiming& before, MemoryTiming& into);

}  // namespace lockstep::sim
