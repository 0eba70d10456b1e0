#!/usr/bin/env bash
# Measures the window's peak resident memory (scripts/peak-rss.py: wait4's ru_maxrss) with a
# generated model of GPT-2 small's shape (12 layers × 12 heads, d_model 96, 1024 positions:
# scripts/write-gpt2-shaped-model.py) reading a long text, next to the float32 size of the
# attention the window keeps (every layer's and head's N × N scores and weights, and contexts):
# the README's memory section. The window runs 30 frames at 1600x1000 under Xvfb, Eigen
# computing (the automatic choice on lavapipe). TOKENS (default 1000, at most 1024) sets the
# text's length; ATTNVIZ_BIN another binary.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${ATTNVIZ_BIN:-build/release/app/attnviz}
tokens=${TOKENS:-1000}
work=$(mktemp -d)
xvfb_pid=""
cleanup() {
  if [ -n "$xvfb_pid" ]; then kill "$xvfb_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
export XDG_CONFIG_HOME="$work/config" XDG_CACHE_HOME="$work/cache"
/usr/bin/python3 scripts/write-gpt2-shaped-model.py "$work/model" 1024

# Words until the model reads `tokens` tokens (its tokenizer says how many), then cut to that.
words=(the cat sat on a mat while rain fell over quiet streets and children slept soundly)
count() { "$bin" tokenize --model "$work/model" --text "$1" | /usr/bin/python3 -c 'import json, sys; print(len(json.load(sys.stdin)["ids"]))'; }
text=""
i=0
while [ "$(count "$text")" -lt "$tokens" ]; do
  for _ in $(seq 16); do text+="${text:+ }${words[$(((i * 7 + i / 16) % 16))]}"; i=$((i + 1)); done
done
while [ "$(count "$text")" -gt "$tokens" ]; do text=${text% *}; done
n=$(count "$text")
layers=12
heads=12
head_dim=8
result=$((layers * heads * (n * n * 2 + n * head_dim) * 4))
echo "== $n tokens, $layers layers x $heads heads: the attention's float32 size $(awk -v b=$result 'BEGIN { printf "%.0f MiB", b / 1048576 }')"

Xvfb :96 -screen 0 1600x1000x24 >/dev/null 2>&1 &
xvfb_pid=$!
sleep 1
for backend in auto vulkan; do
  status=0
  env DISPLAY=:96 scripts/peak-rss.py "$bin" --model "$work/model" --text "$text" --frames 30 --stats --backend "$backend" \
    >"$work/out.txt" 2>"$work/err.txt" || status=$?
  printf '%-40s %s (exit %d)\n' "window, --backend $backend (30 frames)" "$(grep '^peak RSS' "$work/err.txt")" "$status"
  if [ "$status" -ne 0 ]; then grep -v '^peak RSS' "$work/err.txt" | head -3 | sed 's/^/    /'; fi
done
echo "== machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo), load average $(cut -d' ' -f1-3 /proc/loadavg)"
