// cross_entropy.h: softmax cross-entropy over a vocabulary, the loss of a
// language model's next-word prediction, and its gradient.
//
// Does, for logits Z (N x V) and targets t (N ids, or -1: not scored):
//   P(i, .) = softmax(Z(i, .))                     (row max subtracted)
//   loss    = (1 / n) sum_{i scored} -log P(i, t_i)   n = scored rows,
//             nats per scored row, summed in double
//   dZ      = (P - onehot(t)) / n  on scored rows, 0 on the others
// The softmax runs through the backend's softmax_rows kernel (SIMD128 on the
// web), into dZ's buffer, which becomes the gradient in place. -log P(i, t)
// is taken from P; when P(i, t) is below 1e-30 (float's exp underflows) that
// row's term is recomputed in double as logsumexp(Z(i, .)) - Z(i, t).
// Does not: average over anything but scored rows, smooth labels, or
// allocate beyond sizing dZ (and its own P buffer when dZ is not wanted).
//
// Shape letters: N rows (B*L tokens), V vocabulary entries.
#pragma once
#include <vector>

#include "kernels/backend.h"
#include "status.h"
#include "tensor.h"

namespace headroom {

struct CrossEntropy {
  double loss = 0;       // mean -log P(target), nats per scored row
  int scored = 0;        // n
  double sum = 0;        // the sum before dividing by n (for averages over chunks)
};

// With dz, writes dLoss/dZ there (N x V). `probs` is a buffer for P when dz
// is null (it may be empty; it is sized). Refuses a target outside -1 .. V-1,
// a target count that is not N, or no scored row; nothing is written then.
Status softmax_cross_entropy(const Mat& logits, const std::vector<int>& targets, Backend backend,
                             CrossEntropy& out, Mat* dz, Mat* probs = nullptr);

}  // namespace headroom
