// scene_tests.cpp: the lesson, proven by the engine's real computation.
//
// For sentences of the lesson's shape (subject noun, relative clause, verb,
// complement clause) the checks are: one head splits its weight and outputs
// the midpoint of two value vectors, which is close to neither; two heads each
// read one target cleanly; the focus control reaches all-on-one and spread;
// changing the matrices moves the pattern. Reference numbers (midpoints,
// cosines, the naive forward) are computed here, not taken from the readout.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "engine/lesson/scene.h"
#include "reference.h"
#include "../common/scene_lookup.h"

using namespace headroom;
using headroom::testing::index_of;

namespace {

struct LessonCase {
  const char* sentence;
  const char* verb;
  const char* subject;
  const char* complement;
};

const LessonCase kCases[] = {
    {"The researcher who wrote the paper said it was wrong.", "said", "researcher", "it"},
    {"The senator who attacked the reporter admitted she was wrong.", "admitted", "senator", "she"},
    {"The dog that chased the cat knew it was late.", "knew", "dog", "it"},
    {"The chef who cooked the meal for the critic claimed it was perfect.", "claimed", "chef", "it"},
};


double cosine(const Eigen::VectorXd& a, const Eigen::VectorXd& b) { return a.dot(b) / (a.norm() * b.norm()); }

Eigen::VectorXd row(const Mat& m, int i) { return m.row(i).transpose().cast<double>(); }

// Weight on token j for the query in head h.
float weight(Scene& s, int h, int j) { return s.trace().heads[static_cast<size_t>(h)].weights(s.query(), j); }

}  // namespace

TEST_CASE("the scene's trace is the engine's forward pass of its X and weights") {
  Scene s;
  for (int H : kHeadCounts) {
    CAPTURE(H);
    REQUIRE(s.set_heads(H).is_ok());
    const Trace& t = s.trace();
    const ref::NaiveTrace n = ref::naive_forward(s.x(), s.weights());
    for (int h = 0; h < H; ++h) {
      const double d = ref::rel_diff(t.heads[static_cast<size_t>(h)].weights, n.weights[static_cast<size_t>(h)]);
      CHECK(d <= 1e-4);  // scores reach ~16 nats; float exp vs double exp
    }
    CHECK(ref::rel_diff(t.out, n.out) <= 1e-4);
  }
}

