// view_train.cpp: the train panel: the controls of live training and
// the loss of every run (1, 2 and 4 heads, and with the query/key tie the
// tied run of each beside it) on one chart, and for the English text runs
// a head knocked out on request (knockout_rows), each head count's floor
// 1 - min(H, R) / R dashed in the run's colour; untied runs solid, tied
// runs dotted.
//
// Does: call the Demo's training verbs (play / pause, step, reset with a new
// or typed seed, R, the query/key tie, learning rate, steps-per-frame cap:
// each keeps the Scene
// on the chosen weights, so the lesson's views follow); show seed, step,
// steps/s and the last refusal or divergence; ask for a run's snapshot
// download (Demo::request_download: the platform saves
// app::LiveTraining::snapshot_json as a JSON file); draw the chart from each
// run's held-out history up to LiveTraining::chart_step() (x = log10(1 + step),
// y = loss), and record what it drew as probes (probes.h) for the browser tests.
// Does not: train, evaluate or compute a loss or a floor (engine/train/trainer.h
// does; the chart only places its numbers).
//
// Index of this file
//   [SECTION] controls
//   [SECTION] the loss chart
//   [SECTION] the view
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "app/state/view_rows.h"
#include "engine/common/random.h"
#include "app/lang/lang.h"
#include "ui/palette.h"
#include "ui/probes.h"
#include "ui/cards.h"
#include "ui/text.h"
#include "ui/frame.h"
#include "ui/views.h"

