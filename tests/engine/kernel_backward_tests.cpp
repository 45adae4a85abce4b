// kernel_backward_tests.cpp: the kernels the backward pass adds, every
// variant in the registry against its scalar twin and the twins against the
// double formula.
//   gemm_f32_tn  C = A^T B   (A stored K x M)
//   gemm_f32_nt  C = A B^T   (B stored N x K)
//   softmax_backward_rows  dS = alpha P * (dP - rowsum(dP * P))
// Shapes follow XNNPACK's leftover tests: exactly one tile, one below, one
// above, multiples, and 1, in M, N and K. Operands are stored with padded
// leading dimensions filled with NaN around them, so a kernel that reads
// outside its operand or ignores a stride fails. Tolerances are named
// (reference.h and below); a failing CHECK prints the max difference.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "engine/core/kernels/kernels.h"
#include "reference.h"

using namespace headroom;
namespace hk = headroom::kernels;

namespace {

// Softmax backward of P in [0, 1] and dP ~ 1: float round-off of n-term dots.
constexpr double kSoftmaxBackwardAbsTol = 1e-6;

enum class Form { TN, NT };


// Stores m (rows x cols) in a NaN-padded buffer with leading dimension ld.
std::vector<float> stored(const Mat& m, int ld) {
  std::vector<float> s(size_t(m.rows()) * ld + 3, NAN);
  for (int i = 0; i < m.rows(); ++i)
    for (int j = 0; j < m.cols(); ++j) s[size_t(i) * ld + j] = m(i, j);
  return s;
}

// C = op(A) op(B) through variant v in the transposed form `form`, for the
// logical A (M x K) and B (K x N): tn stores A^T, nt stores B^T.
Mat run(Form form, const hk::GemmVariant& v, const Mat& a, const Mat& b) {
  const int M = int(a.rows()), K = int(a.cols()), N = int(b.cols());
  const Mat as = form == Form::TN ? Mat(a.transpose()) : a;
  const Mat bs = form == Form::NT ? Mat(b.transpose()) : b;
  const int lda = int(as.cols()) + 3, ldb = int(bs.cols()) + 5, ldc = N + 7;
  const std::vector<float> A = stored(as, lda), B = stored(bs, ldb);
  std::vector<float> C(size_t(M) * ldc, NAN);
  std::vector<float> work(hk::gemm_tn_workspace_floats(v, K), NAN);
  if (form == Form::TN)
    hk::gemm_f32_tn(v, M, N, K, A.data(), lda, B.data(), ldb, C.data(), ldc, work.data());
  else
    hk::gemm_f32_nt(v, M, N, K, A.data(), lda, B.data(), ldb, C.data(), ldc, work.data());
  bool padding_untouched = false;
  const Mat c = ref::read_strided(C, M, N, ldc, &padding_untouched);
  REQUIRE(padding_untouched);  // the kernel wrote nothing between rows of C
  return c;
}


const char* form_name(Form f) { return f == Form::TN ? "A^T B" : "A B^T"; }

}  // namespace

TEST_CASE("gemm_f32_tn and gemm_f32_nt scalar twins equal the double formula") {
  const hk::GemmVariant& s = hk::gemm_scalar();
  for (Form f : {Form::TN, Form::NT})
    for (int M : {1, 2, 5, 17}) for (int N : {1, 3, 4, 5, 9}) for (int K : {0, 1, 2, 7, 33}) {
      CAPTURE(form_name(f)); CAPTURE(M); CAPTURE(N); CAPTURE(K);
      const Mat a = ref::random_mat(M, K, 1 + M + 7 * N), b = ref::random_mat(K, N, 2 + K);
      const Mat c = run(f, s, a, b);
      if (K == 0) {
        CHECK(c.cwiseAbs().maxCoeff() == 0.f);  // an empty sum is zero
        continue;
      }
      const double max_rel_diff = ref::rel_diff(c, ref::naive_gemm(a, b));
      CHECK(max_rel_diff <= ref::kGemmRelTol);
    }
}

