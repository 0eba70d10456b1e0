#include "core/tokenizers/wordpiece_tokenizer.h"

#include <algorithm>

#include "core/common/error.h"
#include "core/tokenizers/token_label.h"
#include "core/tokenizers/unicode.h"

namespace attnviz::tokenizers {

WordPieceTokenizer::WordPieceTokenizer(std::vector<std::string> vocabulary, WordPieceSettings settings,
                                       const std::string& origin)
    : tokens_(std::move(vocabulary)), settings_(std::move(settings)) {
  ids_.reserve(tokens_.size());
  for (std::size_t id = 0; id < tokens_.size(); ++id) ids_.emplace(tokens_[id], static_cast<int>(id));
  auto require = [&](const std::string& token) {
    const int id = find(token);
    if (id < 0) throw InputError(origin, token, "the WordPiece vocabulary has no " + token + " token");
    return id;
  };
  unk_ = require(settings_.unk);
  cls_ = require(settings_.cls);
  sep_ = require(settings_.sep);
  std::vector<std::pair<std::string, int>> specials;
  for (const std::string& special : settings_.specials) {
    if (const int id = find(special); id >= 0) {
      (void)decode_utf8(special, origin, "special tokens");  // UTF-8, as the text it is found in
      specials.emplace_back(special, id);
    }
  }
  specials_ = TokenTrie(std::move(specials));
  // Pieces that are not UTF-8 never match a word (and must not match inside a character).
  std::vector<std::pair<std::string, int>> starts;
  std::vector<std::pair<std::string, int>> continuations;
  for (std::size_t id = 0; id < tokens_.size(); ++id) {
    const std::string& token = tokens_[id];
    if (!is_valid_utf8(token)) continue;
    starts.emplace_back(token, static_cast<int>(id));
    if (token.size() > settings_.continuing_prefix.size() && token.starts_with(settings_.continuing_prefix)) {
      continuations.emplace_back(token.substr(settings_.continuing_prefix.size()), static_cast<int>(id));
    }
  }
  word_starts_ = TokenTrie(std::move(starts));
  continuations_ = TokenTrie(std::move(continuations));
}

int WordPieceTokenizer::find(std::string_view token) const {
  const auto it = ids_.find(std::string(token));
  return it == ids_.end() ? -1 : it->second;
}

std::string WordPieceTokenizer::description() const {
  return settings_.lower_case ? "WordPiece (uncased)" : "WordPiece (cased)";
}

std::string WordPieceTokenizer::label(int id) const {
  if (id < 0 || id >= vocab_size()) return "<id " + std::to_string(id) + ">";
  const std::string& token = tokens_[static_cast<std::size_t>(id)];
  return is_valid_utf8(token) ? token : readable_bytes(token);
}

// The basic tokenizer on a stretch of text without special tokens.
std::vector<std::u32string> WordPieceTokenizer::basic_words(std::u32string_view text) const {
  std::u32string cleaned;
  for (const char32_t c : text) {
    if (c == 0 || c == 0xFFFD || is_control(c)) continue;
    if (is_space(c))
      cleaned += U' ';
    else if (settings_.split_cjk && is_cjk_ideograph(c))
      cleaned += std::u32string{U' ', c, U' '};
    else
      cleaned += c;
  }
  std::vector<std::u32string> words;
  std::u32string word;
  auto finish_word = [&] {
    if (!word.empty()) words.push_back(std::move(word));
    word.clear();
  };
  auto add_piece = [&](std::u32string piece) {
    if (settings_.lower_case) {
      for (char32_t& c : piece) c = to_lower(c);
    }
    if (settings_.strip_accents) {
      std::u32string stripped;
      for (const char32_t c : decode_utf8(nfd(encode_utf8(piece)), "<text>", "--text")) {
        if (!is_mark_nonspacing(c)) stripped += c;
      }
      piece = std::move(stripped);
    }
    // Punctuation splits after casing and accents, as BERT's basic tokenizer does.
    for (const char32_t c : piece) {
      if (is_punctuation(c)) {
        finish_word();
        words.push_back(std::u32string(1, c));
      } else {
        word += c;
      }
    }
    finish_word();
  };
  std::u32string piece;
  for (const char32_t c : cleaned) {
    if (c == U' ') {
      if (!piece.empty()) add_piece(std::move(piece));
      piece.clear();
    } else {
      piece += c;
    }
  }
  if (!piece.empty()) add_piece(std::move(piece));
  return words;
}

// Greedy longest match first, as BERT: the longest vocabulary piece at the start of the rest of
// the word, found by walking a trie (trying every end of the word, as before, was quadratic in
// its length: 4,100 words of 10,000 characters took over a minute).
void WordPieceTokenizer::word_pieces(const std::u32string& word, std::vector<int>& ids) const {
  if (static_cast<int>(word.size()) > settings_.max_chars_per_word) {
    ids.push_back(unk_);
    return;
  }
  const std::string text = encode_utf8(word);
  std::vector<int> pieces;
  for (std::size_t start = 0; start < text.size();) {
    const TokenTrie& trie = start == 0 ? word_starts_ : continuations_;
    const std::optional<TokenTrie::Match> match = trie.longest_prefix(std::string_view(text).substr(start));
    if (!match) {
      ids.push_back(unk_);  // a word with any piece missing is one [UNK], as BERT does
      return;
    }
    pieces.push_back(match->id);
    start += match->length;
  }
  ids.insert(ids.end(), pieces.begin(), pieces.end());
}

namespace {

std::size_t utf8_length(unsigned char lead) { return lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4; }

struct PieceEnd {
  std::size_t end;
  bool inside_word;  // cut between two letters of one word
};

// The code point whose UTF-8 starts at `at` (the text is valid UTF-8), and its length.
std::pair<char32_t, std::size_t> code_point_at(std::string_view text, std::size_t at) {
  const auto lead = static_cast<unsigned char>(text[at]);
  const std::size_t length = utf8_length(lead);
  const unsigned lead_bits = length == 1 ? 0x7Fu : 0x7Fu >> length;
  auto c = static_cast<char32_t>(lead & lead_bits);
  for (std::size_t i = 1; i < length; ++i) {
    c = static_cast<char32_t>((c << 6) | (static_cast<unsigned char>(text[at + i]) & 0x3Fu));
  }
  return {c, length};
}

std::size_t code_point_start_before(std::string_view text, std::size_t end) {
  std::size_t begin = end - 1;
  while (begin > 0 && (static_cast<unsigned char>(text[begin]) & 0xC0) == 0x80) --begin;
  return begin;
}

// Where the basic tokenizer's result is the same whether the text is cut or not: after white space
// (which ends a word), punctuation (a token of its own and a starter, so no accent or
// normalisation reaches across it) or, where they are split, a CJK ideograph (a word of its own).
bool clean_cut_after(char32_t c, bool split_cjk) {
  if (c < 0x80) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte == ' ' || byte == '\t' || byte == '\n' || byte == '\r') return true;
    const bool alphanumeric =
        (byte >= '0' && byte <= '9') || (byte >= 'A' && byte <= 'Z') || (byte >= 'a' && byte <= 'z');
    return byte > ' ' && byte < 0x7F && !alphanumeric;  // BERT counts every ASCII symbol as punctuation
  }
  return is_space(c) || is_punctuation(c) || (split_cjk && is_cjk_ideograph(c));
}

