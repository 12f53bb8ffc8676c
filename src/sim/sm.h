#pragma once
// One streaming multiprocessor of the cycle-level model (docs/timing-model.md, "Sm"): warp slots
// split over scheduler partitions, each partition with its warp scheduler, execution units,
// register banks and operand collectors; one I-cache, I-buffer and scoreboard per SM. Execute at
// issue: when a warp issues, the functional engine runs exactly that instruction (func/step.h),
// so results equal functional mode's and the timing only decides when.
//
// The issue path's stage units follow one contract (pipeline_unit.h): the fetch unit, the LD/ST
// unit, each partition's operand collector and execution units, and the writeback unit; the SM
// moves work between them. Per cycle, in this order (a result written back in cycle t is visible to an
// issue in t + 1):
//   1. writeback: the writeback unit's results due release their scoreboard entries (write
//      ports permitting)
//   2. issue: each scheduler classifies its warps (stall reason or ready), its policy picks,
//      the chosen instruction executes functionally, reads its operands through the operand
//      collector and enters its unit
//   3. fetch and decode (fetch_unit.h): each partition fetches for one warp through the I-cache
//      into the I-buffer
// then, once every SM has stepped the cycle, the launch calls commit() on each in SM order:
//   4. commit: the cycle's instructions that change launch-wide state (stores and atomics to
//      global memory, printf, the device heap: InstTiming::deferred) run, in issue order, and
//      the cycle's trace records go out; then, on the stepping threads again, their accesses
//      enter each SM's LD/ST unit (commit_accesses: the unit is the SM's own).
// So while SMs step they only read what is shared (device memory as the last commit left it),
// and a cycle's outcome does not depend on the order, or the threads, SMs step in. A warp's
// own store is visible to its next instruction, which issues in a later cycle.
// Nothing on this path allocates: every structure is sized when the launch starts.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "config/gpu_config.h"
#include "func/bound_kernel.h"
#include "func/cta_runner.h"
#include "func/grid_progress.h"
#include "func/warp.h"
#include "sim/async_copies.h"
#include "sim/execution_unit.h"
#include "sim/fetch_unit.h"
#include "sim/instruction_buffer.h"
#include "sim/instruction_cache.h"
#include "sim/instruction_timing.h"
#include "sim/kernel_timing.h"
#include "sim/ldst_unit.h"
#include "sim/operand_collector.h"
#include "sim/scoreboard/scoreboard.h"
#include "sim/warp_scheduler/warp_scheduler.h"
#include "sim/writeback_unit.h"

namespace lockstep::sim {

// What every SM of a launch shares, read-only while SMs step: each SM copies the launch state
// and reads device memory through its own view; what changes launch-wide state waits for
// commit().
struct SmContext {
  const config::GpuConfig* gpu = nullptr;
  const func::BoundKernel* kernel = nullptr;
  const func::LaunchState* launch = nullptr;
  func::RunOptions run;                          // warp width, divergence unit, %envreg
  const func::TraceHook* trace = nullptr;        // may be null
  const std::vector<InstTiming>* timing = nullptr;  // per instruction
  RegisterSpace regs;
  uint32_t blocks_per_sm = 1;
  uint32_t shared_size = 0;   // bytes of shared memory per block
  // The memory hierarchy's LD/ST unit (memory.model = hierarchy); null: fixed latencies.
  const LdstUnitOptions* ldst = nullptr;
};

// A fault in the timing model, with the block it happened in.
struct TimingFault {
  func::LaunchFault fault;
  func::CtaState cta;  // ids only (ctaid, linear_id)
  // The grid of that block: the launch state of the kernel that faulted, the host-launched grid's
  // or a child grid's (null: no block to locate it at).
  const func::LaunchState* grid = nullptr;
  uint64_t warp_instructions = 0;    // issued before the fault, the faulting one included
  uint64_t thread_instructions = 0;
  func::DivergenceCounters divergence;
  // An interrupted launch (Ctrl-C): the figures up to the cycle it stopped in, for --stats-json.
  std::optional<KernelTiming> partial;
};

class Sm {
 public:
  // `available_from`: the first cycle the SM may take a block of this launch (the launch
  // before still holds it until then, timing.kernel_overlap = tail); cycles before it are not
  // this launch's to charge.
  Sm(uint32_t id, const SmContext& context, uint64_t available_from = 0);
  Sm(const Sm&) = delete;
  Sm& operator=(const Sm&) = delete;

