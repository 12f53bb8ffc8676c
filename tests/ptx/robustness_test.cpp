// Malformed input never crashes: every truncation of a valid module either parses or throws
// ptx::Error, and every cut inside the kernel body throws. Large input parses in linear time.
#include <gtest/gtest.h>

#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "ptx_test_util.h"

namespace lockstep::ptx {
namespace {

std::string read_sample(std::string_view name) {
  std::ifstream in(std::filesystem::path(LOCKSTEP_TEST_DATA) / "ptx" / "data" / name, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// Parses and checks `text`; true if it was accepted, false if it threw ptx::Error. Any other
// exception escapes and fails the test.
bool accepted(std::string_view text) {
  try {
    Module module = parse(text, "cut.ptx");
    check(module);
    return true;
  } catch (const Error&) {
    return false;
  }
}

// Every cut of the smallest sample, and every 5th cut of the others (a stride coprime with
// typical token lengths, so cuts land in every kind of token).
TEST(Robustness, EveryTruncationParsesOrThrowsPtxError) {
  for (const char* sample : {"vecadd.ptx", "inline_asm.ptx", "printf_calls.ptx", "globals.ptx"}) {
    std::string text = read_sample(sample);
    ASSERT_FALSE(text.empty()) << sample;
    ASSERT_TRUE(accepted(text)) << sample;
    size_t stride = std::string_view(sample) == "vecadd.ptx" ? 1 : 5;
    for (size_t cut = 0; cut < text.size(); cut += stride) accepted(std::string_view(text).substr(0, cut));
  }
}

TEST(Robustness, EveryCutInsideTheKernelBodyIsAnError) {
  std::string text = read_sample("vecadd.ptx");
  size_t body_open = text.find("\n{\n");
  size_t body_close = text.find("\n}\n");
  ASSERT_NE(body_open, std::string::npos);
  ASSERT_NE(body_close, std::string::npos);
  for (size_t cut = body_open; cut <= body_close; ++cut) {
    EXPECT_FALSE(accepted(std::string_view(text).substr(0, cut))) << "cut at " << cut;
  }
}

TEST(Robustness, ByteFlipsParseOrThrowPtxError) {
  std::string text = read_sample("inline_asm.ptx");
  const char replacements[] = {'{', '}', '[', ']', ';', ',', '.', '%', '@', '!', '0', 'x', '\0', '"', '<', ' '};
  for (size_t pos = 0; pos < text.size(); pos += 11) {
    for (char replacement : replacements) {
      std::string mutated = text;
      mutated[pos] = replacement;
      accepted(mutated);
    }
  }
}

double thread_cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

#if defined(__OPTIMIZE__) && !defined(__SANITIZE_ADDRESS__)
constexpr size_t kBigInputBytes = 10'000'000;
constexpr double kBigInputCpuSeconds = 2.0;  // measured about 0.3 s (RelWithDebInfo)
#else
// Unoptimised or sanitised builds are 10-50x slower; a smaller input still catches quadratic
// behaviour without dominating the suite.
constexpr size_t kBigInputBytes = 2'000'000;
constexpr double kBigInputCpuSeconds = 30.0;
#endif

TEST(Robustness, LargeInputParsesInLinearTime) {
  std::string kernel_text = read_sample("vecadd.ptx");
  size_t entry = kernel_text.find(".visible .entry");
  size_t end = kernel_text.find("\n}\n") + 3;
  std::string header = kernel_text.substr(0, entry);
  std::string function = kernel_text.substr(entry, end - entry);
  std::string big = header;
  for (int i = 0; big.size() < kBigInputBytes; ++i) {
    std::string copy = function;
    copy.replace(copy.find("_Z6vecaddPKfS0_Pfi("), 19, "k" + std::to_string(i) + "(");
    big += copy;
  }
  // CPU time of this thread, so a loaded machine does not make the bound flaky.
  double start = thread_cpu_seconds();
  Module module = parse(big, "big.ptx");
  check(module);
  double seconds = thread_cpu_seconds() - start;
  EXPECT_GT(module.functions.size(), kBigInputBytes / 2000);
  EXPECT_LT(seconds, kBigInputCpuSeconds);
}

// Many declarations in one scope (distinct range prefixes ending in digits, singles that look
// like range members) must not make duplicate detection or lookup quadratic.
TEST(Robustness, ManyDeclarationsCheckInLinearTime) {
  std::string body;
  constexpr int kCount = 50'000;
  for (int i = 0; i < kCount; ++i) {
    body += ".reg .b32 %a" + std::to_string(i) + "<2>;\n.reg .b32 %s" + std::to_string(i) + "x;\n";
  }
  for (int i = 0; i < kCount; ++i) body += "mov.u32 %a" + std::to_string(i) + "1, %s" + std::to_string(i) + "x;\n";
  std::string text = test::kernel(body);
  double start = thread_cpu_seconds();
  Module module = parse(text, "many.ptx");
  check(module);
  EXPECT_LT(thread_cpu_seconds() - start, kBigInputCpuSeconds);
  EXPECT_EQ(test::error_of(test::kernel(".reg .b32 %a1<2>;\n.reg .b32 %a<11>;")), "t.ptx:7:11: duplicate declaration of '%a10'");
}

}  // namespace
}  // namespace lockstep::ptx