namespace headroom::ui {

namespace {

using app::LiveTraining;

// A run's colour: the palette's run colours (1, 2, 4 heads); the text
// task's 8-head run, which the roles task does not have, takes the teal of
// the head-text colours so it is not mistaken for the 4-head run.
ImU32 curve_color(int heads, float alpha = 1.f) {
  if (heads != 8) return run_color(heads, alpha);
  ImVec4 c = ImGui::ColorConvertU32ToFloat4(palette().heads_text[5]);
  c.w *= alpha;
  return ImGui::ColorConvertFloat4ToU32(c);
}

// The loss chart's step axis reaches at least this far (ticks 1 .. 1000).
constexpr int64_t kChartMinSteps = 1000;

// Why a tie costs where a relationship has a direction, and why it should
// not on coreference by agreement (shown by the tie's help marker).
constexpr const char* kTieHelp = N_(
    "Tied: each head uses ONE matrix W for both query and key (W_K = W_Q), so the score from token i to "
    "token j is x_i W . x_j W, the same number as the score from j to i. A relationship with a direction "
    "pays for that: if the verb scores its subject high, the subject scores the verb just as high, and if "
    "each token scores the one before it high, that token scores its follower just as high. And a token "
    "always scores itself |x_i W|^2: by Cauchy-Schwarz, x_i W . x_j W <= |x_i W| |x_j W|, so another token "
    "can only out-score the token itself when its projection is longer. (A tied head can still lean toward "
    "the token before by making projections longer toward the start of the sentence, and the tied runs "
    "here do, keeping much of their weight on the query itself.) Coreference by agreement is a match with "
    "no direction (the pronoun and its antecedent share number, gender and person), so in principle the "
    "tie should not cost there; but the query also shares its own features, so it competes with its "
    "antecedent for the weight. Tied runs train on the same seed and batches as the untied ones: compare "
    "the dotted curves with the solid ones.");

// The seed "new seed" moves to: the first draw of the engine's splitmix64
// from the current seed, cut to 32 bits (kMaxSeed), so a reset is
// repeatable from the seed it shows.
int64_t next_seed(int64_t seed) {
  prng::Rng rng{static_cast<uint64_t>(seed)};
  return static_cast<int64_t>(rng.next() & 0xFFFFFFFFull);
}

// "label##id": a translated label with an id that stays the same in every language.
std::string labelled(const char* english, const char* id) { return std::string(app::tr(english)) + "##" + id; }

// A run's head count in words: "1 head", "2 heads" (each its own catalogue entry).
std::string heads_words(int heads) {
  return app::trf(heads == 1 ? "{0} head" : "{0} heads", {std::to_string(heads)});
}

//-----------------------------------------------------------------------------
// [SECTION] controls
//-----------------------------------------------------------------------------
// The inputs (seed, R, tie, sliders) are each framed with a visible edge
// (push_control_frames); the buttons keep their own colours.
//
// Starts the shown task's runs again from `seed` (refused: the message shows below).
void reseed(Demo& demo, int64_t seed) {
  const LiveTraining& t = demo.training;
  if (t.text_task()) demo.train_reset_text(t.layers(), seed, t.lr());
  else demo.train_reset(seed, t.relations(), t.lr());
}

// Play / pause, Step, New seed.
void run_buttons(Demo& demo) {
  LiveTraining& tr = demo.training;
  const LiveTraining& t = tr;

  // Play / pause, step (held down: repeats), new seed, the seed itself.
  const bool running = tr.running();
  push_button_colors(running ? palette().pause : palette().play);
  const std::string play = running ? labelled(N_("Pause"), "train_play") : labelled(N_("Play"), "train_play");
  const float play_w = std::max(ImGui::CalcTextSize(app::tr("Pause")).x, ImGui::CalcTextSize(app::tr("Play")).x) +
                       2 * ImGui::GetStyle().FramePadding.x;
  if (ImGui::Button(play.c_str(), ImVec2(std::max(80.f, play_w), 0))) {
    if (running) demo.train_pause();
    else demo.train_play();
    request_frames(3);
  }
  ImGui::PopStyleColor(4);
  probe_visible_item("trainButtons");
  ImGui::SameLine();
  push_button_colors(palette().heads_off);  // Step, New seed and the downloads
  ImGui::PushButtonRepeat(true);
  if (ImGui::Button(labelled(N_("Step"), "train_step").c_str())) {
    demo.train_step(1);
    request_frames(3);
  }
  ImGui::PopButtonRepeat();
  probe_visible_item("trainButtons");
  ImGui::SetItemTooltip("%s", app::tr("one step of every run (hold to repeat)"));
  same_line_if_fits(ImGui::CalcTextSize(app::tr("New seed")).x + 2 * ImGui::GetStyle().FramePadding.x);
  if (ImGui::Button(labelled(N_("New seed"), "train_seed").c_str())) {
    reseed(demo, next_seed(t.seed()));
    request_frames(3);
  }
  probe_visible_item("trainButtons");
  ImGui::PopStyleColor(4);
  ImGui::SetItemTooltip("%s", app::tr("start every run again from fresh random weights"));
}

// The roles task's R and query/key tie: each a reset.
void roles_settings(Demo& demo) {
  const LiveTraining& t = demo.training;
  // R: the related tokens each query must output.
  same_line_if_fits(130.f, 18.f);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("R");
  for (int r : kTrainRelations) {
    ImGui::SameLine();
    char label[16];
    std::snprintf(label, sizeof label, "%d##r", r);
    push_control_frames(2.f);
    if (ImGui::RadioButton(label, t.relations() == r) && t.relations() != r) {
      demo.train_reset(t.seed(), r, t.lr());
      request_frames(3);
    }
    record_control_frame(true);
    pop_control_frames();
  }
  ImGui::SameLine();
  help_marker("How many related tokens the selected token must copy out, each into its own slot (R). 2: its "
              "subject and its complement. 4 adds the token just before it (found by position) and the one "
              "other token that agrees with it in number, gender and person (coreference: found by "
              "content). Changing R starts the runs again.");

  // The query/key tie: tied runs beside the untied ones (a reset).
  const std::string tie_label = labelled(N_("tie query = key"), "train_tie");
  same_line_if_fits(ImGui::CalcTextSize(tie_label.c_str(), nullptr, true).x + 60.f, 18.f);
  bool tie = t.runs_tie_qk();
  push_control_frames();
  if (ImGui::Checkbox(tie_label.c_str(), &tie)) {
    demo.train_reset(t.seed(), t.relations(), t.lr(), tie);
    request_frames(3);
  }
  pop_control_frames();
  probe_visible_item("trainButtons");
  record_control_frame(true);
  ImGui::SameLine();
  help_marker(kTieHelp);
}

// The seed, typed and sent with Enter: a reset from it.
void seed_field(Demo& demo) {
  const LiveTraining& t = demo.training;
  const char* seed = app::tr("seed");
  same_line_if_fits(ImGui::CalcTextSize(seed).x + 120.f);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(seed);
  ImGui::SameLine();
  static int64_t typed_seed = -1;  // the field's text while it is edited
  if (!ImGui::IsItemActive() && typed_seed != t.seed() && !ImGui::GetIO().WantTextInput) typed_seed = t.seed();
  ImGui::SetNextItemWidth(110);
  push_control_frames();
  if (ImGui::InputScalar("##seed", ImGuiDataType_S64, &typed_seed, nullptr, nullptr, "%lld",
                         ImGuiInputTextFlags_EnterReturnsTrue)) {
    reseed(demo, typed_seed);
    typed_seed = t.seed();
    request_frames(3);
  }
  record_control_frame(false);
  pop_control_frames();
  ImGui::SetItemTooltip("%s", app::tr("type a seed (0 .. 4294967295) and press Enter to start again from it"));
}

// The task: the made-up roles task or the language model on real English
// (a reset). Returns whether the text task is the one shown.
bool task_choice(Demo& demo) {
  const LiveTraining& t = demo.training;
  const char* task = app::tr("task");
  same_line_if_fits(ImGui::CalcTextSize(task).x + 200.f, 18.f);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(task);
  const bool text = t.text_task();
  for (const bool want_text : {false, true}) {
    ImGui::SameLine();
    push_control_frames(2.f);
    const std::string label = want_text ? labelled(N_("English text"), "train_task_text") : labelled(N_("roles"), "train_task_roles");
    if (ImGui::RadioButton(label.c_str(), text == want_text) && text != want_text) {
      if (want_text) demo.train_reset_text(app::kTextLayers[0], t.seed(), kTextDefaultLr);
      else demo.train_reset(t.seed(), t.relations(), kDefaultLr);
      request_frames(3);
    }
    record_control_frame(true);
    pop_control_frames();
  }
  ImGui::SameLine();
  help_marker("roles: the made-up task whose targets the embeddings point at (subject, complement, ...). "
              "English text: a small language model predicting the next word of the Brown corpus; nobody "
              "tells its heads what to do. Its corpus (about 2 MB) is fetched the first time.");
  return text;
}

// The text model's layers, in place of R and the tie: each a reset.
void text_settings(Demo& demo) {
  const LiveTraining& t = demo.training;
  same_line_if_fits(130.f, 18.f);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(app::tr("layers"));
  for (int layers : app::kTextLayers) {
    ImGui::SameLine();
    char label[16];
    std::snprintf(label, sizeof label, "%d##layers", layers);
    push_control_frames(2.f);
    if (ImGui::RadioButton(label, t.layers() == layers) && t.layers() != layers) {
      demo.train_reset_text(layers, t.seed(), t.lr());
      request_frames(3);
    }
    record_control_frame(true);
    pop_control_frames();
  }
}

// A slider is as wide as its row leaves beside its text (at most its own width).
float slider_width(float most, const char* text) {
  const float room = ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize(text).x - ImGui::GetStyle().ItemSpacing.x;
  return std::clamp(room, 80.f, most);
}

// Learning rate (live), its value written beside its slider ("learning rate
// 1.0e-02"), where the thumb cannot cover it. The slider moves log10(lr)
// (ImGui's logarithmic sliders take their zero epsilon from the format's
// decimals, which breaks "%e"), and shows lr.
void lr_slider(Demo& demo) {
  float log_lr = std::log10(demo.training.lr());
  const float lr_lo = -5.f, lr_hi = 0.f;
  const std::string lr_widest_text = app::trf("learning rate {0}", {app::num_sci(1e-5, 1)});
  const char* lr_widest = lr_widest_text.c_str();
  if (slider_beside("##lr", ImGuiDataType_Float, &log_lr, &lr_lo, &lr_hi, slider_width(220.f, lr_widest)))
    demo.train_set_lr(std::pow(10.f, log_lr));
  ImGui::SetItemTooltip("%s", app::tr("Adam's step size, applied from the next step (too large and a run diverges)"));
  ImGui::SameLine();
  ImGui::TextUnformatted(app::trf("learning rate {0}", {app::num_sci(demo.training.lr(), 1)}).c_str());
}

// The speed cap (live), its value beside its slider. The cap paces this
// program's own frames: where the runs train in the training program (the
// page's always do, in a Worker or between the page's frames) nothing here
// paces them, so there is no cap to show.
void speed_cap(Demo& demo) {
  LiveTraining& tr = demo.training;
  if (tr.remote()) return;
  const std::string cap_widest = app::trf("at most {0} steps / frame", {"256"});
  same_line_if_fits(120.f + ImGui::CalcTextSize(cap_widest.c_str()).x, 18.f);
  int cap = tr.max_steps_per_frame();
  const int cap_lo = 1, cap_hi = app::FramePacer::kMaxStepsPerFrame;
  if (slider_beside("##cap", ImGuiDataType_S32, &cap, &cap_lo, &cap_hi, slider_width(160.f, cap_widest.c_str()),
                    ImGuiSliderFlags_Logarithmic))
    demo.train_set_speed(cap);
  const ImVec2 cap_lo_xy = ImGui::GetItemRectMin(), cap_hi_xy = ImGui::GetItemRectMax();
  probe("trainCap.rect", ImVec4(cap_lo_xy.x, cap_lo_xy.y, cap_hi_xy.x, cap_hi_xy.y));
  probe_value("trainCap.enabled", "true");
  ImGui::SetItemTooltip("%s", app::tr("a frame trains until its 12 ms budget is used or it reaches this cap"));
  ImGui::SameLine();
  const int steps = tr.max_steps_per_frame();
  ImGui::TextUnformatted(app::trf(steps == 1 ? "at most {0} step / frame" : "at most {0} steps / frame",
                                  {std::to_string(steps)}).c_str());
}

// Seed, the task, R and the tie (roles) or layers (text), learning rate and the speed cap: each but the last two a reset.
void settings(Demo& demo) {
  seed_field(demo);
  if (task_choice(demo)) text_settings(demo);
  else roles_settings(demo);
  lr_slider(demo);
  speed_cap(demo);
}

// Where training is: step, steps/s or paused.
void progress(Demo& demo) {
  LiveTraining& tr = demo.training;
  const LiveTraining& t = tr;
  const bool running = tr.running();
  ImGui::TextUnformatted(app::trf("step {0}", {std::to_string(t.step_count())}).c_str());
  ImGui::SameLine(0, 16);
  if (!tr.ready()) {
    ImGui::TextDisabled("%s", app::tr("starting..."));
    ImGui::SetItemTooltip("%s", app::tr("the training program is loading; the runs appear when it answers"));
  } else if (running) {
    // A frame may end inside a step (each run's step and each evaluation chunk
    // is its own unit of work), so the rate is the figure that means something.
    ImGui::TextUnformatted(app::trf("{0} steps/s", {app::num(tr.steps_per_second(), 0)}).c_str());
    if (tr.remote() && tr.where().rfind("main thread", 0) == 0)  // the program on the page's thread
      ImGui::SetItemTooltip("%s", app::tr("trained by the training program between the page's frames: no Worker could start here"));
    else if (tr.remote())
      ImGui::SetItemTooltip("%s", app::tr("trained in a Worker, away from the page's drawing"));
    else
      ImGui::SetItemTooltip("%s", app::trf("last frame: {0} units of work (a run's step or an evaluation chunk) in the 12 ms budget",
                                           {std::to_string(tr.units_last_frame())}).c_str());
  } else {
    ImGui::TextDisabled("%s", app::tr("paused"));
  }
}

// Snapshots of the runs' weights, batch, loss and gradients.
void downloads(Demo& demo) {
  const LiveTraining& t = demo.training;
  const char* title = app::tr("download snapshot:");
  same_line_if_fits(ImGui::CalcTextSize((std::string(title) + " " + heads_words(1) + " " + heads_words(2) + " " +
                                         heads_words(4)).c_str()).x + 40.f, 16.f);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(title);
  for (const TrainRun& run : t.runs()) {
    if (run.tie_qk) continue;  // train.snapshot(heads, {tieQK: true}) has the tied ones
    const std::string label = heads_words(run.heads) + "##dl" + std::to_string(run.heads);
    // Swatch and button wrap together onto the next line where the row is full.
    same_line_if_fits(16.f + ImGui::CalcTextSize(label.c_str(), nullptr, true).x + ImGui::GetStyle().FramePadding.x * 2.f);
    // The run's colour as a short line before its button (coloured text on a
    // button would not keep its contrast in both themes).
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float cy = p.y + ImGui::GetFrameHeight() * 0.5f;
    ImGui::GetWindowDrawList()->AddLine(ImVec2(p.x, cy), ImVec2(p.x + 12.f, cy), curve_color(run.heads), 3.f);
    ImGui::Dummy(ImVec2(14.f, 1.f));
    ImGui::SameLine(0, 2);
    push_button_colors(palette().heads_off);
    const bool clicked = ImGui::Button(label.c_str());
    ImGui::PopStyleColor(4);
    probe_visible_item("download");
    ImGui::SetItemTooltip("%s", app::tr("save this run's snapshot() as JSON: X, target, mask, W_Q, W_K, W_V, W_O, loss "
                                        "and grads, enough to recompute the loss with numpy"));
    if (clicked) demo.request_download(run.heads);  // the platform saves it after this frame
  }
  // A sandboxed frame may drop the file: say where else it goes (cards.cpp).
  if (frame().sandboxed)
    text_disabled_wrapped("%s", app::tr("This frame is sandboxed: a snapshot is also offered to the page around it."));
}

// Divergence, one line per message with the runs it stopped, then any refusal.
void problems(Demo& demo) {
  const LiveTraining& tr = demo.training;
  const LiveTraining& t = tr;

  // Divergence, one line per message with the runs it stopped (the engine
  // names the step and the rate), then any refusal.
  std::vector<std::pair<Status, std::string>> stopped;  // why, head counts
  std::string joined;  // app::LiveTraining::error()'s form of the same messages
  for (const TrainRun& run : t.runs()) {
    if (!run.diverged) continue;
    joined += (joined.empty() ? "" : "; ") + run.stopped.error;
    // runs stopped for the same reason share a line (the same code and arguments: the same English)
    auto it = std::find_if(stopped.begin(), stopped.end(), [&](const auto& m) { return m.first.error == run.stopped.error; });
    if (it == stopped.end()) stopped.emplace_back(run.stopped, std::to_string(run.heads));
    else it->second += ", " + std::to_string(run.heads);
  }
  if (!tr.notice().is_ok()) {
    const std::string notice = app::tr_status(tr.notice());
    text_disabled_wrapped("%s", notice.c_str());
    probe_string("trainNotice", notice);
  }
  const std::string error = tr.error();
  if (!stopped.empty() || !error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, palette().error);
    ImGui::PushTextWrapPos(0.f);
    // Each reason is a code with its arguments: tr_status words it in the language.
    for (const auto& [why, heads] : stopped) {
      const char* line = heads.find(',') != std::string::npos ? N_("Runs with {0} heads {1}")
                         : heads == "1"                       ? N_("Run with {0} head {1}")
                                                              : N_("Run with {0} heads {1}");
      ImGui::TextUnformatted(app::trf(line, {heads, app::tr_status(why)}).c_str());
    }
    if (error != joined) {  // a refusal, made here or by the training program
      std::string words;
      for (const Status& s : tr.errors()) words += (words.empty() ? "" : "; ") + app::tr_status(s);
      ImGui::TextUnformatted(words.c_str());
    }
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
  }
}

// Every control in rows; in the compact layout (a course frame) the run
// buttons and the step on one row, the settings and downloads in a menu,
// so the chart keeps the room.
void controls(Demo& demo) {
  // Input frames visible on the white card.
  ImGui::PushStyleColor(ImGuiCol_FrameBg, palette().frame);
  ImGui::PushStyleColor(ImGuiCol_FrameBgHovered, palette().frame_hovered);
  ImGui::PushStyleColor(ImGuiCol_FrameBgActive, palette().frame_active);
  run_buttons(demo);
  if (frame().compact) {
    same_line_if_fits(ImGui::CalcTextSize((app::trf("step {0}", {"000000"}) + "  " + app::tr("paused")).c_str()).x, 16.f);
    progress(demo);
    same_line_if_fits(ImGui::CalcTextSize(app::tr("Settings")).x + 16.f, 16.f);
    push_button_colors(palette().heads_off);
    if (ImGui::Button(labelled(N_("Settings"), "train_settings").c_str())) ImGui::OpenPopup("##train_settings");
    ImGui::PopStyleColor(4);
    ImGui::SetItemTooltip("%s", app::tr("seed, R, the query/key tie, learning rate, speed and the snapshots"));
    if (ImGui::BeginPopup("##train_settings")) {
      // The rows' width (same_line_if_fits wraps within it): at most the display's, less a margin.
      const float rows_w = std::min(420.f, ImGui::GetIO().DisplaySize.x - 48.f);
      ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + rows_w);
      ImGui::Dummy(ImVec2(rows_w, 0.f));
      settings(demo);
      ImGui::NewLine();
      downloads(demo);
      ImGui::PopTextWrapPos();
      ImGui::EndPopup();
    }
  } else {
    settings(demo);
    progress(demo);
    downloads(demo);
  }
  problems(demo);
  ImGui::PopStyleColor(3);
}