TEST_CASE("lesson: one head splits, two heads separate") {
  for (const LessonCase& c : kCases) {
    CAPTURE(c.sentence);
    Scene s;
    REQUIRE(s.set_sentence(c.sentence).is_ok());
    const int verb = index_of(s, c.verb), subj = index_of(s, c.subject), comp = index_of(s, c.complement);
    REQUIRE(verb >= 0);
    REQUIRE(subj >= 0);
    REQUIRE(comp >= 0);
    CHECK(s.query() == verb);  // the default query is the main verb
    const int L = static_cast<int>(s.tokens().size());

    SUBCASE("one head, default focus: the midpoint of two meanings") {
      REQUIRE(s.heads() == 1);
      const float ws = weight(s, 0, subj), wc = weight(s, 0, comp);
      CHECK(ws >= 0.35f);
      CHECK(ws <= 0.65f);
      CHECK(wc >= 0.35f);
      CHECK(wc <= 0.65f);
      const HeadTrace& ht = s.trace().heads[0];
      const Eigen::VectorXd out = row(ht.out, verb);
      const Eigen::VectorXd vs = row(ht.v, subj), vc = row(ht.v, comp);
      const double to_mid = cosine(out, 0.5 * (vs + vc));
      const double to_subj = cosine(out, vs), to_comp = cosine(out, vc);
      CHECK(to_mid >= 0.95);
      CHECK(to_subj <= to_mid - 0.1);  // clearly lower to either alone
      CHECK(to_comp <= to_mid - 0.1);
      // the readout reports the same numbers
      const HeadReadout r = s.readout()[0];
      CHECK(r.midpoint_cos == doctest::Approx(to_mid).epsilon(1e-4));
      REQUIRE(r.targets.size() == 2u);
      CHECK(r.targets[0] == subj);
      CHECK(r.targets[1] == comp);
      CHECK(r.target_cos[0] == doctest::Approx(to_subj).epsilon(1e-4));
    }

    SUBCASE("two heads: each reads one target") {
      REQUIRE(s.set_heads(2).is_ok());
      int reads_subj = -1, reads_comp = -1;
      for (int h = 0; h < 2; ++h) {
        if (weight(s, h, subj) >= 0.9f) reads_subj = h;
        if (weight(s, h, comp) >= 0.9f) reads_comp = h;
      }
      REQUIRE(reads_subj >= 0);
      REQUIRE(reads_comp >= 0);
      CHECK(reads_subj != reads_comp);
      const Trace& t = s.trace();
      const HeadTrace& hs = t.heads[static_cast<size_t>(reads_subj)];
      const HeadTrace& hc = t.heads[static_cast<size_t>(reads_comp)];
      CHECK(cosine(row(hs.out, verb), row(hs.v, subj)) >= 0.95);
      CHECK(cosine(row(hc.out, verb), row(hc.v, comp)) >= 0.95);
      // both survive in the concatenation: its two blocks are the two outputs
      const int dh = s.d_head();
      const Eigen::VectorXd cat = row(t.concat, verb);
      CHECK(cosine(cat.segment(reads_subj * dh, dh), row(hs.v, subj)) >= 0.95);
      CHECK(cosine(cat.segment(reads_comp * dh, dh), row(hc.v, comp)) >= 0.95);
    }

    SUBCASE("focus extremes: all on one, and spread thin") {
      REQUIRE(s.set_focus(0.f).is_ok());
      CHECK(std::max(weight(s, 0, subj), weight(s, 0, comp)) >= 0.9f);
      REQUIRE(s.set_focus(1.f).is_ok());
      const float max_w = s.trace().heads[0].weights.row(verb).maxCoeff();
      CHECK(max_w <= 2.f / static_cast<float>(L));
      // and the walk in between moves monotonically from one to the other
      float prev_second = -1.f;
      for (float f : {0.f, 0.1f, 0.2f, 0.3f, 0.4f, 0.5f}) {
        REQUIRE(s.set_focus(f).is_ok());
        const float second = weight(s, 0, comp);
        CHECK(second >= prev_second);
        prev_second = second;
      }
    }
  }
}

TEST_CASE("perturbation: swapping two relationships between heads swaps where they attend") {
  Scene s;
  REQUIRE(s.set_heads(2).is_ok());
  const int subj = index_of(s, "researcher"), comp = index_of(s, "it");
  CHECK(weight(s, 0, subj) >= 0.9f);
  CHECK(weight(s, 1, comp) >= 0.9f);
  std::array<Relation, kRelations> order;
  for (int r = 0; r < kRelations; ++r) order[static_cast<size_t>(r)] = static_cast<Relation>(r);
  std::swap(order[0], order[1]);
  s.set_relation_order(order);
  CHECK(weight(s, 0, comp) >= 0.9f);
  CHECK(weight(s, 1, subj) >= 0.9f);
  CHECK(weight(s, 0, subj) <= 0.1f);
}

TEST_CASE("perturbation: shrinking a head's W_Q toward zero flattens its row") {
  Scene s;
  REQUIRE(s.set_heads(2).is_ok());
  const int L = static_cast<int>(s.tokens().size()), q = s.query();
  AttentionWeights w = s.weights();
  const Mat x = s.x();
  float prev_max = 2.f;
  for (float k : {1.f, 0.3f, 0.1f, 0.01f, 0.f}) {
    CAPTURE(k);
    AttentionWeights wk = w;
    wk.wq[0] *= k;
    Trace t;
    REQUIRE(forward(x, wk, t).is_ok());
    const float m = t.heads[0].weights.row(q).maxCoeff();
    CHECK(m <= prev_max + 1e-6f);
    prev_max = m;
    // the other head does not notice
    CHECK(t.heads[1].weights.row(q).maxCoeff() >= 0.9f);
  }
  CHECK(prev_max == doctest::Approx(1.0 / L).epsilon(1e-5));
}

