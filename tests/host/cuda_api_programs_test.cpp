// CUDA runtime API coverage through unmodified programs (tests/host/programs), each built for
// sm_75, sm_80 and sm_90 and run through `lockstep run`: vector add, constant memory, a device
// fault, streams and events, dynamic shared memory, pinned memory, two translation units,
// templates, device printf, Thrust and CUB, device malloc/new with limits; and one built with
// --default-stream per-thread.
// stdout and the exit code are exact; stderr carries only the per-kernel summary.
#include "host/run_lockstep.h"

#ifdef LOCKSTEP_HOST_PROGRAMS

namespace lockstep::test {
namespace {

class HostApiProgram : public ::testing::TestWithParam<const char*> {
 protected:
  ProgramOutcome run(const std::string& name) const {
    return run_lockstep(std::string(LOCKSTEP_HOST_PROGRAMS) + "/" + name + "_" + GetParam());
  }
};

TEST_P(HostApiProgram, VectorAdd) {
  const ProgramOutcome r = run("vector_add");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "vector_add: n=1000\nlaunch=cudaSuccess sync=cudaSuccess mismatches=0\nPASSED\n");
  expect_only_kernel_summaries(r.err);
}

TEST_P(HostApiProgram, ConstantAndDeviceVariablesThroughSymbols) {
  const ProgramOutcome r = run("constant_memory");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out,
            "y = 1 20 300 4000 5 60 700 8000\n"
            "total = 13086, via address = 13086, coefficients size = 16, cudaSuccess\nPASSED\n");
  expect_only_kernel_summaries(r.err);
}

// The report's PC and PTX line depend on the target's PTX; who faulted and where does not.
TEST_P(HostApiProgram, DeviceFaultIsReportedAndSticky) {
  const ProgramOutcome r = run("faulting_kernel");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out,
            "sync: cudaErrorIllegalAddress (an illegal memory access was encountered)\n"
            "last: cudaErrorIllegalAddress, later cudaMalloc: cudaErrorIllegalAddress\n");
  EXPECT_EQ(r.err.rfind("lockstep: out-of-bounds access of 4 bytes at global address 0x700000001000 in kernel "
                        "'_Z7overrunPi', block (0,0,0), thread (1,0,0), pc ",
                        0),
            0u)
      << r.err;
}

TEST_P(HostApiProgram, StreamsAndEvents) {
  const ProgramOutcome r = run("streams_events");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out,
            "create=cudaSuccess sync=cudaSuccess,cudaSuccess event=cudaSuccess query=cudaSuccess,cudaSuccess "
            "elapsed=cudaSuccess\n"
            "h_a[5]=14 h_b[5]=17 mismatches=0\n"
            "elapsed > 0: yes, total >= first: yes\n"
            "PASSED\n");
  expect_only_kernel_summaries(r.err);
}

TEST_P(HostApiProgram, DynamicSharedMemoryAndItsOptIn) {
  const ProgramOutcome r = run("dynamic_shared");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out,
            "launch=cudaSuccess mismatches=0 odd=48,48,48,48,48\n"
            "64 KiB: without opt-in cudaErrorInvalidValue, set cudaSuccess, with opt-in cudaSuccess, result 209134\n"
            "attributes cudaSuccess: static shared 0, max dynamic 65536\n"
            "occupancy cudaSuccess: 3 blocks of 32 threads, 0 of 2048\n"
            "PASSED\n");
  expect_only_kernel_summaries(r.err);
}

TEST_P(HostApiProgram, PinnedHostMemory) {
  const ProgramOutcome r = run("pinned_memory");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out,
            "alloc=cudaSuccess,cudaSuccess sync=cudaSuccess mismatches=0 h_out[10]=25\n"
            "flags=cudaSuccess portable=1\n"
            "attributes=cudaSuccess,cudaSuccess host type=1 device type=2 device base ok=1\n"
            "PASSED\n");
  expect_only_kernel_summaries(r.err);
}

// Kernels read and write host memory: mapped pinned memory, cudaMallocHost memory and the
// program's own memory after cudaHostRegister (zero_copy.cu).
TEST_P(HostApiProgram, ZeroCopyHostMemory) {
  const ProgramOutcome r = run("zero_copy");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out,
            "canMapHostMemory 1 unifiedAddressing 1 setDeviceFlags cudaSuccess\n"
            "mapped: alloc cudaSuccess pointer cudaSuccess same address 1 sync cudaSuccess\n"
            "registered: cudaSuccess, again cudaErrorHostMemoryAlreadyRegistered, sync cudaSuccess, type 1 device "
            "pointer 1, unregister cudaSuccess, again cudaErrorHostMemoryNotRegistered\n"
            "mismatches=0\n"
            "PASSED\n");
  expect_only_kernel_summaries(r.err);
}