//-----------------------------------------------------------------------------
// [SECTION] the loss chart
//-----------------------------------------------------------------------------
// Legend: one entry per run: untied, the solid line and the dashed floor;
// tied, the dotted line (its floor is its untied twin's).
// In a small frame (compact layout) the legend names the runs only, on
// one row: the curves' end labels give the losses and the plot the floors.
// The text task: held-out nats per word and the perplexity e^loss; no floors.
void chart_legend(const LiveTraining& t) {
  bool first = true;
  const bool short_legend = frame().compact;
  const bool text = t.text_task();
  for (const TrainRun& run : t.runs()) {
    const std::string loss = app::num(run.loss(), 3);
    std::string entry =
        short_legend ? (run.tie_qk ? app::trf("{0}, tied", {heads_words(run.heads)}) : heads_words(run.heads))
        : text ? app::trf(run.diverged ? "{0}: {1} nats per word, perplexity {2} (diverged)"
                                       : "{0}: {1} nats per word, perplexity {2}",
                          {heads_words(run.heads), loss, app::num(std::exp(static_cast<double>(run.loss())), 0)})
        : run.tie_qk ? app::trf(run.diverged ? "{0}, tied: loss {1} (diverged)" : "{0}, tied: loss {1}", {heads_words(run.heads), loss})
                     : app::trf(run.diverged ? "{0}: loss {1}, floor {2} (diverged)" : "{0}: loss {1}, floor {2}",
                                {heads_words(run.heads), loss, app::num(run.floor, 2)});
    if (!first) same_line_if_fits(48.f + ImGui::CalcTextSize(entry.c_str()).x, 18.f);
    first = false;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float cy = p.y + ImGui::GetTextLineHeight() * 0.5f;
    if (run.tie_qk) {
      const ImVec2 sample[2] = {ImVec2(p.x + 1, cy), ImVec2(p.x + 40, cy)};
      dotted_polyline(dl, sample, 2, curve_color(run.heads));
    } else if (text) {  // no floor: the line alone
      dl->AddLine(ImVec2(p.x, cy), ImVec2(p.x + 40, cy), curve_color(run.heads), 2.5f);
    } else {
      dl->AddLine(ImVec2(p.x, cy), ImVec2(p.x + 18, cy), curve_color(run.heads), 2.5f);
      dashed_line(dl, ImVec2(p.x + 22, cy), ImVec2(p.x + 40, cy), curve_color(run.heads), 1.5f, 4.f, 3.f);
    }
    ImGui::Dummy(ImVec2(44, ImGui::GetTextLineHeight()));
    ImGui::SameLine(0, 4);
    ImGui::TextUnformatted(entry.c_str());
  }
}

