#include "app/classroom/classroom_edits.h"

#include <algorithm>
#include <stdexcept>

#include "app/edits/model_edits.h"
#include "app/edits/sentence_edits.h"
#include "app/i18n/translate.h"
#include "core/scenario/generate.h"

namespace attnviz::classroom {
namespace {

// Explicit embeddings re-aligned from the old tokens to the tokens the source gives now.
void realign_embeddings(Scenario& s, const std::vector<std::string>& old_tokens) {
  SourceSetting& source = *s.source;
  if (!source.embeddings) return;
  const edits::TokensOrError now = edits::source_tokens_of(source);
  if (!now.error.empty()) return;  // the user is typing something untokenizable: keep the rows
  const std::vector<int> keep = edits::align_token_rows(old_tokens, now.tokens);
  const Matrix& old_rows = *source.embeddings;
  Matrix rows(static_cast<int>(now.tokens.size()), old_rows.cols);
  for (int r = 0; r < rows.rows; ++r) {
    const int from = keep[static_cast<std::size_t>(r)];
    const std::vector<float> fresh =
        from >= 0 ? std::vector<float>()
                  : generate_embedding(now.tokens[static_cast<std::size_t>(r)], s.seed, old_rows.cols);
    for (int c = 0; c < rows.cols; ++c)
      rows.at(r, c) = from >= 0 ? old_rows.at(from, c) : fresh[static_cast<std::size_t>(c)];
  }
  source.embeddings = std::move(rows);
}

std::vector<std::string> current_tokens(const SourceSetting& source) { return edits::source_tokens_of(source).tokens; }

}  // namespace

Scenario add_source(Scenario s) {
  if (s.source) return s;
  SourceSetting source;
  source.sentence = s.sentence;
  source.tokenizer = s.tokenizer;
  s.source = std::move(source);
  return s;
}

Scenario remove_source(Scenario s) {
  s.source.reset();
  return s;
}

Scenario set_source_sentence(Scenario s, std::string sentence) {
  if (!s.source) throw std::logic_error("set_source_sentence: the scenario has no source");  // not translated: a bug
  const std::vector<std::string> old_tokens = current_tokens(*s.source);
  s.source->sentence = std::move(sentence);
  s.source->tokens.reset();
  realign_embeddings(s, old_tokens);
  return s;
}

Scenario set_source_tokenizer(Scenario s, TokenizerMode mode) {
  if (!s.source) throw std::logic_error("set_source_tokenizer: the scenario has no source");  // not translated: a bug
  const std::vector<std::string> old_tokens = current_tokens(*s.source);
  s.source->tokenizer = mode;
  s.source->tokens.reset();
  realign_embeddings(s, old_tokens);
  return s;
}

MaskStep next_mask(const MaskSetting& mask) {
  const MaskSetting none{};
  const MaskSetting causal{true, std::nullopt, {}};
  const MaskSetting sliding{true, 2, {}};
  const MaskSetting longformer{false, 2, {0}};
  // Marked for translation, translated where shown (the M key's notice and undo step).
  if (mask == none) return {causal, N_("causal")};
  if (mask == causal) return {sliding, N_("sliding window r = 2")};
  if (mask == sliding) return {longformer, N_("Longformer r = 2, global token 0")};
  return {none, N_("no mask")};
}

Scenario toggle_causal(Scenario s) {
  s.mask.causal = !s.mask.causal;
  return s;
}

Scenario toggle_scaling(Scenario s) {
  s.scale = s.scale.kind == ScaleSetting::Kind::InvSqrtDk ? ScaleSetting{ScaleSetting::Kind::None, 1.0}
                                                          : ScaleSetting{ScaleSetting::Kind::InvSqrtDk, 1.0};
  return s;
}

double temperature_of(const Scenario& s) { return edits::temperature_from_scale(s.scale.resolve(s.d_k)); }

Scenario scale_temperature(Scenario s, double factor) {
  const double temperature = std::clamp(temperature_of(s) * factor, kMinTemperature, kMaxTemperature);
  s.scale = ScaleSetting{ScaleSetting::Kind::Value, edits::scale_from_temperature(temperature)};
  return s;
}

}  // namespace attnviz::classroom
