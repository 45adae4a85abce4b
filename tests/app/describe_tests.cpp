// describe_tests.cpp: the readout sentence says what the engine computed.
// Expected numbers are formatted here from the Trace itself (weights on the
// targets, cosines computed in double), not copied from the readout.
#include <doctest/doctest.h>

#include <cstdio>
#include <string>

#include "app/lang/describe.h"
#include "../common/scene_lookup.h"
#include "../common/text_bits.h"

using namespace headroom;
using headroom::testing::cos_to;
using headroom::testing::has;

namespace {
std::string two(double v) {
  char b[16];
  std::snprintf(b, sizeof b, "%.2f", v);
  return b;
}
}  // namespace

TEST_CASE("one head: the weights and 'close to neither' with the real cosines") {
  Scene s;
  const int a = s.target(s.query(), Relation::Subject), b = s.target(s.query(), Relation::Complement);
  const Mat& w = s.trace().heads[0].weights;
  const std::string text = app::readout_sentence(s);
  CAPTURE(text);
  CHECK(has(text, "1 head: said = " + two(w(s.query(), a)) + " researcher + " + two(w(s.query(), b)) + " it"));
  // Words first, the symbol after: similarity, glossed as the cosine.
  CHECK(has(text, "close to neither (similarity " + two(cos_to(s, 0, a)) + " / " + two(cos_to(s, 0, b)) +
                      "; cos, 1 = same direction)"));
  // Without the gloss (a small frame): the numbers only.
  CHECK(has(app::readout_sentence(s, false),
            "close to neither (similarity " + two(cos_to(s, 0, a)) + " / " + two(cos_to(s, 0, b)) + ")"));
}

TEST_CASE("the words follow the focus: all on one reads one target, spread is mush") {
  Scene s;
  REQUIRE(s.set_focus(0.f).is_ok());
  std::string text = app::readout_sentence(s);
  CAPTURE(text);
  CHECK(has(text, "reads researcher and loses it"));
  REQUIRE(s.set_focus(1.f).is_ok());
  text = app::readout_sentence(s);
  CHECK(has(text, "mush"));
}

TEST_CASE("two heads each read their own target; extra heads are named") {
  Scene s;
  REQUIRE(s.set_heads(2).is_ok());
  std::string text = app::readout_sentence(s);
  CAPTURE(text);
  // The gloss once per sentence, on the first similarity.
  CHECK(has(text, "head 1 reads researcher (similarity " + two(cos_to(s, 0, 1)) + "; cos, 1 = same direction)"));
  CHECK(has(text, "head 2 reads it (similarity " + two(cos_to(s, 1, 7)) + ")"));
  REQUIRE(s.set_heads(4).is_ok());
  text = app::readout_sentence(s);
  CHECK(has(text, std::string("head 3 (") + relation_name(Relation::Previous) + ") reads paper"));
  const std::string all = app::describe_state(s);
  CHECK(has(all, "4 heads; each token is 128 numbers (d_model), each head gets 32 of them (d_head)"));
  CHECK(has(all, "Selected token: said"));
}

