#include "runtime/fatbin_decompress.h"

#include <fmt/format.h>
#include <lz4.h>
#include <zstd.h>

#include <climits>

namespace lockstep::runtime::detail {

Decompressed decompress_zstd(const uint8_t* data, size_t size, size_t expected_size) {
  Decompressed out;
  // The frame may record its own content size; a mismatch with the entry header means one
  // of the two is corrupt, so reject it before allocating anything.
  const unsigned long long framed = ZSTD_getFrameContentSize(data, size);
  if (framed == ZSTD_CONTENTSIZE_ERROR) {
    out.error = "not a zstd frame";
    return out;
  }
  if (framed != ZSTD_CONTENTSIZE_UNKNOWN && framed != expected_size) {
    out.error = fmt::format("frame holds {} bytes, entry header says {}", framed, expected_size);
    return out;
  }
  // One spare byte lets a payload that is longer than announced be detected as such.
  out.bytes.resize(expected_size + 1);
  const size_t got = ZSTD_decompress(out.bytes.data(), out.bytes.size(), data, size);
  if (ZSTD_isError(got)) {
    out.error = ZSTD_getErrorName(got);
  } else if (got != expected_size) {
    out.error = fmt::format("decompressed to {} bytes, entry header says {}", got, expected_size);
  }
  out.bytes.resize(out.error.empty() ? expected_size : 0);
  return out;
}

Decompressed decompress_lz4_block(const uint8_t* data, size_t size, size_t expected_size) {
  Decompressed out;
  // LZ4's block API counts in int; larger blocks cannot come from nvcc anyway.
  if (size > INT_MAX || expected_size >= INT_MAX) {
    out.error = "block too large for LZ4";
    return out;
  }
  out.bytes.resize(expected_size + 1);
  const int got = LZ4_decompress_safe(reinterpret_cast<const char*>(data),
                                      reinterpret_cast<char*>(out.bytes.data()),
                                      static_cast<int>(size), static_cast<int>(out.bytes.size()));
  if (got < 0) {
    out.error = "malformed LZ4 block";
  } else if (static_cast<size_t>(got) != expected_size) {
    out.error = fmt::format("decompressed to {} bytes, entry header says {}", got, expected_size);
  }
  out.bytes.resize(out.error.empty() ? expected_size : 0);
  return out;
}

}  // namespace lockstep::runtime::detail
