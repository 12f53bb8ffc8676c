#pragma once
// The asynchronous copies an SM has in flight (docs/timing-model.md, "Asynchronous copies").
// Functional mode runs every copy at issue (func/ops/memory_async.cpp); the timing model sends
// its accesses to the memory model like a load's, and this bookkeeping says which later
// instructions must wait for them:
//   - cp.async copies join their warp's open group; cp.async.commit_group closes it;
//     cp.async.wait_group N holds the warp until every committed group but the newest N has
//     completed, cp.async.wait_all until every copy has. The bulk groups
//     (cp.async.bulk.commit_group / wait_group) work the same on the bulk_group copies.
//   - a copy that completes on an mbarrier (a bulk copy's complete_tx, or the copies that a
//     cp.async.mbarrier.arrive waits for) is pending on that mbarrier until its access completes:
//     mbarrier.test_wait / try_wait on it is held at issue until then.
// Groups are tracked per warp (a warp's lanes commit and wait together). Nothing here changes
// what an instruction computes: it only decides when the warp may issue it.
#include <cstdint>
#include <vector>

#include "func/exec_inst.h"
#include "func/warp.h"
#include "ir/program.h"
#include "sim/instruction_timing.h"

namespace lockstep::sim {


class AsyncCopies {
 public:
  static constexpr uint32_t kNoCopy = UINT32_MAX;

  explicit AsyncCopies(uint32_t warp_slots);

  // Whether the async bookkeeping holds warp `slot` (of block `cta_slot`) from issuing `in`,
  // whose timing is `t`, this cycle.
  bool holds(uint32_t slot, uint32_t cta_slot, const InstTiming& t, const func::ExecInst& in,
             const func::Warp& w) const;
  // Warp `slot` issues `in` for `lanes`, before it executes (its registers as at issue). Returns
  // the copy it starts (kNoCopy: none), which completed() ends when its accesses are done.
  uint32_t issue(uint32_t slot, uint32_t cta_slot, const InstTiming& t, const func::ExecInst& in,
                 const func::Warp& w, func::LaneMask lanes);
  void completed(uint32_t copy);
  // The warp's slot is free again (its block finished: its copies all completed).
  void clear_warp(uint32_t slot);

 private:
  struct Group {
    uint64_t id = 0;
    uint32_t outstanding = 0;
  };
  // One kind of group (cp.async, or the bulk groups) of one warp.
  struct Groups {
    uint64_t open_id = 0;        // the id the open group will have
    uint32_t open = 0;           // its copies not yet complete
    std::vector<Group> committed;  // oldest first; the complete ones at the front are dropped
    void commit();
    // Every committed group but the newest `newest` is complete.
    bool done_but(uint32_t newest) const;
    void complete(uint64_t id);
  };
  struct WarpCopies {
    Groups copies;
    Groups bulk;
  };
  struct Copy {
    bool in_use = false;
    uint32_t slot = 0;
    bool bulk = false;
    bool grouped = false;      // counts in a group (a bulk copy on an mbarrier does not)
    uint64_t group = 0;
    uint32_t barrier = kNoCopy;  // index in barriers_ it is pending on (kNoCopy: none)
  };
  // An mbarrier of a resident block with copies pending on it.
  struct Barrier {
    uint32_t cta_slot = 0;
    uint64_t offset = 0;  // its shared-memory offset
    uint32_t pending = 0;
  };

  uint32_t new_copy(uint32_t slot, bool bulk, bool grouped);
  void pend_on(uint32_t copy, uint32_t cta_slot, uint64_t offset);
  uint32_t find_barrier(uint32_t cta_slot, uint64_t offset) const;

  std::vector<WarpCopies> warps_;
  std::vector<Copy> copies_;       // by copy id
  std::vector<uint32_t> free_copies_;
  std::vector<Barrier> barriers_;  // unordered; an entry whose pending reaches 0 is free again
};

}  // namespace lockstep::sim
