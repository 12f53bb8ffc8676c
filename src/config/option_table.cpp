// The declaration of every configuration key: type, accepted values, description. Presets must
// give every key; `--set` may override any of them. Ranges are sanity bounds (what the model can
// represent), not claims about real hardware.
#include "config/option.h"
#include "config/option_builders.h"
#include "config/policy_options.h"
#include "func/divergence/divergence_unit.h"
#include "mem/replacement/replacement_policy.h"
#include "sim/cta_scheduler/cta_scheduler.h"
#include "sim/scoreboard/scoreboard.h"
#include "sim/warp_scheduler/warp_scheduler.h"

namespace lockstep::config {

namespace {
std::vector<OptionSpec> build_specs() {
  std::vector<OptionSpec> s;
  s.push_back(text("gpu.name", "the product name cudaGetDeviceProperties reports (after \"lockstep \")"));
  s.push_back(integer("gpu.compute_capability", 10, 129, "major * 10 + minor, e.g. 90 for 9.0"));
  s.push_back(integer("gpu.sm_count", 1, 1024, "streaming multiprocessors"));
  s.push_back(integer("gpu.core_clock_mhz", 1, 10000, "SM clock, MHz"));
  s.push_back(integer("gpu.memory_clock_mhz", 1, 20000, "memory clock, MHz"));
  s.push_back(integer("gpu.memory_bus_bits", 8, 16384, "memory bus width, bits"));
  s.push_back(number("gpu.global_memory_gib", 0.0625, 4096, "device memory, GiB"));
  s.push_back(integer("gpu.l2_kib", 0, 1048576, "L2 cache, KiB"));
  s.push_back(integer("gpu.pci_device_id", 0, 65535, "the product's PCI device id (vendor 0x10de), as the runtime reports it"));
  s.push_back(integer("gpu.async_engines", 0, 16, "copy engines (cudaDevAttrAsyncEngineCount)"));
  s.push_back(integer("gpu.host_link_mb_s", 1, 1000000,
                      "host link bandwidth per direction, MB/s (what copies to and from the host take)"));
  s.push_back(one_of("gpu.ecc_enabled", {0, 1}, "ECC on device memory is enabled (cudaDevAttrEccEnabled)"));
  s.push_back(integer("gpu.fp32_to_fp64_ratio", 1, 128, "FP32 to FP64 throughput ratio (cudaDevAttrSingleToDoublePrecisionPerfRatio)"));

  s.push_back(one_of("sm.warp_size", {1, 2, 4, 8, 16, 32, 64}, "threads per warp"));
  s.push_back(integer("sm.max_threads", 1, 65536, "resident threads per SM"));
  s.push_back(integer("sm.max_warps", 1, 65536,
                      "warp slots per SM (when only sm.warp_size is overridden it follows "
                      "sm.max_threads / sm.warp_size)"));
  s.push_back(integer("sm.max_blocks", 1, 1024, "resident blocks per SM"));
  s.push_back(integer("sm.registers", 1, 1 << 22, "32-bit registers per SM"));
  s.push_back(integer("sm.register_alloc_unit", 1, 65536, "registers are allocated to a warp in multiples of this"));
  s.push_back(choice("sm.register_alloc_granularity", {"warp"}, "registers are allocated per warp"));
  s.push_back(integer("sm.max_registers_per_thread", 1, 1024, "registers one thread may use"));
  s.push_back(integer("sm.max_registers_per_block", 1, 1 << 22, "registers one block may use"));
  s.push_back(integer("sm.shared_kib", 0, 4096, "shared memory per SM usable by blocks, KiB"));
  s.push_back(integer("sm.shared_per_block_kib", 0, 4096, "shared memory per block without opt-in, KiB"));
  s.push_back(integer("sm.shared_per_block_optin_kib", 0, 4096,
                      "shared memory per block with cudaFuncAttributeMaxDynamicSharedMemorySize, KiB"));
  s.push_back(integer("sm.shared_alloc_unit", 1, 65536, "shared memory is allocated to a block in multiples of this, bytes"));
  s.push_back(integer("sm.shared_reserved_per_block", 0, 65536, "shared memory the system reserves per block, bytes"));
  s.push_back(integers("sm.shared_carveouts_kib", 0, 4096,
                       "legal shared-memory sizes of the L1/shared split, KiB, rising to sm.shared_kib"));
  s.push_back(integer("sm.max_threads_per_block", 1, 65536, "threads per block"));
  s.push_back(integer("sm.schedulers", 1, 64, "warp schedulers per SM (each owns a register-file partition)"));
  s.push_back(integer("sm.issue_width", 1, 8, "instructions each scheduler may issue per cycle"));
  // The policy kinds' keys: the registered names, then the parameters the policies declare
  // (sm.yield_after, sm.large_warp_size, timing.fetch_group_size, timing.rid_entries) in their own files.
  add_policy_kind(s, "sm.divergence", func::divergence_units(),
                  "divergent control flow: the IPDOM SIMT stack, branch barriers with yield "
                  "(independent thread scheduling, cc 7.0 and later), thread frontiers (lowest PC "
                  "first, early reconvergence), or "
                  "warps formed across a block's warps: dwf, dynamic warp formation by PC, tbc, "
                  "thread block compaction, large-warp, large warps of sm.large_warp_size warps; "
                  "or two paths issued together: sbi, an if/else's paths "
                  "within a warp, swi, sbi that also fills idle lanes with another warp's path");

  add_unit(s, "pipeline.int.latency", "pipeline.int.initiation_interval", "pipeline.int.lanes");
  add_unit(s, "pipeline.fp32.latency", "pipeline.fp32.initiation_interval", "pipeline.fp32.lanes");
  add_unit(s, "pipeline.fp64.latency", "pipeline.fp64.initiation_interval", "pipeline.fp64.lanes");
  add_unit(s, "pipeline.sfu.latency", "pipeline.sfu.initiation_interval", "pipeline.sfu.lanes");
  add_unit(s, "pipeline.tensor.latency", "pipeline.tensor.initiation_interval", "pipeline.tensor.lanes");
  add_unit(s, "pipeline.ldst.latency", "pipeline.ldst.initiation_interval", "pipeline.ldst.lanes");

  add_memory_options(s);

  s.push_back(integer("icache.sets", 1, 65536, "instruction-cache sets"));
  s.push_back(integer("icache.ways", 1, 64, "instruction-cache ways"));
  s.push_back(one_of("icache.line_bytes", {32, 64, 128, 256}, "instruction-cache line, bytes"));
  s.push_back(integer("icache.miss_latency", 1, 100000, "cycles an instruction-cache miss stalls the warp's fetch"));
  // The caches' replacement registry (mem/replacement/), the same policies as l1.replacement.
  add_policy_kind(s, "icache.replacement", mem::replacement_policies(), "instruction-cache victim choice");

  // Which unit runs an instruction: the forms listed here first, then an f64 type -> fp64, a
  // float type -> fp32, anything else -> int. make_gpu_config checks the spelling of each form
  // and that no form is listed for two units.
  s.push_back(text_or_empty("opcodes.sfu", "PTX forms (opcode or opcode.modifier, space-separated) run on the SFU"));
  s.push_back(text_or_empty("opcodes.tensor", "PTX forms run on the tensor unit"));
  s.push_back(text_or_empty("opcodes.ldst", "PTX forms run on the load/store unit"));
  s.push_back(text_or_empty("opcodes.fp64", "PTX forms run on the fp64 unit besides those with an f64 type"));
  s.push_back(text_or_empty("opcodes.fp32", "PTX forms run on the fp32 unit besides those with a float type"));
  s.push_back(text_or_empty("opcodes.int", "PTX forms run on the int unit whatever their type"));

  add_policy_kind(s, "timing.warp_scheduler", sim::warp_schedulers(),
                  "issue order: loose round robin, greedy-then-oldest, or two-level round robin over fetch groups");
  add_policy_kind(s, "timing.scoreboard", sim::scoreboard_kinds(),
                  "dependency check: one bit per register per warp, or a table of pending destination registers");
  s.push_back(integer("timing.ibuffer_entries", 1, 64, "decoded instructions the I-buffer holds per warp"));
  s.push_back(integer("timing.fetch_width", 1, 16, "instructions one fetch decodes into the I-buffer"));
  s.push_back(integer("timing.collector_units", 1, 64,
                      "operand collector units per scheduler (instructions gathering operands at once)"));
  s.push_back(integer("timing.register_banks", 1, 64,
                      "register-file banks per scheduler"));
  s.push_back(integer("timing.bank_reads_per_cycle", 1, 4,
                      "32-bit operand reads one register bank serves per cycle (2 for a 64-bit-wide bank)"));
  s.push_back(choice("timing.bank_mapping", {"warp-offset", "register"},
                     "the bank of a register: warp-offset (register + the warp's slot) % banks, so warps reading "
                     "the same register use different banks; register: register % banks"));
  s.push_back(integer("timing.writeback_ports", 1, 64, "results written to the register file per scheduler per cycle"));
  s.push_back(choice("timing.immediate_moves", {"fold", "issue"},
                     "a mov of a constant into a register of up to 32 bits: fold costs it nothing, as ptxas "
                     "propagates the constant into its users; issue runs it like any instruction"));
  s.push_back(integer("timing.simt_push_cycles", 0, 1000,
                      "cycles a divergent branch adds for pushing onto the SIMT stack"));
  s.push_back(integer("timing.simt_pop_cycles", 0, 1000, "cycles a reconvergence adds for popping the SIMT stack"));
  add_policy_kind(s, "timing.cta_scheduler", sim::cta_schedulers(), "how blocks are placed on SMs");
  s.push_back(integer("timing.block_launch_cycles", 0, 100000,
                      "cycles from placing a block on an SM to its warps' first fetch"));
  s.push_back(choice("timing.kernel_overlap", {"serial", "tail"},
                     "serial: a launch starts when the one before has finished on every SM; tail: its blocks "
                     "may start on an SM as soon as that SM finished its blocks of the launch before"));

  // The deadlock watchdog of both modes (docs/functional-model.md, docs/timing-model.md: "No
  // silent hang"). A hard limit of 0 turns it off; the repeated-state check always runs.
  s.push_back(integer("run.watchdog_interval_cycles", 1, int64_t{1} << 40,
                      "timing mode: cycles without a finished block before the deadlock watchdog first hashes the "
                      "launch's state (a state seen twice is a deadlock); the interval then doubles, up to 64 times "
                      "this"));
  s.push_back(integer("run.watchdog_limit_cycles", 0, int64_t{1} << 62,
                      "timing mode: cycles without a finished block after which the launch fails as a deadlock "
                      "even when its state never repeats (a spin that counts); 0: no limit"));
  s.push_back(integer("run.watchdog_interval_instructions", 1, int64_t{1} << 40,
                      "functional mode: warp instructions without a finished block between two hashes of the "
                      "launch's state by the deadlock watchdog"));
  s.push_back(integer("run.watchdog_limit_instructions", 0, int64_t{1} << 62,
                      "functional mode: warp instructions the resident blocks run without one finishing, after "
                      "which the launch fails as a deadlock even when its state never repeats; 0: no limit"));
  return s;
}

}  // namespace

const std::vector<OptionSpec>& option_specs() {
  static const std::vector<OptionSpec> specs = build_specs();  // immutable after first use
  return specs;
}

}  // namespace lockstep::config
