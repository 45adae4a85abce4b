// train_task_tests.cpp: the training task's generator and loss, and the
// portable random numbers they draw from (embedding.h).
//
// Checks: the portable log / cos agree with the C library; the Gaussian has
// mean 0 and variance 1; a generated batch has a fixed checksum (the same
// number natively and as wasm: bit-for-bit agreement across platforms); every
// example depends only on its index; the content stream and the structure
// stream are independent (swapping one leaves the other's columns identical,
// and content correlates with nothing structural); every query's pointers,
// slots and targets follow train_task.h's rules; the loss equals a naive
// double loop, scores exactly 1 for a zero prediction and 0 for the target,
// and its gradient matches central differences.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <set>

#include "engine/common/embedding.h"
#include "engine/common/random.h"
#include "engine/train/train_task.h"
#include "engine/lesson/lexicon.h"

using namespace headroom;

namespace {

constexpr int kTaskD = kTaskDModel, kTaskK = kTaskContentDims;

uint64_t fnv_bytes(const void* p, size_t n, uint64_t h = 0xcbf29ce484222325ull) {
  const unsigned char* c = static_cast<const unsigned char*>(p);
  for (size_t i = 0; i < n; ++i) h = (h ^ c[i]) * 0x100000001b3ull;
  return h;
}

uint64_t checksum(const TaskBatch& b) {
  uint64_t h = fnv_bytes(b.x.data(), sizeof(float) * static_cast<size_t>(b.x.size()));
  h = fnv_bytes(b.target.data(), sizeof(float) * static_cast<size_t>(b.target.size()), h);
  h = fnv_bytes(b.mask.data(), sizeof(float) * b.mask.size(), h);
  return fnv_bytes(b.related.data(), sizeof(int) * b.related.size(), h);
}

TaskBatch make(const TaskConfig& cfg, uint64_t seed, int64_t first, int count, uint64_t purpose = 7) {
  TaskBatch b;
  const Status s = generate_task_batch(cfg, task_streams(seed, purpose), first, count, b);
  REQUIRE(s.is_ok());
  return b;
}

// The token of example e other than q whose agreement columns equal q's, read
// from x alone; -1 if none, -2 if more than one.
int agreeing_token(const TaskBatch& b, int e, int q) {
  const int L = b.cfg.tokens;
  const Eigen::Index row0 = static_cast<Eigen::Index>(e) * L;
  int found = -1;
  for (int j = 0; j < L; ++j) {
    if (j == q) continue;
    if (b.x.block(row0 + j, kTaskAgreementColumn, 1, 16) != b.x.block(row0 + q, kTaskAgreementColumn, 1, 16)) continue;
    found = found == -1 ? j : -2;
  }
  return found;
}

}  // namespace

TEST_CASE("portable cos2pi, sin2pi and log agree with the C library") {
  double worst_cos = 0, worst_log = 0;
  for (int i = -2000; i <= 2000; ++i) {
    const double u = i * 0.001237;
    worst_cos = std::max(worst_cos, std::fabs(prng::cos2pi(u) - std::cos(2 * M_PI * u)));
    worst_cos = std::max(worst_cos, std::fabs(prng::sin2pi(u) - std::sin(2 * M_PI * u)));
  }
  for (double x = 1e-300; x < 1e300; x *= 1.37)
    worst_log = std::max(worst_log, std::fabs(prng::log_portable(x) - std::log(x)) / std::max(1.0, std::fabs(std::log(x))));
  for (double x = 0.01; x <= 1.0; x += 0.0097)
    worst_log = std::max(worst_log, std::fabs(prng::log_portable(x) - std::log(x)));
  CHECK(worst_cos < 1e-14);
  CHECK(worst_log < 1e-14);
}

