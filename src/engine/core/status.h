// status.h: the engine's error value: ok, or a refusal with its arguments.
//
// Does: carry "ok" or a refusal: a code from a layer's table (a Refusal:
// code + English template with numbered placeholders {0}, {1}, listed once
// in an X-macro table, engine/core/refusals.h and the app's), the arguments
// that fill it (StatusArg: text kept as given, numbers, lists of words,
// refusals inside a refusal), and the English sentence filled in (`error`,
// for logs, tests and the JS API's English `error` field).
// Does not: throw (the web build runs without C++ exceptions, so every call
// that can refuse input returns a Status and leaves its object unchanged),
// or translate: app::tr_status makes the sentence in a language from the
// code and the arguments; nothing parses `error` back.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace headroom {

// One refusal of a table: `code` names it (stable, for the page and the
// tests), `english` is the template and the catalogues' msgid.
struct Refusal {
  const char* code;
  const char* english;
};

struct Status;

// One argument of a refusal, as the sentence shows it.
struct StatusArg {
  enum class Kind {
    Text,     // kept as given in every language: a value, a key, a code
    Number,   // written in English; a language swaps the decimal mark
    List,     // words joined "a, b or c"; a language translates the last joiner
    Phrase,   // a catalogue key: translated as a whole
    Refusal,  // a refusal inside this one, translated as a whole
  };
  Kind kind = Kind::Text;
  std::string text;                      // Text, Number, Phrase; List: its joiner (" or ")
  std::vector<std::string> items;        // List
  std::shared_ptr<const Status> nested;  // Refusal

  StatusArg(std::string s) : text(std::move(s)) {}
  StatusArg(const char* s) : text(s) {}
  template <class I, std::enable_if_t<std::is_integral_v<I>, int> = 0>
  StatusArg(I v) : kind(Kind::Number), text(std::to_string(v)) {}

  // A real number as English writes it (the caller's formatting, kept).
  static StatusArg number(std::string english);
  static StatusArg list(std::vector<std::string> items, const char* joiner);
  static StatusArg phrase(const char* key);
  static StatusArg refusal(const Status& s);

  // The argument in the English sentence.
  std::string english() const;
};

struct Status {
  const Refusal* refusal = nullptr;  // nullptr when ok
  std::vector<StatusArg> args;
  std::string error;  // the English sentence; empty when ok

  static Status ok() { return {}; }
  // The only way to fail: a table's refusal and its arguments.
  template <class... A>
  static Status fail(const Refusal& r, A&&... a) {
    Status s;
    s.refusal = &r;
    (s.args.emplace_back(std::forward<A>(a)), ...);
    s.error = fill_english(r.english, s.args);
    return s;
  }
  // The same with the arguments in a list (built where their number varies).
  static Status fail_with(const Refusal& r, std::vector<StatusArg> args) {
    Status s;
    s.refusal = &r;
    s.args = std::move(args);
    s.error = fill_english(r.english, s.args);
    return s;
  }
  bool is_ok() const { return refusal == nullptr; }
  explicit operator bool() const { return is_ok(); }
  // The refusal's code, "" when ok.
  const char* code() const { return refusal ? refusal->code : ""; }

  // `tmpl` with each {n} replaced by parts[n] (a {n} without a part stays).
  static std::string fill(const std::string& tmpl, const std::vector<std::string>& parts);
  static std::string fill_english(const char* tmpl, const std::vector<StatusArg>& args);
};

}  // namespace headroom
