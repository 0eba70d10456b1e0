#pragma once
// How the Tiled and Decode views count their steps, from the computed problem and the view's
// settings, and how their play button moves through them. Pure functions (tested without a
// window): the keys (classroom_actions.h), the views and the start-up options (--step,
// --block-q, --block-k, --prompt) all count the same way.
//
//   Tiled   one step per tile of the Br × Bc grid, in visiting order (query block by query
//           block, keys left to right: core/tiled/tile_grid.h)
//   Decode  step 0 prefills the prompt's P tokens at once; step k generates token P − 1 + k,
//           up to the sentence's last: N − P + 1 steps

#include "app/classroom/view_states.h"
#include "app/ui/classroom_state.h"
#include "core/scenario/problem.h"
#include "core/tiled/tile_grid.h"

namespace attnviz::classroom {

inline constexpr int kMaxBlock = 4096;  // the longest sentence: a larger tile holds nothing more

// Tile sizes when the user chose none: a grid of about 4 × 4 tiles, ceil(tokens / 4).
int default_block(int tokens);
// The prompt when the user chose none: the first half of the sentence (at least 1 token).
int default_prompt(int tokens);

// The grid the Tiled view walks: the chosen Br and Bc (or the defaults) over N × M.
tiled::TileGrid tile_grid(const TiledViewState& state, const Problem& problem);
// Its tiles; 0 when nothing is computed.
int tiled_step_count(const TiledViewState& state, const Problem& problem);

// The prompt P in [1, N] (the chosen one, clamped, or the default).
int decode_prompt(const DecodeViewState& state, int tokens);
int decode_step_count(int prompt, int tokens);
// The position t a step shows: P − 1 for the prefill (its last row), then P − 1 + step.
int decoded_position(int prompt, int step);

// A step moved by `delta` and kept in [0, count).
int moved_step(int step, int delta, int count);

// Play or pause. Playing from the last step starts again at the first.
void toggle_playback(Playback& playback, int& step, int count, double now);
// While playing: one step each 1/speed seconds that passed, stopping at the last. Returns
// whether the step moved. A long gap (the window was hidden) does not make it jump ahead.
bool advance_playback(Playback& playback, int& step, int count, double now);

}  // namespace attnviz::classroom
