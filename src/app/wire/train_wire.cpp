// train_wire.cpp: the training program's messages to the page (see train_wire.h).
#include "app/wire/train_wire.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "app/lang/lang_mark.h"
#include "app/lang/refusals.h"

namespace headroom::app {

namespace {

constexpr uint32_t kMagic = 0x37774852;  // "HRw7" read as a little-endian u32
constexpr int kMaxRuns = 2 * static_cast<int>(kTrainHeads.size());
constexpr int kMaxHeads = 8;
constexpr size_t kMaxText = 4096;
constexpr uint32_t kMaxSlots = 2 * kMaxHeads;  // the text model's layers x heads
constexpr uint32_t kMaxArgs = 8, kMaxItems = 16;  // a status's arguments, a list's words
constexpr int kMaxDepth = 4;                      // refusals inside refusals
constexpr int kMaxDModel = 1024, kMaxTokens = 1024;  // a weights message's D, the text model's L
constexpr uint32_t kMaxVocab = 32768;              // the corpus' ids are 15 bits

class Writer {
 public:
  template <class T>
  void put(T v) {
    static_assert(std::is_arithmetic_v<T>);
    char b[sizeof(T)];
    std::memcpy(b, &v, sizeof(T));
    out.append(b, sizeof(T));
  }
  void str(std::string_view s) {
    const size_t n = std::min(s.size(), kMaxText);
    put<uint32_t>(static_cast<uint32_t>(n));
    out.append(s.data(), n);
  }
  void mat(const Mat& m) { out.append(reinterpret_cast<const char*>(m.data()), sizeof(float) * static_cast<size_t>(m.size())); }
  std::string out;
};

class Reader {
 public:
  Reader(const uint8_t* d, size_t n) : d_(d), n_(n) {}
  template <class T>
  bool get(T& v) {
    if (n_ - at_ < sizeof(T)) return false;
    std::memcpy(&v, d_ + at_, sizeof(T));
    at_ += sizeof(T);
    if constexpr (std::is_floating_point_v<T>) return std::isfinite(v);
    return true;
  }
  bool flag(bool& v) {
    uint8_t b = 0;
    if (!get(b) || b > 1) return false;
    v = b == 1;
    return true;
  }
  bool str(std::string& s) {
    uint32_t n = 0;
    if (!get(n) || n > kMaxText || n_ - at_ < n) return false;
    s.assign(reinterpret_cast<const char*>(d_ + at_), n);
    at_ += n;
    return true;
  }
  bool mat(Mat& m, int rows, int cols) {
    const size_t bytes = sizeof(float) * static_cast<size_t>(rows) * static_cast<size_t>(cols);
    if (n_ - at_ < bytes) return false;
    m.resize(rows, cols);
    std::memcpy(m.data(), d_ + at_, bytes);
    at_ += bytes;
    return m.allFinite();
  }
  bool done() const { return at_ == n_; }

