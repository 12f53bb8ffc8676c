#include "runtime/progress_line.h"

#include "fmt/format.h"

namespace lockstep::runtime {

ProgressLine::ProgressLine(std::FILE* out, Clock clock, std::chrono::milliseconds delay,
                           std::chrono::milliseconds interval)
    : out_(out), clock_(std::move(clock)), delay_(delay), interval_(interval) {}

void ProgressLine::begin_launch() {
  started_ = clock_();
  showing_ = false;
}

void ProgressLine::update(const LaunchProgress& p) {
  const auto now = clock_();
  if (now - started_ < delay_) return;
  if (showing_ && now - drawn_ < interval_) return;
  const double seconds = std::chrono::duration<double>(now - started_).count();
  const double rate = seconds > 0 ? double(p.thread_instructions) / seconds / 1e6 : 0.0;
  // \r and "erase to end of line": the line is redrawn in place.
  fmt::print(out_, "\rlockstep: {} blocks {}/{}, {:.1f} M thread-instructions/s\x1b[K", p.kernel,
             p.blocks_done, p.blocks_total, rate);
  std::fflush(out_);
  showing_ = true;
  drawn_ = now;
}

void ProgressLine::end_launch() {
  if (!showing_) return;
  fmt::print(out_, "\r\x1b[K");
  std::fflush(out_);
  showing_ = false;
}

}  // namespace lockstep::runtime
