// text_corpus_fixture.h: a made-up corpus for the app's text-task tests
// (text_training_tests.cpp, head_log_tests.cpp).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "engine/train/text_corpus.h"

namespace test_fixture {

using namespace headroom;

// A made-up corpus: 40 documents of 120 tokens over 12 words (every fifth
// held out), each word mostly followed by the next.
inline std::shared_ptr<const TextCorpus> small_corpus() {
  const int K = 12;
  std::vector<std::string> words = {"<unk>", "<num>"};
  for (int k = 0; k < K; ++k) words.push_back("w" + std::to_string(k));
  std::vector<uint16_t> ids;
  std::vector<CorpusDocument> docs;
  uint32_t s = 7;
  for (int d = 0; d < 40; ++d) {
    CorpusDocument doc;
    doc.first = static_cast<int>(ids.size());
    doc.count = 120;
    doc.held_out = d % 5 == 4;
    int w = d % K;
    for (int i = 0; i < doc.count; ++i) {
      ids.push_back(static_cast<uint16_t>(2 + w));
      s = s * 1664525u + 1013904223u;
      w = (s >> 24) % 10 < 8 ? (w + 1) % K : static_cast<int>((s >> 8) % K);
    }
    docs.push_back(doc);
  }
  auto c = std::make_shared<TextCorpus>();
  REQUIRE(make_text_corpus(words, ids, docs, *c).is_ok());
  c->name = "small";
  return c;
}

}  // namespace test_fixture
