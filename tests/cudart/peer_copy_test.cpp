// Peer copies through the stand-in libcudart's C entry points, as a program calls them: with
// one simulated device, device 0 to device 0 copies as the plain copies do (the 3D forms with a
// sub-box at an offset, from device or host memory); every other device number is
// cudaErrorInvalidDevice and copies nothing.
#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

#include <cuda_runtime_api.h>

namespace lockstep::test {
namespace {

constexpr size_t kWidth = 64, kHeight = 6, kDepth = 5;  // bytes, rows, slices of the source

std::vector<uint8_t> source_bytes() {
  std::vector<uint8_t> bytes(kWidth * kHeight * kDepth);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i * 13 + 5);
  return bytes;
}

cudaPitchedPtr pitched(void* ptr, size_t pitch, size_t width, size_t height) {
  cudaPitchedPtr p{};
  p.ptr = ptr;
  p.pitch = pitch;
  p.xsize = width;
  p.ysize = height;
  return p;
}

// A box of 24 x 3 x 2 bytes from (8, 2, 1) of the source to (4, 1, 0) of a 32 x 4 x 2
// destination, which starts out as 0xee.
struct BoxCopy {
  static constexpr size_t kDstWidth = 32, kDstHeight = 4, kDstDepth = 2;
  cudaMemcpy3DPeerParms params(const void* src) const {
    cudaMemcpy3DPeerParms p{};
    p.srcPtr = pitched(const_cast<void*>(src), kWidth, kWidth, kHeight);
    p.srcPos = {8, 2, 1};
    p.dstPtr = pitched(dst, kDstWidth, kDstWidth, kDstHeight);
    p.dstPos = {4, 1, 0};
    p.extent = {24, 3, 2};
    return p;
  }
  std::vector<uint8_t> expected() const {
    const std::vector<uint8_t> src = source_bytes();
    std::vector<uint8_t> out(kDstWidth * kDstHeight * kDstDepth, 0xee);
    for (size_t z = 0; z < 2; ++z)
      for (size_t y = 0; y < 3; ++y)
        for (size_t x = 0; x < 24; ++x)
          out[(z * kDstHeight + y + 1) * kDstWidth + x + 4] = src[((z + 1) * kHeight + y + 2) * kWidth + x + 8];
    return out;
  }
  std::vector<uint8_t> download() const {
    std::vector<uint8_t> out(kDstWidth * kDstHeight * kDstDepth);
    EXPECT_EQ(cudaMemcpy(out.data(), dst, out.size(), cudaMemcpyDeviceToHost), cudaSuccess);
    return out;
  }
  BoxCopy() {
    EXPECT_EQ(cudaMalloc(&dst, kDstWidth * kDstHeight * kDstDepth), cudaSuccess);
    EXPECT_EQ(cudaMemset(dst, 0xee, kDstWidth * kDstHeight * kDstDepth), cudaSuccess);
  }
  ~BoxCopy() { cudaFree(dst); }
  void* dst = nullptr;
};

void* device_source() {
  void* src = nullptr;
  const std::vector<uint8_t> bytes = source_bytes();
  EXPECT_EQ(cudaMalloc(&src, bytes.size()), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(src, bytes.data(), bytes.size(), cudaMemcpyHostToDevice), cudaSuccess);
  return src;
}

TEST(PeerCopy, Memcpy3DPeerCopiesABoxWithinDeviceZero) {
  void* src = device_source();
  BoxCopy copy;
  const cudaMemcpy3DPeerParms p = copy.params(src);
  EXPECT_EQ(cudaMemcpy3DPeer(&p), cudaSuccess);
  EXPECT_EQ(copy.download(), copy.expected());
  cudaFree(src);
}

TEST(PeerCopy, Memcpy3DPeerAsyncCopiesInStreamOrder) {
  void* src = device_source();
  BoxCopy copy;
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreate(&stream), cudaSuccess);
  const cudaMemcpy3DPeerParms p = copy.params(src);
  EXPECT_EQ(cudaMemcpy3DPeerAsync(&p, stream), cudaSuccess);
  EXPECT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  EXPECT_EQ(copy.download(), copy.expected());
  EXPECT_EQ(cudaStreamDestroy(stream), cudaSuccess);
  cudaFree(src);
}

// Under unified addressing a peer copy may read host memory, as cudaMemcpyDefault does.
TEST(PeerCopy, Memcpy3DPeerReadsHostMemory) {
  std::vector<uint8_t> host = source_bytes();
  BoxCopy copy;
  const cudaMemcpy3DPeerParms p = copy.params(host.data());
  EXPECT_EQ(cudaMemcpy3DPeer(&p), cudaSuccess);
  EXPECT_EQ(copy.download(), copy.expected());
}

TEST(PeerCopy, AnotherDeviceIsAnInvalidDeviceAndCopiesNothing) {
  void* src = device_source();
  BoxCopy copy;
  const std::vector<uint8_t> untouched(BoxCopy::kDstWidth * BoxCopy::kDstHeight * BoxCopy::kDstDepth, 0xee);
  for (const auto& [src_device, dst_device] : {std::pair{1, 0}, std::pair{0, 1}, std::pair{-1, 0}}) {
    cudaMemcpy3DPeerParms p = copy.params(src);
    p.srcDevice = src_device;
    p.dstDevice = dst_device;
    EXPECT_EQ(cudaMemcpy3DPeer(&p), cudaErrorInvalidDevice);
    EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidDevice);
    EXPECT_EQ(cudaMemcpy3DPeerAsync(&p, nullptr), cudaErrorInvalidDevice);
    EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidDevice);
    EXPECT_EQ(cudaMemcpyPeer(copy.dst, dst_device, src, src_device, 16), cudaErrorInvalidDevice);
    EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidDevice);
  }
  EXPECT_EQ(copy.download(), untouched);
  cudaFree(src);
}

TEST(PeerCopy, NoParametersIsAnInvalidValue) {
  EXPECT_EQ(cudaMemcpy3DPeer(nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpy3DPeerAsync(nullptr, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
}

TEST(PeerCopy, MemcpyPeerCopiesLinearMemory) {
  void* src = device_source();
  void* dst = nullptr;
  ASSERT_EQ(cudaMalloc(&dst, 100), cudaSuccess);
  EXPECT_EQ(cudaMemcpyPeer(dst, 0, static_cast<uint8_t*>(src) + 7, 0, 100), cudaSuccess);
  EXPECT_EQ(cudaMemcpyPeerAsync(static_cast<uint8_t*>(dst) + 50, 0, src, 0, 50, nullptr), cudaSuccess);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<uint8_t> out(100);
  EXPECT_EQ(cudaMemcpy(out.data(), dst, 100, cudaMemcpyDeviceToHost), cudaSuccess);
  const std::vector<uint8_t> bytes = source_bytes();
  for (size_t i = 0; i < 100; ++i) EXPECT_EQ(out[i], i < 50 ? bytes[i + 7] : bytes[i - 50]) << i;
  cudaFree(dst);
  cudaFree(src);
}

}  // namespace
}  // namespace lockstep::test
