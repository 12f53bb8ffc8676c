// The memory hierarchy against published figures: pointer chases timed with clock64 inside the
// kernel, as microbenchmarks time real GPUs (one thread, a dependent load per step, footprints
// that land in L1, L2 and DRAM, and a chase through shared memory), a streaming copy much larger
// than the L2, an L2-resident copy and an L2-resident read, on the h100, h200, a100 and v100
// presets. Published figures:
// ../shared/reference/hardware.md §2b, §3 and §5 (the midpoint of each published range; the
// range is printed beside it).
//
//   build/bench/lockstep_memory_bench [--quick] [--only latency|bandwidth] [--gpu NAME]... [--set key=value]...
#include <chrono>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "chase_order.h"
#include "config/gpu_config.h"
#include "engine/engine.h"
#include "fmt/format.h"

namespace {

using lockstep::Engine;
using lockstep::KernelArg;
using lockstep::bench::chase_order;
using lockstep::bench::shared_chase_chain;

// A published range; lo = 0: nothing published for this part.
struct Range {
  double lo = 0, hi = 0;
  bool known() const { return lo > 0; }
};

struct Published {
  Range shared, l1, l2, dram;  // latencies, cycles
  Range far_l2;                // a chase past the near L2 partition, inside the whole L2
  Range l2_bandwidth;          // TB/s, read (the published benchmarks read and sum)
};

// hardware.md §2b (latencies) and §3 (L2 bandwidth). The H100 latencies of §2b were measured on
// GH200 and H100 SXM; the H100 L2 bandwidth only on the PCIe part (114 SMs, at a clock the
// source does not give), so the h100 preset (SXM5) has no L2 band, and h200 (the SXM5's SMs,
// clock and slices) is held to the H200's.
Published published(const std::string& gpu) {
  // Far L2: the plateaus of RRZE's chase between half the L2 and all of it (§2b: A100 397-412
  // at 26-33 MB, GH200 480-512 at 40-50 MB); V100 has a single L2.
  const Published h100{{29, 29}, {32, 40}, {260, 291}, {570, 700}, {480, 512}, {}};
  if (gpu == "a100") return {{28, 29}, {33, 39}, {200, 210}, {518, 552}, {397, 412}, {5.4, 5.5}};
  if (gpu == "v100") return {{19, 20}, {28, 36}, {193, 221}, {425, 460}, {}, {2.3, 2.45}};
  if (gpu == "h200") return {h100.shared, h100.l1, h100.l2, h100.dram, h100.far_l2, {9.7, 13.5}};
  return h100;
}

struct Bench {
  Engine& engine;
  lockstep::ModuleId module;
  const lockstep::config::GpuConfig& gpu;
  uint64_t result = 0;  // device words: cycles, then two sink words

  uint64_t read_cycles() {
    uint64_t c = 0;
    engine.copy_to_host(&c, result, sizeof c);
    return c;
  }

  // A chain over `lines` distinct 128-byte lines of a `footprint`-byte buffer, in random order
  // (chase_order.h: the same as bench/hw/measure.cu's on hardware).
  uint64_t chase(uint64_t footprint, uint64_t lines, int steps, int warm_steps, uint32_t seed) {
    const uint64_t buffer = engine.malloc(footprint);
    const std::vector<uint64_t> order = chase_order(footprint, lines, seed);
    for (uint64_t i = 0; i < lines; ++i) {
      const uint64_t next = buffer + order[(i + 1) % lines] * 128;
      engine.copy_to_device(buffer + order[i] * 128, &next, sizeof next);
    }
    const uint64_t start = buffer + order[0] * 128;
    engine.launch(module, "pointer_chase", {1, 1, 1}, {1, 1, 1}, 0,
                  {KernelArg::of(start), KernelArg::of(steps), KernelArg::of(warm_steps), KernelArg::of(result),
                   KernelArg::of(result + 8)});
    engine.free(buffer);
    return read_cycles();
  }

  uint64_t shared_chase(int words, int steps) {
    const std::vector<uint32_t> chain = shared_chase_chain(words);
    const uint64_t d = engine.malloc(chain.size() * 4);
    engine.copy_to_device(d, chain.data(), chain.size() * 4);
    engine.launch(module, "shared_chase", {1, 1, 1}, {128, 1, 1}, static_cast<uint32_t>(words * 4),
                  {KernelArg::of(d), KernelArg::of(words), KernelArg::of(steps), KernelArg::of(result),
                   KernelArg::of(result + 8)});
    engine.free(d);
    return read_cycles();
  }

