// url_state.h: the demo's state in the URL hash, so any view can be shared as
// a link, and the embed page can be configured by its iframe's src.
//
//   #heads=2&sentence=The%20cat%20sat.&query=1&focus=0.5&view=lesson&theme=dark
//   #view=train&seed=7&r=4&weights=trained
//   #heads=2&knockout=2&tieqk=1
//   #view=train&task=text&layers=2&seed=7
//
// Does: parse a hash by a whitelist (heads, query, focus, view, theme, lang, tab,
// sentence, knockout, tieqk, and training's seed, r, task, layers and weights: one table in
// url_state.cpp drives parsing, messages and writing)
// with strict grammar: percent-decoding that refuses malformed escapes (%ZZ,
// a lone %), NUL and other control characters, and invalid UTF-8 (checked
// with the tokenizer's decoder; includes UTF-8-encoded lone surrogates);
// whole numbers in plain digits only (no sign, point, exponent, hex, NaN); a
// key given twice is refused; unknown keys are ignored and reported; a hash
// over kMaxHashBytes is refused whole. Every refusal is a Status (a code of
// app/lang/refusals.h with its arguments, put into words by tr_status), and a refused field is simply absent from the result, so the
// caller keeps its previous value. Then apply the parsed fields to a Scene
// (the engine decides which values are valid, so the hash and the UI can
// never disagree), and serialise a state back.
// Does not: touch the browser (src/platform passes the hash in as bytes and
// shows the messages through ImGui or textContent), interpret markup (a
// sentence with "<b>" is just text), or keep state of its own (app::Demo
// applies a hash to itself with Demo::apply_hash).
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/state/view_rows.h"
#include "app/training/live_training.h"  // kWeightChoices, kTrainTasks
#include "engine/lesson/scene.h"
#include "engine/train/trainer.h"

namespace headroom::app {

// Caps. A hash longer than this is refused whole: the longest sentence the
// engine accepts (SceneConfig::kMaxBytes = 4096 bytes) percent-encoded as
// 3-byte characters is 12 KB, so 16 KB fits every real link.
constexpr size_t kMaxHashBytes = 16384;
constexpr size_t kMaxHashMessages = 8;  // then "... and N more"
constexpr size_t kMaxKnockout = 8;      // heads a knockout list may name (the most heads a scene has)

// The values the `theme` and `weights` keys accept; the first is the
// default; `view` and `tab` accept kViews and kTabs (view_rows.h: the
// page's views, one table). "train" is the training view; weights "trained"
// makes every view show the weights of the training run with the shown head
// count.
constexpr std::array<const char*, 2> kThemes = {"light", "dark"};
// kWeightChoices, kTrainTasks and kTextLayers: app/training/live_training.h.
// The values `r` (related tokens the training task asks for) accepts: kTrainRelations (trainer.h).

// check_choice: app/lang/lang.h.

// The formats exportView takes; "png" is the platform's.
constexpr std::array<const char*, 3> kExportFormats = {"png", "csv", "json"};
// Checks `view` (one of kViews) and `format` (one of kExportFormats) with a
// message naming the accepted values.
Status check_export(std::string_view view, std::string_view format);

// The fields a hash may set; an empty optional means "not given or refused".
struct UrlState {
  std::optional<int> heads;
  std::optional<std::string> sentence;  // UTF-8, no control characters but \t \n \r
  std::optional<int> query;
  std::optional<float> focus;           // clamped to [0, 1]
  std::optional<std::string> view;      // one of kViews
  std::optional<std::string> theme;     // one of kThemes
  std::optional<std::string> lang;      // a built-in language's code (app/lang/lang.h)
  std::optional<std::string> tab;       // one of kTabs: the compact layout's open tab
  std::optional<int64_t> seed;          // training seed, 0 .. kMaxSeed (engine/train/trainer.h)
  std::optional<int> r;                 // one of kTrainRelations
  std::optional<std::string> weights;   // one of kWeightChoices
  std::optional<std::string> task;      // one of kTrainTasks
  std::optional<int> layers;            // one of kTextLayers (the text task's)
  // Knocked-out heads, 0-based and ascending (the hash writes them 1-based:
  // knockout=1,2); at most kMaxKnockout of them.
  std::optional<std::vector<int>> knockout;
  // tieqk=1 (on) or 0 (off): the query/key tie, one key for the lesson's
  // views and training (app::Demo applies it to both: demo.h).
  std::optional<bool> tie_qk;
  // The guided lesson (app/tour/tour.h): {first, last, step}, 1-based. tour=N is
  // {1, 8, N}; tour=N-M confines it to N..M and opens N.
  std::optional<std::array<int, 3>> tour;

