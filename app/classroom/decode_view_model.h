#pragma once
// The Decode view with a pretrained model open: "Generate" runs greedy generation with the
// model's own KV cache off the UI thread (compute::ModelGeneration: progress and Cancel), then
// the view steps through the generated tokens as it steps through a scenario's: the prompt
// prefilled, each new token's query (for the chosen layer and head) attending over the cache
// that grows by one entry a step (a rolling buffer under Mistral's sliding window), the token
// it predicts appended to the text, the ten likeliest next tokens, and the cache's size.

#include "app/compute/model_generation.h"
#include "app/ui/panel.h"

namespace attnviz::classroom {

class ModelDecode {
 public:
  // Draws the page. Returns false when the user asked for the scenario's decoding instead.
  bool draw(ui::UiContext& ui);

 private:
  void draw_generate_bar(ui::UiContext& ui);
  void draw_step(ui::UiContext& ui, const model::Generation& g, int step);
  void draw_cache(ui::UiContext& ui, const model::Generation& g, int step, float width);
  void draw_next_tokens(const model::GenerationStep& step, float width) const;
  void draw_cache_size(const model::ModelConfig& c, const model::Generation& g, int step, float width, float ui_scale) const;

  compute::ModelGeneration generation_;
  int tokens_ = 8;
  bool show_scenario_ = false;
};

}  // namespace attnviz::classroom