  uint32_t id() const { return id_; }
  // The grid whose blocks it runs (SmContext::launch).
  const func::LaunchState* grid() const { return ctx_.launch; }
  // The CTA scheduler placed block `block` (linear index) here at `cycle`; its warps may fetch
  // from cycle + timing.block_launch_cycles. Building its warps is the SM's own work, so it
  // happens at the start of the SM's next cycle(), on the stepping threads; until then the SM
  // counts the block as resident (idle, next_change), so nothing outside can tell the difference.
  void place_block(uint64_t block, uint64_t cycle);

  // Runs cycle `now`; returns true when any state changed (an issue, a fetch, a completion).
  // Throws TimingFault for a device fault or a barrier deadlock.
  bool cycle(uint64_t now);
  // The cycle's end (step 4 above), in SM order: runs the deferred instructions of the last
  // cycle() and hands its trace records to the trace hook. Returns true when their accesses
  // still have to enter the LD/ST unit: commit_accesses, which may run on any thread once every
  // SM has committed. Throws TimingFault for a device fault.
  bool commit();
  void commit_accesses();
  // Whether commit() has anything to do: deferred instructions or trace records of the cycle.
  bool has_commit_work() const { return !deferred_.empty() || !trace_out_.empty(); }
  // Blocks finished in the last cycle(), in the order they finished.
  const std::vector<uint64_t>& finished_blocks() const { return finished_; }
  // After a cycle that changed nothing: the first cycle at which something can change
  // (UINT64_MAX: nothing pending). Every cycle before it would repeat the last one.
  uint64_t next_change(uint64_t now) const;

  // No resident block and nothing in flight: cycle() would change nothing. The launch does not
  // step an idle SM; the idle stretch is charged when the SM wakes up (a block is placed on it)
  // or the launch ends (charge_until).
  bool idle() const {
    return resident_blocks_ == 0 && placed_.empty() && writeback_.empty() && (ldst_ == nullptr || !ldst_->busy());
  }
  // The LD/ST unit of the memory hierarchy, for the memory system's serial phase; null under
  // fixed latencies.
  LdstUnit* ldst() { return ldst_.get(); }
  // Brings the SM's stall and residency figures up to (not including) `cycle`: the stretch
  // since it went idle as scheduler cycles with no warp, and the cycles it slept through (idle
  // skipping: each a repeat of the last one it stepped) at the reasons its last scans found.
  // The launch calls it before reading the figures; stepping charges as it goes.
  void charge_until(uint64_t cycle);
  // For the deadlock watchdog (launch_watchdog.h): the functional state of every resident
  // block, and those blocks as a deadlock report lists them.
  void hash_state(func::StateHasher& h) const;
  void stuck_blocks(std::vector<func::StuckBlock>& out) const;
  // Adds this SM's figures to `total` (counts only; the launch fills the rest).
  void add_stats(KernelTiming& total) const;
  // What an SM that never took a block of the launch adds up to (not including) `cycle`, had it
  // been built: its schedulers had no warp from `available_from` on (charge_idle_until). The
  // launch builds an SM only when its first block comes (a grid of a few blocks builds a few).
  static void add_unbuilt_stats(KernelTiming& total, const config::GpuConfig& gpu, uint64_t available_from,
                                uint64_t cycle);

