// text_model.cpp: the text model's forward and backward, as numbered
// passes. See text_model.h for the maths and shapes.
//
// Index of this file
//   [SECTION] shapes and initial parameters
//   [SECTION] forward (windows, and one sentence)
//   [SECTION] loss and backward
#include "text_model.h"

#include <cmath>
#include <string>

#include "engine/common/random.h"
#include "engine/core/embedding_rows.h"
#include "engine/core/refusals.h"

namespace headroom {

//-----------------------------------------------------------------------------
// [SECTION] shapes and initial parameters
//-----------------------------------------------------------------------------
Status check_text_shape(const TextShape& s) {
  if (s.vocab < 3) return Status::fail(refusals::vocab_small, s.vocab);
  if (s.tokens < 2) return Status::fail(refusals::window_small, s.tokens);
  if (s.layers < 1 || s.layers > 2) return Status::fail(refusals::text_layers, s.layers);
  return check_heads(s.d_model, s.heads);
}

namespace {
Mat uniform(prng::Rng& rng, int rows, int cols, double a) {
  Mat m(rows, cols);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) m(i, j) = static_cast<float>(a * (2.0 * rng.uniform() - 1.0));
  return m;
}
}  // namespace

TextParams initial_text_params(const TextShape& s, uint64_t seed, uint64_t purpose) {
  prng::Rng rng{prng::mix_seed(seed, purpose)};
  const int D = s.d_model, dh = D / s.heads;
  const double a = 1.0 / std::sqrt(static_cast<double>(D));
  TextParams p;
  p.shape = s;
  p.tok = uniform(rng, s.vocab, D, 1.0);
  p.pos = uniform(rng, s.tokens, D, 1.0);
  for (int l = 0; l < s.layers; ++l) {
    const Mat wq = uniform(rng, D, D, a), wk = uniform(rng, D, D, a), wv = uniform(rng, D, D, a);
    AttentionWeights w;
    w.d_model = D;
    w.heads = s.heads;
    for (int h = 0; h < s.heads; ++h) {
      w.wq.push_back(wq.middleCols(h * dh, dh));
      w.wk.push_back(wk.middleCols(h * dh, dh));
      w.wv.push_back(wv.middleCols(h * dh, dh));
    }
    w.wo = uniform(rng, D, D, a);
    p.layers.push_back(std::move(w));
  }
  p.unembed = uniform(rng, D, s.vocab, a);
  p.bias = Mat::Zero(1, s.vocab);
  return p;
}

Status knock_out_head(TextParams& p, int layer, int head) {
  const TextShape& s = p.shape;
  if (layer < 0 || layer >= s.layers) return Status::fail(refusals::text_knockout_layer, layer + 1, s.layers);
  if (head < 0 || head >= s.heads) return Status::fail(refusals::text_knockout_head, head + 1, s.heads);
  const int dh = s.d_model / s.heads;
  p.layers[static_cast<size_t>(layer)].wo.middleRows(static_cast<Eigen::Index>(head) * dh, dh).setZero();
  return Status::ok();
}

void zero_text_grads(const TextParams& p, TextGrads& g) {
  g.tok.setZero(p.tok.rows(), p.tok.cols());
  g.pos.setZero(p.pos.rows(), p.pos.cols());
  g.layers.resize(p.layers.size());
  for (size_t l = 0; l < p.layers.size(); ++l) {
    const AttentionWeights& w = p.layers[l];
    AttentionGrads& gl = g.layers[l];
    gl.wq.resize(w.wq.size());
    gl.wk.resize(w.wk.size());
    gl.wv.resize(w.wv.size());
    for (size_t h = 0; h < w.wq.size(); ++h) {
      gl.wq[h].setZero(w.wq[h].rows(), w.wq[h].cols());
      gl.wk[h].setZero(w.wk[h].rows(), w.wk[h].cols());
      gl.wv[h].setZero(w.wv[h].rows(), w.wv[h].cols());
    }
    gl.wo.setZero(w.wo.rows(), w.wo.cols());
  }
  g.unembed.setZero(p.unembed.rows(), p.unembed.cols());
  g.bias.setZero(p.bias.rows(), p.bias.cols());
}

namespace {
// The one walk both lists share (P: TextParams or TextGrads, M: Mat* or const Mat*).
template <class P, class M>
void list_matrices(P& p, std::vector<M>& out) {
  out.push_back(&p.tok);
  out.push_back(&p.pos);
  for (auto& l : p.layers) {
    for (size_t h = 0; h < l.wq.size(); ++h) {
      out.push_back(&l.wq[h]);
      out.push_back(&l.wk[h]);
      out.push_back(&l.wv[h]);
    }
    out.push_back(&l.wo);
  }
  out.push_back(&p.unembed);
  out.push_back(&p.bias);
}
}  // namespace

std::vector<Mat*> text_param_list(TextParams& p) {
  std::vector<Mat*> v;
  list_matrices(p, v);
  return v;
}

std::vector<const Mat*> text_grad_list(const TextGrads& g) {
  std::vector<const Mat*> v;
  list_matrices(g, v);
  return v;
}

