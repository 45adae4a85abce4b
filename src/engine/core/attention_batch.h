// attention_batch.h: multi-head self-attention over a batch of sequences,
// forward (forward_batch) and backward (backward_batch), for training. (The
// lesson's one-sequence forward with its Trace: attention.h.)
//
// Does: for B sequences of L tokens stacked in X ((B*L) x D, sequence b in
// rows b*L..b*L+L-1) and the weights of attention.h,
//   forward   Q, K, V = X W_Q, X W_K, X W_V     (all B*L rows at once)
//             per sequence b and head h:
//               P_bh = softmax(Q_bh K_bh^T / sqrt(dh)),  O_bh = P_bh V_bh
//             (causal: token i sees only j <= i, S(i, j > i) = -inf, so
//             P(i, j > i) = 0)
//             Y = concat_h(O_h) W_O
//   backward  given dY = dLoss/dY, the gradients dLoss/dW_O, dLoss/dW_Q^h,
//             dLoss/dW_K^h, dLoss/dW_V^h (and optionally dLoss/dX):
//               dW_O = C^T dY,  dC = dY W_O^T          (C = concat, (B*L) x D)
//               per (b, h), dO = dC's rows of b, columns of h:
//                 dP = dO V^T,  dV = P^T dO
//                 dS = P * (dP - rowsum(dP * P)) / sqrt(dh)   (softmax backward,
//                      the 1/sqrt(dh) of the scores folded in here; a
//                      masked entry has P = 0, so its dS is 0: the causal
//                      backward is the same passes)
//                 dQ = dS K,    dK = dS^T Q
//               dW_Q^h = X^T dQ_h, dW_K^h = X^T dK_h, dW_V^h = X^T dV_h
//               dX = dQ W_Q^T + dK W_K^T + dV W_V^T
// The three projections run as ONE product: the weights are packed into
// W_QKV = [W_Q^0 .. W_Q^{H-1} | W_K^0 .. | W_V^0 ..] (D x 3D), so
// QKV = X W_QKV ((B*L) x 3D), dW_QKV = X^T dQKV and dX = dQKV W_QKV^T.
// Does not: mask anything but the causal triangle, add biases, layer norm or an MLP, compute a loss (the caller's dY says which),
// or allocate once a BatchTrace has seen the shapes with the kernel backends
// (tests/engine/alloc_tests.cpp checks forward + backward + Adam).
//
// Shape letters as in tensor.h (B, L, D, H, dh).
#pragma once
#include <vector>

#include "attention.h"
#include "status.h"
#include "tensor.h"

namespace headroom {

// Gradients, same shapes as AttentionWeights: wq/wk/wv H matrices D x dh, wo D x D.
struct AttentionGrads {
  std::vector<Mat> wq, wk, wv;
  Mat wo;
};

// Everything backward_batch needs from forward_batch, and the buffers both
// reuse. Valid after forward_batch; backward_batch needs the same x and w.
struct BatchTrace {
  int batch = 0, tokens = 0, d_model = 0, heads = 0;  // B, L, D, H of the last forward
  bool causal = false;     // whether the last forward masked j > i
  Mat wqkv;                // D x 3D, the packed weights [W_Q^h.. | W_K^h.. | W_V^h..]
  Mat qkv;                 // (B*L) x 3D: [Q | K | V], head h in columns h*dh.. of each
  std::vector<float> p;    // B*H blocks of L x L: P of (b, h) at offset (b*H + h)*L*L
  Mat concat;              // (B*L) x D, head h in columns h*dh..(h+1)*dh-1
  Mat out;                 // (B*L) x D, the model output Y = concat W_O
  Mat dconcat;             // (B*L) x D, dLoss/dconcat (backward)
  Mat dqkv;                // (B*L) x 3D, [dQ | dK | dV] (backward)
  Mat dwqkv;               // D x 3D, dLoss/dW_QKV (backward)
  std::vector<float> scratch;  // kernel workspace, not a result

  // Attention weights P of head h for sequence b: L x L, rows sum to 1.
  Eigen::Map<const Mat> weights(int b, int h) const {
    return Eigen::Map<const Mat>(
        p.data() + (static_cast<long>(b) * heads + h) * tokens * tokens, tokens, tokens);
  }
};

// Runs the forward pass of `batch` sequences stacked in x into t, reusing its
// buffers. x is (B*L) x D with B = batch. On bad input returns the reason
// and leaves t untouched. causal: token i of a sequence attends to tokens
// j <= i only (a language model's mask); backward_batch needs no flag.
Status forward_batch(const Mat& x, int batch, const AttentionWeights& w, BatchTrace& t,
                     Backend backend, bool causal = false);

// dy: (B*L) x D = dLoss/dY for the Y of the last forward_batch(x, batch, w, t).
// OVERWRITES g with dLoss/dW (sizes g on first use); with dx, also writes
// dLoss/dX ((B*L) x D) there. On bad input returns the reason and changes
// nothing.
Status backward_batch(const Mat& x, int batch, const AttentionWeights& w, BatchTrace& t,
                      const Mat& dy, AttentionGrads& g, Backend backend, Mat* dx = nullptr);

// Tied query and key (W_K = W_Q, one matrix per head): the loss depends on
// the shared matrix W through both projections, so dLoss/dW = dW_Q + dW_K.
// Given the gradients of backward_batch on weights with wk[h] == wq[h],
// writes that sum into BOTH g.wq[h] and g.wk[h], so an optimiser that treats
// them as two matrices moves them identically (Adam's moments for the two
// start equal and stay equal, bit for bit).
void tie_query_key_grads(AttentionGrads& g);

}  // namespace headroom