 private:
  struct WarpSlot {
    bool resident = false;
    uint32_t cta_slot = 0;
    func::Warp* warp = nullptr;
    uint64_t ready_at = 0;        // SIMT-stack push/pop costs or a nanosleep hold issue until then
    bool sleeping = false;        // ready_at is a nanosleep's wake-up (stall reason sleeping)
    uint32_t in_flight = 0;       // issued instructions not yet complete
    uint32_t memory_in_flight = 0;  // of those, memory accesses
    // Ready but for its unit's issue slot, which frees at this cycle: pipeline busy until then
    // without asking again (nothing but its own issue can give it an earlier reason, and units
    // only get busier).
    uint64_t busy_until = 0;
    bool formed = false;          // its block forms warps (sm_formation.cpp): it issues only in them
    // The I-buffer head passed the checks before its unit (memory barrier, scoreboard): nothing
    // but the warp's own issue or flush, which change the head, can make them fail again (its
    // memory accesses in flight grow only at its issues; the scoreboards are per warp, and a
    // pending write only ever completes), so the scans skip them. A wait for asynchronous
    // copies is asked every time: other warps' copies can join it.
    mutable bool head_clear = false;
  };
  struct CtaSlot {
    bool busy = false;
    std::unique_ptr<func::CtaRunner> runner;
    func::CtaState cta;
    uint64_t block = 0;
    std::vector<uint32_t> warp_slots;  // SM warp slots of the block's warps, by warp index
    // Block-level units (dwf, tbc, large-warp; sm_formation.cpp): the block's issue in progress,
    // whose formed warps issue one per cycle, `next` the next of them; the writes its first one
    // reserved in every member's scoreboard, released when the last one completes.
    bool forms = false;
    bool planned = false;
    uint32_t asleep = 0;  // its warps held asleep by nanosleep (CtaRunner::set_asleep)
    func::FormedIssue issue;
    size_t next = 0;
    uint32_t executed_by = 0;  // the slot whose issue ran the instruction (the first formed warp's)
    uint32_t access = UINT32_MAX;  // its LD/ST unit instruction (kNoAccess: none)
    struct MemberWrites {
      uint32_t slot = 0;
      Reservation writes;
      uint32_t async_copy = AsyncCopies::kNoCopy;  // the copy the member's lanes started (async_copies.h)
    };
    std::vector<MemberWrites> writes;
    // sbi, swi (sm_co_issue.cpp): the issue's secondary path (issue.secondary). A sibling path
    // (sbi) is checked and reserved with the primary as one pair on the warp's scoreboard:
    // pair_ops (both instructions' registers) under pair_token, decoded when the issue is planned.
    // Another warp's path (swi) reserves its own writes, secondary_writes.
    bool paired = false;
    InstOperands pair_ops;
    ScoreboardToken pair_token = 0;
    Reservation secondary_writes;
  };
  // An issued instruction whose handler runs at commit().
  struct Deferred {
    uint32_t warp_slot = 0;
    ir::Pc pc = 0;
    func::LaneMask lanes = 0;
    uint32_t access = kNoAccess;  // its LD/ST unit instruction, when its accesses go through the hierarchy
    bool close = true;            // the last execution of that instruction (a formed warp's has several)
  };
  static constexpr uint32_t kNoAccess = UINT32_MAX;
  struct Partition {
    Partition(uint32_t warp_slots, const OperandCollectorOptions& operands)
        : collector(operands), ready(warp_slots), resident(warp_slots), running(warp_slots) {}
    std::unique_ptr<WarpScheduler> scheduler;
    std::vector<ExecutionUnit> units;      // by UnitKind
    OperandCollector collector;            // the register banks and operand collectors
    WarpSet ready;
    WarpSet resident;                      // local warp slots holding a warp
    WarpSet running;                       // the resident ones holding no reason (held below)
    // Per local warp slot: a stall reason that holds until an event ends it, so the issue scan
    // charges it without classifying the warp again (kNotSelected: none held). An exited warp
    // holds kExited until its block ends; a warp at a CTA barrier holds kBarrier until an issue
    // in its block that may release the barrier (a barrier instruction, a warp exiting); a
    // dependency stall (RAW, WAW, table full) holds until one of the warp's writes completes or
    // its I-buffer head changes. Most warps of a memory-bound kernel hold most cycles, and the
    // scan then charges them from held_counts, without visiting them (set_held keeps both).
    std::vector<StallReason> held;
    StallCounts held_counts{};             // resident warps by held reason
    uint32_t held_present = 0;             // reason_bit of each reason held_counts has warps for
    // The issue stage's scan of a partition that issued nothing holds until an event touches
    // one of its warps (a writeback, a fetch, an issue in the partition, a block starting or
    // ending, a CTA barrier's release, the LD/ST unit's room changing) or the clock reaches a
    // cycle the scan depended on (a fetch, a unit, a collector freeing). Until then the stage charges the same reasons without scanning:
    // most partitions of a memory-bound kernel wait most cycles.
    bool dirty = true;
    uint64_t scan_valid_until = 0;         // the first cycle the last scan may not hold in
    // What the last scan found is charged for every cycle until the next scan (or the SM going
    // idle), at once when that comes, not cycle by cycle: its warps by reason, and the
    // scheduler's reason. charged_from: the first cycle not yet charged; charging: false while
    // the SM is idle (charge_idle_until charges those cycles).
    StallCounts scan_warp_stalls{};  // valid only for the reasons in scan_present (bit i: reason i)
    uint32_t scan_present = 0;
    size_t scan_reason = 0;
    uint64_t charged_from = 0;
    bool charging = false;
  };
  // Charges a partition's last scan up to (not including) `cycle`.
  void charge_scan(Partition& part, uint64_t cycle);
  // Resident warps are charged the same way: charged_resident_ per cycle since residency_from_.
  void charge_residency(uint64_t cycle);
  // The SM went idle at `cycle`: its scans and residency stop charging there.
  void stop_charging(uint64_t cycle);
  // The cycles from when the SM went idle up to (not including) `cycle`, as scheduler cycles
  // with no warp. No-op while the SM is not idle.
  void charge_idle_until(uint64_t cycle);
  void mark_dirty() {
    for (Partition& part : partitions_) part.dirty = true;
  }

