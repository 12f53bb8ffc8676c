// Every device attribute of CUDA 13, as the preset's real GPU answers it: the test walks the
// enumerators of the toolkit's own headers (driver_types.h for the runtime, cuda.h for the
// driver numbers the runtime passes through), so an attribute a newer toolkit adds fails here
// until lockstep answers it. The expected H100 values are in data/h100_device_attributes.tsv.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>

#include "config/gpu_config.h"
#include "runtime/device_attributes.h"
#include "runtime/device_preset.h"

namespace lockstep::runtime {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in) << path;
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// name -> value of every "NAME = number," line of one enum in a header.
std::map<std::string, int> enumerators(const std::string& header, const std::string& open, const std::string& prefix) {
  const std::string text = read_file(std::string(LOCKSTEP_CUDA_INCLUDE) + "/" + header);
  const size_t begin = text.find(open);
  EXPECT_NE(begin, std::string::npos) << open;
  const size_t end = text.find("}", begin);
  const std::string body = text.substr(begin, end - begin);
  std::map<std::string, int> out;
  const std::regex line("(" + prefix + "\\w+)\\s*=\\s*(\\d+)");
  for (auto it = std::sregex_iterator(body.begin(), body.end(), line); it != std::sregex_iterator(); ++it)
    out[(*it)[1]] = std::stoi((*it)[2]);
  return out;
}

std::map<std::string, int> expected_h100() {
  std::map<std::string, int> out;
  std::istringstream in(read_file(std::string(LOCKSTEP_TEST_DATA) + "/runtime/data/h100_device_attributes.tsv"));
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string name;
    int value = 0;
    fields >> name >> value;
    out[name] = value;
  }
  return out;
}

DevicePreset h100() { return device_preset(config::load_gpu_config("h100")); }

TEST(DeviceAttributes, EveryRuntimeEnumeratorAnswersAsAnH100) {
  const std::map<std::string, int> attrs = enumerators("driver_types.h", "enum __device_builtin__ cudaDeviceAttr", "cudaDevAttr");
  const std::map<std::string, int> expected = expected_h100();
  ASSERT_GT(attrs.size(), 130u);
  const DevicePreset preset = h100();
  for (const auto& [name, number] : attrs) {
    const std::optional<int> v = device_attribute(preset, 32, number);
    ASSERT_TRUE(v.has_value()) << name << " (" << number << ") has no answer";
    auto e = expected.find(name);
    ASSERT_NE(e, expected.end()) << name << " (" << number << ") is missing from h100_device_attributes.tsv";
    EXPECT_EQ(*v, e->second) << name;
  }
  EXPECT_EQ(attrs.size(), expected.size()) << "the table lists an attribute the toolkit does not have";
}

TEST(DeviceAttributes, EveryDriverAttributeNumberHasAnAnswer) {
  const std::map<std::string, int> attrs =
      enumerators("cuda.h", "typedef enum CUdevice_attribute_enum", "CU_DEVICE_ATTRIBUTE_");
  ASSERT_GT(attrs.size(), 140u);
  int last = 0;
  for (const auto& [name, number] : attrs) {
    if (name == "CU_DEVICE_ATTRIBUTE_MAX") continue;
    EXPECT_TRUE(device_attribute(h100(), 32, number).has_value()) << name << " (" << number << ")";
    last = std::max(last, number);
  }
  EXPECT_EQ(last, kLastDeviceAttribute);
}

TEST(DeviceAttributes, NumbersOutsideTheEnumAreInvalid) {
  EXPECT_FALSE(device_attribute(h100(), 32, 0).has_value());
  EXPECT_FALSE(device_attribute(h100(), 32, kLastDeviceAttribute + 1).has_value());
  EXPECT_FALSE(device_attribute(h100(), 32, -1).has_value());
}

TEST(DeviceAttributes, PresetsDifferWhereTheirGpusDo) {
  const DevicePreset v100 = device_preset(config::load_gpu_config("v100"));
  const DevicePreset a100 = device_preset(config::load_gpu_config("a100"));
  EXPECT_EQ(device_attribute(v100, 32, cudaDevAttrClusterLaunch), 0);
  EXPECT_EQ(device_attribute(h100(), 32, cudaDevAttrClusterLaunch), 1);
  EXPECT_EQ(device_attribute(v100, 32, cudaDevAttrMaxPersistingL2CacheSize), 0);
  EXPECT_EQ(device_attribute(a100, 32, cudaDevAttrMaxPersistingL2CacheSize), 40 * 1024 * 1024 / 4 * 3);
  EXPECT_EQ(device_attribute(a100, 32, cudaDevAttrGpuPciDeviceId), 0x20b010de);
  EXPECT_EQ(device_attribute(v100, 32, cudaDevAttrAsyncEngineCount), 6);
  EXPECT_EQ(device_attribute(h100(), 8, cudaDevAttrWarpSize), 8);
}

