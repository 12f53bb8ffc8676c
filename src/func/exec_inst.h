#pragma once
// The pre-decoded instruction the functional engine runs: a handler chosen once at load time
// plus resolved slot indices and handler-specific immediates. Never a string at run time.
#include <cstdint>

#include "func/divergence/warp_sync_kind.h"
#include "ir/program.h"

namespace lockstep::func {

class Warp;
struct ExecInst;

// Runs one instruction for the lanes in warp.exec (already masked by the guard). Handlers of
// ordinary instructions never touch the PC; control handlers (bra, call, ret, exit, barriers)
// set warp control state through Warp's control interface.
using Handler = void (*)(const ExecInst& inst, Warp& warp);

struct ExecInst {
  Handler fn = nullptr;
  uint32_t d[4] = {};    // destination register slots (or predicate indices, per handler)
  uint32_t s[6] = {};    // source slots; immediates and static special registers are slots too
  uint8_t nd = 0, ns = 0;
  bool has_guard = false;
  bool guard_negated = false;
  bool is_control = false;   // the handler sets the next PC itself
  // A .sync warp-level operation or bar.warp.sync (an ordinary instruction otherwise): before
  // the handler runs, execute() asks the warp's divergence unit to bring membermask's threads
  // (s[sync_member]) together; the unit may park the group instead (func/step.h).
  WarpSyncKind warp_sync = WarpSyncKind::None;
  uint8_t sync_member = 0;
  uint8_t width = 0;         // handler-specific small value (vector width, element count ...)
  uint32_t guard = 0;        // predicate index
  int64_t offset = 0;        // address offset, or other signed immediate
  uint64_t aux = 0;          // handler-specific (device address, mode, mask, ...)
  uint64_t aux2 = 0;         // handler-specific
  uint32_t table = 0;        // index into BoundKernel::tables for long operand lists
  ir::Pc target = ir::kNoPc;
  ir::Pc reconverge = ir::kNoPc;
  ir::Pc pc = 0;
};

}  // namespace lockstep::func
