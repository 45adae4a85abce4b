// kernel_tests.cpp: every kernel variant in the registry against its scalar
// twin, and the kernel backends of forward() against the naive reference.
//
// Shapes follow XNNPACK's leftover tests: exactly one tile, one below, one
// above, multiples, and 1; for the forward pass L = 1, odd D, H = D.
// Tolerances are named (reference.h); a failing CHECK prints the max
// difference it measured and the variant's name.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "engine/core/kernels/dispatch.h"
#include "engine/core/kernels/kernels.h"
#include "reference.h"

using namespace headroom;
namespace hk = headroom::kernels;

namespace {


// Runs variant v on A (M x K), B (K x N) stored with padded leading
// dimensions (so the kernels must honour lda/ldb/ldc), returns C.
Mat run_gemm(const hk::GemmVariant& v, const Mat& a, const Mat& b) {
  const int M = int(a.rows()), K = int(a.cols()), N = int(b.cols());
  const int lda = K + 3, ldb = N + 5, ldc = N + 7;
  std::vector<float> A(size_t(M) * lda, NAN), B(size_t(K) * ldb + 1, NAN), C(size_t(M) * ldc, NAN);
  for (int i = 0; i < M; ++i)
    for (int p = 0; p < K; ++p) A[size_t(i) * lda + p] = a(i, p);
  for (int p = 0; p < K; ++p)
    for (int j = 0; j < N; ++j) B[size_t(p) * ldb + j] = b(p, j);
  std::vector<float> work(hk::gemm_workspace_floats(v, K));
  hk::gemm_f32(v, M, N, K, A.data(), lda, B.data(), ldb, C.data(), ldc, work.data());
  bool padding_untouched = false;
  const Mat c = ref::read_strided(C, M, N, ldc, &padding_untouched);
  REQUIRE(padding_untouched);  // the kernel wrote nothing between rows of C
  return c;
}


}  // namespace

// A variant's name must say what it is: its family, then the ISA of the
// folder it comes from ("scalar" for the twins), then for GEMM its tile as
// MRxNR. A row listed under the wrong ISA or with a tile that disagrees with
// its function fails here.
TEST_CASE("registry lists the scalar twins first, then this build's ISA, each named by family, ISA and tile") {
  const std::string isa = HEADROOM_TEST_TARGET_ISA;  // CMake's, not the table's own simd_isa_name()
  const auto& gemm = hk::gemm_variants();
  const auto& soft = hk::softmax_variants();
  const auto& back = hk::softmax_backward_variants();
  REQUIRE(gemm.size() >= 2);
  REQUIRE(soft.size() >= 2);
  REQUIRE(back.size() >= 2);
  for (size_t i = 0; i < gemm.size(); ++i) {
    const hk::GemmVariant& v = gemm[i];
    CAPTURE(v.name);
    const std::string want = "gemm_f32__" + std::string(i == 0 ? "scalar" : isa) + "_" +
                             std::to_string(v.mr) + "x" + std::to_string(v.nr);
    CHECK(std::string(v.name) == want);
    CHECK(v.mr >= 1);
    CHECK(v.nr >= 1);
    CHECK(v.mr * v.nr <= 128);  // the driver's column-tail tile buffer
  }
  auto named = [&](const char* name, const std::string& family, size_t i) {
    CAPTURE(name);
    const std::string prefix = family + "__" + (i == 0 ? std::string("scalar") : isa);
    const std::string n = name;
    CHECK(n.compare(0, prefix.size(), prefix) == 0);
    // the scalar twin's name ends there; an ISA variant's goes on with "_u<unroll>"
    if (i == 0) CHECK(n == prefix);
    else CHECK(n.compare(prefix.size(), 2, "_u") == 0);
  };
  for (size_t i = 0; i < soft.size(); ++i) named(soft[i].name, "softmax_rows", i);
  for (size_t i = 0; i < back.size(); ++i) named(back[i].name, "softmax_backward_rows", i);
}