// Stream priorities as a Hopper-class GPU reports them, clamped into the range.
TEST_P(HostApiProgram, StreamPriorities) {
  const ProgramOutcome r = run("stream_priorities");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out,
            "range cudaSuccess: least 0 greatest -5\n"
            "priorities -5 -2 0, flags 1 0 0\n"
            "default stream priority 0, bad flags cudaErrorInvalidValue, wrong 0\n"
            "PASSED\n");
  EXPECT_EQ(r.err.find("not supported"), std::string::npos) << r.err;
}

TEST_P(HostApiProgram, KernelsInTwoTranslationUnits) {
  const ProgramOutcome r = run("two_units");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out,
            "bins: 400 800 1200 1600 2000 2400 2800 3200 3600 4000\n"
            "histogram=cudaSuccess prefix=cudaSuccess mismatches=0\n"
            "PASSED\n");
  // One kernel from the main unit, two from the other: both fat binaries were loaded.
  EXPECT_NE(r.err.find("lockstep: kernel _Z12fill_patternPii "), std::string::npos);
  EXPECT_NE(r.err.find("lockstep: kernel _Z9histogramPKiiPii "), std::string::npos);
  EXPECT_NE(r.err.find("lockstep: kernel _Z13prefix_doublePii "), std::string::npos);
  expect_only_kernel_summaries(r.err);
}

// Separate compilation (-rdc=true): a kernel calls a device function and uses a variable of the
// other unit; each unit keeps its own internal helper and printf strings.
constexpr const char* kRdcOutput =
    "main unit says 1000\n"
    "library unit says 1000\n"
    "sync=cudaSuccess symbol=cudaSuccess launches seen 2, wrong 0\n"
    "PASSED\n";

TEST_P(HostApiProgram, SeparateCompilationLinksTheUnitsDeviceCode) {
  const ProgramOutcome r = run("rdc_units");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, kRdcOutput);
  expect_only_kernel_summaries(r.err);
}

TEST_P(HostApiProgram, DynamicParallelism) {
  const ProgramOutcome r = run("dynamic_parallelism");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "children: cudaSuccess, wrong 0\n"
            "tail launch: cudaSuccess, total 183900 (expected 183900)\n"
            "level 0\nlevel 1\nlevel 2\n"
            "nested: cudaSuccess, depths 1 2 3\n"
            "limit cudaSuccess, flood cudaSuccess: 1/cudaSuccess 1/cudaSuccess 1/cudaSuccess 1/cudaSuccess "
            "0/cudaErrorLaunchPendingCountExceeded 0/cudaErrorLaunchPendingCountExceeded "
            "0/cudaErrorLaunchPendingCountExceeded 0/cudaErrorLaunchPendingCountExceeded\n"
            "PASSED\n");
  // Every child grid is a launch of its own in the summary.
  EXPECT_NE(r.err.find("lockstep: kernel _Z4fillPiiii "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("lockstep: kernel _Z9sum_slicePKiiPi "), std::string::npos) << r.err;
  expect_only_kernel_summaries(r.err);
}

// 8 host threads allocate, copy, launch and synchronise at once.
TEST_P(HostApiProgram, HostThreadsAtOnce) {
  const ProgramOutcome r = run("host_threads");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::string expected;
  for (int id = 0; id < 8; ++id)
    expected += "thread " + std::to_string(id) + ": wrong 0, last error " +
                (id == 3 ? "cudaErrorMemoryAllocation" : "cudaSuccess") + "\n";
  expected += "host functions called 96 of 96, main thread's last error cudaSuccess\nPASSED\n";
  EXPECT_EQ(r.out, expected);
}

TEST_P(HostApiProgram, StreamOrderedMemoryPools) {
  const ProgramOutcome r = run("memory_pools");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "default is current: 1\n"
            "create cudaSuccess, threshold 1048576, follow events 0\n"
            "used: default 4000, pool 8000 (reserved 8000), wrong 0\n"
            "after free: pool used 0, high 8000, high after reset 0, trim cudaSuccess\n"
            "access cudaSuccess, flags 3\n"
            "current is the new pool: 1, its use 4096\n"
            "destroy default cudaErrorInvalidValue, device 1 cudaErrorInvalidDevice, set used cudaErrorInvalidValue, "
            "destroy cudaSuccess, current back to default 1\n"
            "PASSED\n");
  expect_only_kernel_summaries(r.err);
}

