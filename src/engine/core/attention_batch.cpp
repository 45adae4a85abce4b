// attention_batch.cpp: batched forward and backward of multi-head
// attention, written as numbered passes, twice (Eigen expressions, then
// kernels).
// See attention_batch.h for the maths and shapes.
//
// Index of this file
//   [SECTION] shape checks and sizing
//   [SECTION] forward and backward with Eigen expressions (Backend::Eigen)
//   [SECTION] forward and backward with kernels (Backend::Scalar, Backend::Simd)
//   [SECTION] forward_batch, backward_batch
#include "attention_batch.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "kernels/dispatch.h"
#include "engine/core/refusals.h"

namespace headroom {

//-----------------------------------------------------------------------------
// [SECTION] shape checks and sizing
//-----------------------------------------------------------------------------
namespace {

Status check_batch(const Mat& x, int batch, const AttentionWeights& w) {
  if (Status s = check_weights(w); !s) return s;
  if (x.cols() != w.d_model)
    return Status::fail(refusals::x_columns, x.cols(), w.d_model);
  if (batch < 1) return Status::fail(refusals::batch_below_one, batch);
  if (x.rows() < batch || x.rows() % batch != 0)
    return Status::fail(refusals::batch_rows, x.rows(), batch);
  return Status::ok();
}

// P of (b, h), writable.
float* p_block(BatchTrace& t, int b, int h) {
  return t.p.data() + (static_cast<long>(b) * t.heads + h) * t.tokens * t.tokens;
}

// W_QKV = [W_Q^0 .. W_Q^{H-1} | W_K^0 .. | W_V^0 ..]                  (D x 3D)
void pack_weights(const AttentionWeights& w, Mat& wqkv) {
  const int D = w.d_model, dh = w.d_head();
  for (int h = 0; h < w.heads; ++h) {
    wqkv.middleCols(h * dh, dh) = w.wq[h];
    wqkv.middleCols(D + h * dh, dh) = w.wk[h];
    wqkv.middleCols(2 * D + h * dh, dh) = w.wv[h];
  }
}

// dW_QKV back into the per-head gradients.
void unpack_grads(const Mat& dwqkv, int D, int H, AttentionGrads& g) {
  const int dh = D / H;
  for (int h = 0; h < H; ++h) {
    g.wq[h] = dwqkv.middleCols(h * dh, dh);
    g.wk[h] = dwqkv.middleCols(D + h * dh, dh);
    g.wv[h] = dwqkv.middleCols(2 * D + h * dh, dh);
  }
}

}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] forward and backward with Eigen expressions (Backend::Eigen)
//-----------------------------------------------------------------------------
namespace {

void forward_eigen(const Mat& x, const AttentionWeights& w, BatchTrace& t) {
  const int B = t.batch, L = t.tokens, D = t.d_model, H = t.heads, dh = D / H;
  const float scale = 1.0f / std::sqrt(static_cast<float>(dh));
  // pass 1: projections of every row at once, QKV = X W_QKV          ((B*L) x 3D)
  t.qkv.noalias() = x * t.wqkv;
  for (int b = 0; b < B; ++b)
    for (int h = 0; h < H; ++h) {
      const auto q = t.qkv.block(b * L, h * dh, L, dh);
      const auto k = t.qkv.block(b * L, D + h * dh, L, dh);
      const auto v = t.qkv.block(b * L, 2 * D + h * dh, L, dh);
      Eigen::Map<Mat> p(p_block(t, b, h), L, L);
      // pass 2: scaled scores S = Q K^T / sqrt(dh)                       (L x L)
      p.noalias() = (q * k.transpose()) * scale;
      // pass 3: row softmax in place, shifted by the row max. Eigen's
      // vectorised .exp() and tree sum, unlike attention.cpp's forward_eigen
      // (std::exp, summed left to right): kept apart on purpose, as sharing
      // one would change the last bits of the training curves or of the
      // lesson's readouts (see the comment there).
      // Causal: row i's softmax runs over its first i + 1 entries only, the
      // rest are set to 0 (not exp(-inf): Eigen's vectorised exp clamps its
      // input and would leave a denormal there).
      for (int i = 0; i < L; ++i) {
        if (t.causal) {
          auto seen = p.row(i).head(i + 1);
          const float m = seen.maxCoeff();
          seen = (seen.array() - m).exp().matrix();
          seen *= 1.0f / seen.sum();
          p.row(i).tail(L - 1 - i).setZero();
          continue;
        }
        const float m = p.row(i).maxCoeff();
        p.row(i) = (p.row(i).array() - m).exp().matrix();
        p.row(i) *= 1.0f / p.row(i).sum();
      }
      // pass 4: O = P V into concat's columns of head h                  (L x dh)
      t.concat.block(b * L, h * dh, L, dh).noalias() = p * v;
    }
  // pass 5: output projection Y = concat W_O                         ((B*L) x D)
  t.out.noalias() = t.concat * w.wo;
}

void backward_eigen(const Mat& x, const AttentionWeights& w, BatchTrace& t, const Mat& dy,
                    AttentionGrads& g, Mat* dx) {
  const int B = t.batch, L = t.tokens, D = t.d_model, H = t.heads, dh = D / H;
  const float scale = 1.0f / std::sqrt(static_cast<float>(dh));
  Eigen::Map<Mat> dp(t.scratch.data(), L, L);
  // pass 1: dW_O = C^T dY                                                 (D x D)
  g.wo.noalias() = t.concat.transpose() * dy;
  // pass 2: dC = dY W_O^T                                             ((B*L) x D)
  t.dconcat.noalias() = dy * w.wo.transpose();
  for (int b = 0; b < B; ++b)
    for (int h = 0; h < H; ++h) {
      const auto q = t.qkv.block(b * L, h * dh, L, dh);
      const auto k = t.qkv.block(b * L, D + h * dh, L, dh);
      const auto v = t.qkv.block(b * L, 2 * D + h * dh, L, dh);
      const auto dout = t.dconcat.block(b * L, h * dh, L, dh);
      const Eigen::Map<const Mat> p = t.weights(b, h);
      // pass 3: dP = dO V^T (L x L),  dV = P^T dO (L x dh)
      dp.noalias() = dout * v.transpose();
      t.dqkv.block(b * L, 2 * D + h * dh, L, dh).noalias() = p.transpose() * dout;
      // pass 4: softmax backward, dS = P * (dP - rowsum(dP * P)) / sqrt(dh)
      for (int i = 0; i < L; ++i) {
        const float r = dp.row(i).dot(p.row(i));
        dp.row(i) = (scale * p.row(i).array() * (dp.row(i).array() - r)).matrix();
      }
      // pass 5: dQ = dS K,  dK = dS^T Q                                 (L x dh)
      t.dqkv.block(b * L, h * dh, L, dh).noalias() = dp * k;
      t.dqkv.block(b * L, D + h * dh, L, dh).noalias() = dp.transpose() * q;
    }
  // pass 6: dW_QKV = X^T dQKV (D x 3D), split per head
  t.dwqkv.noalias() = x.transpose() * t.dqkv;
  unpack_grads(t.dwqkv, D, H, g);
  // pass 7: dX = dQKV W_QKV^T                                         ((B*L) x D)
  if (dx) dx->noalias() = t.dqkv * t.wqkv.transpose();
}

}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] forward and backward with kernels (Backend::Scalar, Backend::Simd)
//-----------------------------------------------------------------------------
// The same passes, each one kernel call on the BatchTrace's buffers. Every
// operand is a row-major block with a leading dimension: Q_bh starts at
// qkv(b*L, h*dh) with stride 3D, K_bh and V_bh D and 2D columns further.
// scratch = [ K^T / sqrt(dh) (dh x L) | S or dP (L x L) | GEMM workspace ].
namespace {

struct KernelPlan {
  const kernels::KernelSet& k;
  float* kt;    // dh x L
  float* sq;    // L x L
  float* work;  // GEMM packing workspace
};

// Sizes t.scratch for every product below (no-op when shapes are unchanged).
KernelPlan plan_kernels(BatchTrace& t, const kernels::KernelSet& k) {
  const int L = t.tokens, D = t.d_model, dh = D / t.heads, BL = t.batch * L;
  size_t work_floats = 0;
  for (const kernels::GemmVariant* g : {k.gemm, k.gemm_narrow})
    for (int depth : {D, dh, L, BL, 3 * D})
      work_floats = std::max(work_floats, kernels::gemm_tn_workspace_floats(*g, depth));
  t.scratch.resize(static_cast<size_t>(dh) * L + static_cast<size_t>(L) * L + work_floats);
  float* kt = t.scratch.data();
  float* sq = kt + static_cast<size_t>(dh) * L;
  return {k, kt, sq, sq + static_cast<size_t>(L) * L};
}

void forward_kernels(const Mat& x, const AttentionWeights& w, BatchTrace& t,
                     const kernels::KernelSet& k) {
  const int B = t.batch, L = t.tokens, D = t.d_model, H = t.heads, dh = D / H;
  const int BL = B * L, D3 = 3 * D;
  const float scale = 1.0f / std::sqrt(static_cast<float>(dh));
  const KernelPlan pl = plan_kernels(t, k);
  // pass 1: QKV = X W_QKV                                gemm (B*L, 3D, D)
  kernels::gemm_f32(k.gemm_for(D3), BL, D3, D, x.data(), D, t.wqkv.data(), D3, t.qkv.data(), D3,
                    pl.work);
  for (int b = 0; b < B; ++b)
    for (int h = 0; h < H; ++h) {
      const float* q = t.qkv.data() + static_cast<long>(b) * L * D3 + h * dh;
      const float* kk = q + D;
      const float* v = q + 2 * D;
      float* p = p_block(t, b, h);
      // pass 2: S = Q (K^T / sqrt(dh))              transpose_scale, gemm (L, L, dh)
      kernels::transpose_scale_f32(L, dh, kk, D3, scale, pl.kt, L);
      kernels::gemm_f32(k.gemm_for(L), L, L, dh, q, D3, pl.kt, L, pl.sq, L, pl.work);
      // pass 3: P = softmax_rows(S), causal mask applied inside
      k.softmax->fn(L, L, pl.sq, L, p, L, t.causal);
      // pass 4: O = P V into concat's columns of head h      gemm (L, dh, L)
      float* o = t.concat.data() + static_cast<long>(b) * L * D + h * dh;
      kernels::gemm_f32(k.gemm_for(dh), L, dh, L, p, L, v, D3, o, D, pl.work);
    }
  // pass 5: Y = concat W_O                               gemm (B*L, D, D)
  kernels::gemm_f32(k.gemm_for(D), BL, D, D, t.concat.data(), D, w.wo.data(), D, t.out.data(), D,
                    pl.work);
}

void backward_kernels(const Mat& x, const AttentionWeights& w, BatchTrace& t, const Mat& dy,
                      AttentionGrads& g, Mat* dx, const kernels::KernelSet& k) {
  const int B = t.batch, L = t.tokens, D = t.d_model, H = t.heads, dh = D / H;
  const int BL = B * L, D3 = 3 * D;
  const float scale = 1.0f / std::sqrt(static_cast<float>(dh));
  const KernelPlan pl = plan_kernels(t, k);
  float* dp = pl.sq;
  // pass 1: dW_O = C^T dY                                gemm_tn (D, D, B*L)
  kernels::gemm_f32_tn(k.gemm_for(D), D, D, BL, t.concat.data(), D, dy.data(), D, g.wo.data(), D,
                       pl.work);
  // pass 2: dC = dY W_O^T                                gemm_nt (B*L, D, D)
  kernels::gemm_f32_nt(k.gemm_for(D), BL, D, D, dy.data(), D, w.wo.data(), D, t.dconcat.data(), D,
                       pl.work);
  for (int b = 0; b < B; ++b)
    for (int h = 0; h < H; ++h) {
      const long row0 = static_cast<long>(b) * L;
      const float* q = t.qkv.data() + row0 * D3 + h * dh;
      const float* kk = q + D;
      const float* v = q + 2 * D;
      float* dq = t.dqkv.data() + row0 * D3 + h * dh;
      float* dk = dq + D;
      float* dv = dq + 2 * D;
      const float* dout = t.dconcat.data() + row0 * D + h * dh;
      const float* p = p_block(t, b, h);
      // pass 3: dP = dO V^T                                gemm_nt (L, L, dh)
      kernels::gemm_f32_nt(k.gemm_for(L), L, L, dh, dout, D, v, D3, dp, L, pl.work);
      //         dV = P^T dO                                gemm_tn (L, dh, L)
      kernels::gemm_f32_tn(k.gemm_for(dh), L, dh, L, p, L, dout, D, dv, D3, pl.work);
      // pass 4: dS = P * (dP - rowsum(dP * P)) / sqrt(dh), in place over dP
      k.softmax_backward->fn(L, L, p, L, dp, L, scale, dp, L);
      // pass 5: dQ = dS K                                   gemm (L, dh, L)
      kernels::gemm_f32(k.gemm_for(dh), L, dh, L, dp, L, kk, D3, dq, D3, pl.work);
      //         dK = dS^T Q                                gemm_tn (L, dh, L)
      kernels::gemm_f32_tn(k.gemm_for(dh), L, dh, L, dp, L, q, D3, dk, D3, pl.work);
    }
  // pass 6: dW_QKV = X^T dQKV                             gemm_tn (D, 3D, B*L)
  kernels::gemm_f32_tn(k.gemm_for(D3), D, D3, BL, x.data(), D, t.dqkv.data(), D3, t.dwqkv.data(),
                       D3, pl.work);
  unpack_grads(t.dwqkv, D, H, g);
  // pass 7: dX = dQKV W_QKV^T                             gemm_nt (B*L, D, 3D)
  if (dx)
    kernels::gemm_f32_nt(k.gemm_for(D), BL, D, D3, t.dqkv.data(), D3, t.wqkv.data(), D3,
                         dx->data(), D, pl.work);
}

}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] forward_batch, backward_batch
//-----------------------------------------------------------------------------
Status forward_batch(const Mat& x, int batch, const AttentionWeights& w, BatchTrace& t,
                     Backend backend, bool causal) {
  if (Status s = check_batch(x, batch, w); !s) return s;
  // Size every buffer once; same shapes next time means no allocation.
  const int D = w.d_model, H = w.heads, L = static_cast<int>(x.rows()) / batch;
  const Eigen::Index BL = x.rows();
  t.batch = batch;
  t.tokens = L;
  t.d_model = D;
  t.heads = H;
  t.causal = causal;
  t.wqkv.resize(D, 3 * D);
  t.qkv.resize(BL, 3 * D);
  t.p.resize(static_cast<size_t>(batch) * H * L * L);
  t.concat.resize(BL, D);
  t.out.resize(BL, D);
  pack_weights(w, t.wqkv);
  if (backend == Backend::Eigen)
    forward_eigen(x, w, t);
  else
    forward_kernels(x, w, t, kernels::kernel_set(backend));
  return Status::ok();
}