// A curve's end label ("4 heads 0.12"; tied: "4 heads tied 0.12").
std::string end_label(int heads, bool tied, float loss) {
  return app::trf(tied ? "{0} tied {1}" : "{0} {1}", {heads_words(heads), app::num(loss, 2)});
}

// The plot's frame on screen: the plot from a to b inside the chart's item
// at origin, room below it for the steps (bottom), the loss scale y_max,
// and the step axis.
struct ChartFrame {
  ImVec2 origin, a, b;
  float lh = 0, bottom = 0, y_max = 1.f;
  LogStepAxis axis{0.f, 1.f, 1};
  // The loss's y on screen (clamped to the plot).
  float Y(float loss) const { return b.y - std::clamp(loss / y_max, 0.f, 1.f) * (b.y - a.y); }
};

// y: loss from 0 to the largest shown (at least 1: predicting zero), in quarters.
// The text task's losses (nats per word, about ln V = 8 at first): to 12, in whole nats.
float loss_scale(const LiveTraining& t, int64_t shown_step) {
  const bool text = t.text_task();
  const float y_cap = text ? 12.f : 4.f, y_unit = text ? 1.f : 4.f;
  float y_max = 1.f;
  for (const TrainRun& run : t.runs())
    for (const EvalPoint& e : run.history)
      if (e.step <= shown_step) y_max = std::max(y_max, std::min(e.loss, y_cap));
  return std::ceil(y_max * y_unit - 1e-3f) / y_unit;
}