TEST(HostCmakeProject, SeparableCompilationWithADeviceLibrary) {
  const ProgramOutcome functional = run_lockstep(std::string(LOCKSTEP_HOST_PROGRAMS) + "/cmake_rdc_app");
  EXPECT_EQ(functional.exit_code, 0) << functional.err;
  EXPECT_EQ(functional.out, kRdcOutput);
  const ProgramOutcome timing =
      run_lockstep(std::string(LOCKSTEP_HOST_PROGRAMS) + "/cmake_rdc_app", {"--mode", "timing"});
  EXPECT_EQ(timing.exit_code, 0) << timing.err;
  EXPECT_EQ(timing.out, kRdcOutput);
}

TEST_P(HostApiProgram, KernelTemplates) {
  const ProgramOutcome r = run("templates");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out,
            "apply<int, Times3>: 0 mismatches\n"
            "apply<float, Times3>: 0 mismatches\n"
            "apply<double, Plus1>: 0 mismatches\n"
            "apply<Pair, Plus1>: 0 mismatches\n"
            "block_total<64, int>: totals 252 253 254, 0 mismatches\n"
            "block_total<128, float>: totals 505 509 513, 0 mismatches\n"
            "block_total<32, double>: totals 118 134 123, 0 mismatches\n"
            "PASSED\n");
  expect_only_kernel_summaries(r.err);
}

TEST_P(HostApiProgram, DevicePrintfFormats) {
  const ProgramOutcome r = run("device_printf");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out,
            "int -42 -42   -42|-42  |-0042\n"
            "unsigned 3735928559 hex deadbeef DEADBEEF 0xdeadbeef octal 33653337357\n"
            "long long -1234567890123 fffffee08e04fb35\n"
            "float 3.250000 3.25 3.250000e+00 3.25\n"
            "double 0.3333333333 3.333e-01\n"
            "char Z string device percent %\n"
            "pointer label null\n"
            "block 0 says even\n"
            "block 1 says odd\n"
            "block 2 says even\n"
            "thread 1 of block 2: 32 threads\n"
            "host after sync: cudaSuccess\n"
            "PASSED\n");
  expect_only_kernel_summaries(r.err);
}

TEST_P(HostApiProgram, CubReduceAndScanWithTempStorageQuery) {
  const ProgramOutcome r = run("cub_ops");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out,
            "query=cudaSuccess,cudaSuccess temp bytes > 0: yes\n"
            "reduce=cudaSuccess scan=cudaSuccess sync=cudaSuccess\n"
            "sum 4979 (expected 4979), scan last 4979, 0 mismatches\n"
            "PASSED\n");
  expect_only_kernel_summaries(r.err);
}

// Thrust's radix sort reaches CUB's inline PTX `vote.ballot.sync.b32` (.sync after the mode,
// which ptxas accepts) and synchronizes on cudaStreamPerThread-style special stream handles.
TEST_P(HostApiProgram, ThrustSortScanReduceTransform) {
  const ProgramOutcome r = run("thrust_ops");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out,
            "sorted: first -500 last 508, 0 out of order\n"
            "reduce: 4678 (expected 4678), max of squares-1: 258063\n"
            "inclusive_scan: last 1000, 0 mismatches; transform: 0 mismatches\n"
            "PASSED\n");
  expect_only_kernel_summaries(r.err);
}

TEST_P(HostApiProgram, DeviceNewDeleteMallocFreeAndLimits) {
  const ProgramOutcome r = run("device_heap");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out,
            "set: cudaSuccess cudaSuccess, heap 16777216, stack 2048\n"
            "sync: cudaSuccess, late heap resize: cudaErrorInvalidValue, wrong: 0\nPASSED\n");
  expect_only_kernel_summaries(r.err);
}

INSTANTIATE_TEST_SUITE_P(Arches, HostApiProgram, ::testing::Values("sm75", "sm80", "sm90"));

// nvcc --default-stream per-thread: the _ptsz/_ptds entry points, stream 0 as the thread's own
// (capturable) stream, stream ids and attributes, device flags, and the dynamic shared memory the
// occupancy calculator leaves: by default capped at 48 KiB, then the opted-in limit for one block,
// then half the SM (228 KiB) for two.
TEST(HostPerThreadStream, RunsAndReportsWhatCudaReports) {
  const ProgramOutcome r = run_lockstep(std::string(LOCKSTEP_HOST_PROGRAMS) + "/per_thread_stream");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out,
            "record cudaSuccess, capture cudaSuccess cudaSuccess, mismatches=0\n"
            "ids: default 1 legacy 0 created 2, device 0\n"
            "window cudaSuccess/cudaErrorInvalidValue: same base 4000 0.75 2 1, sync policy 1, priority 0, "
            "reset cudaSuccess\n"
            "device flags 0 -> 12 (cudaSuccess), two schedules cudaErrorInvalidValue\n"
            "attach cudaSuccess, managed total 7000; dynamic shared 49152 100000 116736, launch cudaSuccess, "
            "sums total 7000\n"
            "PASSED\n");
  expect_only_kernel_summaries(r.err);
}

