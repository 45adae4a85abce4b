// scene.cpp: builds the lesson's embeddings and head weights, runs the
// forward pass, caches the readout and value maps.
//
// Index of this file
//   [SECTION] deterministic random numbers and fixed matrices
//   [SECTION] relationships
//   [SECTION] parsing: roles and default targets (parser.h)
//   [SECTION] setters (validate first, then change)
//   [SECTION] build: X and the heads' weights
//   [SECTION] readout
#include "scene.h"

#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "engine/common/embedding.h"
#include "engine/common/random.h"
#include "engine/common/words.h"
#include "lexicon.h"
#include "parser.h"
#include "engine/core/refusals.h"

namespace headroom {
namespace {

constexpr int D = SceneConfig::kDModel;
static_assert(D == embed::kDModel, "the scene uses the shared embedding layout");
// The layout and the generator are shared with the training task (embedding.h).
using embed::kBias;
using embed::kCode;
using embed::kContentDim;
using embed::kFreq;
using embed::kFreqs;
using embed::kPos;
using embed::kPtrAntecedent;
using embed::kPtrComplement;
using embed::kPtrObject;
using embed::kPtrSubject;
using embed::position_code;
using prng::Rng;
constexpr int kContent = embed::kContent;

//-----------------------------------------------------------------------------
// [SECTION] deterministic random numbers and fixed matrices
//-----------------------------------------------------------------------------
// prng::Rng: splitmix64 + Box-Muller, the same numbers on every compiler and
// platform (std::normal_distribution is not specified bit for bit).
uint64_t fnv1a(std::string_view s) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

// The "meaning" of a word: a fixed random unit vector seeded by its spelling.
Vec content_vector(std::string_view token) {
  Rng rng{fnv1a(ascii_lower(token))};
  Vec v(kContentDim);
  for (int i = 0; i < kContentDim; ++i) v[i] = rng.gauss();
  return v / v.norm();
}

// n x k matrix with orthonormal columns, from a seeded Gaussian.
Mat orthonormal(int n, int k, uint64_t seed) {
  Rng rng{seed};
  Mat g(n, k);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < k; ++j) g(i, j) = rng.gauss();
  Eigen::HouseholderQR<Mat> qr(g);
  Mat q = qr.householderQ() * Mat::Identity(n, k);
  return q;
}

const Mat& output_mix() {  // W_O: a fixed orthogonal D x D mix (invertible)
  static const Mat wo = orthonormal(D, D, 0x0D15EA5Eull);
  return wo;
}

//-----------------------------------------------------------------------------
// [SECTION] relationships
//-----------------------------------------------------------------------------
int pointer_block(Relation r) {
  switch (r) {
    case Relation::Subject: return kPtrSubject;
    case Relation::Complement: return kPtrComplement;
    case Relation::Antecedent: return kPtrAntecedent;
    case Relation::Object: return kPtrObject;
    default: return -1;
  }
}

// Adds `gain` x (the query map of relationship r) into wq's first kCode
// columns: x_i W_Q then equals gain * p(target of r for token i).
void add_query_map(Mat& wq, Relation r, float gain) {
  const int ptr = pointer_block(r);
  if (ptr >= 0) {  // pointer relationship: copy the pointer block
    for (int c = 0; c < kCode; ++c) wq(ptr + c, c) += gain;
    return;
  }
  if (r == Relation::Self) {
    for (int c = 0; c < kCode; ++c) wq(kPos + c, c) += gain;
    return;
  }
  if (r == Relation::Start) {  // the constant feature maps to p(0)
    float p0[kCode];
    position_code(0, p0);
    for (int c = 0; c < kCode; ++c) wq(kBias, c) += gain * p0[c];
    return;
  }
  // Previous / Next: rotate each (cos, sin) pair by -w / +w, p(i) -> p(i -+ 1)
  if (r == Relation::Previous) {
    // The first token has no previous one: its role feature "first" turns
    // the rotated p(-1) back into p(0), so it looks at itself (an idle head;
    // unmended, p(-1) aliases onto a token far ahead).
    float p0[kCode], pm[kCode];
    position_code(0, p0);
    position_code(-1, pm);
    int bit = 0;
    while ((1u << bit) != static_cast<unsigned>(kFirst)) ++bit;
    for (int c = 0; c < kCode; ++c) wq(embed::kRoles + bit, c) += gain * (p0[c] - pm[c]);
  }
  const float dir = r == Relation::Previous ? 1.f : -1.f;
  for (int k = 0; k < kFreqs; ++k) {
    const float c = std::cos(kFreq[k]), s = dir * std::sin(kFreq[k]);
    const int a = kPos + 2 * k, b = a + 1;
    wq(a, 2 * k) += gain * c;      // cos' = cos c + sin s
    wq(b, 2 * k) += gain * s;
    wq(a, 2 * k + 1) += -gain * s; // sin' = sin c - cos s
    wq(b, 2 * k + 1) += gain * c;
  }
}

}  // namespace