TEST_CASE("perturbation: reassigning a target moves the head that holds it") {
  Scene s;
  REQUIRE(s.set_heads(2).is_ok());
  const int paper = index_of(s, "paper");
  CHECK(weight(s, 0, paper) <= 0.1f);
  REQUIRE(s.set_target(Relation::Subject, paper).is_ok());
  CHECK(weight(s, 0, paper) >= 0.9f);
  CHECK(weight(s, 1, index_of(s, "it")) >= 0.9f);  // the other head keeps its target
  CHECK_FALSE(s.set_target(Relation::Previous, 2).is_ok());  // positional: fixed
  CHECK_FALSE(s.set_target(Relation::Subject, 99).is_ok());
  s.reset_targets();
  CHECK(weight(s, 0, index_of(s, "researcher")) >= 0.9f);
}

TEST_CASE("exactly the reassignable relationships have a pointer in X") {
  // relation.h lists the pointers; the embedding must carry p(target) for
  // each: retargeting one changes the query's row of X, nothing else.
  for (int ri = 0; ri < kRelations; ++ri) {
    const Relation r = static_cast<Relation>(ri);
    CAPTURE(relation_name(r));
    Scene s;
    const Mat before = s.x();
    const int q = s.query(), to = s.target(q, r) == 0 ? 1 : 0;
    const Status st = s.set_target(r, to);
    CHECK(st.is_ok() == relation_reassignable(r));
    const Mat after = s.x();
    if (!st.is_ok()) {
      CHECK(after == before);
      continue;
    }
    CHECK(after.row(q) != before.row(q));
    Mat others_b = before, others_a = after;
    others_b.row(q).setZero();
    others_a.row(q).setZero();
    CHECK(others_a == others_b);
  }
}

TEST_CASE("four and eight heads take further named relationships") {
  Scene s;
  const int q = s.query();
  for (int H : {4, 8}) {
    REQUIRE(s.set_heads(H).is_ok());
    const std::vector<HeadReadout> r = s.readout();
    REQUIRE(r.size() == static_cast<size_t>(H));
    for (int h = 0; h < H; ++h) {
      CAPTURE(h);
      REQUIRE(r[static_cast<size_t>(h)].relations.size() == 1u);
      const int t = s.looks_at(q, r[static_cast<size_t>(h)].relations[0]);
      CHECK(weight(s, h, t) >= 0.9f);  // each head reads its own target (or, idle, the query itself)
    }
    CHECK(s.target(q, Relation::Previous) == q - 1);
  }
  CHECK(s.target(q, Relation::Next) == q + 1);
  CHECK(s.target(q, Relation::Start) == 0);
}

TEST_CASE("position codes: every pair of targets out-scores every other token") {
  // Re-measures the property the frequencies were chosen for, in double, from
  // the embedding X itself: for all a < b < 32, a head holding pointers to a
  // and b scores both above every other token by a margin.
  Scene s;
  REQUIRE(s.set_stress(SceneConfig::kMaxTokens).is_ok());
  const Mat& x = s.x();
  const int n = SceneConfig::kMaxTokens;
  auto p = [&](int i) -> Eigen::RowVectorXd { return x.block(i, 48, 1, 16).cast<double>(); };
  double worst = 1e9;
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b) {
      const Eigen::RowVectorXd q = p(a) + p(b);
      const double target = std::min(q.dot(p(a)), q.dot(p(b)));
      double other = -1e9;
      for (int j = 0; j < n; ++j)
        if (j != a && j != b) other = std::max(other, q.dot(p(j)));
      worst = std::min(worst, target - other);
    }
  CHECK(worst >= 0.25);
  // and p(i) are unit vectors
  for (int i = 0; i < n; ++i) CHECK(p(i).norm() == doctest::Approx(1.0).epsilon(1e-6));
}

