#pragma once
// The Positions page's pictures (core/lesson: TurningPair, the ALiBi slopes): one frequency
// pair turning with position, drawn as arrows on a circle; each head's distance penalty as a
// line falling with distance. Drawing only: every number comes from the lesson's page.

#include <vector>

#include "core/lesson/steps.h"

namespace attnviz::classroom {

// Arrows from the centre to the pair at each position, the followed word's bold and labelled,
// the key's (RoPE) in a second colour; `size` pixels square, at the cursor.
void draw_turning_pair(const lesson::TurningPair& pair, float size);

// −m_h·distance for each head over distances 0 … max_distance, `width` × `height` at the cursor;
// the followed head's line bold.
void draw_alibi_lines(const std::vector<double>& slopes, int head, int max_distance, float width, float height);

}  // namespace attnviz::classroom
