// Reading the fat binaries of real nvcc 13 builds of data/scale.cu (one build per image; the
// nvcc options are in data/make_fatbins.sh).
#include <gtest/gtest.h>

#include "runtime/fatbin.h"
#include "runtime/fatbin_test_data.h"

namespace lockstep::runtime {
namespace {

using Kind = FatbinEntry::Kind;
using test::read_data_file;

std::vector<FatbinEntry> read_image(const std::string& name) {
  const std::vector<uint8_t> image = read_data_file(name);
  return read_fatbin(image.data(), image.size());
}

std::string text_of(const FatbinEntry& e) { return std::string(e.payload.begin(), e.payload.end()); }

// The `nvcc -ptx` output, normalised; what every PTX entry for that target must hold exactly.
std::string expected_ptx(uint32_t sm) {
  return test::normalise_ptx(test::read_text_file("scale_sm" + std::to_string(sm) + ".ptx"));
}

void expect_elf(const FatbinEntry& e, uint32_t sm, bool compressed) {
  EXPECT_EQ(e.kind, Kind::Elf);
  EXPECT_EQ(e.sm, sm);
  EXPECT_EQ(e.compressed, compressed);
  EXPECT_EQ(e.ptx_major, 0u);
  ASSERT_GE(e.payload.size(), 8u);
  const std::vector<uint8_t> elf_ident(e.payload.begin(), e.payload.begin() + 8);
  EXPECT_EQ(elf_ident, (std::vector<uint8_t>{0x7f, 'E', 'L', 'F', 2, 1, 1, 0x41}));
}

void expect_ptx(const FatbinEntry& e, uint32_t sm, bool compressed) {
  EXPECT_EQ(e.kind, Kind::Ptx);
  EXPECT_EQ(e.sm, sm);
  EXPECT_EQ(e.compressed, compressed);
  EXPECT_EQ(e.ptx_major, 9u);
  EXPECT_EQ(e.ptx_minor, 0u);
  const std::string text = text_of(e);
  EXPECT_EQ(text.find('\0'), std::string::npos);
  EXPECT_NE(text.find(".target sm_" + std::to_string(sm) + "\n"), std::string::npos);
  EXPECT_NE(text.find(".visible .entry _Z5scalePffi("), std::string::npos);
}

TEST(FatbinRead, DefaultBuildHasPlainElfAndZstdPtx) {
  const auto entries = read_image("sm80_zstd.fatbin");
  ASSERT_EQ(entries.size(), 2u);
  expect_elf(entries[0], 80, false);
  EXPECT_EQ(entries[0].payload.size(), 4192u);
  expect_ptx(entries[1], 80, true);
  EXPECT_EQ(entries[1].payload.size(), 1051u);   // 1052 decompressed bytes minus the NUL
  EXPECT_EQ(text_of(entries[1]), expected_ptx(80));
}

TEST(FatbinRead, UncompressedPtxIsStoredTextWithoutNuls) {
  const auto entries = read_image("sm80_plain.fatbin");
  ASSERT_EQ(entries.size(), 2u);
  expect_elf(entries[0], 80, false);
  expect_ptx(entries[1], 80, false);
  // Stored as 1051 bytes of text, a NUL and padding to 1056.
  EXPECT_EQ(entries[1].payload.size(), 1051u);
  EXPECT_EQ(text_of(entries[1]), expected_ptx(80));
  const std::string start = "\n\n\n\n\n\n\n\n.version 9.0\n.target sm_80\n";
  EXPECT_EQ(text_of(entries[1]).substr(0, start.size()), start);
}

TEST(FatbinRead, Lz4PtxDecodesToTheSameText) {
  const auto entries = read_image("sm80_lz4.fatbin");
  ASSERT_EQ(entries.size(), 2u);
  expect_elf(entries[0], 80, false);
  expect_ptx(entries[1], 80, true);
  EXPECT_EQ(text_of(entries[1]), expected_ptx(80));
}

TEST(FatbinRead, AllCompressionModesAgreeOnEveryPayload) {
  const auto plain = read_image("sm80_plain.fatbin");
  for (const char* name : {"sm80_zstd.fatbin", "sm80_lz4.fatbin", "sm80_all_zstd.fatbin",
                           "sm80_all_lz4.fatbin"}) {
    SCOPED_TRACE(name);
    const auto entries = read_image(name);
    ASSERT_EQ(entries.size(), 2u);
    EXPECT_EQ(entries[0].payload, plain[0].payload);   // the cubin
    EXPECT_EQ(entries[1].payload, plain[1].payload);   // the PTX text
    EXPECT_TRUE(entries[1].compressed);
  }
}

TEST(FatbinRead, CompressAllCompressesTheElfToo) {
  for (const char* name : {"sm80_all_zstd.fatbin", "sm80_all_lz4.fatbin"}) {
    SCOPED_TRACE(name);
    const auto entries = read_image(name);
    ASSERT_EQ(entries.size(), 2u);
    expect_elf(entries[0], 80, true);
    EXPECT_EQ(entries[0].payload.size(), 4192u);
    expect_ptx(entries[1], 80, true);
  }
}

TEST(FatbinRead, Sm90Build) {
  const auto entries = read_image("sm90_zstd.fatbin");
  ASSERT_EQ(entries.size(), 2u);
  expect_elf(entries[0], 90, false);
  EXPECT_EQ(entries[0].payload.size(), 4656u);
  expect_ptx(entries[1], 90, true);
  EXPECT_EQ(text_of(entries[1]), expected_ptx(90));
}

TEST(FatbinRead, LineinfoBuildHasLongerEntryHeaders) {
  // -lineinfo grows the PTX entry header to 112 bytes and the ELF one to 80.
  const auto entries = read_image("sm80_lineinfo.fatbin");
  ASSERT_EQ(entries.size(), 2u);
  expect_elf(entries[0], 80, false);
  EXPECT_EQ(entries[0].payload.size(), 6496u);
  expect_ptx(entries[1], 80, true);
  EXPECT_EQ(entries[1].payload.size(), 1562u);
  // Here fatbinary keeps the tab after .loc, .file and .section, so the stored text matches
  // `nvcc -ptx -lineinfo` only once blanks are squeezed on both sides.
  const std::string text = text_of(entries[1]);
  EXPECT_NE(text.find("\n.loc\t1 7 0\n"), std::string::npos);
  EXPECT_NE(text.find("\n.file\t1 \""), std::string::npos);
  EXPECT_EQ(test::normalise_ptx(text),
            test::normalise_ptx(test::read_text_file("scale_sm80_lineinfo.ptx")));
}

TEST(FatbinRead, SassOnlyBuildHasNoPtx) {
  const auto entries = read_image("sm80_sass.fatbin");
  ASSERT_EQ(entries.size(), 1u);
  expect_elf(entries[0], 80, false);
  EXPECT_EQ(select_ptx(entries, 80), std::nullopt);
  EXPECT_EQ(select_ptx(entries, 120), std::nullopt);
  EXPECT_TRUE(ptx_targets(entries).empty());
}

TEST(FatbinRead, WrapperLeadsToTheSameEntries) {
  const std::vector<uint8_t> image = read_data_file("sm80_lz4.fatbin");
  struct {                 // __fatBinC_Wrapper_t, version 1 as nvcc registers it
    int magic;
    int version;
    const void* data;
    void* filename_or_fatbins;
  } wrapper{0x466243B1, 1, image.data(), nullptr};
  const auto entries = read_fatbin_wrapper(&wrapper);
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].payload, read_fatbin(image.data(), image.size())[0].payload);
  EXPECT_EQ(text_of(entries[1]), expected_ptx(80));
}

