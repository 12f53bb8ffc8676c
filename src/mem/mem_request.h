#pragma once
// What travels between the SMs and the memory partitions: one request for some 32-byte sectors
// of one 128-byte line, and its response. Every unit of src/mem/ speaks in these terms; the
// requester's token comes back unchanged with the response.
#include <cstdint>

namespace lockstep::mem {

enum class AccessKind : uint8_t {
  kRead,    // a load (or an instruction fetch): the sectors' data comes back
  kWrite,   // a store: an acknowledgement comes back
  kAtomic,  // an atomic or reduction, executed at the L2: the old values come back
};

struct MemRequest {
  uint64_t line = 0;         // byte address / line bytes
  uint32_t sectors = 0;      // bit i: sector i of the line
  AccessKind kind = AccessKind::kRead;
  uint32_t source = 0;       // the requesting SM
  uint64_t token = 0;        // the requester's id for this request, returned with the response
  uint64_t issued = 0;       // cycle the requester sent it (for latency statistics)
};

}  // namespace lockstep::mem
