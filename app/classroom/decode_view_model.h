#pragma once
// The Decode view with a pretrained model open: "Generate" runs greedy generation with the
// model's own KV cache off the UI thread (compute::ModelGeneration: progress and Cancel), then
// the view steps through the generated tokens as it steps through a scenario's: the prompt
// prefilled, each new token's query (for the chosen layer and head) attending over the cache
// that grows by one entry a step (a rolling buffer under Mistral's sliding window), the token
// it predicts appended to the text, the ten likeliest next tokens, and the cache's size.

#include <cstdint>
#include <string>
#include <vector>

#include "app/classroom/view_states.h"
#include "app/compute/model_generation.h"
#include "app/ui/panel.h"
#include "core/common/matrix.h"

namespace attnviz::classroom {

class ModelDecode {
 public:
  // `state`: the Decode view's step and play button, which step through the generation too.
  explicit ModelDecode(DecodeViewState& state) : state_(state) {}

  // Draws the page. Returns false when the user asked for the scenario's decoding instead.
  bool draw(ui::UiContext& ui);

 private:
  void refresh_generation(const model::Generation& g);
  void refresh_rows(const model::Generation& g, const model::StepAttention& layer, int step, int head,
                    std::uint64_t version);
  void draw_generate_bar(ui::UiContext& ui);
  void draw_step(ui::UiContext& ui, const model::Generation& g, int step);
  void draw_cache(ui::UiContext& ui, const model::Generation& g, int step, float width);
  void draw_next_tokens(const model::GenerationStep& step, float width) const;
  void draw_cache_size(const model::ModelConfig& c, const model::Generation& g, int step, float width,
                       float ui_scale) const;

  DecodeViewState& state_;
  compute::ModelGeneration generation_;
  // Made again only when the generation changes: its tokens (prompt and generated) and the
  // cache's bytes at every step.
  std::uint64_t seen_generation_ = ~std::uint64_t{0};
  std::vector<std::string> tokens_shown_;
  std::vector<float> cache_sizes_;
  // The shown step's query over the cache (one row per cached key), made again only when the
  // step, layer, head or generation changes.
  struct CacheRows {
    std::uint64_t version = ~std::uint64_t{0};
    std::vector<std::string> labels;
    Matrix scores;          // (cache_length, 1): q·k
    Matrix weights;         // (cache_length, 1)
    float largest = 1e-6f;  // the largest |q·k|: the scores' colour range
  };
  CacheRows rows_;
  int tokens_ = 8;
  bool show_scenario_ = false;
};

}  // namespace attnviz::classroom
