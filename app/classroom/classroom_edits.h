#pragma once
// The classroom's edits of the scenario, as pure functions tested without a window.
//
// The cross-attention source: turning it on and off, typing its sentence, choosing its
// tokenizer. Explicit source embeddings follow the tokens they belong to (new tokens get
// generated rows), like the main sentence's.

#include <string>

#include "core/scenario/scenario.h"

namespace attnviz::classroom {

// A source sentence to start from: the scenario's own sentence (then the user edits it).
Scenario add_source(Scenario s);
Scenario remove_source(Scenario s);
// Needs a source. The explicit token list, if any, is dropped: the sentence is tokenized.
Scenario set_source_sentence(Scenario s, std::string sentence);
Scenario set_source_tokenizer(Scenario s, TokenizerMode mode);

// The mask shortcuts. The cycle: no mask → causal → sliding window (causal, r = 2) →
// Longformer (r = 2, global token 0) → no mask; any other mask goes to "no mask".
struct MaskStep {
  MaskSetting mask;
  const char* name;  // "no mask", "causal", ...
};
MaskStep next_mask(const MaskSetting& mask);
Scenario toggle_causal(Scenario s);
// 1/√d_k ↔ no scaling (a custom factor goes back to 1/√d_k).
Scenario toggle_scaling(Scenario s);

// The temperature T (scale = 1/T, the Model panel's slider) times `factor`, from the scale in
// force (1/√d_k is T = √d_k), kept within the slider's 0.05 … 20.
inline constexpr double kMinTemperature = 0.05;
inline constexpr double kMaxTemperature = 20.0;
Scenario scale_temperature(Scenario s, double factor);
double temperature_of(const Scenario& s);  // 1 / the scale in force

}  // namespace attnviz::classroom
