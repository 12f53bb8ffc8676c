// cudaMemcpy3D with CUDA arrays in the Runtime: host <-> array, device <-> array and array <->
// array copies with positions (elements for arrays, bytes for a pointer's x), layered and
// cubemap arrays addressed by layer in z, and CUDA's errors for bad parameters, each checked
// to leave the destination untouched.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "func/texture_descriptor.h"
#include "runtime/runtime.h"

namespace lockstep::runtime {
namespace {

class ArrayCopy3D : public ::testing::Test {
 protected:
  ArrayCopy3D() : err_(std::tmpfile()), rt_(RuntimeOptions{}, stdout, err_) {}
  ~ArrayCopy3D() override { std::fclose(err_); }

  cudaArray_t array(cudaChannelFormatDesc desc, cudaExtent extent, unsigned flags = 0) {
    cudaArray_t a = nullptr;
    EXPECT_EQ(rt_.malloc_array(&a, &desc, extent, flags), cudaSuccess);
    return a;
  }
  // The array's elements as 32-bit words, row-major (x, then y, then z or layer).
  std::vector<uint32_t> words(cudaArray_t a, size_t count) {
    std::vector<uint32_t> out(count);
    cudaMemcpy3DParms p{};
    p.srcArray = a;
    cudaExtent e{};
    EXPECT_EQ(rt_.array_info(nullptr, &e, nullptr, a), cudaSuccess);
    const size_t h = e.height == 0 ? 1 : e.height, d = e.depth == 0 ? 1 : e.depth;
    p.dstPtr = cudaPitchedPtr{out.data(), e.width * 4, e.width, h};
    p.extent = cudaExtent{e.width, h, d};
    p.kind = cudaMemcpyDeviceToHost;
    EXPECT_EQ(rt_.memcpy_3d(p), cudaSuccess);
    return out;
  }