  // Bytes moved per second of modelled time, TB/s: `reps` passes over the buffers in one launch,
  // after `warm` untimed launches of one pass. A copy kernel reads and writes `bytes` per pass,
  // a read kernel (`copies` false) only reads them.
  struct Copy {
    double copy_tbps = 0;  // bytes read (and written, for a copy) by the kernel
    double dram_tbps = 0;  // bytes the DRAM channels moved
  };
  Copy copy_bandwidth(const char* kernel, uint64_t bytes, int warm, int reps, bool copies = true) {
    const uint64_t in = engine.malloc(bytes), out = engine.malloc(bytes);
    const long long n = static_cast<long long>(bytes / 16);
    const uint32_t blocks = gpu.gpu.sm_count * 8;
    const int one = 1;
    for (int i = 0; i < warm; ++i)
      engine.launch(module, kernel, {blocks, 1, 1}, {256, 1, 1}, 0,
                    {KernelArg::of(in), KernelArg::of(out), KernelArg::of(n), KernelArg::of(one)});
    const lockstep::LaunchResult r = engine.launch(module, kernel, {blocks, 1, 1}, {256, 1, 1}, 0,
                                                   {KernelArg::of(in), KernelArg::of(out), KernelArg::of(n), KernelArg::of(reps)});
    engine.free(in);
    engine.free(out);
    const double seconds = static_cast<double>(r.timing->cycles) / (gpu.gpu.core_clock_mhz * 1e6);
    const lockstep::sim::MemoryTiming& m = r.timing->memory;
    fmt::print("  {:<34} L1 hit {:.1f}%, L2 hit {:.1f}%, DRAM bus {:.1f}%, row hits {:.1f}%, {:.2f} transactions/access, "
               "LD/ST throttled {:.1f}% of SM-cycles, loads take {:.0f} cycles, {} cycles\n",
               "", 100 * m.l1.hit_rate(), 100 * m.l2.hit_rate(), 100 * m.dram_utilisation(r.timing->cycles),
               100 * m.row_buffer_hit_rate(), m.transactions_per_access(),
               100.0 * m.throttle_cycles / (double(r.timing->cycles) * gpu.gpu.sm_count), m.average_load_latency(),
               r.timing->cycles);
    return {(copies ? 2.0 : 1.0) * static_cast<double>(bytes) * reps / seconds / 1e12, static_cast<double>(m.dram_bytes) / seconds / 1e12};
  }
};

void row(const std::string& what, Range published, double modelled, const char* unit) {
  if (!published.known()) {
    fmt::print("  {:<34} {:>9.1f} {:<6} no published figure for this part\n", what, modelled, unit);
    return;
  }
  const double mid = (published.lo + published.hi) / 2;
  const double delta = 100.0 * (modelled - mid) / mid;
  const bool within = modelled >= published.lo * 0.9 && modelled <= published.hi * 1.1;
  fmt::print("  {:<34} {:>9.1f} {:<6} published {:>7.1f}-{:<7.1f} {:>+7.1f}%  {}\n", what, modelled, unit,
             published.lo, published.hi, delta, within ? "within 10%" : "OUTSIDE 10%");
}

void run_chases(Bench& b, const Published& p, const lockstep::config::GpuConfig& gpu, bool quick) {
  // Long timed loops: their first pass also misses the (cold) instruction cache.
  row("shared-memory chase (4 KiB)", p.shared, static_cast<double>(b.shared_chase(1024, 4096)), "cycles");
  row("L1 chase (16 KiB)", p.l1, static_cast<double>(b.chase(16 << 10, 128, 4096, 128, 1)), "cycles");
  const uint64_t l2_lines = quick ? 4096 : 16384;  // 512 KiB or 2 MiB: past every L1, inside every L2
  row(fmt::format("L2 chase ({} KiB)", l2_lines * 128 / 1024), p.l2,
      static_cast<double>(b.chase(l2_lines * 128, l2_lines, 2048, static_cast<int>(l2_lines), 2)), "cycles");
  if (gpu.l2.sides > 1) {
    // Three quarters of the L2: past the near half, inside the whole. One pass warms it (the
    // near half keeps the last lines, the far half what the near one replaced); the timed
    // steps then find each line in the far half.
    const uint64_t far_lines = uint64_t{gpu.gpu.l2_kib} * 1024 / 128 * 3 / 4;
    row(fmt::format("far-L2 chase ({} MiB)", far_lines * 128 >> 20), p.far_l2,
        static_cast<double>(b.chase(far_lines * 128, far_lines, quick ? 512 : 2048, static_cast<int>(far_lines), 4)),
        "cycles");
  }
  row("DRAM chase (128 MiB, cold lines)", p.dram,
      static_cast<double>(b.chase(128ull << 20, quick ? 512 : 2048, quick ? 512 : 2048, 0, 3)), "cycles");
}

void run_copies(Bench& b, const Published& p, const lockstep::config::GpuConfig& gpu, bool quick) {
  const double peak = 2.0 * gpu.dram.bus_bytes * gpu.dram.channels * gpu.gpu.memory_clock_mhz * 1e6 / 1e12;
  const uint64_t big = quick ? (64ull << 20) : std::max<uint64_t>(128ull << 20, uint64_t{gpu.gpu.l2_kib} << 12);
  const Bench::Copy stream = b.copy_bandwidth("copy16", big, 0, 1);
  fmt::print("  {:<34} {:>9.2f} TB/s   copied; the DRAM moved {:.2f} TB/s, {:.0f}% of the preset's peak {:.2f} TB/s "
             "(target 80-95%)\n",
             fmt::format("streaming copy ({} MiB each way)", big >> 20), stream.copy_tbps, stream.dram_tbps,
             100 * stream.dram_tbps / peak, peak);
  // The L2 bands of hardware.md §3 come from kernels that read and sum; the copy (bytes read
  // plus written) is shown for comparison with bench/hw's measurement of this kernel on an H200.
  // Enough passes that the launch's ramp and tail are a small part of the time.
  const uint64_t resident = uint64_t{gpu.gpu.l2_kib} * 1024 / 8;  // both buffers fill a quarter of the L2
  const double copy = b.copy_bandwidth("copy16_cg", resident, 1, 4).copy_tbps;
  fmt::print("  {:<34} {:>9.1f} TB/s   read plus written (no published copy figure)\n",
             fmt::format("L2-resident copy, ld.cg ({} KiB)", resident >> 10), copy);
  row(fmt::format("L2-resident read, ld.cg ({} KiB)", resident >> 10), p.l2_bandwidth,
      b.copy_bandwidth("read16_cg", resident, 1, 32, false).copy_tbps, "TB/s");
}

// Which half of the bench runs (--only): the chases, the copies, or both.
struct Parts {
  bool latency = true, bandwidth = true;
};

void run_preset(const std::string& name, bool quick, Parts parts, const std::vector<std::string>& overrides) {
  lockstep::EngineOptions options;
  options.timing =
      std::make_shared<const lockstep::config::GpuConfig>(lockstep::config::load_gpu_config(name, overrides));
  options.warp_size = options.timing->sm.warp_size;
  Engine engine(options);
  const lockstep::config::GpuConfig& gpu = *options.timing;
  Bench b{engine, engine.load_ptx_file(LOCKSTEP_MEMORY_PTX), gpu};
  b.result = engine.malloc(64);
  const Published p = published(name);
  fmt::print("{} ({} SMs at {} MHz, {} KiB L2, {} DRAM channels)\n", name, gpu.gpu.sm_count, gpu.gpu.core_clock_mhz,
             gpu.gpu.l2_kib, gpu.dram.channels);
  const auto started = std::chrono::steady_clock::now();
  if (parts.latency) run_chases(b, p, gpu, quick);
  if (parts.bandwidth) run_copies(b, p, gpu, quick);
  fmt::print("  ({:.1f} s of host time)\n\n",
             std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  Parts parts;
  std::vector<std::string> gpus, overrides;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) quick = true;
    if (std::strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
      const std::string only = argv[++i];
      if (only != "latency" && only != "bandwidth") {
        fmt::print(stderr, "bad value '{}' for --only: expected latency or bandwidth\n", only);
        return 2;
      }
      parts = {only == "latency", only == "bandwidth"};
    }
    if (std::strcmp(argv[i], "--set") == 0 && i + 1 < argc) overrides.push_back(argv[++i]);
    if (std::strcmp(argv[i], "--gpu") == 0 && i + 1 < argc) gpus.push_back(argv[++i]);
  }
  if (gpus.empty()) gpus = {"h100", "h200", "a100", "v100"};
  fmt::print("memory hierarchy against published figures (hardware.md §2b, §3); latencies in SM cycles\n\n");
  for (const std::string& g : gpus) run_preset(g, quick, parts, overrides);
}