TEST_CASE("invalid head counts are refused and leave the scene unchanged") {
  Scene s;
  REQUIRE(s.set_heads(2).is_ok());
  const Mat before = s.trace().out;
  for (int H : {0, -1, 3, 5, 16, 129, 999999}) {
    CAPTURE(H);
    const Status st = s.set_heads(H);
    CHECK_FALSE(st.is_ok());
    CHECK_FALSE(st.error.empty());
    CHECK(s.heads() == 2);
    CHECK(s.trace().out == before);
  }
}

TEST_CASE("kHeadCounts is exactly the head counts set_heads takes") {
  // Hand-derived: H divides 128, 128/H >= 16 (the position code), H <= 8.
  std::vector<int> derived, accepted;
  for (int H = 1; H <= 128; ++H) {
    if (128 % H == 0 && 128 / H >= 16 && H <= 8) derived.push_back(H);
    Scene s;
    if (s.set_heads(H).is_ok()) accepted.push_back(H);
  }
  CHECK(accepted == derived);
  CHECK(std::vector<int>(kHeadCounts.begin(), kHeadCounts.end()) == derived);
  Scene s;
  CHECK(s.set_heads(16).error.find("1, 2, 4 or 8 heads") != std::string::npos);
}

TEST_CASE("bad sentences are refused with a reason; odd but real text works") {
  Scene s;
  const std::vector<Token> before = s.tokens();
  const Mat out_before = s.trace().out;
  const std::string over_cap = [] {
    std::string t;
    for (int i = 0; i < SceneConfig::kMaxTokens + 1; ++i) t += "word ";
    return t;
  }();
  const std::string huge(SceneConfig::kMaxBytes + 1, 'a');
  for (const std::string& bad : {std::string(), std::string("   \t\n "), over_cap, huge,
                                 std::string("\x01\x02\x7f\x1b")}) {
    CAPTURE(bad.size());
    const Status st = s.set_sentence(bad);
    CHECK_FALSE(st.is_ok());
    CHECK_FALSE(st.error.empty());
    CHECK(s.tokens().size() == before.size());
    CHECK(s.trace().out == out_before);
  }
  CHECK(s.set_sentence(over_cap).error.find(std::to_string(SceneConfig::kMaxTokens)) != std::string::npos);
  for (const char* good : {"Hello", "Le chercheur a dit que c'était faux.", "我爱你", "שלום עולם",
                           "The cat 😺 sat.", "e\xCC\x81t\xC3\xA9"}) {
    CAPTURE(good);
    REQUIRE(s.set_sentence(good).is_ok());
    for (int H : kHeadCounts) {
      REQUIRE(s.set_heads(H).is_ok());
      const Trace& t = s.trace();
      CHECK(t.out.allFinite());
      for (const HeadTrace& ht : t.heads)
        CHECK(ht.weights.row(s.query()).sum() == doctest::Approx(1.0).epsilon(1e-5));
    }
  }
  REQUIRE(s.set_sentence("Hello").is_ok());
  CHECK(s.trace().heads[0].weights(0, 0) == doctest::Approx(1.0));  // one token attends to itself
}

TEST_CASE("query, focus and stress refuse out-of-range values and keep state") {
  Scene s;
  const int q = s.query();
  CHECK_FALSE(s.set_query(-1).is_ok());
  CHECK_FALSE(s.set_query(static_cast<int>(s.tokens().size())).is_ok());
  CHECK(s.query() == q);
  for (float f : {-0.1f, 1.5f, NAN, INFINITY}) {
    CHECK_FALSE(s.set_focus(f).is_ok());
    CHECK(s.focus() == 0.5f);
  }
  CHECK_FALSE(s.set_stress(-3).is_ok());
  CHECK_FALSE(s.set_stress(SceneConfig::kMaxStressTokens + 1).is_ok());
  REQUIRE(s.set_stress(SceneConfig::kMaxStressTokens).is_ok());
  CHECK(s.tokens().size() == static_cast<size_t>(SceneConfig::kMaxStressTokens));
  REQUIRE(s.set_heads(8).is_ok());
  CHECK(s.trace().heads[7].weights.rows() == SceneConfig::kMaxStressTokens);
  REQUIRE(s.set_stress(0).is_ok());
  CHECK(s.tokens().size() == 11u);
}