TEST_CASE("gemm_f32 scalar twin equals the double formula") {
  const hk::GemmVariant& s = hk::gemm_scalar();
  for (int M : {1, 2, 5}) for (int N : {1, 3, 4, 5, 9}) for (int K : {1, 2, 7, 33}) {
    CAPTURE(M); CAPTURE(N); CAPTURE(K);
    const Mat a = ref::random_mat(M, K, 1 + M + 7 * N), b = ref::random_mat(K, N, 2 + K);
    const double d = ref::rel_diff(run_gemm(s, a, b), ref::naive_gemm(a, b));
    CHECK(d <= ref::kGemmRelTol);
  }
}

TEST_CASE("every gemm_f32 variant equals its scalar twin at tile, below, above, multiples") {
  const hk::GemmVariant& twin = hk::gemm_scalar();
  for (const hk::GemmVariant& v : hk::gemm_variants()) {
    for (int M : ref::leftovers(v.mr)) for (int N : ref::leftovers(v.nr)) for (int K : {1, 3, 4, 16, 67}) {
      CAPTURE(v.name); CAPTURE(M); CAPTURE(N); CAPTURE(K);
      const Mat a = ref::random_mat(M, K, 11 + M * 3 + K), b = ref::random_mat(K, N, 5 + N);
      const double max_rel_diff = ref::rel_diff(run_gemm(v, a, b), run_gemm(twin, a, b));
      CHECK(max_rel_diff <= ref::kGemmRelTol);
    }
    // several L2 column slabs (K x N of B larger than the driver's slab)
    const int M = 2 * v.mr + 1, N = 4 * v.nr * 8 + 3, K = 700;
    CAPTURE(v.name); CAPTURE(M); CAPTURE(N); CAPTURE(K);
    const Mat a = ref::random_mat(M, K, 3), b = ref::random_mat(K, N, 4);
    const double max_rel_diff = ref::rel_diff(run_gemm(v, a, b), ref::naive_gemm(a, b));
    CHECK(max_rel_diff <= ref::kGemmRelTol);
  }
}

TEST_CASE("every softmax_rows variant equals its scalar twin, masked and not") {
  const hk::SoftmaxVariant& twin = hk::softmax_scalar();
  const float neg_inf = -std::numeric_limits<float>::infinity();
  for (const hk::SoftmaxVariant& v : hk::softmax_variants())
    for (int n : {1, 3, 4, 5, 8, 15, 16, 17, 31, 32, 33, 64, 100})
      for (float gain : {1.f, 30.f, 1e4f})
        for (bool causal : {false, true}) {
          CAPTURE(v.name); CAPTURE(n); CAPTURE(gain); CAPTURE(causal);
          const int rows = n < 6 ? n : 6, ld = n + 2;
          const Mat s0 = ref::random_mat(rows, ld, 77 + n, gain);
          Mat s1 = s0, s2 = s0, w1 = Mat::Constant(rows, ld, 9.f), w2 = w1;
          twin.fn(rows, n, s1.data(), ld, w1.data(), ld, causal);
          v.fn(rows, n, s2.data(), ld, w2.data(), ld, causal);
          const double max_abs_diff = (w1 - w2).cwiseAbs().maxCoeff();
          CHECK(max_abs_diff <= ref::kSoftmaxAbsTol);
          for (int i = 0; i < rows; ++i) {
            CHECK(w2.row(i).head(n).sum() == doctest::Approx(1.0).epsilon(1e-5));
            CHECK(w2.row(i).head(n).minCoeff() >= 0.f);
            CHECK(w2(i, n) == 9.f);  // nothing written past n
            for (int j = 0; j < n; ++j)
              if (causal && j > i) {
                CHECK(s2(i, j) == neg_inf);
                CHECK(w2(i, j) == 0.f);
              } else {
                CHECK(s2(i, j) == s0(i, j));  // scores are kept
              }
          }
        }
}

