#include "core/tokenizers/bpe_tokenizer.h"

#include <algorithm>
#include <charconv>
#include <queue>

#include "core/common/error.h"
#include "core/tokenizers/token_label.h"
#include "core/tokenizers/unicode.h"

namespace attnviz::tokenizers {
namespace {

constexpr char32_t kMetaspace = 0x2581;  // ▁

// The bytes of the UTF-8 character whose first byte this is (the text is valid UTF-8).
std::size_t utf8_length(unsigned char lead) { return lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4; }

std::uint64_t pair_key(int left, int right) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(left)) << 32) | static_cast<std::uint32_t>(right);
}

// The byte a SentencePiece byte-fallback token such as <0xEC> stands for.
std::optional<unsigned char> byte_token_value(std::string_view token) {
  if (token.size() != 6 || !token.starts_with("<0x") || token.back() != '>') return std::nullopt;
  unsigned value = 0;
  const auto [end, error] = std::from_chars(token.data() + 3, token.data() + 5, value, 16);
  if (error != std::errc() || end != token.data() + 5) return std::nullopt;
  return static_cast<unsigned char>(value);
}

// One symbol of a word being merged: a token id (-1 when the vocabulary lacks it) and its bytes
// [begin, end) in the word's UTF-8 text, linked to its neighbours.
struct Symbol {
  int id = -1;
  std::size_t begin = 0;
  std::size_t end = 0;
  int prev = -1;
  int next = -1;
  bool alive = true;
};

struct Candidate {
  double rank;
  std::size_t position;  // the left symbol's first byte: leftmost first among equal ranks
  int left;
  int right;
  int left_id;
  int right_id;
  int merged_id;
  bool operator<(const Candidate& other) const {  // for a max-heap: "less" means later
    if (rank != other.rank) return rank > other.rank;
    return position > other.position;
  }
};

}  // namespace