TEST_CASE("the cached readout and value maps follow the query, the targets and the heads") {
  Scene s;
  REQUIRE(s.set_heads(2).is_ok());
  const int said = s.query(), was = index_of(s, "was");
  CHECK(s.readout()[0].targets[0] == index_of(s, "researcher"));
  REQUIRE(s.set_query(was).is_ok());  // the subject of "was" is "it"
  REQUIRE(s.target(was, Relation::Subject) == index_of(s, "it"));
  const std::vector<HeadReadout> r = s.readout();
  CHECK(r[0].targets[0] == index_of(s, "it"));
  CHECK(r[0].target_weight[0] == doctest::Approx(weight(s, 0, index_of(s, "it"))));
  CHECK(s.value_maps()[0].anchor_a == index_of(s, "it"));
  REQUIRE(s.set_query(said).is_ok());
  REQUIRE(s.set_target(Relation::Subject, index_of(s, "paper")).is_ok());
  CHECK(s.readout()[0].targets[0] == index_of(s, "paper"));
  CHECK(s.value_maps()[0].anchor_a == index_of(s, "paper"));
  REQUIRE(s.set_heads(4).is_ok());
  CHECK(s.readout().size() == 4u);
  CHECK(s.value_maps().size() == 4u);
}

TEST_CASE("trained weights override: the trace follows them, refusals keep state, heads change drops them") {
  Scene s;
  REQUIRE(s.set_heads(2).is_ok());
  const int subj = index_of(s, "researcher"), comp = index_of(s, "it");
  const AttentionWeights built = s.weights();
  // Other weights: the built ones with the two heads' W_Q swapped, so head 0
  // must now attend to the complement and head 1 to the subject.
  AttentionWeights swapped = built;
  std::swap(swapped.wq[0], swapped.wq[1]);
  REQUIRE(s.set_weights_override(&swapped).is_ok());
  CHECK(s.weights_overridden());
  CHECK(weight(s, 0, comp) >= 0.9f);
  CHECK(weight(s, 1, subj) >= 0.9f);
  const ref::NaiveTrace n = ref::naive_forward(s.x(), swapped);
  CHECK(ref::rel_diff(s.trace().out, n.out) <= 1e-4);
  // Trained weights are read against both lesson relationships in every head.
  CHECK(s.readout()[0].targets.size() == 2);
  CHECK(s.readout()[1].targets.size() == 2);

  // Refused: wrong head count, wrong d_model, broken shapes; the override stays.
  AttentionWeights four = built;
  four.heads = 4;
  CHECK_FALSE(s.set_weights_override(&four).is_ok());
  AttentionWeights bad = swapped;
  bad.wo.resize(3, 3);
  CHECK_FALSE(s.set_weights_override(&bad).is_ok());
  CHECK(weight(s, 0, comp) >= 0.9f);

  // nullptr: the built weights again.
  REQUIRE(s.set_weights_override(nullptr).is_ok());
  CHECK_FALSE(s.weights_overridden());
  CHECK(weight(s, 0, subj) >= 0.9f);

  // A heads change drops the override (its shapes are for two heads).
  REQUIRE(s.set_weights_override(&swapped).is_ok());
  REQUIRE(s.set_heads(1).is_ok());
  CHECK_FALSE(s.weights_overridden());
  REQUIRE(s.set_heads(2).is_ok());
  CHECK(weight(s, 0, subj) >= 0.9f);
}

