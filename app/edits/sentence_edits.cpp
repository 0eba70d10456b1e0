#include "app/edits/sentence_edits.h"

#include <algorithm>
#include <cstdio>
#include <optional>

#include "app/edits/mask_edits.h"
#include "app/i18n/translate.h"
#include "core/common/text_excerpt.h"
#include "core/common/number_text.h"
#include "core/text/utf8.h"
#include "core/text/sentence_tokens.h"
#include "core/scenario/generate.h"

namespace attnviz::edits {
namespace {

EmbeddingRow generated_rows(const Scenario& s) {
  return [seed = s.seed, d = s.d_model](std::string_view token) { return generate_embedding(token, seed, d); };
}

// Globals may index query rows or (cross-attention) key columns: keep those below either.
int global_limit(const Scenario& s, int query_tokens) {
  int limit = query_tokens;
  if (s.source) limit = std::max(limit, static_cast<int>(source_tokens_of(*s.source).tokens.size()));
  return limit;
}

// Moves explicit embedding rows from the old tokens to the new ones.
void follow_tokens(Scenario& s, const TokensOrError& before, const TokensOrError& after, const EmbeddingRow& new_row) {
  if (!after.error.empty()) return;  // leave the rest until the sentence can be tokenized again
  if (s.embeddings && before.error.empty() && s.embeddings->rows == static_cast<int>(before.tokens.size())) {
    const Matrix& old = *s.embeddings;
    const std::vector<int> rows = align_token_rows(before.tokens, after.tokens);
    Matrix next(static_cast<int>(after.tokens.size()), old.cols);
    for (int r = 0; r < next.rows; ++r) {
      const int from = rows[static_cast<std::size_t>(r)];
      if (from >= 0) {
        std::copy(old.row(from), old.row(from) + old.cols, next.row(r));
        continue;
      }
      const std::vector<float> fresh = new_row(after.tokens[static_cast<std::size_t>(r)]);
      std::copy_n(fresh.begin(), std::min<std::size_t>(fresh.size(), static_cast<std::size_t>(old.cols)), next.row(r));
    }
    s.embeddings = std::move(next);
  }
  s.mask = prune_globals(s.mask, global_limit(s, static_cast<int>(after.tokens.size())));
}

}  // namespace

std::string tokens_error_text(const TokensOrError& tokens) {
  if (tokens.error.empty()) return "";
  if (!tokens.too_long) return i18n::format(i18n::tr("Cannot split this text into tokens: %s"), tokens.error.c_str());
  return i18n::format(i18n::tr("This text has more than %s tokens: %s."), format_grouped(kMaxSentenceTokens).c_str(),
                      first_token_past_limit_text(tokens).c_str());
}

std::string first_token_past_limit_text(const TokensOrError& tokens) {
  return i18n::format(i18n::tr("token %s starts at byte %s"), format_grouped(kMaxSentenceTokens + 1).c_str(),
                      format_grouped(static_cast<long long>(tokens.error_offset)).c_str());
}

TokensOrError tokenize_text(std::string_view text, TokenizerMode mode) { return text_tokens(text, mode, std::nullopt); }

TokensOrError sentence_tokens_of(const Scenario& scenario) {
  return text_tokens(scenario.sentence, scenario.tokenizer, scenario.tokens);
}

TokensOrError source_tokens_of(const SourceSetting& source) {
  return text_tokens(source.sentence, source.tokenizer, source.tokens);
}

std::vector<int> align_token_rows(const std::vector<std::string>& old_tokens,
                                  const std::vector<std::string>& new_tokens) {
  const std::size_t old_n = old_tokens.size();
  const std::size_t new_n = new_tokens.size();
  std::size_t prefix = 0;
  while (prefix < old_n && prefix < new_n && old_tokens[prefix] == new_tokens[prefix]) ++prefix;
  std::size_t suffix = 0;
  while (suffix < old_n - prefix && suffix < new_n - prefix &&
         old_tokens[old_n - 1 - suffix] == new_tokens[new_n - 1 - suffix]) {
    ++suffix;
  }
  std::vector<int> rows(new_n, -1);
  for (std::size_t i = 0; i < prefix; ++i) rows[i] = static_cast<int>(i);
  for (std::size_t k = 0; k < suffix; ++k) rows[new_n - 1 - k] = static_cast<int>(old_n - 1 - k);
  return rows;
}

Scenario set_sentence(Scenario s, std::string sentence, const EmbeddingRow& new_row) {
  // The old tokens only place edited embedding rows; without any, a keystroke in a long text
  // splits it once, not twice.
  const TokensOrError before = s.embeddings && !s.tokens ? sentence_tokens_of(s) : TokensOrError{};
  s.sentence = std::move(sentence);
  if (s.tokens) return s;  // explicit tokens: the sentence is only a caption
  follow_tokens(s, before, sentence_tokens_of(s), new_row);
  return s;
}

Scenario set_sentence(Scenario s, std::string sentence) {
  const EmbeddingRow rows = generated_rows(s);
  return set_sentence(std::move(s), std::move(sentence), rows);
}

Scenario type_sentence(Scenario s, std::string sentence, bool keep_tokens) {
  if (!s.tokens || keep_tokens) return set_sentence(std::move(s), std::move(sentence));
  const TokensOrError typed = tokenize_text(sentence, s.tokenizer);
  s.sentence = std::move(sentence);
  if (!typed.error.empty()) return s;  // the panel shows why; the listed tokens stay meanwhile
  s.tokens.reset();
  s.embeddings.reset();  // every row generated from the seed, as for any typed word
  s.mask = prune_globals(s.mask, global_limit(s, static_cast<int>(typed.tokens.size())));
  return s;
}

bool gave_up_listed_tokens(const Scenario& before, const Scenario& after) { return before.tokens && !after.tokens; }

Scenario set_tokenizer(Scenario s, TokenizerMode mode, const EmbeddingRow& new_row) {
  const TokensOrError before = sentence_tokens_of(s);
  s.tokenizer = mode;
  if (s.tokens) return s;
  follow_tokens(s, before, sentence_tokens_of(s), new_row);
  return s;
}

Scenario set_tokenizer(Scenario s, TokenizerMode mode) {
  const EmbeddingRow rows = generated_rows(s);
  return set_tokenizer(std::move(s), mode, rows);
}

Scenario use_sentence_tokens(Scenario s, const EmbeddingRow& new_row) {
  const TokensOrError before = sentence_tokens_of(s);
  s.tokens.reset();
  follow_tokens(s, before, sentence_tokens_of(s), new_row);
  return s;
}

Scenario use_sentence_tokens(Scenario s) {
  const EmbeddingRow rows = generated_rows(s);
  return use_sentence_tokens(std::move(s), rows);
}

Scenario click_token(Scenario s, int index) {
  s.mask = toggle_global(s.mask, index);
  return s;
}

std::string too_large_to_edit(std::string_view sentence) {
  if (sentence.size() > kMaxEditableBytes) {
    return i18n::format(i18n::tr("it is %.1f MB (the box edits texts up to %zu MiB)"),
                        static_cast<double>(sentence.size()) / 1e6, kMaxEditableBytes >> 20);
  }
  std::size_t word = 0;
  std::size_t longest = 0;
  for (std::size_t offset = 0; offset < sentence.size();) {
    const std::optional<utf8::Decoded> decoded = utf8::decode_at(sentence, offset);
    const bool space = decoded && utf8::is_white_space(decoded->code_point);
    word = space ? 0 : word + 1;
    longest = std::max(longest, word);
    offset += decoded ? decoded->length : 1;
  }
  if (longest <= kMaxEditableWord) return "";
  return i18n::format(i18n::tr("it has a word of %s characters without a space (the box edits words of up to %s)"),
                      format_grouped(static_cast<long long>(longest)).c_str(),
                      format_grouped(kMaxEditableWord).c_str());
}

std::string chip_tooltip(int index, const std::string& token, const MaskSetting& mask) {
  const std::string shown = cut_text(token, 200);
  const bool global = std::find(mask.global.begin(), mask.global.end(), index) != mask.global.end();
  if (global) {
    return i18n::format(i18n::tr("token %d \u201C%s\u201D \u2014 global: sees every token and is seen by every "
                                 "token.\nClick to make it local again."),
                        index, shown.c_str());
  }
  if (!mask.window) {
    return i18n::format(i18n::tr("token %d \u201C%s\u201D\nClick to make it a global token (Longformer); the mask "
                                 "gets a window of radius %d."),
                        index, shown.c_str(), kDefaultLongformerRadius);
  }
  return i18n::format(i18n::tr("token %d \u201C%s\u201D\nClick to make it a global token (Longformer)."), index,
                      shown.c_str());
}

bool chip_fits_on_line(float last_right, float spacing, float width, float right_edge) {
  return last_right + spacing + width <= right_edge;
}

}  // namespace attnviz::edits
