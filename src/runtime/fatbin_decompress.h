#pragma once
// Decompressors for fat binary entry payloads (reference/fatbin.md section 2): flag 0x8000
// marks a zstd frame, flag 0x2000 a raw LZ4 block. Internal to the fat binary reader.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace lockstep::runtime::detail {

// Outcome of one decompression: `error` is empty on success, otherwise a short reason that
// the caller prefixes with the entry it was decoding.
struct Decompressed {
  std::vector<uint8_t> bytes;
  std::string error;
};

// Both functions decode exactly `expected_size` bytes (the entry header's uncompressed size)
// from `size` bytes at `data`; any other outcome, including a shorter or longer result, is
// an error. Neither reads outside [data, data + size).
Decompressed decompress_zstd(const uint8_t* data, size_t size, size_t expected_size);
Decompressed decompress_lz4_block(const uint8_t* data, size_t size, size_t expected_size);

}  // namespace lockstep::runtime::detail