const std::vector<char32_t>& byte_to_unicode() {
  static const std::vector<char32_t> table = [] {
    std::vector<char32_t> map(256);
    auto printable = [](int b) {
      return (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
    };
    int next = 0;
    for (int b = 0; b < 256; ++b)
      map[static_cast<std::size_t>(b)] = printable(b) ? static_cast<char32_t>(b) : static_cast<char32_t>(256 + next++);
    return map;
  }();
  return table;
}

std::optional<unsigned char> unicode_to_byte(char32_t c) {
  static const std::unordered_map<char32_t, unsigned char> inverse = [] {
    std::unordered_map<char32_t, unsigned char> map;
    for (int b = 0; b < 256; ++b) map[byte_to_unicode()[static_cast<std::size_t>(b)]] = static_cast<unsigned char>(b);
    return map;
  }();
  const auto it = inverse.find(c);
  if (it == inverse.end()) return std::nullopt;
  return it->second;
}

BpeTokenizer::BpeTokenizer(BpeVocabulary vocabulary, BpeSettings settings, const std::string& origin)
    : tokens_(std::move(vocabulary.tokens)), scores_(std::move(vocabulary.scores)), settings_(std::move(settings)) {
  ids_.reserve(tokens_.size());
  for (std::size_t id = 0; id < tokens_.size(); ++id) ids_.emplace(tokens_[id], static_cast<int>(id));  // first wins
  merges_.reserve(vocabulary.merges.size());
  for (std::size_t rank = 0; rank < vocabulary.merges.size(); ++rank) {
    const auto& [left, right] = vocabulary.merges[rank];
    const int left_id = find(left);
    const int right_id = find(right);
    const int merged_id = find(left + right);
    if (left_id < 0 || right_id < 0 || merged_id < 0) {
      throw InputError(origin, "merges/" + std::to_string(rank),
                       "the merge \"" + left.substr(0, 40) + " " + right.substr(0, 40) +
                           "\" uses or makes a token the vocabulary lacks");
    }
    merges_.emplace(pair_key(left_id, right_id),
                    Merge{static_cast<double>(rank), merged_id});  // first (lowest rank) wins
  }
  if (merges_.empty() && !scores_.empty() && scores_.size() != tokens_.size()) {
    throw InputError(origin, "scores",
                     "a vocabulary without merges needs one score per token (" + std::to_string(tokens_.size()) + ")");
  }
  byte_ids_.assign(256, -1);
  for (int b = 0; b < 256; ++b)
    byte_ids_[static_cast<std::size_t>(b)] = find(byte_label(static_cast<unsigned char>(b)));
  auto check_id = [&](int id, const char* what) {
    if (id < 0 || id >= static_cast<int>(tokens_.size())) {
      throw InputError(origin, what,
                       "token id " + std::to_string(id) + " is outside the vocabulary (" +
                           std::to_string(tokens_.size()) + " tokens)");
    }
  };
  for (const int id : settings_.prefix_ids) check_id(id, "special tokens");
  for (const int id : settings_.suffix_ids) check_id(id, "special tokens");
  if (settings_.unk_id) check_id(*settings_.unk_id, "unk_token");
  is_special_.assign(tokens_.size(), false);
  std::vector<std::pair<std::string, int>> specials;
  for (const int id : vocabulary.special_ids) {
    check_id(id, "added_tokens");
    const std::string& token = tokens_[static_cast<std::size_t>(id)];
    if (token.empty()) continue;
    (void)decode_utf8(token, origin, "added_tokens/" + std::to_string(id));  // UTF-8, as the text it is found in
    special_ids_.push_back(id);
    is_special_[static_cast<std::size_t>(id)] = true;
    specials.emplace_back(token, id);
  }
  special_trie_ = TokenTrie(std::move(specials));
  max_token_bytes_ = text_bytes_bound();
}

// A bound on the bytes of the text one token covers, so a text too long for the limit is known
// without tokenizing it: a token's spelling has at least one byte for each byte of text it stands
// for (GPT-2's characters stand for one byte each, ▁ for a space, <0xNN> for one byte), and NFC
// makes a text at most 3 times shorter (decomposed Hangul, 9 bytes to 3; 4 to be safe). None when
// an unknown stretch of any length can become one unknown token.
std::size_t BpeTokenizer::text_bytes_bound() const {
  bool every_byte_has_a_token = true;
  if (settings_.byte_level) {
    for (const char32_t c : byte_to_unicode())
      every_byte_has_a_token = every_byte_has_a_token && find(encode_utf8(c)) >= 0;
  } else {
    every_byte_has_a_token = settings_.byte_fallback && std::ranges::none_of(byte_ids_, [](int id) { return id < 0; });
  }
  if (settings_.unk_id && !every_byte_has_a_token) return 0;
  std::size_t longest = 1;
  for (const std::string& token : tokens_) longest = std::max(longest, token.size());
  return settings_.nfc ? longest * 4 : longest;
}

int BpeTokenizer::find(std::string_view token) const {
  const auto it = ids_.find(std::string(token));
  return it == ids_.end() ? -1 : it->second;
}

std::string BpeTokenizer::description() const {
  if (settings_.byte_level) return "byte-level BPE";
  return settings_.byte_fallback ? "SentencePiece BPE (byte fallback)" : "SentencePiece BPE";
}

std::optional<BpeTokenizer::Merge> BpeTokenizer::merge_of(int left, int right) const {
  if (left < 0 || right < 0) return std::nullopt;
  if (!merges_.empty()) {
    const auto it = merges_.find(pair_key(left, right));
    if (it == merges_.end()) return std::nullopt;
    return it->second;
  }
  if (scores_.empty()) return std::nullopt;  // no merges at all: every byte or character is a token
  const int merged = find(tokens_[static_cast<std::size_t>(left)] + tokens_[static_cast<std::size_t>(right)]);
  if (merged < 0) return std::nullopt;
  return Merge{-static_cast<double>(scores_[static_cast<std::size_t>(merged)]), merged};
}

void BpeTokenizer::emit_unknown(const std::string& piece, std::vector<int>& ids) const {
  if (settings_.byte_fallback) {
    bool complete = true;
    for (const char c : piece) complete = complete && byte_ids_[static_cast<unsigned char>(c)] >= 0;
    if (complete) {
      for (const char c : piece) ids.push_back(byte_ids_[static_cast<unsigned char>(c)]);
      return;
    }
  }
  if (settings_.unk_id) {
    if (ids.empty() || ids.back() != *settings_.unk_id) ids.push_back(*settings_.unk_id);  // unknowns fuse
    return;
  }
  throw InputError(
      "<text>", "--text",
      "the tokenizer has no token for \"" + readable_bytes(piece.substr(0, 40)) + "\" and no unknown token");
}

void BpeTokenizer::encode_word(std::u32string_view word, std::vector<int>& ids) const {
  const std::string text = encode_utf8(word);
  std::vector<Symbol> symbols;
  symbols.reserve(word.size());
  std::size_t offset = 0;
  for (const char32_t c : word) {
    const std::size_t length = encode_utf8(c).size();
    Symbol symbol;
    symbol.id = find(std::string_view(text).substr(offset, length));
    symbol.begin = offset;
    symbol.end = offset + length;
    symbol.prev = static_cast<int>(symbols.size()) - 1;
    symbol.next = static_cast<int>(symbols.size()) + 1;
    symbols.push_back(symbol);
    offset += length;
  }
  if (symbols.empty()) return;
  symbols.back().next = -1;

  std::priority_queue<Candidate> queue;
  auto consider = [&](int left) {
    if (left < 0) return;
    const int right = symbols[static_cast<std::size_t>(left)].next;
    if (right < 0) return;
    const Symbol& a = symbols[static_cast<std::size_t>(left)];
    const Symbol& b = symbols[static_cast<std::size_t>(right)];
    if (const auto merge = merge_of(a.id, b.id)) queue.push({merge->rank, a.begin, left, right, a.id, b.id, merge->id});
  };
  for (int i = 0; i + 1 < static_cast<int>(symbols.size()); ++i) consider(i);
  while (!queue.empty()) {
    const Candidate top = queue.top();
    queue.pop();
    Symbol& a = symbols[static_cast<std::size_t>(top.left)];
    if (!a.alive || a.next != top.right || a.id != top.left_id) continue;
    Symbol& b = symbols[static_cast<std::size_t>(top.right)];
    if (!b.alive || b.id != top.right_id) continue;
    a.id = top.merged_id;
    a.end = b.end;
    a.next = b.next;
    b.alive = false;
    if (a.next >= 0) symbols[static_cast<std::size_t>(a.next)].prev = top.left;
    consider(a.prev);
    consider(top.left);
  }
  for (int i = 0; i >= 0; i = symbols[static_cast<std::size_t>(i)].next) {
    const Symbol& symbol = symbols[static_cast<std::size_t>(i)];
    if (symbol.id >= 0)
      ids.push_back(symbol.id);
    else
      emit_unknown(text.substr(symbol.begin, symbol.end - symbol.begin), ids);
  }
}

bool BpeTokenizer::encode_segment(std::string_view segment, bool first, std::size_t stop_at,
                                  std::vector<int>& ids) const {
  std::u32string text = decode_utf8(segment, "<text>", "--text");
  if (settings_.nfc) text = decode_utf8(nfc(encode_utf8(text)), "<text>", "--text");
  if (settings_.byte_level) {
    if (settings_.add_prefix_space && first && (text.empty() || text.front() != U' ')) text.insert(text.begin(), U' ');
    std::vector<std::u32string_view> words;
    if (settings_.split)
      words = split_words(text, *settings_.split);
    else if (!text.empty())
      words.push_back(text);
    const auto& table = byte_to_unicode();
    for (const std::u32string_view word : words) {
      if (ids.size() >= stop_at) return true;
      std::u32string mapped;
      for (const char c : encode_utf8(word)) mapped.push_back(table[static_cast<unsigned char>(c)]);
      encode_word(mapped, ids);
    }
    return false;
  }
  if (settings_.metaspace) std::replace(text.begin(), text.end(), U' ', kMetaspace);
  if (settings_.prepend_metaspace && first) text.insert(text.begin(), kMetaspace);
  if (!settings_.metaspace_split) {
    encode_word(text, ids);
    return false;
  }
  std::size_t start = 0;
  for (std::size_t i = 1; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == kMetaspace) {
      if (ids.size() >= stop_at) return true;
      encode_word(std::u32string_view(text).substr(start, i - start), ids);
      start = i;
    }
  }
  return false;
}