TEST_CASE("the Gaussian has mean 0 and variance 1; below(n) is uniform") {
  prng::Rng rng{42};
  const int n = 200000;
  double s = 0, s2 = 0, s4 = 0;
  for (int i = 0; i < n; ++i) {
    const double g = rng.gauss();
    s += g;
    s2 += g * g;
    s4 += g * g * g * g;
  }
  CHECK(std::fabs(s / n) < 0.01);
  CHECK(std::fabs(s2 / n - 1.0) < 0.015);
  CHECK(std::fabs(s4 / n - 3.0) < 0.06);  // Gaussian kurtosis
  int counts[7] = {};
  for (int i = 0; i < 70000; ++i) ++counts[rng.below(7)];
  for (int c : counts) CHECK(std::abs(c - 10000) < 400);
}

TEST_CASE("the shared position code is the scene's cos/sin code") {
  float p[embed::kCode];
  for (int i = 0; i < 32; ++i) {
    embed::position_code(i, p);
    for (int f = 0; f < embed::kFreqs; ++f) {
      const float s = 1.0f / std::sqrt(8.0f), a = embed::kFreq[f] * static_cast<float>(i);
      CHECK(std::fabs(p[2 * f] - s * std::cos(a)) < 1e-6f);
      CHECK(std::fabs(p[2 * f + 1] - s * std::sin(a)) < 1e-6f);
    }
  }
}

TEST_CASE("a generated batch is the same on every platform (checksum)") {
  TaskConfig cfg;
  cfg.relations = 4;
  cfg.queries = 3;
  const TaskBatch b = make(cfg, 12345, 100, 8);
  // Measured natively (x86-64 glibc); the wasm build of this suite checks the
  // same number, which is what "bit for bit on native and wasm" means.
  CHECK(checksum(b) == 10374380446675743114ull);  // R = 4 has coreference
}

TEST_CASE("examples depend on the seed and their index only") {
  TaskConfig cfg;
  const TaskBatch a = make(cfg, 9, 0, 10);
  const TaskBatch again = make(cfg, 9, 0, 10);
  CHECK(checksum(a) == checksum(again));
  const TaskBatch tail = make(cfg, 9, 6, 4);
  const int L = cfg.tokens;
  CHECK(tail.x == a.x.middleRows(6 * L, 4 * L));
  CHECK(tail.target == a.target.middleRows(6 * L, 4 * L));
  const TaskBatch other = make(cfg, 10, 0, 10);
  CHECK((other.x - a.x).cwiseAbs().maxCoeff() > 0.1f);
  const TaskBatch other_purpose = make(cfg, 9, 0, 10, 8);
  CHECK((other_purpose.x - a.x).cwiseAbs().maxCoeff() > 0.1f);
}

TEST_CASE("content and structure come from independent streams") {
  TaskConfig cfg;
  cfg.relations = 4;
  cfg.queries = 2;
  TaskStreams s = task_streams(3, 1);
  TaskBatch a, b;
  REQUIRE(generate_task_batch(cfg, s, 0, 64, a).is_ok());
  s.content ^= 0xABCDEF;
  REQUIRE(generate_task_batch(cfg, s, 0, 64, b).is_ok());
  // Everything but the content block (and the targets, which copy content) is unchanged.
  CHECK(a.x.rightCols(kTaskD - kTaskK) == b.x.rightCols(kTaskD - kTaskK));
  CHECK(a.mask == b.mask);
  CHECK(a.related == b.related);
  CHECK((a.x.leftCols(kTaskK) - b.x.leftCols(kTaskK)).cwiseAbs().maxCoeff() > 0.1f);

  // Across many tokens, no content coordinate correlates with a role bit,
  // a position or pointer column, or being a query / a target.
  const TaskBatch big = make(cfg, 77, 0, 1000);
  const Eigen::Index n = big.x.rows();
  std::vector<float> is_target(static_cast<size_t>(n), 0.f);
  for (Eigen::Index row = 0; row < n; ++row)
    for (int r = 0; r < cfg.relations; ++r) {
      const int t = big.related[static_cast<size_t>(row * cfg.relations + r)];
      if (t >= 0) is_target[static_cast<size_t>(row - row % cfg.tokens + t)] = 1.f;
    }
  auto corr = [&](const Eigen::VectorXf& u, const Eigen::VectorXf& v) {
    const Eigen::VectorXd a_ = u.cast<double>().array() - u.cast<double>().mean();
    const Eigen::VectorXd b_ = v.cast<double>().array() - v.cast<double>().mean();
    const double den = a_.norm() * b_.norm();
    return den > 0 ? a_.dot(b_) / den : 0.0;
  };
  const Eigen::VectorXf mask = Eigen::Map<const Eigen::VectorXf>(big.mask.data(), n);
  const Eigen::VectorXf target = Eigen::Map<const Eigen::VectorXf>(is_target.data(), n);
  const double bound = 5.0 / std::sqrt(static_cast<double>(n));  // 5 sigma
  double worst = 0;
  for (int c = 0; c < kTaskK; ++c) {
    const Eigen::VectorXf content = big.x.col(c);
    for (int s2 = kTaskK; s2 < kTaskD; ++s2)
      if ((big.x.col(s2).array() != big.x(0, s2)).any()) worst = std::max(worst, std::fabs(corr(content, big.x.col(s2))));
    worst = std::max(worst, std::fabs(corr(content, mask)));
    worst = std::max(worst, std::fabs(corr(content, target)));
  }
  CHECK(worst < bound);
  // and the contents are unit vectors
  CHECK((big.x.leftCols(kTaskK).rowwise().norm().array() - 1.f).abs().maxCoeff() < 1e-5f);
}