  std::FILE* err_;
  Runtime rt_;
};

const cudaChannelFormatDesc kFloat1{32, 0, 0, 0, cudaChannelFormatKindFloat};
const cudaChannelFormatDesc kUchar4{8, 8, 8, 8, cudaChannelFormatKindUnsigned};

TEST_F(ArrayCopy3D, HostVolumeIntoAnArrayAtAnOffsetAndBack) {
  const cudaArray_t a = array(kFloat1, cudaExtent{5, 4, 3});
  std::vector<uint32_t> zeros(5 * 4 * 3, 0);
  cudaMemcpy3DParms clear{};
  clear.srcPtr = cudaPitchedPtr{zeros.data(), 20, 5, 4};
  clear.dstArray = a;
  clear.extent = cudaExtent{5, 4, 3};
  clear.kind = cudaMemcpyHostToDevice;
  ASSERT_EQ(rt_.memcpy_3d(clear), cudaSuccess);
  // Host box of 8 x 3 words per slice (pitch 32 bytes), 3 rows per slice; copy a 2 x 2 x 2
  // block starting at host (word 1, row 1, slice 0) into array (3, 2, 1).
  std::vector<uint32_t> host(8 * 3 * 2);
  for (size_t i = 0; i < host.size(); ++i) host[i] = static_cast<uint32_t>(100 + i);
  cudaMemcpy3DParms p{};
  p.srcPtr = cudaPitchedPtr{host.data(), 32, 8, 3};
  p.srcPos = cudaPos{4, 1, 0};  // bytes in x: word 1
  p.dstArray = a;
  p.dstPos = cudaPos{3, 2, 1};  // elements
  p.extent = cudaExtent{2, 2, 2};
  p.kind = cudaMemcpyHostToDevice;
  ASSERT_EQ(rt_.memcpy_3d(p), cudaSuccess);
  const std::vector<uint32_t> back = words(a, 5 * 4 * 3);
  auto at = [&](size_t x, size_t y, size_t z) { return back[(z * 4 + y) * 5 + x]; };
  EXPECT_EQ(at(3, 2, 1), 109u);  // host word (1, 1, 0) = 8 + 1
  EXPECT_EQ(at(4, 2, 1), 110u);
  EXPECT_EQ(at(3, 3, 1), 117u);  // host (1, 2, 0)
  EXPECT_EQ(at(4, 3, 2), 100u + 24 + 16 + 2);  // host (2, 2, 1)
  EXPECT_EQ(at(2, 2, 1), 0u);    // outside the box
  EXPECT_EQ(at(3, 1, 1), 0u);
  EXPECT_EQ(at(3, 2, 0), 0u);
  // Out again into a device buffer at a byte offset, then to the host.
  void* device = nullptr;
  ASSERT_EQ(rt_.malloc(&device, 64 * 2 * 2), cudaSuccess);
  cudaMemcpy3DParms out{};
  out.srcArray = a;
  out.srcPos = cudaPos{3, 2, 1};
  out.dstPtr = cudaPitchedPtr{device, 64, 16, 2};
  out.dstPos = cudaPos{8, 0, 0};
  out.extent = cudaExtent{2, 2, 2};
  out.kind = cudaMemcpyDefault;
  ASSERT_EQ(rt_.memcpy_3d(out), cudaSuccess);
  std::vector<uint32_t> d(16 * 2 * 2);
  ASSERT_EQ(rt_.memcpy(d.data(), device, d.size() * 4, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(d[2], 109u);
  EXPECT_EQ(d[3], 110u);
  EXPECT_EQ(d[16 + 2], 117u);
  EXPECT_EQ(d[32 + 16 + 3], 142u);
}

TEST_F(ArrayCopy3D, ArrayToArrayNeedsEqualElementSizes) {
  const cudaArray_t from = array(kFloat1, cudaExtent{4, 4, 2});
  const cudaArray_t to = array(kUchar4, cudaExtent{4, 4, 6}, cudaArrayLayered);
  const cudaArray_t narrow = array(cudaChannelFormatDesc{16, 0, 0, 0, cudaChannelFormatKindFloat}, cudaExtent{4, 4, 2});
  std::vector<uint32_t> host(32);
  for (size_t i = 0; i < host.size(); ++i) host[i] = static_cast<uint32_t>(i + 1);
  cudaMemcpy3DParms fill{};
  fill.srcPtr = cudaPitchedPtr{host.data(), 16, 4, 4};
  fill.dstArray = from;
  fill.extent = cudaExtent{4, 4, 2};
  fill.kind = cudaMemcpyHostToDevice;
  ASSERT_EQ(rt_.memcpy_3d(fill), cudaSuccess);
  cudaMemcpy3DParms p{};
  p.srcArray = from;
  p.srcPos = cudaPos{1, 1, 1};
  p.dstArray = to;
  p.dstPos = cudaPos{0, 0, 4};  // layer 4
  p.extent = cudaExtent{3, 3, 1};
  p.kind = cudaMemcpyDeviceToDevice;
  ASSERT_EQ(rt_.memcpy_3d(p), cudaSuccess);
  const std::vector<uint32_t> layers = words(to, 4 * 4 * 6);
  EXPECT_EQ(layers[4 * 16 + 0], 16u + 4 + 1 + 1);  // from (1, 1, 1)
  EXPECT_EQ(layers[4 * 16 + 2 * 4 + 2], 16u + 12 + 3 + 1);  // from (3, 3, 1)
  EXPECT_EQ(layers[4 * 16 + 3], 0u);
  EXPECT_EQ(layers[3 * 16], 0u);
  p.dstArray = narrow;
  p.dstPos = cudaPos{0, 0, 0};
  EXPECT_EQ(rt_.memcpy_3d(p), cudaErrorInvalidValue);
  EXPECT_EQ(rt_.take_last_error(), cudaErrorInvalidValue);
}

TEST_F(ArrayCopy3D, CUDAErrorsForBadParametersChangeNothing) {
  const cudaArray_t a = array(kFloat1, cudaExtent{4, 2, 2});
  std::vector<uint32_t> host(4 * 2 * 2, 7);
  void* device = nullptr;
  ASSERT_EQ(rt_.malloc(&device, 1024), cudaSuccess);
  cudaMemcpy3DParms good{};
  good.srcPtr = cudaPitchedPtr{host.data(), 16, 4, 2};
  good.dstArray = a;
  good.extent = cudaExtent{4, 2, 2};
  good.kind = cudaMemcpyHostToDevice;
  auto with = [&](auto change) {
    cudaMemcpy3DParms p = good;
    change(p);
    return rt_.memcpy_3d(p);
  };
  // Both a pointer and an array on one side, or neither.
  EXPECT_EQ(with([&](cudaMemcpy3DParms& p) { p.dstPtr = cudaPitchedPtr{device, 16, 4, 2}; }), cudaErrorInvalidValue);
  EXPECT_EQ(with([&](cudaMemcpy3DParms& p) { p.srcArray = a; }), cudaErrorInvalidValue);
  EXPECT_EQ(with([&](cudaMemcpy3DParms& p) { p.srcPtr.ptr = nullptr; }), cudaErrorInvalidValue);
  // Not an array this runtime made.
  EXPECT_EQ(with([&](cudaMemcpy3DParms& p) { p.dstArray = reinterpret_cast<cudaArray_t>(&host); }),
            cudaErrorInvalidValue);
  // The region past the array's end in each dimension (x counts elements, not bytes).
  EXPECT_EQ(with([&](cudaMemcpy3DParms& p) { p.dstPos.x = 1; }), cudaErrorInvalidValue);
  EXPECT_EQ(with([&](cudaMemcpy3DParms& p) { p.extent.height = 3; }), cudaErrorInvalidValue);
  EXPECT_EQ(with([&](cudaMemcpy3DParms& p) { p.dstPos.z = 1; }), cudaErrorInvalidValue);
  EXPECT_EQ(with([&](cudaMemcpy3DParms& p) { p.dstPos.z = SIZE_MAX; }), cudaErrorInvalidValue);
  // A pointer side's rows shorter than the extent's width in bytes, or slices with too few rows.
  EXPECT_EQ(with([&](cudaMemcpy3DParms& p) { p.srcPtr.pitch = 12; }), cudaErrorInvalidPitchValue);
  EXPECT_EQ(with([&](cudaMemcpy3DParms& p) { p.srcPtr.ysize = 1; }), cudaErrorInvalidValue);
  // Directions that contradict an array (device memory) or a host pointer.
  EXPECT_EQ(with([&](cudaMemcpy3DParms& p) { p.kind = cudaMemcpyDeviceToHost; }), cudaErrorInvalidMemcpyDirection);
  EXPECT_EQ(with([&](cudaMemcpy3DParms& p) { p.kind = cudaMemcpyHostToHost; }), cudaErrorInvalidMemcpyDirection);
  EXPECT_EQ(with([&](cudaMemcpy3DParms& p) { p.kind = cudaMemcpyDeviceToDevice; }), cudaErrorInvalidValue);
  EXPECT_EQ(words(a, 16), std::vector<uint32_t>(16, 0));
  // An empty extent copies nothing and succeeds; the good call then copies.
  EXPECT_EQ(with([&](cudaMemcpy3DParms& p) { p.extent.depth = 0; }), cudaSuccess);
  EXPECT_EQ(words(a, 16), std::vector<uint32_t>(16, 0));
  EXPECT_EQ(rt_.memcpy_3d(good), cudaSuccess);
  EXPECT_EQ(words(a, 16), std::vector<uint32_t>(16, 7));
}

TEST_F(ArrayCopy3D, CubemapArraysHaveSixSquareFacesPerCube) {
  cudaArray_t a = nullptr;
  EXPECT_EQ(rt_.malloc_array(&a, &kFloat1, cudaExtent{4, 4, 6}, cudaArrayCubemap), cudaSuccess);
  EXPECT_EQ(rt_.malloc_array(&a, &kFloat1, cudaExtent{4, 3, 6}, cudaArrayCubemap), cudaErrorInvalidValue);
  EXPECT_EQ(rt_.malloc_array(&a, &kFloat1, cudaExtent{4, 4, 12}, cudaArrayCubemap), cudaErrorInvalidValue);
  EXPECT_EQ(rt_.malloc_array(&a, &kFloat1, cudaExtent{4, 4, 0}, cudaArrayCubemap), cudaErrorInvalidValue);
  EXPECT_EQ(rt_.malloc_array(&a, &kFloat1, cudaExtent{4, 4, 9}, cudaArrayCubemap | cudaArrayLayered),
            cudaErrorInvalidValue);
  ASSERT_EQ(rt_.malloc_array(&a, &kFloat1, cudaExtent{4, 4, 12}, cudaArrayCubemap | cudaArrayLayered), cudaSuccess);
  cudaExtent e{};
  unsigned flags = 0;
  ASSERT_EQ(rt_.array_info(nullptr, &e, &flags, a), cudaSuccess);
  EXPECT_EQ(e.depth, 12u);
  EXPECT_EQ(flags, unsigned{cudaArrayCubemap | cudaArrayLayered});
  // Face 3 (-y) of cube 1 is layer 9: z addresses it.
  const uint32_t value = 0x3f800000u;
  cudaMemcpy3DParms p{};
  p.srcPtr = cudaPitchedPtr{const_cast<uint32_t*>(&value), 4, 1, 1};
  p.dstArray = a;
  p.dstPos = cudaPos{2, 1, 9};
  p.extent = cudaExtent{1, 1, 1};
  p.kind = cudaMemcpyHostToDevice;
  ASSERT_EQ(rt_.memcpy_3d(p), cudaSuccess);
  const std::vector<uint32_t> all = words(a, 4 * 4 * 12);
  for (size_t i = 0; i < all.size(); ++i) EXPECT_EQ(all[i], i == 9 * 16 + 4 + 2 ? value : 0u) << i;
  cudaResourceDesc res{};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = a;
  cudaTextureDesc tex{};
  cudaTextureObject_t t = 0;
  ASSERT_EQ(rt_.create_texture_object(&t, &res, &tex, nullptr), cudaSuccess);
  func::TextureDescriptor d;
  ASSERT_EQ(rt_.memcpy(&d, reinterpret_cast<void*>(t), sizeof d, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(d.cubemap, 1);
  EXPECT_EQ(d.layered, 1);
  EXPECT_EQ(d.layers, 12u);
  EXPECT_EQ(d.depth, 1u);
  EXPECT_EQ(d.height, 4u);
}

}  // namespace
}  // namespace lockstep::runtime