// CUDA 12's kernel handles (cudaGetKernel, cudaGetFuncBySymbol) stand for the kernel in launches
// and queries; cudaFuncGetParamInfo gives the parameter buffer's layout (a double-and-char struct
// at 8, 16 bytes); cudaKernelSetAttributeForDevice raises the dynamic shared memory limit; arrays
// copy into arrays (a window, and a whole row by the deprecated 1D form); the 1D linear texture
// limit is the attribute's.
TEST(HostKernelHandles, StandForTheKernelAndArraysCopyIntoArrays) {
  const ProgramOutcome r = run_lockstep(std::string(LOCKSTEP_HOST_PROGRAMS) + "/kernel_handles");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "cudaGetKernel: cudaSuccess, cudaGetFuncBySymbol: cudaSuccess, of a variable: "
            "cudaErrorInvalidDeviceFunction\n"
            "parameters: (0, 8) (8, 16) (24, 4); a fourth: cudaErrorInvalidValue\n"
            "64 KiB launch: cudaErrorInvalidValue before, raise cudaSuccess, then cudaSuccess (limit 65536): "
            "0 mismatches\n"
            "array to array: window cudaSuccess, row cudaSuccess: 0 mismatches; half a float: cudaErrorInvalidValue, "
            "from the host: cudaErrorInvalidMemcpyDirection\n"
            "1D linear texture limit: cudaSuccess, equals the attribute\n"
            "PASSED\n");
  expect_only_kernel_summaries(r.err);
}

// PTX compiled by NVRTC while the program runs, loaded with cudaLibraryLoadData: its kernel
// found by name and launched through the handle, its __device__ variable read through
// cudaLibraryGetGlobal; bad PTX is refused at load with its parse error, an unloaded library's
// handle with CUDA's error. Both modes.
class HostRuntimeLibrary : public ::testing::TestWithParam<const char*> {};

