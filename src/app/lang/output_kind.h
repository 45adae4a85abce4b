// output_kind.h: what one head's output is, in a word or two, for the value
// space's output label ("output: midpoint") and the one head's ghost marker.
//
// Does: classify one head's output from the numbers the engine's readout
// measured for the query (HeadReadout: the weights on the targets, the
// row's largest weight, the cosine to the nearest token's value vector),
// in this order:
//   1. reads T   the output points the way of token T's value vector
//                (nearest_cos >= kReadsCos): mostly one token;
//   2. mush      no token gets kMushMaxWeight of the weight: spread thin;
//   3. midpoint  the weight is split between two targets: the two largest
//                target weights each hold at least kSplitShare of what the
//                two hold together, and together at least kSplitTogether;
//   4. mix       anything else (a lopsided or wider mix).
// The words follow the measured numbers, never the head count: one head
// with trained or all-on-one weights "reads researcher", two heads with a
// flattened W_Q are "mush".
// Does not: compute attention or cosines (Scene::readout() does), or draw.
#pragma once
#include <string>

#include "app/lang/describe.h"  // kReadsCos
#include "engine/lesson/scene.h"

namespace headroom::app {

enum class OutputKind { Reads, Mush, Midpoint, Mix };

// Below this largest weight a row is "spread thin" (as head_verdict says).
constexpr float kMushMaxWeight = 0.3f;
// A split: the two largest target weights together hold at least this ...
constexpr float kSplitTogether = 0.6f;
// ... and the smaller of them at least this share of the two.
constexpr float kSplitShare = 1.f / 3.f;

struct OutputMeasure {
  OutputKind kind = OutputKind::Mix;
  int token = -1;     // the token read (Reads), else -1
  std::string words;  // "reads researcher", "mush", "midpoint", "a mix"
};

OutputMeasure measure_output(const Scene& scene, const HeadReadout& r);
// The same for any model's tokens (app/state/model_shown.h: the text model's).
OutputMeasure measure_output(const std::vector<Token>& tokens, const HeadReadout& r);

}  // namespace headroom::app
