#include "mem/dram/dram_options.h"

#include <fmt/format.h>

#include <bit>
#include <stdexcept>
#include <string_view>

namespace lockstep::mem {
namespace {

void require(bool ok, std::string_view field, std::string_view rule) {
  if (!ok) throw std::invalid_argument(fmt::format("dram option {} must be {}", field, rule));
}

}  // namespace

void validate_dram_options(const DramOptions& options) {
  require(options.bus_bytes >= 1, "bus_bytes", "at least 1");
  require(options.transfers_per_clock >= 1, "transfers_per_clock", "at least 1");
  require(std::has_single_bit(options.banks), "banks", "a power of two");
  require(std::has_single_bit(options.row_bytes), "row_bytes", "a power of two");
  require(options.read_queue >= 1, "read_queue", "at least 1");
  require(options.write_queue >= 1, "write_queue", "at least 1");
  require(options.write_high_watermark >= 1 && options.write_high_watermark <= options.write_queue,
          "write_high_watermark", "from 1 to write_queue");
  require(options.write_low_watermark < options.write_high_watermark, "write_low_watermark",
          "below write_high_watermark");
}

}  // namespace lockstep::mem
