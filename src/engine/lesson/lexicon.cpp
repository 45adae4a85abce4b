// lexicon.cpp: closed-class word lists. See lexicon.h.
#include "lexicon.h"

#include <algorithm>
#include <array>

#include "tokenizer.h"

namespace headroom {
namespace {

template <size_t N>
bool contains(const std::array<std::string_view, N>& list, std::string_view w) {
  return std::find(list.begin(), list.end(), w) != list.end();
}

constexpr std::array<std::string_view, 18> kDeterminers = {
    "the", "a", "an", "this", "these", "those", "my", "your", "his", "her",
    "its", "our", "their", "some", "every", "each", "no", "any"};
constexpr std::array<std::string_view, 18> kPronouns = {
    "it", "he", "she", "they", "we", "i", "you", "him", "her", "them", "us", "me",
    "this", "that", "something", "everyone", "someone", "nobody"};
constexpr std::array<std::string_view, 5> kRelatives = {"who", "whom", "which", "whose", "that"};
constexpr std::array<std::string_view, 22> kPrepositions = {
    "of", "in", "on", "at", "by", "for", "with", "about", "from", "to", "into", "over",
    "under", "after", "before", "near", "behind", "across", "through", "during", "without", "than"};
constexpr std::array<std::string_view, 23> kAuxiliaries = {
    "is", "was", "are", "were", "be", "been", "being", "am", "has", "have", "had", "do",
    "does", "did", "will", "would", "can", "could", "should", "may", "might", "must", "shall"};
constexpr std::array<std::string_view, 8> kConjunctions = {
    "and", "or", "but", "because", "while", "although", "so", "if"};
constexpr std::array<std::string_view, 36> kAdjectives = {
    "wrong", "right", "late", "early", "true", "false", "good", "bad", "new", "old", "young",
    "famous", "broken", "tired", "happy", "sad", "angry", "red", "big", "small", "long",
    "short", "correct", "ready", "hungry", "perfect", "cold", "hot", "fast", "slow", "loud",
    "quiet", "very", "black", "white", "little"};
constexpr std::array<std::string_view, 108> kVerbs = {
    "said", "says", "say", "knew", "know", "knows", "thought", "think", "thinks", "wrote",
    "write", "writes", "saw", "see", "sees", "told", "tell", "tells", "found", "find",
    "finds", "made", "make", "makes", "took", "take", "gave", "give", "got", "went", "came",
    "left", "felt", "meant", "kept", "built", "bought", "brought", "caught", "taught", "sold",
    "ran", "won", "lost", "met", "heard", "held", "read", "believes", "believe", "claims",
    "admits", "admit", "insists", "argues", "feared", "fears", "hopes", "swore", "chose",
    "drew", "ate", "bit", "sang", "eat", "eats", "eaten", "sleep", "sleeps", "slept", "run",
    "runs", "sit", "sits", "sat", "stood", "fell", "broke", "began", "drove", "flew", "grew",
    "hid", "hit", "put", "rode", "spoke", "stole", "threw", "woke", "wore", "like", "likes",
    "love", "loves", "want", "wants", "need", "needs", "sleeping", "running", "goes", "go",
    "seems", "seemed", "became", "become", "becomes"};

bool ends_with(std::string_view w, std::string_view suffix) {
  return w.size() >= suffix.size() && w.substr(w.size() - suffix.size()) == suffix;
}

}  // namespace

std::string ascii_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

unsigned lexical_roles(std::string_view token) {
  const std::string w = ascii_lower(token);
  if (w.empty()) return kPunctuation;
  const unsigned char c0 = static_cast<unsigned char>(w[0]);
  size_t at = 0;  // above ASCII the tokenizer's classes decide ("。", "،", "—")
  const bool letter = (c0 >= 'a' && c0 <= 'z') || (c0 >= 0x80 && !is_punctuation(decode_utf8(w, at)));
  if (c0 >= '0' && c0 <= '9') return kNumber;
  if (!letter) return kPunctuation;
  unsigned r = 0;
  if (contains(kDeterminers, w)) r |= kDeterminer;
  if (contains(kPronouns, w)) r |= kPronoun;
  if (contains(kRelatives, w)) r |= kRelative;
  if (contains(kPrepositions, w)) r |= kPreposition;
  if (contains(kAuxiliaries, w)) r |= kAuxiliary | kVerb;
  if (contains(kConjunctions, w)) r |= kConjunction;
  if (contains(kAdjectives, w)) r |= kAdjective;
  if (contains(kVerbs, w)) r |= kVerb;
  // "-ed" past tenses (attacked, reported); short words and "-eed" are nouns
  if (r == 0 && w.size() > 4 && ends_with(w, "ed") && !ends_with(w, "eed")) r |= kVerb;
  // "-ly" words (quickly, loudly) modify like adjectives; "only", "family" are kept apart by length
  if (r == 0 && w.size() > 5 && ends_with(w, "ly")) r |= kAdjective;
  if (r == 0) r = kNoun;
  return r;
}

}  // namespace headroom