  StallReason held(uint32_t slot) const { return partitions_[partition_of(slot)].held[local_of(slot)]; }
  // The one way a resident warp's held reason changes (kNotSelected: none), so that the
  // partition's running set and held counts follow it.
  void set_held(uint32_t slot, StallReason reason);
  // Ends a held dependency stall (a write of the warp completed, its I-buffer changed).
  void end_dependency_hold(uint32_t slot) {
    const StallReason h = held(slot);
    if (h != StallReason::kExited && h != StallReason::kBarrier) set_held(slot, StallReason::kNotSelected);
  }
  // An issue in block `cta_slot` that may have released a CTA barrier: the warps it released
  // are classified again.
  void end_barrier_holds(uint32_t cta_slot);

  uint32_t partition_of(uint32_t slot) const { return slot % partitions_count_; }
  uint32_t local_of(uint32_t slot) const { return slot / partitions_count_; }
  uint32_t slot_of(uint32_t partition, uint32_t local) const { return local * partitions_count_ + partition; }

  bool writeback(uint64_t now);
  bool issue(uint32_t p, uint64_t now);
  // The fetch unit's tick; the partitions of the warps it touched scan again.
  bool fetch(uint64_t now);
  // The warp's stall reason this cycle, or kNotSelected when it is ready. When its unit's issue
  // slot is what holds it, *unit_free (if given) gets the cycle the slot frees.
  StallReason classify(uint32_t slot, uint64_t now, uint64_t* unit_free = nullptr) const;
  StallReason dependency_reason(uint32_t slot, const InstOperands& ops) const;
  // classify()'s last checks: the partition's unit for `t` and an operand collector.
  StallReason unit_reason(uint32_t slot, const InstTiming& t, uint64_t now, uint64_t* unit_free) const;
  void issue_instruction(uint32_t slot, uint64_t now);

