#pragma once
// The 64-bit mbarrier object (PTX ISA 9.0, "Parallel Synchronization and Communication
// Instructions: mbarrier") and the operations on it that mbarrier.*, cp.async.mbarrier.arrive and
// the bulk copies' complete_tx share.
//
// The hardware's layout is opaque: programs touch the object only through these instructions, so
// lockstep chooses its own. In shared memory, little-endian:
//
//   bits  0..19  pending arrival count of the current phase           0 .. 2^20-1
//   bits 20..39  expected arrival count (each new phase's pending)     0 .. 2^20-1
//   bits 40..60  tx-count, 21-bit two's complement                     -(2^20-1) .. 2^20-1
//   bit  61      zero
//   bit  62      valid: set by mbarrier.init, cleared by mbarrier.inval (zeroed memory holds no
//                barrier, so an arrive on a barrier nobody initialised is reported)
//   bit  63      phase parity: the current phase's number modulo 2
//
// A phase completes when the pending count and the tx-count are both zero: the parity flips, the
// pending count is reloaded from the expected count and the tx-count restarts at zero. The
// tx-count is signed because a bulk copy may complete its bytes before the expect_tx that
// announces them (nvcc emits cp.async.bulk before mbarrier.expect_tx for cuda::memcpy_async).
//
// The state token that an arrive returns is the object just after the arrive, with the parity
// bit of the phase the arrive took part in: test_wait/try_wait with that token succeed once the
// object's parity differs from the token's (that phase completed), and mbarrier.pending_count
// reads the token's pending field (the arrivals still missing after that arrive).
#include <cstdint>
#include <string>

#include "fmt/format.h"
#include "func/ops/memory_space.h"
#include "func/warp.h"

