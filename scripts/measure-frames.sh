#!/usr/bin/env bash
# Measures the window's frame time (docs/gui.md) for generated sentences of 128, 512 and 2048
# tokens with 8 heads: 200 frames at 1600x1000 (FRAMES) under Xvfb, on whatever Vulkan driver is
# present, in the default layout; then the same with a weight edited every frame (each frame
# recomputes; EDIT_FRAMES, default 30). Uses build/release unless ATTNVIZ_BIN names another binary.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${ATTNVIZ_BIN:-build/release/app/attnviz}
if [ ! -x "$bin" ]; then ./scripts/build.sh release; fi
frames=${FRAMES:-200}
edit_frames=${EDIT_FRAMES:-30}  # every one of these recomputes: fewer
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_CONFIG_HOME="$work/config"

words=(the cat sat on a mat while rain fell over quiet streets and children slept soundly)
for n in 128 512 2048; do
  sentence=""
  for ((i = 0; i < n; i++)); do sentence+="${sentence:+ }${words[$(((i * 7 + i / 16) % 16))]}"; done
  cat >"$work/n$n.json" <<JSON
{"format": "attnviz-scenario/1", "sentence": "$sentence", "tokenizer": "words", "d_model": 64,
 "seed": 11, "num_heads": 8, "num_kv_heads": 8, "d_k": 8, "d_v": 8, "mask": {"causal": true}}
JSON
  for mode in steady edits; do
    extra=(--frames "$frames")
    [ "$mode" = edits ] && extra=(--frames "$edit_frames" --bench-edits)
    echo "== N=$n, $mode"
    xvfb-run -a -s "-screen 0 1600x1000x24" "$bin" --scenario "$work/n$n.json" --stats "${extra[@]}"
  done
done
echo "== machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
