// The runtime's CUDA arrays, texture objects and surface objects: validation with CUDA's error
// codes, copies into and out of arrays, and the descriptors written for the device.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "func/texture_descriptor.h"
#include "runtime/runtime.h"

namespace lockstep::runtime {
namespace {

class TextureRuntime : public ::testing::Test {
 protected:
  TextureRuntime() : err_(std::tmpfile()), rt_(RuntimeOptions{}, stdout, err_) {}
  ~TextureRuntime() override { std::fclose(err_); }

  std::string messages() {
    std::fflush(err_);
    std::rewind(err_);
    std::string s;
    char buf[256];
    while (std::fgets(buf, sizeof buf, err_) != nullptr) s += buf;
    return s;
  }
  func::TextureDescriptor descriptor(uint64_t handle) {
    func::TextureDescriptor d;
    EXPECT_EQ(rt_.memcpy(&d, reinterpret_cast<void*>(handle), sizeof d, cudaMemcpyDeviceToHost), cudaSuccess);
    return d;
  }
  cudaArray_t array(cudaChannelFormatDesc desc, cudaExtent extent, unsigned flags = 0) {
    cudaArray_t a = nullptr;
    EXPECT_EQ(rt_.malloc_array(&a, &desc, extent, flags), cudaSuccess);
    return a;
  }

