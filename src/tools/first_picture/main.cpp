// main.cpp: the first_picture program: the site's pages with their first
// picture in every language, written at build time.
//
//   first_picture --web web --out build/web
//
// Does: read web/index.html, web/embed.html and web/headroom.css; in each
// page put, where it says <!-- first-picture -->, the default state's
// picture in every built-in language (first_picture.h) and the neutral
// placeholder; mark <html> with the languages (data-langs, read by
// web/headroom-first.js); give each element marked data-tr its English key
// in the attribute and its words in every language (a <title> as data-<code>
// attributes, anything else as one span per language), and the sentence
// field each language's lesson sentence (data-<code>), so the page is in
// its language from the first paint and nothing moves when the wasm's words
// replace them; in the CSS put, where it says /* first-picture: palette */,
// the UI's palette as custom properties, the rules that show the picture
// and the words of the page's language, and each picture's plot shape. Writes the three files into
// --out. Exits 1, saying why, when a file or a marker is missing.
// Does not: copy the other files of web/ (cmake/web.cmake does), or decide at
// run time which picture shows (CSS and headroom-first.js do).
//
// Build: in the site's configuration (cmake/web.cmake) as a wasm program for
// node with the real file system (-sNODERAWFS), run by the build:
//   node --no-experimental-fetch first_picture.js --web web --out build/web
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "app/lang/lang.h"
#include "tools/first_picture/first_picture.h"

namespace {

using headroom::tools::html_escape;

bool read_file(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}

bool write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  return static_cast<bool>(out);
}

// Replaces the one `marker` in `text` by `with`; false when it is not there.
bool replace_marker(std::string& text, const std::string& marker, const std::string& with) {
  const size_t at = text.find(marker);
  if (at == std::string::npos) return false;
  text.replace(at, marker.size(), with);
  return true;
}

// `english` in every language, as `make(code, words)` pieces joined.
template <class Make>
std::string in_every_language(const char* english, Make make) {
  std::string s;
  for (const std::string& code : headroom::app::language_code_list()) {
    (void)headroom::app::set_language(code);
    s += make(code, std::string(headroom::app::tr(english)));
  }
  (void)headroom::app::set_language("en");
  return s;
}

// Every `data-tr>Words<` of a page: the key into the attribute, and the
// words of every language (see the file's header).
void translate_marked(std::string& page) {
  const std::string mark = " data-tr>";
  for (size_t at = page.find(mark); at != std::string::npos; at = page.find(mark, at)) {
    const size_t open = page.rfind('<', at);
    const std::string name = page.substr(open + 1, page.find_first_of(" >", open) - open - 1);
    const size_t start = at + mark.size(), end = page.find('<', start);
    const std::string english = page.substr(start, end - start);
    std::string with = " data-tr=\"" + html_escape(english) + "\"";
    if (name == "title") {
      with += in_every_language(english.c_str(), [](const std::string& code, const std::string& words) {
        return " data-" + code + "=\"" + html_escape(words) + "\"";
      });
      with += ">" + english;
    } else {
      with += ">" + in_every_language(english.c_str(), [](const std::string& code, const std::string& words) {
        return "<span class=\"first-word\" lang=\"" + code + "\">" + html_escape(words) + "</span>";
      });
    }
    page.replace(at, end - at, with);
    at += with.size();
  }
}

// The sentence field (index.html's <input id="sentence">) gets each
// language's lesson sentence as data-<code>: headroom-first.js puts the
// page's language's in the field, so it reads what the picture shows.
void lesson_sentences(std::string& page) {
  const std::string mark = "<input id=\"sentence\"";
  const size_t at = page.find(mark);
  if (at == std::string::npos) return;  // embed.html has no field
  std::string attrs;
  for (const std::string& code : headroom::app::language_code_list()) {
    (void)headroom::app::set_language(code);
    attrs += " data-" + code + "=\"" + html_escape(headroom::app::language().lesson.sentence) + "\"";
  }
  (void)headroom::app::set_language("en");
  page.insert(at + mark.size(), attrs);
}

// The CSS that shows the picture and the words of the page's language
// (headroom-first.js sets <html lang> and data-first before the body); a
// picture shows once parsed to its end mark (picture_html).
std::string language_rules() {
  std::string pictures, words;
  for (const std::string& code : headroom::app::language_code_list()) {
    const std::string q = "\"" + code + "\"";
    pictures += std::string(pictures.empty() ? "" : ",\n") + ":root[data-first=\"picture\"][lang=" + q +
                "] .first-picture[lang=" + q + "]:has(> .fp-end)";
    words += std::string(words.empty() ? "" : ",\n") + ":root[lang=" + q + "] .first-word[lang=" + q + "]";
  }
  return pictures + " { display: flex; }\n" + words + " { display: inline; }\n";
}

std::string language_list() {
  std::string s;
  for (const std::string& code : headroom::app::language_code_list()) s += (s.empty() ? "" : " ") + code;
  return s;
}

int fail(const std::string& why) {
  std::fprintf(stderr, "first_picture: %s\n", why.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::string web, out;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i];
    if (key == "--web") web = argv[i + 1];
    else if (key == "--out") out = argv[i + 1];
  }
  if (web.empty() || out.empty()) return fail("usage: first_picture --web <web folder> --out <site folder>");

  std::string pictures, plot_css;
  for (const std::string& code : headroom::app::language_code_list()) {
    const headroom::tools::Picture p = headroom::tools::make_picture(code);
    pictures += headroom::tools::picture_html(p) + "\n";
    plot_css += headroom::tools::picture_css(p);
  }
  (void)headroom::app::set_language("en");
  pictures += headroom::tools::placeholder_html();

  for (const char* name : {"index.html", "embed.html"}) {
    std::string page;
    if (!read_file(web + "/" + name, page)) return fail("cannot read " + web + "/" + name);
    if (!replace_marker(page, "<!-- first-picture -->", pictures))
      return fail(std::string(name) + " has no <!-- first-picture --> marker");
    if (!replace_marker(page, "<html lang=\"en\">", "<html lang=\"en\" data-langs=\"" + language_list() + "\">"))
      return fail(std::string(name) + " has no <html lang=\"en\">");
    translate_marked(page);
    lesson_sentences(page);
    if (!write_file(out + "/" + name, page)) return fail("cannot write " + out + "/" + name);
  }
  std::string css;
  if (!read_file(web + "/headroom.css", css)) return fail("cannot read " + web + "/headroom.css");
  if (!replace_marker(css, "/* first-picture: palette */", headroom::tools::palette_css() + language_rules() + plot_css))
    return fail("headroom.css has no /* first-picture: palette */ marker");
  if (!write_file(out + "/headroom.css", css)) return fail("cannot write " + out + "/headroom.css");
  return 0;
}
