// libFuzzer entry point for the PTX front end: any byte string must either parse and check
// or be rejected with ptx::Error. Anything else (a crash, a sanitizer report, a leak, another
// exception type, a hang) is a bug the fuzzer reports.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ptx/check.h"
#include "ptx/parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    lockstep::ptx::Module module = lockstep::ptx::parse(text, "fuzz.ptx");
    lockstep::ptx::check(module);
  } catch (const lockstep::ptx::Error&) {
    // Rejecting malformed input with a located diagnostic is the expected outcome.
  }
  return 0;
}
