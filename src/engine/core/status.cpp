// status.cpp: the English sentence of a refusal (status.h).
//
// Does: fill a template's {n} with the arguments as English writes them.
// Does not: translate (app::tr_status does, from the code).
#include "engine/core/status.h"

namespace headroom {

StatusArg StatusArg::number(std::string english) {
  StatusArg a(std::move(english));
  a.kind = Kind::Number;
  return a;
}

StatusArg StatusArg::list(std::vector<std::string> items, const char* joiner) {
  StatusArg a(joiner);
  a.kind = Kind::List;
  a.items = std::move(items);
  return a;
}

StatusArg StatusArg::phrase(const char* key) {
  StatusArg a(key);
  a.kind = Kind::Phrase;
  return a;
}

StatusArg StatusArg::refusal(const Status& s) {
  StatusArg a(s.error);
  a.kind = Kind::Refusal;
  a.nested = std::make_shared<const Status>(s);
  return a;
}

std::string StatusArg::english() const {
  if (kind != Kind::List) return text;  // a nested refusal's text is its English sentence
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += i + 1 == items.size() ? text : ", ";
    out += items[i];
  }
  return out;
}

std::string Status::fill(const std::string& tmpl, const std::vector<std::string>& parts) {
  std::string out;
  out.reserve(tmpl.size());
  for (size_t i = 0; i < tmpl.size(); ++i) {
    if (tmpl[i] == '{' && i + 2 < tmpl.size() && tmpl[i + 2] == '}' && tmpl[i + 1] >= '0' && tmpl[i + 1] <= '9') {
      const size_t n = static_cast<size_t>(tmpl[i + 1] - '0');
      if (n < parts.size()) {
        out += parts[n];
        i += 2;
        continue;
      }
    }
    out += tmpl[i];
  }
  return out;
}

std::string Status::fill_english(const char* tmpl, const std::vector<StatusArg>& args) {
  std::vector<std::string> parts;
  parts.reserve(args.size());
  for (const StatusArg& a : args) parts.push_back(a.english());
  return fill(tmpl, parts);
}

}  // namespace headroom