// The plot's background, grid, ticks and frame, and the axis titles: the
// steps along the bottom, the loss up the left side.
void chart_axes(ImDrawList* dl, const ChartFrame& f, bool text) {
  const Palette& pal = palette();
  const ImVec2 a = f.a, b = f.b;
  dl->AddRectFilled(a, b, pal.panel);
  f.axis.draw_ticks(dl, a.y, b.y, pal.guide, pal.text_faint);
  for (float v = 0.f; v <= f.y_max + 1e-4f; v += text ? 1.f : f.y_max > 2.f ? 0.5f : 0.25f) {
    dl->AddLine(ImVec2(a.x, f.Y(v)), ImVec2(b.x, f.Y(v)), pal.guide);
    const std::string tick = app::num(v, text ? 0 : 2);
    const ImVec2 ts = ImGui::CalcTextSize(tick.c_str());
    dl->AddText(ImVec2(a.x - ts.x - 4.f, f.Y(v) - ts.y * 0.5f), pal.text_faint, tick.c_str());
  }
  dl->AddRect(a, b, pal.panel_border);
  const char* x_title = app::tr("training step (log scale)");
  const float xt = ImGui::CalcTextSize(x_title).x;
  dl->AddText(ImVec2(0.5f * (a.x + b.x - xt), b.y + 2.f + f.lh + 2.f), pal.text_secondary, x_title);
  const char* y_title = text ? app::tr("held-out nats per word") : app::tr("held-out loss");
  const float yt = ImGui::CalcTextSize(y_title).x;
  draw_text_up(dl, ImVec2(f.origin.x, 0.5f * (a.y + b.y + yt)), pal.text_secondary, y_title);
}

