#include "config/config_printer.h"

#include "fmt/format.h"
#include "fmt/ranges.h"

namespace lockstep::config {

std::string format_config(const ConfigValues& values, std::string_view preset,
                          const std::vector<std::string>& overrides) {
  std::string out = fmt::format("# lockstep configuration: preset {}", preset);
  if (!overrides.empty()) out += fmt::format(", overrides {}", fmt::join(overrides, " "));
  out += "\n";
  std::string_view table;
  for (const OptionSpec& spec : option_specs()) {
    if (spec.table() != table) {
      table = spec.table();
      out += fmt::format("\n[{}]\n", table);
    }
    out += fmt::format("{} = {}\n", spec.name(), format_option_value(values.get(spec.key)));
  }
  return out;
}

}  // namespace lockstep::config
