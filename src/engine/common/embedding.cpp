// embedding.cpp: the shared embedding scheme (embedding.h). Its cos is
// random.h's portable one, so native and wasm builds agree bit for bit.
#include "embedding.h"

#include <cmath>
#include <cstring>

#include "random.h"

namespace headroom::embed {
namespace {
constexpr double kPi = 3.14159265358979323846;
}  // namespace

//-----------------------------------------------------------------------------
// the embedding
//-----------------------------------------------------------------------------
void position_code(int i, float* out) {
  const double s = 1.0 / std::sqrt(static_cast<double>(kFreqs));
  for (int k = 0; k < kFreqs; ++k) {
    // the angle in float, as the position code has always used; in turns for cos2pi
    const double turns = static_cast<double>(kFreq[k] * static_cast<float>(i)) / (2.0 * kPi);
    out[2 * k] = static_cast<float>(s * prng::cos2pi(turns));
    out[2 * k + 1] = static_cast<float>(s * prng::sin2pi(turns));
  }
}

void embed_token(float* row, const float* content, unsigned role_bits, int position,
                 const int (&pointers)[kPointers]) {
  std::memset(row, 0, sizeof(float) * kDModel);
  std::memcpy(row + kContent, content, sizeof(float) * kContentDim);
  for (int b = 0; b < kRolesDim - 1; ++b)
    if (role_bits & (1u << b)) row[kRoles + b] = 1.f;
  row[kBias] = 1.f;
  position_code(position, row + kPos);
  for (int r = 0; r < kPointers; ++r) position_code(pointers[r], row + kPointerColumn[r]);
}

}  // namespace headroom::embed