TEST_CASE("every gemm variant's A^T B and A B^T equal the scalar twin at tile, below, above, multiples") {
  const hk::GemmVariant& twin = hk::gemm_scalar();
  for (Form f : {Form::TN, Form::NT})
    for (const hk::GemmVariant& v : hk::gemm_variants()) {
      // M from 1 to past 4 MR (where the driver starts packing B)
      std::vector<int> ms = ref::leftovers(v.mr);
      ms.push_back(4 * v.mr + 1);
      for (int M : ms) for (int N : ref::leftovers(v.nr)) for (int K : {1, 3, 4, 16, 67}) {
        CAPTURE(form_name(f)); CAPTURE(v.name); CAPTURE(M); CAPTURE(N); CAPTURE(K);
        const Mat a = ref::random_mat(M, K, 11 + M * 3 + K), b = ref::random_mat(K, N, 5 + N);
        const double max_rel_diff = ref::rel_diff(run(f, v, a, b), run(f, twin, a, b));
        CHECK(max_rel_diff <= ref::kGemmRelTol);
      }
      // several L2 column slabs and a long reduction (dW = X^T dQ has K = B*L)
      const int M = 4 * v.mr + 3, N = 4 * v.nr * 8 + 3, K = 700;
      CAPTURE(form_name(f)); CAPTURE(v.name); CAPTURE(M); CAPTURE(N); CAPTURE(K);
      const Mat a = ref::random_mat(M, K, 3), b = ref::random_mat(K, N, 4);
      const double max_rel_diff = ref::rel_diff(run(f, v, a, b), ref::naive_gemm(a, b));
      CHECK(max_rel_diff <= ref::kGemmRelTol);
    }
}

TEST_CASE("softmax_backward_rows scalar twin equals the double formula") {
  const hk::SoftmaxBackwardVariant& s = hk::softmax_backward_scalar();
  for (int n : {1, 2, 5, 12, 33}) {
    CAPTURE(n);
    const int rows = 4;
    Mat p = ref::random_mat(rows, n, 3 + n).cwiseAbs();
    for (int i = 0; i < rows; ++i) p.row(i) /= p.row(i).sum();
    const Mat dp = ref::random_mat(rows, n, 4 + n);
    const float alpha = 0.25f;
    Mat ds(rows, n);
    s.fn(rows, n, p.data(), n, dp.data(), n, alpha, ds.data(), n);
    MatD want(rows, n);
    for (int i = 0; i < rows; ++i) {
      double r = 0;
      for (int k = 0; k < n; ++k) r += double(dp(i, k)) * p(i, k);
      for (int j = 0; j < n; ++j) want(i, j) = alpha * double(p(i, j)) * (dp(i, j) - r);
    }
    const double max_abs_diff = (ds.cast<double>() - want).cwiseAbs().maxCoeff();
    CHECK(max_abs_diff <= kSoftmaxBackwardAbsTol);
    // a softmax Jacobian row sums to zero: each row of dS sums to ~0
    for (int i = 0; i < rows; ++i) CHECK(std::abs(ds.row(i).sum()) <= 1e-6f);
  }
}

TEST_CASE("every softmax_backward_rows variant equals its scalar twin, in place and not") {
  const hk::SoftmaxBackwardVariant& twin = hk::softmax_backward_scalar();
  for (const hk::SoftmaxBackwardVariant& v : hk::softmax_backward_variants())
    for (int n : {1, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 31, 32, 33, 100})
      for (bool in_place : {false, true}) {
        CAPTURE(v.name); CAPTURE(n); CAPTURE(in_place);
        const int rows = n < 6 ? n : 6, ld = n + 2;
        Mat p = ref::random_mat(rows, ld, 50 + n).cwiseAbs();
        for (int i = 0; i < rows; ++i) p.row(i).head(n) /= p.row(i).head(n).sum();
        const Mat dp0 = ref::random_mat(rows, ld, 60 + n, 3.f);
        Mat dp1 = dp0, dp2 = dp0;
        Mat ds1 = Mat::Constant(rows, ld, 9.f), ds2 = ds1;
        twin.fn(rows, n, p.data(), ld, dp1.data(), ld, 0.5f, ds1.data(), ld);
        float* out = in_place ? dp2.data() : ds2.data();
        v.fn(rows, n, p.data(), ld, dp2.data(), ld, 0.5f, out, ld);
        const Mat got = in_place ? dp2 : ds2;
        const double max_abs_diff =
            (got.leftCols(n) - ds1.leftCols(n)).cwiseAbs().maxCoeff();
        CHECK(max_abs_diff <= kSoftmaxBackwardAbsTol);
        for (int i = 0; i < rows; ++i) {
          CHECK(got(i, n) == (in_place ? dp0(i, n) : 9.f));  // nothing written past n
          if (!in_place) CHECK(dp2.row(i) == dp0.row(i));    // dP is read only
        }
      }
}

TEST_CASE("registry lists the softmax backward scalar twin first and an ISA variant") {
  REQUIRE(hk::softmax_backward_variants().size() >= 2);
  CHECK(std::string(hk::softmax_backward_variants()[0].name) == "softmax_backward_rows__scalar");
  for (const hk::SoftmaxBackwardVariant& v : hk::softmax_backward_variants())
    CHECK(std::string(v.name).find("softmax_backward_rows__") == 0);
}
