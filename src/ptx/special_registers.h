#pragma once
// The predefined names of PTX.
#include <string_view>

namespace lockstep::ptx {

// True for the predefined special registers (%tid, %envreg3, %clock64, %cluster_ctaid, ...),
// given without a component (%tid, not %tid.x).
bool is_special_register(std::string_view name);

}  // namespace lockstep::ptx