 private:
  const uint8_t* d_;
  size_t n_, at_ = 0;
};

// The magic and the kind (what read_header reads).
void put_header(Writer& w, WireKind kind) {
  w.put(kMagic);
  w.put(static_cast<uint32_t>(kind));
}

// The magic and the kind, which must be one of ours.
Status read_header(Reader& in, WireKind& kind) {
  uint32_t magic = 0, k = 0;
  if (!in.get(magic) || magic != kMagic) return Status::fail(refusals::wire_foreign);
  if (!in.get(k) || k < static_cast<uint32_t>(WireKind::kState) || k > static_cast<uint32_t>(WireKind::kTextWeights))
    return Status::fail(refusals::wire_unknown_kind);
  kind = static_cast<WireKind>(k);
  return Status::ok();
}

Status header(Reader& in, WireKind want) {
  WireKind kind{};
  if (Status s = read_header(in, kind); !s) return s;
  return kind == want ? Status::ok() : Status::fail(refusals::wire_other_kind);
}

// A run's head slots: u32 slots, per slot i32 layer, i32 head, u32 kinds,
// per kind str kind, f32 score, f32 baseline; then str label, f32 labelScore.
void put_slots(Writer& w, const std::vector<HeadSlot>& slots) {
  w.put<uint32_t>(static_cast<uint32_t>(slots.size()));
  for (const HeadSlot& s : slots) {
    w.put<int32_t>(s.layer);
    w.put<int32_t>(s.head);
    w.put<uint32_t>(static_cast<uint32_t>(s.scores.size()));
    for (size_t k = 0; k < s.scores.size(); ++k) {
      w.str(s.scores[k].first);
      w.put<float>(s.scores[k].second);
      w.put<float>(s.baselines[k].second);
    }
    w.str(s.label);
    w.put<float>(s.label_score);
  }
}

bool get_slots(Reader& in, std::vector<HeadSlot>& slots) {
  uint32_t n = 0;
  if (!in.get(n) || n > kMaxSlots) return false;
  slots.resize(n);
  for (HeadSlot& s : slots) {
    uint32_t kinds = 0;
    if (!in.get(s.layer) || !in.get(s.head) || !in.get(kinds) || kinds > kHeadKindCount) return false;
    if (s.layer < 0 || s.layer > 1 || s.head < 0 || s.head >= kMaxHeads) return false;
    s.scores.resize(kinds);
    s.baselines.resize(kinds);
    for (uint32_t k = 0; k < kinds; ++k) {
      if (!in.str(s.scores[k].first) || !in.get(s.scores[k].second) || !in.get(s.baselines[k].second)) return false;
      s.baselines[k].first = s.scores[k].first;
    }
    if (!in.str(s.label) || !in.get(s.label_score)) return false;
  }
  return true;
}

// The text task's cases (train_wire.h "the splits").
void put_splits(Writer& w, const std::vector<TextSplit>& splits) {
  const size_t n = std::min<size_t>(splits.size(), kSplitKeep);
  w.put<uint32_t>(static_cast<uint32_t>(n));
  for (size_t i = 0; i < n; ++i) {
    const TextSplit& c = splits[i];
    w.put<int64_t>(c.step);
    w.put<int32_t>(c.sentence);
    w.put<uint32_t>(static_cast<uint32_t>(c.ids.size()));
    for (size_t t = 0; t < c.ids.size(); ++t) {
      w.put<int32_t>(c.ids[t]);
      w.str(t < c.words.size() ? c.words[t] : std::string());
    }
    for (int v : {c.query, c.a, c.b}) w.put<int32_t>(v);
    for (float v : {c.one_a, c.one_b}) w.put<float>(v);
    for (int v : {c.head_a, c.head_b}) w.put<int32_t>(v);
    for (float v : {c.many_a, c.many_b, c.cos_a, c.cos_b, c.cos_mid, c.many_cos_a, c.many_cos_b}) w.put<float>(v);
  }
}

constexpr float kCosSlack = 1e-3f;  // a float cosine may pass 1 by rounding

// One case's numbers in range (train_wire.h "the splits").
bool split_ok(const TextSplit& c) {
  const int n = static_cast<int>(c.ids.size());
  const auto weight = [](float v) { return v >= 0.f && v <= 1.f; };
  const auto cosine = [](float v) { return v >= -1.f - kCosSlack && v <= 1.f + kCosSlack; };
  return c.step >= 0 && c.sentence >= 0 && c.a >= 0 && c.a < c.b && c.b <= c.query && c.query < n && c.head_a >= 0 &&
         c.head_a < kMaxHeads && c.head_b >= 0 && c.head_b < kMaxHeads && c.head_a != c.head_b && weight(c.one_a) &&
         weight(c.one_b) && weight(c.many_a) && weight(c.many_b) && cosine(c.cos_a) && cosine(c.cos_b) &&
         cosine(c.cos_mid) && cosine(c.many_cos_a) && cosine(c.many_cos_b);
}

bool get_splits(Reader& in, std::vector<TextSplit>& splits) {
  uint32_t n = 0;
  if (!in.get(n) || n > static_cast<uint32_t>(kSplitKeep)) return false;
  splits.resize(n);
  for (TextSplit& c : splits) {
    uint32_t tokens = 0;
    if (!in.get(c.step) || !in.get(c.sentence) || !in.get(tokens) || tokens < static_cast<uint32_t>(kSplitMinTokens) ||
        tokens > static_cast<uint32_t>(kMaxTokens))
      return false;
    c.ids.resize(tokens);
    c.words.resize(tokens);
    for (uint32_t t = 0; t < tokens; ++t)
      if (!in.get(c.ids[t]) || c.ids[t] < 0 || c.ids[t] >= static_cast<int>(kMaxVocab) || !in.str(c.words[t]) ||
          c.words[t].empty())
        return false;
    if (!in.get(c.query) || !in.get(c.a) || !in.get(c.b) || !in.get(c.one_a) || !in.get(c.one_b) ||
        !in.get(c.head_a) || !in.get(c.head_b))
      return false;
    for (float* v : {&c.many_a, &c.many_b, &c.cos_a, &c.cos_b, &c.cos_mid, &c.many_cos_a, &c.many_cos_b})
      if (!in.get(*v)) return false;
    if (!split_ok(c)) return false;
  }
  return true;
}

// A status as its code and arguments (train_wire.h "status").
void put_status(Writer& w, const Status& s) {
  w.str(s.code());
  w.put<uint32_t>(static_cast<uint32_t>(std::min<size_t>(s.args.size(), kMaxArgs)));
  for (size_t i = 0; i < s.args.size() && i < kMaxArgs; ++i) {
    const StatusArg& a = s.args[i];
    w.put<uint8_t>(static_cast<uint8_t>(a.kind));
    w.str(a.text);
    w.put<uint32_t>(static_cast<uint32_t>(std::min<size_t>(a.items.size(), kMaxItems)));
    for (size_t k = 0; k < a.items.size() && k < kMaxItems; ++k) w.str(a.items[k]);
    if (a.kind == StatusArg::Kind::Refusal) put_status(w, *a.nested);
  }
}

// A status back: its code must be one of the tables' (find_refusal).
bool get_status(Reader& in, Status& s, int depth = 0) {
  std::string code;
  uint32_t n = 0;
  if (depth > kMaxDepth || !in.str(code) || !in.get(n) || n > kMaxArgs) return false;
  if (code.empty()) {
    s = Status::ok();
    return n == 0;
  }
  const Refusal* r = find_refusal(code);
  if (r == nullptr) return false;
  std::vector<StatusArg> args;
  for (uint32_t i = 0; i < n; ++i) {
    uint8_t kind = 0;
    uint32_t items = 0;
    StatusArg a("");
    if (!in.get(kind) || kind > static_cast<uint8_t>(StatusArg::Kind::Refusal) || !in.str(a.text) || !in.get(items) ||
        items > kMaxItems)
      return false;
    a.kind = static_cast<StatusArg::Kind>(kind);
    a.items.resize(items);
    for (std::string& item : a.items)
      if (!in.str(item)) return false;
    if (a.kind == StatusArg::Kind::Refusal) {
      Status inner;
      if (!get_status(in, inner, depth + 1) || inner.is_ok()) return false;
      a = StatusArg::refusal(inner);
    }
    args.push_back(std::move(a));
  }
  s = Status::fail_with(*r, std::move(args));
  return true;
}

// One attention layer: per head W_Q, W_K, W_V, then W_O (the layout's
// "weights" after D, and each layer of "text weights").
void put_layer(Writer& w, const AttentionWeights& aw) {
  for (int h = 0; h < aw.heads; ++h) {
    w.mat(aw.wq[static_cast<size_t>(h)]);
    w.mat(aw.wk[static_cast<size_t>(h)]);
    w.mat(aw.wv[static_cast<size_t>(h)]);
  }
  w.mat(aw.wo);
}

// `d` and `heads` already checked (heads divide d). The part that did not
// read (the bytes ran out, a number is not finite) as a catalogue phrase,
// nullptr when all did.
const char* get_layer(Reader& in, int d, int heads, AttentionWeights& aw) {
  aw.d_model = d;
  aw.heads = heads;
  const int dh = d / heads;
  aw.wq.resize(static_cast<size_t>(heads));
  aw.wk.resize(static_cast<size_t>(heads));
  aw.wv.resize(static_cast<size_t>(heads));
  for (size_t h = 0; h < static_cast<size_t>(heads); ++h)
    if (!in.mat(aw.wq[h], d, dh) || !in.mat(aw.wk[h], d, dh) || !in.mat(aw.wv[h], d, dh))
      return N_("a head's matrices");
  return in.mat(aw.wo, d, d) ? nullptr : N_("W_O");
}

// `what` names the part that did not read (a catalogue phrase).
Status broken(const char* what) { return Status::fail(refusals::wire_broken, StatusArg::phrase(what)); }

}  // namespace

std::string encode_state(const Trainer& t, double steps_per_second, bool running, const std::vector<Status>& errors) {
  return encode_mirror(mirror_of(t, steps_per_second, running, errors));
}

TrainMirror mirror_of(const Trainer& t, double steps_per_second, bool running, const std::vector<Status>& errors) {
  TrainMirror m;
  m.seed = t.seed();
  m.relations = t.relations();
  m.lr = t.lr();
  m.tie_qk = t.tie_qk();
  m.step = t.step_count();
  m.steps_per_second = steps_per_second;
  m.running = running;
  m.errors = errors;
  m.runs = t.runs();
  return m;
}

std::string encode_mirror(const TrainMirror& m) {
  Writer w;
  put_header(w, WireKind::kState);
  w.put<uint8_t>(m.text);
  w.put<int32_t>(m.layers);
  w.put<int64_t>(m.seed);
  w.put<int32_t>(m.relations);
  w.put<float>(m.lr);
  w.put<uint8_t>(m.tie_qk);
  w.put<int64_t>(m.step);
  w.put<double>(std::isfinite(m.steps_per_second) ? m.steps_per_second : 0.0);
  w.put<uint8_t>(m.running);
  w.put<uint32_t>(static_cast<uint32_t>(std::min<size_t>(m.errors.size(), kMaxRuns + 1)));
  for (size_t i = 0; i < m.errors.size() && i < kMaxRuns + 1; ++i) put_status(w, m.errors[i]);
  w.put<uint32_t>(static_cast<uint32_t>(m.runs.size()));
  for (const TrainRun& run : m.runs) {
    w.put<int32_t>(run.heads);
    w.put<uint8_t>(run.tie_qk);
    w.put<float>(run.floor);
    w.put<int64_t>(run.steps);
    w.put<uint8_t>(run.diverged);
    put_status(w, run.stopped);
    w.put<uint32_t>(static_cast<uint32_t>(run.history.size()));
    for (const EvalPoint& p : run.history) {
      w.put<int64_t>(p.step);
      w.put<float>(p.loss);
      for (float v : p.weight_on) w.put<float>(v);
    }
    put_slots(w, run.per_head);
  }
  w.str(m.corpus.name);
  w.put<int64_t>(m.corpus.train_words);
  w.put<int64_t>(m.corpus.held_out_words);
  w.put<int32_t>(m.corpus.vocab);
  w.put<int64_t>(m.corpus.bytes);
  w.put<double>(std::isfinite(m.corpus.fetch_ms) ? m.corpus.fetch_ms : 0.0);
  w.put<uint8_t>(m.knockout.has_value());
  if (const TextKnockout* k = m.knockout ? &*m.knockout : nullptr) {
    w.put<int32_t>(k->heads);
    w.put<int32_t>(k->layer);
    w.put<int32_t>(k->head);
    w.put<int64_t>(k->step);
    w.put<float>(k->loss_before);
    w.put<float>(k->loss_after);
    put_slots(w, k->before);
    put_slots(w, k->after);
  }
  put_splits(w, m.splits);
  return std::move(w.out);
}

std::string encode_weights(const Trainer& t, int heads, bool tied) {
  const TrainRun* run = t.run(heads, tied);
  const AttentionWeights* aw = t.weights(heads, tied);
  if (run == nullptr || aw == nullptr) return {};
  Writer w;
  put_header(w, WireKind::kWeights);
  w.put<int32_t>(heads);
  w.put<uint8_t>(tied);
  w.put<int64_t>(run->steps);
  w.put<int32_t>(aw->d_model);
  put_layer(w, *aw);
  return std::move(w.out);
}

bool text_weights_of(const TextTrainer& t, int heads, TextWeights& out) {
  const TextRun* run = t.run(heads);
  const TextParams* p = t.params(heads);
  if (run == nullptr || p == nullptr || t.corpus() == nullptr) return false;
  TextWeights tw;
  tw.heads = heads;
  tw.layers = p->shape.layers;
  tw.step = run->steps;
  tw.vocab = t.corpus()->words;
  tw.params.shape = p->shape;
  tw.params.tok = p->tok;
  tw.params.pos = p->pos;
  tw.params.layers = p->layers;
  out = std::move(tw);
  return true;
}

std::string encode_text_weights(const TextWeights& tw) {
  const TextParams& p = tw.params;
  Writer w;
  put_header(w, WireKind::kTextWeights);
  w.put<int32_t>(tw.heads);
  w.put<int32_t>(tw.layers);
  w.put<int64_t>(tw.step);
  w.put<int32_t>(static_cast<int32_t>(p.tok.cols()));
  w.put<int32_t>(static_cast<int32_t>(p.pos.rows()));
  w.put<uint32_t>(static_cast<uint32_t>(tw.vocab.size()));
  for (const std::string& word : tw.vocab) w.str(word);
  w.mat(p.tok);
  w.mat(p.pos);
  for (const AttentionWeights& aw : p.layers) put_layer(w, aw);
  return std::move(w.out);
}

TrainMirror merge_parts(const std::vector<TrainMirror>& parts) {
  TrainMirror out = parts.front();
  if (out.text) return out;
  out.runs.clear();
  out.errors.clear();
  for (const TrainMirror& p : parts) {
    out.step = std::min(out.step, p.step);
    out.steps_per_second = std::min(out.steps_per_second, p.steps_per_second);
    out.running = out.running || p.running;
    out.runs.insert(out.runs.end(), p.runs.begin(), p.runs.end());
    for (const Status& e : p.errors) {
      const bool seen = std::any_of(out.errors.begin(), out.errors.end(),
                                    [&](const Status& o) { return o.code() == e.code() && o.error == e.error; });
      if (!seen) out.errors.push_back(e);
    }
  }
  // The full list's order: untied before tied, then by head count (kTrainHeads ascends).
  std::stable_sort(out.runs.begin(), out.runs.end(), [](const TrainRun& a, const TrainRun& b) {
    return a.tie_qk != b.tie_qk ? !a.tie_qk : a.heads < b.heads;
  });
  return out;
}

Status decode_kind(const uint8_t* data, size_t n, WireKind& kind) {
  Reader in(data, n);
  return read_header(in, kind);
}

Status decode_state(const uint8_t* data, size_t n, TrainMirror& out) {
  Reader in(data, n);
  if (Status s = header(in, WireKind::kState); !s) return s;
  TrainMirror m;
  uint32_t runs = 0;
  if (!in.flag(m.text) || !in.get(m.layers)) return broken(N_("its task"));
  if (!in.get(m.seed) || !in.get(m.relations) || !in.get(m.lr) || !in.flag(m.tie_qk) || !in.get(m.step) ||
      !in.get(m.steps_per_second) || !in.flag(m.running))
    return broken(N_("its settings"));
  uint32_t errors = 0;
  if (!in.get(errors) || errors > kMaxRuns + 1) return broken(N_("its errors"));
  m.errors.resize(errors);
  for (Status& e : m.errors)
    if (!get_status(in, e) || e.is_ok()) return broken(N_("its errors"));
  if (!in.get(runs)) return broken(N_("its number of runs"));
  const bool settings_ok = m.text ? (m.layers == 1 || m.layers == 2) && m.relations == 0 && m.seed >= 0 &&
                                         m.seed <= kMaxSeed && check_lr(m.lr)
                                   : m.layers == 0 && check_train_settings(m.seed, m.relations, m.lr);
  if (!settings_ok || m.step < 0 || m.steps_per_second < 0) return broken(N_("a setting out of range"));
  if (runs < 1 || runs > kMaxRuns) return broken(N_("its number of runs"));
  for (uint32_t i = 0; i < runs; ++i) {
    TrainRun run;
    uint32_t points = 0;
    if (!in.get(run.heads) || !in.flag(run.tie_qk) || !in.get(run.floor) || !in.get(run.steps) ||
        !in.flag(run.diverged) || !get_status(in, run.stopped) || !in.get(points))
      return broken(N_("a run"));
    if (run.heads < 1 || run.heads > kMaxHeads || run.steps < 0 || points < 1 || points > kMaxHistory + 1)
      return broken(N_("a run's sizes"));
    run.history.resize(points);
    for (EvalPoint& p : run.history) {
      p.weight_on.resize(static_cast<size_t>(run.heads * m.relations));
      if (!in.get(p.step) || !in.get(p.loss)) return broken(N_("a point of a run's history"));
      for (float& v : p.weight_on)
        if (!in.get(v)) return broken(N_("a head's weight"));
    }
    if (!get_slots(in, run.per_head)) return broken(N_("a run's measured heads"));
    m.runs.push_back(std::move(run));
  }
  CorpusInfo& c = m.corpus;
  if (!in.str(c.name) || !in.get(c.train_words) || !in.get(c.held_out_words) || !in.get(c.vocab) ||
      !in.get(c.bytes) || !in.get(c.fetch_ms))
    return broken(N_("its corpus"));
  if (c.train_words < 0 || c.held_out_words < 0 || c.vocab < 0 || c.bytes < 0 || c.fetch_ms < 0)
    return broken(N_("its corpus' sizes"));
  bool knocked = false;
  if (!in.flag(knocked)) return broken(N_("its knockout"));
  if (knocked) {
    TextKnockout k;
    if (!in.get(k.heads) || !in.get(k.layer) || !in.get(k.head) || !in.get(k.step) || !in.get(k.loss_before) ||
        !in.get(k.loss_after) || !get_slots(in, k.before) || !get_slots(in, k.after))
      return broken(N_("its knockout"));
    if (k.heads < 1 || k.heads > kMaxHeads || k.layer < 0 || k.layer > 1 || k.head < 0 || k.head >= k.heads ||
        k.step < 0 || k.before.size() != k.after.size())
      return broken(N_("its knockout's sizes"));
    m.knockout = std::move(k);
  }
  if (!get_splits(in, m.splits) || (!m.text && !m.splits.empty())) return broken(N_("its splits"));
  if (!in.done()) return broken(N_("bytes after its end"));
  out = std::move(m);
  return Status::ok();
}

std::string encode_status(const Status& s) {
  Writer w;
  put_status(w, s);
  return std::move(w.out);
}

Status decode_status(const uint8_t* data, size_t n, Status& out) {
  Reader in(data, n);
  Status s;
  if (!get_status(in, s) || !in.done()) return broken(N_("a refusal"));
  out = std::move(s);
  return Status::ok();
}

Status decode_weights(const uint8_t* data, size_t n, TrainedWeights& out) {
  Reader in(data, n);
  if (Status s = header(in, WireKind::kWeights); !s) return s;
  TrainedWeights t;
  int32_t d = 0;
  if (!in.get(t.heads) || !in.flag(t.tie_qk) || !in.get(t.step) || !in.get(d)) return broken(N_("its sizes"));
  if (d < 1 || d > 1024 || t.heads < 1 || t.heads > kMaxHeads || d % t.heads != 0 || t.step < 0)
    return broken(N_("its sizes"));
  if (const char* bad = get_layer(in, d, t.heads, t.w)) return broken(bad);
  if (!in.done()) return broken(N_("W_O"));
  if (Status s = check_weights(t.w); !s) return s;
  out = std::move(t);
  return Status::ok();
}

Status decode_text_weights(const uint8_t* data, size_t n, TextWeights& out) {
  Reader in(data, n);
  if (Status s = header(in, WireKind::kTextWeights); !s) return s;
  TextWeights t;
  int32_t d = 0, tokens = 0;
  uint32_t vocab = 0;
  if (!in.get(t.heads) || !in.get(t.layers) || !in.get(t.step) || !in.get(d) || !in.get(tokens) || !in.get(vocab))
    return broken(N_("its sizes"));
  if (d < 1 || d > kMaxDModel || t.heads < 1 || t.heads > kMaxHeads || d % t.heads != 0 || t.layers < 1 ||
      t.layers > 2 || t.step < 0 || tokens < 2 || tokens > kMaxTokens || vocab < 3 || vocab > kMaxVocab)
    return broken(N_("its sizes"));
  t.vocab.resize(vocab);
  for (std::string& word : t.vocab)
    if (!in.str(word)) return broken(N_("its vocabulary"));
  if (t.vocab[0] != "<unk>" || t.vocab[1] != "<num>") return broken(N_("its vocabulary"));
  TextParams& p = t.params;
  p.shape = TextShape{static_cast<int>(vocab), d, tokens, t.heads, t.layers};
  if (!in.mat(p.tok, static_cast<int>(vocab), d) || !in.mat(p.pos, tokens, d)) return broken(N_("its embeddings"));
  p.layers.resize(static_cast<size_t>(t.layers));
  for (AttentionWeights& aw : p.layers)
    if (const char* bad = get_layer(in, d, t.heads, aw)) return broken(bad);
  if (!in.done()) return broken(N_("bytes after its end"));
  out = std::move(t);
  return Status::ok();
}

}  // namespace headroom::app
