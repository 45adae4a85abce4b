// random.h: portable random numbers and the maths they need, the same bit
// for bit on every compiler and C library (native glibc and Emscripten's libc
// alike). Shared by the lesson (content vectors) and training (examples,
// initial weights).
//
// Does: splitmix64, a uniform in (0, 1), integers below n, and a Gaussian by
// Box-Muller whose log and cos are evaluated here with + - * / and sqrt only
// (IEEE exact), never the C library's (their last bits differ between libms)
// nor std::*_distribution (unspecified algorithms); stream seeds from a seed.
// Does not: know what the numbers are for.
#pragma once
#include <cstdint>

namespace headroom::prng {

// cos(2 pi u) and sin(2 pi u) for any finite u, from + - * / only (range
// reduction to [0, pi/2] and a Taylor series to 1e-19): bit-identical on
// every IEEE-754 platform, within 1e-15 of the C library.
double cos2pi(double u);
double sin2pi(double u);
// Natural log of x > 0 from frexp and an atanh series: bit-identical
// everywhere, within 1e-15 relative of std::log.
double log_portable(double x);

// splitmix64 (Steele, Lea, Flood 2014): 64 random bits per call from a
// 64-bit state; any seed, including 0, is fine.
struct Rng {
  uint64_t s;
  uint64_t next();
  // Uniform in (0, 1): 53 random bits, never exactly 0 or 1.
  double uniform();
  // Uniform integer in [0, n), n >= 1 (Lemire's multiply-shift, 64 bits:
  // bias below 2^-32 for the small n used here).
  int below(int n);
  // Standard normal, Box-Muller with log_portable and cos2pi.
  float gauss();
};

// A seed for stream `a` / `b` of `seed`: splitmix64's finaliser applied to a
// combination of the three, so nearby seeds and streams give unrelated numbers.
uint64_t mix_seed(uint64_t seed, uint64_t a, uint64_t b = 0);

}  // namespace headroom::prng
