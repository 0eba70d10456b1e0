#!/usr/bin/env bash
# Makes the README's screenshots (docs/images/screenshot-*.png) with the real window under
# Xvfb, on whatever Vulkan driver is present (lavapipe without a GPU), with the Khronos
# validation layer on. Uses build/release unless ATTNVIZ_BIN names another binary.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${ATTNVIZ_BIN:-build/release/app/attnviz}
if [ ! -x "$bin" ]; then ./scripts/build.sh release; fi
out=docs/images
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_CONFIG_HOME="$work/config"  # never touch the user's autosaved work

shot() {  # shot NAME ARGS...: one 1600x1000 screenshot
  local name=$1
  shift
  xvfb-run -a -s "-screen 0 1600x1000x24" "$bin" --size 1600x1000 --frames 5 --validation \
    --screenshot "$out/screenshot-$name.png" "$@"
  echo "wrote $out/screenshot-$name.png"
}

# A sentence of N generated words (the same 16 words in a fixed shuffle), 8 heads, causal.
generated() {  # generated N FILE
  local words=(the cat sat on a mat while rain fell over quiet streets and children slept soundly)
  local sentence="" i
  for ((i = 0; i < $1; i++)); do sentence+="${sentence:+ }${words[$(((i * 7 + i / 16) % 16))]}"; done
  cat >"$2" <<JSON
{"format": "attnviz-scenario/1", "title": "$1 generated tokens, 8 heads, causal",
 "sentence": "$sentence", "tokenizer": "words", "d_model": 64, "seed": 11,
 "num_heads": 8, "num_kv_heads": 8, "d_k": 8, "d_v": 8, "mask": {"causal": true}}
JSON
}

# The Korean worked example with a causal mask.
sed 's/"mask": {"causal": false}/"mask": {"causal": true}/' assets/presets/korean-restaurant.json >"$work/korean-causal.json"
generated 512 "$work/long.json"

shot main --scenario preset:causal-gpt --head 1 --pin-query 9 --hover-token 4
shot korean --scenario "$work/korean-causal.json" --pin-query 5
shot longformer --scenario preset:longformer --layout heatmaps --head 2 --pin-query 9
shot long-sentence --scenario "$work/long.json" --layout heatmaps --pin-query 300
shot compare --scenario preset:gqa --layout compare-ready --backend both --head 3 --pin-query 5
# Mask expressions (issue 14): the attention-sinks preset, typed as k <= q && (k < 4 || q - k <= 8),
# with its 4 × 4 block-sparsity tiles on every heatmap; taller, so that the Mask panel's
# expression field is in view.
xvfb-run -a -s "-screen 0 1600x1240x24" "$bin" --size 1600x1240 --frames 5 --validation \
  --screenshot "$out/screenshot-mask-expression.png" --scenario preset:attention-sinks --blocks 4
echo "wrote $out/screenshot-mask-expression.png"
# A pretrained model (issue 15): the Model view of a GENERATED model of GPT-2 small's shape
# (12 layers x 12 heads, random weights: scripts/write-gpt2-shaped-model.py), not of GPT-2's
# own weights, whose 500 MB are not part of the repository.
# Debian's python3 has numpy (scripts/install-deps.sh); one first on the PATH (pyenv) may not.
py=python3
if [ -x /usr/bin/python3 ]; then py=/usr/bin/python3; fi
"$py" scripts/write-gpt2-shaped-model.py "$work/gpt2-shaped"
shot model-view --model "$work/gpt2-shaped" --text "the cat sat on the mat, the hat sat on the cat" --layout heatmaps \
  --model-view