namespace lockstep::func::mbarrier {

inline constexpr uint32_t kMaxCount = (1u << 20) - 1;  // arrival and tx counts
inline constexpr int32_t kMaxTx = (1 << 20) - 1;

struct Fields {
  uint32_t pending = 0;
  uint32_t expected = 0;
  int32_t tx = 0;
  bool valid = false;
  bool parity = false;
};

inline Fields decode(uint64_t word) {
  Fields f;
  f.pending = static_cast<uint32_t>(word & 0xfffff);
  f.expected = static_cast<uint32_t>(word >> 20 & 0xfffff);
  const uint32_t tx = static_cast<uint32_t>(word >> 40 & 0x1fffff);
  f.tx = (tx & 0x100000) != 0 ? static_cast<int32_t>(tx) - (1 << 21) : static_cast<int32_t>(tx);
  f.valid = (word >> 62 & 1) != 0;
  f.parity = (word >> 63 & 1) != 0;
  return f;
}

inline uint64_t encode(const Fields& f) {
  const uint64_t tx = static_cast<uint64_t>(static_cast<uint32_t>(f.tx) & 0x1fffff);
  return uint64_t{f.pending & 0xfffff} | uint64_t{f.expected & 0xfffff} << 20 | tx << 40 |
         uint64_t{f.valid} << 62 | uint64_t{f.parity} << 63;
}

// mbarrier.init: phase 0, `count` arrivals pending and expected, no transactions.
inline uint64_t initial(uint32_t count) {
  return encode(Fields{count, count, 0, true, false});
}

// The phase completes when nothing is pending any more.
inline void complete_if_done(Fields& f) {
  if (f.pending != 0 || f.tx != 0) return;
  f.parity = !f.parity;
  f.pending = f.expected;
}

// Each operation updates `word` and returns an empty string, or leaves it unchanged and returns
// why the operation is invalid (the caller raises the device fault).

inline std::string not_valid(const char* what) {
  return fmt::format("{} on an mbarrier object that is not initialised (or was invalidated)", what);
}

inline std::string add_tx(Fields& f, int64_t delta, const char* what) {
  const int64_t tx = int64_t{f.tx} + delta;
  if (tx > kMaxTx || tx < -kMaxTx) {
    return fmt::format("{} takes the tx-count from {} to {}, outside -{}..{}", what, f.tx, tx, kMaxTx, kMaxTx);
  }
  f.tx = static_cast<int32_t>(tx);
  return {};
}

struct ArriveForm {
  bool drop = false;         // arrive_drop: the expected count goes down by `count` too
  bool no_complete = false;  // .noComplete: this arrive must not complete the phase
  const char* name = "mbarrier.arrive";
};

// An arrive-on of `count` arrivals, after raising the tx-count by `expect_tx` bytes (the
// .expect_tx forms). `token` receives the state token.
inline std::string arrive(uint64_t& word, uint32_t count, uint32_t expect_tx, const ArriveForm& form,
                          uint64_t& token) {
  Fields f = decode(word);
  if (!f.valid) return not_valid(form.name);
  if (std::string e = add_tx(f, expect_tx, form.name); !e.empty()) return e;
  if (count == 0 || count > kMaxCount) {
    return fmt::format("{} with count {}, outside 1..{}", form.name, count, kMaxCount);
  }
  if (count > f.pending) {
    return fmt::format("{} of {} arrival(s) when only {} of the current phase are pending", form.name, count,
                       f.pending);
  }
  if (form.drop && count > f.expected) {
    return fmt::format("{} of {} arrival(s) when the expected count is {}", form.name, count, f.expected);
  }
  f.pending -= count;
  if (form.drop) f.expected -= count;
  const bool parity = f.parity;
  if (f.pending == 0 && f.tx == 0 && form.no_complete) {
    return fmt::format("{}.noComplete would complete the current phase", form.name);
  }
  complete_if_done(f);
  word = encode(f);
  Fields t = f;
  t.parity = parity;
  token = encode(t);
  return {};
}

// mbarrier.expect_tx (raises the tx-count) and mbarrier.complete_tx or a bulk copy's completion
// (lowers it, which may complete the phase).
inline std::string expect_tx(uint64_t& word, uint32_t bytes, const char* what) {
  Fields f = decode(word);
  if (!f.valid) return not_valid(what);
  if (std::string e = add_tx(f, bytes, what); !e.empty()) return e;
  word = encode(f);
  return {};
}

inline std::string complete_tx(uint64_t& word, uint32_t bytes, const char* what) {
  Fields f = decode(word);
  if (!f.valid) return not_valid(what);
  if (std::string e = add_tx(f, -int64_t{bytes}, what); !e.empty()) return e;
  complete_if_done(f);
  word = encode(f);
  return {};
}

// cp.async.mbarrier.arrive without .noinc: the pending count goes up by one before the
// asynchronous arrive-on, so the pair changes nothing once the copies have completed.
inline std::string increment_pending(uint64_t& word, const char* what) {
  Fields f = decode(word);
  if (!f.valid) return not_valid(what);
  if (f.pending == kMaxCount) return fmt::format("{} takes the pending count past {}", what, kMaxCount);
  ++f.pending;
  word = encode(f);
  return {};
}

// test_wait / try_wait: has the phase that `token` (or the parity `parity`) names completed?
inline bool phase_completed(uint64_t word, uint64_t token) { return (word >> 63) != (token >> 63); }
inline bool parity_completed(uint64_t word, uint32_t parity) { return (word >> 63) != (parity & 1); }
inline bool is_valid(uint64_t word) { return (word >> 62 & 1) != 0; }
inline uint32_t pending_of(uint64_t token) { return static_cast<uint32_t>(token & 0xfffff); }

}  // namespace lockstep::func::mbarrier

namespace lockstep::func::memory {

// The 8 bytes of the mbarrier object a lane names: `addr` is a shared-memory offset (Space::Shared)
// or a generic address that must fall in the shared window (Space::Generic). Faults when it is
// outside the CTA's shared memory or not 8-byte aligned.
uint8_t* mbarrier_at(Warp& w, Space space, uint64_t addr, uint32_t lane);

// Raises FaultKind::MbarrierMisuse for `lane`: `why` is what the mbarrier operations above
// returned, `offset` the object's shared-memory offset.
[[noreturn]] void mbarrier_fault(Warp& w, uint32_t lane, uint64_t offset, const std::string& why);

}  // namespace lockstep::func::memory
