// text_json.h: the text model's snapshot (engine/train/text_trainer.h's
// TextSnapshot) as JSON, for an outside implementation (PyTorch:
// tools/text_torch_check.py) to recompute the loss and every gradient.
//
// Does: write
//   {task: "text", heads, layers, step, seed, batch, tokens, dModel, vocab,
//    ids [B, L], targets [B, L],
//    params: {E_tok [V, D], E_pos [L, D], layers: [{W_Q, W_K, W_V [D, D]
//             with head h in columns h*D/heads.., W_O [D, D]}, ...],
//             W_U [D, V], b_U [V]},
//    loss (nats per word, mean over the B*L targets),
//    grads: the same keys as params, dLoss/d each}
// every array {shape, data} row-major (json_tensor.h).
// Does not: compute anything (the engine did), or read JSON back.
#pragma once
#include <string>

#include "engine/train/text_trainer.h"

namespace headroom::app {

std::string text_snapshot_json(const TextSnapshot& s);

}  // namespace headroom::app
