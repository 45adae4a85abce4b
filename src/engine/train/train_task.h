// train_task.h: the training task: random examples in the scene's embedding
// scheme whose query tokens must output the contents of R related tokens.
//
// Does: generate batches of examples from a seed, every random draw from
// prng::Rng (splitmix64, portable log/cos), so native and wasm builds make
// the same examples bit for bit; compute the task's loss and dLoss/dY.
// Does not: train (trainer.h), know about heads, or allocate once a batch has
// its shapes (buffers are reused).
//
// The rules (../shared/DESIGN.md, "Training"):
// - An example is L tokens (TaskConfig::tokens), each embedded as Scene does
//   (embedding.h): content | roles | position code | pointers, D = 128.
// - Content: a uniform random unit vector of k = 32 dims (columns [0, 32)),
//   drawn afresh for every token of every example from the CONTENT stream, so
//   nothing can be memorised: the only way to output a token's content is to
//   attend to it. Everything else (roles, query positions, targets, pointers)
//   comes from the STRUCTURE stream, agreement features (R = 4) from the
//   AGREEMENT stream: changing one stream leaves the others' draws untouched. k = 32 <= D / H for every H the trainer runs (1, 2, 4).
// - Queries: `queries` distinct random token positions per example, each with
//   R related tokens, all distinct and distinct from the query:
//     slot 0  subject      random position; the query's subject pointer
//                          (columns [64, 80)) holds p(subject): found by a
//                          pointer, at any distance (long range)
//     slot 1  complement   random position; complement pointer [80, 96)
//     slot 2  previous token  query - 1   (R = 4 only; found by relative
//                          position: local context)
//     slot 3  coreference  (R = 4 only) the one other token whose agreement
//                          features equal the query's: found by CONTENT
//   With R = 4 a query sits at position >= 1 and its subject and complement
//   avoid query - 1. The antecedent and object pointers of a query, and all
//   four pointers of the other tokens, point at uniformly random positions
//   (in the scene every token carries pointers too; here they carry no
//   information, so a key must not read them).
// - Agreement (R = 4 only): each token gets agreement features, number
//   (2 values) x gender (3) x person (3) = kTaskAgreementClasses classes,
//   written as three one-hot groups scaled to unit norm into the 16 columns
//   [96, 112) where the scene keeps its antecedent pointer (columns 8..15 of
//   the block are 0): with R = 4 there is no antecedent pointer, so nothing
//   positional says where the antecedent is. Drawn per example from the
//   AGREEMENT stream: the tokens are paired at random (L odd: one stays
//   alone) and each pair gets a class no other token has, so every query
//   shares its features with exactly one other token, its antecedent, which
//   may sit anywhere, before or after the query, near or far; the pairing is
//   redrawn until no query's antecedent is its subject, complement or
//   previous token. Matching is symmetric: a query's antecedent has the
//   query as ITS partner. Changing only the agreement stream moves the
//   antecedents and changes nothing but the agreement columns, slot 3 of
//   `related` and slot 3's target columns (tests/engine/train_task_tests.cpp).
// - Roles: every token gets the lexicon's roles of one word drawn from a fixed
//   list (noun, verb, pronoun, determiner, relative, preposition, punctuation,
//   adjective, auxiliary, conjunction, number), plus "in a clause" with
//   probability 1/4 and "subject" with probability 1/8; query tokens get the
//   roles of a verb; token 0 has the "first" bit (as in the scene). Roles
//   carry no information about which token is a target.
// - Target (per row, T = D = 128 columns): for a query row, slot r's content
//   in columns r*k .. r*k + k - 1 and zeros elsewhere; other rows all zero.
// - mask (per row): 1 for query rows, 0 otherwise.
// - Prediction: Y = the attention output itself (no readout W_R, T = D).
// - Loss = sum over masked rows of |Y_row - target_row|^2
//          / (masked rows * T * lossScale),
//   lossScale = R / T, the variance of a target entry (contents are unit
//   vectors, so each masked row's target has squared norm exactly R):
//   predicting zero scores 1.0 on every batch.
//
// Shape letters as in tensor.h; here D = 128, T = D, k = 32.
// Rows of x / target are example-major: row b*L + i is token i of example b.
#pragma once
#include <cstdint>
#include <vector>

