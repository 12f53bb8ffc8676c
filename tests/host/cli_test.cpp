// The lockstep command's GPU options: `lockstep gpus`, `lockstep config`, and `lockstep run`
// with --gpu, --set, --warp-size and --mode, checked before anything runs; the runtime reports
// the chosen preset to the program.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "host/run_lockstep.h"

namespace lockstep::test {
namespace {

// Runs a shell command line and captures both streams.
ProgramOutcome run_shell(const std::string& command_line) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("lockstep_cli_test_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string command =
      command_line + " >" + quoted((dir / "out").string()) + " 2>" + quoted((dir / "err").string());
  const int status = std::system(command.c_str());
  ProgramOutcome r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = read_text(dir / "out");
  r.err = read_text(dir / "err");
  std::filesystem::remove_all(dir);
  return r;
}

// Runs `lockstep ARGUMENTS...`.
ProgramOutcome run_cli(const std::vector<std::string>& arguments) {
  std::string command = quoted(LOCKSTEP_BINARY);
  for (const std::string& a : arguments) command += " " + quoted(a);
  return run_shell(command);
}

TEST(Cli, GpusListsEveryPreset) {
  const ProgramOutcome r = run_cli({"gpus"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out,
            "a100      A100 SXM4 40GB: 108 SMs, compute capability 8.0, 1410 MHz\n"
            "fermi     GeForce GTX 480: 15 SMs, compute capability 2.0, 1401 MHz\n"
            "h100      H100 SXM5: 132 SMs, compute capability 9.0, 1980 MHz\n"
            "h200      H200 SXM: 132 SMs, compute capability 9.0, 1980 MHz\n"
            "teaching  lockstep teaching GPU: 2 SMs, compute capability 9.0, 1000 MHz\n"
            "v100      Tesla V100 SXM2 16GB: 80 SMs, compute capability 7.0, 1530 MHz\n");
  EXPECT_EQ(r.err, "");
}

TEST(Cli, ConfigPrintsTheEffectiveConfiguration) {
  const ProgramOutcome r = run_cli({"config", "--gpu", "teaching", "--set", "gpu.sm_count=4", "--set", "sm.warp_size=4"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out.substr(0, r.out.find("l2_kib")),
            "# lockstep configuration: preset teaching, overrides gpu.sm_count=4 sm.warp_size=4\n"
            "\n[gpu]\n"
            "name = \"lockstep teaching GPU\"\n"
            "compute_capability = 90\n"
            "sm_count = 4\n"
            "core_clock_mhz = 1000\n"
            "memory_clock_mhz = 1000\n"
            "memory_bus_bits = 256\n"
            "global_memory_gib = 1.0\n");
  EXPECT_NE(r.out.find("\n[sm]\nwarp_size = 4\nmax_threads = 256\nmax_warps = 64\nmax_blocks = 8\n"),
            std::string::npos);
  EXPECT_NE(r.out.find("\n[icache]\nsets = 8\nways = 4\nline_bytes = 128\nmiss_latency = 200\n"), std::string::npos);
}

TEST(Cli, ConfigDefaultsToH100) {
  const ProgramOutcome r = run_cli({"config"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out.substr(0, r.out.find('\n')), "# lockstep configuration: preset h100");
  EXPECT_NE(r.out.find("\nsm_count = 132\n"), std::string::npos);
}

TEST(Cli, ConfigErrorsAreExact) {
  ProgramOutcome r = run_cli({"config", "--gpu", "h300"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "lockstep: unknown GPU 'h300' (accepted: a100, fermi, h100, h200, teaching, v100)\n");
  r = run_cli({"config", "--set", "sm.count"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "lockstep: override 'sm.count' must look like key=value\n");
  r = run_cli({"config", "--set", "gpu.sm_count=0"});
  EXPECT_EQ(r.err, "lockstep: bad value '0' for gpu.sm_count: expected an integer from 1 to 1024\n");
}

TEST(Cli, RunRefusesAnUnknownMode) {
  const ProgramOutcome r = run_cli({"run", "--mode", "fast", "--", "/bin/true"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "lockstep: bad value 'fast' for --mode: expected one of functional, timing\n");
}

TEST(Cli, RunRefusesABadThreadCount) {
  for (const char* bad : {"0", "257", "two", "2x", ""}) {
    const ProgramOutcome r = run_cli({"run", "--mode", "timing", "--threads", bad, "--", "/bin/echo", "ran"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "lockstep: bad value '" + std::string(bad) +
                         "' for --threads: expected a whole number from 1 to 256\n");
  }
}

TEST(Cli, RunChecksTheConfigurationBeforeRunning) {
  // /bin/echo would print if it ran.
  ProgramOutcome r = run_cli({"run", "--set", "sm.warp_size=abc", "--", "/bin/echo", "ran"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "lockstep: bad value 'abc' for sm.warp_size: expected one of 1, 2, 4, 8, 16, 32, 64\n");
  r = run_cli({"run", "--warp-size", "24"});
  EXPECT_EQ(r.err, "lockstep: bad value '24' for sm.warp_size: expected one of 1, 2, 4, 8, 16, 32, 64\n");
  r = run_cli({"run", "--gpu", "teaching", "--set", "sm.max_warps=8", "--", "/bin/echo", "ran"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "lockstep: sm.max_warps (8) times sm.warp_size (8) is 64 threads, fewer than sm.max_threads (256)\n");
  r = run_cli({"run", "--set", "sm.foo=1"});
  EXPECT_EQ(r.err.substr(0, 59), "lockstep: unknown configuration key 'sm.foo' (keys in [sm]:");
}

TEST(Cli, RunPassesTheOptionsThroughTheEnvironment) {
  // `env` stands in for a CUDA program: it prints what the runtime would read. An inherited
  // LOCKSTEP_WARP_SIZE is dropped: --warp-size travels in LOCKSTEP_SET, ahead of the --set list.
  std::string command = "LOCKSTEP_WARP_SIZE=4 " + quoted(LOCKSTEP_BINARY);
  for (const char* a : {"run", "--stats-json", "out.json", "--gpu", "a100", "--warp-size", "16", "--set",
                        "gpu.sm_count=4", "--threads", "3", "--", "env"})
    command += " " + quoted(a);
  const ProgramOutcome r = run_shell(command);
  EXPECT_EQ(r.exit_code, 0);
  const std::string env = "\n" + r.out;
  EXPECT_NE(env.find("\nLOCKSTEP_GPU=a100\n"), std::string::npos) << r.out;
  EXPECT_NE(env.find("\nLOCKSTEP_SET=sm.warp_size=16\ngpu.sm_count=4\n\n"), std::string::npos) << r.out;
  EXPECT_NE(env.find("\nLOCKSTEP_MODE=functional\n"), std::string::npos) << r.out;
  EXPECT_NE(env.find("\nLOCKSTEP_THREADS=3\n"), std::string::npos) << r.out;
  EXPECT_NE(env.find("\nLOCKSTEP_STATS_JSON=out.json\n"), std::string::npos) << r.out;
  EXPECT_EQ(env.find("LOCKSTEP_WARP_SIZE"), std::string::npos) << r.out;
}

TEST(Cli, RunUsesEveryCoreUnlessToldOtherwise) {
  const ProgramOutcome r = run_cli({"run", "--", "env"});
  EXPECT_EQ(r.exit_code, 0);
  const uint32_t cores = std::clamp<uint32_t>(std::thread::hardware_concurrency(), 1, 256);
  EXPECT_NE(("\n" + r.out).find("\nLOCKSTEP_THREADS=" + std::to_string(cores) + "\n"), std::string::npos) << r.out;
}

TEST(Cli, BuiltInSampleHonoursTheGpuWarpSize) {
  ProgramOutcome r = run_cli({"run", "--gpu", "teaching", "--elements", "1000"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "saxpy over 1000 elements: PASSED\n");
  EXPECT_NE(r.err.find("warp size 8\n"), std::string::npos) << r.err;
  r = run_cli({"run", "--set", "sm.warp_size=16", "--elements", "1000"});
  EXPECT_NE(r.err.find("warp size 16\n"), std::string::npos) << r.err;
  r = run_cli({"run", "--warp-size", "4", "--elements", "1000"});
  EXPECT_NE(r.err.find("warp size 4\n"), std::string::npos) << r.err;
}

#ifdef LOCKSTEP_HOST_PROGRAMS

std::string program(const std::string& name) { return host_program(name); }

TEST(CliPrograms, DefaultPresetIsH100) {
  const ProgramOutcome r = run_lockstep(program("device_query"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "properties cudaSuccess: compute capability 9.0\n"
            "SMs 132, warp size 32, threads per SM 2048, blocks per SM 32, threads per block 1024\n"
            "registers per SM 65536, shared per SM 233472, per block 49152, opt-in 232448, reserved 1024\n"
            "occupancy cudaSuccess: 16 blocks of 128 threads per SM\n"
            "launch=cudaSuccess sync=cudaSuccess blocks=2112 mismatches=0\n"
            "PASSED\n");
}

// The device selection most programs copy from the samples asks for the compute mode by
// attribute; every attribute number of CUDA 13 must be answered (device_select.cu).
TEST(CliPrograms, SamplesStyleDeviceSelectionGetsPastItsFirstCall) {
  const ProgramOutcome r = run_lockstep(program("device_select"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "selected device 0\n"
            "attributes refused: 0; attribute 148: cudaErrorInvalidValue\n"
            "compute mode 0, overlap 1, copy engines 3, map host 1, pools 1, ecc 1, priorities 1\n"
            "texture 1D 131072, 2D 131072x65536, 3D 16384x16384x16384\n"
            "PASSED\n");
}

TEST(CliPrograms, ProgramSeesTheChosenPreset) {
  ProgramOutcome r = run_lockstep(program("device_query"), {"--gpu", "a100"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "properties cudaSuccess: compute capability 8.0\n"
            "SMs 108, warp size 32, threads per SM 2048, blocks per SM 32, threads per block 1024\n"
            "registers per SM 65536, shared per SM 167936, per block 49152, opt-in 166912, reserved 1024\n"
            "occupancy cudaSuccess: 16 blocks of 128 threads per SM\n"
            "launch=cudaSuccess sync=cudaSuccess blocks=1728 mismatches=0\n"
            "PASSED\n");
  // The teaching GPU: 8-wide warps, so a 128-thread block is 16 warps; the kernel's registers
  // (from ptxas for sm_90: the program carries an sm_80 cubin only) leave room for two such
  // blocks, all of the SM's 256 threads.
  r = run_lockstep(program("device_query"), {"--gpu", "teaching", "--set", "gpu.sm_count=3"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "properties cudaSuccess: compute capability 9.0\n"
            "SMs 3, warp size 8, threads per SM 256, blocks per SM 8, threads per block 256\n"
            "registers per SM 8192, shared per SM 16384, per block 16384, opt-in 16384, reserved 0\n"
            "occupancy cudaSuccess: 2 blocks of 128 threads per SM\n"
            "launch=cudaSuccess sync=cudaSuccess blocks=6 mismatches=0\n"
            "PASSED\n");
}

TEST(CliPrograms, WarpSizeOverrideReachesProperties) {
  const ProgramOutcome r = run_lockstep(program("device_query"), {"--warp-size", "16"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("SMs 132, warp size 16, threads per SM 2048,"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("mismatches=0\nPASSED\n"), std::string::npos) << r.out;
}

TEST(CliPrograms, BadEnvironmentStopsTheRuntimeLoudly) {
  // Set by hand rather than by `lockstep run` (which would have refused it).
  const std::string lib = (std::filesystem::path(LOCKSTEP_BINARY).parent_path().parent_path() / "lib").string();
  const ProgramOutcome r =
      run_shell("LD_LIBRARY_PATH=" + quoted(lib) + " LOCKSTEP_GPU=h300 " + quoted(program("device_query")));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "lockstep: unknown GPU 'h300' (accepted: a100, fermi, h100, h200, teaching, v100)\n");
  for (const char* bad : {"0", "300", "x"}) {
    const ProgramOutcome t = run_shell("LD_LIBRARY_PATH=" + quoted(lib) + " LOCKSTEP_MODE=timing LOCKSTEP_THREADS=" +
                                       bad + " " + quoted(program("device_query")));
    EXPECT_EQ(t.exit_code, 1);
    EXPECT_EQ(t.out, "");
    EXPECT_EQ(t.err, "lockstep: bad value '" + std::string(bad) +
                         "' for LOCKSTEP_THREADS: expected a whole number from 1 to 256\n");
  }
}

#endif  // LOCKSTEP_HOST_PROGRAMS

}  // namespace
}  // namespace lockstep::test
