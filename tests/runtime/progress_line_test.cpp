// The progress line: silent for short launches, redrawn at most every interval, erased at the end.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

#include "runtime/progress_line.h"

namespace lockstep::runtime {
namespace {

using namespace std::chrono_literals;

class ProgressLineTest : public ::testing::Test {
 protected:
  void SetUp() override { out_ = open_memstream(&text_, &size_); }
  void TearDown() override { std::free(text_); }
  std::string text() {
    std::fflush(out_);
    return std::string(text_, size_);
  }
  ProgressLine line() {
    return ProgressLine(out_, [this] { return std::chrono::steady_clock::time_point(now_); }, 1000ms, 250ms);
  }
  LaunchProgress at(uint64_t done, uint64_t instructions) { return LaunchProgress{"k", done, 8, instructions}; }

  std::FILE* out_ = nullptr;
  char* text_ = nullptr;
  size_t size_ = 0;
  std::chrono::steady_clock::duration now_{};
};

TEST_F(ProgressLineTest, ShortLaunchPrintsNothing) {
  ProgressLine p = line();
  p.begin_launch();
  now_ = 999ms;
  p.update(at(8, 100));
  p.end_launch();
  EXPECT_EQ(text(), "");
  std::fclose(out_);
}

TEST_F(ProgressLineTest, LongLaunchRedrawsAtTheIntervalAndErasesAtTheEnd) {
  ProgressLine p = line();
  p.begin_launch();
  now_ = 2000ms;
  p.update(at(2, 4'000'000));  // 2 M per second
  now_ = 2100ms;
  p.update(at(3, 5'000'000));  // within the interval: not drawn
  now_ = 2500ms;
  p.update(at(4, 10'000'000));
  p.end_launch();
  EXPECT_EQ(text(),
            "\rlockstep: k blocks 2/8, 2.0 M thread-instructions/s\x1b[K"
            "\rlockstep: k blocks 4/8, 4.0 M thread-instructions/s\x1b[K"
            "\r\x1b[K");
  std::fclose(out_);
}

}  // namespace
}  // namespace lockstep::runtime
