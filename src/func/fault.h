#pragma once
// A device-side fault raised by a handler. The engine catches it, adds the kernel, block,
// thread, PC and source lines, and ends the launch with a report.
#include <cstdint>
#include <string>

namespace lockstep::func {

enum class FaultKind : uint8_t {
  OutOfBounds,     // address not inside any allocation / window
  Misaligned,      // address not aligned to the access size
  Trap,            // trap instruction
  AssertFailed,    // __assertfail
  StackOverflow,   // call frames exceed the per-thread stack
  Deadlock,        // barrier can never complete / spin without progress
  Unsupported,     // an operation reached at run time that the engine does not model
  InvalidFree,     // device free() of an address malloc did not return
  MbarrierMisuse,  // an mbarrier operation on no barrier, or one its state cannot take
  Interrupted,     // the user stopped the run (SIGINT, func/interrupt.h)
};

const char* to_string(FaultKind kind);

struct DeviceFault {
  FaultKind kind = FaultKind::OutOfBounds;
  uint32_t lane = 0;
  uint64_t address = 0;
  uint32_t size = 0;
  std::string space;   // "global", "shared", "local", "generic", ...
  std::string detail;  // extra words (assert message, ...)
};

}  // namespace lockstep::func
