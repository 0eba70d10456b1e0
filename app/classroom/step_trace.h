#pragma once
// The step view's text column: the followed query's numbers on the current page (its trace
// lines, its table of numbers per key, the arithmetic check), beside or below the heatmaps.

#include "core/lesson/steps.h"

namespace attnviz::classroom {

// Why this step exists: in the text column rather than under the formula, where a line is
// worth more to the heatmaps on a projector.
void draw_step_note(const lesson::StepPage& page);
void draw_step_trace(const lesson::StepPage& page);

// What fits a text column `width` × `height` pixels (at the current font): how many key rows
// of the table, and how many numbers of a value vector per line of a table cell (0: all).
struct TraceFit {
  int rows = 8;
  int vector_terms = 0;
};
TraceFit fit_trace(float width, float height, int vector_length);

}  // namespace attnviz::classroom
