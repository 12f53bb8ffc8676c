#pragma once
// One warp's architectural state as instruction handlers see it: registers stored slot-major
// and lane-contiguous (regs[slot * width + lane]), predicates as one lane mask each, and
// checked access to every memory space. The control state (PC, divergence, calls) is kept here
// too but only control handlers and the engine touch it.
#include <cstdint>
#include <string>
#include <vector>

#include "func/access_log.h"
#include "func/barrier.h"
#include "func/device_memory.h"
#include "func/fault.h"
#include "func/lanes.h"
#include "ir/program.h"

namespace lockstep::func {

class DivergenceUnit;
class DeviceHeap;
class DeviceLaunches;
struct DeviceInfo;
struct BoundKernel;

// State shared by all warps of a thread block.
struct CtaState {
  uint32_t ctaid[3] = {0, 0, 0};
  uint32_t linear_id = 0;
  std::vector<uint8_t> shared;  // static + dynamic shared memory
  uint32_t shared_size = 0;
  uint32_t live_warps = 0;       // warps with at least one thread not exited
  std::vector<Warp>* warps = nullptr;  // the CTA's warps (barrier release)
  CtaBarriers barriers;
};

// State shared by every warp of a launch.
struct LaunchState {
  MemoryView* memory = nullptr;      // this reader's view (one per SM in the timing model)
  const BoundKernel* kernel = nullptr;
  const uint8_t* params = nullptr;   // kernel parameter buffer
  uint32_t param_size = 0;
  uint32_t grid[3] = {1, 1, 1};
  uint32_t block[3] = {1, 1, 1};
  uint32_t dynamic_shared = 0;
  uint32_t stack_size = 0;           // per-thread local memory bytes
  uint64_t grid_id = 0;
  std::string* printf_out = nullptr; // device printf output of this launch
  DeviceHeap* heap = nullptr;  // malloc/free in kernels
  DeviceLaunches* device_launches = nullptr;  // kernel launches from device code (CDP)
  const DeviceInfo* device_info = nullptr;    // what device code's cudaDeviceGetAttribute answers
  AccessLog* access_log = nullptr;  // the timing model's record of each instruction's accesses
  // The clock the warps' cycles count (%globaltimer is ns: cycles * 1000 / clock_mhz): the
  // preset's core clock in timing mode, a nominal 1 GHz for functional mode's instruction counts.
  uint32_t clock_mhz = 1000;
};

// Thrown by handlers; the engine turns it into a located report.
struct FaultException {
  DeviceFault fault;
};

struct CallFrame {
  ir::Pc return_pc;
  uint32_t function;        // callee index
  uint32_t caller_function;
  uint32_t frame_base;      // callee frame base (bytes into the local stack)
  uint32_t caller_frame_base;
  uint32_t result_dst;      // caller frame offset receiving the callee's result, or ~0u
  uint32_t result_src;      // callee frame offset of the result
  uint32_t result_size;
  size_t saved_regs_at;     // index into Warp::saved_regs (recursion) or ~size_t(0)
};

class Warp {
 public:
  // ---- handler view -------------------------------------------------------------------
  uint32_t width = 32;
  LaneMask exec = 0;            // lanes executing the current instruction
  uint64_t* regs = nullptr;     // slot-major, lane-contiguous
  LaneMask* preds = nullptr;

  uint64_t* r(uint32_t slot) { return regs + static_cast<size_t>(slot) * width; }
  LaneMask& p(uint32_t index) { return preds[index]; }

  // Host pointers for an access of `size` bytes by `lane`; fault when outside the space or
  // not aligned to `align` (pass the natural alignment of the access).
  uint8_t* global(uint64_t addr, uint32_t size, uint32_t align, uint32_t lane);
  uint8_t* shared(uint64_t offset, uint32_t size, uint32_t align, uint32_t lane);
  uint8_t* local(uint64_t offset, uint32_t size, uint32_t align, uint32_t lane);
  // A generic address in kParamWindow reads the parameter buffer; `write` makes that a fault.
  uint8_t* generic(uint64_t addr, uint32_t size, uint32_t align, uint32_t lane, bool write = false);
  // The kernel parameter buffer at `offset` (read only).
  const uint8_t* param(uint64_t offset, uint32_t size, uint32_t align, uint32_t lane);
  const uint8_t* params() const { return launch->params; }
  uint32_t frame_base() const { return frame_base_; }

  [[noreturn]] void fault(FaultKind kind, uint32_t lane, uint64_t address, uint32_t size,
                          const char* space, std::string detail = {});

  // Lanes of this warp that exist (a partial last warp has fewer); exited lanes are cleared.
  LaneMask live = 0;
  uint32_t warp_id = 0;      // index in the block
  uint64_t clock = 0;        // this warp's notion of time (instructions issued so far)

  CtaState* cta = nullptr;
  LaunchState* launch = nullptr;

  // ---- control state (engine and control handlers) ---------------------------------
  ir::Pc pc = 0;
  LaneMask active = 0;         // lanes on the current path
  ir::Pc reconverge_at = ir::kNoPc;  // cached top-of-stack reconvergence PC
  DivergenceUnit* divergence = nullptr;
  uint32_t function = 0;       // current function index
  uint32_t frame_base_ = 0;    // current frame offset into each lane's local stack
  std::vector<CallFrame> calls;
  std::vector<uint64_t> saved_regs;
  std::vector<uint8_t> local_memory;  // width * stack_size, lane-major
  enum class Status : uint8_t { Running, AtBarrier, Exited } status = Status::Running;
  uint32_t barrier_id = 0;           // barrier the warp waits on
  ir::Pc barrier_pc = 0;             // the barrier instruction it waits at
  // bar.red: where this warp receives the reduction when its barrier completes.
  BarrierReduction pending_reduction = BarrierReduction::None;
  uint32_t reduction_dst = 0;        // slot (popc) or predicate index (and/or)
  LaneMask reduction_lanes = 0;
};

}  // namespace lockstep::func
