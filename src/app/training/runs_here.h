// runs_here.h: the runs that train in this program, the half of LiveTraining
// (live_training.h "Where it trains") that only a program that trains links.
//
// Does: own the engine's Trainer (built on first use: build()) and, for the
// text task, the corpus and the TextTrainer, and do for LiveTraining what
// needs them: the verbs (reset, step, set_lr, set_share, reset_text,
// knockout), training within a frame's budget (train), the runs and their
// weights as the views read them, and the program's posts (wire_state,
// wire_text_weights) and snapshot JSON.
// Does not: validate what LiveTraining validates for both halves, keep the
// chart's publications, the pacer or the mirror (LiveTraining does), or
// draw. The page's own program never makes one: its LiveTraining is made
// with TrainsElsewhere (its runs train in the training program), so nothing
// there refers to make_runs_here() and the linker leaves every trainer out
// of headroom.wasm (cmake/web.cmake gives the bytes). That is why this is
// an interface: LiveTraining reaches the trainers only through it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "app/training/train_pace.h"
#include "app/wire/train_wire.h"
#include "engine/core/status.h"
#include "engine/train/text_trainer.h"
#include "engine/train/trainer.h"

namespace headroom::app {

class RunsHere {
 public:
  virtual ~RunsHere() = default;

  // [roles] The Trainer with the defaults, the tie `tie` and the share,
  // made the first time (a no-op after); built() says whether it was.
  virtual void build(bool tie) = 0;
  virtual bool built() const = 0;
  virtual const Trainer& trainer() const = 0;  // after build()
  // The Trainer's reset (built first); accepted, the text task stops.
  virtual Status reset(int64_t seed, int r, float lr, bool tie) = 0;
  // The share held here from the next reset on (checked by the caller).
  virtual void set_share(RunShare share) = 0;
  virtual RunShare share() const = 0;

  // [both tasks] whichever trains: the text task while text_on().
  virtual Status step(int n) = 0;
  virtual Status set_lr(float lr) = 0;
  // The units that fit in the pacer's budget; returns the whole steps done.
  virtual int train(FramePacer& pacer, const std::function<double()>& now, int max_steps_per_frame) = 0;
  virtual bool can_step() const = 0;
  virtual const std::vector<TrainRun>& runs() const = 0;
  virtual int64_t step_count() const = 0;
  // The program's state post of whichever task trains (train_wire.h).
  virtual std::string wire_state(double steps_per_second, bool running, const std::vector<Status>& errors) const = 0;
  // live_training.h "JSON": snapshot(heads, tied).
  virtual Status snapshot_json(int heads, bool tied, std::string& out) const = 0;

  // [text] (live_training.h "The text task")
  virtual bool text_on() const = 0;
  virtual const TextTrainConfig& text_config() const = 0;  // while text_on()
  virtual float text_lr() const = 0;
  virtual const std::vector<TextSplit>& splits() const = 0;
  virtual Status reset_text(int layers, int64_t seed, float lr) = 0;  // refused without a corpus
  virtual Status set_corpus(const uint8_t* data, size_t n, double fetch_ms) = 0;
  virtual void set_corpus(std::shared_ptr<const TextCorpus> corpus, int64_t bytes, double fetch_ms) = 0;
  virtual void corpus_failed(std::string why) = 0;
  virtual bool has_corpus() const = 0;
  virtual const CorpusInfo& corpus_info() const = 0;
  // The text run with `heads` heads as the views run it; nullptr when none.
  virtual std::shared_ptr<const TextWeights> text_weights(int heads) const = 0;
  virtual std::string wire_text_weights(int heads) const = 0;  // "" when none
  // layer and head 0-based (the caller checked them against the runs).
  virtual Status knockout(int heads, int layer, int head) = 0;
  virtual const TextKnockout* last_knockout() const = 0;
};

// The runs here, with nothing trained yet (the Trainer waits for build()).
std::unique_ptr<RunsHere> make_runs_here();

}  // namespace headroom::app