  bool operator==(const UrlState& o) const {
    return heads == o.heads && sentence == o.sentence && query == o.query && focus == o.focus &&
           view == o.view && theme == o.theme && lang == o.lang && tab == o.tab && seed == o.seed && r == o.r && weights == o.weights &&
           task == o.task && layers == o.layers &&
           knockout == o.knockout && tie_qk == o.tie_qk && tour == o.tour;
  }
};

struct UrlParse {
  UrlState state;
  std::vector<Status> messages;  // one per refused, clamped or ignored item
};

// Parses `hash` (with or without the leading '#'; raw bytes, any content).
UrlParse parse_url_hash(std::string_view hash);

// Percent-decodes one value of `key` ('+' is a space). Returns false with
// `why` set (its first argument `key`) on a malformed escape, a control
// character (other than \t \n \r when `allow_whitespace`), or invalid UTF-8.
bool percent_decode(std::string_view key, std::string_view in, bool allow_whitespace, std::string& out, Status& why);

// Percent-encodes everything but A-Z a-z 0-9 - . _ ~ (spaces as %20).
std::string percent_encode(std::string_view in);

// "heads=2&query=6&...": every field that is set, in a fixed order.
std::string to_url_hash(const UrlState& s);

// The order a link's fields are applied in: the one list Demo::apply_hash
// and apply_url_state follow, and the embed page's headroom:set too
// (headroom-embed.mjs reads it from the wasm's tables, js_api.cpp). The
// language first (a page on its lesson opens on the new language's); the
// sentence before the query (an index means a token of the new sentence);
// heads before the knockout (a new head count clears it); the tie before
// the training keys (the runs a new seed or r starts train with it; task
// and layers after seed and r: a text link resets with its seed); the
// weights after those (the choice applies to the new runs); the tour last
// (entering a step sets the heads and controls it asks with). `field` is
// the key's name in getState() and headroom:set where it differs.
struct ApplyStep {
  const char* key;    // the hash key
  const char* field;  // getState() / headroom:set
};
inline constexpr std::array<ApplyStep, 16> kApplyOrder = {{{"lang", "lang"},
                                                          {"sentence", "sentence"},
                                                          {"query", "query"},
                                                          {"heads", "heads"},
                                                          {"focus", "focus"},
                                                          {"knockout", "knockout"},
                                                          {"tieqk", "tieQK"},
                                                          {"view", "view"},
                                                          {"theme", "theme"},
                                                          {"tab", "tab"},
                                                          {"seed", "seed"},
                                                          {"r", "r"},
                                                          {"task", "task"},
                                                          {"layers", "layers"},
                                                          {"weights", "weights"},
                                                          {"tour", "tour"}}};

// What applying a link's scene fields said: one message per refusal, and
// whether the sentence was refused (its query is then skipped).
struct SceneApplyLog {
  std::vector<Status> messages;
  bool sentence_refused = false;
};

// Applies the field `key` of `s` when it is one of the Scene's (sentence,
// query, heads, focus, knockout, tieqk) and given, through the Scene's
// validating setter; a refused field keeps the Scene's previous value, a
// query given with a refused sentence is skipped. Returns false for a key
// that is not the Scene's (lang, view, theme, tab and training's seed, r
// and weights, and the tour: Demo::apply_hash applies them).
bool apply_scene_field(Scene& scene, const UrlState& s, std::string_view key, SceneApplyLog& log);

// The Scene's fields of `s`, in kApplyOrder; returns the messages for
// everything refused.
std::vector<Status> apply_url_state(Scene& scene, const UrlState& s);

// The Scene's state as a UrlState, for to_url_hash; `sentence` is the text
// to write (Demo passes Scene::text(), the sentence as typed). The sentence
// is left out when it is the shown language's lesson sentence, focus when it
// is 0.5, view, theme and lang (app/lang/lang.h language()) when they are the
// defaults, knockout when no head is knocked out, tieqk when the tie
// is off (so a plain link stays short).
UrlState url_state_of(const Scene& scene, std::string_view sentence, std::string_view view,
                      std::string_view theme);

// The messages in the language shown (tr_status), joined with "; ", keeping
// at most kMaxHashMessages ("and N more").
std::string join_messages(const std::vector<Status>& messages);

}  // namespace headroom::app