Encoding BpeTokenizer::encode(std::string_view text, const std::string& where, int max_tokens) const {
  max_tokens = std::clamp(max_tokens, 0, kMaxModelTokens);
  const int framing = static_cast<int>(
      std::min<std::size_t>(settings_.prefix_ids.size() + settings_.suffix_ids.size(), kMaxModelTokens));
  if (max_token_bytes_ > 0 &&
      surely_too_many_tokens(text.size(), max_token_bytes_, std::max(0, max_tokens - framing))) {
    throw_too_many_tokens(where, 0, max_tokens, true,
                          ": it has " + std::to_string(text.size()) +
                              " bytes and no token of this tokenizer covers more than " +
                              std::to_string(max_token_bytes_));
  }
  // Where unknown characters fuse into one <unk>, a stretch of any length can be one token: the
  // text itself is bounded instead, so that its code points and symbols are too (4,096 tokens of
  // ordinary text are tens of KB).
  if (max_token_bytes_ == 0 && text.size() > kMaxTextBytesWhereUnknownsFuse) {
    throw InputError("<text>", where,
                     "has " + std::to_string(text.size()) + " bytes; with this tokenizer (" + description() +
                         ", unknown characters fused into one <unk>) a text has at most " +
                         std::to_string(kMaxTextBytesWhereUnknownsFuse) + " bytes");
  }
  if (!is_valid_utf8(text)) (void)decode_utf8(text, "<text>", where);  // throws, naming the byte
  // One id past the limit is enough to refuse the text: the words after it are not encoded.
  const std::size_t stop_at = static_cast<std::size_t>(max_tokens) + 1 > settings_.suffix_ids.size()
                                  ? static_cast<std::size_t>(max_tokens) + 1 - settings_.suffix_ids.size()
                                  : 0;
  std::vector<int> ids = settings_.prefix_ids;
  bool stopped = false;
  std::size_t segment_start = 0;
  bool first = true;
  auto flush = [&](std::size_t end) {
    if (!stopped && end > segment_start)
      stopped = encode_segment(text.substr(segment_start, end - segment_start), first, stop_at, ids);
    first = false;
  };
  for (std::size_t i = 0; i < text.size() && !stopped && ids.size() < stop_at;) {
    const std::optional<TokenTrie::Match> special = special_trie_.longest_prefix(text.substr(i));
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
  ids.insert(ids.end(), settings_.suffix_ids.begin(), settings_.suffix_ids.end());
  if (stopped || ids.size() > static_cast<std::size_t>(max_tokens))
    throw_too_many_tokens(where, ids.size(), max_tokens, stopped);
  Encoding encoding;
  encoding.ids = std::move(ids);
  encoding.type_ids.assign(encoding.ids.size(), 0);
  encoding.tokens = labels(encoding.ids);
  return encoding;
}

TokenPiece BpeTokenizer::piece(int id) const {
  if (id < 0 || id >= vocab_size()) return {"<id " + std::to_string(id) + ">", false};
  const std::string& token = tokens_[static_cast<std::size_t>(id)];
  if (is_special_[static_cast<std::size_t>(id)]) return {token, false};
  if (!is_valid_utf8(token)) return {token, true};
  if (settings_.byte_level) {
    std::string bytes;
    for (const char32_t c : decode_utf8(token, "<vocabulary>", "token")) {
      const auto byte = unicode_to_byte(c);
      if (!byte) return {token, false};  // not a byte-level spelling: an added token, shown as it is
      bytes += static_cast<char>(*byte);
    }
    return {bytes, true};
  }
  if (const auto byte = byte_token_value(token)) return {std::string(1, static_cast<char>(*byte)), true};
  std::string text;
  for (const char32_t c : decode_utf8(token, "<vocabulary>", "token"))
    text += c == kMetaspace ? std::string(" ") : encode_utf8(c);
  return {text, true};
}

std::string BpeTokenizer::label(int id) const {
  const TokenPiece one = piece(id);
  return readable_labels(std::span(&one, 1)).front();
}

std::vector<std::string> BpeTokenizer::labels(std::span<const int> ids) const {
  std::vector<TokenPiece> pieces;
  pieces.reserve(ids.size());
  for (const int id : ids) pieces.push_back(piece(id));
  return readable_labels(pieces);
}

}  // namespace attnviz::tokenizers
