// Real registers and static shared memory of kernels: from cubins nvcc 13 built from
// data/resources.cu (data/make_cubins.sh), from ptxas, and through ModuleTable for the fat
// binaries of data/scale.cu. Every expected figure is what `ptxas -v` printed for that build.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <unistd.h>

#include "runtime/fatbin_test_data.h"
#include "runtime/kernel_resources.h"
#include "runtime/module_table.h"

namespace lockstep::runtime {
namespace {

using Source = KernelResources::Source;
using test::read_data_file;

void expect_resources(const std::map<std::string, KernelResources>& all, const std::string& kernel,
                      uint32_t registers, uint32_t shared, Source source) {
  auto it = all.find(kernel);
  ASSERT_NE(it, all.end()) << kernel;
  EXPECT_EQ(it->second.registers, registers) << kernel;
  EXPECT_EQ(it->second.static_shared, shared) << kernel;
  EXPECT_EQ(it->second.source, source) << kernel;
}

std::string error_of(std::span<const uint8_t> elf) {
  try {
    read_cubin_resources(elf);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "(no error)";
}

bool ptxas_on_path() { return std::system("command -v ptxas >/dev/null 2>&1") == 0; }

TEST(KernelResources, SourceNames) {
  EXPECT_EQ(resource_source_name(Source::Cubin), "cubin");
  EXPECT_EQ(resource_source_name(Source::Ptxas), "ptxas");
  EXPECT_EQ(resource_source_name(Source::Estimate), "estimate");
}

// nvcc -cubin -arch=sm_80 -Xptxas -v: dynamic_only 10 registers; heavy 64; with_shared 16 and
// 1168 bytes smem; tiny 8.
TEST(CubinResources, Sm80MatchesPtxas) {
  const std::vector<uint8_t> elf = read_data_file("resources_sm80.cubin");
  const auto all = read_cubin_resources(elf);
  EXPECT_EQ(all.size(), 4u);
  expect_resources(all, "dynamic_only", 10, 0, Source::Cubin);
  expect_resources(all, "_Z5heavyPfi", 64, 0, Source::Cubin);
  expect_resources(all, "_Z11with_sharedPfi", 16, 1168, Source::Cubin);
  expect_resources(all, "_Z4tinyPf", 8, 0, Source::Cubin);
}

// sm_90: registers are no longer in the .text sections' sh_info, and the .nv.shared sections
// carry 1 KiB more than ptxas's smem (0x890 for with_shared, 0x400 for the others).
TEST(CubinResources, Sm90MatchesPtxas) {
  const std::vector<uint8_t> elf = read_data_file("resources_sm90.cubin");
  const auto all = read_cubin_resources(elf);
  EXPECT_EQ(all.size(), 4u);
  expect_resources(all, "dynamic_only", 10, 0, Source::Cubin);
  expect_resources(all, "_Z5heavyPfi", 72, 0, Source::Cubin);
  expect_resources(all, "_Z11with_sharedPfi", 16, 1168, Source::Cubin);
  expect_resources(all, "_Z4tinyPf", 10, 0, Source::Cubin);
}

TEST(CubinResources, MalformedImagesGiveExactErrors) {
  const std::vector<uint8_t> elf = read_data_file("resources_sm80.cubin");
  EXPECT_EQ(error_of(std::span(elf).first(40)), "malformed cubin: 40 bytes, too short for an ELF64 header (64 bytes)");
  EXPECT_EQ(error_of({}), "malformed cubin: 0 bytes, too short for an ELF64 header (64 bytes)");
  const std::vector<uint8_t> garbage(200, 'x');
  EXPECT_EQ(error_of(garbage), "malformed cubin: no ELF magic");
  // The section header table: 27 entries of 64 bytes at offset 12416.
  EXPECT_EQ(error_of(std::span(elf).first(12416)),
            "malformed cubin: section header table (27 entries at offset 12416) runs past the image end (12416 bytes)");

  std::vector<uint8_t> bad = elf;
  bad[0x12] = 62;  // EM_X86_64
  EXPECT_EQ(error_of(bad), "malformed cubin: machine 62 is not CUDA (190)");
  bad = elf;
  bad[0x3e] = 200;  // e_shstrndx
  EXPECT_EQ(error_of(bad), "malformed cubin: section name table index 200 is not below the section count 27");
  bad = elf;
  bad[0x3a] = 32;  // e_shentsize
  EXPECT_EQ(error_of(bad), "malformed cubin: section header size 32 is below 64");
  bad = elf;
  const size_t section3_size = 12416 + 3 * 64 + 0x20;  // sh_size of section 3 (.symtab)
  bad[section3_size + 5] = 0x10;                         // now 2^44 bytes more
  EXPECT_EQ(error_of(bad),
            "malformed cubin: section 3 (17592186044872 bytes at offset 1472) runs past the image end (14368 bytes)");
}

// Cut anywhere before the end of its section header table, the image is refused; beyond it
// (only program headers follow), the figures are unchanged.
TEST(CubinResources, EveryTruncationIsRefusedOrComplete) {
  const std::vector<uint8_t> elf = read_data_file("resources_sm80.cubin");
  const size_t headers_end = 12416 + 27 * 64;
  const auto full = read_cubin_resources(elf);
  for (size_t size = 0; size < elf.size(); ++size) {
    const std::span<const uint8_t> cut = std::span(elf).first(size);
    if (size < headers_end) {
      EXPECT_THROW(read_cubin_resources(cut), std::runtime_error) << size;
    } else {
      EXPECT_EQ(read_cubin_resources(cut).size(), full.size()) << size;
    }
  }
}

// nvcc -ptx -arch=sm_80 of: __global__ void rotate(int* y) { __shared__ int s[100];
//   s[threadIdx.x % 100] = y[threadIdx.x]; __syncthreads(); y[threadIdx.x] = s[(threadIdx.x + 1) % 100]; }
constexpr const char* kRotatePtx = R"(.version 9.0
.target sm_80
.address_size 64
.visible .entry _Z6rotatePi(
	.param .u64 _Z6rotatePi_param_0
)
{
	.reg .b32 	%r<16>;
	.reg .b64 	%rd<9>;
	.shared .align 4 .b8 _ZZ6rotatePiE1s[400];
	ld.param.u64 	%rd1, [_Z6rotatePi_param_0];
	cvta.to.global.u64 	%rd2, %rd1;
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd3, %r1, 4;
	add.s64 	%rd4, %rd2, %rd3;
	ld.global.u32 	%r2, [%rd4];
	mul.wide.u32 	%rd5, %r1, 1374389535;
	shr.u64 	%rd6, %rd5, 37;
	cvt.u32.u64 	%r3, %rd6;
	mul.lo.s32 	%r4, %r3, 100;
	sub.s32 	%r5, %r1, %r4;
	shl.b32 	%r6, %r5, 2;
	mov.u32 	%r7, _ZZ6rotatePiE1s;
	add.s32 	%r8, %r7, %r6;
	st.shared.u32 	[%r8], %r2;
	bar.sync 	0;
	add.s32 	%r9, %r1, 1;
	mul.wide.u32 	%rd7, %r9, 1374389535;
	shr.u64 	%rd8, %rd7, 37;
	cvt.u32.u64 	%r10, %rd8;
	mul.lo.s32 	%r11, %r10, 100;
	sub.s32 	%r12, %r9, %r11;
	shl.b32 	%r13, %r12, 2;
	add.s32 	%r14, %r7, %r13;
	ld.shared.u32 	%r15, [%r14];
	st.global.u32 	[%rd4], %r15;
	ret;
}
)";

// ptxas -v --gpu-name sm_80: "Used 11 registers, used 1 barriers, 400 bytes smem, 360 bytes cmem[0]";
// sm_90: "Used 12 registers, used 1 barriers, 400 bytes smem".
TEST(PtxasResources, SmallKernel) {
  if (!ptxas_on_path()) GTEST_SKIP() << "ptxas is not on PATH";
  const auto sm80 = ptxas_resources(kRotatePtx, 80);
  ASSERT_TRUE(sm80.has_value());
  EXPECT_EQ(sm80->size(), 1u);
  expect_resources(*sm80, "_Z6rotatePi", 11, 400, Source::Ptxas);
  const auto sm90 = ptxas_resources(kRotatePtx, 90);
  ASSERT_TRUE(sm90.has_value());
  expect_resources(*sm90, "_Z6rotatePi", 12, 400, Source::Ptxas);
}

TEST(PtxasResources, FailuresGiveNothing) {
  if (!ptxas_on_path()) GTEST_SKIP() << "ptxas is not on PATH";
  EXPECT_FALSE(ptxas_resources(kRotatePtx, 70).has_value());  // older than ptxas knows
  EXPECT_FALSE(ptxas_resources(kRotatePtx, 75).has_value());  // .target sm_80 PTX on sm_75
  EXPECT_FALSE(ptxas_resources("not PTX at all", 80).has_value());
}

TEST(PtxasResources, NotOnPathGivesNothing) {
  const char* old = std::getenv("PATH");
  const std::string saved = old != nullptr ? old : "";
  ::setenv("PATH", "/nonexistent", 1);
  const bool found = ptxas_resources(kRotatePtx, 80).has_value();
  ::setenv("PATH", saved.c_str(), 1);
  EXPECT_FALSE(found);
}

TEST(PtxasResources, LeavesNoTemporaryFile) {
  if (!ptxas_on_path()) GTEST_SKIP() << "ptxas is not on PATH";
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("lockstep-res-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const char* old = std::getenv("TMPDIR");
  const std::string saved = old != nullptr ? old : "";
  ::setenv("TMPDIR", dir.c_str(), 1);
  EXPECT_TRUE(ptxas_resources(kRotatePtx, 80).has_value());
  EXPECT_FALSE(ptxas_resources("not PTX at all", 80).has_value());
  if (old != nullptr) {
    ::setenv("TMPDIR", saved.c_str(), 1);
  } else {
    ::unsetenv("TMPDIR");
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir));
  std::filesystem::remove_all(dir);
}

// The report as ptxas 13 prints it, including a non-entry function (no "Compiling entry" line,
// so its "Function properties" block must not be taken for the previous kernel's).
TEST(PtxasResources, ParsesReport) {
  const auto all = parse_ptxas_report(
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function '_Z6callerPf' for 'sm_80'\n"
      "ptxas info    : Function properties for _Z6callerPf\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 14 registers, used 0 barriers, 128 bytes smem, 360 bytes cmem[0]\n"
      "ptxas info    : Compile time = 8.350 ms\n"
      "ptxas info    : Function properties for _Z6helperPfi\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Compiling entry function 'cname' for 'sm_90'\n"
      "ptxas info    : Function properties for cname\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 8 registers, used 0 barriers");
  EXPECT_EQ(all.size(), 2u);
  expect_resources(all, "_Z6callerPf", 14, 128, Source::Ptxas);
  expect_resources(all, "cname", 8, 0, Source::Ptxas);
}

// ---- Through ModuleTable, with the fat binaries of data/scale.cu. scale is
// _Z5scalePffi: 12 registers and no shared memory for sm_80, sm_86 and sm_90 (ptxas -v).

struct LoadedFatbin {
  std::vector<uint64_t> image;  // 8-byte aligned copy of the fat binary
  struct {
    uint32_t magic = 0x466243B1;
    uint32_t version = 1;
    const void* data = nullptr;
    const void* filename = nullptr;
  } wrapper;
  explicit LoadedFatbin(const std::string& name) {
    const std::vector<uint8_t> bytes = read_data_file(name);
    image.resize((bytes.size() + 7) / 8);
    std::memcpy(image.data(), bytes.data(), bytes.size());
    wrapper.data = image.data();
  }
};

std::optional<KernelResources> resources_after_load(const std::string& fatbin, uint32_t sm, bool expect_loaded = true) {
  LoadedFatbin f(fatbin);
  ModuleTable table(sm);
  table.add_fatbin(&f.wrapper);
  EXPECT_FALSE(table.kernel_resources(0, "_Z5scalePffi").has_value());  // nothing before the load
  Engine engine;
  bool first_failure = false;
  const ModuleLookup lookup = table.load(0, engine, first_failure);
  EXPECT_EQ(lookup.module.has_value(), expect_loaded) << lookup.error;
  EXPECT_FALSE(table.kernel_resources(0, "_Z9no_kernelv").has_value());
  EXPECT_FALSE(table.kernel_resources(7, "_Z5scalePffi").has_value());
  return table.kernel_resources(0, "_Z5scalePffi");
}

TEST(ModuleTableResources, MatchingCubinIsRead) {
  const auto sm80 = resources_after_load("sm80_zstd.fatbin", 80);
  ASSERT_TRUE(sm80.has_value());
  EXPECT_EQ(sm80->registers, 12u);
  EXPECT_EQ(sm80->static_shared, 0u);
  EXPECT_EQ(sm80->source, Source::Cubin);
  const auto sm90 = resources_after_load("sm90_zstd.fatbin", 90);
  ASSERT_TRUE(sm90.has_value());
  EXPECT_EQ(sm90->registers, 12u);
  EXPECT_EQ(sm90->source, Source::Cubin);
}

TEST(ModuleTableResources, OtherSmRunsPtxas) {
  if (!ptxas_on_path()) GTEST_SKIP() << "ptxas is not on PATH";
  const auto sm86 = resources_after_load("sm80_zstd.fatbin", 86);  // sm_80 SASS does not fit sm_86
  ASSERT_TRUE(sm86.has_value());
  EXPECT_EQ(sm86->registers, 12u);
  EXPECT_EQ(sm86->static_shared, 0u);
  EXPECT_EQ(sm86->source, Source::Ptxas);
}

TEST(ModuleTableResources, NoSourceGivesNothing) {
  // sm_70: no cubin for it, and ptxas 13 cannot target it (the compute_80 PTX still runs).
  EXPECT_FALSE(resources_after_load("sm80_zstd.fatbin", 70).has_value());
  // SASS only: the module does not load at all.
  EXPECT_FALSE(resources_after_load("sm80_sass.fatbin", 80, false).has_value());
}

}  // namespace
}  // namespace lockstep::runtime