TEST_CASE("kernel backends equal the naive formula: L = 1, tile edges, odd D, H = D") {
  struct Shape { int L, D, H; };
  const Shape shapes[] = {{1, 8, 1},   {1, 64, 8},  {3, 9, 3},   {4, 16, 2},  {5, 7, 7},
                          {6, 16, 16}, {7, 24, 3},  {8, 32, 4},  {9, 33, 11}, {12, 64, 1},
                          {12, 64, 8}, {13, 48, 6}, {17, 40, 5}, {33, 128, 2}, {64, 96, 12}};
  for (Backend b : {Backend::Scalar, Backend::Simd})
    for (const Shape& s : shapes)
      for (bool causal : {false, true}) {
        CAPTURE(backend_name(b)); CAPTURE(s.L); CAPTURE(s.D); CAPTURE(s.H); CAPTURE(causal);
        const Mat x = ref::random_mat(s.L, s.D, 3 + s.L * 17 + s.D);
        const AttentionWeights w = ref::random_weights(s.D, s.H, 50 + s.H);
        Trace t;
        ForwardOptions opt;
        opt.causal = causal;
        opt.backend = b;
        REQUIRE(forward(x, w, t, opt).is_ok());
        const ref::NaiveTrace n = ref::naive_forward(x, w, causal);
        double worst = 0;
        for (int h = 0; h < s.H; ++h) {
          worst = std::max(worst, ref::rel_diff(t.heads[h].weights, n.weights[h]));
          worst = std::max(worst, ref::rel_diff(t.heads[h].out, n.head_out[h]));
        }
        worst = std::max(worst, ref::rel_diff(t.concat, n.concat));
        worst = std::max(worst, ref::rel_diff(t.out, n.out));
        CHECK(worst <= ref::kForwardRelTol);
      }
}

TEST_CASE("kernel backends fill every Trace field like the Eigen backend") {
  const int L = 21, D = 40, H = 4;
  const Mat x = ref::random_mat(L, D, 8);
  const AttentionWeights w = ref::random_weights(D, H, 9);
  for (bool causal : {false, true}) {
    Trace e, k;
    ForwardOptions opt;
    opt.causal = causal;
    REQUIRE(forward(x, w, e, opt).is_ok());
    opt.backend = Backend::Simd;
    REQUIRE(forward(x, w, k, opt).is_ok());
    CAPTURE(causal);
    for (int h = 0; h < H; ++h) {
      CAPTURE(h);
      const HeadTrace &a = k.heads[h], &b = e.heads[h];
      CHECK(ref::rel_diff(a.q, b.q) <= ref::kForwardRelTol);
      CHECK(ref::rel_diff(a.k, b.k) <= ref::kForwardRelTol);
      CHECK(ref::rel_diff(a.v, b.v) <= ref::kForwardRelTol);
      CHECK(ref::rel_diff(a.weights, b.weights) <= ref::kForwardRelTol);
      CHECK(ref::rel_diff(a.out, b.out) <= ref::kForwardRelTol);
      // scores: same finite entries, same -inf mask
      CHECK((a.scores.array() == -std::numeric_limits<float>::infinity()).count() ==
            (b.scores.array() == -std::numeric_limits<float>::infinity()).count());
      Mat fa = a.scores, fb = b.scores;
      fa = fa.unaryExpr([](float v) { return std::isinf(v) ? 0.f : v; });
      fb = fb.unaryExpr([](float v) { return std::isinf(v) ? 0.f : v; });
      CHECK(ref::rel_diff(fa, fb) <= ref::kForwardRelTol);
    }
  }
}

// HEADROOM_TEST_TARGET_ISA comes from CMake (what this test binary was built
// for), not from the kernel table under test.
TEST_CASE("the web build defaults to the SIMD kernels, native builds to Eigen") {
  const std::string target = HEADROOM_TEST_TARGET_ISA;
  CHECK(std::string(hk::simd_isa_name()) == target);
  CHECK(default_backend() == (target == "wasmsimd" ? Backend::Simd : Backend::Eigen));
  CHECK(std::string(backend_name(Backend::Eigen)) == "Eigen");
}