const char* Scene::lesson_sentence() { return "The researcher who wrote the paper said it was wrong."; }

Scene::Scene() {
  for (int r = 0; r < kRelations; ++r) order_[static_cast<size_t>(r)] = static_cast<Relation>(r);
  const Status s = set_sentence(lesson_sentence());
  (void)s;  // the lesson sentence always parses
}

//-----------------------------------------------------------------------------
// [SECTION] parsing: roles and default targets
//-----------------------------------------------------------------------------
void Scene::parse() {
  Parse p = parse_sentence(tokens_);
  role_bits_ = std::move(p.roles);
  fits_ = std::move(p.fits);
  targets_ = p.targets;
  default_targets_ = std::move(p.targets);
  default_query_ = p.query;
  guessed_ = p.guessed;
  const int n = static_cast<int>(tokens_.size());  // (a short stress length may cut the lesson off)
  if (lesson_ && std::max({lesson_->query, lesson_->subject, lesson_->complement}) < n) {
    // set_lesson: the named targets are the defaults, not guesses
    const size_t q = static_cast<size_t>(lesson_->query);
    for (auto* t : {&targets_, &default_targets_}) {
      (*t)[q][static_cast<size_t>(Relation::Subject)] = lesson_->subject;
      (*t)[q][static_cast<size_t>(Relation::Complement)] = lesson_->complement;
    }
    fits_[q] |= relation_bit(Relation::Subject) | relation_bit(Relation::Complement);
    if (lesson_->pronoun >= 0 && std::max(lesson_->pronoun, lesson_->antecedent) < n) {
      const size_t p = static_cast<size_t>(lesson_->pronoun);
      for (auto* t : {&targets_, &default_targets_}) (*t)[p][static_cast<size_t>(Relation::Antecedent)] = lesson_->antecedent;
      fits_[p] |= relation_bit(Relation::Antecedent);
    }
    default_query_ = lesson_->query;
    guessed_ = false;
  }
}

bool Scene::targets_guessed() const {
  const size_t q = static_cast<size_t>(query_);
  return guessed_ && targets_[q] == default_targets_[q];
}

std::string Scene::roles(int token) const {
  if (token < 0 || token >= static_cast<int>(role_bits_.size())) return {};
  return role_names(role_bits_[static_cast<size_t>(token)]);
}

//-----------------------------------------------------------------------------
// [SECTION] setters (validate first, then change)
//-----------------------------------------------------------------------------
Status Scene::load_tokens(std::vector<Token> toks, int query) {
  tokens_ = std::move(toks);
  parse();
  query_ = query >= 0 ? std::min(query, static_cast<int>(tokens_.size()) - 1) : default_query_;
  cache_.inputs_changed();
  return Status::ok();
}

Status Scene::set_sentence(std::string_view utf8) { return load_sentence(utf8, std::nullopt); }

Status Scene::set_lesson(std::string_view utf8, const LessonTargets& t) { return load_sentence(utf8, t); }

