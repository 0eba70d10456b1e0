#pragma once
// What each classroom view shows: the Step view's page and selected cell, the Compare view's
// variants, the Tiled view's tile, the Decode view's step. The views' own state, not the
// window's: the desktop keeps one ViewStates and hands it to add_classroom(), which gives it to
// the views, the Classroom menu and its actions; the start-up options (--step, --compare) set
// it. What the layout reads (the tab on screen, presentation mode) is ui::ClassroomState.

#include <optional>

#include "core/lesson/variants.h"

namespace attnviz::classroom {

// Stepping on its own (the Tiled and Decode views' play button): `speed` steps a second
// while playing; the view advances when the time comes and stops at the last step.
struct Playback {
  bool playing = false;
  float speed = 2.0f;    // steps per second, 0.25 to 8
  double next_at = 0.0;  // ImGui::GetTime() of the next step while playing
};

// The Tiled view (FlashAttention-2 tile by tile): its tile sizes and the tile shown.
struct TiledViewState {
  int block_q = 0;  // Br; 0: chosen for the sentence (classroom::default_block)
  int block_k = 0;  // Bc; 0: likewise
  int tile = 0;     // 0-based, in visiting order
  Playback playback;
};

// The Decode view (KV-cache decoding): the prompt and the step shown.
struct DecodeViewState {
  int prompt = 0;  // P tokens prefilled at once; 0: chosen for the sentence (classroom::default_prompt)
  int step = 0;    // 0: the prompt's prefill, k: the k-th generated token
  Playback playback;
  // The steps of a pretrained model's generation while the view shows one (0: the scenario's
  // steps count), so that the arrow keys and P step through the generated tokens.
  int model_steps = 0;
};

struct ViewStates {
  // Step view
  int step = 0;            // 0-based page (lesson::step_at)
  std::optional<int> key;  // the column of the selected cell (the arithmetic check)
  int mistake = 0;         // the Mistakes page's subject (lesson::mistake_at)

  // Compare view
  lesson::CompareOptions compare;
  bool compare_scores = false;  // the copies show scaled scores instead of weights
  // With a pretrained model shown: the "layers" axis (one column per layer of the model's text)
  // instead of the scenario's copies, the chosen head's weights or every head's averaged.
  bool compare_layers = false;
  bool compare_heads_averaged = false;

  TiledViewState tiled;
  DecodeViewState decode;
};

}  // namespace attnviz::classroom
