#!/usr/bin/env bash
# Regenerates the classroom screenshots of docs/classroom.md under docs/images/classroom-*.png.
# Uses $ATTNVIZ when set, else build/release/app/attnviz (built with scripts/build.sh if missing).
# Runs the window under Xvfb when there is no display. The commands below are the ones
# docs/classroom.md shows; keep them in step.
set -euo pipefail
cd "$(dirname "$0")/.."
attnviz=${ATTNVIZ:-build/release/app/attnviz}
if [ ! -x "$attnviz" ]; then
  ./scripts/build.sh release
fi
mkdir -p docs/images
# Screenshots must not read or overwrite the user's autosaved session.
XDG_CONFIG_HOME=$(mktemp -d)
export XDG_CONFIG_HOME
trap 'rm -rf "$XDG_CONFIG_HOME"' EXIT

shoot() {  # [SIZE=WxH] shoot NAME ARGS...: docs/images/classroom-NAME.png, 1600x1000 unless SIZE
  local name=$1
  shift
  local display=()
  if [ -z "${DISPLAY:-}" ]; then display=(xvfb-run -a -s "-screen 0 1920x1200x24"); fi
  "${display[@]}" "$attnviz" "$@" --size "${SIZE:-1600x1000}" --frames 6 --screenshot "docs/images/classroom-$name.png"
  echo "docs/images/classroom-$name.png"
}

# The Korean worked example, following 배 ("stomach" in 배가 고파서, "I was hungry"; query 2)
# through the steps, as the tutorial does.
shoot step-1-embeddings --scenario preset:korean-restaurant --view step --step 1 --pin-query 2
shoot step-4-scores     --scenario preset:korean-restaurant --view step --step 4 --pin-query 2
shoot step-7-softmax    --scenario preset:korean-restaurant --view step --step 7 --pin-query 2
shoot step-10-output    --scenario preset:korean-restaurant --view step --step 10 --pin-query 2
# The scaling lesson on a decoder with d_k = 8: entropy and max weight with and without 1/sqrt(d_k).
shoot scaling           --scenario preset:causal-gpt --view step --step 5 --pin-query 5
# Positions (step 3): RoPE turning q and k of the second "dog"; ALiBi's bias and its 8 slopes.
shoot step-3-rope       --scenario preset:rope --view step --step 3 --pin-query 8
shoot step-3-alibi      --scenario preset:alibi --view step --step 3 --pin-query 12
# The classic mistakes (step 11): masking after the softmax, its rows short of 1.
shoot step-11-mistakes  --scenario preset:life-is-short --view step --step 11 --mistake mask-after --pin-query 3
shoot step-11-renormalised --scenario preset:life-is-short --view step --step 11 --mistake renormalised --pin-query 3
# Dropout: the weights before and after, the dropped ones hatched (step 7).
shoot step-7-dropout    --scenario preset:dropout --view step --step 7 --pin-query 6
# No positions, sinusoidal, RoPE and ALiBi side by side.
shoot compare-positions --scenario preset:rope --view compare --compare positions:4
shoot compare-patterns --scenario preset:life-is-short --view compare --compare patterns:4
# Presentation mode (F11) on the projectors' sizes: large high-contrast text, the view alone (no
# menu bar, tabs or status bar), cells large enough for their numbers. Screenshots leave out the
# corner overlay a teacher sees for a few seconds after F11: they show what the audience sees.
SIZE=1280x720 shoot present --scenario preset:korean-restaurant --view step --step 7 --pin-query 2 --present
SIZE=1920x1080 shoot present-compare --scenario preset:korean-restaurant --view compare --compare masks:4 --pin-query 2 --present
# Four masks side by side on one colour scale, and MHA / GQA / MQA.
shoot compare-masks     --scenario preset:korean-restaurant --view compare --compare masks:4
shoot compare-kv-heads  --scenario preset:gqa --view compare --compare kv-heads:4
# The cross-attention preset opens its view: English queries over the Korean source.
shoot cross             --scenario preset:cross-attention --pin-query 8
# How attention runs in production. FlashAttention-2 tile by tile on the sliding window: tile 8
# (query block 1 against key block 1, masked inside), the tiles the window hides marked skipped;
# and on a projector, the Korean example's tile 6 (m and l rescaled as the block's maximum grows).
shoot tiled             --scenario preset:sliding-window --view tiled --block-q 4 --block-k 4 --step 8
SIZE=1280x720 shoot present-tiled --scenario preset:korean-restaurant --view tiled --step 6 --present
# KV-cache decoding: the sliding window's rolling buffer of 4 slots (a row leaving as token 7 comes
# in), with the view alone so the cost panel stands beside the cache; and GQA on a projector (8
# query heads, 2 cache heads).
shoot decode            --scenario preset:sliding-window --view decode --prompt 3 --step 6 --layout heatmaps
SIZE=1920x1080 shoot present-decode --scenario preset:gqa --view decode --prompt 3 --step 4 --present