TEST_CASE("the readout names each query's own relationships, and what spare heads do") {
  Scene s;
  auto index = [&](const char* w) {
    for (size_t i = 0; i < s.tokens().size(); ++i)
      if (s.tokens()[i].text == w) return static_cast<int>(i);
    return -1;
  };
  const int it = index("it"), paper = index("paper"), said = index("said"), was = index("was");
  // One model for every row: "it" is a pronoun, and the head that holds
  // the antecedent (head 4 of four) reads "paper" from it, with the weight
  // the trace puts there; the subject and complement heads have nothing to
  // find for "it" and look at "it" itself, and say so.
  REQUIRE(s.set_heads(4).is_ok());
  REQUIRE(s.set_query(it).is_ok());
  std::string text = app::readout_sentence(s);
  CAPTURE(text);
  CHECK(has(text, "head 4 (antecedent) reads paper (similarity " + two(cos_to(s, 3, paper))));
  CHECK(has(text, "head 1 (subject: it has none, so the head looks at it itself) reads it"));
  CHECK(has(text, "head 3 (previous token) reads said"));
  // "said" at four heads: subject and complement unnamed (the lesson's
  // pair), the previous word by position, and no antecedent of its own.
  REQUIRE(s.set_query(said).is_ok());
  text = app::readout_sentence(s);
  CHECK(has(text, "head 1 reads researcher"));
  CHECK(has(text, "head 2 reads it"));
  CHECK(has(text, "head 3 (previous token) reads paper"));
  CHECK(has(text, "head 4 (antecedent: said has none, so the head looks at said itself) reads said"));
  // One head on "it": neither of its relationships has a target, so one
  // named stand-in and the weight the trace puts on "it" itself.
  REQUIRE(s.set_heads(1).is_ok());
  REQUIRE(s.set_query(it).is_ok());
  text = app::readout_sentence(s);
  const Mat& w1 = s.trace().heads[0].weights;
  CHECK(has(text, "1 head: it = " + two(w1(it, it)) + " it (subject: it has none, so the head looks at it itself)"));
  // Perturbation: "was" has its own subject and complement, and the same
  // two heads read them.
  REQUIRE(s.set_heads(2).is_ok());
  REQUIRE(s.set_query(was).is_ok());
  text = app::readout_sentence(s);
  CHECK(has(text, "head 1 reads it"));
  CHECK(has(text, "head 2 reads wrong"));
}

TEST_CASE("outside the English grammar the readout says the targets were guessed, and how to set them") {
  Scene s;
  const std::string note = "targets guessed";
  const std::string how = "click a target chip, then a token";
  CHECK_FALSE(has(app::readout_sentence(s), note));  // the lesson sentence: found, not guessed
  REQUIRE(s.set_sentence("研究者说它错了。").is_ok());
  for (int H : {1, 2}) {
    REQUIRE(s.set_heads(H).is_ok());
    const std::string text = app::readout_sentence(s);
    CAPTURE(text);
    CHECK(has(text, note));
    CHECK(has(text, how));
    CHECK(has(app::describe_state(s), note));
  }
  REQUIRE(s.set_target(Relation::Subject, 0).is_ok());  // the user set one: no longer a guess
  CHECK_FALSE(has(app::readout_sentence(s), note));
}

TEST_CASE("head captions: the built scene's relationships; with trained weights, what each head is measured to attend to") {
  Scene s;
  REQUIRE(s.set_heads(2).is_ok());
  const std::vector<HeadReadout> built = s.readout();
  CHECK(app::head_caption(s, built[0], 0) == relation_name(built[0].relations[0]));
  // The built weights handed back as "trained": the same attention, now named
  // by measurement. Reference: the head's weight row, scanned here.
  AttentionWeights w = s.weights();
  REQUIRE(s.set_weights_override(&w).is_ok());
  const int q = s.query();
  for (int h = 0; h < 2; ++h) {
    const Mat& p = s.trace().heads[static_cast<size_t>(h)].weights;
    int top = 0;
    for (int j = 1; j < p.cols(); ++j)
      if (p(q, j) > p(q, top)) top = j;
    const std::string c = app::head_caption(s, s.readout()[static_cast<size_t>(h)], h);
    CAPTURE(c);
    CHECK(c.rfind("measured: ", 0) == 0);
    CHECK(has(c, two(p(q, top))));
    // The built scene deals subject and complement to the two heads; the
    // measured top token is the relation's target and is named by it.
    CHECK(top == s.target(q, built[static_cast<size_t>(h)].relations[0]));
    CHECK(has(c, relation_name(built[static_cast<size_t>(h)].relations[0])));
  }
  // Perturbation: a head whose W_Q is zero scores every token alike, so its
  // top weight is 1/L and the caption moves with it.
  w.wq[0].setZero();
  REQUIRE(s.set_weights_override(&w).is_ok());
  const std::string flat = app::head_caption(s, s.readout()[0], 0);
  CAPTURE(flat);
  CHECK(has(flat, two(1.0 / static_cast<double>(s.tokens().size()))));
}
