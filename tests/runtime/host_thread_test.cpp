// What CUDA keeps per host thread (the last error, pushed <<<>>> configurations, the capture
// mode) dies with the thread: a thread started after another one ended starts clean, even when
// the C++ library gives it the ended thread's std::thread::id (glibc does, at once).
#include <gtest/gtest.h>

#include <cstdio>
#include <thread>

#include "runtime/host_thread.h"
#include "runtime/runtime.h"

namespace lockstep::test {
namespace {

using runtime::current_host_thread;

// Runs `body` on a new host thread and waits for it to end.
template <class Body>
void on_new_thread(Body body) {
  std::thread(body).join();
}

TEST(HostThread, NumbersAreNeverReused) {
  uint64_t first = 0, second = 0;
  on_new_thread([&] { first = current_host_thread(); });
  on_new_thread([&] { second = current_host_thread(); });
  EXPECT_NE(first, 0u);
  EXPECT_NE(first, second);
  EXPECT_NE(current_host_thread(), first);
  EXPECT_EQ(current_host_thread(), current_host_thread());
}

class HostThreadState : public ::testing::Test {
 protected:
  HostThreadState() : err_(std::tmpfile()), runtime_(runtime::RuntimeOptions{}, stdout, err_) {}
  ~HostThreadState() override { std::fclose(err_); }
  std::FILE* err_;
  runtime::Runtime runtime_;
};

TEST_F(HostThreadState, ALaterThreadDoesNotInheritAnEndedThreadsLastError) {
  on_new_thread([&] { runtime_.record(cudaErrorInvalidValue); });  // ends without reading it
  cudaError_t later = cudaErrorUnknown;
  on_new_thread([&] { later = runtime_.peek_last_error(); });
  EXPECT_EQ(later, cudaSuccess);
  on_new_thread([&] { later = runtime_.take_last_error(); });
  EXPECT_EQ(later, cudaSuccess);
  EXPECT_EQ(runtime_.peek_last_error(), cudaSuccess);  // nor does the main thread
}

TEST_F(HostThreadState, ALaterThreadDoesNotPopAnEndedThreadsConfiguration) {
  on_new_thread([&] { runtime_.push_config({{4, 1, 1}, {32, 1, 1}, 0, nullptr}); });
  bool popped = true;
  on_new_thread([&] {
    runtime::LaunchConfig c;
    popped = runtime_.pop_config(c);
  });
  EXPECT_FALSE(popped);
}

TEST_F(HostThreadState, ALaterThreadStartsInGlobalCaptureMode) {
  on_new_thread([&] { runtime_.captures().exchange_mode(cudaStreamCaptureModeRelaxed); });  // not restored
  cudaStreamCaptureMode later = cudaStreamCaptureModeRelaxed;
  on_new_thread([&] { later = runtime_.captures().exchange_mode(cudaStreamCaptureModeGlobal); });
  EXPECT_EQ(later, cudaStreamCaptureModeGlobal);
}

}  // namespace
}  // namespace lockstep::test
