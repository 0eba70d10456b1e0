#!/usr/bin/env bash
# Writes DIR/long.txt (TOKENS words, default 65536, from the measuring scripts' word list) and
# DIR/long.json (8 heads, d_model 64, d_k = d_v = 8, causal; its sentence replaced by
# --text-file): the text only the overview shows, for measure-frames.sh and measure-memory.sh.
#   scripts/write-long-text.sh DIR [TOKENS]
set -euo pipefail
dir=$1
tokens=${2:-65536}
words=(the cat sat on a mat while rain fell over quiet streets and children slept soundly)
for ((i = 0; i < tokens; i++)); do printf '%s ' "${words[$(((i * 7 + i / 16) % 16))]}"; done >"$dir/long.txt"
cat >"$dir/long.json" <<JSON
{"format": "attnviz-scenario/1", "sentence": "(--text-file)", "tokenizer": "words", "d_model": 64,
 "seed": 11, "num_heads": 8, "num_kv_heads": 8, "d_k": 8, "d_v": 8, "mask": {"causal": true}}
JSON
