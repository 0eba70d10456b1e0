#pragma once
// The JSON of attnviz heads, lens, attribute and patch (docs/design.md "What the heads do").

#include <optional>
#include <string>
#include <vector>

#include "core/heads/attribution.h"
#include "core/heads/head_roles.h"
#include "core/heads/logit_lens.h"
#include "core/heads/patching.h"
#include "core/tokenizers/tokenizer.h"

namespace attnviz::heads {

// "attnviz-heads/1": `probe` null for a text (induction and duplicate are null then);
// `layers` the kept layers' numbers, in `roles`' order.
std::string heads_json(const tokenizers::Encoding& text, const RepeatProbe* probe, const std::vector<int>& layers,
                       const std::vector<std::vector<HeadScores>>& roles);
std::string lens_json(const tokenizers::Encoding& text, const LogitLens& lens);
std::string attribution_json(const Attribution& attribution);
std::string patching_json(const tokenizers::Encoding& clean, const tokenizers::Encoding& corrupted,
                          const Patching& patching);

}  // namespace attnviz::heads
