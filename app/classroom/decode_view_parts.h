#pragma once
// The Decode view's pieces (decode_view.cpp puts them on the page): the sentence as it is
// generated, who shares the cache (GQA, MQA) and what the window does, and the cost panel:
// multiply-adds and bytes read with and without the cache, at the step and summed so far, as
// numbers and as line charts over t. Everything comes from the decode trace (core/decode).

#include <string>
#include <vector>

#include "core/decode/decoder.h"
#include "core/scenario/problem.h"

namespace attnviz::classroom {

// The tokens as chips: the prompt tinted, the generated ones plain, the one generated at this
// step selected, those still to come faint. Returns the decoding step of a clicked chip, or -1.
int draw_sentence_strip(const std::vector<std::string>& tokens, int prompt, int t);

// "query heads 0–3 read cache head 0, 4–7 cache head 1": who shares each K/V head.
std::string cache_sharing_text(const Problem& problem, int head);
// What the mask does to the cache: grows a row a step; a rolling buffer of r + 1 slots.
std::string cache_mask_text(const decode::DecodeTrace& trace);

// The cost panel for step t (the trace's every step, the view's from the prompt's last row).
void draw_cost_panel(const decode::DecodeTrace& trace, int t, float width, float ui_scale);

}  // namespace attnviz::classroom