Status Scene::load_sentence(std::string_view utf8, const std::optional<LessonTargets>& lesson) {
  if (utf8.size() > SceneConfig::kMaxBytes)
    return Status::fail(refusals::sentence_bytes, utf8.size(), SceneConfig::kMaxBytes);
  std::vector<Token> toks = tokenize(utf8);
  if (toks.empty()) return Status::fail(refusals::sentence_empty);
  if (static_cast<int>(toks.size()) > SceneConfig::kMaxTokens)
    return Status::fail(refusals::sentence_tokens, toks.size(), SceneConfig::kMaxTokens);
  if (lesson) {
    const int n = static_cast<int>(toks.size());
    for (int i : {lesson->query, lesson->subject, lesson->complement})
      if (i < 0 || i >= n)
        return Status::fail(refusals::token_missing, i, n - 1);
    if (lesson->subject == lesson->query || lesson->complement == lesson->query)
      return Status::fail(refusals::target_is_query);
    if ((lesson->pronoun < 0) != (lesson->antecedent < 0) ||
        (lesson->pronoun >= 0 && (std::max(lesson->pronoun, lesson->antecedent) >= n || lesson->pronoun == lesson->antecedent)))
      return Status::fail(refusals::pronoun_pair);
  }
  lesson_ = lesson;
  text_ = std::string(utf8);
  stress_ = 0;
  return load_tokens(std::move(toks), -1);
}

Status Scene::set_stress(int tokens) {
  if (tokens == 0) {
    if (stress_ == 0) return Status::ok();
    stress_ = 0;
    return load_tokens(tokenize(text_), -1);
  }
  if (tokens < 1 || tokens > SceneConfig::kMaxStressTokens)
    return Status::fail(refusals::stress_length, SceneConfig::kMaxStressTokens, tokens);
  const std::vector<Token> base = tokenize(text_);
  std::vector<Token> toks;
  toks.reserve(static_cast<size_t>(tokens));
  while (static_cast<int>(toks.size()) < tokens)
    for (const Token& t : base) {
      if (static_cast<int>(toks.size()) == tokens) break;
      toks.push_back(t);
    }
  stress_ = tokens;
  return load_tokens(std::move(toks), std::min(query_, tokens - 1));
}

namespace {
// "1, 2, 4 or 8": kHeadCounts in words.
StatusArg head_counts_arg() {
  std::vector<std::string> counts;
  for (int h : kHeadCounts) counts.push_back(std::to_string(h));
  return StatusArg::list(std::move(counts), " or ");
}

}  // namespace

Status Scene::set_heads(int heads) {
  if (Status s = check_heads(D, heads); !s) return s;
  if (std::find(kHeadCounts.begin(), kHeadCounts.end(), heads) == kHeadCounts.end())
    return Status::fail(refusals::scene_heads, head_counts_arg(), D, heads);
  if (heads != heads_) {
    cache_.inputs_changed();
    override_.reset();  // its shapes are for the old count
    knockout_.clear();  // other heads
  }
  heads_ = heads;
  return Status::ok();
}

Status Scene::set_query(int token) {
  if (token < 0 || token >= static_cast<int>(tokens_.size()))
    return Status::fail(refusals::token_missing, token, tokens_.size() - 1);
  if (token != query_) cache_.query_changed();  // X, the weights and the Trace stay: one model for every row
  query_ = token;
  return Status::ok();
}

Status Scene::set_target(Relation r, int token) {
  if (static_cast<int>(r) < 0 || static_cast<int>(r) >= kRelations) return Status::fail(refusals::no_such_relation);
  if (!relation_reassignable(r))
    return Status::fail(refusals::relation_fixed, relation_name(r));
  if (token < 0 || token >= static_cast<int>(tokens_.size()))
    return Status::fail(refusals::token_missing, token, tokens_.size() - 1);
  targets_[static_cast<size_t>(query_)][static_cast<size_t>(r)] = token;
  cache_.inputs_changed();
  return Status::ok();
}

void Scene::reset_targets() {
  const int q = query_;
  parse();
  query_ = q;
  cache_.inputs_changed();
}

Status Scene::set_focus(float focus) {
  if (!std::isfinite(focus) || focus < 0.f || focus > 1.f)
    return Status::fail(refusals::focus_range);
  if (focus != focus_) cache_.inputs_changed();
  focus_ = focus;
  return Status::ok();
}

void Scene::set_relation_order(const std::array<Relation, kRelations>& order) {
  order_ = order;
  cache_.inputs_changed();
}

