#pragma once
// Helpers for the memory family's tests: wrap a kernel body into a module, load it, and catch
// the located error a bad form produces at load time.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "common/harness.h"
#include "engine/engine.h"
#include "ptx/error.h"

namespace lockstep::test::memory {

// A module header plus `body` (kernels, globals, functions).
inline std::string module(const std::string& body, const std::string& target = "sm_80") {
  return ".version 9.0\n.target " + target + "\n.address_size 64\n" + body;
}

// The message (without location) of the ptx::Error thrown while loading, or "" if none.
inline std::string load_error(const std::string& text) {
  Engine engine;
  try {
    engine.load_ptx(text, "test.ptx");
  } catch (const ptx::Error& e) {
    return e.message();
  }
  return "";
}

inline uint32_t f32_bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

}  // namespace lockstep::test::memory
