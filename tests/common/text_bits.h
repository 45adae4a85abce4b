// text_bits.h: two string helpers the app suites share, written once so
// every suite file can be compiled into one unity source with the others.
//
// Does: has(s, part) says whether `part` occurs in `s`; bytes(s) views a
// string's bytes as uint8_t (the wire decoders' input).
// Does not: copy, or own what it points at.
#pragma once
#include <cstdint>
#include <string>

namespace headroom::testing {

inline bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }
inline const uint8_t* bytes(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }

}  // namespace headroom::testing