// Floors: dashed in the run's colour; runs sharing a floor interleave
// dashes. A tied run's floor is its untied twin's: drawn once. Then the
// floor values, once per distinct floor, at the left inside the plot.
void floors(ImDrawList* dl, const ChartFrame& f, const std::vector<TrainRun>& runs) {
  for (size_t i = 0; i < runs.size(); ++i) {
    if (runs[i].tie_qk) continue;
    int same = 0, before = 0;
    for (size_t j = 0; j < runs.size(); ++j)
      if (!runs[j].tie_qk && std::fabs(runs[j].floor - runs[i].floor) < 1e-6f) {
        ++same;
        if (j < i) ++before;
      }
    const float dash = 7.f, gap = 3.f + (dash + 1.f) * static_cast<float>(same - 1);
    const float y = f.Y(runs[i].floor) - (runs[i].floor <= 0.f ? 1.5f : 0.f);  // keep the 0 floor off the frame
    dashed_line(dl, ImVec2(f.a.x, y), ImVec2(f.b.x, y), curve_color(runs[i].heads), 2.f, dash, gap,
                static_cast<float>(before) * (dash + 1.f));
  }
  std::vector<float> labelled;
  for (const TrainRun& run : runs) {
    if (run.tie_qk ||
        std::any_of(labelled.begin(), labelled.end(), [&](float fl) { return std::fabs(fl - run.floor) < 1e-6f; }))
      continue;
    labelled.push_back(run.floor);
    std::string who;
    for (const TrainRun& o : runs)
      if (!o.tie_qk && std::fabs(o.floor - run.floor) < 1e-6f) who += (who.empty() ? "" : ", ") + std::to_string(o.heads);
    const std::string floor = app::trf("floor {0} (H = {1})", {app::num(run.floor, 2), who});
    const float ty = run.floor <= 0.f ? f.Y(0) - ImGui::GetTextLineHeight() - 3.f : f.Y(run.floor) - ImGui::GetTextLineHeight() - 1.f;
    dl->AddText(ImVec2(f.a.x + 6.f, ty), palette().text_faint, floor.c_str());
  }
}

// Where a curve ends: the label's y, the run and its last loss.
struct CurveEnd { float y; int heads; float loss; bool diverged; bool tied; };

// Each run's curve up to shown_step (tied: dotted, ending in a ring; a
// diverged run: a cross where it stopped), recorded as probes. Returns
// where the curves end.
std::vector<CurveEnd> curves(ImDrawList* dl, const ChartFrame& f, const std::vector<TrainRun>& runs, int64_t shown_step) {
  std::vector<CurveEnd> ends;
  std::vector<ImVec2> pts;
  for (const TrainRun& run : runs) {
    pts.clear();
    float last = 0.f;
    for (const EvalPoint& e : run.history) {
      if (e.step > shown_step) break;
      pts.emplace_back(f.axis.x(e.step), f.Y(e.loss));
      last = e.loss;
    }
    const ImU32 col = curve_color(run.heads);
    if (run.tie_qk)
      dotted_polyline(dl, pts.data(), static_cast<int>(pts.size()), col, 1.7f, 6.f);
    else if (pts.size() >= 2)
      dl->AddPolyline(pts.data(), static_cast<int>(pts.size()), col, ImDrawFlags_None, 2.5f);
    if (!pts.empty()) {
      if (run.tie_qk) dl->AddCircle(pts.back(), 4.f, col, 0, 2.f);  // tied: a ring
      else dl->AddCircleFilled(pts.back(), 3.5f, col);
      if (run.diverged) {  // a cross where the run stopped
        const ImVec2 p = pts.back();
        dl->AddLine(ImVec2(p.x - 6, p.y - 6), ImVec2(p.x + 6, p.y + 6), palette().error, 2.f);
        dl->AddLine(ImVec2(p.x - 6, p.y + 6), ImVec2(p.x + 6, p.y - 6), palette().error, 2.f);
      }
      ends.push_back({pts.back().y, run.heads, last, run.diverged, run.tie_qk});
    }
    probe_item("trainChart.runs", [&](app::JsonObject& o) {
      o.field("heads", run.heads).field("points", static_cast<int>(pts.size()));
      app::append_fixed(o.key("lastLoss"), last, 5);
      app::append_fixed(o.key("floor"), run.floor, 4);
      app::append_fixed(o.key("floorY"), f.Y(run.floor), 1);
      o.field("diverged", run.diverged);
    });
  }
  return ends;
}

// Labels right of the plot at each curve's end, pushed apart to stay legible.
void end_labels(ImDrawList* dl, const ChartFrame& f, std::vector<CurveEnd> ends) {
  const float lh = f.lh;
  std::sort(ends.begin(), ends.end(), [](const CurveEnd& p, const CurveEnd& q) { return p.y < q.y; });
  float next_free = f.a.y - lh * 0.5f;
  for (CurveEnd& e : ends) {
    float y = std::max(e.y - lh * 0.5f, next_free);
    next_free = y + lh;
    e.y = y;
  }
  for (auto it = ends.rbegin(); it != ends.rend(); ++it) {  // and back up if they ran off the bottom
    const float limit = (it == ends.rbegin() ? f.b.y + f.bottom - lh : (it - 1)->y - lh);
    if (it->y > limit) it->y = limit;
  }
  for (const CurveEnd& e : ends) {
    dl->AddText(ImVec2(f.b.x + 6.f, e.y), curve_color(e.heads), end_label(e.heads, e.tied, e.loss).c_str());
  }
}