// Two letters or digits of one word: cased, normalised (a letter's decomposition starts with a
// starter) and split the same whether the word is cut between them or not.
bool word_letter(char32_t c, bool split_cjk) {
  if (c < 0x80) return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
  return (is_letter(c) || is_number(c)) && !(split_cjk && is_cjk_ideograph(c));
}

// Where a piece of the text from `start` ends: at least `bytes` on, at a clean cut or between two
// letters of one word (the word then goes on in the next piece). A run with neither for 16 times
// `bytes` (a megabyte of combining marks, say) is cut anyway, as inside a word, so that no text is
// ever held whole; only such a run's accents could then be ordered differently.
PieceEnd piece_end(std::string_view text, std::size_t start, std::size_t bytes, bool split_cjk) {
  std::size_t end = std::min(text.size(), start + bytes);
  while (end < text.size() && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) ++end;
  const std::size_t forced = start + 16 * bytes;
  while (end < text.size()) {
    const char32_t before = code_point_at(text, code_point_start_before(text, end)).first;
    if (clean_cut_after(before, split_cjk)) return {end, false};
    const auto [after, length] = code_point_at(text, end);
    if ((word_letter(before, split_cjk) && word_letter(after, split_cjk)) || end >= forced) return {end, true};
    end += length;
  }
  return {text.size(), false};
}

}  // namespace

