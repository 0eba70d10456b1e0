#include "core/scenario/preset_titles.h"

#include <algorithm>
#include <array>

namespace attnviz {
namespace {

// As written in each preset's "title" (tests/scenario/presets_test.cpp checks that every preset's
// is here, so a new preset is not left untranslated).
constexpr std::array kPresetTitles = {
    N_("ALiBi: each head penalises distance with its own slope, so some heads look near and others far"),
    N_("Attention sinks + sliding window (StreamingLLM): the first 4 tokens stay visible beside the last 9"),
    N_("GPT-style decoder: every token sees only itself and the past (causal mask)"),
    N_("Cross-attention: English queries attend over the Korean source sentence"),
    N_("Dropout on the attention weights: some are dropped (hatched), the rest grow by 1/(1 - p)"),
    N_("Grouped-query attention: 8 query heads share 2 key/value heads (4 query heads per group)"),
    N_("어제 밤에 배가 고파서… — the Korean worked example (8 tokens, d_model 4, one head)"),
    N_("Life is short, eat dessert first (d_model 3, d_k 2, d_v 4)"),
    N_("Longformer: a symmetric window of radius 2 plus global tokens [CLS] and the question mark"),
    N_("Packed documents: two short texts in one sequence, each token sees only its own document (causal)"),
    N_("RoPE: the same words, turned by where they stand (Llama-style rotary positions)"),
    N_("Mistral-style sliding window: causal, each token sees itself and the 3 before it"),
    N_("Strided attention (Sparse Transformer, Child et al. 2019): the last 4 keys and every 4th key before them"),
};

const char* preset_title(std::string_view title) {
  const auto* found = std::find(kPresetTitles.begin(), kPresetTitles.end(), title);
  return found == kPresetTitles.end() ? nullptr : *found;
}

}  // namespace

bool is_preset_title(std::string_view title) { return preset_title(title) != nullptr; }

std::string worded_title(const std::string& title, const Wording& wording) {
  const char* preset = preset_title(title);
  return preset == nullptr ? title : wording.tr(preset);
}

}  // namespace attnviz