// Hover: a line at the mouse, and the nearest evaluation of every run at the mouse's step.
void chart_hover(ImDrawList* dl, const ChartFrame& f, const std::vector<TrainRun>& runs, int64_t shown_step) {
  const float mx = ImGui::GetIO().MousePos.x;
  dl->AddLine(ImVec2(mx, f.a.y), ImVec2(mx, f.b.y), palette().text_faint);
  ImGui::BeginTooltip();
  for (const TrainRun& run : runs) {
    const EvalPoint* best = nullptr;
    float best_d = 1e30f;
    for (const EvalPoint& e : run.history) {
      if (e.step > shown_step) break;
      const float d = std::fabs(f.axis.x(e.step) - mx);
      if (d < best_d) best_d = d, best = &e;
    }
    if (best == nullptr) continue;
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(curve_color(run.heads)));
    ImGui::TextUnformatted(app::trf(run.tie_qk ? "{0} tied, step {1}: loss {2}" : "{0}, step {1}: loss {2}",
                                    {heads_words(run.heads), std::to_string(best->step), app::num(best->loss, 4)})
                               .c_str());
    ImGui::PopStyleColor();
  }
  ImGui::EndTooltip();
}

// Lines of the chart: per run its curve up to the chart's step, its floor
// dashed, its label at the curve's end; a legend keys colours to head counts.
void loss_chart(Demo& demo, float width, float height) {
  const LiveTraining& t = demo.training;
  const int64_t shown_step = t.chart_step();
  const bool text = t.text_task();
  chart_legend(t);

  // height < 0: down to -height px above the bottom of the window's room (at least kMinChart).
  constexpr float kMinChart = 120.f;
  if (height < 0.f) height = std::max(kMinChart, ImGui::GetContentRegionAvail().y + height);
  // The curves' end labels: their widest form sets the room right of the plot.
  const float label_w = std::max(100.f, ImGui::CalcTextSize(end_label(4, t.runs_tie_qk(), 0.f).c_str()).x + 10.f);
  // Room left for the loss numbers and the axis title turned upward, below
  // for the step numbers and the axis title.
  ChartFrame f;
  f.lh = ImGui::GetTextLineHeight();
  const float left = 42.f + f.lh, top = 6.f;
  f.bottom = 22.f + f.lh;
  f.origin = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("##losschart", ImVec2(width, height));
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  f.a = ImVec2(f.origin.x + left, f.origin.y + top);
  f.b = ImVec2(f.origin.x + width - label_w, f.origin.y + height - f.bottom);
  probe("trainChart.rect", ImVec4(f.a.x, f.a.y, f.b.x, f.b.y));
  f.y_max = loss_scale(t, shown_step);
  // At least to step 1000, so the axis reads 1, 10, 100, 1000 from the start
  // and the curves grow into a frame that does not rescale until then.
  f.axis = LogStepAxis(f.a.x, f.b.x, std::max<int64_t>(kChartMinSteps, shown_step));

  chart_axes(dl, f, text);
  const std::vector<TrainRun>& runs = t.runs();
  if (!text) floors(dl, f, runs);
  end_labels(dl, f, curves(dl, f, runs, shown_step));
  if (hovered) chart_hover(dl, f, runs, shown_step);
}

}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] the view
//-----------------------------------------------------------------------------
// The text task's chart and caption: nats per word, perplexity, the corpus.
void text_chart(Demo& demo, float width, bool phone) {
  const LiveTraining& tr = demo.training;
  const app::CorpusInfo& c = tr.corpus_info();
  const std::string caption =
      app::trf("Next-word loss on held-out {0} text, in nats per word; perplexity is e to that power. Guessing "
               "evenly among its {1} words costs ln {1} = {2} nats (perplexity {1}). {3}",
               {c.name.empty() ? std::string("Brown") : c.name, std::to_string(c.vocab),
                app::num(c.vocab > 0 ? std::log(static_cast<double>(c.vocab)) : 0.0, 2),
                tr.layers() == 2 ? app::tr("Two attention layers.") : app::tr("One attention layer.")});
  const float caption_h = ImGui::CalcTextSize(caption.c_str(), nullptr, false, width).y + ImGui::GetStyle().ItemSpacing.y;
  loss_chart(demo, width, frame().compact ? -caption_h : phone ? 220.f : 280.f);
  text_disabled_wrapped("%s", caption.c_str());
}

