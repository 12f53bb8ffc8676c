// Corrupt fat binaries end in a FatbinError with a precise message, never in a crash or a
// read outside the image (run under -DLOCKSTEP_SANITIZE=ON to check the latter: every image
// here lives in a heap block of exactly its size).
#include <gtest/gtest.h>

#include <cstring>

#include "runtime/fatbin.h"
#include "runtime/fatbin_test_data.h"

namespace lockstep::runtime {
namespace {

using test::read_data_file;

// Layout of sm80_zstd.fatbin (4856 bytes): fat binary header at 0; entry 1 (ELF) header at
// 16, payload 4192 bytes at 80; entry 2 (PTX) header at 4272, zstd payload 504 bytes at 4352.
// sm80_lz4.fatbin is laid out alike up to entry 2, whose LZ4 payload is 672 bytes.
constexpr size_t kEntry1 = 16;
constexpr size_t kEntry2 = 4272;
constexpr size_t kEntry2Payload = 4352;

template <class T>
void poke(std::vector<uint8_t>& image, size_t at, T value) {
  std::memcpy(image.data() + at, &value, sizeof value);
}

std::string error_of(const std::vector<uint8_t>& image) {
  try {
    read_fatbin(image.data(), image.size());
  } catch (const FatbinError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(FatbinCorrupt, Layout) {   // the offsets the other tests rely on
  const std::vector<uint8_t> image = read_data_file("sm80_zstd.fatbin");
  ASSERT_EQ(image.size(), 4856u);
  EXPECT_EQ(image[kEntry1], 2);
  EXPECT_EQ(image[kEntry2], 1);
  EXPECT_EQ(image[kEntry2Payload], 0x28);   // zstd frame magic 28 b5 2f fd
}

TEST(FatbinCorrupt, BadMagic) {
  std::vector<uint8_t> image = read_data_file("sm80_zstd.fatbin");
  image[0] = 0;
  EXPECT_EQ(error_of(image), "fat binary: bad magic 0xba55ed00 at offset 0 (expected 0xba55ed50)");
}

TEST(FatbinCorrupt, TruncatedHeader) {
  std::vector<uint8_t> image = read_data_file("sm80_zstd.fatbin");
  image.resize(10);
  EXPECT_EQ(error_of(image), "fat binary: truncated header at offset 0 (10 bytes left, 16 needed)");
  image.clear();
  EXPECT_EQ(error_of(image), "fat binary: truncated header at offset 0 (0 bytes left, 16 needed)");
}

TEST(FatbinCorrupt, TruncatedBody) {
  std::vector<uint8_t> image = read_data_file("sm80_zstd.fatbin");
  image.resize(4000);
  EXPECT_EQ(error_of(image),
            "fat binary: 4840 bytes of entries at offset 16 run past the end of the image (3984 "
            "bytes left)");
}

TEST(FatbinCorrupt, EveryTruncationIsAnError) {
  const std::vector<uint8_t> full = read_data_file("sm80_zstd.fatbin");
  for (size_t size = 0; size < full.size(); ++size) {
    const std::vector<uint8_t> image(full.begin(), full.begin() + static_cast<long>(size));
    EXPECT_THROW(read_fatbin(image.data(), image.size()), FatbinError) << size;
  }
}

TEST(FatbinCorrupt, FatbinHeaderSizeTooSmall) {
  std::vector<uint8_t> image = read_data_file("sm80_zstd.fatbin");
  poke<uint16_t>(image, 6, 8);
  EXPECT_EQ(error_of(image),
            "fat binary: header size 8 at offset 0 is below 16 or past the end of the image");
}

TEST(FatbinCorrupt, EntryPayloadPastTheEnd) {
  std::vector<uint8_t> image = read_data_file("sm80_zstd.fatbin");
  poke<uint64_t>(image, kEntry2 + 8, 10000);
  EXPECT_EQ(error_of(image),
            "fat binary entry 2: payload of 10000 bytes at offset 4352 runs past the end of the "
            "fat binary (504 bytes left)");
  poke<uint64_t>(image, kEntry2 + 8, ~uint64_t{0});   // must not wrap around
  EXPECT_EQ(error_of(image),
            "fat binary entry 2: payload of 18446744073709551615 bytes at offset 4352 runs past "
            "the end of the fat binary (504 bytes left)");
}

TEST(FatbinCorrupt, EntryHeaderSize) {
  std::vector<uint8_t> image = read_data_file("sm80_zstd.fatbin");
  poke<uint32_t>(image, kEntry1 + 4, 16);
  EXPECT_EQ(error_of(image),
            "fat binary entry 1: header size 16 at offset 16 is below 64 or past the end of the "
            "fat binary");
  poke<uint32_t>(image, kEntry1 + 4, 0xffffffff);
  EXPECT_EQ(error_of(image),
            "fat binary entry 1: header size 4294967295 at offset 16 is below 64 or past the end "
            "of the fat binary");
}

TEST(FatbinCorrupt, EntryHeaderCutShortByTheFatbinSize) {
  // The fat binary header claims fewer bytes than its entries need: entry 2's header is cut.
  std::vector<uint8_t> image = read_data_file("sm80_zstd.fatbin");
  poke<uint64_t>(image, 8, 4272 - 16 + 32);
  EXPECT_EQ(error_of(image),
            "fat binary entry 2: header at offset 4272 runs past the end of the fat binary (32 "
            "bytes left, at least 64 needed)");
}

TEST(FatbinCorrupt, GarbageZstdPayload) {
  std::vector<uint8_t> image = read_data_file("sm80_zstd.fatbin");
  std::memset(image.data() + kEntry2Payload, 0xab, 504);
  EXPECT_EQ(error_of(image),
            "fat binary entry 2: zstd payload does not decompress (not a zstd frame)");
}

TEST(FatbinCorrupt, ZstdFrameCutShort) {
  std::vector<uint8_t> image = read_data_file("sm80_zstd.fatbin");
  poke<uint32_t>(image, kEntry2 + 0x10, 100);   // compressed size: only the first 100 bytes
  const std::string error = error_of(image);
  EXPECT_EQ(error.rfind("fat binary entry 2: zstd payload does not decompress (", 0), 0u) << error;
}

TEST(FatbinCorrupt, ZstdSizeDisagreesWithFrame) {
  std::vector<uint8_t> image = read_data_file("sm80_zstd.fatbin");
  poke<uint64_t>(image, kEntry2 + 0x38, 2000);
  EXPECT_EQ(error_of(image),
            "fat binary entry 2: zstd payload does not decompress (frame holds 1052 bytes, entry "
            "header says 2000)");
}

TEST(FatbinCorrupt, CompressedSizeLargerThanPayload) {
  std::vector<uint8_t> image = read_data_file("sm80_zstd.fatbin");
  poke<uint32_t>(image, kEntry2 + 0x10, 600);
  EXPECT_EQ(error_of(image),
            "fat binary entry 2: zstd compressed size 600 does not fit the payload of 504 bytes");
  poke<uint32_t>(image, kEntry2 + 0x10, 0);
  EXPECT_EQ(error_of(image),
            "fat binary entry 2: zstd compressed size 0 does not fit the payload of 504 bytes");
}

TEST(FatbinCorrupt, HugeUncompressedSizeIsRefusedBeforeAllocating) {
  std::vector<uint8_t> image = read_data_file("sm80_lz4.fatbin");
  poke<uint64_t>(image, kEntry2 + 0x38, uint64_t{1} << 40);
  EXPECT_EQ(error_of(image),
            "fat binary entry 2: uncompressed size 1099511627776 exceeds the limit of 1073741824 "
            "bytes");
}

TEST(FatbinCorrupt, BothCompressionFlags) {
  std::vector<uint8_t> image = read_data_file("sm80_zstd.fatbin");
  poke<uint64_t>(image, kEntry2 + 0x28, 0xa011);
  EXPECT_EQ(error_of(image), "fat binary entry 2: both zstd and LZ4 flags set (flags 0xa011)");
}

TEST(FatbinCorrupt, GarbageLz4Payload) {
  std::vector<uint8_t> image = read_data_file("sm80_lz4.fatbin");
  std::memset(image.data() + kEntry2Payload, 0xff, 672);
  EXPECT_EQ(error_of(image),
            "fat binary entry 2: LZ4 payload does not decompress (malformed LZ4 block)");
}

TEST(FatbinCorrupt, Lz4SizeDisagreesWithBlock) {
  std::vector<uint8_t> image = read_data_file("sm80_lz4.fatbin");
  poke<uint64_t>(image, kEntry2 + 0x38, 2000);
  EXPECT_EQ(error_of(image),
            "fat binary entry 2: LZ4 payload does not decompress (decompressed to 1052 bytes, "
            "entry header says 2000)");
  poke<uint64_t>(image, kEntry2 + 0x38, 1000);   // the block does not fit: LZ4 refuses it
  EXPECT_EQ(error_of(image),
            "fat binary entry 2: LZ4 payload does not decompress (malformed LZ4 block)");
}

TEST(FatbinCorrupt, FlippedHeaderOrPayloadBytesNeverCrash) {
  // Every byte of the fat binary header, both entry headers and the whole compressed PTX,
  // inverted one at a time: each image either reads or throws FatbinError.
  const std::vector<uint8_t> original = read_data_file("sm80_zstd.fatbin");
  std::vector<size_t> offsets;
  for (size_t i = 0; i < kEntry1 + 0x40; ++i) offsets.push_back(i);
  for (size_t i = kEntry2; i < original.size(); ++i) offsets.push_back(i);
  size_t errors = 0;
  for (const size_t at : offsets) {
    std::vector<uint8_t> image = original;
    image[at] ^= 0xff;
    try {
      read_fatbin(image.data(), image.size());
    } catch (const FatbinError&) {
      ++errors;
    }
  }
  EXPECT_GT(errors, 0u);
}

TEST(FatbinCorrupt, ConcatenatedFatbinsAndPadding) {
  const std::vector<uint8_t> one = read_data_file("sm80_zstd.fatbin");
  std::vector<uint8_t> image = one;
  image.insert(image.end(), one.begin(), one.end());
  image.resize(image.size() + 8, 0);   // alignment padding after the last one
  const auto entries = read_fatbin(image.data(), image.size());
  ASSERT_EQ(entries.size(), 4u);
  EXPECT_EQ(entries[2].payload, entries[0].payload);
  EXPECT_EQ(entries[3].payload, entries[1].payload);
  // Entries are numbered across fat binaries.
  std::memset(image.data() + one.size() + kEntry2Payload, 0xab, 504);
  EXPECT_EQ(error_of(image),
            "fat binary entry 4: zstd payload does not decompress (not a zstd frame)");
}

TEST(FatbinCorrupt, TrailingGarbage) {
  std::vector<uint8_t> image = read_data_file("sm80_zstd.fatbin");
  image.insert(image.end(), {0, 0, 0, 0, 1, 2, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0});
  EXPECT_EQ(error_of(image),
            "fat binary: bad magic 0x00000000 at offset 4856 (expected 0xba55ed50)");
  image.resize(4856 + 6);
  image[4860] = 1;
  EXPECT_EQ(error_of(image), "fat binary: truncated header at offset 4856 (6 bytes left, 16 needed)");
}

TEST(FatbinCorrupt, NullPointers) {
  try {
    read_fatbin(nullptr, 16);
    ADD_FAILURE() << "no error";
  } catch (const FatbinError& e) {
    EXPECT_STREQ(e.what(), "fat binary: null image pointer");
  }
  try {
    read_fatbin_wrapper(nullptr);
    ADD_FAILURE() << "no error";
  } catch (const FatbinError& e) {
    EXPECT_STREQ(e.what(), "fat binary wrapper: null pointer");
  }
}

struct Wrapper {   // __fatBinC_Wrapper_t
  int magic;
  int version;
  const void* data;
  void* filename_or_fatbins;
};

std::string wrapper_error_of(const Wrapper& w) {
  try {
    read_fatbin_wrapper(&w);
  } catch (const FatbinError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(FatbinCorrupt, WrapperErrors) {
  std::vector<uint8_t> image = read_data_file("sm80_zstd.fatbin");
  EXPECT_EQ(wrapper_error_of({0x12345678, 1, image.data(), nullptr}),
            "fat binary wrapper: bad magic 0x12345678 (expected 0x466243b1)");
  EXPECT_EQ(wrapper_error_of({0x466243B1, 1, nullptr, nullptr}),
            "fat binary wrapper: null data pointer");
  image[3] = 0;
  EXPECT_EQ(wrapper_error_of({0x466243B1, 1, image.data(), nullptr}),
            "fat binary: bad magic 0x0055ed50 at offset 0 (expected 0xba55ed50)");
  image[3] = 0xba;
  poke<uint64_t>(image, 8, uint64_t{1} << 40);
  EXPECT_EQ(wrapper_error_of({0x466243B1, 1, image.data(), nullptr}),
            "fat binary: implausible size 1099511627776 in header");
}

}  // namespace
}  // namespace lockstep::runtime
