// adam.h: the optimisers that apply AttentionGrads to AttentionWeights.
//
// Does: Adam with bias correction (Kingma & Ba, 2015). For every weight w
// with gradient g, at step t = 1, 2, ...
//   m = beta1 m + (1 - beta1) g          v = beta2 v + (1 - beta2) g^2
//   m^ = m / (1 - beta1^t)               v^ = v / (1 - beta2^t)
//   w = w - lr m^ / (sqrt(v^) + eps)
// so the first step moves each weight by lr g / (|g| + eps), about lr sign(g).
// The learning rate may change between steps (set_lr); the moments are kept.
// Also plain SGD, w = w - lr g.
// Does not: clip, decay weights, or allocate after its first step (the
// moments are sized then; a change of shapes restarts them, as reset()).
#pragma once
#include <vector>

#include "attention.h"
#include "attention_batch.h"
#include "status.h"

namespace headroom {

struct AdamConfig {
  float lr = 1e-3f, beta1 = 0.9f, beta2 = 0.999f, eps = 1e-8f;
};

class Adam {
 public:
  explicit Adam(AdamConfig config = {});
  // Refuses a rate that is not finite and > 0, keeping the previous one.
  Status set_lr(float lr);
  float lr() const { return config_.lr; }
  const AdamConfig& config() const { return config_; }
  // Moments and step count back to zero (the next step is a first step).
  void reset();
  // One step. g must have w's shapes (backward_batch on w makes it so).
  void step(AttentionWeights& w, const AttentionGrads& g);
  int steps() const { return t_; }

 private:
  AdamConfig config_;
  int t_ = 0;
  AttentionGrads m_, v_;  // first and second moments, w's shapes
};

// Adam over any list of matrices (the text model's embeddings, attention
// layers and unembedding), the same update, bit for bit, as Adam above.
// The list's order and shapes are fixed by the first step; a step with
// other shapes restarts the moments (as reset()).
class AdamList {
 public:
  explicit AdamList(AdamConfig config = {});
  Status set_lr(float lr);  // as Adam::set_lr
  float lr() const { return config_.lr; }
  void reset();
  // w[i] -= ... from g[i]; w and g of equal length, w[i] and g[i] of equal shape.
  void step(const std::vector<Mat*>& w, const std::vector<const Mat*>& g);
  int steps() const { return t_; }

 private:
  AdamConfig config_;
  int t_ = 0;
  std::vector<Mat> m_, v_;
};

// w = w - lr g for every weight. g must have w's shapes.
void sgd_step(AttentionWeights& w, const AttentionGrads& g, float lr);

// Whether g has w's shapes, or why not.
Status check_grads(const AttentionWeights& w, const AttentionGrads& g);

}  // namespace headroom
