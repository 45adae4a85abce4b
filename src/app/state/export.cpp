// export.cpp: a view's numbers as CSV or JSON (see export.h).
//
// Index of this file
//   [SECTION] the writers getState() shares
//   [SECTION] CSV rows
//   [SECTION] the parts: one function per part writes its JSON and its CSV
//   [SECTION] the views: which parts each one exports
//
// Does not: compute anything: every number is copied out of the Trace, the
// engine's output_parts (y = concat W_O taken apart by heads), the Scene's
// readout and value maps, and the trainer.
#include "app/state/export.h"

#include <algorithm>
#include <cmath>

#include "app/lang/describe.h"
#include "app/wire/json_write.h"
#include "app/state/url_state.h"
#include "engine/train/train_task.h"
#include "app/lang/refusals.h"

namespace headroom::app {

//-----------------------------------------------------------------------------
// [SECTION] the writers getState() shares
//-----------------------------------------------------------------------------
void append_query_rows(std::string& out, const Trace& trace, int query, bool scores) {
  append_array(out, trace.heads, [&](const HeadTrace& h) {
    const Mat& m = scores ? h.scores : h.weights;
    append_array_n(out, m.cols(), [&](Eigen::Index j) { append_float(out, m(query, j)); });
  });
}

void append_readout(std::string& out, const std::vector<HeadReadout>& readout) {
  append_array(out, readout, [&](const HeadReadout& r) {
    JsonObject head(out);
    append_values(head.key("targetWeight"), r.target_weight);
    append_values(head.key("targetCos"), r.target_cos);
    head.field("nearest", r.nearest).field("nearestCos", r.nearest_cos).field("midpointCos", r.midpoint_cos);
    head.field("maxWeight", r.max_weight).field("entropy", r.entropy);
  });
}

void append_value_space(std::string& out, const std::vector<ValueMap>& maps) {
  append_array(out, maps, [&](const ValueMap& m) {
    JsonObject map(out);
    append_array_n(map.key("points"), m.points.rows(), [&](Eigen::Index j) { append_values(out, m.points.row(j)); });
    append_values(map.key("output"), m.output);
    map.field("explained", m.explained).field("outputInPlane", m.output_in_plane);
  });
}

//-----------------------------------------------------------------------------
// [SECTION] CSV rows
//-----------------------------------------------------------------------------
namespace {

constexpr long long kNone = -1;  // an empty run, head, row or column

// A CSV field: quoted (quotes doubled) when it holds a comma, a quote, a
// line break or leading/trailing space, as RFC 4180 says.
void append_csv_text(std::string& out, std::string_view s) {
  const bool quote = s.find_first_of(",\"\r\n") != std::string_view::npos ||
                     (!s.empty() && (s.front() == ' ' || s.back() == ' '));
  if (!quote) {
    out += s;
    return;
  }
  out += '"';
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

// The long table: quantity,run,head,row,column,label,value.
struct Csv {
  std::string& out;
  explicit Csv(std::string& o) : out(o) { out += "quantity,run,head,row,column,label,value\n"; }

  // head is 1-based (kNone: none); a non-finite value is left empty.
  void row(std::string_view quantity, std::string_view run, long long head, long long row, long long column,
           std::string_view label, double value) {
    append_csv_text(out, quantity);
    out += ',';
    append_csv_text(out, run);
    for (long long v : {head, row, column}) {
      out += ',';
      if (v != kNone) append_int(out, v);
    }
    out += ',';
    append_csv_text(out, label);
    out += ',';
    if (std::isfinite(value)) append_float(out, value);
    out += '\n';
  }
};

//-----------------------------------------------------------------------------
// [SECTION] the parts: one function per part writes its JSON and its CSV
//-----------------------------------------------------------------------------
// What every part reads, named as in the views' help formulas.
struct Parts {
  Demo& demo;
  const Scene& scene;
  const Trace& tr;
  const std::vector<Token>& tokens;
  int L, q, H, D, dh;
  explicit Parts(Demo& d)
      : demo(d),
        scene(d.scene),
        tr(d.scene.trace()),
        tokens(d.scene.tokens()),
        L(static_cast<int>(d.scene.tokens().size())),
        q(d.scene.query()),
        H(d.scene.heads()),
        D(d.scene.d_model()),
        dh(d.scene.d_head()) {}
  const std::string& token(long long j) const { return tokens[static_cast<size_t>(j)].text; }
};

// Writes one part: into the open JSON object, or as CSV rows.
using PartFn = void (*)(Parts& p, JsonObject* json, Csv* csv);

void part_header(Parts& p, JsonObject* json, Csv* csv) {
  const LiveTraining& training = p.demo.training;
  if (json) {
    std::string& out = json->key("tokens");
    append_array(out, p.tokens, [&](const Token& t) { append_json_string(out, t.text); });
    json->field("query", p.q).field("heads", p.H).field("dModel", p.D).field("dHead", p.dh);
    JsonObject w(json->key("modelWeights"));
    w.field("choice", training.weights_choice()).field("shown", training.weights_shown());
    return;
  }
  for (int j = 0; j < p.L; ++j) csv->row("token", "", kNone, kNone, j, p.token(j), j);
  csv->row("query", "", kNone, kNone, p.q, p.token(p.q), p.q);
}

// weights and scores: the query's row (getState's) and every row (heatmaps).
void part_attention(Parts& p, JsonObject* json, Csv* csv) {
  if (json) {
    append_query_rows(json->key("weights"), p.tr, p.q, false);
    append_query_rows(json->key("scores"), p.tr, p.q, true);
    for (const bool scores : {false, true}) {
      std::string& out = json->key(scores ? "scoresMatrix" : "weightsMatrix");
      append_array(out, p.tr.heads, [&](const HeadTrace& h) {
        const Mat& m = scores ? h.scores : h.weights;
        append_array_n(out, m.rows(), [&](Eigen::Index i) { append_values(out, m.row(i)); });
      });
    }
    return;
  }
  for (const bool scores : {false, true}) {
    for (int h = 0; h < p.H; ++h) {
      const Mat& m = scores ? p.tr.heads[static_cast<size_t>(h)].scores : p.tr.heads[static_cast<size_t>(h)].weights;
      for (int j = 0; j < p.L; ++j) csv->row(scores ? "scores" : "weights", "", h + 1, p.q, j, p.token(j), m(p.q, j));
      for (int i = 0; i < p.L; ++i)
        for (int j = 0; j < p.L; ++j)
          csv->row(scores ? "scoresMatrix" : "weightsMatrix", "", h + 1, i, j, p.token(j), m(i, j));
    }
  }
}

// Each head's relationships and their targets for the query.
void part_targets(Parts& p, JsonObject* json, Csv* csv) {
  const std::vector<HeadReadout>& readout = p.scene.readout();
  if (json) {
    std::string& out = json->key("relations");
    append_array(out, readout, [&](const HeadReadout& r) {
      append_array(out, r.relations, [&](Relation rel) { append_json_string(out, relation_name(rel)); });
    });
    std::string& t = json->key("targets");
    append_array(t, readout, [&](const HeadReadout& r) { append_values(t, r.targets); });
    return;
  }
  for (int h = 0; h < p.H; ++h) {
    const HeadReadout& r = readout[static_cast<size_t>(h)];
    for (size_t k = 0; k < r.targets.size(); ++k)
      csv->row("targets", "", h + 1, static_cast<long long>(k), r.targets[k], relation_name(r.relations[k]),
               r.targets[k]);
  }
}

// The value space: per head each token's point in the plane, the output.
void part_value_space(Parts& p, JsonObject* json, Csv* csv) {
  const std::vector<ValueMap>& maps = p.scene.value_maps();
  if (json) {
    append_value_space(json->key("valueSpace"), maps);
    return;
  }
  for (int h = 0; h < p.H; ++h) {
    const ValueMap& m = maps[static_cast<size_t>(h)];
    for (int j = 0; j < p.L; ++j) {
      csv->row("valueSpace.x", "", h + 1, j, kNone, p.token(j), m.points(j, 0));
      csv->row("valueSpace.y", "", h + 1, j, kNone, p.token(j), m.points(j, 1));
    }
    csv->row("valueSpace.output.x", "", h + 1, p.q, kNone, p.token(p.q), m.output(0));
    csv->row("valueSpace.output.y", "", h + 1, p.q, kNone, p.token(p.q), m.output(1));
    csv->row("valueSpace.explained", "", h + 1, kNone, kNone, "", m.explained);
    csv->row("valueSpace.outputInPlane", "", h + 1, kNone, kNone, "", m.output_in_plane);
  }
}

// The readout per head, the lesson controls and what the output carries.
void part_readout(Parts& p, JsonObject* json, Csv* csv) {
  const std::vector<HeadReadout>& readout = p.scene.readout();
  const std::vector<float>& carried = p.scene.carried();
  const std::vector<int> carried_targets = p.scene.lesson_targets();
  if (json) {
    append_readout(json->key("readout"), readout);
    json->field("sentence", readout_sentence(p.scene)).field("focus", p.scene.focus());
    append_values(json->key("carried"), carried);
    append_values(json->key("carriedTargets"), carried_targets);
    return;
  }
  for (int h = 0; h < p.H; ++h) {
    const HeadReadout& r = readout[static_cast<size_t>(h)];
    for (size_t k = 0; k < r.targets.size(); ++k) {
      const char* name = relation_name(r.relations[k]);
      csv->row("readout.targetWeight", "", h + 1, static_cast<long long>(k), r.targets[k], name, r.target_weight[k]);
      csv->row("readout.targetCos", "", h + 1, static_cast<long long>(k), r.targets[k], name, r.target_cos[k]);
    }
    csv->row("readout.nearest", "", h + 1, kNone, r.nearest, r.nearest >= 0 ? p.token(r.nearest) : "", r.nearest);
    csv->row("readout.nearestCos", "", h + 1, kNone, kNone, "", r.nearest_cos);
    csv->row("readout.midpointCos", "", h + 1, kNone, kNone, "", r.midpoint_cos);
    csv->row("readout.maxWeight", "", h + 1, kNone, kNone, "", r.max_weight);
    csv->row("readout.entropy", "", h + 1, kNone, kNone, "", r.entropy);
  }
  csv->row("focus", "", kNone, kNone, kNone, "", p.scene.focus());
  for (size_t k = 0; k < carried.size(); ++k)
    csv->row("carried", "", kNone, static_cast<long long>(k), carried_targets[k], p.token(carried_targets[k]),
             carried[k]);
}

// The concatenation's blocks and W_O's parts: y = concat W_O = sum_h o_h W_O[h rows].
void part_concat(Parts& p, JsonObject* json, Csv* csv) {
  const Vec concat = p.tr.concat.row(p.q);
  Mat parts;  // row h = o_h W_O[rows of h]: the engine's product taken apart (output_parts)
  output_parts(p.tr, p.scene.weights(), p.q, parts);
  const Vec y = p.tr.out.row(p.q);
  if (json) {
    append_values(json->key("concat"), concat);
    std::string& b = json->key("blocks");
    append_array_n(b, p.H, [&](long long h) {
      JsonObject block(b);
      block.field("head", h + 1);
      append_values(block.key("columns"), std::vector<long long>{h * p.dh, (h + 1) * p.dh});
      append_values(block.key("values"), concat.segment(h * p.dh, p.dh));
    });
    std::string& w = json->key("woParts");
    append_array_n(w, parts.rows(), [&](Eigen::Index h) { append_values(w, parts.row(h)); });
    append_values(json->key("y"), y);
    return;
  }
  for (int c = 0; c < p.D; ++c) csv->row("concat", "", c / p.dh + 1, p.q, c, "", concat(c));
  for (int h = 0; h < p.H; ++h)
    for (int c = 0; c < p.D; ++c) csv->row("woParts", "", h + 1, p.q, c, "", parts(h, c));
  for (int c = 0; c < p.D; ++c) csv->row("y", "", kNone, p.q, c, "", y(c));
}

// The lesson controls that act on the concatenation: knocked-out heads
// (0-based in JSON, as getState; 1-based in CSV's head column) and the tie.
void part_controls(Parts& p, JsonObject* json, Csv* csv) {
  if (json) {
    append_values(json->key("knockout"), p.scene.knockout());
    json->field("tieQK", p.scene.tie_qk());
    return;
  }
  for (int h : p.scene.knockout()) csv->row("knockout", "", h + 1, kNone, kNone, "", 1);
  csv->row("tieQK", "", kNone, kNone, kNone, "", p.scene.tie_qk() ? 1 : 0);
}

// The step-through: per head the query's q, every k and v, scores, weights, output.
void part_steps(Parts& p, JsonObject* json, Csv* csv) {
  if (json) {
    std::string& out = json->key("steps");
    append_array_n(out, p.H, [&](long long h) {
      const HeadTrace& t = p.tr.heads[static_cast<size_t>(h)];
      JsonObject s(out);
      s.field("head", h + 1);
      append_values(s.key("q"), t.q.row(p.q));
      for (const auto& kv : {std::pair<const char*, const Mat*>{"k", &t.k}, {"v", &t.v}}) {
        const Mat& m = *kv.second;
        append_array_n(s.key(kv.first), m.rows(), [&](Eigen::Index j) { append_values(out, m.row(j)); });
      }
      append_values(s.key("scores"), t.scores.row(p.q));
      append_values(s.key("weights"), t.weights.row(p.q));
      append_values(s.key("out"), t.out.row(p.q));
    });
    return;
  }
  for (int h = 0; h < p.H; ++h) {
    const HeadTrace& t = p.tr.heads[static_cast<size_t>(h)];
    for (int c = 0; c < p.dh; ++c) csv->row("steps.q", "", h + 1, p.q, c, p.token(p.q), t.q(p.q, c));
    for (int j = 0; j < p.L; ++j)
      for (int c = 0; c < p.dh; ++c) {
        csv->row("steps.k", "", h + 1, j, c, p.token(j), t.k(j, c));
        csv->row("steps.v", "", h + 1, j, c, p.token(j), t.v(j, c));
      }
    for (int j = 0; j < p.L; ++j) {
      csv->row("steps.scores", "", h + 1, p.q, j, p.token(j), t.scores(p.q, j));
      csv->row("steps.weights", "", h + 1, p.q, j, p.token(j), t.weights(p.q, j));
    }
    for (int c = 0; c < p.dh; ++c) csv->row("steps.out", "", h + 1, p.q, c, p.token(p.q), t.out(p.q, c));
  }
}

// Training: train.state() itself, or per run its loss history, floor and
// each head's weight on each related token.
void part_train(Parts& p, JsonObject* json, Csv* csv) {
  const LiveTraining& training = p.demo.training;
  if (json) {
    json->key("train") += training.state_json();
    return;
  }
  const LiveTraining& t = training;
  const int R = t.text_task() ? 0 : t.relations();  // the text runs weigh no related tokens
  for (const TrainRun& run : t.runs()) {
    const std::string name = "h" + std::to_string(run.heads) + (run.tie_qk ? "-tied" : "");
    for (size_t i = 0; i < run.history.size(); ++i)
      csv->row("loss", name, kNone, static_cast<long long>(i), run.history[i].step, "", run.history[i].loss);
    csv->row("floor", name, kNone, kNone, kNone, "", run.floor);
    for (int h = 0; h < run.heads; ++h)
      for (int r = 0; r < R; ++r) csv->row("weightOn", name, h + 1, kNone, r, task_slot_name(r), run.weight_on(h, r, R));
  }
}

//-----------------------------------------------------------------------------
// [SECTION] the views: which parts each one exports
//-----------------------------------------------------------------------------
struct ViewParts {
  const char* view;
  std::vector<PartFn> parts;
};
const ViewParts kViewParts[] = {
    {"lesson",
     {part_attention, part_targets, part_value_space, part_readout, part_controls, part_concat, part_steps, part_train}},
    {"attention", {part_attention}},
    {"values", {part_value_space, part_targets}},
    {"readout", {part_readout, part_targets, part_controls}},
    {"concat", {part_concat, part_controls}},
    {"steps", {part_steps}},
    {"train", {part_train}},
};

}  // namespace

Status export_view(Demo& demo, std::string_view view, std::string_view format, std::string& out) {
  out.clear();
  if (Status s = check_export(view, format); !s) return s;
  if (format == kExportFormats[0]) return Status::fail(refusals::png_by_page);
  const ViewParts* vp = nullptr;
  for (const ViewParts& v : kViewParts)
    if (view == v.view) vp = &v;
  if (!vp) return Status::fail(refusals::no_export, std::string(view));
  Parts p(demo);
  if (format == "json") {
    JsonObject o(out);
    o.field("view", view);
    part_header(p, &o, nullptr);
    for (PartFn f : vp->parts) f(p, &o, nullptr);
  } else {
    Csv csv(out);
    part_header(p, nullptr, &csv);
    for (PartFn f : vp->parts) f(p, nullptr, &csv);
  }
  return Status::ok();
}

std::string export_file_name(const Demo& demo, std::string_view view, std::string_view format) {
  return "headroom-" + std::string(view) + "-h" + std::to_string(demo.scene.heads()) + "." + std::string(format);
}

}  // namespace headroom::app
