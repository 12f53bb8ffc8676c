#pragma once
// Every configuration mistake (unknown preset or key, bad value, inconsistent values) is a
// ConfigError whose message is the complete text shown to the user (without a "lockstep: "
// prefix, which the caller adds).
#include <stdexcept>

namespace lockstep::config {

class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace lockstep::config
