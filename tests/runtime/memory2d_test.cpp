// Pitched memory in the Runtime: cudaMallocPitch pads rows to 512 bytes, 2D and 3D copies and
// memsets touch exactly the region asked for, and bad pitches, directions and ranges are
// refused with CUDA's errors before anything is written.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "runtime/runtime.h"

namespace lockstep::runtime {
namespace {

class PitchedMemory : public ::testing::Test {
 protected:
  PitchedMemory() : err_(std::tmpfile()), runtime_(RuntimeOptions{}, stdout, err_) {}
  ~PitchedMemory() override { std::fclose(err_); }

  std::string messages() {
    std::fflush(err_);
    std::rewind(err_);
    std::string text;
    for (int c = std::fgetc(err_); c != EOF; c = std::fgetc(err_)) text += static_cast<char>(c);
    return text;
  }
  // The whole allocation behind a pitched pointer, as bytes.
  std::vector<uint8_t> download(const void* p, size_t bytes) {
    std::vector<uint8_t> out(bytes);
    EXPECT_EQ(runtime_.memcpy(out.data(), p, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
    return out;
  }

  std::FILE* err_;
  Runtime runtime_;
};

TEST_F(PitchedMemory, PitchIsTheWidthRoundedUpTo512Bytes) {
  void* p = nullptr;
  size_t pitch = 0;
  ASSERT_EQ(runtime_.malloc_pitch(&p, &pitch, 100, 3), cudaSuccess);
  EXPECT_EQ(pitch, 512u);
  EXPECT_TRUE(runtime_.is_device_address(reinterpret_cast<uint64_t>(p), 3 * 512));
  EXPECT_FALSE(runtime_.is_device_address(reinterpret_cast<uint64_t>(p), 3 * 512 + 1));
  ASSERT_EQ(runtime_.malloc_pitch(&p, &pitch, 513, 2), cudaSuccess);
  EXPECT_EQ(pitch, 1024u);
  ASSERT_EQ(runtime_.malloc_pitch(&p, &pitch, 1024, 1), cudaSuccess);
  EXPECT_EQ(pitch, 1024u);
  EXPECT_EQ(runtime_.malloc_pitch(&p, nullptr, 16, 16), cudaErrorInvalidValue);
}

TEST_F(PitchedMemory, Copy2DHonoursBothPitches) {
  void* d = nullptr;
  size_t pitch = 0;
  ASSERT_EQ(runtime_.malloc_pitch(&d, &pitch, 5, 3), cudaSuccess);
  ASSERT_EQ(runtime_.memset(d, 0xee, pitch * 3), cudaSuccess);
  std::vector<uint8_t> host(7 * 3);  // rows of 7 bytes, 5 used
  std::iota(host.begin(), host.end(), 1);
  ASSERT_EQ(runtime_.memcpy_2d(d, pitch, host.data(), 7, 5, 3, cudaMemcpyHostToDevice), cudaSuccess);
  const std::vector<uint8_t> device = download(d, pitch * 3);
  EXPECT_EQ(std::vector<uint8_t>(device.begin(), device.begin() + 6), (std::vector<uint8_t>{1, 2, 3, 4, 5, 0xee}));
  EXPECT_EQ(std::vector<uint8_t>(device.begin() + 512, device.begin() + 518),
            (std::vector<uint8_t>{8, 9, 10, 11, 12, 0xee}));
  EXPECT_EQ(device[1024 + 4], 19);
  EXPECT_EQ(device[1024 + 5], 0xee);

  // Back into a tight host buffer, by cudaMemcpyDefault; then device to device.
  std::vector<uint8_t> tight(15, 0);
  ASSERT_EQ(runtime_.memcpy_2d(tight.data(), 5, d, pitch, 5, 3, cudaMemcpyDefault), cudaSuccess);
  EXPECT_EQ(tight, (std::vector<uint8_t>{1, 2, 3, 4, 5, 8, 9, 10, 11, 12, 15, 16, 17, 18, 19}));
  void* e = nullptr;
  ASSERT_EQ(runtime_.malloc(&e, 6), cudaSuccess);
  ASSERT_EQ(runtime_.memcpy_2d(e, 2, static_cast<char*>(d) + 3, pitch, 2, 3, cudaMemcpyDeviceToDevice), cudaSuccess);
  EXPECT_EQ(download(e, 6), (std::vector<uint8_t>{4, 5, 11, 12, 18, 19}));
}

TEST_F(PitchedMemory, Copy2DRefusesBadArgumentsWithoutWriting) {
  void* d = nullptr;
  size_t pitch = 0;
  ASSERT_EQ(runtime_.malloc_pitch(&d, &pitch, 64, 4), cudaSuccess);
  std::vector<uint8_t> host(4096, 7);
  EXPECT_EQ(runtime_.memcpy_2d(d, 32, host.data(), 64, 64, 2, cudaMemcpyHostToDevice), cudaErrorInvalidPitchValue);
  EXPECT_EQ(runtime_.memcpy_2d(d, pitch, host.data(), 16, 64, 2, cudaMemcpyHostToDevice), cudaErrorInvalidPitchValue);
  EXPECT_EQ(runtime_.memcpy_2d(d, size_t{1} << 31, host.data(), 64, 64, 2, cudaMemcpyHostToDevice),
            cudaErrorInvalidPitchValue);
  EXPECT_EQ(runtime_.memcpy_2d(d, pitch, host.data(), 64, 64, 2, static_cast<cudaMemcpyKind>(7)),
            cudaErrorInvalidMemcpyDirection);
  // Five rows do not fit in four: nothing is copied.
  EXPECT_EQ(runtime_.memcpy_2d(d, pitch, host.data(), 64, 64, 5, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
  EXPECT_EQ(download(d, pitch * 4), std::vector<uint8_t>(pitch * 4, 0));
  EXPECT_EQ(runtime_.memcpy_2d(host.data(), 64, d, pitch, 64, 2, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
  EXPECT_EQ(runtime_.memcpy_2d(d, pitch, host.data(), 64, 0, 2, cudaMemcpyHostToDevice), cudaSuccess);
  EXPECT_EQ(runtime_.take_last_error(), cudaErrorInvalidValue);
}

TEST_F(PitchedMemory, Memset2DSetsOnlyTheRectangle) {
  void* d = nullptr;
  size_t pitch = 0;
  ASSERT_EQ(runtime_.malloc_pitch(&d, &pitch, 8, 3), cudaSuccess);
  ASSERT_EQ(runtime_.memset_2d(static_cast<char*>(d) + 2, pitch, 0x1ab, 3, 2), cudaSuccess);
  const std::vector<uint8_t> device = download(d, pitch * 3);
  EXPECT_EQ(std::vector<uint8_t>(device.begin(), device.begin() + 6),
            (std::vector<uint8_t>{0, 0, 0xab, 0xab, 0xab, 0}));
  EXPECT_EQ(device[pitch + 4], 0xab);
  EXPECT_EQ(device[2 * pitch + 2], 0);
  EXPECT_EQ(runtime_.memset_2d(d, 4, 0, 8, 2), cudaErrorInvalidValue);         // width > pitch
  EXPECT_EQ(runtime_.memset_2d(d, pitch, 0, 8, 4), cudaErrorInvalidValue);     // past the end
  EXPECT_EQ(runtime_.memset_2d(d, pitch, 0, 0, 4), cudaSuccess);
}

TEST_F(PitchedMemory, Linear3DAllocationCopyAndMemset) {
  cudaPitchedPtr volume{};
  ASSERT_EQ(runtime_.malloc_3d(&volume, cudaExtent{10, 4, 3}), cudaSuccess);
  EXPECT_EQ(volume.pitch, 512u);
  EXPECT_EQ(volume.xsize, 10u);
  EXPECT_EQ(volume.ysize, 4u);
  ASSERT_EQ(runtime_.memset_3d(volume, 1, cudaExtent{10, 4, 3}), cudaSuccess);

  // A 4 x 2 x 2 box from a host volume (rows of 6 bytes, slices of 3 rows) to position (5, 1, 1).
  std::vector<uint8_t> host(6 * 3 * 2);
  std::iota(host.begin(), host.end(), 100);
  cudaMemcpy3DParms p{};
  p.srcPtr = cudaPitchedPtr{host.data(), 6, 6, 3};
  p.srcPos = cudaPos{1, 1, 0};
  p.dstPtr = volume;
  p.dstPos = cudaPos{5, 1, 1};
  p.extent = cudaExtent{4, 2, 2};
  p.kind = cudaMemcpyHostToDevice;
  ASSERT_EQ(runtime_.memcpy_3d(p), cudaSuccess);
  const std::vector<uint8_t> device = download(volume.ptr, 512 * 4 * 3);
  auto at = [&](size_t x, size_t y, size_t z) { return device[(z * 4 + y) * 512 + x]; };
  EXPECT_EQ(at(5, 1, 1), 107);   // host (1, 1, 0)
  EXPECT_EQ(at(8, 2, 1), 116);   // host (4, 2, 0)
  EXPECT_EQ(at(5, 1, 2), 125);   // host (1, 1, 1)
  EXPECT_EQ(at(9, 1, 1), 1);     // outside the box
  EXPECT_EQ(at(5, 0, 1), 1);
  EXPECT_EQ(at(5, 3, 2), 1);

  // An array and a pointer both named as the destination: CUDA's invalid value, nothing copied.
  p.dstArray = reinterpret_cast<cudaArray_t>(0x10);
  EXPECT_EQ(runtime_.memcpy_3d(p), cudaErrorInvalidValue);
  EXPECT_EQ(messages(), "");
}

}  // namespace
}  // namespace lockstep::runtime
