// The device's PCI address and its peers, through the stand-in libcudart's C entry points: the
// address cudaGetDeviceProperties reports, in CUDA's text forms both ways, and no peer access
// with one simulated device.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include <cuda_runtime_api.h>

namespace lockstep::test {
namespace {

TEST(DeviceTopology, PciBusIdIsThePropertiesAddressInCudasForm) {
  cudaDeviceProp prop{};
  ASSERT_EQ(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
  char id[32] = {};
  ASSERT_EQ(cudaDeviceGetPCIBusId(id, sizeof id, 0), cudaSuccess);
  char expected[32] = {};
  std::snprintf(expected, sizeof expected, "%04x:%02x:%02x.0", prop.pciDomainID, prop.pciBusID, prop.pciDeviceID);
  EXPECT_STREQ(id, expected);
  EXPECT_STREQ(id, "0000:01:00.0");
  // A short buffer takes what fits, terminated.
  char shortened[8] = {};
  EXPECT_EQ(cudaDeviceGetPCIBusId(shortened, sizeof shortened, 0), cudaSuccess);
  EXPECT_STREQ(shortened, "0000:01");
  EXPECT_EQ(cudaDeviceGetPCIBusId(id, sizeof id, 1), cudaErrorInvalidDevice);
  EXPECT_EQ(cudaDeviceGetPCIBusId(nullptr, 16, 0), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
}

TEST(DeviceTopology, DeviceByPciBusIdTakesEachOfCudasForms) {
  for (const char* form : {"0000:01:00.0", "0000:01:00", "01:00.0", "0:1:0.0"}) {
    int device = -1;
    EXPECT_EQ(cudaDeviceGetByPCIBusId(&device, form), cudaSuccess) << form;
    EXPECT_EQ(device, 0) << form;
  }
  int device = -1;
  EXPECT_EQ(cudaDeviceGetByPCIBusId(&device, "0000:02:00.0"), cudaErrorInvalidDevice);
  EXPECT_EQ(cudaDeviceGetByPCIBusId(&device, "gpu0"), cudaErrorInvalidValue);
  EXPECT_EQ(cudaDeviceGetByPCIBusId(&device, "0000:01:00.0x"), cudaErrorInvalidValue);
  EXPECT_EQ(cudaDeviceGetByPCIBusId(nullptr, "0000:01:00.0"), cudaErrorInvalidValue);
  EXPECT_EQ(device, -1);
  cudaGetLastError();
}

TEST(DeviceTopology, OneDeviceHasNoPeers) {
  int can = -1;
  ASSERT_EQ(cudaDeviceCanAccessPeer(&can, 0, 0), cudaSuccess);
  EXPECT_EQ(can, 0);
  EXPECT_EQ(cudaDeviceEnablePeerAccess(0, 0), cudaErrorInvalidDevice);
  EXPECT_EQ(cudaDeviceEnablePeerAccess(1, 0), cudaErrorInvalidDevice);
  EXPECT_EQ(cudaDeviceEnablePeerAccess(0, 1), cudaErrorInvalidValue);
  EXPECT_EQ(cudaDeviceDisablePeerAccess(0), cudaErrorInvalidDevice);
  int value = -1;
  EXPECT_EQ(cudaDeviceGetP2PAttribute(&value, cudaDevP2PAttrAccessSupported, 0, 0), cudaErrorInvalidDevice);
  EXPECT_EQ(value, -1);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidDevice);
  // Not sticky: the device still works.
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

TEST(DeviceTopology, OnlyDeviceZeroIsAValidDevice) {
  int zero[] = {0};
  EXPECT_EQ(cudaSetValidDevices(zero, 1), cudaSuccess);
  EXPECT_EQ(cudaSetValidDevices(nullptr, 0), cudaSuccess);
  int with_one[] = {0, 1};
  EXPECT_EQ(cudaSetValidDevices(with_one, 2), cudaErrorInvalidDevice);
  EXPECT_EQ(cudaSetValidDevices(nullptr, 1), cudaErrorInvalidValue);
  cudaGetLastError();
}

}  // namespace
}  // namespace lockstep::test
