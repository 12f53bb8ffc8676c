// Host memory registered as device memory at the same numeric address (managed memory):
// kernels read and write the host bytes directly, module variables can be placed there, and
// overlapping registrations are refused with exact text.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/engine.h"

namespace lockstep {
namespace {

constexpr const char* kModule = R"(.version 9.0
.target sm_80
.address_size 64

.global .align 4 .u32 counter = 40;
.global .align 4 .b8 table[8] = {1, 2, 3, 4, 5, 6, 7, 8};

// out[i] = in[i] * 3 + counter; then counter += 1 from every thread.
.visible .entry scale(.param .u64 in, .param .u64 out)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  add.s64 %rd5, %rd2, %rd3;
  ld.global.u32 %r2, [%rd4];
  mul.lo.u32 %r3, %r2, 3;
  ld.global.u32 %r4, [counter];
  add.u32 %r5, %r3, %r4;
  bar.sync 0;
  st.global.u32 [%rd5], %r5;
  atom.global.add.u32 %r5, [counter], 1;
  ret;
}
)";

uint64_t address_of(const void* p) { return reinterpret_cast<uint64_t>(p); }

std::string fmt_address(const void* p) {
  char text[32];
  std::snprintf(text, sizeof text, "%#llx", static_cast<unsigned long long>(address_of(p)));
  return text;
}

TEST(HostMappedMemory, KernelsReadAndWriteHostBytesAtTheirOwnAddress) {
  Engine engine;
  std::vector<uint32_t> in = {1, 2, 3, 4, 5, 6, 7, 8}, out(8, 0);
  engine.map_host_memory(in.data(), in.size() * 4);
  engine.map_host_memory(out.data(), out.size() * 4);
  const ModuleId m = engine.load_ptx(kModule, "host_mapped.ptx");
  const LaunchResult r = engine.launch(m, "scale", Dim3{1}, Dim3{8}, 0,
                                       {KernelArg::of(address_of(in.data())), KernelArg::of(address_of(out.data()))});
  ASSERT_FALSE(r.fault.has_value());
  EXPECT_EQ(out, (std::vector<uint32_t>{43, 46, 49, 52, 55, 58, 61, 64}));
  // Copies through the engine reach the same bytes.
  uint32_t second = 0;
  engine.copy_to_host(&second, address_of(out.data()) + 4, 4);
  EXPECT_EQ(second, 46u);
  engine.memset(address_of(in.data()), 0, 4);
  EXPECT_EQ(in[0], 0u);
  engine.free(address_of(in.data()));
  EXPECT_EQ(in[1], 2u);  // freeing forgets the registration; the host memory stays the caller's
  EXPECT_THROW(engine.copy_to_host(&second, address_of(in.data()), 4), std::out_of_range);
}

TEST(HostMappedMemory, PlacedModuleVariablesLiveInTheHostBytes) {
  Engine engine;
  std::vector<uint32_t> counter_storage(1, 0), in(4, 10), out(4, 0);
  std::vector<uint8_t> table_storage(8, 0);
  for (auto* v : {&counter_storage, &in, &out}) engine.map_host_memory(v->data(), v->size() * 4);
  engine.map_host_memory(table_storage.data(), table_storage.size());
  LoadOptions options;
  options.placed_variables = {{"counter", address_of(counter_storage.data())},
                              {"table", address_of(table_storage.data())}};
  const ModuleId m = engine.load_ptx(kModule, "placed.ptx", options);
  EXPECT_EQ(counter_storage[0], 40u);  // the initializer went to the placed storage
  EXPECT_EQ(table_storage, (std::vector<uint8_t>{1, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(engine.symbol_address(m, "counter"), address_of(counter_storage.data()));
  counter_storage[0] = 100;  // a host write the kernel must see
  const LaunchResult r = engine.launch(m, "scale", Dim3{1}, Dim3{4}, 0,
                                       {KernelArg::of(address_of(in.data())), KernelArg::of(address_of(out.data()))});
  ASSERT_FALSE(r.fault.has_value());
  EXPECT_EQ(out, (std::vector<uint32_t>{130, 130, 130, 130}));
  EXPECT_EQ(counter_storage[0], 104u);
}

TEST(HostMappedMemory, OverlapsAndBadPlacementsAreRefused) {
  Engine engine;
  std::vector<uint8_t> bytes(64);
  engine.map_host_memory(bytes.data(), 64);
  const std::string where = fmt_address(bytes.data() + 32);
  try {
    engine.map_host_memory(bytes.data() + 32, 8);
    FAIL() << "overlap accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "host memory at " + where + " (8 bytes) overlaps device memory");
  }
  LoadOptions options;
  options.placed_variables = {{"counter", address_of(bytes.data()) + 62}};  // 2 bytes left: too small
  try {
    engine.load_ptx(kModule, "bad.ptx", options);
    FAIL() << "a placement outside device memory was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "module variable 'counter' (4 bytes) was placed outside device memory");
  }
}

}  // namespace
}  // namespace lockstep
