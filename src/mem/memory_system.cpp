#include "mem/memory_system.h"

#include <bit>
#include <stdexcept>

#include "fmt/format.h"

namespace lockstep::mem {

namespace {

CrossbarOptions network(const CrossbarOptions& base, uint32_t inputs, uint32_t outputs) {
  CrossbarOptions o = base;
  o.inputs = inputs;
  o.outputs = outputs;
  return o;
}

// Folds the line's upper bits onto the lower ones, so that strides of a power of two (a column of
// a matrix, every warp's slice of a large array) still spread over the slices and channels, as
// the partition hashes of real GPUs do.
uint64_t folded(uint64_t line) { return line ^ (line >> 7) ^ (line >> 14) ^ (line >> 21); }

}  // namespace

MemorySystem::MemorySystem(const MemorySystemOptions& options)
    : options_(options),
      requests_(network(options.network, options.sms, options.slices)),
      responses_(network(options.network, options.slices, options.sms)) {
  if (options.slices == 0 || options.channels == 0)
    throw std::invalid_argument("a memory system needs at least one L2 slice and one DRAM channel");
  if ((options.sides != 1 && options.sides != 2) || options.slices % options.sides != 0)
    throw std::invalid_argument(fmt::format("the L2 has 1 or 2 sides that split its {} slices evenly, not {}",
                                            options.slices, options.sides));
  per_side_ = options.slices / options.sides;
  L2SliceOptions slice = options.slice;
  slice.victims_to_far = options.sides > 1;
  slices_.reserve(options.slices);
  for (uint32_t s = 0; s < options.slices; ++s) slices_.emplace_back(slice);
  if (options.sides > 1) {
    // Far look-ups in flight per slice: about one per MSHR entry (a full pipe stalls the slice's
    // misses like a full DRAM queue).
    for (uint32_t s = 0; s < options.slices; ++s) far_returning_.emplace_back(options.slice.cache.mshr_entries);
  }
  channels_.reserve(options.channels);
  // The controller's pipeline holds at most what its channel can complete while a read crosses
  // it (about one burst per DRAM clock) plus the channel's queues.
  const size_t in_pipeline = size_t{options.controller_latency} * 4 + options.dram.read_queue + options.dram.write_queue;
  for (uint32_t c = 0; c < options.channels; ++c) {
    channels_.push_back(std::make_unique<DramChannel>(options.dram));
    returning_.emplace_back(in_pipeline);
  }
  channel_wake_.assign(options.channels, 0);
  // The partitions (see the header): slice = side * per_side + h % per_side and channel =
  // h % channels for the same h, so when one count divides the other, the larger one's index
  // modulo the smaller count names the partition; otherwise every slice may meet every channel
  // and there is one. A slice and its far pair share the index within their halves, so they
  // are in the same partition.
  const uint32_t slices = per_side_, channels = options.channels;
  const uint32_t count = slices % channels == 0 ? channels : channels % slices == 0 ? slices : 1;
  partitions_.resize(count);
  partition_moved_.assign(count, 0);
  for (uint32_t s = 0; s < options.slices; ++s) partitions_[s % per_side_ % count].slices.push_back(s);
  for (uint32_t c = 0; c < channels; ++c) partitions_[c % count].channels.push_back(c);
  for (Partition& p : partitions_) p.completed.reserve(options.dram.read_queue + options.dram.write_queue);
  tick_one_ = [this](uint32_t p) { partition_moved_[p] = tick_partition(partitions_[p], tick_now_) ? 1 : 0; };
}

MemorySystemStats MemorySystem::stats() const {
  MemorySystemStats total = stats_;
  for (const Partition& p : partitions_) {
    total.dram_reads += p.stats.dram_reads;
    total.dram_writes += p.stats.dram_writes;
    total.dram_stalls += p.stats.dram_stalls;
    total.fill_stalls += p.stats.fill_stalls;
    total.response_stalls += p.stats.response_stalls;
    total.far_hits += p.stats.far_hits;
    total.victim_stalls += p.stats.victim_stalls;
  }
  return total;
}

uint32_t MemorySystem::slice_of(uint32_t sm, uint64_t line) const {
  const uint64_t h = options_.xor_hash ? folded(line) : line;
  return side_of(sm) * per_side_ + static_cast<uint32_t>(h % per_side_);
}

uint32_t MemorySystem::channel_of(uint64_t line) const {
  return static_cast<uint32_t>((options_.xor_hash ? folded(line) : line) % options_.channels);
}

uint32_t MemorySystem::payload_bytes(const MemRequest& r) const {
  return static_cast<uint32_t>(std::popcount(r.sectors)) * options_.sector_bytes;
}

void MemorySystem::send(uint32_t sm, const MemRequest& request, uint64_t now) {
  // A read asks with a header; a write or an atomic carries its data.
  const uint32_t bytes = options_.header_bytes + (request.kind == AccessKind::kRead ? 0 : payload_bytes(request));
  requests_.push(sm, slice_of(sm, request.line), bytes, request, now);
  ++stats_.requests;
}

void MemorySystem::pop_response(uint32_t sm) {
  responses_.pop(sm);
  ++stats_.responses;
}

bool MemorySystem::move_requests_to_slice(uint32_t s, uint64_t now) {
  bool moved = false;
  L2Slice& slice = slices_[s];
  while (requests_.can_pop(s, now) && slice.can_accept()) {
    slice.accept(requests_.front(s), now);
    requests_.pop(s);
    moved = true;
  }
  return moved;
}

bool MemorySystem::move_slice_to_dram(uint32_t s, MemorySystemStats& stats, uint64_t now) {
  bool moved = false;
  L2Slice& slice = slices_[s];
  while (slice.has_dram_request()) {
    const MemRequest& r = slice.dram_front();
    const bool write = r.kind == AccessKind::kWrite;
    if (!write && options_.sides > 1 && slices_[paired(s)].cache().probe(r.line, r.sectors)) {
      if (far_returning_[s].full()) {
        ++stats.dram_stalls;
        break;
      }
      MemRequest from_far = r;
      from_far.source = s;  // the slice the sectors return to
      far_returning_[s].push({from_far, now + options_.far_latency});
      ++stats.far_hits;
      slice.dram_pop();
      moved = true;
      continue;
    }
    const uint32_t c = channel_of(r.line);
    if (!channels_[c]->can_accept(write)) {
      ++stats.dram_stalls;
      break;
    }
    // The channel-select bits are gone: consecutive lines of one channel are consecutive there.
    // DRAM moves the smallest span of the line that covers the requested sectors.
    const uint32_t first = static_cast<uint32_t>(std::countr_zero(r.sectors));
    const uint32_t last = 31 - static_cast<uint32_t>(std::countl_zero(r.sectors));
    DramRequest d;
    d.address = r.line / options_.channels * options_.line_bytes + uint64_t{first} * options_.sector_bytes;
    d.bytes = (last - first + 1) * options_.sector_bytes;
    d.write = write;
    d.request = r;
    d.request.source = s;  // the slice its data returns to
    channels_[c]->push(d, now);
    channel_wake_[c] = now;
    if (write) {
      ++stats.dram_writes;
    } else {
      ++stats.dram_reads;
    }
    slice.dram_pop();
    moved = true;
  }
  return moved;
}

bool MemorySystem::tick_channel(uint32_t c, std::vector<DramRequest>& completed, uint64_t now) {
  // A channel whose next event is later has nothing to do now (a push wakes it).
  if (channels_[c]->idle() || channel_wake_[c] > now) return false;
  completed.clear();
  const bool moved = channels_[c]->tick(now, completed);
  channel_wake_[c] = channels_[c]->next_event(now);
  for (const DramRequest& d : completed) {
    if (d.write) continue;  // a write-back needs no answer
    if (returning_[c].full())
      throw std::logic_error(fmt::format("memory controller pipeline of channel {} overflowed", c));
    returning_[c].push({d.request, now + options_.controller_latency});
  }
  return moved;
}

bool MemorySystem::fill_slices(RingBuffer<Returning>& pipe, MemorySystemStats& stats, uint64_t now) {
  bool moved = false;
  while (!pipe.empty() && pipe.front().ready <= now) {
    const MemRequest& r = pipe.front().request;
    L2Slice& slice = slices_[r.source];
    if (!slice.can_fill(r.line)) {
      ++stats.fill_stalls;
      break;
    }
    slice.dram_fill(r.line, r.sectors, now);
    pipe.pop();
    moved = true;
  }
  return moved;
}

bool MemorySystem::move_victims(uint32_t s, MemorySystemStats& stats, uint64_t now) {
  bool moved = false;
  L2Slice& slice = slices_[s];
  L2Slice& far = slices_[paired(s)];
  while (slice.has_victim()) {
    if (!far.can_insert_victim()) {
      ++stats.victim_stalls;
      break;
    }
    far.insert_victim(slice.victim_front(), now);
    slice.victim_pop();
    moved = true;
  }
  return moved;
}

bool MemorySystem::move_responses(uint32_t s, MemorySystemStats& stats, uint64_t now) {
  bool moved = false;
  L2Slice& slice = slices_[s];
  while (slice.has_response(now)) {
    if (!responses_.can_push(s)) {
      ++stats.response_stalls;
      break;
    }
    const MemRequest& r = slice.response_front();
    const uint32_t bytes = options_.header_bytes + (r.kind == AccessKind::kWrite ? 0 : payload_bytes(r));
    responses_.push(s, r.source, bytes, r, now);
    slice.response_pop();
    moved = true;
  }
  return moved;
}

bool MemorySystem::tick_partition(Partition& p, uint64_t now) {
  // Front to back, so that what a unit hands on in this cycle can move on in this cycle where
  // the receiving unit's own latency allows.
  bool moved = false;
  for (uint32_t s : p.slices) moved |= move_requests_to_slice(s, now);
  for (uint32_t s : p.slices) moved |= slices_[s].tick(now);
  for (uint32_t s : p.slices) moved |= move_slice_to_dram(s, p.stats, now);
  for (uint32_t c : p.channels) moved |= tick_channel(c, p.completed, now);
  for (uint32_t c : p.channels) moved |= fill_slices(returning_[c], p.stats, now);
  if (options_.sides > 1) {
    for (uint32_t s : p.slices) moved |= fill_slices(far_returning_[s], p.stats, now);
    for (uint32_t s : p.slices) moved |= move_victims(s, p.stats, now);
  }
  for (uint32_t s : p.slices) moved |= move_responses(s, p.stats, now);
  return moved;
}

bool MemorySystem::tick(uint64_t now, const ParallelFor* parallel) {
  bool moved = requests_.tick(now);
  tick_now_ = now;
  if (parallel != nullptr && partitions_.size() > 1) {
    (*parallel)(static_cast<uint32_t>(partitions_.size()), tick_one_);
  } else {
    for (uint32_t p = 0; p < partitions_.size(); ++p) tick_one_(p);
  }
  for (uint8_t m : partition_moved_) moved |= m != 0;
  moved |= responses_.tick(now);
  return moved;
}

uint64_t MemorySystem::next_event(uint64_t now) const {
  uint64_t next = std::min(requests_.next_event(now), responses_.next_event(now));
  for (uint32_t s = 0; s < slices_.size(); ++s) {
    if (requests_.can_pop(s, now + 1)) next = std::min(next, now + 1);
    const uint64_t e = slices_[s].next_event(now + 1);
    if (e != UINT64_MAX) next = std::min(next, std::max(e, now + 1));
  }
  for (const RingBuffer<Returning>& pipe : far_returning_)
    if (!pipe.empty()) next = std::min(next, std::max(pipe.front().ready, now + 1));
  for (uint32_t c = 0; c < channels_.size(); ++c) {
    if (!channels_[c]->idle()) next = std::min(next, std::max(channel_wake_[c], now + 1));
    if (!returning_[c].empty()) next = std::min(next, std::max(returning_[c].front().ready, now + 1));
  }
  return next;
}

}  // namespace lockstep::mem