TEST_CASE("queries, slots, pointers and targets follow the rules") {
  for (int R : {2, 4})
    for (int queries : {1, 3}) {
      TaskConfig cfg;
      cfg.relations = R;
      cfg.queries = queries;
      const int L = cfg.tokens;
      const TaskBatch b = make(cfg, 5, 0, 200);
      CHECK(b.masked == 200 * queries);
      std::set<int> query_positions, subject_positions, offsets;
      int masked = 0;
      for (int e = 0; e < 200; ++e) {
        int in_example = 0;
        for (int q = 0; q < L; ++q) {
          const Eigen::Index row = static_cast<Eigen::Index>(e) * L + q;
          if (b.mask[static_cast<size_t>(row)] == 0.f) {
            CHECK(b.target.row(row).isZero());
            continue;
          }
          ++masked;
          ++in_example;
          query_positions.insert(q);
          std::set<int> seen{q};
          for (int r = 0; r < R; ++r) {
            const int t = b.related[static_cast<size_t>(row * R + r)];
            REQUIRE(t >= 0);
            REQUIRE(t < L);
            CHECK(seen.insert(t).second);  // distinct, and not the query
            // slot r's target columns hold the related token's content
            CHECK(b.target.block(row, r * kTaskK, 1, kTaskK) == b.x.block(static_cast<Eigen::Index>(e) * L + t, 0, 1, kTaskK));
          }
          CHECK(b.target.rightCols(kTaskOutputDims - R * kTaskK).row(row).isZero());
          subject_positions.insert(b.related[static_cast<size_t>(row * R)]);
          // the subject and complement pointers hold p(target)
          float p[embed::kCode];
          for (int r = 0; r < 2; ++r) {
            embed::position_code(b.related[static_cast<size_t>(row * R + r)], p);
            for (int c = 0; c < embed::kCode; ++c) CHECK(b.x(row, embed::kPointerColumn[r] + c) == p[c]);
          }
          if (R == 4) {
            CHECK(b.related[static_cast<size_t>(row * R + 2)] == q - 1);
            // coreference: read from x alone, the one other token with the
            // query's agreement features
            const int found = agreeing_token(b, e, q);
            CHECK(found >= 0);
            CHECK(b.related[static_cast<size_t>(row * R + 3)] == found);
            offsets.insert(found - q);
          }
        }
        CHECK(in_example == queries);
      }
      CHECK(masked == b.masked);
      // positions vary: queries and subjects land on many positions
      CHECK(query_positions.size() >= static_cast<size_t>(R == 4 ? L - 1 : L));
      // the antecedent sits anywhere: before and after the query, near and far
      if (R == 4) CHECK(offsets.size() >= static_cast<size_t>(2 * (L - 1) - 3));
      CHECK(subject_positions.size() >= static_cast<size_t>(L - 3));
    }
}

