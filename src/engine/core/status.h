// status.h: the engine's error value.
//
// Does: carry "ok" or a human-readable reason a request was refused.
// Does not: throw. The web build runs without C++ exceptions, so every call
// that can refuse input returns a Status and leaves its object unchanged.
#pragma once
#include <string>
#include <utility>

namespace headroom {

struct Status {
  std::string error;  // empty when ok

  static Status ok() { return {}; }
  static Status fail(std::string why) { return Status{std::move(why)}; }
  bool is_ok() const { return error.empty(); }
  explicit operator bool() const { return is_ok(); }
};

}  // namespace headroom
