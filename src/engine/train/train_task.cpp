// train_task.cpp: the task's example generator and loss. See train_task.h for
// the rules; every draw comes from prng::Rng in a fixed order, documented
// below, so examples are the same on every platform.
#include "train_task.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "engine/common/embedding.h"
#include "engine/common/random.h"
#include "engine/common/roles.h"

namespace headroom {
namespace {

static_assert(kTaskDModel == embed::kDModel, "the task uses the scene's embedding");
static_assert(kTaskContentDims == embed::kContentDim, "content is the embedding's content block");
static_assert(kTaskOutputDims == kTaskDModel, "no readout: T = D");


// Stream ids for task_streams.
constexpr uint64_t kStructureStream = 0x5712, kContentStream = 0xC047;

}  // namespace

Status check_task(const TaskConfig& cfg) {
  if (cfg.relations != 2 && cfg.relations != 4)
    return Status::fail("R (related tokens) must be 2 (subject, complement) or 4 (+ previous, first token), got " +
                        std::to_string(cfg.relations));
  if (cfg.tokens < 5 || cfg.tokens > kTaskMaxTokens)
    return Status::fail("an example has 5 .. " + std::to_string(kTaskMaxTokens) + " tokens, got " +
                        std::to_string(cfg.tokens));
  const int max_queries = cfg.relations == 4 ? cfg.tokens - 2 : cfg.tokens;
  if (cfg.queries < 1 || cfg.queries > max_queries)
    return Status::fail("queries per example must be 1 .. " + std::to_string(max_queries) + ", got " +
                        std::to_string(cfg.queries));
  return Status::ok();
}

const char* task_slot_name(int slot) {
  switch (slot) {
    case 0: return "subject";
    case 1: return "complement";
    case 2: return "previous token";
    case 3: return "first token";
    default: return "?";
  }
}

float task_loss_scale(const TaskConfig& cfg) {
  return static_cast<float>(cfg.relations) / static_cast<float>(kTaskOutputDims);
}

TaskStreams task_streams(uint64_t seed, uint64_t purpose) {
  return {prng::mix_seed(seed, purpose, kStructureStream), prng::mix_seed(seed, purpose, kContentStream)};
}

// Example e, in this order:
//   structure rng = Rng{mix_seed(streams.structure, e)}:
//     1. query positions: a partial Fisher-Yates shuffle of the valid
//        positions (R = 2: 0..L-1, R = 4: 2..L-1), `queries` draws;
//     2. per token i = 0..L-1: role word (below(11)), in-clause (below(4) == 0),
//        subject bit (below(8) == 0), then 4 pointer positions (below(L) each);
//     3. per query, in the order of step 1: subject, then complement, each
//        drawn uniformly from the positions not yet excluded (the query; with
//        R = 4 also 0 and query - 1; and the subject for the complement);
//        they overwrite that query's first two pointers.
//   content rng = Rng{mix_seed(streams.content, e)}: per token i = 0..L-1,
//     k gauss() values, divided by their norm (a uniform unit vector).
Status generate_task_batch(const TaskConfig& cfg, const TaskStreams& streams, int64_t first,
                           int count, TaskBatch& out) {
  if (Status s = check_task(cfg); !s) return s;
  if (count < 1) return Status::fail("a batch needs at least one example, got " + std::to_string(count));
  if (first < 0) return Status::fail("example indices start at 0, got " + std::to_string(first));

  const int L = cfg.tokens, R = cfg.relations, D = kTaskDModel, T = kTaskOutputDims, k = kTaskContentDims;
  const Eigen::Index rows = static_cast<Eigen::Index>(count) * L;
  out.cfg = cfg;
  out.examples = count;
  out.x.resize(rows, D);
  out.target.setZero(rows, T);
  out.mask.assign(static_cast<size_t>(rows), 0.f);
  out.related.assign(static_cast<size_t>(rows) * R, -1);
  out.masked = count * cfg.queries;


  // Per-example scratch on the stack (L <= 32).
  int valid[kTaskMaxTokens];
  int query_of[kTaskMaxTokens];      // the queries, in draw order
  unsigned roles[kTaskMaxTokens];
  int pointers[kTaskMaxTokens][embed::kPointers];
  float content[kTaskMaxTokens][kTaskContentDims];
  int candidates[kTaskMaxTokens];

  for (int b = 0; b < count; ++b) {
    const uint64_t e = static_cast<uint64_t>(first + b);
    prng::Rng srng{prng::mix_seed(streams.structure, e)};
    // 1. query positions
    const int lo = R == 4 ? 2 : 0;
    int n_valid = 0;
    for (int i = lo; i < L; ++i) valid[n_valid++] = i;
    for (int q = 0; q < cfg.queries; ++q) {
      const int j = q + srng.below(n_valid - q);
      std::swap(valid[q], valid[j]);
      query_of[q] = valid[q];
    }
    // 2. roles and pointers of every token
    for (int i = 0; i < L; ++i) {
      unsigned r = kTaskRolePatterns[srng.below(kTaskRolePatternCount)];
      if (srng.below(4) == 0) r |= kInClause;
      if (srng.below(8) == 0) r |= kSubject;
      if (i == 0) r |= kFirst;
      roles[i] = r;
      for (int p = 0; p < embed::kPointers; ++p) pointers[i][p] = srng.below(L);
    }
    // 3. the queries' subject and complement
    const Eigen::Index row0 = static_cast<Eigen::Index>(b) * L;
    for (int qi = 0; qi < cfg.queries; ++qi) {
      const int q = query_of[qi];
      roles[q] = kTaskQueryRoles | (roles[q] & (kInClause | kSubject | kFirst));
      int slot_target[4] = {-1, -1, q - 1, 0};
      for (int slot = 0; slot < 2; ++slot) {
        int n = 0;
        for (int j = 0; j < L; ++j) {
          const bool excluded = j == q || (R == 4 && (j == 0 || j == q - 1)) || (slot == 1 && j == slot_target[0]);
          if (!excluded) candidates[n++] = j;
        }
        slot_target[slot] = candidates[srng.below(n)];
        pointers[q][slot] = slot_target[slot];
      }
      out.mask[static_cast<size_t>(row0 + q)] = 1.f;
      for (int slot = 0; slot < R; ++slot)
        out.related[static_cast<size_t>((row0 + q) * R + slot)] = slot_target[slot];
    }
    // content: a uniform unit vector per token
    prng::Rng crng{prng::mix_seed(streams.content, e)};
    for (int i = 0; i < L; ++i) {
      double norm2 = 0.0;
      for (int c = 0; c < k; ++c) {
        content[i][c] = crng.gauss();
        norm2 += static_cast<double>(content[i][c]) * content[i][c];
      }
      const float inv = static_cast<float>(1.0 / std::sqrt(norm2));
      for (int c = 0; c < k; ++c) content[i][c] *= inv;
    }
    // rows: embedding, then the targets of query rows
    for (int i = 0; i < L; ++i) embed::embed_token(&out.x(row0 + i, 0), content[i], roles[i], i, pointers[i]);
    for (int qi = 0; qi < cfg.queries; ++qi) {
      const int q = query_of[qi];
      for (int slot = 0; slot < R; ++slot) {
        const int t = out.related[static_cast<size_t>((row0 + q) * R + slot)];
        for (int c = 0; c < k; ++c) out.target(row0 + q, slot * k + c) = content[t][c];
      }
    }
  }
  return Status::ok();
}

float task_loss(const TaskBatch& batch, const Mat& y, Mat* dy) {
  const Eigen::Index rows = batch.target.rows(), T = batch.target.cols();
  const double denom = static_cast<double>(batch.masked) * static_cast<double>(T) *
                       static_cast<double>(task_loss_scale(batch.cfg));
  if (dy) dy->setZero(rows, T);
  double sum = 0.0;
  for (Eigen::Index i = 0; i < rows; ++i) {
    if (batch.mask[static_cast<size_t>(i)] == 0.f) continue;
    for (Eigen::Index c = 0; c < T; ++c) {
      const double d = static_cast<double>(y(i, c)) - static_cast<double>(batch.target(i, c));
      sum += d * d;
      if (dy) (*dy)(i, c) = static_cast<float>(2.0 * d / denom);
    }
  }
  return static_cast<float>(sum / denom);
}

}  // namespace headroom