//-----------------------------------------------------------------------------
// [SECTION] forward (windows, and one sentence)
//-----------------------------------------------------------------------------
Status text_layers_forward(const TextParams& p, const std::vector<int>& ids, int batch, Backend backend,
                           TextWork& w) {
  const TextShape& s = p.shape;
  const int L = s.tokens;
  if (batch < 1 || static_cast<long>(ids.size()) != static_cast<long>(batch) * L)
    return Status::fail(refusals::ids_not_windows, ids.size(), batch, L);
  w.x.resize(static_cast<size_t>(s.layers) + 1);
  w.traces.resize(static_cast<size_t>(s.layers));
  // pass 1: X_0 = E_tok[ids] + E_pos[i]                                ((B*L) x D)
  if (Status st = gather_rows(p.tok, ids, w.x[0]); !st) return st;
  for (int b = 0; b < batch; ++b) w.x[0].middleRows(static_cast<Eigen::Index>(b) * L, L) += p.pos;
  w.batch = batch;
  w.ids = ids;
  // pass 2: per layer, causal attention added to the residual stream
  for (int l = 0; l < s.layers; ++l) {
    const size_t li = static_cast<size_t>(l);
    if (Status st = forward_batch(w.x[li], batch, p.layers[li], w.traces[li], backend, true); !st) return st;
    w.x[li + 1] = w.x[li];
    w.x[li + 1] += w.traces[li].out;
  }
  return Status::ok();
}

Status text_forward(const TextParams& p, const std::vector<int>& ids, int batch, Backend backend, TextWork& w) {
  if (Status st = text_layers_forward(p, ids, batch, backend, w); !st) return st;
  // pass 3: Z = X W_U + b_U                                           ((B*L) x V)
  if (Status st = matmul(w.x.back(), p.unembed, w.logits, backend, w.mm); !st) return st;
  w.logits.rowwise() += p.bias.row(0);
  return Status::ok();
}

Status text_sentence_forward(const TextParams& p, const std::vector<int>& ids, TextSentenceTrace& out) {
  const long n = static_cast<long>(ids.size()), L = static_cast<long>(p.pos.rows());
  if (n == 0) return Status::fail(refusals::sentence_empty);
  if (n > L) return Status::fail(refusals::sentence_tokens, n, L);
  TextSentenceTrace t;
  t.ids = ids;
  t.x.resize(p.layers.size() + 1);
  t.layers.resize(p.layers.size());
  // X_0 = E_tok[ids] + E_pos[0..n-1]                                  (n x D)
  if (Status st = gather_rows(p.tok, ids, t.x[0]); !st) return st;
  if (p.pos.cols() != t.x[0].cols()) return Status::fail(refusals::x_columns, t.x[0].cols(), p.pos.cols());
  t.x[0] += p.pos.topRows(n);
  ForwardOptions opt;
  opt.causal = true;
  for (size_t l = 0; l < p.layers.size(); ++l) {
    if (Status st = forward(t.x[l], p.layers[l], t.layers[l], opt); !st) return st;
    t.x[l + 1] = t.x[l] + t.layers[l].out;
  }
  out = std::move(t);
  return Status::ok();
}

//-----------------------------------------------------------------------------
// [SECTION] loss and backward
//-----------------------------------------------------------------------------
Status text_loss(const TextParams& p, const std::vector<int>& ids, const std::vector<int>& targets, int batch,
                 Backend backend, TextWork& w, CrossEntropy& out, TextGrads* g) {
  if (Status st = text_forward(p, ids, batch, backend, w); !st) return st;
  // pass 4: loss and dZ (dZ in w.dlogits)
  if (Status st = softmax_cross_entropy(w.logits, targets, backend, out, g ? &w.dlogits : nullptr, &w.dlogits); !st)
    return st;
  if (!g) return Status::ok();
  const TextShape& s = p.shape;
  const int L = s.tokens;
  zero_text_grads(p, *g);
  // pass 5: dW_U = X^T dZ (D x V), db_U = colsum dZ, dX = dZ W_U^T  ((B*L) x D)
  if (Status st = matmul_tn(w.x.back(), w.dlogits, g->unembed, backend, w.mm); !st) return st;
  g->bias = w.dlogits.colwise().sum();
  if (Status st = matmul_nt(w.dlogits, p.unembed, w.dx, backend, w.mm); !st) return st;
  // pass 6: back through the layers; the residual passes dX on unchanged
  for (int l = s.layers - 1; l >= 0; --l) {
    const size_t li = static_cast<size_t>(l);
    if (Status st = backward_batch(w.x[li], batch, p.layers[li], w.traces[li], w.dx, g->layers[li], backend,
                                   &w.dx_layer);
        !st)
      return st;
    w.dx += w.dx_layer;
  }
  // pass 7: embeddings: scatter-add by id, positions summed over windows
  if (Status st = scatter_add_rows(w.dx, ids, g->tok); !st) return st;
  for (int b = 0; b < batch; ++b) g->pos += w.dx.middleRows(static_cast<Eigen::Index>(b) * L, L);
  return Status::ok();
}

}  // namespace headroom
