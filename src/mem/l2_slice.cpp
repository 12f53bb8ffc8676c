#include "mem/l2_slice.h"

#include <algorithm>
#include <cassert>
#include <stdexcept>
#include <string>

namespace lockstep::mem {
namespace {

const L2SliceOptions& checked(const L2SliceOptions& options) {
  auto bad = [](const char* what) {
    throw std::invalid_argument(std::string("L2 slice: ") + what);
  };
  if (options.cache.write != WritePolicy::kWriteBackAllocate)
    bad("the cache must be write-back allocate");
  if (options.latency == 0) bad("latency must be at least 1");
  if (options.input_queue == 0 || options.output_queue == 0 || options.dram_queue == 0)
    bad("input_queue, output_queue and dram_queue must be at least 1");
  // One fill can release every request merged on its MSHR entry at once.
  if (options.output_queue < options.cache.mshr_max_merge)
    bad("output_queue must hold at least cache.mshr_max_merge responses");
  return options;
}

}  // namespace

L2Slice::L2Slice(const L2SliceOptions& options)
    : options_(checked(options)),
      cache_(options.cache),
      input_(options.input_queue),
      output_(options.output_queue),
      to_dram_(options.dram_queue),
      to_far_(options.victims_to_far ? options.dram_queue : 1) {
  // The cache never lets more requests wait than it has merge slots, so this pool never runs dry.
  const std::size_t slots =
      static_cast<std::size_t>(options.cache.mshr_entries) * options.cache.mshr_max_merge;
  waiting_.resize(slots);
  free_waiting_.reserve(slots);
  for (std::size_t i = slots; i-- > 0;) free_waiting_.push_back(static_cast<uint32_t>(i));
  ready_.reserve(options.cache.mshr_max_merge);
}

void L2Slice::accept(const MemRequest& request, uint64_t now) {
  assert(can_accept());
  input_.push(Arrival{request, now});
}

bool L2Slice::tick(uint64_t now) {
  if (input_.empty() || input_.front().accepted > now) return false;
  const MemRequest request = input_.front().request;
  const bool done =
      request.kind == AccessKind::kWrite ? process_write(request, now) : process_read(request, now);
  if (!done) return false;
  input_.pop();
  blocked_ = Blocked::kNo;
  switch (request.kind) {
    case AccessKind::kRead:
      ++stats_.reads;
      break;
    case AccessKind::kWrite:
      ++stats_.writes;
      break;
    case AccessKind::kAtomic:
      ++stats_.atomics;
      break;
  }
  return true;
}

bool L2Slice::process_read(const MemRequest& request, uint64_t now) {
  if (cache_.probe(request.line, request.sectors)) {
    if (output_.full()) return stall(stats_.output_queue_stalls, Blocked::kOutputQueue);
    cache_.read(request.line, request.sectors, 0);  // a hit: renews the line, counts it
    respond(request, now);
    return true;
  }
  // Every check comes before the read, which changes the cache when it succeeds.
  const uint32_t fetch = cache_.unrequested(request.line, request.sectors);
  if (fetch != 0 && to_dram_.full()) return stall(stats_.dram_queue_stalls, Blocked::kDramQueue);
  if (free_waiting_.empty()) return stall(stats_.reservation_stalls, Blocked::kMshr);
  const uint32_t slot = free_waiting_.back();
  const ReadResult result = cache_.read(request.line, request.sectors, slot);
  if (result.outcome == ReadOutcome::kReservationFail)
    return stall(stats_.reservation_stalls, Blocked::kMshr);
  free_waiting_.pop_back();
  waiting_[slot] = request;
  if (result.fetch != 0) send_dram(request.line, result.fetch, AccessKind::kRead, now);
  return true;
}

bool L2Slice::process_write(const MemRequest& request, uint64_t now) {
  if (output_.full()) return stall(stats_.output_queue_stalls, Blocked::kOutputQueue);
  // An absent line is installed and may push out a victim: keep room for where it goes.
  if (!cache_.present(request.line) && replaced_queue_full())
    return stall(stats_.dram_queue_stalls, options_.victims_to_far ? Blocked::kFarQueue : Blocked::kDramQueue);
  send_replaced(cache_.write(request.line, request.sectors).evicted, now);
  respond(request, now);
  return true;
}

void L2Slice::respond(const MemRequest& request, uint64_t now) {
  uint64_t ready = now + options_.latency;
  if (request.kind == AccessKind::kAtomic) {
    // The read-modify-write: its sectors are present here, so this write only marks them dirty.
    cache_.write(request.line, request.sectors);
    ready += options_.atomic_latency;
  }
  output_.push(Response{request, ready});
}

void L2Slice::send_dram(uint64_t line, uint32_t sectors, AccessKind kind, uint64_t now) {
  to_dram_.push(MemRequest{.line = line, .sectors = sectors, .kind = kind, .issued = now});
  ++(kind == AccessKind::kWrite ? stats_.dram_writes : stats_.dram_reads);
}

void L2Slice::send_replaced(const Eviction& evicted, uint64_t now) {
  if (!evicted.evicted) return;
  if (options_.victims_to_far) {
    to_far_.push(Victim{evicted.line, evicted.sectors, evicted.dirty_sectors});
    ++stats_.victims_out;
  } else if (evicted.dirty_sectors != 0) {
    send_dram(evicted.line, evicted.dirty_sectors, AccessKind::kWrite, now);
  }
}

void L2Slice::victim_pop() {
  to_far_.pop();
  if (blocked_ == Blocked::kFarQueue) blocked_ = Blocked::kNo;
}

void L2Slice::insert_victim(const Victim& victim, uint64_t now) {
  assert(can_insert_victim());
  Eviction evicted;
  cache_.insert(victim.line, victim.sectors, victim.dirty, evicted);
  if (evicted.dirty_sectors != 0) send_dram(evicted.line, evicted.dirty_sectors, AccessKind::kWrite, now);
  ++stats_.victims_in;
}

bool L2Slice::stall(uint64_t& counter, Blocked reason) {
  ++counter;
  blocked_ = reason;
  return false;
}

void L2Slice::dram_pop() {
  to_dram_.pop();
  if (blocked_ == Blocked::kDramQueue) blocked_ = Blocked::kNo;
}

bool L2Slice::can_fill(uint64_t line) const {
  return output_.capacity() - output_.size() >= options_.cache.mshr_max_merge &&
         (cache_.present(line) || !replaced_queue_full());
}

void L2Slice::dram_fill(uint64_t line, uint32_t sectors, uint64_t now) {
  assert(can_fill(line));
  ready_.clear();
  Eviction evicted;
  cache_.fill(line, sectors, ready_, &evicted);
  send_replaced(evicted, now);
  for (uint64_t token : ready_) {
    const auto slot = static_cast<uint32_t>(token);
    respond(waiting_[slot], now);
    free_waiting_.push_back(slot);
  }
  if (blocked_ == Blocked::kMshr) blocked_ = Blocked::kNo;  // an MSHR entry may have been freed
}

bool L2Slice::has_response(uint64_t now) const {
  return !output_.empty() && output_.front().ready <= now;
}

void L2Slice::response_pop() {
  output_.pop();
  if (blocked_ == Blocked::kOutputQueue) blocked_ = Blocked::kNo;
}

uint64_t L2Slice::next_event(uint64_t now) const {
  uint64_t next = UINT64_MAX;
  if (!to_dram_.empty() || !to_far_.empty()) next = now;
  if (!output_.empty()) next = std::min(next, std::max(now, output_.front().ready));
  if (!input_.empty() && blocked_ == Blocked::kNo)
    next = std::min(next, std::max(now, input_.front().accepted));
  return next;
}

}  // namespace lockstep::mem
