#include "sim/ldst_unit.h"

#include <algorithm>
#include <array>
#include <bit>

namespace lockstep::sim {

namespace {

// Local memory lives in its own part of the address space, interleaved as GPUs interleave it:
// the same offset of consecutive lanes is in consecutive words, so a warp's local access
// coalesces like a stride-1 global one.
constexpr uint64_t kLocalBase = uint64_t{1} << 56;

// The token of an L1 miss: its fill serves every load that waits on the line.
constexpr uint64_t kNoToken = UINT64_MAX;
// The token of a constant-cache miss: its fill goes to the constant cache.
constexpr uint64_t kConstantFill = UINT64_MAX - 1;
// The token of an instruction-cache miss: its fill goes to the SM's instruction cache.
constexpr uint64_t kInstructionFill = UINT64_MAX - 2;

// The widest of a group's accesses, as a power of two the coalescer and the banks take.
uint32_t access_bytes(uint32_t widest) { return std::bit_ceil(std::clamp<uint32_t>(widest, 1, 16)); }

}  // namespace

LdstUnit::LdstUnit(const LdstUnitOptions& options)
    : options_(options),
      coalescer_(options.coalescer),
      banks_(options.banks),
      l1_(options.l1),
      constant_(options.constant_cache),
      instructions_(options.in_flight),
      outbound_(options.miss_queue),
      inbound_(options.inbound) {
  free_ids_.reserve(options.in_flight);
  for (uint32_t id = options.in_flight; id-- > 0;) free_ids_.push_back(id);
  closed_ids_.reserve(options.in_flight);
  queue_.reserve(size_t{options.queue} + mem::Coalescer::kMaxTransactions);
  lane_addresses_.assign(64, 0);
  transactions_.reserve(mem::Coalescer::kMaxTransactions);
  ready_tokens_.reserve(options.l1.mshr_max_merge);
  instruction_fills_.reserve(options.inbound);
  finished_.reserve(options.in_flight);  // an instruction finishes once
}

uint32_t LdstUnit::accept(uint64_t now, const LdstRequest& request) {
  const uint32_t id = free_ids_.back();
  free_ids_.pop_back();
  ++in_use_;
  const uint64_t earliest =
      now + std::max(request.min_latency, request.constant ? options_.constant_latency : 1u);
  instructions_[id] = Instruction{request.kind, request.bypass_l1, request.constant, 0, false, earliest, now};
  return id;
}

void LdstUnit::close(uint32_t id) {
  instructions_[id].closed = true;
  closed_ids_.push_back(id);
}

uint64_t LdstUnit::local_address(uint32_t warp_slot, uint32_t lane, uint64_t offset) const {
  const uint64_t per_thread = std::max<uint64_t>(1024, (uint64_t{options_.local_bytes_per_thread} + 3) / 4 * 4);
  const uint64_t region = per_thread * options_.warp_size;
  return kLocalBase + (uint64_t{options_.sm} << 40) + warp_slot * region + offset / 4 * 4 * options_.warp_size +
         uint64_t{lane} * 4 + offset % 4;
}

void LdstUnit::add(uint32_t id, const func::AccessLog& log, uint32_t warp_slot) {
  const std::span<const func::AccessRecord> records = log.records();
  // Most instructions access one element per lane, recorded in lane order: one round, read in
  // place. The scan also finds which of the two paths (shared, the rest) the round needs.
  bool shared = false, other = false;
  int last_lane = -1;
  bool one_round = true;
  for (const func::AccessRecord& r : records) {
    if (static_cast<int>(r.lane) <= last_lane) {
      one_round = false;
      break;
    }
    last_lane = r.lane;
    (r.space == func::AccessSpace::kShared ? shared : other) = true;
  }
  if (one_round) return add_round(id, records, warp_slot, shared, other);
  // Round k holds every lane's k-th access: a lane that accesses several elements (a wmma
  // fragment) makes several warp-wide accesses, each coalesced on its own.
  std::array<uint16_t, 64> count{};
  size_t rounds = 0;
  for (const func::AccessRecord& r : records) {
    const size_t k = count[r.lane]++;
    if (k >= rounds_.size()) rounds_.emplace_back();
    if (k >= rounds) {
      rounds_[k].clear();
      rounds = k + 1;
    }
    rounds_[k].push_back(r);
  }
  for (size_t k = 0; k < rounds; ++k) add_round(id, rounds_[k], warp_slot, true, true);
}

void LdstUnit::add_round(uint32_t id, std::span<const func::AccessRecord> round, uint32_t warp_slot,
                         bool may_be_shared, bool may_be_other) {
  const Instruction& in = instructions_[id];
  if (in.constant) return add_constant(id, round);
  const Work work = in.kind == mem::AccessKind::kWrite    ? Work::kWrite
                    : in.kind == mem::AccessKind::kAtomic ? Work::kAtomic
                    : in.bypass_l1                        ? Work::kReadBypass
                                                          : Work::kRead;
  for (const bool shared : {false, true}) {
    if (!(shared ? may_be_shared : may_be_other)) continue;
    uint64_t mask = 0;
    uint32_t widest = 0;
    for (const func::AccessRecord& r : round) {
      if ((r.space == func::AccessSpace::kShared) != shared) continue;
      mask |= uint64_t{1} << r.lane;
      widest = std::max(widest, r.size);
      lane_addresses_[r.lane] = r.space == func::AccessSpace::kLocal ? local_address(warp_slot, r.lane, r.address)
                                : r.space == func::AccessSpace::kGlobal && options_.memory != nullptr
                                    ? options_.memory->stable_address(r.address)
                                    : r.address;
    }
    if (mask == 0) continue;
    if (shared) {
      const mem::BankResult b = banks_.access(lane_addresses_, mask, access_bytes(widest));
      ++stats_.shared_accesses;
      stats_.shared_passes += b.passes;
      ++stats_.conflict_degree[std::min<uint32_t>(b.degree, 32)];
      for (uint32_t p = 0; p < b.passes; ++p) queue_.push_back({id, Work::kSharedPass, 0, 0});
      instructions_[id].remaining += b.passes;
    } else {
      coalescer_.coalesce(lane_addresses_, mask, access_bytes(widest), transactions_);
      ++stats_.global_accesses;
      for (const mem::Transaction& t : transactions_) {
        queue_.push_back({id, work, t.address / options_.coalescer.line_bytes, t.sectors});
        stats_.sectors += static_cast<uint64_t>(std::popcount(t.sectors));
      }
      stats_.transactions += transactions_.size();
      instructions_[id].remaining += static_cast<uint32_t>(transactions_.size());
    }
  }
}

// The constant cache serves one address a cycle: a warp's distinct addresses are serialised,
// lanes on the same address share it (broadcast).
void LdstUnit::add_constant(uint32_t id, std::span<const func::AccessRecord> round) {
  const uint32_t line_bytes = options_.constant_cache.line_bytes;
  const uint32_t sector_bytes = options_.constant_cache.sector_bytes;
  const size_t first = queue_.size();
  for (const func::AccessRecord& r : round) {
    const uint64_t line = r.address / line_bytes;
    const uint32_t sector = static_cast<uint32_t>(r.address % line_bytes / sector_bytes);
    bool seen = false;
    for (size_t q = first; q < queue_.size() && !seen; ++q)
      seen = queue_[q].address == r.address;
    if (seen) continue;
    queue_.push_back({id, Work::kConstant, line, 1u << sector, r.address});
    ++instructions_[id].remaining;
  }
}

bool LdstUnit::constant_misses(const func::AccessLog& log) const {
  const uint32_t line_bytes = options_.constant_cache.line_bytes;
  const uint32_t sector_bytes = options_.constant_cache.sector_bytes;
  for (const func::AccessRecord& r : log.records())
    if (!constant_.probe(r.address / line_bytes, 1u << (r.address % line_bytes / sector_bytes))) return true;
  return false;
}

void LdstUnit::served(uint32_t id, uint64_t ready) {
  Instruction& in = instructions_[id];
  --in.remaining;
  in.ready = std::max(in.ready, ready);
}

void LdstUnit::finish_if_done(uint32_t id, uint64_t now, std::vector<FinishedAccess>& finished) {
  Instruction& in = instructions_[id];
  if (!in.closed || in.remaining != 0) return;
  const uint64_t ready = std::max(in.ready, now);
  finished.push_back({id, ready});
  if (in.kind == mem::AccessKind::kRead) {
    ++stats_.loads;
    stats_.load_latency_total += ready - in.issued;
  }
  in.closed = false;  // not finished twice
  free_ids_.push_back(id);
  --in_use_;
}

void LdstUnit::fill_cache(mem::SectorCache& cache, const mem::MemRequest& r, uint64_t ready, uint64_t now,
                          std::vector<FinishedAccess>& finished) {
  ready_tokens_.clear();
  cache.fill(r.line, r.sectors, ready_tokens_, nullptr);
  for (uint64_t token : ready_tokens_) answer(static_cast<uint32_t>(token), ready, now, finished);
}

void LdstUnit::answer(uint32_t id, uint64_t ready, uint64_t now, std::vector<FinishedAccess>& finished) {
  served(id, ready);
  finish_if_done(id, now, finished);
}

void LdstUnit::send_instruction_miss(uint64_t address, uint32_t bytes, uint64_t now) {
  const uint32_t line_bytes = options_.coalescer.line_bytes, sector_bytes = options_.coalescer.sector_bytes;
  const uint64_t line = address / line_bytes;
  const uint32_t first = static_cast<uint32_t>(address % line_bytes / sector_bytes);
  const uint32_t count = std::max<uint32_t>(1, std::min(bytes, line_bytes) / sector_bytes);
  const uint32_t sectors = count >= 32 ? UINT32_MAX : ((1u << count) - 1) << first;
  outbound_.push({line, sectors, mem::AccessKind::kRead, options_.sm, kInstructionFill, now});
}

bool LdstUnit::fill(uint64_t now, std::vector<FinishedAccess>& finished) {
  bool changed = false;
  instruction_fills_.clear();
  while (!inbound_.empty()) {
    const mem::MemRequest r = inbound_.front();
    inbound_.pop();
    changed = true;
    if (r.kind == mem::AccessKind::kRead && r.token == kInstructionFill) {
      instruction_fills_.push_back(r.line * options_.coalescer.line_bytes);
    } else if (r.kind == mem::AccessKind::kRead && r.token == kConstantFill) {
      fill_cache(constant_, r, now + options_.constant_latency, now, finished);
    } else if (r.kind == mem::AccessKind::kRead && r.token == kNoToken) {
      fill_cache(l1_, r, now + options_.l1_hit_latency, now, finished);
    } else if (r.kind == mem::AccessKind::kRead) {
      answer(static_cast<uint32_t>(r.token), now + options_.l1_hit_latency, now, finished);  // bypassed the L1
    } else {
      // A store's acknowledgement, or an atomic's old values on their way to the registers.
      answer(static_cast<uint32_t>(r.token), r.kind == mem::AccessKind::kAtomic ? now + 1 : now, now, finished);
    }
  }
  return changed;
}

bool LdstUnit::serve(const Transaction& t, uint64_t now) {
  const mem::MemRequest out{t.line, t.sectors, mem::AccessKind::kRead, options_.sm, t.id, now};
  mem::MemRequest miss = out;
  miss.token = kNoToken;  // the L1's fill answers every load waiting on the line
  switch (t.work) {
    case Work::kSharedPass:
      served(t.id, now + options_.shared_latency);
      return true;
    case Work::kConstant: {
      if (constant_.unrequested(t.line, t.sectors) != 0 && outbound_.full()) return false;
      const mem::ReadResult r = constant_.read(t.line, t.sectors, t.id);
      switch (r.outcome) {
        case mem::ReadOutcome::kHit: served(t.id, now + options_.constant_latency); return true;
        case mem::ReadOutcome::kHitReserved: return true;
        case mem::ReadOutcome::kMiss:
        case mem::ReadOutcome::kSectorMiss:
          miss.sectors = r.fetch;
          miss.token = kConstantFill;
          outbound_.push(miss);
          return true;
        case mem::ReadOutcome::kReservationFail: return false;
      }
      return false;
    }
    case Work::kRead: {
      // Check the miss queue before the L1: a read that misses changes the L1's MSHRs.
      if (l1_.unrequested(t.line, t.sectors) != 0 && outbound_.full()) return false;
      const mem::ReadResult r = l1_.read(t.line, t.sectors, t.id);
      switch (r.outcome) {
        case mem::ReadOutcome::kHit: served(t.id, now + options_.l1_hit_latency); return true;
        case mem::ReadOutcome::kHitReserved: return true;  // the fill brings it
        case mem::ReadOutcome::kMiss:
        case mem::ReadOutcome::kSectorMiss:
          miss.sectors = r.fetch;
          outbound_.push(miss);
          return true;
        case mem::ReadOutcome::kReservationFail: return false;
      }
      return false;
    }
    case Work::kReadBypass:
      if (outbound_.full()) return false;
      outbound_.push(out);
      return true;
    case Work::kWrite: {
      if (outbound_.full()) return false;
      l1_.write(t.line, t.sectors);  // write-through: updates the sectors it holds, allocates nothing
      mem::MemRequest store = out;
      store.kind = mem::AccessKind::kWrite;
      outbound_.push(store);
      return true;
    }
    case Work::kAtomic: {
      if (outbound_.full()) return false;
      mem::MemRequest atomic = out;
      atomic.kind = mem::AccessKind::kAtomic;
      outbound_.push(atomic);
      return true;
    }
  }
  return false;
}

bool LdstUnit::tick(uint64_t now) {
  std::vector<FinishedAccess>& finished = finished_;
  finished.clear();
  bool changed = fill(now, finished);
  for (uint32_t id : closed_ids_) finish_if_done(id, now, finished);
  changed |= !closed_ids_.empty();
  closed_ids_.clear();
  if (head_ < queue_.size()) {
    const Transaction t = queue_[head_];
    if (serve(t, now)) {
      ++head_;
      finish_if_done(t.id, now, finished);
      changed = true;
    } else {
      ++stats_.throttle_cycles;
    }
    if (head_ == queue_.size()) queue_.clear(), head_ = 0;
  }
  return changed;
}

uint64_t LdstUnit::next_event(uint64_t now) const {
  if (head_ < queue_.size() || !inbound_.empty() || !closed_ids_.empty()) return now + 1;
  return UINT64_MAX;
}

}  // namespace lockstep::sim