  std::FILE* err_;
  Runtime rt_;
};

cudaExtent extent3(size_t w, size_t h, size_t d) { return cudaExtent{w, h, d}; }

cudaChannelFormatDesc channels(int x, int y, int z, int w, cudaChannelFormatKind f) { return {x, y, z, w, f}; }

TEST_F(TextureRuntime, ChannelDescriptorsAreValidated) {
  cudaArray_t a = nullptr;
  const cudaExtent e = extent3(4, 4, 0);
  auto try_desc = [&](cudaChannelFormatDesc d) { return rt_.malloc_array(&a, &d, e, 0); };
  EXPECT_EQ(try_desc(channels(8, 8, 8, 0, cudaChannelFormatKindUnsigned)), cudaErrorInvalidChannelDescriptor);
  EXPECT_EQ(try_desc(channels(8, 16, 0, 0, cudaChannelFormatKindSigned)), cudaErrorInvalidChannelDescriptor);
  EXPECT_EQ(try_desc(channels(8, 0, 0, 0, cudaChannelFormatKindFloat)), cudaErrorInvalidChannelDescriptor);
  EXPECT_EQ(try_desc(channels(0, 8, 0, 0, cudaChannelFormatKindUnsigned)), cudaErrorInvalidChannelDescriptor);
  EXPECT_EQ(try_desc(channels(32, 0, 0, 0, cudaChannelFormatKindNone)), cudaErrorInvalidChannelDescriptor);
  EXPECT_EQ(rt_.malloc_array(&a, nullptr, e, 0), cudaErrorInvalidValue);
  const cudaChannelFormatDesc ok = channels(16, 16, 0, 0, cudaChannelFormatKindFloat);
  EXPECT_EQ(rt_.malloc_array(&a, &ok, extent3(0, 4, 0), 0), cudaErrorInvalidValue);
  EXPECT_EQ(rt_.malloc_array(&a, &ok, e, 0x100), cudaErrorInvalidValue);
  EXPECT_EQ(rt_.malloc_array(&a, &ok, e, cudaArrayCubemap), cudaErrorInvalidValue);  // not {w, w, 6}
  EXPECT_EQ(messages(), "");
  EXPECT_EQ(rt_.take_last_error(), cudaErrorInvalidValue);
}

TEST_F(TextureRuntime, TwoDimensionalCopiesIntoAndOutOfAnArray) {
  const cudaArray_t a = array(channels(8, 8, 8, 8, cudaChannelFormatKindUnsigned), extent3(3, 2, 0));
  std::vector<uint8_t> host(32);  // 2 rows with a pitch of 16
  for (size_t i = 0; i < host.size(); ++i) host[i] = static_cast<uint8_t>(i);
  ASSERT_EQ(rt_.copy_to_array(a, 0, 0, host.data(), 16, 12, 2, cudaMemcpyHostToDevice), cudaSuccess);
  std::vector<uint8_t> back(24);
  ASSERT_EQ(rt_.copy_from_array(back.data(), 12, a, 0, 0, 12, 2, cudaMemcpyDeviceToHost), cudaSuccess);
  for (size_t i = 0; i < 12; ++i) {
    EXPECT_EQ(back[i], i);
    EXPECT_EQ(back[12 + i], 16 + i);
  }
  const uint8_t patch[4] = {200, 201, 202, 203};
  ASSERT_EQ(rt_.copy_to_array(a, 4, 1, patch, 4, 4, 1, cudaMemcpyDefault), cudaSuccess);
  uint8_t element[4] = {};
  ASSERT_EQ(rt_.copy_from_array(element, 4, a, 4, 1, 4, 1, cudaMemcpyDefault), cudaSuccess);
  EXPECT_EQ(std::memcmp(element, patch, 4), 0);
  EXPECT_EQ(rt_.copy_to_array(a, 4, 0, host.data(), 16, 12, 1, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
  EXPECT_EQ(rt_.copy_to_array(a, 0, 1, host.data(), 16, 4, 2, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
  EXPECT_EQ(rt_.copy_to_array(a, 0, 0, host.data(), 8, 12, 2, cudaMemcpyHostToDevice), cudaErrorInvalidPitchValue);
  EXPECT_EQ(rt_.copy_to_array(a, 0, 0, host.data(), 16, 12, 2, cudaMemcpyDeviceToHost),
            cudaErrorInvalidMemcpyDirection);
  cudaChannelFormatDesc desc{};
  cudaExtent extent{};
  unsigned flags = 7;
  ASSERT_EQ(rt_.array_info(&desc, &extent, &flags, a), cudaSuccess);
  EXPECT_EQ(desc.w, 8);
  EXPECT_EQ(extent.width, 3u);
  EXPECT_EQ(extent.height, 2u);
  EXPECT_EQ(extent.depth, 0u);
  EXPECT_EQ(flags, 0u);
  EXPECT_EQ(rt_.free_array(a), cudaSuccess);
  EXPECT_EQ(rt_.free_array(a), cudaErrorInvalidValue);
}

TEST_F(TextureRuntime, TextureObjectOverAnArrayWritesItsDescriptor) {
  const cudaArray_t a =
      array(channels(16, 0, 0, 0, cudaChannelFormatKindSigned), extent3(5, 3, 2), cudaArrayLayered);
  cudaResourceDesc res{};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = a;
  cudaTextureDesc tex{};
  tex.addressMode[0] = cudaAddressModeWrap;
  tex.addressMode[1] = cudaAddressModeMirror;
  tex.addressMode[2] = cudaAddressModeBorder;
  tex.filterMode = cudaFilterModeLinear;
  tex.readMode = cudaReadModeNormalizedFloat;
  tex.normalizedCoords = 1;
  tex.borderColor[2] = 0.5f;
  cudaTextureObject_t t = 0;
  ASSERT_EQ(rt_.create_texture_object(&t, &res, &tex, nullptr), cudaSuccess);
  const func::TextureDescriptor d = descriptor(t);
  EXPECT_EQ(d.magic, func::kTextureMagic);
  EXPECT_EQ(d.kind, func::ResourceKind::Array);
  EXPECT_EQ(d.channel_kind, func::ChannelKind::Signed);
  EXPECT_EQ(d.channels, 1);
  EXPECT_EQ(d.channel_bits, 16);
  EXPECT_EQ(d.width, 5u);
  EXPECT_EQ(d.height, 3u);
  EXPECT_EQ(d.depth, 1u);
  EXPECT_EQ(d.layers, 2u);
  EXPECT_EQ(d.layered, 1);
  EXPECT_EQ(d.pitch, 10u);
  EXPECT_EQ(d.address_mode[1], func::AddressMode::Mirror);
  EXPECT_EQ(d.filter, func::FilterMode::Linear);
  EXPECT_EQ(d.read_mode, func::ReadMode::NormalizedFloat);
  EXPECT_EQ(d.normalized_coords, 1);
  EXPECT_EQ(d.border[2], 0.5f);
  cudaResourceDesc back{};
  ASSERT_EQ(rt_.texture_object_resource(&back, t), cudaSuccess);
  EXPECT_EQ(back.res.array.array, a);
  EXPECT_EQ(rt_.destroy_texture_object(t), cudaSuccess);
  EXPECT_EQ(rt_.destroy_texture_object(t), cudaErrorInvalidValue);
  EXPECT_EQ(rt_.texture_object_resource(&back, t), cudaErrorInvalidValue);
}

TEST_F(TextureRuntime, TextureDescriptionsCUDARejects) {
  const cudaArray_t ints = array(channels(32, 0, 0, 0, cudaChannelFormatKindUnsigned), extent3(4, 0, 0));
  cudaResourceDesc res{};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = ints;
  cudaTextureObject_t t = 0;
  cudaTextureDesc tex{};
  tex.addressMode[0] = static_cast<cudaTextureAddressMode>(7);
  EXPECT_EQ(rt_.create_texture_object(&t, &res, &tex, nullptr), cudaErrorInvalidValue);
  tex = {};
  tex.filterMode = cudaFilterModeLinear;  // integer results cannot be filtered
  EXPECT_EQ(rt_.create_texture_object(&t, &res, &tex, nullptr), cudaErrorInvalidValue);
  tex = {};
  tex.readMode = cudaReadModeNormalizedFloat;  // only 8- and 16-bit integers normalize
  EXPECT_EQ(rt_.create_texture_object(&t, &res, &tex, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(rt_.create_texture_object(&t, &res, nullptr, nullptr), cudaErrorInvalidValue);
  res.resType = cudaResourceTypeMipmappedArray;
  tex = {};
  EXPECT_EQ(rt_.create_texture_object(&t, &res, &tex, nullptr), cudaErrorNotSupported);
  EXPECT_EQ(messages(), "lockstep: cudaCreateTextureObject: mipmapped arrays are not supported yet\n");
}

TEST_F(TextureRuntime, LinearMemoryTextureCountsElements) {
  void* buffer = nullptr;
  ASSERT_EQ(rt_.malloc(&buffer, 1000), cudaSuccess);
  cudaResourceDesc res{};
  res.resType = cudaResourceTypeLinear;
  res.res.linear.devPtr = buffer;
  res.res.linear.desc = channels(32, 32, 0, 0, cudaChannelFormatKindFloat);
  res.res.linear.sizeInBytes = 1000;
  cudaTextureDesc tex{};
  cudaTextureObject_t t = 0;
  ASSERT_EQ(rt_.create_texture_object(&t, &res, &tex, nullptr), cudaSuccess);
  const func::TextureDescriptor d = descriptor(t);
  EXPECT_EQ(d.kind, func::ResourceKind::Linear);
  EXPECT_EQ(d.width, 125u);
  EXPECT_EQ(d.base, reinterpret_cast<uint64_t>(buffer));
  res.res.linear.desc = channels(32, 32, 32, 0, cudaChannelFormatKindFloat);
  EXPECT_EQ(rt_.create_texture_object(&t, &res, &tex, nullptr), cudaErrorInvalidChannelDescriptor);
}

TEST_F(TextureRuntime, SurfacesNeedAnArrayMadeForLoadAndStore) {
  const cudaChannelFormatDesc f = channels(32, 0, 0, 0, cudaChannelFormatKindFloat);
  const cudaArray_t plain = array(f, extent3(8, 8, 0));
  const cudaArray_t surface = array(f, extent3(8, 8, 0), cudaArraySurfaceLoadStore);
  cudaResourceDesc res{};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = plain;
  cudaSurfaceObject_t s = 0;
  EXPECT_EQ(rt_.create_surface_object(&s, &res), cudaErrorInvalidValue);
  res.res.array.array = surface;
  ASSERT_EQ(rt_.create_surface_object(&s, &res), cudaSuccess);
  const func::TextureDescriptor d = descriptor(s);
  EXPECT_EQ(d.magic, func::kSurfaceMagic);
  EXPECT_EQ(d.width, 8u);
  EXPECT_EQ(d.pitch, 32u);
  EXPECT_EQ(rt_.destroy_surface_object(s), cudaSuccess);
  EXPECT_EQ(rt_.destroy_surface_object(s), cudaErrorInvalidValue);
}

}  // namespace
}  // namespace lockstep::runtime
