// attention.h: multi-head self-attention forward for one sequence.
//
// Does: Y = concat_h( softmax(Q_h K_h^T / sqrt(dh)) V_h ) W_O with
//   Q_h = X W_Q^h, K_h = X W_K^h, V_h = X W_V^h        (X: L x D, W_*^h: D x dh)
// and records every intermediate in a Trace, the one thing views and tests read.
// Optionally knocks heads out (their columns of the concatenation are zeroed
// before W_O: ForwardOptions::knockout).
// Does not: know about sentences, tokens, GL or the UI; allocate once the Trace
// has the right shapes with the kernel backends (buffers are reused between
// calls; tests/engine/alloc_tests.cpp checks it). Eigen's own GEMM may take
// heap workspace for large products.
//
// Shape letters as in tensor.h (L, D, H, dh).
#pragma once
#include <cstdint>
#include <vector>

#include "kernels/backend.h"
#include "status.h"
#include "tensor.h"

namespace headroom {

struct AttentionWeights {
  int d_model = 0;
  int heads = 0;
  std::vector<Mat> wq, wk, wv;  // H matrices, each D x dh
  Mat wo;                       // D x D, rows h*dh..(h+1)*dh-1 read head h
  int d_head() const { return heads > 0 ? d_model / heads : 0; }
};

// Why H heads cannot split D channels, or "" when they can.
Status check_heads(int d_model, int heads);
// Shapes of every matrix agree with d_model and heads.
Status check_weights(const AttentionWeights& w);

struct HeadTrace {
  Mat q, k, v;    // L x dh each
  Mat scores;     // L x L, Q K^T / sqrt(dh), masked entries = -inf
  Mat weights;    // L x L, row-wise softmax of scores; every row sums to 1
  Mat out;        // L x dh, weights V
};

struct Trace {
  std::vector<HeadTrace> heads;  // H entries
  Mat concat;                    // L x D, head h in columns h*dh..(h+1)*dh-1
  Mat out;                       // L x D, concat W_O
  std::vector<float> scratch;    // kernel workspace (K_h^T / sqrt(dh)), not a result
};

struct ForwardOptions {
  bool causal = false;  // token i may attend only to j <= i
  Backend backend = Backend::Eigen;
  // Head knockout: bit h set zeroes head h's columns of the concatenation
  // before W_O (so Y no longer sees that head). trace.heads[h].out keeps what
  // the head computed. Heads 0..31 only; a bit at or above `heads` is refused.
  uint32_t knockout = 0;
};

// Runs the forward pass into `trace`, reusing its buffers. On a shape error
// returns the reason and leaves `trace` untouched.
Status forward(const Mat& x, const AttentionWeights& w, Trace& trace,
               const ForwardOptions& opt = {});

// The forward pass's last product taken apart by heads: row h of `parts`
// (H x D) is head h's share o_h W_O[rows of h] of output row `row`, with o_h
// the head's block of trace.concat (zero for a knocked-out head, as in the
// forward pass). The rows add up to trace.out.row(row) up to rounding.
// `trace` must come from forward() with these weights; `row` in 0 .. L-1.
void output_parts(const Trace& trace, const AttentionWeights& w, int row, Mat& parts);

// Per-head blocks side by side: H matrices rows x dh -> rows x (H dh), head
// h in columns h*dh.. (the layout snapshots write W_Q, W_K, W_V in).
Mat join_heads(const std::vector<Mat>& blocks);

}  // namespace headroom
