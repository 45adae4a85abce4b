// first_picture.h: the page's default state as HTML and SVG, made from the
// engine's own numbers, for the browser to show before the wasm is ready.
//
// Does: read a fresh app::Demo in one language (the lesson sentence, "said"
// selected, one head: what the canvas opens on) into a Picture: its tokens,
// the query, the one head's two targets and weights, the value plane's
// points and the head's output (Scene::value_maps(): the midpoint), and the
// words the canvas shows around them in that language (tr, trf, the readout
// sentence, describe_state); write a Picture as markup (picture_html), every
// number the engine gave in data-* attributes beside where it is drawn, so a
// test can read the picture back; write the UI's palette (palette_colors.h)
// as CSS custom properties for both themes (palette_css).
// Does not: lay the picture out (web/headroom.css does, with the same rules
// for the full and compact layouts as the canvas: a container query on the
// stage's size), decide when it is shown (web/headroom-first.js, and the
// loader removes it), or compute attention (the engine does).
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace headroom::tools {

// A point of the value plane (the plane of the query's two targets' values,
// engine/lesson/value_map.h): exact lengths and angles inside it.
struct PlanePoint {
  float x = 0, y = 0;
};

struct Picture {
  std::string lang;                 // "en", ...: the catalogue's code
  std::vector<std::string> tokens;  // the lesson sentence as the engine tokenised it
  int query = 0;                    // "said" in English
  int heads = 1, d_model = 0, d_head = 0;
  float focus = 0.5f;               // the single head's focus (0 all on one, 0.5 split, 1 spread)
  std::vector<int> targets;         // the one head's targets for the query (subject, complement)
  std::vector<int> relations;       // their relationships (engine/lesson/relation.h, as int: the colour's index)
  std::vector<float> weights;       // the one head's weights from the query, one per token
  std::vector<PlanePoint> points;   // each token's value in the plane
  PlanePoint output;                // the head's output for the query: the midpoint
  float output_in_plane = 0;        // how much of the output the plane holds (0..1)
  struct Words {
    std::string tagline, tour, tour_short, heads, shapes, keys;
    std::string weights, built, trained, weights_what;  // the weights switch, built chosen
    std::string readout, readout_short;  // with and without the gloss of "similarity"
    std::string weights_line;            // under the readout: which weights made it
    std::string focus_title, focus_value;
    std::vector<std::string> focus_presets;  // all on one, split, spread
    std::string values_title, zoom, head_caption, output_label, foot, plane_note;
    std::string sentence_title, sentence_hint, targets_of;
    std::vector<std::string> relations;  // the targets' relationships: "subject", ...
    std::string description;        // the state in words (the canvas's accessible text)
    std::vector<std::string> tabs;  // the compact layout's view buttons
  } words;
};

// The default state in language `lang` (a code of app::language_code_list()).
Picture make_picture(std::string_view lang);

// The picture's markup: one element, class "first-picture", lang `p.lang`.
std::string picture_html(const Picture& p);

// The CSS that sizes the picture's plot to its window's shape (the markup
// may carry no style attribute: a strict CSP forbids them).
std::string picture_css(const Picture& p);

// The neutral stand-in for a state the pictures do not show (a link that
// asks for two heads, another sentence, a view): the page's chrome only.
std::string placeholder_html();

// palette_colors.h as CSS custom properties: --hr-<row> (and
// --hr-<button>-bg / -text, --hr-head<N>, --hr-head<N>-text) for the light
// theme on :root and for the dark one on :root[data-theme="dark"]; and the
// relationship chips' colours (.fp-relation<N>: relationship N - 1 has head
// N's colour, as palette.h deals them).
std::string palette_css();

// `text` with & < > " escaped for HTML text and attribute values.
std::string html_escape(std::string_view text);

}  // namespace headroom::tools