// What cudaLibraryLoadData may be handed: a fat binary image, a wrapper, a cubin, PTX text.
TEST(FatbinLoadedCode, ReadsImagesWrappersCubinsAndPtxText) {
  const std::vector<uint8_t> image = read_data_file("sm80_lz4.fatbin");
  const auto from_image = read_loaded_code(image.data());
  ASSERT_EQ(from_image.size(), 2u);
  EXPECT_EQ(text_of(from_image[1]), expected_ptx(80));
  struct {
    int magic;
    int version;
    const void* data;
    void* filename_or_fatbins;
  } wrapper{0x466243B1, 1, image.data(), nullptr};
  EXPECT_EQ(read_loaded_code(&wrapper)[1].payload, from_image[1].payload);

  const std::vector<uint8_t> cubin = read_data_file("resources_sm80.cubin");
  const auto from_cubin = read_loaded_code(cubin.data());
  ASSERT_EQ(from_cubin.size(), 1u);
  EXPECT_EQ(from_cubin[0].kind, Kind::Elf);
  EXPECT_EQ(select_ptx(from_cubin, 80), std::nullopt);

  const std::string ptx = test::read_text_file("scale_sm90.ptx");
  const auto from_text = read_loaded_code(ptx.c_str());
  ASSERT_EQ(from_text.size(), 1u);
  EXPECT_EQ(from_text[0].kind, Kind::Ptx);
  EXPECT_EQ(from_text[0].sm, 90u);
  EXPECT_EQ(text_of(from_text[0]), ptx);
  EXPECT_EQ(select_ptx(from_text, 80), std::nullopt);  // PTX for sm_90 cannot run on sm_80

  EXPECT_THROW(read_loaded_code(nullptr), FatbinError);
}