// cudaGetDeviceProperties agrees with the attributes field by field.
TEST(DeviceAttributes, PropertiesAgreeWithAttributes) {
  const DevicePreset p = h100();
  cudaDeviceProp prop;
  fill_properties(p, 32, prop);
  auto attr = [&](cudaDeviceAttr a) { return device_attribute(p, 32, a).value(); };
  const std::pair<long long, cudaDeviceAttr> pairs[] = {
      {static_cast<long long>(prop.sharedMemPerBlock), cudaDevAttrMaxSharedMemoryPerBlock},
      {prop.regsPerBlock, cudaDevAttrMaxRegistersPerBlock},
      {prop.warpSize, cudaDevAttrWarpSize},
      {static_cast<long long>(prop.memPitch), cudaDevAttrMaxPitch},
      {prop.maxThreadsPerBlock, cudaDevAttrMaxThreadsPerBlock},
      {prop.maxThreadsDim[2], cudaDevAttrMaxBlockDimZ},
      {prop.maxGridSize[0], cudaDevAttrMaxGridDimX},
      {static_cast<long long>(prop.totalConstMem), cudaDevAttrTotalConstantMemory},
      {prop.major, cudaDevAttrComputeCapabilityMajor},
      {prop.minor, cudaDevAttrComputeCapabilityMinor},
      {prop.multiProcessorCount, cudaDevAttrMultiProcessorCount},
      {prop.canMapHostMemory, cudaDevAttrCanMapHostMemory},
      {prop.maxTexture1D, cudaDevAttrMaxTexture1DWidth},
      {prop.maxTexture2D[1], cudaDevAttrMaxTexture2DHeight},
      {prop.maxTexture3D[2], cudaDevAttrMaxTexture3DDepth},
      {prop.maxTexture2DLayered[2], cudaDevAttrMaxTexture2DLayeredLayers},
      {prop.maxSurface2D[0], cudaDevAttrMaxSurface2DWidth},
      {prop.ECCEnabled, cudaDevAttrEccEnabled},
      {prop.asyncEngineCount, cudaDevAttrAsyncEngineCount},
      {prop.memoryBusWidth, cudaDevAttrGlobalMemoryBusWidth},
      {prop.l2CacheSize, cudaDevAttrL2CacheSize},
      {prop.persistingL2CacheMaxSize, cudaDevAttrMaxPersistingL2CacheSize},
      {prop.maxThreadsPerMultiProcessor, cudaDevAttrMaxThreadsPerMultiProcessor},
      {prop.streamPrioritiesSupported, cudaDevAttrStreamPrioritiesSupported},
      {static_cast<long long>(prop.sharedMemPerMultiprocessor), cudaDevAttrMaxSharedMemoryPerMultiprocessor},
      {prop.regsPerMultiprocessor, cudaDevAttrMaxRegistersPerMultiprocessor},
      {prop.cooperativeLaunch, cudaDevAttrCooperativeLaunch},
      {static_cast<long long>(prop.sharedMemPerBlockOptin), cudaDevAttrMaxSharedMemoryPerBlockOptin},
      {prop.maxBlocksPerMultiProcessor, cudaDevAttrMaxBlocksPerMultiprocessor},
      {prop.accessPolicyMaxWindowSize, cudaDevAttrMaxAccessPolicyWindowSize},
      {static_cast<long long>(prop.reservedSharedMemPerBlock), cudaDevAttrReservedSharedMemoryPerBlock},
      {prop.memoryPoolsSupported, cudaDevAttrMemoryPoolsSupported},
      {prop.clusterLaunch, cudaDevAttrClusterLaunch},
      {prop.hostNumaId, cudaDevAttrHostNumaId},
      {static_cast<long long>(prop.gpuPciDeviceID), cudaDevAttrGpuPciDeviceId},
  };
  for (const auto& [field, a] : pairs) EXPECT_EQ(field, attr(a)) << "attribute " << static_cast<int>(a);
  EXPECT_EQ(prop.totalGlobalMem, 80ull << 30);
  EXPECT_STREQ(prop.name, "lockstep H100 SXM5 (simulated)");
}

}  // namespace
}  // namespace lockstep::runtime