TEST_CASE("one model whatever the query: selecting any token changes neither X nor a weight") {
  for (const LessonCase& c : kCases) {
    CAPTURE(c.sentence);
    Scene s;
    REQUIRE(s.set_sentence(c.sentence).is_ok());
    for (int H : kHeadCounts) {
      CAPTURE(H);
      REQUIRE(s.set_heads(H).is_ok());
      REQUIRE(s.set_query(0).is_ok());
      const Mat x = s.x();
      const AttentionWeights w = s.weights();
      std::vector<Mat> p;
      for (const HeadTrace& ht : s.trace().heads) p.push_back(ht.weights);
      const int L = static_cast<int>(s.tokens().size());
      for (int q = 1; q < L; ++q) {
        REQUIRE(s.set_query(q).is_ok());
        CHECK(s.x() == x);
        for (int h = 0; h < H; ++h) {
          CHECK(s.weights().wq[static_cast<size_t>(h)] == w.wq[static_cast<size_t>(h)]);
          CHECK(s.weights().wk[static_cast<size_t>(h)] == w.wk[static_cast<size_t>(h)]);
          CHECK(s.trace().heads[static_cast<size_t>(h)].weights == p[static_cast<size_t>(h)]);  // the same heatmap
          CHECK(s.head_relations(h) == (H == 1 ? std::vector<Relation>{Relation::Subject, Relation::Complement}
                                               : std::vector<Relation>{static_cast<Relation>(h)}));
        }
      }
    }
  }
}

TEST_CASE("one model: every row's head looks where its relationship points, or at itself when it has none") {
  for (const LessonCase& c : kCases) {
    CAPTURE(c.sentence);
    Scene s;
    REQUIRE(s.set_sentence(c.sentence).is_ok());
    REQUIRE(s.set_heads(4).is_ok());
    const int L = static_cast<int>(s.tokens().size());
    for (int i = 0; i < L; ++i)
      for (int h = 0; h < 4; ++h) {
        CAPTURE(i);
        CAPTURE(h);
        const Relation r = static_cast<Relation>(h);
        const int t = s.looks_at(i, r);
        // the hand-derived rule: the target where the relationship fits, else the token itself
        CHECK(t == (s.fits(i, r) ? s.target(i, r) : i));
        const auto& row = s.trace().heads[static_cast<size_t>(h)].weights.row(i);
        Eigen::Index top = 0;
        row.maxCoeff(&top);
        CHECK(static_cast<int>(top) == t);
      }
    // and the lesson's verb keeps its claims: one head splits, two separate
    const int v = index_of(s, c.verb), subj = index_of(s, c.subject), comp = index_of(s, c.complement);
    REQUIRE(s.set_query(v).is_ok());
    REQUIRE(s.set_heads(1).is_ok());
    CHECK(weight(s, 0, subj) == doctest::Approx(weight(s, 0, comp)).epsilon(0.05));
    CHECK(weight(s, 0, subj) + weight(s, 0, comp) >= 0.9f);
    REQUIRE(s.set_heads(2).is_ok());
    CHECK(weight(s, 0, subj) >= 0.9f);
    CHECK(weight(s, 1, comp) >= 0.9f);
  }
}

TEST_CASE("one model, tied query and key: every row's scores are symmetric, the self-scores the largest") {
  Scene s;
  REQUIRE(s.set_heads(2).is_ok());
  REQUIRE(s.set_tie_qk(true).is_ok());
  for (const HeadTrace& ht : s.trace().heads) {
    const Mat& sc = ht.scores;
    const float scale = sc.cwiseAbs().maxCoeff();
    CHECK((sc - sc.transpose()).cwiseAbs().maxCoeff() <= 1e-5f * scale);
    // x W . y W <= |x W| |y W| (Cauchy-Schwarz): score(i, j) <= max(score(i, i), score(j, j))
    for (int i = 0; i < sc.rows(); ++i)
      for (int j = 0; j < sc.cols(); ++j) CHECK(sc(i, j) <= std::max(sc(i, i), sc(j, j)) + 1e-4f * scale);
  }
}
