#pragma once
// How attention runs in production (issue 13), as two views of the main area:
//
//   Tiled    FlashAttention-2 on the scenario, tile by tile: the score matrix cut into
//            Br × Bc tiles, the running m and l of the query block, O before and after each
//            tile against the dense result, and what each way holds in memory
//   Decode   the sentence generated one token at a time with a KV cache: the new token's
//            q, k, v, the caches growing (a rolling buffer under a sliding window), the row of
//            scores and weights, and what each step costs with and without the cache
//
// All their numbers come from core (core/tiled, core/decode); the views only draw them.

#include <memory>

#include "app/classroom/view_states.h"
#include "app/ui/panel.h"

namespace attnviz::classroom {

std::unique_ptr<ui::Panel> make_tiled_view(ViewStates& views);
std::unique_ptr<ui::Panel> make_decode_view(ViewStates& views);

}  // namespace attnviz::classroom