TEST_CASE("coreference is findable only by content: the agreement stream moves it and nothing else") {
  TaskConfig cfg;
  cfg.relations = 4;
  cfg.queries = 10;
  const int L = cfg.tokens, R = 4;
  TaskStreams s = task_streams(4, 1);
  TaskBatch a, b;
  REQUIRE(generate_task_batch(cfg, s, 0, 300, a).is_ok());
  s.agreement ^= 0x5A5A5A;  // new pairings and classes, same everything else
  REQUIRE(generate_task_batch(cfg, s, 0, 300, b).is_ok());
  const Eigen::Index A = kTaskAgreementColumn;
  // everything outside the agreement block is bit-identical...
  CHECK(a.x.leftCols(A) == b.x.leftCols(A));
  CHECK(a.x.rightCols(kTaskD - A - 16) == b.x.rightCols(kTaskD - A - 16));
  CHECK(a.mask == b.mask);
  CHECK(a.target.leftCols(3 * kTaskK) == b.target.leftCols(3 * kTaskK));
  // ...and the antecedents moved, the targets following the features
  int moved = 0, queries = 0;
  for (int e = 0; e < 300; ++e)
    for (int q = 0; q < L; ++q) {
      const Eigen::Index row = static_cast<Eigen::Index>(e) * L + q;
      for (int r = 0; r < 3; ++r)
        CHECK(a.related[static_cast<size_t>(row * R + r)] == b.related[static_cast<size_t>(row * R + r)]);
      if (a.mask[static_cast<size_t>(row)] == 0.f) continue;
      ++queries;
      const int ta = a.related[static_cast<size_t>(row * R + 3)], tb = b.related[static_cast<size_t>(row * R + 3)];
      CHECK(ta == agreeing_token(a, e, q));
      CHECK(tb == agreeing_token(b, e, q));
      moved += ta != tb;
      CHECK(b.target.block(row, 3 * kTaskK, 1, kTaskK) == b.x.block(static_cast<Eigen::Index>(e) * L + tb, 0, 1, kTaskK));
    }
  // a new pairing keeps a query's antecedent about 1 time in 8 (1 of ~8 allowed tokens)
  CHECK(moved > queries * 3 / 4);
  // the block is three one-hot groups of unit norm, and a query's agreement
  // says nothing about position: the antecedent's offset has mean ~0 over
  // many queries (before and after the query alike)
  double offset_sum = 0;
  for (int e = 0; e < 300; ++e)
    for (int q = 0; q < L; ++q) {
      const Eigen::Index row = static_cast<Eigen::Index>(e) * L + q;
      CHECK(std::fabs(a.x.block(row, A, 1, 16).squaredNorm() - 1.f) < 1e-5f);
      if (a.mask[static_cast<size_t>(row)] != 0.f) offset_sum += a.related[static_cast<size_t>(row * R + 3)] - q;
    }
  CHECK(std::fabs(offset_sum / queries) < 1.0);
  // R = 2 keeps the random antecedent pointer: no agreement block
  TaskBatch two;
  cfg.relations = 2;
  REQUIRE(generate_task_batch(cfg, task_streams(4, 1), 0, 20, two).is_ok());
  for (Eigen::Index row = 0; row < two.x.rows(); ++row) {
    // a position code (cos, sin pairs) is never zero in both of a pair;
    // agreement features are exactly 3 non-zero entries
    CHECK((two.x.block(row, A, 1, 16).array() != 0.f).count() >= 8);
    CHECK((a.x.block(row, A, 1, 16).array() != 0.f).count() == 3);
  }
}

