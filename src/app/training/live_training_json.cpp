// live_training_json.cpp: train.state() and train.snapshot(heads) as JSON (the
// formats are in live_training.h; a snapshot of runs trained here is
// runs_here.cpp's to write).
//
// Does: write the Trainer's numbers with json_write.h (a non-finite number
// would become null, but the Trainer hands out finite numbers only; the tests
// parse every document strictly); write each array as {shape, data} with the
// data row-major, in the float's shortest round-trip form (9 digits).
// Does not: compute anything: losses, floors, weights and gradients all come
// from engine/train/trainer.h, the text heads' scores from head_scores.h.
#include <initializer_list>

#include "app/wire/json_tensor.h"
#include "app/wire/json_write.h"
#include "app/training/live_training.h"
#include "app/wire/text_json.h"
#include "app/lang/refusals.h"

namespace headroom::app {

namespace {
// {kind: number, ...} in the slot's order.
void append_kinds(std::string& out, const std::vector<std::pair<std::string, float>>& kinds) {
  JsonObject o(out);
  for (const auto& [kind, v] : kinds) o.field(kind.c_str(), v);
}

// The knockout's object (live_training.h "JSON"), or null.
void append_knockout(std::string& out, const TextKnockout* k) {
  if (!k) {
    out += "null";
    return;
  }
  JsonObject o(out);
  o.field("heads", k->heads).field("layer", k->layer + 1).field("head", k->head + 1).field("step", k->step);
  o.field("lossBefore", k->loss_before).field("lossAfter", k->loss_after).field("change", k->loss_after - k->loss_before);
  const size_t mine = static_cast<size_t>(k->layer) * static_cast<size_t>(k->heads) + static_cast<size_t>(k->head);
  if (mine < k->before.size()) {
    JsonObject lost(o.key("lost"));
    lost.field("label", k->before[mine].label).field("labelScore", k->before[mine].label_score);
  } else {
    o.key("lost") += "null";
  }
  std::vector<size_t> moved;
  for (size_t i = 0; i < k->before.size() && i < k->after.size(); ++i)
    if (k->before[i].scores != k->after[i].scores) moved.push_back(i);
  append_array(o.key("changed"), moved, [&](size_t i) {
    const HeadSlot &was = k->before[i], &now = k->after[i];
    JsonObject c(out);
    c.field("layer", was.layer + 1).field("head", was.head + 1).field("label", was.label).field("labelAfter", now.label);
    c.field("labelScore", was.label_score).field("labelScoreAfter", now.label_score);
  });
}
// The text task's splits (live_training.h "JSON"): positions 0-based, heads 1-based.
void append_splits(std::string& out, const std::vector<TextSplit>& splits) {
  append_array(out, splits, [&](const TextSplit& c) {
    JsonObject o(out);
    o.field("step", c.step).field("sentence", c.sentence).field("query", c.query).field("a", c.a).field("b", c.b);
    append_values(o.key("words"), c.words);
    append_values(o.key("ids"), c.ids);
    {
      JsonObject one(o.key("one"));
      one.field("weightA", c.one_a).field("weightB", c.one_b).field("cosA", c.cos_a).field("cosB", c.cos_b);
      one.field("cosMidpoint", c.cos_mid);
    }
    JsonObject four(o.key("four"));
    four.field("headA", c.head_a + 1).field("headB", c.head_b + 1).field("weightA", c.many_a).field("weightB", c.many_b);
    four.field("cosA", c.many_cos_a).field("cosB", c.many_cos_b);
  });
}
}  // namespace

std::string LiveTraining::state_json() const {
  const int R = relations();
  std::string out;
  out.reserve(8192);
  {  // o closes the object when it goes out of scope, before the return
    JsonObject o(out);
    const std::vector<TrainRun>& all = runs();
    const bool text = text_task();
    const int layer_count = layers();
    o.field("task", kTrainTasks[text ? 1 : 0]);
    if (text) o.field("layers", layer_count);
    else o.key("layers") += "null";
    const CorpusInfo& c = corpus_info();
    if (c.name.empty()) {
      o.key("corpus") += "null";
    } else {
      JsonObject co(o.key("corpus"));
      co.field("name", c.name).field("trainWords", c.train_words).field("heldOutWords", c.held_out_words);
      co.field("vocab", c.vocab).field("bytes", c.bytes).field("fetchMs", c.fetch_ms);
    }
    o.field("seed", seed()).field("r", R).field("lr", lr()).field("tieQK", runs_tie_qk());
    o.field("step", step_count());
    o.field("stepsPerSecond", steps_per_second()).field("stepsPerFrame", running_ ? steps_last_frame() : 0);
    o.field("maxStepsPerFrame", max_steps_per_frame_).field("running", running());
    o.field("where", where_).field("ready", ready()).string_or_null("notice", notice_.error);
    o.string_or_null("error", error()).field("errorCode", error_code());
    {
      JsonObject weights(o.key("weights"));
      weights.field("choice", choice_).field("shown", shown_).string_or_null("note", note_.error);
    }
    const auto kind_name = [](int k) { return k < 0 ? std::string("mixed") : std::string(kHeadKinds[static_cast<size_t>(k)]); };
    append_array(o.key("labelChanges"), head_log_.changes(), [&](const LabelChange& change) {
      JsonObject ch(out);
      ch.field("heads", change.heads).field("layer", change.layer + 1).field("head", change.head + 1);
      ch.field("step", change.step).field("from", kind_name(change.from)).field("to", kind_name(change.to));
      ch.field("score", change.score);
    });
    append_array(o.key("runs"), all, [&](const TrainRun& run) {
      JsonObject r(out);
      r.field("heads", run.heads).field("tieQK", run.tie_qk).field("loss", run.loss()).field("floor", run.floor).field("steps", run.steps);
      r.field("diverged", run.diverged).string_or_null("message", run.stopped.error);
      append_array(r.key("history"), run.history, [&](const EvalPoint& p) {
        out += '[';
        append_int(out, p.step);
        out += ',';
        append_float(out, p.loss);
        out += ']';
      });
      if (text) {  // one entry per head of every layer, layer by layer; null until measured
        const long long slots = static_cast<long long>(layer_count) * run.heads;
        const bool have = static_cast<long long>(run.per_head.size()) == slots;
        append_array_n(r.key("perHead"), slots, [&](long long i) {
          JsonObject head(out);
          head.field("layer", i / run.heads + 1).field("head", i % run.heads + 1);
          const HeadSlot* slot = have ? &run.per_head[static_cast<size_t>(i)] : nullptr;
          if (!slot || slot->scores.empty()) {
            for (const char* k : {"scores", "label", "labelScore", "baselines"}) head.key(k) += "null";
            return;
          }
          append_kinds(head.key("scores"), slot->scores);
          head.field("label", slot->label).field("labelScore", slot->label_score);
          append_kinds(head.key("baselines"), slot->baselines);
        });
        return;
      }
      append_array_n(r.key("perHead"), run.heads, [&](long long h) {
        JsonObject head(out);
        append_array_n(head.key("weightOn"), R, [&](long long rel) {
          append_float(out, run.weight_on(static_cast<int>(h), static_cast<int>(rel), R));
        });
      });
    });
    append_knockout(o.key("knockout"), last_knockout());
    if (text) append_splits(o.key("splits"), splits());
    else o.key("splits") += "null";
  }
  return out;
}

Status LiveTraining::snapshot_json(int heads, bool tied, std::string& out) const {
  if (remote_) return Status::fail(refusals::snapshot_in_program);
  return (here_->text_on() ? *here_ : here()).snapshot_json(heads, tied, out);  // runs_here.cpp writes it
}

}  // namespace headroom::app