Status Scene::set_weights_override(const AttentionWeights* w) {
  if (w == nullptr) {
    if (override_) cache_.inputs_changed();
    override_.reset();
    return Status::ok();
  }
  if (Status s = check_weights(*w); !s) return s;
  if (w->d_model != D)
    return Status::fail(refusals::weights_d_model, w->d_model, D);
  if (w->heads != heads_)
    return Status::fail(refusals::weights_heads, w->heads, heads_);
  override_ = *w;
  cache_.inputs_changed();
  return Status::ok();
}

Status Scene::set_knockout(const std::vector<int>& heads) {
  std::vector<int> sorted = heads;
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 0; i < sorted.size(); ++i) {
    if (sorted[i] < 0 || sorted[i] >= heads_)
      return (heads_ == 1 ? Status::fail(refusals::knockout_only_head, sorted[i], heads_)
                          : Status::fail(refusals::knockout_heads, sorted[i], heads_, heads_ - 1));
    if (i > 0 && sorted[i] == sorted[i - 1])
      return Status::fail(refusals::knockout_twice, sorted[i]);
  }
  if (sorted != knockout_) cache_.inputs_changed();
  knockout_ = std::move(sorted);
  return Status::ok();
}

Status Scene::set_tie_qk(bool tie) {
  if (tie != tie_qk_) cache_.inputs_changed();
  tie_qk_ = tie;
  return Status::ok();
}

std::vector<int> Scene::lesson_targets() const {
  return {target(query_, order_[0]), target(query_, order_[1])};
}

int Scene::target(int token, Relation r) const {
  return targets_[static_cast<size_t>(token)][static_cast<size_t>(r)];
}

bool Scene::fits(int token, Relation r) const {
  if (!relation_reassignable(r)) return true;  // positional: defined for every token
  const size_t i = static_cast<size_t>(token), k = static_cast<size_t>(r);
  return (fits_[i] & relation_bit(r)) != 0 || targets_[i][k] != default_targets_[i][k];  // found, or set by the user
}

int Scene::looks_at(int token, Relation r) const { return fits(token, r) ? target(token, r) : token; }

std::vector<Relation> Scene::head_relations(int head) const {
  if (override_ || heads_ == 1) return {order_[0], order_[1]};
  return {order_[static_cast<size_t>(head)]};
}

//-----------------------------------------------------------------------------
// [SECTION] build: X and the heads' weights
//-----------------------------------------------------------------------------
void Scene::build() const {
  const int L = static_cast<int>(tokens_.size());
  // X: content | roles | position | pointers (see scene.h)
  Mat& x = cache_.x;           // the cache is build()'s output
  AttentionWeights& w = cache_.w;
  x.setZero(L, D);
  for (int i = 0; i < L; ++i) {
    const Vec content = content_vector(tokens_[static_cast<size_t>(i)].text);
    const int pointers[embed::kPointers] = {looks_at(i, Relation::Subject), looks_at(i, Relation::Complement),
                                            looks_at(i, Relation::Antecedent), looks_at(i, Relation::Object)};
    embed::embed_token(&x(i, 0), content.data(), role_bits_[static_cast<size_t>(i)], i, pointers);
  }

  if (override_) {  // trained weights: nothing to build
    w = *override_;
    return;
  }
  // Heads: W_K reads the position block; W_Q realises the head's
  // relationships; scores are divided by sqrt(dh) in the forward pass, so
  // W_Q carries sqrt(dh) * sharpness to make the target's score = sharpness.
  const int H = heads_, dh = D / H;
  w.d_model = D;
  w.heads = H;
  w.wq.assign(static_cast<size_t>(H), Mat::Zero(D, dh));
  w.wk.assign(static_cast<size_t>(H), Mat::Zero(D, dh));
  w.wv.assign(static_cast<size_t>(H), Mat::Zero(D, dh));
  const float gain = cfg_.sharpness * std::sqrt(static_cast<float>(dh));
  for (int h = 0; h < H; ++h) {
    Mat& wq = w.wq[static_cast<size_t>(h)];
    for (int c = 0; c < kCode; ++c) w.wk[static_cast<size_t>(h)](kPos + c, c) = 1.f;
    const std::vector<Relation> rel = head_relations(h);
    if (H == 1) {
      // The single head holds both relationships; focus walks it through the
      // lesson's three bad options. [0, 0.5]: the second relationship's gain
      // rises so its target's share of the weight rises roughly like focus
      // (all on one -> split); [0.5, 1]: the whole query shrinks to zero
      // (split -> spread: equal scores, a flat row).
      const float share = std::min(focus_, 0.5f);
      const float second =
          share <= 0.f ? 0.f : std::max(0.f, 1.f + std::log(share / (1.f - share)) / cfg_.sharpness);
      const float fade = focus_ <= 0.5f ? 1.f : 2.f * (1.f - focus_);
      const float overall = fade * fade * fade;
      add_query_map(wq, rel[0], gain * overall);
      if (rel.size() > 1) add_query_map(wq, rel[1], gain * overall * second);
    } else {
      add_query_map(wq, rel[0], gain);
    }
    // W_V copies the content block ("meaning"); with dh < 32 each head keeps
    // its own fixed orthonormal projection of it.
    Mat& wv = w.wv[static_cast<size_t>(h)];
    if (dh >= kContentDim)
      for (int c = 0; c < kContentDim; ++c) wv(kContent + c, c) = 1.f;
    else
      wv.block(kContent, 0, kContentDim, dh) = orthonormal(kContentDim, dh, 0xC0FFEEull + static_cast<uint64_t>(h));
    // Tied query and key: the query projection serves as the key projection.
    if (tie_qk_) w.wk[static_cast<size_t>(h)] = wq;
  }
  w.wo = output_mix();
}