// The text task's knockout: per run and layer a row of head buttons (1 ..
// H; the last knocked-out head's in the accent colour); a press knocks that
// head out (Demo::train_knockout), and the line under the rows gives the
// last knockout's held-out loss with and without the head, as measured by
// the engine (text_trainer.h "Knockout"). Probes: "trainKnockout.buttons"
// ({heads, layer, head, rect}, 1-based) and "trainKnockout.shown" (what the
// line says, and its numbers as drawn).
void knockout_rows(Demo& demo) {
  const LiveTraining& t = demo.training;
  if (!t.ready() || t.runs().empty()) return;
  ImGui::Spacing();
  ImGui::TextUnformatted(app::tr("Knock out a head"));
  ImGui::SameLine();
  help_marker("Knockout: one head's output is set to zero before W_O and the held-out loss is measured again on the "
              "same held-out text. The difference is what the model loses without that head.");
  const TextKnockout* k = t.last_knockout();
  for (const TrainRun& run : t.runs()) {
    for (int l = 0; l < t.layers(); ++l) {
      ImGui::AlignTextToFramePadding();
      ImGui::TextUnformatted(app::trf("{0}, layer {1}", {heads_words(run.heads), std::to_string(l + 1)}).c_str());
      for (int h = 0; h < run.heads; ++h) {
        ImGui::SameLine(0.f, h == 0 ? 8.f : 4.f);
        const bool last = k && k->heads == run.heads && k->layer == l && k->head == h;
        push_button_colors(last ? palette().accent : palette().heads_off);
        const std::string id = std::to_string(h + 1) + "##knockout" + std::to_string(run.heads) + "_" +
                               std::to_string(l) + "_" + std::to_string(h);
        const bool pressed = ImGui::Button(id.c_str());
        ImGui::PopStyleColor(4);
        if (ImGui::IsItemVisible()) {
          const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
          probe_item("trainKnockout.buttons", [&](app::JsonObject& o) {
            o.field("heads", run.heads).field("layer", l + 1).field("head", h + 1);
            append_rect(o.key("rect"), ImVec4(a.x, a.y, b.x, b.y));
          });
        }
        const size_t slot = static_cast<size_t>(l) * static_cast<size_t>(run.heads) + static_cast<size_t>(h);
        const std::string label = slot < run.per_head.size() && !run.per_head[slot].label.empty() ? app::head_kind_word(run.per_head[slot].label) : "-";
        ImGui::SetItemTooltip("%s", app::trf("head {0} ({1}): knock it out and measure the held-out loss without it",
                                             {std::to_string(h + 1), label}).c_str());
        if (pressed) demo.train_knockout(run.heads, l + 1, h + 1);
      }
    }
  }
  if (!k) {
    text_disabled_wrapped("%s", app::tr("Press a head's number to knock it out: the held-out loss is measured with and without it."));
    probe_value("trainKnockout.shown", "null");
    return;
  }
  const float change = k->loss_after - k->loss_before;
  const std::string before = app::num(k->loss_before, 4), after = app::num(k->loss_after, 4),
                    delta = (change >= 0.f ? "+" : "") + app::num(change, 4);
  const std::string line = app::trf("{0}, layer {1}, head {2} knocked out: held-out loss {3} with it, {4} without it ({5} nats per word)",
                                    {heads_words(k->heads), std::to_string(k->layer + 1), std::to_string(k->head + 1), before, after, delta});
  ImGui::PushTextWrapPos(0.f);
  ImGui::TextUnformatted(line.c_str());
  ImGui::PopTextWrapPos();
  std::string shown;
  {
    app::JsonObject o(shown);
    o.field("heads", k->heads).field("layer", k->layer + 1).field("head", k->head + 1);
    o.field("lossBefore", before).field("lossAfter", after).field("change", delta).field("text", line);
  }
  probe_value("trainKnockout.shown", std::move(shown));
}

void view_train(Demo& demo) {
  section_title(app::view_row(app::ViewId::Train).title, app::view_row(app::ViewId::Train).help);
  controls(demo);
  const float width = ImGui::GetContentRegionAvail().x;
  const bool phone = width < 520.f;
  const int R = demo.training.relations();
  if (demo.training.text_task()) {
    text_chart(demo, width, phone);
    if (!frame().compact) knockout_rows(demo);  // compact: the chart keeps the room
    return;
  }
  // Compact: the chart takes the panel's height down to the footnote, as
  // many lines as the footnote wraps to beside its help marker.
  const bool compact = frame().compact;
  const std::string footnote = app::trf("why one head stops at {0} however it splits its weight", {app::num(1.0 - 1.0 / R, 2)});
  const float marker_w = ImGui::CalcTextSize("(?)").x + ImGui::GetStyle().ItemSpacing.x;
  const float footnote_h = ImGui::CalcTextSize(footnote.c_str(), nullptr, false, width - marker_w).y + ImGui::GetStyle().ItemSpacing.y;
  loss_chart(demo, width, compact ? -footnote_h : phone ? 220.f : 280.f);

  help_marker(
      "Why one head has a floor. A head's output is one weighted average of the tokens' values, so "
      "whatever it does with its weight it hands on ONE blend of the targets' contents. The last matrix "
      "can only pull apart as many separate contents as there are heads: with one head and two targets, "
      "half of what was asked for is always missing. Putting all the weight on one target copies that "
      "one exactly and loses the other; an even split gets half of each; both leave the same error, 0.5. "
      "Why one head is lowest at first: all it has to learn is to move its weight onto the targets, in any "
      "split, and that alone brings it down to its floor. Heads that share the work must also divide the "
      "targets between them (each head picks a different one, and W_O learns which slot each head feeds), "
      "which takes longer; then they go below 0.5, where one head cannot. "
      "In symbols: o_h = sum_j a_j W_V x_j holds one k-dim mixture sum_r a_r W_V c_r; W_O maps H of them "
      "into the R*k target dims, rank at most H*k, so loss >= 1 - min(H, R)/R.");
  ImGui::SameLine();
  if (compact) {  // the long reason is the marker's
    text_disabled_wrapped("%s", footnote.c_str());
    return;
  }
  ImGui::PushTextWrapPos(0.f);
  ImGui::TextDisabled(
      "%s", app::trf("Why one head stops at {0} however it splits its weight: it hands on one blend of the {1} targets' "
                     "contents, and one blend cannot be pulled apart again; all on one target and an even split lose the "
                     "same amount (floor = 1 - min(H, R) / R). One head is lowest at first because it only has to move its "
                     "weight onto the targets; more heads must also share the targets out, which takes longer.",
                     {app::num(1.0 - 1.0 / R, 2), std::to_string(R)}).c_str());
  ImGui::PopTextWrapPos();
  if (demo.training.runs_tie_qk()) {
    help_marker(kTieHelp);
    ImGui::SameLine();
    ImGui::PushTextWrapPos(0.f);
    ImGui::TextDisabled(
        "%s", app::tr("Dotted: tied query and key. Tied scores are symmetric (i -> j scores as j -> i) and a token "
                      "out-scores itself only through a longer projection, so pointers and 'the token before' suffer; "
                      "an agreement match has no direction."));
    ImGui::PopTextWrapPos();
  }
}

void training_loss_chart(Demo& demo, float width, float height) { loss_chart(demo, width, height); }

}  // namespace headroom::ui
