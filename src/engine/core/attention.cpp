// attention.cpp: the forward pass, written as numbered passes, twice.
// See attention.h for the maths and shapes.
//
// Index of this file
//   [SECTION] shape checks
//   [SECTION] forward with Eigen expressions (Backend::Eigen)
//   [SECTION] forward with kernels (Backend::Scalar, Backend::Simd)
//   [SECTION] forward
#include "attention.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "kernels/dispatch.h"
#include "engine/core/refusals.h"

namespace headroom {

//-----------------------------------------------------------------------------
// [SECTION] shape checks
//-----------------------------------------------------------------------------

Status check_heads(int d_model, int heads) {
  if (d_model <= 0) return Status::fail(refusals::d_model_not_positive, d_model);
  if (heads <= 0)
    return Status::fail(refusals::heads_below_one, heads);
  if (heads > d_model)
    return Status::fail(refusals::heads_above_channels, heads, d_model);
  if (d_model % heads != 0)
    return Status::fail(refusals::heads_do_not_divide, heads, d_model);
  return Status::ok();
}

Status check_weights(const AttentionWeights& w) {
  if (Status s = check_heads(w.d_model, w.heads); !s) return s;
  const int D = w.d_model, dh = w.d_head();
  const size_t H = static_cast<size_t>(w.heads);
  if (w.wq.size() != H || w.wk.size() != H || w.wv.size() != H)
    return Status::fail(refusals::projection_count, H);
  for (size_t h = 0; h < H; ++h)
    for (const Mat* m : {&w.wq[h], &w.wk[h], &w.wv[h]})
      if (m->rows() != D || m->cols() != dh)
        return Status::fail(refusals::projection_shape, h, m->rows(), m->cols(), D, dh);
  if (w.wo.rows() != D || w.wo.cols() != D)
    return Status::fail(refusals::output_shape, D);
  return Status::ok();
}

//-----------------------------------------------------------------------------
// [SECTION] forward with Eigen expressions (Backend::Eigen)
//-----------------------------------------------------------------------------
namespace {

// Head knockout (ForwardOptions::knockout): the knocked-out heads' columns of
// the concatenation become zero before W_O reads them.
void zero_knocked_out(Trace& trace, const AttentionWeights& w, uint32_t knockout) {
  const int dh = w.d_head();
  for (int h = 0; h < w.heads && h < 32; ++h)
    if (knockout & (1u << h)) trace.concat.middleCols(h * dh, dh).setZero();
}

// Shapes are checked and the Trace sized by forward().
void forward_eigen(const Mat& x, const AttentionWeights& w, Trace& trace, bool causal, uint32_t knockout) {
  const Eigen::Index L = x.rows(), dh = w.d_head();
  const int H = w.heads;
  const float scale = 1.0f / std::sqrt(static_cast<float>(dh));
  const float neg_inf = -std::numeric_limits<float>::infinity();

  for (int h = 0; h < H; ++h) {
    HeadTrace& t = trace.heads[static_cast<size_t>(h)];
    // pass 1: projections Q_h, K_h, V_h = X W_*^h                    (L x dh)
    t.q.noalias() = x * w.wq[h];
    t.k.noalias() = x * w.wk[h];
    t.v.noalias() = x * w.wv[h];
    // pass 2: scaled scores S = Q K^T / sqrt(dh), causal entries -inf (L x L)
    t.scores.noalias() = (t.q * t.k.transpose()) * scale;
    if (causal)
      for (Eigen::Index i = 0; i < L; ++i)
        for (Eigen::Index j = i + 1; j < L; ++j) t.scores(i, j) = neg_inf;
    // pass 3: row softmax, shifted by the row max so exp never overflows.
    // One of two Eigen-backend row softmaxes, kept apart on purpose: this
    // one takes std::exp and sums left to right; attention_batch.cpp's
    // forward_eigen takes Eigen's vectorised .exp() and its tree sum. The
    // two round differently, and one shared function would change the last
    // bits of either the lesson's readouts or the training curves (the
    // behaviour dump, tests/dump/, is byte-identical only with both kept).
    for (Eigen::Index i = 0; i < L; ++i) {
      const float m = t.scores.row(i).maxCoeff();
      float sum = 0.f;
      for (Eigen::Index j = 0; j < L; ++j) {
        const float e = std::exp(t.scores(i, j) - m);
        t.weights(i, j) = e;
        sum += e;
      }
      t.weights.row(i) *= 1.0f / sum;
    }
    // pass 4: head output O_h = P V_h                                 (L x dh)
    t.out.noalias() = t.weights * t.v;
    // pass 5: concatenation, head h in its own dh columns
    trace.concat.middleCols(h * dh, dh) = t.out;
  }
  // pass 6: output projection Y = concat W_O                           (L x D)
  zero_knocked_out(trace, w, knockout);
  trace.out.noalias() = trace.concat * w.wo;
}

//-----------------------------------------------------------------------------
// [SECTION] forward with kernels (Backend::Scalar, Backend::Simd)
//-----------------------------------------------------------------------------
// The same passes as forward_eigen, each one kernel call on the Trace's own
// buffers (row-major, so every B operand streams contiguous rows):
//   pass 1  Q_h, K_h, V_h = X W_*^h     gemm (L, dh, D); B = W_*^h as stored
//   pass 2  S = Q_h (K_h^T / sqrt(dh))   transpose_scale into trace.scratch
//                                        (dh x L), then gemm (L, L, dh)
//   pass 3  P = softmax_rows(S)          (causal mask applied inside)
//   pass 4  O_h = P V_h                  gemm (L, dh, L), written straight
//                                        into concat's columns h*dh.. (ldc = D)
//   pass 5  out_h = those columns        (copy, L x dh)
//   pass 6  Y = concat W_O               gemm (L, D, D)
// The GEMMs pack B into trace.scratch too (see kernels/gemm_f32.cpp), so
// nothing is allocated once the Trace has these shapes.
void forward_kernels(const Mat& x, const AttentionWeights& w, Trace& trace, bool causal, uint32_t knockout,
                     const kernels::KernelSet& k) {
  const int L = static_cast<int>(x.rows()), D = w.d_model, dh = w.d_head(), H = w.heads;
  const float scale = 1.0f / std::sqrt(static_cast<float>(dh));
  // Tiles per product width: dh may be narrower than the fastest tile.
  const kernels::GemmVariant& g_head = k.gemm_for(dh);  // (L, dh, D) and (L, dh, L)
  const kernels::GemmVariant& g_scores = k.gemm_for(L);
  const kernels::GemmVariant& g_out = k.gemm_for(D);
  // scratch = [ K_h^T / sqrt(dh) (dh x L) | GEMM packing workspace ]
  size_t work_floats = 0;
  for (const kernels::GemmVariant* g : {k.gemm, k.gemm_narrow})
    for (int depth : {D, dh, L})
      work_floats = std::max(work_floats, kernels::gemm_workspace_floats(*g, depth));
  trace.scratch.resize(static_cast<size_t>(dh) * L + work_floats);
  float* kt = trace.scratch.data();
  float* work = kt + static_cast<size_t>(dh) * L;

  for (int h = 0; h < H; ++h) {
    HeadTrace& t = trace.heads[static_cast<size_t>(h)];
    // pass 1: projections                                               (L x dh)
    kernels::gemm_f32(g_head, L, dh, D, x.data(), D, w.wq[h].data(), dh, t.q.data(), dh, work);
    kernels::gemm_f32(g_head, L, dh, D, x.data(), D, w.wk[h].data(), dh, t.k.data(), dh, work);
    kernels::gemm_f32(g_head, L, dh, D, x.data(), D, w.wv[h].data(), dh, t.v.data(), dh, work);
    // pass 2: scores, scale folded into the packed K^T                  (L x L)
    kernels::transpose_scale_f32(L, dh, t.k.data(), dh, scale, kt, L);
    kernels::gemm_f32(g_scores, L, L, dh, t.q.data(), dh, kt, L, t.scores.data(), L, work);
    // pass 3: row softmax (and causal mask)
    k.softmax->fn(L, L, t.scores.data(), L, t.weights.data(), L, causal);
    // pass 4: P V_h into concat's columns for head h
    float* oc = trace.concat.data() + static_cast<long>(h) * dh;
    kernels::gemm_f32(g_head, L, dh, L, t.weights.data(), L, t.v.data(), dh, oc, D, work);
    // pass 5: the head's own copy
    for (int i = 0; i < L; ++i)
      std::memcpy(t.out.data() + static_cast<long>(i) * dh, oc + static_cast<long>(i) * D,
                  sizeof(float) * static_cast<size_t>(dh));
  }
  // pass 6: output projection                                            (L x D)
  zero_knocked_out(trace, w, knockout);
  kernels::gemm_f32(g_out, L, D, D, trace.concat.data(), D, w.wo.data(), D, trace.out.data(), D,
                    work);
}

}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] forward
//-----------------------------------------------------------------------------
Status forward(const Mat& x, const AttentionWeights& w, Trace& trace, const ForwardOptions& opt) {
  if (Status s = check_weights(w); !s) return s;
  if (x.cols() != w.d_model)
    return Status::fail(refusals::x_columns, x.cols(), w.d_model);
  if (x.rows() < 1) return Status::fail(refusals::x_no_rows);
  if (w.heads < 32 && (opt.knockout >> w.heads) != 0)
    return Status::fail(refusals::knockout_head_missing, w.heads);

  // Size every buffer once; same shapes next time means no allocation.
  const Eigen::Index L = x.rows(), D = w.d_model, dh = w.d_head();
  trace.heads.resize(static_cast<size_t>(w.heads));
  for (HeadTrace& t : trace.heads) {
    t.q.resize(L, dh);
    t.k.resize(L, dh);
    t.v.resize(L, dh);
    t.scores.resize(L, L);
    t.weights.resize(L, L);
    t.out.resize(L, dh);
  }
  trace.concat.resize(L, D);
  trace.out.resize(L, D);

  if (opt.backend == Backend::Eigen)
    forward_eigen(x, w, trace, opt.causal, opt.knockout);
  else
    forward_kernels(x, w, trace, opt.causal, opt.knockout, kernels::kernel_set(opt.backend));
  return Status::ok();
}

// [SECTION] the output taken apart by heads (the concatenation view reads it)
void output_parts(const Trace& trace, const AttentionWeights& w, int row, Mat& parts) {
  const int H = w.heads, D = w.d_model, dh = w.d_head();
  parts.resize(H, D);
  for (int h = 0; h < H; ++h)
    parts.row(h).noalias() = trace.concat.row(row).segment(h * dh, dh) * w.wo.middleRows(h * dh, dh);
}

Mat join_heads(const std::vector<Mat>& blocks) {
  if (blocks.empty()) return Mat();
  const Eigen::Index dh = blocks[0].cols();
  Mat m(blocks[0].rows(), dh * static_cast<Eigen::Index>(blocks.size()));
  for (size_t h = 0; h < blocks.size(); ++h) m.middleCols(static_cast<Eigen::Index>(h) * dh, dh) = blocks[h];
  return m;
}

}  // namespace headroom
