#pragma once
// Shared code for the cycle-level model's tests: an Engine in timing mode on a preset (with
// overrides), and hand-written PTX micro-kernels whose cycle counts the tests work out by hand.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "config/gpu_config.h"
#include "engine/engine.h"
#include "fmt/format.h"

namespace lockstep::test {

inline std::shared_ptr<const config::GpuConfig> timing_gpu(const std::string& preset,
                                                           const std::vector<std::string>& overrides = {}) {
  return std::make_shared<const config::GpuConfig>(config::load_gpu_config(preset, overrides));
}

// An engine that runs every launch on the cycle-level model of `gpu`, its SMs stepped on
// `threads` threads.
inline std::unique_ptr<Engine> timing_engine(std::shared_ptr<const config::GpuConfig> gpu, uint32_t threads = 1) {
  EngineOptions options;
  options.warp_size = gpu->sm.warp_size;
  options.timing = std::move(gpu);
  options.sim_threads = threads;
  return std::make_unique<Engine>(options);
}

// A module with one kernel `k(.param .u64 out)`: `body` is PTX between the declarations and the
// final store of %f1 (as raw bits) to out[global thread index].
inline std::string micro_kernel(const std::string& body, const std::string& extra_regs = "") {
  return fmt::format(R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out) {{
  .reg .f32 %f<16>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<8>;
  .reg .pred %p<4>;
  {}
{}
  mov.u32 %r14, %tid.x;
  mov.u32 %r15, %ctaid.x;
  mov.u32 %r13, %ntid.x;
  mad.lo.s32 %r14, %r15, %r13, %r14;
  ld.param.u64 %rd6, [out];
  mul.wide.u32 %rd7, %r14, 4;
  add.s64 %rd6, %rd6, %rd7;
  st.global.f32 [%rd6], %f1;
  ret;
}}
)",
                     extra_regs, body);
}

// Runs `ptx`'s kernel k on the engine with `blocks` x `threads`; returns the timing figures.
inline sim::KernelTiming run_timed(Engine& engine, const std::string& ptx, uint32_t blocks, uint32_t threads,
                                   std::vector<float>* out = nullptr) {
  const ModuleId m = engine.load_ptx(ptx, "micro.ptx");
  const uint64_t n = uint64_t{blocks} * threads;
  const uint64_t buffer = engine.malloc(n * sizeof(float));
  const LaunchResult r = engine.launch(m, "k", {blocks, 1, 1}, {threads, 1, 1}, 0, {KernelArg::of(buffer)});
  EXPECT_FALSE(r.fault.has_value()) << (r.fault ? r.fault->message : "");
  if (out != nullptr) {
    out->resize(n);
    engine.copy_to_host(out->data(), buffer, n * sizeof(float));
  }
  engine.free(buffer);
  if (!r.timing) {
    ADD_FAILURE() << "the launch has no timing figures";
    return {};
  }
  return *r.timing;
}

}  // namespace lockstep::test

namespace lockstep::test {

// "cycle:line" of every issued instruction of warp 0 of block 0, in issue order (PTX lines of
// micro_kernel's text).
inline std::string issue_trace(Engine& engine, const std::string& ptx, uint32_t blocks, uint32_t threads) {
  std::string trace;
  engine.set_trace([&](const TraceEvent& e) {
    if (e.block == 0 && e.warp == 0) trace += fmt::format("{}:{} ", e.cycle, e.ptx_line);
  });
  run_timed(engine, ptx, blocks, threads);
  engine.set_trace(nullptr);
  return trace;
}

}  // namespace lockstep::test