bool WordPieceTokenizer::encode_stretch(std::string_view text, std::size_t stop_at, std::vector<int>& ids) const {
  // About 64 KB at a time, so a long text is never held as code points whole. A word that goes
  // on past a piece's end is carried into the next piece: its characters, or only the fact that
  // it is past max_chars_per_word already (then it is one [UNK] whatever follows).
  constexpr std::size_t kPieceBytes = std::size_t{64} << 10;
  std::u32string carried;
  bool carrying = false;
  bool carried_too_long = false;
  for (std::size_t start = 0; start < text.size();) {
    const PieceEnd piece = piece_end(text, start, kPieceBytes, settings_.split_cjk);
    std::vector<std::u32string> words =
        basic_words(decode_utf8(text.substr(start, piece.end - start), "<text>", "--text"));
    bool front_too_long = false;
    if (carrying && !words.empty()) {  // the piece starts with the carried word's next letter
      words.front().insert(0, carried);
      front_too_long = carried_too_long;
    }
    carrying = false;
    carried.clear();
    carried_too_long = false;
    if (piece.inside_word && !words.empty()) {
      carried = std::move(words.back());
      words.pop_back();
      carrying = true;
      carried_too_long = words.empty() && front_too_long;
      if (words.empty()) front_too_long = false;
      if (carried_too_long || static_cast<int>(carried.size()) > settings_.max_chars_per_word) {
        carried.clear();
        carried_too_long = true;
      }
    }
    for (std::size_t w = 0; w < words.size(); ++w) {
      if (ids.size() >= stop_at) return true;
      if (w == 0 && front_too_long)
        ids.push_back(unk_);
      else
        word_pieces(words[w], ids);
    }
    start = piece.end;
  }
  return ids.size() >= stop_at;
}

Encoding WordPieceTokenizer::encode(std::string_view text, const std::string& where, int max_tokens) const {
  max_tokens = std::clamp(max_tokens, 0, kMaxModelTokens);
  if (!is_valid_utf8(text)) (void)decode_utf8(text, "<text>", where);  // throws, naming the byte
  // One id past the limit (with [SEP] to come) is enough to refuse the text.
  const std::size_t stop_at = static_cast<std::size_t>(max_tokens);
  std::vector<int> ids{cls_};
  bool stopped = false;
  std::size_t segment_start = 0;
  auto flush = [&](std::size_t end) {
    if (!stopped && end > segment_start)
      stopped = encode_stretch(text.substr(segment_start, end - segment_start), stop_at, ids);
  };
  for (std::size_t i = 0; i < text.size() && !stopped && ids.size() < stop_at;) {
    const std::optional<TokenTrie::Match> special = specials_.longest_prefix(text.substr(i));
    if (!special) {
      i += utf8_length(static_cast<unsigned char>(text[i]));
      continue;
    }
    flush(i);
    ids.push_back(special->id);
    i += special->length;
    segment_start = i;
  }
  if (!stopped && ids.size() < stop_at) flush(text.size());
  stopped = stopped || ids.size() >= stop_at;
  ids.push_back(sep_);
  if (stopped || ids.size() > static_cast<std::size_t>(max_tokens))
    throw_too_many_tokens(where, ids.size(), max_tokens, stopped);
  Encoding encoding;
  encoding.ids = std::move(ids);
  int segment = 0;
  for (std::size_t i = 0; i < encoding.ids.size(); ++i) {
    encoding.type_ids.push_back(segment);
    if (encoding.ids[i] == sep_) segment = 1;
    encoding.tokens.push_back(label(encoding.ids[i]));
  }
  return encoding;
}

}  // namespace attnviz::tokenizers