Status backward_batch(const Mat& x, int batch, const AttentionWeights& w, BatchTrace& t,
                      const Mat& dy, AttentionGrads& g, Backend backend, Mat* dx) {
  if (Status s = check_batch(x, batch, w); !s) return s;
  const int D = w.d_model, H = w.heads, dh = w.d_head(), L = static_cast<int>(x.rows()) / batch;
  if (t.batch != batch || t.tokens != L || t.d_model != D || t.heads != H)
    return Status::fail(refusals::trace_mismatch);
  if (dy.rows() != x.rows() || dy.cols() != D)
    return Status::fail(refusals::dy_shape, dy.rows(), dy.cols(), x.rows(), D);
  const Eigen::Index BL = x.rows();
  t.dconcat.resize(BL, D);
  t.dqkv.resize(BL, 3 * D);
  t.dwqkv.resize(D, 3 * D);
  g.wq.resize(static_cast<size_t>(H));
  g.wk.resize(static_cast<size_t>(H));
  g.wv.resize(static_cast<size_t>(H));
  for (int h = 0; h < H; ++h) {
    g.wq[h].resize(D, dh);
    g.wk[h].resize(D, dh);
    g.wv[h].resize(D, dh);
  }
  g.wo.resize(D, D);
  if (dx) dx->resize(BL, D);
  if (backend == Backend::Eigen) {
    if (t.scratch.size() < static_cast<size_t>(L) * L) t.scratch.resize(static_cast<size_t>(L) * L);
    backward_eigen(x, w, t, dy, g, dx);
  } else {
    backward_kernels(x, w, t, dy, g, dx, kernels::kernel_set(backend));
  }
  return Status::ok();
}

void tie_query_key_grads(AttentionGrads& g) {
  for (size_t h = 0; h < g.wq.size(); ++h) {
    g.wq[h] += g.wk[h];
    g.wk[h] = g.wq[h];
  }
}

}  // namespace headroom
