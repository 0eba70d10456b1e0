#!/usr/bin/env bash
# Regenerates the exported example images of docs/export.md and the README under docs/images/.
# Uses $ATTNVIZ when set, else build/release/app/attnviz (built with scripts/build.sh if missing).
# The commands below are the ones docs/export.md shows; keep them in step.
set -euo pipefail
cd "$(dirname "$0")/.."
attnviz=${ATTNVIZ:-build/release/app/attnviz}
if [ ! -x "$attnviz" ]; then
  ./scripts/build.sh release
fi
mkdir -p docs/images

# The Korean worked example: attention weights of its one head, as a slide-ready PNG.
"$attnviz" export --scenario preset:korean-restaurant --what weights --format png \
  --out docs/images/export-korean-weights.png

# All eight heads of the grouped-query preset in one image with one colorbar (causal mask).
"$attnviz" export --scenario preset:gqa --what weights --grid --dpi 150 \
  --out docs/images/export-gqa-grid.png

# A causal decoder's raw scores: masked pairs faded and hatched (their scores exist but are not used).
"$attnviz" export --scenario preset:causal-gpt --what scores --heads 0 --dpi 150 \
  --out docs/images/export-causal-scores.png
