// text_model.h: a small attention-only language model: token and position
// embeddings, one or two causal multi-head attention layers on a residual
// stream, an unembedding, softmax cross-entropy on the next word.
//
// Does, for B windows of L word ids (row b*L + i is token i of window b):
//   X_0 = E_tok[ids] + E_pos[i]                                 ((B*L) x D)
//   X_{l+1} = X_l + Attn_l(X_l)   l = 0 .. layers-1, causal, no biases, no
//             layer norm, no MLP (attention_batch.h: W_Q, W_K, W_V per head,
//             d_head = D / H, W_O)
//   Z = X_layers W_U + b_U                                     ((B*L) x V)
//   loss = mean over scored rows of -log softmax(Z)[target]   (nats per word)
// and the backward pass, every gradient of the loss:
//   dZ (cross_entropy.h), dW_U = X^T dZ, db_U = colsum dZ, dX = dZ W_U^T,
//   per layer from the last: dX_l = dX_{l+1} + backward_batch(..)'s dX
//   (the residual's identity plus the layer's own path: how a second layer
//   reaches the first), dE_tok = scatter-add of dX_0 by id, dE_pos(i) =
//   sum_b dX_0(b*L + i).
// Initial parameters from a seed (prng, the same on every build).
// Knockout (knock_out_head): head h of layer l's output O_h zeroed before
// W_O. Y = concat_h(O_h) W_O reads O_h only through W_O's rows
// h*dh .. h*dh + dh - 1, so zeroing those rows is the same model: every
// other head's path, and head h's own attention weights, are unchanged.
// One sentence (text_sentence_forward): n <= L ids through the same
// embeddings and layers as one window, with attention.h's forward (causal)
// and its Trace per layer, for the views: row i of every layer equals row i
// of a window whose first n ids are these (causal: later tokens change no
// earlier row).
// Does not: read the corpus (text_trainer.h picks the windows), hold an
// optimiser, or allocate once a TextWork has seen the shapes (the kernel
// backends' buffers are reused).
//
// Shape letters as in tensor.h (B, L, D, H, dh), and V = vocabulary.
#pragma once
#include <cstdint>
#include <vector>

#include "engine/core/attention.h"
#include "engine/core/attention_batch.h"
#include "engine/core/cross_entropy.h"
#include "engine/core/matmul.h"
#include "engine/core/status.h"
#include "engine/core/tensor.h"

namespace headroom {

struct TextShape {
  int vocab = 0;    // V
  int d_model = 0;  // D
  int tokens = 0;   // L: the context, and the rows of E_pos
  int heads = 0;    // H per layer
  int layers = 0;   // 1 or 2
};

struct TextParams {
  TextShape shape;
  Mat tok;                               // V x D
  Mat pos;                               // L x D
  std::vector<AttentionWeights> layers;  // `layers` entries
  Mat unembed;                           // D x V
  Mat bias;                              // 1 x V
};

struct TextGrads {
  Mat tok, pos;
  std::vector<AttentionGrads> layers;
  Mat unembed, bias;
};

// Buffers of one forward / backward, reused between calls.
struct TextWork {
  int batch = 0;                   // B of the last forward
  std::vector<int> ids;            // B*L of the last forward
  std::vector<Mat> x;              // layers + 1 residual streams, (B*L) x D
  std::vector<BatchTrace> traces;  // per layer
  Mat logits;                      // (B*L) x V
  Mat dlogits;                     // (B*L) x V, then the probabilities' buffer
  Mat dx, dx_layer;                // (B*L) x D
  MatmulWork mm;
};

// Why the shape is not a model, or ok (heads divide D, layers 1..2, ...).
Status check_text_shape(const TextShape& s);

// E_tok, E_pos uniform(-1, 1); each layer's W_Q, W_K, W_V, W_O drawn as
// D x D uniform(-1/sqrt(D), 1/sqrt(D)), heads taking column blocks of
// d_head; W_U D x V the same; b_U = 0. Drawn in that order from
// Rng(mix_seed(seed, purpose)): every H of one seed starts from the same
// matrices.
TextParams initial_text_params(const TextShape& s, uint64_t seed, uint64_t purpose);

// Knocks out head `head` of layer `layer` (both 0-based) of p (see
// "Knockout" above): W_O's rows of that head set to 0. Refused, p unchanged,
// when p has no such layer or head.
Status knock_out_head(TextParams& p, int layer, int head);

// Zeroed gradients of p's shapes (sized once).
void zero_text_grads(const TextParams& p, TextGrads& g);

// Every parameter matrix in a fixed order (tok, pos, per layer W_Q^h,
// W_K^h, W_V^h per head then W_O, unembed, bias), and the gradients in the
// same order: what an optimiser walks.
std::vector<Mat*> text_param_list(TextParams& p);
std::vector<const Mat*> text_grad_list(const TextGrads& g);

// Passes 1-2 of the forward of `batch` windows (ids: batch * L): the
// embeddings and the attention layers, into w.x and w.traces (the heads'
// weights); w.logits untouched. What the head scores read.
Status text_layers_forward(const TextParams& p, const std::vector<int>& ids, int batch, Backend backend, TextWork& w);

// The forward pass of `batch` windows (ids: batch * L) into w (w.logits).
Status text_forward(const TextParams& p, const std::vector<int>& ids, int batch, Backend backend, TextWork& w);

// One sentence through the attention layers: ids[0..n-1], 1 <= n <= L.
struct TextSentenceTrace {
  std::vector<int> ids;     // n
  std::vector<Mat> x;       // layers + 1 residual streams, n x D
  std::vector<Trace> layers;  // per layer: per head scores, weights, out; concat; out
};

// X_0 = E_tok[ids] + E_pos[0..n-1], per layer Trace = forward(X_l, W_l,
// causal) and X_{l+1} = X_l + Trace.out. Refused (out unchanged) for no ids,
// more than L, or an id outside the vocabulary.
Status text_sentence_forward(const TextParams& p, const std::vector<int>& ids, TextSentenceTrace& out);

// Forward, the loss against targets (batch * L ids, -1 = not scored), and
// with g the backward (g overwritten). out.loss in nats per scored word.
Status text_loss(const TextParams& p, const std::vector<int>& ids, const std::vector<int>& targets, int batch,
                 Backend backend, TextWork& w, CrossEntropy& out, TextGrads* g);

}  // namespace headroom
