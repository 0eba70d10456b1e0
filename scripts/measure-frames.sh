#!/usr/bin/env bash
# Measures the window's frame times (docs/gui.md "Frame times", the README's performance
# table) for generated sentences of 128, 512 and 2048 tokens (SIZES) with 8 heads, at 1600x1000
# under Xvfb, on whatever Vulkan driver is present, in the default layout, in one run:
#   steady          FRAMES frames (default 200) with every heatmap on screen
#   no heatmaps     the same window with the heatmaps' cells not drawn (--bench-no-heatmaps):
#                   what Dear ImGui, the driver and Xvfb take alone
#   edits           a weight edited every frame (--bench-edits, EDIT_FRAMES frames, default 30):
#                   every frame recomputes with the automatic backend
#   edits, vulkan   the same with --backend vulkan (skipped when SKIP_VULKAN_EDITS is set)
# then a text of 65,536 tokens (LONG_TOKENS; skipped when SKIP_LONG is set) in the overview,
# causal, 8 heads: steady and with no heatmaps, the frames counted once the overview is computed,
# and a change of shape (--bench-shapes: K/V heads and d_k after every recompute, SHAPE_FRAMES
# frames, default 40) at 5 tokens, twice: the first start with an empty pipeline cache, then
# a second start that finds it. Uses build/release unless ATTNVIZ_BIN names another binary.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${ATTNVIZ_BIN:-build/release/app/attnviz}
if [ ! -x "$bin" ]; then ./scripts/build.sh release; fi
frames=${FRAMES:-200}
edit_frames=${EDIT_FRAMES:-30}  # every one of these recomputes: fewer
shape_frames=${SHAPE_FRAMES:-40}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_CONFIG_HOME="$work/config" XDG_CACHE_HOME="$work/cache"

window() {  # the summary lines of one measuring run
  xvfb-run -a -s "-screen 0 1600x1000x24" "$bin" "$@" --stats | grep -E "^(window|frames|  of which|recomputes|allocations)"
}

words=(the cat sat on a mat while rain fell over quiet streets and children slept soundly)
for n in ${SIZES:-128 512 2048}; do
  sentence=""
  for ((i = 0; i < n; i++)); do sentence+="${sentence:+ }${words[$(((i * 7 + i / 16) % 16))]}"; done
  cat >"$work/n$n.json" <<JSON
{"format": "attnviz-scenario/1", "sentence": "$sentence", "tokenizer": "words", "d_model": 64,
 "seed": 11, "num_heads": 8, "num_kv_heads": 8, "d_k": 8, "d_v": 8, "mask": {"causal": true}}
JSON
  echo "== N=$n, steady"
  window --scenario "$work/n$n.json" --frames "$frames"
  echo "== N=$n, steady, no heatmaps"
  window --scenario "$work/n$n.json" --frames "$frames" --bench-no-heatmaps
  echo "== N=$n, edits"
  window --scenario "$work/n$n.json" --frames "$edit_frames" --bench-edits
  if [ -z "${SKIP_VULKAN_EDITS:-}" ]; then
    echo "== N=$n, edits, --backend vulkan"
    window --scenario "$work/n$n.json" --frames "$edit_frames" --bench-edits --backend vulkan
  fi
done

if [ -z "${SKIP_LONG:-}" ]; then
  long=${LONG_TOKENS:-65536}
  scripts/write-long-text.sh "$work" "$long"
  echo "== N=$long (the overview), steady"
  window --scenario "$work/long.json" --text-file "$work/long.txt" --frames "$frames"
  echo "== N=$long (the overview), steady, no heatmaps"
  window --scenario "$work/long.json" --text-file "$work/long.txt" --frames "$frames" --bench-no-heatmaps
fi

cat >"$work/shapes.json" <<JSON
{"format": "attnviz-scenario/1", "sentence": "the cat sat on mat", "d_model": 16, "seed": 11,
 "num_heads": 4, "num_kv_heads": 4, "d_k": 4, "d_v": 4, "mask": {"causal": true}}
JSON
for backend in auto vulkan; do
  for start in first second; do
    if [ "$start" = first ]; then rm -rf "$work/cache"; fi
    echo "== changes of shape, 5 tokens, --backend $backend, $start start"
    window --scenario "$work/shapes.json" --frames "$shape_frames" --bench-shapes --backend "$backend"
  done
done
echo "== machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
