// What `lockstep run` reports besides the program's own output: a kernel lockstep cannot run
// (the others still run), and the stats JSON file.
#include <nlohmann/json.hpp>

#include "host/run_lockstep.h"

#ifdef LOCKSTEP_HOST_PROGRAMS

namespace lockstep::test {
namespace {

std::string program(const std::string& name) { return host_program(name); }

// An instruction lockstep cannot run, and a declaration it cannot lower, each fail their kernel
// alone.
TEST(RunReports, KernelsLockstepCannotRunFailAloneAndNotSticky) {
  const ProgramOutcome r = run_lockstep(program("unsupported_instruction"));
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out,
            "square: cudaSuccess\n"
            "signal_profiler: cudaErrorNotSupported\n"
            "vector_register: cudaErrorNotSupported\n"
            "copy: cudaSuccess, wrong: 0\nPASSED\n");
  EXPECT_EQ(r.err,
            "lockstep: kernel '_Z15signal_profilerPi' cannot run: fatbin0.ptx:57:1: unsupported PTX instruction "
            "'pmevent' at fatbin0.ptx:57\n"
            "lockstep: kernel '_Z15vector_registerPi' cannot run: fatbin0.ptx:80:15: vector register 'pair' "
            "(.reg .v2) is not supported\n"
            "lockstep: kernel _Z6squarePii grid (2,1,1) block (32,1,1) 32 warp instructions 960 thread "
            "instructions\n"
            "lockstep: kernel _Z6squarePii grid (2,1,1) block (32,1,1) 32 warp instructions 960 thread "
            "instructions\n");
}

TEST(RunReports, OlderPresetRunsNewerPtxWithANote) {
  // nvcc 13 cannot target the V100 (sm_70); the program's sm_80 PTX runs on the v100 preset.
  const ProgramOutcome r = run_lockstep(program("vector_add"), {"--gpu", "v100"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "vector_add: n=1000\nlaunch=cudaSuccess sync=cudaSuccess mismatches=0\nPASSED\n");
  EXPECT_EQ(r.err,
            "lockstep: note: the program's PTX targets compute_80 and newer, beyond the simulated GPU's "
            "compute capability 7.0; running the compute_80 PTX on it anyway (a real GPU of this kind would "
            "refuse it)\n"
            "lockstep: kernel _Z10vector_addPKfS0_Pfi grid (4,1,1) block (256,1,1) 873 warp instructions "
            "26392 thread instructions\n"
            "lockstep:   divergence: 2 divergent branches, 2 reconvergences, 2 barrier waits, 0 yields, 30.23 "
            "active lanes per warp instruction\n");
}

TEST(RunReports, StatsJsonDescribesEveryLaunch) {
  const std::string file = (std::filesystem::temp_directory_path() /
                            ("lockstep_stats_" + std::to_string(getpid()) + ".json"))
                               .string();
  const ProgramOutcome r = run_lockstep(program("vector_add"), {"--stats-json", file});
  EXPECT_EQ(r.exit_code, 0);
  const nlohmann::json stats = nlohmann::json::parse(read_text(file));
  std::filesystem::remove(file);
  EXPECT_EQ(stats["schema"], "lockstep-stats");
  EXPECT_EQ(stats["version"], 5);
  EXPECT_EQ(stats["mode"], "functional");
  EXPECT_EQ(stats["program"], nlohmann::json::array({program("vector_add")}));
  EXPECT_EQ(stats["gpu"]["preset"], "h100");
  EXPECT_EQ(stats["gpu"]["warp_size"], 32);
  ASSERT_EQ(stats["launches"].size(), 1u);
  const nlohmann::json& launch = stats["launches"][0];
  EXPECT_EQ(launch["kernel"], "_Z10vector_addPKfS0_Pfi");
  EXPECT_EQ(launch["grid"], nlohmann::json::array({4, 1, 1}));
  EXPECT_EQ(launch["block"], nlohmann::json::array({256, 1, 1}));
  EXPECT_EQ(launch["warp_instructions"], 873);
  EXPECT_EQ(launch["thread_instructions"], 26392);
  EXPECT_DOUBLE_EQ(launch["simt_efficiency"].get<double>(), 26392.0 / (873.0 * 32.0));
  EXPECT_DOUBLE_EQ(launch["average_active_lanes"].get<double>(), 26392.0 / 873.0);
  // Warp 31 splits at `i < n`, warp 0 at `i == 0` (cuda_programs_test.cpp has the derivation).
  EXPECT_EQ(launch["divergence"],
            nlohmann::json({{"divergent_branches", 2}, {"reconvergences", 2}, {"barrier_waits", 2}, {"yields", 0},
                            {"formed_warps", 0}, {"formed_threads", 0}}));
  EXPECT_TRUE(launch["fault"].is_null());
  EXPECT_EQ(stats["totals"]["launches"], 1);
}

TEST(RunReports, StatsJsonOfATimingRun) {
  const std::string file = (std::filesystem::temp_directory_path() /
                            ("lockstep_timing_stats_" + std::to_string(getpid()) + ".json"))
                               .string();
  const ProgramOutcome r =
      run_lockstep(program("vector_add"), {"--mode", "timing", "--gpu", "teaching", "--stats-json", file});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json stats = nlohmann::json::parse(read_text(file));
  std::filesystem::remove(file);
  EXPECT_EQ(stats["mode"], "timing");
  ASSERT_EQ(stats["launches"].size(), 1u);
  const nlohmann::json& timing = stats["launches"][0]["timing"];
  ASSERT_TRUE(timing.is_object()) << stats.dump(2);
  const uint64_t cycles = timing["cycles"].get<uint64_t>();
  EXPECT_GT(cycles, 0u);
  EXPECT_EQ(stats["totals"]["cycles"], cycles);
  // Every resident warp-cycle has one reason: issued ones are the warp instructions.
  EXPECT_EQ(timing["warp_stalls"]["issued"], stats["launches"][0]["warp_instructions"]);
  EXPECT_EQ(timing["sm_count"], 2);
  // vector_add's kernel registers come from ptxas (the program carries an sm_80 cubin only).
  EXPECT_EQ(timing["theoretical"]["registers_estimated"], false);
  // The summary on stderr has the figures line.
  EXPECT_NE(r.err.find("\nlockstep:   cycles " + std::to_string(cycles) + " IPC "), std::string::npos) << r.err;
}

}  // namespace
}  // namespace lockstep::test

#endif
