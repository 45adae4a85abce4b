// state_json.cpp: the demo state as the JSON object getState() returns.
//
// Does: read the Scene's Trace and readout and write them out; floats with 9
// significant digits (round-trips a float), NaN/Inf as null, strings escaped
// with invalid UTF-8 replaced by U+FFFD.
// Does not: compute any weight (every number comes from the Trace), or use a
// JSON library (the shape is small and fixed).
#include <cmath>
#include <cstdio>

#include "app/demo.h"
#include "app/describe.h"
#include "engine/tokenizer.h"

namespace headroom::app {

namespace {

void append_float(std::string& out, double v) {
  if (!std::isfinite(v)) {
    out += "null";
    return;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  out += buf;
}

void append_int(std::string& out, long long v) { out += std::to_string(v); }

void append_utf8(std::string& out, char32_t c) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

// "key": (with a leading comma unless first)
void key(std::string& out, const char* k, bool first = false) {
  if (!first) out += ',';
  out += '"';
  out += k;
  out += "\":";
}

template <class T, class F>
void append_array(std::string& out, const T& items, F&& each) {
  out += '[';
  bool first = true;
  for (const auto& item : items) {
    if (!first) out += ',';
    first = false;
    each(item);
  }
  out += ']';
}

}  // namespace

void append_json_string(std::string& out, std::string_view s) {
  out += '"';
  size_t i = 0;
  while (i < s.size()) {
    char32_t c = decode_utf8(s, i);
    if ((c >= 0xD800 && c <= 0xDFFF) || c > 0x10FFFF) c = 0xFFFD;  // never emit CESU-8
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20 || c == 0x2028 || c == 0x2029) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
          out += buf;
        } else {
          append_utf8(out, c);
        }
    }
  }
  out += '"';
}

std::string state_json(Demo& demo) {
  Scene& scene = demo.scene;
  const Trace& trace = scene.trace();
  const std::vector<HeadReadout> readout = scene.readout();
  const int q = scene.query();
  std::string out;
  out.reserve(4096);

  out += '{';
  key(out, "tokens", true);
  append_array(out, scene.tokens(), [&](const Token& t) { append_json_string(out, t.text); });
  key(out, "heads");
  append_int(out, scene.heads());
  key(out, "dModel");
  append_int(out, scene.d_model());
  key(out, "dHead");
  append_int(out, scene.d_head());
  key(out, "query");
  append_int(out, q);
  key(out, "focus");
  append_float(out, scene.focus());
  key(out, "view");
  append_json_string(out, demo.view);
  key(out, "theme");
  append_json_string(out, demo.theme);
  // stress: tokens (0 = off) and the engine's median time per forward (ms)
  key(out, "stress");
  out += '{';
  key(out, "tokens", true);
  append_int(out, scene.stress());
  key(out, "forwardMs");
  append_float(out, static_cast<float>(demo.stress.median_ms));
  key(out, "frames");
  append_int(out, demo.stress.count);
  out += '}';

  // weights[h][j] = head h's softmax weight from the query to token j.
  key(out, "weights");
  append_array(out, trace.heads, [&](const HeadTrace& h) {
    out += '[';
    for (Eigen::Index j = 0; j < h.weights.cols(); ++j) {
      if (j) out += ',';
      append_float(out, h.weights(q, j));
    }
    out += ']';
  });

  key(out, "relations");
  append_array(out, readout, [&](const HeadReadout& r) {
    append_array(out, r.relations, [&](Relation rel) { append_json_string(out, relation_name(rel)); });
  });
  key(out, "targets");
  append_array(out, readout, [&](const HeadReadout& r) {
    append_array(out, r.targets, [&](int t) { append_int(out, t); });
  });
  key(out, "readout");
  append_array(out, readout, [&](const HeadReadout& r) {
    out += '{';
    key(out, "targetWeight", true);
    append_array(out, r.target_weight, [&](float v) { append_float(out, v); });
    key(out, "targetCos");
    append_array(out, r.target_cos, [&](float v) { append_float(out, v); });
    key(out, "nearest");
    append_int(out, r.nearest);
    key(out, "nearestCos");
    append_float(out, r.nearest_cos);
    key(out, "midpointCos");
    append_float(out, r.midpoint_cos);
    key(out, "maxWeight");
    append_float(out, r.max_weight);
    key(out, "entropy");
    append_float(out, r.entropy);
    out += '}';
  });

  // valueSpace[h]: the value-space view's picture (engine/value_map.h):
  // points (L x [x, y]), output ([x, y], the query's output), explained
  // (share of the values' energy in the plane), outputInPlane.
  key(out, "valueSpace");
  append_array(out, scene.value_maps(), [&](const ValueMap& m) {
    out += '{';
    auto point = [&](float x, float y) {  // [x, y]
      out += '[';
      append_float(out, x);
      out += ',';
      append_float(out, y);
      out += ']';
    };
    key(out, "points", true);
    out += '[';
    for (Eigen::Index j = 0; j < m.points.rows(); ++j) {
      if (j) out += ',';
      point(m.points(j, 0), m.points(j, 1));
    }
    out += ']';
    key(out, "output");
    point(m.output(0), m.output(1));
    key(out, "explained");
    append_float(out, m.explained);
    key(out, "outputInPlane");
    append_float(out, m.output_in_plane);
    out += '}';
  });
  // The readout sentence and the full description (the page's aria-live text).
  key(out, "sentence");
  append_json_string(out, readout_sentence(scene));
  key(out, "description");
  append_json_string(out, describe_state(scene));

  key(out, "error");
  if (demo.error.empty()) {
    out += "null";
  } else {
    append_json_string(out, demo.error);
  }
  out += '}';
  return out;
}

}  // namespace headroom::app
