// fingerprint.h: a 64-bit fingerprint of bytes, for "has this changed since
// last time?" (web_main.cpp's frames, heatmap_renderer.cpp's textures).
//
// Does: mix any bytes in order into one value; equal inputs give equal values.
// Does not: resist collisions made on purpose (it is not a cryptographic
// hash), or say anything about inputs that differ only where nobody mixed.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace headroom::platform {

struct Fingerprint {
  uint64_t value = 0x9E3779B97F4A7C15ull;

  void mix(const void* p, size_t n) {
    const unsigned char* b = static_cast<const unsigned char*>(p);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
      uint64_t w;
      std::memcpy(&w, b + i, 8);
      value = (value ^ w) * 0x100000001B3ull;
      value ^= value >> 29;
    }
    for (; i < n; ++i) value = (value ^ b[i]) * 0x100000001B3ull;
  }
  template <typename T>
  void mix(const T& v) { mix(&v, sizeof v); }
};

}  // namespace headroom::platform
