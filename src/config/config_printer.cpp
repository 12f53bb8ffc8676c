#include "config/config_printer.h"

#include "config/option.h"
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
    out += fmt::format("{} = {}", spec.name(), format_option_value(values.get(spec.key)));
    // A key that picks among names says which it accepts, in the order the option (for a policy
    // kind, its registry) lists them; a TOML comment, so the text still parses back.
    if (spec.type == OptionType::Enum && spec.choices.size() > 1)
      out += fmt::format("  # {}", accepted_text(spec));
    out += "\n";
  }
  return out;
}

}  // namespace lockstep::config