TEST(FatbinSelect, SingleTargetBuild) {
  const auto entries = read_image("sm80_zstd.fatbin");
  EXPECT_EQ(select_ptx(entries, 80), expected_ptx(80));
  EXPECT_EQ(select_ptx(entries, 86), expected_ptx(80));
  EXPECT_EQ(select_ptx(entries, 90), expected_ptx(80));
  EXPECT_EQ(select_ptx(entries, 75), std::nullopt);   // PTX for sm_80 cannot run on sm_75
  EXPECT_EQ(ptx_targets(entries), std::vector<uint32_t>{80});
}

TEST(FatbinSelect, SassFor80PtxFor90) {
  const auto entries = read_image("sass80_ptx90.fatbin");
  ASSERT_EQ(entries.size(), 2u);
  expect_elf(entries[0], 80, false);
  expect_ptx(entries[1], 90, true);
  EXPECT_EQ(select_ptx(entries, 90), expected_ptx(90));
  EXPECT_EQ(select_ptx(entries, 100), expected_ptx(90));
  // Only newer PTX than requested: nothing usable (the SASS is not PTX).
  EXPECT_EQ(select_ptx(entries, 86), std::nullopt);
  EXPECT_EQ(select_ptx(entries, 80), std::nullopt);
  EXPECT_EQ(ptx_targets(entries), std::vector<uint32_t>{90});
}

TEST(FatbinSelect, PtxFor80And90PicksHighestNotAbove) {
  const auto entries = read_image("ptx80_ptx90.fatbin");
  ASSERT_EQ(entries.size(), 3u);
  expect_elf(entries[0], 80, false);
  expect_ptx(entries[1], 80, true);
  expect_ptx(entries[2], 90, true);
  EXPECT_EQ(select_ptx(entries, 90), expected_ptx(90));
  EXPECT_EQ(select_ptx(entries, 120), expected_ptx(90));
  EXPECT_EQ(select_ptx(entries, 89), expected_ptx(80));
  EXPECT_EQ(select_ptx(entries, 86), expected_ptx(80));
  EXPECT_EQ(select_ptx(entries, 80), expected_ptx(80));
  EXPECT_EQ(select_ptx(entries, 75), std::nullopt);
  EXPECT_EQ(ptx_targets(entries), (std::vector<uint32_t>{80, 90}));
}

TEST(FatbinSelect, ReversedOrderStillPicksHighest) {
  auto entries = read_image("ptx80_ptx90.fatbin");
  std::swap(entries[1], entries[2]);
  EXPECT_EQ(select_ptx(entries, 90), expected_ptx(90));
  EXPECT_EQ(select_ptx(entries, 86), expected_ptx(80));
}

}  // namespace
}  // namespace lockstep::runtime
