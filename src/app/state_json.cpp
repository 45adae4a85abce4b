// state_json.cpp: the demo state as the JSON object getState() returns.
//
// Does: read the Scene's Trace and readout and write them out with the
// writers of json_write.h (NaN/Inf as null, strings escaped).
// Does not: compute any weight (every number comes from the Trace), or use a
// JSON library (the shape is small and fixed).
#include "app/demo.h"
#include "app/describe.h"
#include "app/json_write.h"

namespace headroom::app {

std::string state_json(Demo& demo) {
  Scene& scene = demo.scene;
  const Trace& trace = scene.trace();
  const std::vector<HeadReadout> readout = scene.readout();
  const int q = scene.query();
  std::string out;
  out.reserve(4096);

  out += '{';
  json_key(out, "tokens", true);
  append_array(out, scene.tokens(), [&](const Token& t) { append_json_string(out, t.text); });
  json_key(out, "heads");
  append_int(out, scene.heads());
  json_key(out, "dModel");
  append_int(out, scene.d_model());
  json_key(out, "dHead");
  append_int(out, scene.d_head());
  json_key(out, "query");
  append_int(out, q);
  json_key(out, "focus");
  append_float(out, scene.focus());
  json_key(out, "view");
  append_json_string(out, demo.view);
  json_key(out, "theme");
  append_json_string(out, demo.theme);
  // stress: tokens (0 = off) and the engine's median time per forward (ms)
  json_key(out, "stress");
  out += '{';
  json_key(out, "tokens", true);
  append_int(out, scene.stress());
  json_key(out, "forwardMs");
  append_float(out, static_cast<float>(demo.stress.median_ms));
  json_key(out, "frames");
  append_int(out, demo.stress.count);
  out += '}';

  // weights[h][j] = head h's softmax weight from the query to token j.
  json_key(out, "weights");
  append_array(out, trace.heads, [&](const HeadTrace& h) {
    out += '[';
    for (Eigen::Index j = 0; j < h.weights.cols(); ++j) {
      if (j) out += ',';
      append_float(out, h.weights(q, j));
    }
    out += ']';
  });

  json_key(out, "relations");
  append_array(out, readout, [&](const HeadReadout& r) {
    append_array(out, r.relations, [&](Relation rel) { append_json_string(out, relation_name(rel)); });
  });
  json_key(out, "targets");
  append_array(out, readout, [&](const HeadReadout& r) {
    append_array(out, r.targets, [&](int t) { append_int(out, t); });
  });
  json_key(out, "readout");
  append_array(out, readout, [&](const HeadReadout& r) {
    out += '{';
    json_key(out, "targetWeight", true);
    append_array(out, r.target_weight, [&](float v) { append_float(out, v); });
    json_key(out, "targetCos");
    append_array(out, r.target_cos, [&](float v) { append_float(out, v); });
    json_key(out, "nearest");
    append_int(out, r.nearest);
    json_key(out, "nearestCos");
    append_float(out, r.nearest_cos);
    json_key(out, "midpointCos");
    append_float(out, r.midpoint_cos);
    json_key(out, "maxWeight");
    append_float(out, r.max_weight);
    json_key(out, "entropy");
    append_float(out, r.entropy);
    out += '}';
  });

  // valueSpace[h]: the value-space view's picture (engine/value_map.h):
  // points (L x [x, y]), output ([x, y], the query's output), explained
  // (share of the values' energy in the plane), outputInPlane.
  json_key(out, "valueSpace");
  append_array(out, scene.value_maps(), [&](const ValueMap& m) {
    out += '{';
    auto point = [&](float x, float y) {  // [x, y]
      out += '[';
      append_float(out, x);
      out += ',';
      append_float(out, y);
      out += ']';
    };
    json_key(out, "points", true);
    out += '[';
    for (Eigen::Index j = 0; j < m.points.rows(); ++j) {
      if (j) out += ',';
      point(m.points(j, 0), m.points(j, 1));
    }
    out += ']';
    json_key(out, "output");
    point(m.output(0), m.output(1));
    json_key(out, "explained");
    append_float(out, m.explained);
    json_key(out, "outputInPlane");
    append_float(out, m.output_in_plane);
    out += '}';
  });
  // The sentence as typed (what the page's sentence field shows).
  json_key(out, "text");
  append_json_string(out, demo.draft.data());
  // The readout sentence and the full description (the page's aria-live text).
  json_key(out, "sentence");
  append_json_string(out, readout_sentence(scene));
  json_key(out, "description");
  append_json_string(out, describe_state(scene));

  // Which weights the views show: the choice, what is shown (a head count
  // with no trained run shows the built weights and the note says so), and
  // the training step of the shown trained weights.
  const Training& tr = demo.training;
  json_key(out, "modelWeights");
  out += '{';
  json_key(out, "choice", true);
  append_json_string(out, tr.weights_choice());
  json_key(out, "shown");
  append_json_string(out, tr.weights_shown());
  json_key(out, "note");
  if (tr.weights_note().empty()) {
    out += "null";
  } else {
    append_json_string(out, tr.weights_note());
  }
  json_key(out, "step");
  if (tr.weights_shown() == kWeightChoices[1]) {
    append_int(out, tr.chart_step());
  } else {
    out += "null";
  }
  out += '}';

  json_key(out, "error");
  if (demo.error.empty()) {
    out += "null";
  } else {
    append_json_string(out, demo.error);
  }
  out += '}';
  return out;
}

}  // namespace headroom::app
