#include "core/tokenizers/wordpiece_tokenizer.h"

#include <algorithm>

#include "core/common/error.h"
#include "core/tokenizers/token_label.h"
#include "core/tokenizers/unicode.h"

namespace attnviz::tokenizers {

WordPieceTokenizer::WordPieceTokenizer(std::vector<std::string> vocabulary, WordPieceSettings settings, const std::string& origin)
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
  for (const std::string& special : settings_.specials) {
    if (const int id = find(special); id >= 0) specials_.emplace_back(decode_utf8(special, origin, "special tokens"), id);
  }
  std::stable_sort(specials_.begin(), specials_.end(), [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
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
    if (is_space(c)) cleaned += U' ';
    else if (settings_.split_cjk && is_cjk_ideograph(c)) cleaned += std::u32string{U' ', c, U' '};
    else cleaned += c;
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

void WordPieceTokenizer::word_pieces(const std::u32string& word, std::vector<int>& ids) const {
  if (static_cast<int>(word.size()) > settings_.max_chars_per_word) {
    ids.push_back(unk_);
    return;
  }
  std::vector<int> pieces;
  std::size_t start = 0;
  while (start < word.size()) {
    int found = -1;
    std::size_t end = word.size();
    for (; end > start; --end) {
      std::string candidate = encode_utf8(std::u32string_view(word).substr(start, end - start));
      if (start > 0) candidate = settings_.continuing_prefix + candidate;
      found = find(candidate);
      if (found >= 0) break;
    }
    if (found < 0) {
      ids.push_back(unk_);  // a word with any piece missing is one [UNK], as BERT does
      return;
    }
    pieces.push_back(found);
    start = end;
  }
  ids.insert(ids.end(), pieces.begin(), pieces.end());
}

Encoding WordPieceTokenizer::encode(std::string_view text, const std::string& where) const {
  const std::u32string chars = decode_utf8(text, "<text>", where);
  std::vector<int> ids{cls_};
  std::size_t segment_start = 0;
  auto flush = [&](std::size_t end) {
    for (const std::u32string& word : basic_words(std::u32string_view(chars).substr(segment_start, end - segment_start))) {
      word_pieces(word, ids);
      if (ids.size() > static_cast<std::size_t>(kMaxModelTokens)) break;
    }
  };
  for (std::size_t i = 0; i < chars.size();) {
    const auto special = std::find_if(specials_.begin(), specials_.end(),
                                      [&](const auto& s) { return std::u32string_view(chars).substr(i).starts_with(s.first); });
    if (special == specials_.end()) {
      ++i;
      continue;
    }
    flush(i);
    ids.push_back(special->second);
    i += special->first.size();
    segment_start = i;
  }
  flush(chars.size());
  ids.push_back(sep_);
  if (ids.size() > static_cast<std::size_t>(kMaxModelTokens)) {
    throw InputError("<text>", where, "makes " + std::to_string(ids.size()) + " tokens; at most " + std::to_string(kMaxModelTokens) + " are computed");
  }
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
