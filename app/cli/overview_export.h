#pragma once
// attnviz export --overview PIXELS: the pooled map of a long sequence (core/overview) as PNG,
// SVG or NPY; the rest of `attnviz export` is export_command.cpp.

#include <ostream>

#include "app/cli/args.h"

namespace attnviz::cli {

inline constexpr const char* kOverviewHelp =
    "\n"
    "Overview (sequences up to 65536 tokens; exact, never holding N × N):\n"
    "  --overview PIXELS    write the pooled map instead: each pixel pools a block of cells so\n"
    "                       that the map is at most PIXELS × PIXELS (1 to 16384); a window\n"
    "                       (--rows, --cols) no larger than PIXELS gives its exact cells\n"
    "  --pool KIND          max (default: the largest value of each block) or mean\n"
    "  --what NAME          weights (default), scores (raw Q·Kᵀ) or scaled; scores pool over\n"
    "                       the visible cells, weights over every cell (hidden ones weigh 0)\n"
    "  --format FORMAT      png, svg or npy (float32 [heads ×] rows × cols, NaN where the mask\n"
    "                       hides a whole block); --colormap, --range, --scale, --title,\n"
    "                       --dpi, --heads, --backend and --device as above\n";

// Runs the overview export; `parsed` holds export's options (--overview among them).
int run_overview_export(const ParsedArgs& parsed, std::ostream& out, std::ostream& err);

}  // namespace attnviz::cli