#include "engine/core/status.h"
#include "engine/core/tensor.h"
#include "engine/common/roles.h"

namespace headroom {

// The word-class patterns a token's roles are drawn from (roles.h bits): one
// per lexical class, the classes the lesson's lexicon gives "researcher",
// "wrote", "it", "the", "who", "of", ".", "wrong", "was", "and" and "3" (an
// auxiliary is also a verb), so every pattern the scene produces also appears
// here. The task owns this table (training never parses);
// tests/engine/train_task_tests.cpp checks it against the lexicon.
constexpr unsigned kTaskRolePatterns[] = {kNoun,       kVerb,        kPronoun,           kDeterminer,
                                          kRelative,   kPreposition, kPunctuation,       kAdjective,
                                          kAuxiliary | kVerb,        kConjunction,       kNumber};
constexpr int kTaskRolePatternCount = static_cast<int>(sizeof(kTaskRolePatterns) / sizeof(kTaskRolePatterns[0]));
// A query's word class: a verb, as the lexicon classes "said".
constexpr unsigned kTaskQueryRoles = kVerb;

constexpr int kTaskDModel = 128;       // D
constexpr int kTaskContentDims = 32;   // k
constexpr int kTaskOutputDims = 128;   // T (= D: no readout)
constexpr int kTaskMaxTokens = 32;     // L cap (the position code is tuned to 32)
constexpr int kTaskAgreementClasses = 18;  // number 2 x gender 3 x person 3
constexpr int kTaskAgreementColumn = 96;   // R = 4: agreement features in [96, 112)
                                           // (the scene's antecedent pointer block)

struct TaskConfig {
  int relations = 2;  // R: 2 (subject, complement) or 4 (+ previous token, coreference)
  int tokens = 12;    // L: 5 .. kTaskMaxTokens
  int queries = 1;    // masked query tokens per example: 1 .. L (R = 2) or L - 2 (R = 4)
};

// Why the configuration is not a task, or ok.
Status check_task(const TaskConfig& cfg);
// "subject", "complement", "previous token" or "coreference" (slots 0..3).
const char* task_slot_name(int slot);
// R / T: the variance of one target entry.
float task_loss_scale(const TaskConfig& cfg);

// Seeds of the two independent random streams examples are drawn from.
struct TaskStreams {
  uint64_t structure = 0;  // roles, query positions, targets, pointers
  uint64_t content = 0;    // every token's content vector
  uint64_t agreement = 0;  // R = 4: the pairing and the agreement classes
};
// The streams of `purpose` (any number: the trainer uses one for training
// batches and another for the held-out set) under `seed`.
TaskStreams task_streams(uint64_t seed, uint64_t purpose);

struct TaskBatch {
  TaskConfig cfg;
  int examples = 0;             // B
  Mat x;                        // (B*L) x D, the inputs
  Mat target;                   // (B*L) x T
  std::vector<float> mask;      // B*L, 1 for query rows
  std::vector<int> related;     // (B*L) x R, row-major: token index (within the
                                // example) of slot r for a query row, -1 otherwise
  int masked = 0;               // number of query rows (B * queries)
};

// Fills `out` with examples first .. first + count - 1 of the streams
// (example e depends only on the streams, e and cfg, never on first or count).
// Refuses a bad cfg or count < 1 and leaves `out` unchanged. (With R = 4 it
// could also fail, mid-batch, when no agreement pairing fits an example after
// a million draws: a configuration with hardly any token that is not a query;
// the trainer's L = 12, 10 queries needs about 20 draws.)
Status generate_task_batch(const TaskConfig& cfg, const TaskStreams& streams, int64_t first,
                           int count, TaskBatch& out);

// The task loss of prediction y ((B*L) x T) on `batch` (formula above), and
// if dy is given, dLoss/dY into it ((B*L) x T; zero on unmasked rows).
// Accumulates in double. y must have the batch's shape.
float task_loss(const TaskBatch& batch, const Mat& y, Mat* dy = nullptr);

}  // namespace headroom
