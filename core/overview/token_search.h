#pragma once
// Finding a place in a long text: 65,536 tokens do not fit a list of chips, so the overview
// goes to a token by its number ("34617", "34,617", "#34617") or by what it says (a word or a
// phrase, split as the text was and compared ignoring case; a single word that no token equals
// is looked for inside tokens). Core states what it found; the window words it.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/text/tokenizer_mode.h"

namespace attnviz::overview {

// The longest phrase looked for, in tokens.
inline constexpr int kMaxSearchTokens = 64;

struct TokenMatches {
  enum class Kind {
    Empty,       // nothing typed (white space only)
    Position,    // a token's number inside the text: starts = {it}
    OutOfRange,  // a token's number past the text's end: `position`
    Exact,       // tokens equal to the phrase's, ignoring case: starts
    Containing,  // no token equals the single word typed; these contain it: starts
    NotFound,    // neither
    NoTokens,    // the text typed has no tokens in this tokenizer (only punctuation, say)
    TooLong,     // a phrase of more than kMaxSearchTokens tokens
    NotUtf8,     // the bytes typed are not UTF-8
  };
  Kind kind = Kind::Empty;
  std::vector<int> starts;  // the first token of each match, ascending
  int length = 1;           // tokens per match
  long long position = -1;  // Position, OutOfRange: the number typed
  std::string phrase;       // Exact, Containing, NotFound: what was looked for, as typed (trimmed)

  [[nodiscard]] bool found() const { return !starts.empty(); }
};

// Searches `tokens`, the text's tokens as the window lists them, for `query`. A number
// (digits, with "," or "_" between groups, optionally after "#") names a token; anything in
// double quotes, or anything else, is text to find, cut into tokens by `mode`.
TokenMatches find_tokens(const std::vector<std::string>& tokens, std::string_view query, TokenizerMode mode);

// The match to go to from the pinned query `from`: the first match starting after it (before
// it when `backwards`), wrapping around the text; with nothing pinned the first (the last).
// -1 when there is no match.
int next_match(const std::vector<int>& starts, std::optional<int> from, bool backwards);

// 1 + the index of the match starting at `token`, or 0 when none starts there.
int match_ordinal(const std::vector<int>& starts, int token);

}  // namespace attnviz::overview
