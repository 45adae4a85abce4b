// text_json.cpp: TextSnapshot -> JSON (format in text_json.h).
#include "app/wire/text_json.h"

#include "app/wire/json_tensor.h"
#include "app/wire/json_write.h"

namespace headroom::app {

namespace {

// params or grads: the two share their layout (P: TextParams or TextGrads).
template <class P>
void append_model(std::string& out, const P& p, long long V, long long L, long long D) {
  JsonObject o(out);
  append_mat(o.key("E_tok"), {V, D}, p.tok);
  append_mat(o.key("E_pos"), {L, D}, p.pos);
  append_array(o.key("layers"), p.layers, [&](const auto& l) {
    JsonObject lo(out);
    append_mat(lo.key("W_Q"), {D, D}, join_heads(l.wq));
    append_mat(lo.key("W_K"), {D, D}, join_heads(l.wk));
    append_mat(lo.key("W_V"), {D, D}, join_heads(l.wv));
    append_mat(lo.key("W_O"), {D, D}, l.wo);
  });
  append_mat(o.key("W_U"), {D, V}, p.unembed);
  append_mat(o.key("b_U"), {V}, p.bias);
}

}  // namespace

std::string text_snapshot_json(const TextSnapshot& s) {
  const long long B = s.batch, L = s.tokens, D = s.d_model, V = s.vocab;
  std::string out;
  out.reserve(static_cast<size_t>((2 * V * D + 8 * D * D) * 13 * 2));
  {
    JsonObject o(out);
    o.field("task", "text").field("heads", s.heads).field("layers", s.layers).field("step", s.step);
    o.field("seed", s.seed).field("batch", s.batch).field("tokens", s.tokens).field("dModel", s.d_model);
    o.field("vocab", s.vocab);
    append_tensor(o.key("ids"), {B, L}, s.ids.data(), static_cast<long long>(s.ids.size()));
    append_tensor(o.key("targets"), {B, L}, s.targets.data(), static_cast<long long>(s.targets.size()));
    append_model(o.key("params"), s.params, V, L, D);
    o.field("loss", s.loss);
    append_model(o.key("grads"), s.grads, V, L, D);
  }
  return out;
}

}  // namespace headroom::app
