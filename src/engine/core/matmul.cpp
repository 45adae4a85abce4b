// matmul.cpp: the three products of matmul.h on Eigen or the kernel GEMMs.
#include "matmul.h"

#include <algorithm>
#include <string>

#include "kernels/dispatch.h"
#include "engine/core/refusals.h"

namespace headroom {

namespace {

std::string shape(const Mat& m) { return std::to_string(m.rows()) + " x " + std::to_string(m.cols()); }

Status mismatch(const char* op, const Mat& a, const Mat& b) {
  return Status::fail(refusals::matmul_shapes, op, shape(a), shape(b));
}

// The workspace for a GEMM of depth K on either tile (tn needs one strip more).
float* workspace(MatmulWork& work, const kernels::GemmVariant& g, int K) {
  const size_t need = kernels::gemm_tn_workspace_floats(g, K);
  if (work.scratch.size() < need) work.scratch.resize(need);
  return work.scratch.data();
}

// The three forms through one body: M, N, K and the check by form.
enum class Form { NN, TN, NT };

Status product(Form f, const Mat& a, const Mat& b, Mat& c, Backend backend, MatmulWork& work) {
  const bool tn = f == Form::TN, nt = f == Form::NT;
  const Eigen::Index a_inner = tn ? a.rows() : a.cols(), b_inner = nt ? b.cols() : b.rows();
  if (a_inner != b_inner) return mismatch(tn ? "A^T B" : nt ? "A B^T" : "A B", a, b);
  const int M = static_cast<int>(tn ? a.cols() : a.rows()), N = static_cast<int>(nt ? b.rows() : b.cols());
  const int K = static_cast<int>(a_inner);
  c.resize(M, N);
  if (backend == Backend::Eigen) {
    if (tn) c.noalias() = a.transpose() * b;
    else if (nt) c.noalias() = a * b.transpose();
    else c.noalias() = a * b;
    return Status::ok();
  }
  const kernels::GemmVariant& g = kernels::kernel_set(backend).gemm_for(N);
  float* ws = workspace(work, g, K);
  const int lda = static_cast<int>(a.cols()), ldb = static_cast<int>(b.cols());
  if (tn) kernels::gemm_f32_tn(g, M, N, K, a.data(), lda, b.data(), ldb, c.data(), N, ws);
  else if (nt) kernels::gemm_f32_nt(g, M, N, K, a.data(), lda, b.data(), ldb, c.data(), N, ws);
  else kernels::gemm_f32(g, M, N, K, a.data(), lda, b.data(), ldb, c.data(), N, ws);
  return Status::ok();
}

}  // namespace

Status matmul(const Mat& a, const Mat& b, Mat& c, Backend backend, MatmulWork& work) {
  return product(Form::NN, a, b, c, backend, work);
}
Status matmul_tn(const Mat& a, const Mat& b, Mat& c, Backend backend, MatmulWork& work) {
  return product(Form::TN, a, b, c, backend, work);
}
Status matmul_nt(const Mat& a, const Mat& b, Mat& c, Backend backend, MatmulWork& work) {
  return product(Form::NT, a, b, c, backend, work);
}

}  // namespace headroom
