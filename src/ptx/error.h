#pragma once
// A located diagnostic for PTX input. Every error the front end, the lowering and the
// binder report about a PTX module is one of these, so users always get file:line:col.
#include <cstdint>
#include <stdexcept>
#include <string>

namespace lockstep::ptx {

struct SourceLoc {
  uint32_t line = 0;  // 1-based; 0 = unknown
  uint32_t col = 0;   // 1-based; 0 = unknown
};

class Error : public std::runtime_error {
 public:
  Error(std::string file, SourceLoc loc, std::string message)
      : std::runtime_error(file + ":" + std::to_string(loc.line) + ":" + std::to_string(loc.col) +
                           ": " + message),
        file_(std::move(file)),
        loc_(loc),
        message_(std::move(message)) {}

  const std::string& file() const { return file_; }
  SourceLoc loc() const { return loc_; }
  // The message without the location prefix.
  const std::string& message() const { return message_; }

 private:
  std::string file_;
  SourceLoc loc_;
  std::string message_;
};

}  // namespace lockstep::ptx
