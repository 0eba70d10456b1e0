#include "app/classroom/view_steps.h"

#include <algorithm>

namespace attnviz::classroom {
namespace {

constexpr float kMinSpeed = 0.25f;
constexpr float kMaxSpeed = 8.0f;

int chosen_or(int chosen, int fallback) { return std::clamp(chosen > 0 ? chosen : fallback, 1, kMaxBlock); }

double interval(const Playback& playback) { return 1.0 / std::clamp(playback.speed, kMinSpeed, kMaxSpeed); }

}  // namespace

int default_block(int tokens) { return std::max(1, (tokens + 3) / 4); }

int default_prompt(int tokens) { return std::max(1, (tokens + 1) / 2); }

tiled::TileGrid tile_grid(const TiledViewState& state, const Problem& problem) {
  return tiled::TileGrid(problem.n(), problem.m(), chosen_or(state.block_q, default_block(problem.n())),
                         chosen_or(state.block_k, default_block(problem.m())));
}

int tiled_step_count(const TiledViewState& state, const Problem& problem) {
  if (problem.n() < 1 || problem.m() < 1) return 0;
  return tile_grid(state, problem).tile_count();
}

int decode_prompt(const DecodeViewState& state, int tokens) {
  if (tokens < 1) return 1;
  return std::clamp(state.prompt > 0 ? state.prompt : default_prompt(tokens), 1, tokens);
}

int decode_step_count(int prompt, int tokens) { return tokens < 1 ? 0 : tokens - prompt + 1; }

int decoded_position(int prompt, int step) { return prompt - 1 + step; }

int moved_step(int step, int delta, int count) { return count <= 0 ? 0 : std::clamp(step + delta, 0, count - 1); }

void toggle_playback(Playback& playback, int& step, int count, double now) {
  if (playback.playing || count <= 1) {
    playback.playing = false;
    return;
  }
  if (step >= count - 1) step = 0;
  playback.playing = true;
  playback.next_at = now + interval(playback);
}

bool advance_playback(Playback& playback, int& step, int count, double now) {
  if (!playback.playing) return false;
  if (step >= count - 1) {
    playback.playing = false;
    return false;
  }
  if (now < playback.next_at) return false;
  ++step;
  // One step per frame at most, and the next one a whole interval away: a frame that came
  // late (or a window that was hidden) does not make the tiles run ahead of the class.
  playback.next_at = std::max(playback.next_at + interval(playback), now + interval(playback) * 0.5);
  if (step >= count - 1) playback.playing = false;
  return true;
}

}  // namespace attnviz::classroom