TEST_P(HostRuntimeLibrary, LoadsNvrtcPtxAndLaunchesItsKernel) {
  const ProgramOutcome r =
      run_lockstep(std::string(LOCKSTEP_HOST_PROGRAMS) + "/runtime_library", {"--mode", GetParam()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "nvrtc: NVRTC_SUCCESS\n"
            "load: cudaSuccess, 2 kernels, saxpy cudaSuccess (saxpy, among them: yes), axpy cudaErrorSymbolNotFound\n"
            "launch: cudaSuccess, 0 mismatches; global cudaSuccess, 4 bytes, calls 1\n"
            "bad PTX: cudaErrorInvalidPtx; unload cudaSuccess, then cudaErrorInvalidResourceHandle\n"
            "PASSED\n");
  EXPECT_NE(r.err.find("lockstep: cannot load the program's device code: loaded2.ptx:4:16: expected '.param'\n"),
            std::string::npos)
      << r.err;
}

INSTANTIATE_TEST_SUITE_P(Modes, HostRuntimeLibrary, ::testing::Values("functional", "timing"));

// A driver API program (libcuda.so.1 is lockstep's stand-in): devices and the context, PTX from
// NVRTC loaded with cuModuleLoadDataEx, cuLaunchKernel through kernelParams and through a packed
// `extra` buffer, cuModuleGetGlobal, cuMemsetD32, events, driver error names, cuGetProcAddress.
// NVRTC asks for the driver's private export table and does without: that is said once, by name,
// as is an entry point the stand-in lacks.
class HostDriverApi : public ::testing::TestWithParam<const char*> {};

TEST_P(HostDriverApi, RunsAnNvrtcProgramOnTheDriverApi) {
  const ProgramOutcome r = run_lockstep(std::string(LOCKSTEP_HOST_PROGRAMS) + "/driver_api", {"--mode", GetParam()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "init CUDA_SUCCESS, 1 device, driver 13000, sm_90, 132 SMs, named: yes, memory: yes; device 1: "
            "CUDA_ERROR_INVALID_DEVICE\n"
            "context CUDA_SUCCESS, current is it: yes\n"
            "module CUDA_SUCCESS, axpy CUDA_SUCCESS (max threads 1024), saxpy CUDA_ERROR_NOT_FOUND\n"
            "launches CUDA_SUCCESS CUDA_SUCCESS, 0 mismatches; global CUDA_SUCCESS (4 bytes): 2 launches; events "
            "CUDA_SUCCESS, time passed\n"
            "cuGetProcAddress: cuMemAlloc CUDA_SUCCESS (cuMemAlloc_v2), cuNoSuchThing CUDA_ERROR_NOT_FOUND (status 1)\n"
            "CUDA_ERROR_INVALID_VALUE: invalid argument; cuIpcGetMemHandle: CUDA_ERROR_NOT_SUPPORTED\n"
            "PASSED\n");
  const std::string unsupported = "lockstep: cuIpcGetMemHandle is not supported yet\n";
  EXPECT_NE(r.err.find(unsupported), std::string::npos) << r.err;
  const std::string note =
      "lockstep: cuGetExportTable (the driver's private interface for NVIDIA's libraries, such as cuBLAS) is not "
      "supported yet\n";
  std::string err = r.err;
  for (const std::string& said : {note, unsupported})
    if (const size_t at = err.find(said); at != std::string::npos) err.erase(at, said.size());
  expect_only_kernel_summaries(err);
}

INSTANTIATE_TEST_SUITE_P(Modes, HostDriverApi, ::testing::Values("functional", "timing"));

// Device-side cudaGetDevice, cudaGetErrorString, cudaMalloc, cudaMemsetAsync and cudaMemcpyAsync
// on a device stream, then a child grid in that stream reading the buffer and freeing it with
// device-side cudaFree (NVIDIA's cdpAdvancedQuicksort and cdpBezierTessellation use these);
// device-side cudaDeviceGetAttribute, cudaGetDeviceCount, cudaRuntimeGetVersion, events and
// cudaGetErrorName answering as the host runtime does. Both modes.
class HostCdpDeviceRuntime : public ::testing::TestWithParam<const char*> {};

TEST_P(HostCdpDeviceRuntime, AllocatesCopiesAndFreesFromDeviceCode) {
  const ProgramOutcome r =
      run_lockstep(std::string(LOCKSTEP_HOST_PROGRAMS) + "/cdp_device_runtime", {"--mode", GetParam()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "device says: invalid argument\n"
            "sync cudaSuccess: 0 mismatches; device 0, errors 0, buffer 1, child's cudaFree 0\n"
            "device names error 1: cudaErrorInvalidValue\n"
            "device answers: 0 of 6 attributes differ from the host's; 1 device(s), version the host's; errors: "
            "1, 101, 1, 0\n"
            "PASSED\n");
  expect_only_kernel_summaries(r.err);
}

INSTANTIATE_TEST_SUITE_P(Modes, HostCdpDeviceRuntime, ::testing::Values("functional", "timing"));

// A tree of grids (top, middle, leaves with a tail launch each) with more launches over the run
// than the pending-launch limit's default. In timing mode the grids run beside one another, and
// on the 2-SM teaching model most wait for an SM: none of that may make a launch fail that a GPU
// would make (docs/timing-model.md, "Child grids"). 800 top blocks: 8001 launches.
struct CdpTreeCase {
  std::string name;
  std::vector<std::string> args;
  int blocks;
};
void PrintTo(const CdpTreeCase& c, std::ostream* os) { *os << c.name; }

class HostCdpTree : public ::testing::TestWithParam<CdpTreeCase> {};

TEST_P(HostCdpTree, EveryLaunchOfATreeOfGridsRuns) {
  const ProgramOutcome r = run_lockstep(std::string(LOCKSTEP_HOST_PROGRAMS) + "/cdp_tree", GetParam().args,
                                        {std::to_string(GetParam().blocks)});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "cudaSuccess: " + std::to_string(1 + GetParam().blocks * 10) + " launches, 0 counts wrong\nPASSED\n");
  expect_only_kernel_summaries(r.err);
}

INSTANTIATE_TEST_SUITE_P(Modes, HostCdpTree,
                         ::testing::Values(CdpTreeCase{"functional", {"--mode", "functional"}, 300},
                                           CdpTreeCase{"timing", {"--mode", "timing"}, 300},
                                           CdpTreeCase{"timing_teaching", {"--mode", "timing", "--gpu", "teaching"}, 800}),
                         [](const ::testing::TestParamInfo<CdpTreeCase>& p) { return p.param.name; });

}  // namespace
}  // namespace lockstep::test

#endif
