#include "mem/coalescer.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <stdexcept>
#include <string_view>

namespace lockstep::mem {
namespace {

void require(bool ok, std::string_view field, std::string_view rule) {
  if (!ok) throw std::invalid_argument(fmt::format("coalescer option {} must be {}", field, rule));
}

// The lanes of group `first_lane / group_lanes`: group_lanes bits starting at first_lane.
uint64_t group_bits(uint32_t first_lane, uint32_t group_lanes) {
  const uint64_t ones = group_lanes >= 64 ? ~uint64_t{0} : (uint64_t{1} << group_lanes) - 1;
  return ones << first_lane;
}

uint64_t align_down(uint64_t address, uint64_t size) { return address & ~(size - 1); }

}  // namespace

Coalescer::Coalescer(const CoalescerOptions& options) : options_(options) {
  require(std::has_single_bit(options.line_bytes), "line_bytes", "a power of two");
  require(std::has_single_bit(options.sector_bytes) && options.sector_bytes <= options.line_bytes,
          "sector_bytes", "a power of two no larger than line_bytes");
  require(options.line_bytes / options.sector_bytes <= 32, "sector_bytes",
          "at least line_bytes / 32 (a line has at most 32 sectors)");
  require(std::has_single_bit(options.group_lanes) && options.group_lanes <= 64, "group_lanes",
          "a power of two from 1 to 64");
  require(std::has_single_bit(options.min_segment_bytes) && options.min_segment_bytes <= options.line_bytes,
          "min_segment_bytes", "a power of two no larger than line_bytes");
  sector_shift_ = static_cast<uint32_t>(std::countr_zero(options.sector_bytes));
}

void Coalescer::coalesce(std::span<const uint64_t> lane_addresses, uint64_t active_mask, uint32_t access_bytes,
                         std::vector<Transaction>& out) const {
  if (!std::has_single_bit(access_bytes) || access_bytes > options_.line_bytes)
    throw std::invalid_argument(fmt::format("coalescer access of {} bytes: must be a power of two up to {}",
                                            access_bytes, options_.line_bytes));
  if (lane_addresses.size() < 64 && (active_mask >> lane_addresses.size()) != 0)
    throw std::invalid_argument(fmt::format("coalescer active mask {:#x} names lanes beyond the {} addresses given",
                                            active_mask, lane_addresses.size()));
  out.clear();
  switch (options_.rules) {
    case CoalescingRules::kSectored: return coalesce_sectored(lane_addresses, active_mask, access_bytes, out);
    case CoalescingRules::kGt200: return coalesce_gt200(lane_addresses, active_mask, access_bytes, out);
    case CoalescingRules::kG80: return coalesce_g80(lane_addresses, active_mask, access_bytes, out);
  }
}

void Coalescer::emit(uint64_t address, uint64_t bytes, uint64_t lanes, std::vector<Transaction>& out) const {
  out.push_back({address, static_cast<uint32_t>(bytes), sectors_of(address, bytes), lanes});
}

void Coalescer::coalesce_sectored(std::span<const uint64_t> lanes, uint64_t active, uint32_t access_bytes,
                                  std::vector<Transaction>& out) const {
  const uint64_t line_bytes = options_.line_bytes;
  for (uint64_t rest = active; rest != 0; rest &= rest - 1) {
    const int lane = std::countr_zero(rest);
    const uint64_t lo = lanes[lane], hi = lo + access_bytes;
    // access_bytes <= line_bytes, so the access touches one line or two neighbours.
    for (uint64_t line = align_down(lo, line_bytes); line < hi; line += line_bytes) {
      const uint64_t piece_lo = std::max(lo, line), piece_hi = std::min(hi, line + line_bytes);
      const uint32_t sectors = sectors_of(piece_lo, piece_hi - piece_lo);
      // A warp touches few lines, neighbouring lanes mostly the same one: the last transaction
      // first, then a linear scan, which beats any map here and allocates nothing (each line
      // has one transaction, so the first match is the only one).
      auto open = !out.empty() && out.back().address == line
                      ? out.end() - 1
                      : std::find_if(out.begin(), out.end(), [line](const Transaction& t) { return t.address == line; });
      if (open == out.end()) {
        out.push_back({line, options_.line_bytes, sectors, uint64_t{1} << lane});
      } else {
        open->sectors |= sectors;
        open->lanes |= uint64_t{1} << lane;
      }
    }
  }
}

void Coalescer::coalesce_gt200(std::span<const uint64_t> lanes, uint64_t active, uint32_t access_bytes,
                               std::vector<Transaction>& out) const {
  // The CUDA guide's cc 1.2 rule: the first segment is 32 bytes per byte of word (32 B for bytes,
  // 64 B for 16-bit words, 128 B for 32-bit and wider), here bounded by the configured sizes.
  const uint64_t segment = std::clamp<uint64_t>(uint64_t{32} * access_bytes, options_.min_segment_bytes,
                                                options_.line_bytes);
  std::array<uint64_t, 64> next{};  // per lane: the first byte not yet served
  for (uint32_t first_lane = 0; first_lane < 64; first_lane += options_.group_lanes) {
    uint64_t pending = active & group_bits(first_lane, options_.group_lanes);
    for (uint64_t rest = pending; rest != 0; rest &= rest - 1) {
      const int lane = std::countr_zero(rest);
      next[lane] = lanes[lane];
    }
    while (pending != 0) {
      const uint64_t start = align_down(next[std::countr_zero(pending)], segment);
      uint64_t used_lo = UINT64_MAX, used_hi = 0, served = 0;
      for (uint64_t rest = pending; rest != 0; rest &= rest - 1) {
        const int lane = std::countr_zero(rest);
        if (next[lane] < start || next[lane] >= start + segment) continue;
        const uint64_t end = std::min(lanes[lane] + access_bytes, start + segment);
        used_lo = std::min(used_lo, next[lane]);
        used_hi = std::max(used_hi, end);
        served |= uint64_t{1} << lane;
        next[lane] = end;
        if (end == lanes[lane] + access_bytes) pending &= ~(uint64_t{1} << lane);
      }
      // Halve while one aligned half still holds every byte used.
      uint64_t base = start, size = segment;
      while (size / 2 >= options_.min_segment_bytes) {
        const uint64_t half = size / 2;
        if (used_lo >= base + half) base += half;   // the upper half holds it all
        else if (used_hi > base + half) break;       // both halves are used
        size = half;
      }
      emit(base, size, served, out);
    }
  }
}

void Coalescer::coalesce_g80(std::span<const uint64_t> lanes, uint64_t active, uint32_t access_bytes,
                             std::vector<Transaction>& out) const {
  const uint64_t block = uint64_t{options_.group_lanes} * access_bytes;
  const uint64_t single = std::max<uint64_t>(options_.min_segment_bytes, access_bytes);
  for (uint32_t first_lane = 0; first_lane < 64; first_lane += options_.group_lanes) {
    const uint64_t group = active & group_bits(first_lane, options_.group_lanes);
    if (group == 0) continue;
    // Coalesced only if active lane k of the group reads word k of one aligned block.
    const int lowest = std::countr_zero(group);
    const uint64_t base = lanes[lowest] - (static_cast<uint64_t>(lowest) - first_lane) * access_bytes;
    bool in_sequence = (base & (block - 1)) == 0;
    for (uint64_t rest = group; in_sequence && rest != 0; rest &= rest - 1) {
      const int lane = std::countr_zero(rest);
      in_sequence = lanes[lane] == base + (static_cast<uint64_t>(lane) - first_lane) * access_bytes;
    }
    if (in_sequence) {
      // A block wider than a line (16 lanes of 16 bytes) goes as one transaction per line.
      const uint64_t piece = std::min<uint64_t>(block, options_.line_bytes);
      const uint64_t lanes_per_piece = piece / access_bytes;
      for (uint64_t offset = 0; offset < block; offset += piece) {
        const uint64_t served = group & group_bits(first_lane + static_cast<uint32_t>(offset / access_bytes),
                                                   static_cast<uint32_t>(lanes_per_piece));
        if (served != 0) emit(base + offset, piece, served, out);
      }
      continue;
    }
    for (uint64_t rest = group; rest != 0; rest &= rest - 1) {
      const int lane = std::countr_zero(rest);
      const uint64_t hi = lanes[lane] + access_bytes;
      for (uint64_t start = align_down(lanes[lane], single); start < hi; start += single)
        emit(start, single, uint64_t{1} << lane, out);
    }
  }
}

}  // namespace lockstep::mem
