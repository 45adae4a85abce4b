// view_steps.cpp: the forward pass one step at a time for the selected
// token: Q, K, scaled scores, softmax, weighted sum, concat, W_O; each with
// one sentence saying what it does, then its formula, the shapes with this
// scene's numbers, and the query's values.
//
// Does: read every number from the Trace (Q, K, V, scores, weights, out,
// concat, y) and show it; vectors as a strip of coloured cells (hover: the
// value) plus their first entries and norm.
// Does not: recompute any step.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "app/state/view_rows.h"
#include "app/lang/lang.h"
#include "ui/text.h"
#include "ui/view_state.h"
#include "ui/views.h"

namespace headroom::ui {

namespace {

// Each step's button: a word first, its symbol after (catalogue keys, N_;
// shown through tr()).
const char* const kStepNames[] = {N_("queries (Q)"), N_("keys (K)"),    N_("scores"),   N_("weights (softmax)"),
                                  N_("weighted sum"), N_("concat"), N_("mix (W_O)")};
constexpr int kSteps = 7;
// What each step does, in one sentence a first-week student can follow; the
// step's formula and shapes come after it.
const char* kStepSentences[kSteps] = {
    N_("Each head turns every token into a query: a short list of numbers saying what that token is looking for."),
    N_("Each head also turns every token into a key: a list of numbers saying what that token can be found by."),
    N_("The selected token's query is compared with every key, one score per token: the better the match, the "
       "higher the score."),
    N_("The scores become weights between 0 and 1 that add up to 1, so the best matches get most of the weight."),
    N_("Each head takes a weighted average of the tokens' values (what each token hands on): its one result "
       "for the selected token."),
    N_("The heads' results are laid side by side in one long list, so no head's result is averaged away."),
    N_("One last matrix mixes the side-by-side results into the layer's output for the selected token."),
};

// The list separator between numbers: "; " where the decimal mark is a comma ("0,12; -0,03").
const char* number_separator() { return app::language().decimal == ',' ? "; " : ", "; }

// "[0.12, -0.03, 0.40, ...] |v| = 1.23" and a strip of all entries.
void vector_row(const char* name, const float* v, int n) {
  std::string text = std::string(name) + " = [";
  const int show = std::min(n, 6);
  for (int i = 0; i < show; ++i) text += (i ? number_separator() : "") + app::num(v[i], 3);
  double norm = 0, big = 1e-6;
  for (int i = 0; i < n; ++i) {
    norm += double(v[i]) * v[i];
    big = std::max(big, double(std::fabs(v[i])));
  }
  text += std::string(n > show ? number_separator() : "") + (n > show ? "..." : "") + "]  |" + name +
          "| = " + app::num(std::sqrt(norm), 3);
  headroom::ui::text_wrapped(text);  // a narrow frame wraps the numbers rather than cutting them
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float w = std::min(ImGui::GetContentRegionAvail().x, 520.f);
  const int hv = vector_strip(ImGui::GetWindowDrawList(), p, ImVec2(p.x + w, p.y + 14), v, n, static_cast<float>(big));
  if (hv >= 0) ImGui::SetTooltip("%s[%d] = %s", name, hv, app::num(v[hv], 4).c_str());
  ImGui::Dummy(ImVec2(w, 16));
}

// One number per token, with the token's name: scores or weights.
void token_row(Demo& demo, const float* v, int decimals, int highlight_a, int highlight_b) {
  const auto& tokens = demo.shown().tokens;
  const int L = static_cast<int>(tokens.size());
  const float avail = ImGui::GetContentRegionAvail().x;
  float x = 0;
  for (int j = 0; j < L; ++j) {
    const std::string cell = tokens[static_cast<size_t>(j)].text + " " + app::num(v[j], decimals);
    const float w = text_size(cell).x + 14;
    if (j > 0 && x + w < avail) ImGui::SameLine(0, 14);
    else if (j > 0) x = 0;
    x += w;
    const bool hl = j == highlight_a || j == highlight_b;
    if (hl) ImGui::PushFont(frame().fonts.bold);
    text(cell);
    if (hl) ImGui::PopFont();
  }
}

// The step buttons between a previous and a next arrow, wrapped where the row is full.
void step_buttons(ViewState& vs) {
  if (ImGui::ArrowButton("##prev", ImGuiDir_Left) && vs.step > 0) --vs.step;
  ImGui::SameLine();
  for (int s = 0; s < kSteps; ++s) {
    const std::string label = std::to_string(s + 1) + " " + app::tr(kStepNames[s]) + "##step" + std::to_string(s);
    const float w = ImGui::CalcTextSize(label.c_str(), nullptr, true).x + 2 * ImGui::GetStyle().FramePadding.x;
    if (ImGui::GetContentRegionAvail().x < w + 40) ImGui::NewLine();
    const bool on = s == vs.step;
    if (on) push_button_colors(palette().accent);
    if (ImGui::Button(label.c_str())) vs.step = s;
    if (on) ImGui::PopStyleColor(4);
    ImGui::SameLine();
  }
  if (ImGui::ArrowButton("##next", ImGuiDir_Right) && vs.step < kSteps - 1) ++vs.step;
}

// A step of one head (the first five) with H > 1: a button per head picks which.
void head_buttons(ViewState& vs, int H) {
  const bool per_head = vs.step <= 4;
  if (!per_head || H <= 1) return;
  ImGui::TextDisabled("%s", app::tr("head:"));
  for (int h = 0; h < H; ++h) {
    ImGui::SameLine();
    char label[16];
    std::snprintf(label, sizeof label, "%d##sh", h + 1);
    ImGui::PushStyleColor(ImGuiCol_Button, h == vs.step_head ? head_color(h) : head_color(h, 0.18f));
    ImGui::PushStyleColor(ImGuiCol_Text, h == vs.step_head ? palette().on_color : head_color(h));
    if (ImGui::SmallButton(label)) vs.step_head = h;
    ImGui::PopStyleColor(2);
  }
}

// The step's sentence, its formula, and its shapes with this scene's numbers.
void step_text(int step, int L, int H, int D, int dh) {
  char shape[160];
  ImGui::PushTextWrapPos(0.f);
  ImGui::TextUnformatted(app::tr(kStepSentences[step]));
  ImGui::PopTextWrapPos();
  ImGui::PushFont(frame().fonts.medium);
  switch (step) {
    case 0: ImGui::TextUnformatted("Q_h = X W_Q^h"); break;
    case 1: ImGui::TextUnformatted("K_h = X W_K^h"); break;
    case 2: ImGui::TextUnformatted("S_h = Q_h K_h^T / \xe2\x88\x9a" "d_head"); break;
    case 3: ImGui::TextUnformatted(app::tr("A_h = softmax(S_h), row by row")); break;
    case 4: ImGui::TextUnformatted(app::tr("O_h = A_h V_h, with V_h = X W_V^h")); break;
    case 5: ImGui::TextUnformatted("C = [O_1 | O_2 | ... | O_H]"); break;
    default: ImGui::TextUnformatted("Y = C W_O"); break;
  }
  ImGui::PopFont();
  switch (step) {
    case 0: case 1:
      std::snprintf(shape, sizeof shape, "X: L x D = %d x %d,  W: D x d_head = %d x %d  \xe2\x86\x92  %d x %d", L, D, D, dh, L, dh);
      break;
    case 2: case 3:
      std::snprintf(shape, sizeof shape, "(%d x %d)(%d x %d)  \xe2\x86\x92  L x L = %d x %d%s", L, dh, dh, L, L, L,
                    app::tr(step == 2 ? "; scale 1/\xe2\x88\x9a" "d_head" : "; each row sums to 1"));
      break;
    case 4:
      std::snprintf(shape, sizeof shape, "A_h: %d x %d,  V_h: %d x %d  \xe2\x86\x92  O_h: %d x %d", L, L, L, dh, L, dh);
      break;
    case 5:
      std::snprintf(shape, sizeof shape, "%s  \xe2\x86\x92  L x D = %d x %d",
                    app::trf("{0} heads x ({1} x {2})", {std::to_string(H), std::to_string(L), std::to_string(dh)}).c_str(), L, D);
      break;
    default: std::snprintf(shape, sizeof shape, "(%d x %d)(%d x %d)  \xe2\x86\x92  %d x %d", L, D, D, D, L, D); break;
  }
  text_disabled_wrapped("%s", app::trf("shapes: {0}", {shape}).c_str());
}

// The step's numbers for the query: a vector, or one number per token.
void step_values(Demo& demo, const ModelView& v, int step, int h) {
  const auto& [m, tr, tokens, L, q, H, D, dh] = v;
  const HeadTrace& ht = tr.heads[static_cast<size_t>(h)];
  const std::string qname = tokens[static_cast<size_t>(q)].text;
  const HeadReadout& r = m.head[static_cast<size_t>(h)].readout;
  const int ta = r.targets.empty() ? -1 : r.targets[0], tb = r.targets.size() > 1 ? r.targets[1] : -1;
  switch (step) {
    case 0:
      text(app::trf("the query \"{0}\", head {1}:", {qname, std::to_string(h + 1)}));
      vector_row("q", ht.q.row(q).data(), dh);
      break;
    case 1:
      text(app::trf(tb >= 0 ? "head {0}'s keys of the targets:" : "head {0}'s key of the target:", {std::to_string(h + 1)}));
      for (int t : r.targets) vector_row(("k(" + tokens[static_cast<size_t>(t)].text + ")").c_str(), ht.k.row(t).data(), dh);
      break;
    case 2: {
      text(app::trf("\"{0}\"'s row of scores (targets in bold):", {qname}));
      std::vector<float> row(ht.scores.row(q).data(), ht.scores.row(q).data() + L);
      token_row(demo, row.data(), 2, ta, tb);
      break;
    }
    case 3: {
      text(app::trf("\"{0}\"'s row of weights (sum = {1}):", {qname, app::num(ht.weights.row(q).sum(), 4)}));
      token_row(demo, ht.weights.row(q).data(), 3, ta, tb);
      break;
    }
    case 4: {
      std::string terms = "o = ";
      int shown = 0;
      for (int j = 0; j < L; ++j) {
        if (ht.weights(q, j) < 0.05f) continue;
        terms += (shown ? " + " : "") + app::num(ht.weights(q, j), 2) + " v(" + tokens[static_cast<size_t>(j)].text + ")";
        ++shown;
      }
      text_wrapped(terms + " + " + app::trf("(the rest, each < {0})", {app::num(0.05, 2)}));
      vector_row("o", ht.out.row(q).data(), dh);
      break;
    }
    case 5:
      text(app::trf("\"{0}\"'s row: head 1's {1} numbers, then head 2's, ...", {qname, std::to_string(dh)}));
      vector_row("c", tr.concat.row(q).data(), D);
      break;
    default:
      text(app::trf("\"{0}\"'s output, the layer's result:", {qname}));
      vector_row("y", tr.out.row(q).data(), D);
      break;
  }
}

}  // namespace

void view_steps(Demo& demo) {
  const ModelView v = open_view(demo, app::view_row(app::ViewId::Steps).title, app::view_row(app::ViewId::Steps).help);
  ViewState& vs = view_state();
  vs.step = std::clamp(vs.step, 0, kSteps - 1);
  vs.step_head = std::clamp(vs.step_head, 0, v.H - 1);

  step_buttons(vs);
  head_buttons(vs, v.H);
  ImGui::Spacing();
  step_text(vs.step, v.L, v.H, v.D, v.dh);
  step_values(demo, v, vs.step, vs.step_head);
}

}  // namespace headroom::ui
