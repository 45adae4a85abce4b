// refusals.h: every refusal the engine makes, once: a code and its English.
//
// Does: list the engine's refusals (core, lesson, train) in one X-macro
// table, HEADROOM_ENGINE_REFUSALS(X): X(code, "English template"), the
// template's {0}, {1} filled by Status::fail's arguments in that order; and
// define each as `refusals::code` (a Refusal) for Status::fail. The
// template is the catalogues' msgid (src/app/lang/<code>.po), so a language
// translates the template with the same placeholders; the tests check
// every code has a message in every catalogue.
// Does not: translate (app::tr_status) or hold the app's refusals
// (app/lang/refusals.h, app/wire/wire_refusals.h).
#pragma once
#include "engine/core/status.h"

// clang-format off
#define HEADROOM_ENGINE_REFUSALS(X) \
  /* core: shapes and weights (attention.cpp, attention_batch.cpp) */ \
  X(d_model_not_positive, "d_model must be positive, got {0}") \
  X(heads_below_one, "the number of heads must be at least 1, got {0}") \
  X(heads_above_channels, "{0} heads cannot share {1} channels: each head needs at least one") \
  X(heads_do_not_divide, "{0} heads do not divide d_model = {1} into equal head sizes") \
  X(projection_count, "expected {0} W_Q, W_K and W_V matrices") \
  X(projection_shape, "head {0}: a projection is {1} x {2}, expected {3} x {4}") \
  X(output_shape, "W_O must be {0} x {0}") \
  X(x_columns, "X has {0} columns, d_model is {1}") \
  X(x_no_rows, "X has no rows: the sequence is empty") \
  X(knockout_head_missing, "the knockout names a head the weights do not have (they have {0})") \
  X(batch_below_one, "the batch must hold at least 1 sequence, got {0}") \
  X(batch_rows, "X has {0} rows: not {1} sequences of equal length >= 1") \
  X(trace_mismatch, "the trace is not of a forward_batch with these shapes: run forward_batch on the same X and weights first") \
  X(dy_shape, "dY is {0} x {1}, expected {2} x {3}") \
  /* core: embedding rows, cross-entropy, matmul, Adam */ \
  X(id_outside_table, "id {0} at position {1} is outside the table's {2} rows") \
  X(scatter_shape, "scatter-add: dX is {0} x {1} for {2} ids into a table of {3} columns") \
  X(target_count, "{0} targets for {1} rows of logits") \
  X(target_outside_vocab, "target {0} of row {1} is outside the vocabulary of {2}") \
  X(no_target, "no row has a target: nothing to score") \
  X(matmul_shapes, "{0}: {1} and {2} do not multiply") \
  X(adam_lr, "the learning rate must be a finite number > 0, got {0}") \
  X(gradient_heads, "the gradients have {0} heads, the weights {1}") \
  X(gradient_shape, "gradient matrix {0} is {1} x {2}, its weight {3} x {4}") \
  /* lesson: the Scene's setters (scene.cpp) */ \
  X(sentence_bytes, "the sentence is {0} bytes; the cap is {1} bytes") \
  X(sentence_empty, "the sentence has no words: type at least one word") \
  X(sentence_tokens, "the sentence has {0} tokens; the cap is {1}") \
  X(token_missing, "token {0} does not exist; tokens are 0..{1}") \
  X(target_is_query, "a lesson target cannot be the query itself") \
  X(pronoun_pair, "a lesson's pronoun and antecedent are two different tokens, or neither is given") \
  X(stress_length, "stress length must be 0 (off) or 1..{0} tokens, got {1}") \
  X(scene_heads, "this scene has {0} heads (d_head = {1}/H must hold a 16-wide position code, and there are 8 relationships); got {2}") \
  X(no_such_relation, "no such relationship") \
  X(relation_fixed, "\"{0}\" is fixed by position and cannot be reassigned") \
  X(focus_range, "focus must be a number from 0 (all on one) through 0.5 (split) to 1 (spread)") \
  X(weights_d_model, "trained weights have d_model {0}; the scene has {1}") \
  X(weights_heads, "trained weights have {0} heads; the scene shows {1}") \
  X(knockout_only_head, "head {0} (0-based) does not exist; with {1} head the only one is 0") \
  X(knockout_heads, "head {0} (0-based) does not exist; with {1} heads they are 0..{2}") \
  X(knockout_twice, "head {0} is listed twice in the knockout") \
  /* train: the roles task and its Trainer (train_task.cpp, trainer.cpp) */ \
  X(task_relations, "R (related tokens) must be 2 (subject, complement) or 4 (+ previous token, coreference), got {0}") \
  X(task_tokens, "an example has 5 .. {0} tokens, got {1}") \
  X(task_queries, "queries per example must be 1 .. {0}, got {1}") \
  X(batch_empty, "a batch needs at least one example, got {0}") \
  X(example_index, "example indices start at 0, got {0}") \
  X(no_agreement_pairing, "no pairing of agreement features fits this configuration") \
  X(lr_range, "the learning rate must be from 1e-6 to 10, got {0}") /* kLrRangeText */ \
  X(seed_range, "seed must be a whole number from 0 to {0}, got {1}") \
  X(r_choice, "r must be {0} related tokens, got {1}") \
  X(step_count, "step(n) takes n from 1 to {0}, got {1}") \
  X(run_share, "a share of the training runs is part 0 to parts - 1 of 1 to {2} parts, got part {0} of {1}") \
  X(no_tied_runs, "there are no tied runs: reset with the query/key tie on first") \
  X(no_run, "no training run has {0} heads (runs: 1, 2, 4)") \
  X(no_tied_run, "no tied training run has {0} heads (runs: 1, 2, 4)") \
  X(run_not_finite, "the {0}-head run's loss or gradients are not finite on the next batch") \
  /* train: why a run stopped (TrainRun::stopped, TextRun::stopped; the reason is a refusal inside) */ \
  X(run_stopped, "stopped at step {0} with lr {1}: {2}; the weights are those of step {3}. Lower the learning rate and reset.") \
  X(text_run_stopped, "stopped at step {0} with lr {1}: {2}. Lower the learning rate and reset.") \
  X(held_out_diverged, "the held-out loss is not finite or above {0}") \
  X(held_out_not_finite, "the held-out loss is not finite") \
  X(loss_not_finite, "the training loss is not finite") \
  X(loss_reached, "the training loss reached {0} (limit {1})") \
  X(text_loss_reached, "the training loss reached {0} nats (limit {1})") \
  X(gradient_not_finite, "a gradient is not finite") \
  X(weight_not_finite, "a weight is not finite") \
  /* train: the text model (text_model.cpp, text_trainer.cpp, text_corpus.cpp) */ \
  X(vocab_small, "the vocabulary needs at least 3 words, got {0}") \
  X(window_small, "a window needs at least 2 tokens, got {0}") \
  X(text_layers, "layers must be 1 or 2, got {0}") \
  X(ids_not_windows, "{0} ids are not {1} windows of {2}") \
  X(head_count_range, "give 1 to 8 head counts") \
  X(head_count_twice, "the head count {0} is listed twice") \
  X(held_out_batches, "the held-out windows must be whole batches of {0}") \
  X(no_training_document, "no training document is longer than a window of {0} tokens") \
  X(no_held_out_document, "no held-out document is longer than a window of {0} tokens") \
  X(no_corpus, "no corpus: the text model needs one") \
  X(text_no_corpus, "the text model has no corpus yet: reset it with one first") \
  X(no_text_run, "no text run has {0} heads") \
  X(text_knockout_layer, "layer {0} is not a layer of the text model: its layers are 1 to {1}") \
  X(text_knockout_head, "head {0} is not a head of the {1}-head run: its heads are 1 to {1}") \
  X(corpus_unusable, "the corpus file is not usable: {0}") \
  /* train: the midpoint found in held-out text (text_splits.cpp) */ \
  X(split_models, "finding splits compares a 1-head model with one of 2 to 8 heads of the same vocabulary and context")
// clang-format on

namespace headroom::refusals {
#define HEADROOM_REFUSAL_DEFINE(code, english) inline constexpr Refusal code{#code, english};
HEADROOM_ENGINE_REFUSALS(HEADROOM_REFUSAL_DEFINE)
}  // namespace headroom::refusals