TEST_CASE("the loss: naive reference, zero scores 1, target scores 0, gradient") {
  TaskConfig cfg;
  cfg.relations = 2;
  cfg.queries = 2;
  const TaskBatch b = make(cfg, 21, 0, 16);
  CHECK(task_loss_scale(cfg) == doctest::Approx(2.0 / 128));
  const Mat zero = Mat::Zero(b.target.rows(), b.target.cols());
  CHECK(task_loss(b, zero) == doctest::Approx(1.0).epsilon(1e-5));
  CHECK(task_loss(b, b.target) == 0.f);
  TaskConfig cfg4 = cfg;
  cfg4.relations = 4;
  const TaskBatch b4 = make(cfg4, 21, 0, 16);
  CHECK(task_loss(b4, zero) == doctest::Approx(1.0).epsilon(1e-5));

  // naive double loop over the formula
  Mat y(b.target.rows(), b.target.cols());
  prng::Rng rng{5};
  for (Eigen::Index i = 0; i < y.size(); ++i) y.data()[i] = 0.3f * rng.gauss();
  double sum = 0;
  int masked = 0;
  for (Eigen::Index i = 0; i < y.rows(); ++i) {
    if (b.mask[static_cast<size_t>(i)] != 1.f) continue;
    ++masked;
    for (Eigen::Index c = 0; c < y.cols(); ++c) sum += std::pow(double(y(i, c)) - b.target(i, c), 2);
  }
  const double expect = sum / (masked * 128.0 * (2.0 / 128.0));
  Mat dy;
  const float loss = task_loss(b, y, &dy);
  CHECK(loss == doctest::Approx(expect).epsilon(1e-6));
  // central differences on a few entries, one unmasked
  for (Eigen::Index i : {Eigen::Index(0), Eigen::Index(5), Eigen::Index(17), Eigen::Index(40)})
    for (Eigen::Index c : {Eigen::Index(0), Eigen::Index(33), Eigen::Index(100)}) {
      Mat yp = y, ym = y;
      const float h = 1e-2f;
      yp(i, c) += h;
      ym(i, c) -= h;
      const double fd = (double(task_loss(b, yp)) - task_loss(b, ym)) / (2.0 * h);
      CHECK(dy(i, c) == doctest::Approx(fd).epsilon(1e-3).scale(1e-6));
      if (b.mask[static_cast<size_t>(i)] == 0.f) CHECK(dy(i, c) == 0.f);
    }
}

TEST_CASE("bad task settings are refused and the batch is kept") {
  TaskBatch b = make(TaskConfig{}, 1, 0, 2);
  const Mat before = b.x;
  TaskConfig bad;
  bad.relations = 3;
  Status s = generate_task_batch(bad, task_streams(1, 1), 0, 4, b);
  CHECK_FALSE(s.is_ok());
  CHECK(s.error.find("2") != std::string::npos);
  bad = TaskConfig{};
  bad.tokens = 4;
  CHECK_FALSE(generate_task_batch(bad, task_streams(1, 1), 0, 4, b).is_ok());
  bad = TaskConfig{};
  bad.relations = 4;
  bad.queries = bad.tokens - 1;  // R = 4: at most L - 2 queries (each needs a previous token and an antecedent)
  CHECK_FALSE(generate_task_batch(bad, task_streams(1, 1), 0, 4, b).is_ok());
  CHECK_FALSE(generate_task_batch(TaskConfig{}, task_streams(1, 1), 0, 0, b).is_ok());
  CHECK_FALSE(generate_task_batch(TaskConfig{}, task_streams(1, 1), -1, 2, b).is_ok());
  CHECK(b.x == before);
}

TEST_CASE("the task's own role table is the lexicon's classes of its words") {
  // The train room never parses; its table must still be what the lesson's
  // lexicon gives these words, so the two embed roles alike.
  const char* words[] = {"researcher", "wrote", "it", "the", "who", "of", ".", "wrong", "was", "and", "3"};
  REQUIRE(sizeof(words) / sizeof(words[0]) == static_cast<size_t>(kTaskRolePatternCount));
  for (int w = 0; w < kTaskRolePatternCount; ++w) {
    CAPTURE(words[w]);
    CHECK(kTaskRolePatterns[w] == lexical_roles(words[w]));
  }
  CHECK(kTaskQueryRoles == lexical_roles("said"));
  // the patterns are distinct: each class is drawn as often as the others
  for (int a = 0; a < kTaskRolePatternCount; ++a)
    for (int b = a + 1; b < kTaskRolePatternCount; ++b) CHECK(kTaskRolePatterns[a] != kTaskRolePatterns[b]);
}
