#pragma once
// The progress line of long launches on a terminal: "lockstep: <kernel> blocks <done>/<total>,
// <rate> M thread-instructions/s", redrawn in place at most every `interval`, shown only once a
// launch has run for `delay`, and erased when the launch ends so program output stays clean.
// Wall-clock time only decides when to draw, never what the simulation does.
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>

#include "engine/engine.h"

namespace lockstep::runtime {

class ProgressLine {
 public:
  using Clock = std::function<std::chrono::steady_clock::time_point()>;

  explicit ProgressLine(std::FILE* out, Clock clock = std::chrono::steady_clock::now,
                        std::chrono::milliseconds delay = std::chrono::milliseconds(1000),
                        std::chrono::milliseconds interval = std::chrono::milliseconds(250));

  void begin_launch();
  void update(const LaunchProgress& p);
  // Erases the line if one is showing.
  void end_launch();

 private:
  std::FILE* out_;
  Clock clock_;
  std::chrono::milliseconds delay_, interval_;
  std::chrono::steady_clock::time_point started_, drawn_;
  bool showing_ = false;
};

// Shows the line for the duration of one launch (however it ends); does nothing for nullptr.
class ProgressScope {
 public:
  explicit ProgressScope(ProgressLine* line) : line_(line) {
    if (line_) line_->begin_launch();
  }
  ~ProgressScope() {
    if (line_) line_->end_launch();
  }
  ProgressScope(const ProgressScope&) = delete;
  ProgressScope& operator=(const ProgressScope&) = delete;

 private:
  ProgressLine* line_;
};

}  // namespace lockstep::runtime
