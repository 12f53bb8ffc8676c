// The stats JSON document: exact text for a small run (the schema in docs/stats-json.md).
#include <gtest/gtest.h>

#include "stats/stats_json.h"

namespace lockstep::stats {
namespace {

RunStats two_kernels() {
  RunStats s;
  // Divergence counts: {divergent branches, reconvergences, barrier waits, yields, formed warps,
  // formed threads}; "sum" has none.
  s.add(LaunchRecord{"scale", {4, 1, 1}, {256, 1, 1}, 0, 32, 100, 3000, "", std::nullopt, {4, 3, 2, 1}});
  s.add(LaunchRecord{"sum", {1, 1, 1}, {64, 2, 1}, 512, 32, 10, 160, "", std::nullopt});
  s.add(LaunchRecord{"scale", {2, 1, 1}, {256, 1, 1}, 0, 32, 50, 1600, "trap in kernel 'scale'",
                     std::nullopt, {10, 10, 0, 0, 6, 20}});
  return s;
}

TEST(StatsJson, DocumentForThreeLaunchesOfTwoKernels) {
  RunContext c;
  c.gpu_preset = "h100";
  c.gpu_name = "NVIDIA H100 (lockstep)";
  c.program = {"./app", "-n", "4"};
  const std::string expected = R"json({
  "schema": "lockstep-stats",
  "version": 5,
  "mode": "functional",
  "program": [
    "./app",
    "-n",
    "4"
  ],
  "gpu": {
    "preset": "h100",
    "name": "NVIDIA H100 (lockstep)",
    "warp_size": 32
  },
  "launches": [
    {
      "index": 0,
      "kernel": "scale",
      "grid": [
        4,
        1,
        1
      ],
      "block": [
        256,
        1,
        1
      ],
      "dynamic_shared_bytes": 0,
      "warp_instructions": 100,
      "thread_instructions": 3000,
      "simt_efficiency": 0.9375,
      "average_active_lanes": 30.0,
      "divergence": {
        "divergent_branches": 4,
        "reconvergences": 3,
        "barrier_waits": 2,
        "yields": 1,
        "formed_warps": 0,
        "formed_threads": 0
      },
      "fault": null,
      "timing": null
    },
    {
      "index": 1,
      "kernel": "sum",
      "grid": [
        1,
        1,
        1
      ],
      "block": [
        64,
        2,
        1
      ],
      "dynamic_shared_bytes": 512,
      "warp_instructions": 10,
      "thread_instructions": 160,
      "simt_efficiency": 0.5,
      "average_active_lanes": 16.0,
      "divergence": {
        "divergent_branches": 0,
        "reconvergences": 0,
        "barrier_waits": 0,
        "yields": 0,
        "formed_warps": 0,
        "formed_threads": 0
      },
      "fault": null,
      "timing": null
    },
    {
      "index": 2,
      "kernel": "scale",
      "grid": [
        2,
        1,
        1
      ],
      "block": [
        256,
        1,
        1
      ],
      "dynamic_shared_bytes": 0,
      "warp_instructions": 50,
      "thread_instructions": 1600,
      "simt_efficiency": 1.0,
      "average_active_lanes": 32.0,
      "divergence": {
        "divergent_branches": 10,
        "reconvergences": 10,
        "barrier_waits": 0,
        "yields": 0,
        "formed_warps": 6,
        "formed_threads": 20
      },
      "fault": "trap in kernel 'scale'",
      "timing": null
    }
  ],
  "kernels": [
    {
      "kernel": "scale",
      "launches": 2,
      "warp_instructions": 150,
      "thread_instructions": 4600,
      "simt_efficiency": 0.9583333333333334,
      "average_active_lanes": 30.666666666666668,
      "divergence": {
        "divergent_branches": 14,
        "reconvergences": 13,
        "barrier_waits": 2,
        "yields": 1,
        "formed_warps": 6,
        "formed_threads": 20
      },
      "cycles": null
    },
    {
      "kernel": "sum",
      "launches": 1,
      "warp_instructions": 10,
      "thread_instructions": 160,
      "simt_efficiency": 0.5,
      "average_active_lanes": 16.0,
      "divergence": {
        "divergent_branches": 0,
        "reconvergences": 0,
        "barrier_waits": 0,
        "yields": 0,
        "formed_warps": 0,
        "formed_threads": 0
      },
      "cycles": null
    }
  ],
  "totals": {
    "launches": 3,
    "warp_instructions": 160,
    "thread_instructions": 4760,
    "simt_efficiency": 0.9296875,
    "average_active_lanes": 29.75,
    "divergence": {
      "divergent_branches": 14,
      "reconvergences": 13,
      "barrier_waits": 2,
      "yields": 1,
      "formed_warps": 6,
      "formed_threads": 20
    },
    "cycles": null
  }
}
)json";
  EXPECT_EQ(stats_json(two_kernels(), c), expected);
}

TEST(StatsJson, EmptyRunHasEmptyListsFullEfficiencyNoLanesNoDivergenceAndNoCycles) {
  const std::string json = stats_json(RunStats{}, RunContext{});
  EXPECT_NE(json.find("\"launches\": [],"), std::string::npos) << json;
  EXPECT_NE(json.find("\"totals\": {\n    \"launches\": 0,\n    \"warp_instructions\": 0,\n    "
                      "\"thread_instructions\": 0,\n    \"simt_efficiency\": 1.0,\n    "
                      "\"average_active_lanes\": 0.0,\n    \"divergence\": {\n      \"divergent_branches\": 0,\n      "
                      "\"reconvergences\": 0,\n      \"barrier_waits\": 0,\n      \"yields\": 0,\n      "
                      "\"formed_warps\": 0,\n      \"formed_threads\": 0\n    },\n    "
                      "\"cycles\": null\n  }"),
            std::string::npos)
      << json;
}

// A launch with divergence counts gets a line of them; "sum" (all zero) does not. Formed warps
// appear on the line only when some were formed (the second "scale").
TEST(RunStats, SummaryHasOneLinePerLaunchAndOneForDivergence) {
  EXPECT_EQ(two_kernels().summary(),
            "lockstep: kernel scale grid (4,1,1) block (256,1,1) 100 warp instructions 3000 thread instructions\n"
            "lockstep:   divergence: 4 divergent branches, 3 reconvergences, 2 barrier waits, 1 yields, 30.00 "
            "active lanes per warp instruction\n"
            "lockstep: kernel sum grid (1,1,1) block (64,2,1) 10 warp instructions 160 thread instructions\n"
            "lockstep: kernel scale grid (2,1,1) block (256,1,1) 50 warp instructions 1600 thread instructions\n"
            "lockstep:   divergence: 10 divergent branches, 10 reconvergences, 0 barrier waits, 0 yields, "
            "6 formed warps (20 threads), 32.00 active lanes per warp instruction\n");
}

}  // namespace
}  // namespace lockstep::stats