  // Formed warps (sm_formation.cpp). Wakes the block's warps whose nanosleep has ended, then
  // plans the next issue of every block that forms warps and has none in progress; true when
  // one was planned.
  bool plan_formed_issues(uint64_t now);
  // classify() for a warp of such a block: only the slot of the first part of the formed warp
  // to issue next may be ready.
  StallReason classify_formed(uint32_t slot, uint64_t now, uint64_t* unit_free) const;
  // issue_instruction() for that slot: issues the next formed warp of its block.
  void issue_formed(uint32_t slot, uint64_t now);
  // The first formed warp of an issue: the members' decoded copies issue together (joined
  // scoreboards) and the instruction runs on each member.
  void execute_formed(uint32_t cta_slot, uint32_t slot, uint64_t now, const InstTiming& t);
  // After the instruction ran: the block's warps' I-buffers, and the deadlock check.
  void after_formed(uint32_t cta_slot);
  // After the issue's last formed warp (not before: an exited warp or one at a barrier may
  // still lead one of them): the exited and barrier holds of the block's warps.
  void hold_formed(uint32_t cta_slot, const InstTiming& t);
  // sbi, swi: the secondary path beside a planned issue (sm_co_issue.cpp). plan_secondary()
  // decodes a sibling pair's joined operands when the issue is planned; classify_secondary() is
  // classify_formed()'s check of what the secondary adds (kNotSelected: nothing holds it);
  // execute_secondary() runs it (before the primary's members, as functional mode does);
  // issue_secondary() gives it its operand reads and unit, returning the cycle its result is
  // ready (`done`: the primary's, when they share the unit).
  void plan_secondary(CtaSlot& c);
  StallReason classify_secondary(const CtaSlot& c, uint32_t lead, uint64_t now, uint64_t* unit_free) const;
  void execute_secondary(uint32_t cta_slot, uint64_t now);
  uint64_t issue_secondary(uint32_t cta_slot, uint32_t lead, uint64_t now, uint64_t dispatch, uint64_t done);
  // Whether the instruction's accesses go through the LD/ST unit (the hierarchy's spaces).
  bool through_ldst(const InstTiming& t) const {
    return ldst_ != nullptr && (t.space == MemorySpace::kGlobal || t.space == MemorySpace::kLocal ||
                                t.space == MemorySpace::kShared || t.space == MemorySpace::kConstant ||
                                t.space == MemorySpace::kTexture);
  }
  // The LD/ST unit's request for the memory instruction `t`.
  LdstRequest ldst_request(const InstTiming& t) const {
    return {t.access, t.bypass_l1, t.space == MemorySpace::kConstant,
            t.space == MemorySpace::kTexture ? ctx_.gpu->memory.texture_latency : 1};
  }
  // The LD/ST unit's finished instructions go to the writeback unit (their registers' writeback).
  void take_finished_accesses(uint64_t now);
  // Instruction-cache lines the hierarchy brought: they hit from now on, and the warps waiting on
  // them fetch.
  void take_instruction_fills(uint64_t now);
  // After the warp in `slot` issued the instruction `t`: folded moves, flushes, SIMT-stack costs,
  // held reasons (exit, barrier), deadlock check and block retirement.
  void after_issue(uint32_t slot, uint64_t now, size_t depth_before, const InstTiming& t);
  void flush(uint32_t slot);
  // nanosleep: the warp issues nothing for `ns` nanoseconds of the core clock. Without it, a
  // wait loop that backs off with nanosleep (cuda::barrier's, for one) never leaves the issue
  // slot to the warp it waits for under greedy-then-oldest.
  void sleep(uint32_t slot, uint64_t now, uint32_t ns);
  // Issue takes the warp's I-buffer head (its dependency hold ends; fetch may fill the entry).
  IBufferEntry issue_head(uint32_t slot);
  // Runs the folded moves (InstTiming::folded) at the warp's PC, then flushes the I-buffer when
  // they took the warp off its fetched path (a reconvergence). Called right after an issue, or
  // at commit() after a deferred instruction, whose handler must see the registers of its issue.
  void run_folded(uint32_t slot);
  // The first PC at or after `pc` that is not a folded move: where fetch and issue go on.
  uint32_t next_unfolded(uint32_t pc) const;
  void start_block(uint64_t block, uint64_t cycle);
  void finish_block(uint32_t cta_slot);
  // After a cycle that changed nothing: the first cycle after it at which a warp's fetch or
  // readiness, a unit or a collector changes (the part of next_change that only the SM's own
  // cycle can move, found on the stepping threads).
  uint64_t own_next_change(uint64_t now) const;
  [[noreturn]] void fail(uint32_t cta_slot, func::LaunchFault fault) const;

