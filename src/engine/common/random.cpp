// random.cpp: see random.h. Everything here uses IEEE-exact operations only
// (+ - * /, sqrt, frexp, floor), so native and wasm builds agree bit for bit.
#include "random.h"

#include <cmath>

namespace headroom::prng {

//-----------------------------------------------------------------------------
// portable cos / log
//-----------------------------------------------------------------------------
namespace {
constexpr double kPi = 3.14159265358979323846;
constexpr double kLn2 = 0.693147180559945309417;

// cos(t) for t in [0, pi/2]: Taylor series to t^26 (remainder < 1e-21).
double cos_reduced(double t) {
  const double t2 = t * t;
  double sum = 1.0, term = 1.0;
  for (int n = 1; n <= 13; ++n) {
    term *= -t2 / static_cast<double>((2 * n - 1) * (2 * n));
    sum += term;
  }
  return sum;
}
}  // namespace

double cos2pi(double u) {
  u -= std::floor(u + 0.5);  // u in [-0.5, 0.5): cos(2 pi u) is unchanged
  double t = 2.0 * kPi * std::fabs(u);  // [0, pi]
  if (t > 0.5 * kPi) return -cos_reduced(kPi - t);
  return cos_reduced(t);
}

double sin2pi(double u) { return cos2pi(u - 0.25); }

double log_portable(double x) {
  int e = 0;
  double m = std::frexp(x, &e);  // x = m 2^e, m in [0.5, 1)
  if (m < 0.70710678118654752440) {
    m *= 2.0;
    e -= 1;
  }
  // log m = 2 atanh(s), s = (m - 1) / (m + 1), |s| < 0.172: 13 odd terms.
  const double s = (m - 1.0) / (m + 1.0), s2 = s * s;
  double sum = 0.0, power = s;
  for (int n = 0; n < 13; ++n) {
    sum += power / static_cast<double>(2 * n + 1);
    power *= s2;
  }
  return 2.0 * sum + static_cast<double>(e) * kLn2;
}

//-----------------------------------------------------------------------------
// random numbers
//-----------------------------------------------------------------------------
uint64_t Rng::next() {
  uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

double Rng::uniform() { return (static_cast<double>(next() >> 11) + 0.5) * (1.0 / 9007199254740992.0); }

int Rng::below(int n) {
  // high 32 bits of (32 random bits) * n
  const uint64_t r = next() >> 32;
  return static_cast<int>((r * static_cast<uint64_t>(n)) >> 32);
}

float Rng::gauss() {
  const double u = uniform(), v = uniform();
  return static_cast<float>(std::sqrt(-2.0 * log_portable(u)) * cos2pi(v));
}

uint64_t mix_seed(uint64_t seed, uint64_t a, uint64_t b) {
  Rng r{seed ^ (a * 0xD1B54A32D192ED03ull) ^ (b * 0x8CB92BA72F3D8DD7ull)};
  r.next();
  return r.next();
}

}  // namespace headroom::prng