const Mat& Scene::x() const {
  trace();
  return cache_.x;
}

const AttentionWeights& Scene::weights() const {
  trace();
  return cache_.w;
}

const Trace& Scene::trace() const {
  if (!cache_.trace_stale) return cache_.trace;
  build();
  cache_.trace_stale = false;
  run_forward();
  return cache_.trace;
}

const Trace& Scene::recompute() {
  if (cache_.trace_stale) return trace();
  run_forward();
  return cache_.trace;
}

void Scene::run_forward() const {
  cache_.query_changed();
  ForwardOptions opt;
  opt.backend = backend_;
  for (int h : knockout_) opt.knockout |= 1u << h;
  const Status s = forward(cache_.x, cache_.w, cache_.trace, opt);
  (void)s;  // build() produces consistent shapes by construction
}

//-----------------------------------------------------------------------------
// [SECTION] readout
//-----------------------------------------------------------------------------
const std::vector<ValueMap>& Scene::value_maps() const {
  const Trace& tr = trace();
  std::vector<ValueMap>& maps = cache_.maps;
  if (!cache_.maps_stale) return maps;
  const int q = query_;
  const std::vector<int> anchors = lesson_targets();
  const int a = anchors[0], b = anchors[1];
  maps.clear();
  for (const HeadTrace& ht : tr.heads) maps.push_back(value_map(ht, q, a, b));
  cache_.maps_stale = false;
  return maps;
}

const std::vector<float>& Scene::carried() const {
  const Trace& tr = trace();
  if (!cache_.carried_stale) return cache_.carried;
  cache_.carried = headroom::carried(tr, cache_.w, query_, lesson_targets());
  cache_.carried_stale = false;
  return cache_.carried;
}

const std::vector<HeadReadout>& Scene::readout() const {
  const Trace& tr = trace();
  std::vector<HeadReadout>& readout = cache_.readout;
  if (!cache_.readout_stale) return readout;
  readout.clear();
  for (int h = 0; h < heads_; ++h) {
    // Where each of the head's relationships makes the query look; a second
    // relationship with nothing to find (it looks at the query, as the
    // first does or not) adds no target of its own.
    std::vector<Relation> rel;
    std::vector<int> targets;
    for (Relation r : head_relations(h)) {
      const int t = override_ ? target(query_, r) : looks_at(query_, r);
      if (!targets.empty() && (t == query_ || t == targets.front())) continue;
      rel.push_back(r);
      targets.push_back(t);
    }
    readout.push_back(head_readout(tr.heads[static_cast<size_t>(h)], query_, rel, targets));
  }
  cache_.readout_stale = false;
  return readout;
}

}  // namespace headroom