  uint32_t id_;
  const SmContext& ctx_;
  func::MemoryView memory_;   // this SM's reads of device memory
  func::LaunchState launch_;  // the launch's state with memory_ as its view
  std::vector<Deferred> deferred_;            // this cycle's, in issue order
  std::vector<func::AccessLog> deferred_logs_;  // per deferred_ entry: its accesses (commit -> commit_accesses)
  std::vector<func::TraceRecord> trace_out_;  // this cycle's, in issue order
  uint32_t partitions_count_;
  uint32_t issue_width_;
  uint32_t registers_per_warp_;  // scoreboard and pending_kind_ row size: slots + predicates, at least 1
  std::vector<Partition> partitions_;
  std::vector<WarpSlot> warps_;
  std::vector<CtaSlot> ctas_;
  std::vector<uint8_t> pending_kind_;  // warps x registers: 0, or what produces the pending write
  InstructionBuffer ibuffer_;
  std::unique_ptr<Scoreboard> scoreboard_;
  std::vector<uint32_t> fetch_next_pc_;  // per PC: where fetch goes on after it (FetchUnitOptions::next_pc)
  std::unique_ptr<FetchUnit> fetch_;
  WritebackUnit writeback_;
  uint64_t block_age_ = 0;
  uint32_t resident_blocks_ = 0;
  uint32_t forming_blocks_ = 0;  // resident blocks that form warps: without one, no planning per cycle
  uint32_t resident_warps_ = 0;
  uint64_t idle_since_ = 0;  // while idle(): the first cycle not yet charged
  uint64_t latest_ready_at_ = 0;  // no warp's ready_at is later (own_next_change scans only before it)
  std::vector<uint64_t> finished_;
  struct PlacedBlock {
    uint64_t block = 0;
    uint64_t cycle = 0;
  };
  std::vector<PlacedBlock> placed_;  // placed, started at the next cycle()
  // own_next_change after the last cycle() when it changed nothing, and that cycle.
  uint64_t own_next_change_ = 0;
  uint64_t own_next_change_of_ = UINT64_MAX;
  std::unique_ptr<LdstUnit> ldst_;
  func::AccessLog access_log_;
  // By LD/ST unit id: the completions its finish releases (one per member warp of a formed warp).
  std::vector<std::vector<Completion>> waiting_access_;
  func::TraceHook trace_buffer_;  // appends to trace_out_ (formed warps' records)
  uint64_t code_base_ = 0;  // the kernel's code in the hierarchy's address space
  AsyncCopies async_{0};     // the copies in flight that waits and mbarrier tests wait for

  // Figures.
  KernelTiming stats_;
  uint32_t charged_resident_ = 0;  // the resident warps the issue stage charges a reason to
  uint64_t residency_from_ = 0;    // the first cycle they are not yet charged for
};

}  // namespace lockstep::sim
