// Unmodified CUDA programs (tests/host/programs, built with nvcc -cudart shared) run through
// `lockstep run` on the stand-in libcudart.
#include "host/run_lockstep.h"

#ifdef LOCKSTEP_HOST_PROGRAMS

namespace lockstep::test {
namespace {

std::string program(const std::string& name) { return host_program(name); }

// The divergence line (branch-barrier, the h100's unit): the last warp splits at `i < n` (lanes
// 8..31 are past n = 1000) and warp 0 at `i == 0` (lane 0 prints); in each the skipping lanes
// reach the join first and wait there, and the paths merge: 2 of each.
TEST(HostPrograms, VectorAddPassesAndPrintsTheSummary) {
  const ProgramOutcome r = run_lockstep(program("vector_add"));
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "vector_add: n=1000\nlaunch=cudaSuccess sync=cudaSuccess mismatches=0\nPASSED\n");
  EXPECT_EQ(r.err,
            "lockstep: kernel _Z10vector_addPKfS0_Pfi grid (4,1,1) block (256,1,1) 873 warp instructions "
            "26392 thread instructions\n"
            "lockstep:   divergence: 2 divergent branches, 2 reconvergences, 2 barrier waits, 0 yields, 30.23 "
            "active lanes per warp instruction\n");
}

TEST(HostPrograms, WarpSizeOptionReachesTheRuntime) {
  const ProgramOutcome r = run_lockstep(program("vector_add"), {"--warp-size", "8"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("PASSED\n"), std::string::npos);
  // Same thread instructions, four times the warp instructions of 32-wide warps (less the tail).
  // 8-lane warps end exactly at n = 1000: only warp 0 splits (at `i == 0`).
  EXPECT_EQ(r.err,
            "lockstep: kernel _Z10vector_addPKfS0_Pfi grid (4,1,1) block (256,1,1) 3432 warp instructions "
            "26392 thread instructions\n"
            "lockstep:   divergence: 1 divergent branches, 1 reconvergences, 1 barrier waits, 0 yields, 7.69 "
            "active lanes per warp instruction\n");
}

TEST(HostPrograms, ConstantAndDeviceVariablesThroughSymbols) {
  const ProgramOutcome r = run_lockstep(program("constant_memory"));
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out,
            "y = 1 20 300 4000 5 60 700 8000\n"
            "total = 13086, via address = 13086, coefficients size = 16, cudaSuccess\nPASSED\n");
}

TEST(HostPrograms, DeviceFaultIsReportedAndSticky) {
  const ProgramOutcome r = run_lockstep(program("faulting_kernel"));
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out,
            "sync: cudaErrorIllegalAddress (an illegal memory access was encountered)\n"
            "last: cudaErrorIllegalAddress, later cudaMalloc: cudaErrorIllegalAddress\n");
  EXPECT_EQ(r.err,
            "lockstep: out-of-bounds access of 4 bytes at global address 0x700000001000 in kernel "
            "'_Z7overrunPi', block (0,0,0), thread (1,0,0), pc 7 (fatbin0.ptx:30)\n"
            "lockstep: kernel _Z7overrunPi grid (1,1,1) block (4,1,1) 8 warp instructions 32 thread "
            "instructions\n");
}

// A read one element past the end of an allocation runs as on a GPU by default; --memcheck
// reports it as strictly as a memory checker does.
TEST(HostPrograms, ReadJustPastTheEndRunsAndMemcheckReportsIt) {
  const ProgramOutcome relaxed = run_lockstep(program("read_past_end"));
  EXPECT_EQ(relaxed.exit_code, 0) << relaxed.err;
  EXPECT_EQ(relaxed.out, "sync cudaSuccess, wrong 0\nPASSED\n");
  const ProgramOutcome strict = run_lockstep(program("read_past_end"), {"--memcheck"});
  EXPECT_EQ(strict.exit_code, 1);
  EXPECT_EQ(strict.out, "sync cudaErrorIllegalAddress, wrong 999\nFAILED\n");
  EXPECT_EQ(strict.err.substr(0, strict.err.find('\n')),
            "lockstep: out-of-bounds access of 4 bytes at global address 0x700000000fa0 in kernel "
            "'_Z8pair_sumPKfPfi', block (7,0,0), thread (103,0,0), pc 13 (fatbin0.ptx:41)");
}

TEST(HostPrograms, UnsupportedCallIsReportedOnceAndFails) {
  const ProgramOutcome r = run_lockstep(program("unsupported_api"));
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.err, "lockstep: cudaIpcGetMemHandle is not supported yet\n");
  EXPECT_EQ(r.out,
            "cudaIpcGetMemHandle: cudaErrorNotSupported, cudaErrorNotSupported (801)\n"
            "last error: cudaErrorNotSupported\n");
}

TEST(HostPrograms, StaticRuntimeIsRefused) {
  const std::string p = program("vector_add_static");
  const ProgramOutcome r = run_lockstep(p);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "lockstep: " + p + " links the CUDA runtime statically; rebuild it with nvcc -cudart shared\n");
}

TEST(HostPrograms, SassOnlyBuildAsksForPtx) {
  const ProgramOutcome r = run_lockstep(program("vector_add_sass_only"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err,
            "lockstep: the program's device code has no PTX (only SASS for sm_80); lockstep simulates PTX, so "
            "rebuild the program with -arch=sm_XX or add -gencode arch=compute_XX,code=compute_XX (for example "
            "-arch=sm_80)\n");
  EXPECT_EQ(r.out, "launch=cudaErrorNoKernelImageForDevice sync=cudaSuccess mismatches=999\nFAILED\n");
}

TEST(HostPrograms, MissingProgram) {
  const ProgramOutcome r = run_lockstep(program("no_such_program"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "lockstep: " + program("no_such_program") + ": no such program\n");
}

}  // namespace
}  // namespace lockstep::test

#else

TEST(HostPrograms, SkippedWithoutNvcc) { GTEST_SKIP() << "nvcc not found: CUDA host programs not built"; }

#endif
