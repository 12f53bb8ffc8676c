#pragma once
// One access as a DRAM channel sees it: some bytes at a channel-local address (the memory system
// has already removed the channel-select bits), and the MemRequest it serves, carried through
// untouched and handed back on completion.
#include <cstdint>

#include "mem/mem_request.h"

namespace lockstep::mem {

struct DramRequest {
  uint64_t address = 0;  // channel-local byte address
  uint32_t bytes = 32;   // a sector, or a multiple; must not cross a row
  bool write = false;
  MemRequest request;
};

}  // namespace lockstep::mem
