#pragma once
// Where a channel-local byte address lands inside the channel. The memory system has already
// removed the channel-select bits; what is left is split, from the lowest bits up:
//
//   | row ... | bank (log2 banks bits) | column (log2 row_bytes bits) |
//
// Column lowest, so consecutive bytes stay in one open row (a sequential stream is row hits);
// bank next, so the stream then moves to the next bank, whose activation can overlap the current
// row's bursts; row highest.
#include <bit>
#include <cstdint>

namespace lockstep::mem {

struct DramAddress {
  uint64_t row = 0;
  uint32_t bank = 0;
  uint32_t column = 0;  // byte offset inside the row
  bool operator==(const DramAddress&) const = default;
};

class DramAddressMap {
 public:
  // Caller: banks and row_bytes are powers of two (DramChannel checks its options).
  DramAddressMap(uint32_t banks, uint32_t row_bytes)
      : column_bits_(static_cast<uint32_t>(std::countr_zero(row_bytes))),
        bank_bits_(static_cast<uint32_t>(std::countr_zero(banks))) {}

  DramAddress decode(uint64_t address) const {
    const uint64_t column_mask = (uint64_t{1} << column_bits_) - 1;
    const uint64_t bank_mask = (uint64_t{1} << bank_bits_) - 1;
    return {address >> (column_bits_ + bank_bits_), static_cast<uint32_t>((address >> column_bits_) & bank_mask),
            static_cast<uint32_t>(address & column_mask)};
  }

 private:
  uint32_t column_bits_;
  uint32_t bank_bits_;
};

}  // namespace lockstep::mem
