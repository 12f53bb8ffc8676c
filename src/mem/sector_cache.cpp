#include "mem/sector_cache.h"

#include <bit>
#include <cassert>
#include <stdexcept>
#include <string>
#include <utility>

namespace lockstep::mem {

SectorCache::SectorCache(const SectorCacheOptions& options)
    : options_(options), mshr_index_(options.mshr_entries) {
  auto bad = [](const std::string& what) { throw std::invalid_argument("sector cache: " + what); };
  if (options.sets == 0) bad("sets must be at least 1");
  if (options.ways == 0 || options.ways > kMaxReplacementWays)
    bad("ways must be 1 to " + std::to_string(kMaxReplacementWays));
  if (options.sector_bytes == 0 || options.line_bytes % options.sector_bytes != 0)
    bad("line_bytes must be a non-zero multiple of sector_bytes");
  sectors_per_line_ = options.line_bytes / options.sector_bytes;
  if (options.sets > 1 && std::has_single_bit(options.sets)) set_mask_ = options.sets - 1;
  if (sectors_per_line_ == 0 || sectors_per_line_ > 32) bad("a line must hold 1 to 32 sectors");
  if (options.mshr_entries == 0) bad("mshr_entries must be at least 1");
  if (options.mshr_max_merge == 0) bad("mshr_max_merge must be at least 1");
  all_sectors_ = sectors_per_line_ == 32 ? UINT32_MAX : (1u << sectors_per_line_) - 1;

  replacement_ = make_replacement_policy(options.replacement, options.sets, options.ways);
  lines_.resize(static_cast<std::size_t>(options.sets) * options.ways);
  tags_.assign(lines_.size(), kNoTag);
  mshrs_.resize(options.mshr_entries);
  waiters_.resize(static_cast<std::size_t>(options.mshr_entries) * options.mshr_max_merge);
  mshr_order_.resize(options.mshr_entries);
  for (uint32_t i = 0; i < options.mshr_entries; ++i) mshr_order_[i] = i;
  mshr_lines_.resize(options.mshr_entries);
}

void SectorCache::check_sectors([[maybe_unused]] uint32_t sectors) const {
  assert(sectors != 0 && (sectors & ~all_sectors_) == 0);
}

uint32_t SectorCache::find_way(uint64_t line) const {
  const uint32_t first = set_of(line) * options_.ways;
  // The tags alone, contiguous: a set of 64 ways is 512 bytes to scan, not 2 KiB of lines.
  const uint64_t* tags = tags_.data() + first;
  for (uint32_t way = 0; way < options_.ways; ++way)
    if (tags[way] == line) return first + way;
  return kNone;
}

uint32_t SectorCache::find_mshr(uint64_t line) const {
  static_assert(LineIndex::kAbsent == kNone);
  return mshr_index_.find(line);
}

uint32_t SectorCache::install(uint64_t line, Eviction& evicted) {
  const uint32_t set = set_of(line);
  const uint32_t first = set * options_.ways;
  uint32_t chosen = kNone;
  uint64_t not_pending = 0;
  for (uint32_t way = 0; way < options_.ways; ++way) {
    const Line& l = lines_[first + way];
    if (!l.valid) {
      chosen = first + way;
      break;
    }
    if (!l.pending) not_pending |= uint64_t{1} << way;
  }
  if (chosen == kNone) {
    const uint64_t all_ways = options_.ways == 64 ? UINT64_MAX : (uint64_t{1} << options_.ways) - 1;
    chosen = first + replacement_->victim(set, not_pending != 0 ? not_pending : all_ways);
    const Line& old = lines_[chosen];
    evicted = Eviction{true, old.line, old.dirty, old.sectors};
    ++stats_.evictions;
    if (old.dirty != 0) ++stats_.dirty_evictions;
  }
  lines_[chosen] = Line{true, false, 0, 0, line};
  tags_[chosen] = line;
  replacement_->on_fill(chosen);
  return chosen;
}

ReadResult SectorCache::read(uint64_t line, uint32_t sectors, uint64_t token) {
  check_sectors(sectors);
  ++stats_.accesses;
  const uint32_t way = find_way(line);
  const uint32_t missing = sectors & ~(way == kNone ? 0u : lines_[way].sectors);
  if (missing == 0) {
    replacement_->on_hit(way);
    ++stats_.hits;
    return {ReadOutcome::kHit, 0};
  }

  uint32_t position = find_mshr(line);
  const bool merging = position != kNone;
  if (merging ? mshrs_[mshr_order_[position]].waiting == options_.mshr_max_merge
              : mshr_used_ == options_.mshr_entries) {
    ++stats_.reservation_fails;
    return {ReadOutcome::kReservationFail, 0};
  }
  if (!merging) {
    position = mshr_used_++;
    mshrs_[mshr_order_[position]] = Mshr{line, 0, 0};
    mshr_lines_[position] = line;
    mshr_index_.insert(line, position);
  }
  const uint32_t entry = mshr_order_[position];
  Mshr& mshr = mshrs_[entry];
  const uint32_t fetch = missing & ~mshr.requested;
  mshr.requested |= fetch;
  waiters_[static_cast<std::size_t>(entry) * options_.mshr_max_merge + mshr.waiting++] =
      Waiter{token, missing};
  if (merging) ++stats_.mshr_merges;
  if (way != kNone) {
    lines_[way].pending = true;
    replacement_->on_hit(way);
  }

  if (fetch == 0) {
    ++stats_.hit_reserved;
    return {ReadOutcome::kHitReserved, 0};
  }
  if (way == kNone && !merging) {
    ++stats_.misses;
    return {ReadOutcome::kMiss, fetch};
  }
  ++stats_.sector_misses;
  return {ReadOutcome::kSectorMiss, fetch};
}

WriteResult SectorCache::write(uint64_t line, uint32_t sectors) {
  check_sectors(sectors);
  ++stats_.writes;
  uint32_t way = find_way(line);
  WriteResult result;
  if (way != kNone) {
    result.hit = true;
    ++stats_.write_hits;
    replacement_->on_hit(way);
  }
  // Write-through: the present sectors take the new data, the store goes below; nothing else.
  if (options_.write == WritePolicy::kWriteThroughNoAllocate) return result;

  if (way == kNone) {
    way = install(line, result.evicted);
    lines_[way].pending = find_mshr(line) != kNone;
  }
  lines_[way].sectors |= sectors;
  lines_[way].dirty |= sectors;
  return result;
}

void SectorCache::insert(uint64_t line, uint32_t sectors, uint32_t dirty, Eviction& evicted) {
  check_sectors(sectors);
  uint32_t way = find_way(line);
  if (way == kNone) {
    way = install(line, evicted);
    lines_[way].pending = find_mshr(line) != kNone;
  } else {
    replacement_->on_fill(way);
  }
  lines_[way].sectors |= sectors;
  lines_[way].dirty |= dirty & sectors;
}

void SectorCache::fill(uint64_t line, uint32_t sectors, std::vector<uint64_t>& ready,
                       Eviction* evicted) {
  check_sectors(sectors);
  ++stats_.fills;
  Eviction replaced;
  uint32_t way = find_way(line);
  if (way == kNone) way = install(line, replaced);
  if (evicted != nullptr) *evicted = replaced;
  lines_[way].sectors |= sectors;

  const uint32_t position = find_mshr(line);
  if (position == kNone) return;  // nobody waits (e.g. the waiters' sectors already arrived)
  const uint32_t entry = mshr_order_[position];
  Mshr& mshr = mshrs_[entry];
  mshr.requested &= ~sectors;
  // Compact the merge list in place, keeping the waiters that still miss in arrival order.
  Waiter* list = &waiters_[static_cast<std::size_t>(entry) * options_.mshr_max_merge];
  uint32_t kept = 0;
  for (uint32_t i = 0; i < mshr.waiting; ++i) {
    list[i].need &= ~sectors;
    if (list[i].need == 0)
      ready.push_back(list[i].token);
    else
      list[kept++] = list[i];
  }
  mshr.waiting = kept;
  lines_[way].pending = kept != 0;
  if (kept == 0) {
    // Every requested sector had a waiter needing it, so nothing is outstanding any more.
    assert(mshr.requested == 0);
    mshr_index_.erase(mshr_lines_[position]);
    std::swap(mshr_order_[position], mshr_order_[--mshr_used_]);
    mshr_lines_[position] = mshr_lines_[mshr_used_];
    if (position != mshr_used_) mshr_index_.assign(mshr_lines_[position], position);  // the last one moved here
  }
}

bool SectorCache::probe(uint64_t line, uint32_t sectors) const {
  const uint32_t way = find_way(line);
  return way != kNone && (sectors & ~lines_[way].sectors) == 0;
}

bool SectorCache::present(uint64_t line) const {
  return find_way(line) != kNone;
}

uint32_t SectorCache::unrequested(uint64_t line, uint32_t sectors) const {
  const uint32_t way = find_way(line);
  uint32_t missing = sectors & ~(way == kNone ? 0u : lines_[way].sectors);
  const uint32_t position = find_mshr(line);
  if (position != kNone) missing &= ~mshrs_[mshr_order_[position]].requested;
  return missing;
}

void SectorCache::invalidate_all() {
  for (uint32_t i = 0; i < lines_.size(); ++i) {
    if (!lines_[i].valid) continue;
    lines_[i] = Line{};
    tags_[i] = kNoTag;
    replacement_->on_invalidate(i);
  }
}

}  // namespace lockstep::mem
