// output_kind.cpp: see output_kind.h.
#include "app/lang/output_kind.h"

#include <algorithm>
#include <functional>
#include <vector>

#include "app/lang/lang.h"


namespace headroom::app {

OutputMeasure measure_output(const Scene& scene, const HeadReadout& r) { return measure_output(scene.tokens(), r); }

OutputMeasure measure_output(const std::vector<Token>& tokens, const HeadReadout& r) {
  OutputMeasure m;
  const int L = static_cast<int>(tokens.size());
  // 1. Mostly one token: the output points the way of its value vector.
  if (r.nearest >= 0 && r.nearest < L && r.nearest_cos >= kReadsCos) {
    m.kind = OutputKind::Reads;
    m.token = r.nearest;
    m.words = trf("reads {0}", {tokens[static_cast<size_t>(r.nearest)].text});
    return m;
  }
  // 2. Spread thin.
  if (r.max_weight < kMushMaxWeight) {
    m.kind = OutputKind::Mush;
    m.words = tr("mush");
    return m;
  }
  // 3. Split between two targets.
  std::vector<float> w = r.target_weight;
  std::sort(w.begin(), w.end(), std::greater<float>());
  if (w.size() >= 2 && w[0] + w[1] >= kSplitTogether && w[1] >= kSplitShare * (w[0] + w[1])) {
    m.kind = OutputKind::Midpoint;
    m.words = tr("midpoint");
    return m;
  }
  // 4. Anything else.
  m.words = tr("a mix");
  return m;
}

}  // namespace headroom::app
