#!/usr/bin/env bash
# Measures peak resident memory (scripts/peak-rss.py: wait4's ru_maxrss) of attnviz compute,
# attnviz export and the window for a generated sentence of 4096 tokens with 1, 8 and 16 heads
# (the README's memory table), next to the float32 size of the result each holds: H heads of
# N × N scores and weights, N × d_v contexts and the N × (H·d_v) output.
# The window runs 30 frames at 1600x1000 under Xvfb with the automatic backend and with
# --backend vulkan. Uses build/release unless ATTNVIZ_BIN names another binary. HEADS="1 8"
# limits the head counts; SKIP_WINDOW=1 measures the commands only. Then a text of 65,536
# tokens (LONG_TOKENS) with 8 heads, which only the overview shows: export --overview 1024 and
# the window with its overview computed (30 frames after it); SKIP_LONG=1 leaves it out.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${ATTNVIZ_BIN:-build/release/app/attnviz}
if [ ! -x "$bin" ]; then ./scripts/build.sh release; fi
peak=$PWD/scripts/peak-rss.py
work=$(mktemp -d)
xvfb_pid=""
cleanup() {
  if [ -n "$xvfb_pid" ]; then kill "$xvfb_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
export XDG_CONFIG_HOME="$work/config" XDG_CACHE_HOME="$work/cache"
n=4096
dv=8
words=(the cat sat on a mat while rain fell over quiet streets and children slept soundly)
sentence=""
for ((i = 0; i < n; i++)); do sentence+="${sentence:+ }${words[$(((i * 7 + i / 16) % 16))]}"; done

# "LABEL: peak RSS: N MiB" and the exit status, the command's own output hidden.
measure() {
  local label=$1
  shift
  local status=0
  "$peak" "$@" >"$work/out.txt" 2>"$work/err.txt" || status=$?
  printf '%-58s %s (exit %d)\n' "$label" "$(grep '^peak RSS' "$work/err.txt")" "$status"
  if [ "$status" -ne 0 ]; then grep -v '^peak RSS' "$work/err.txt" | head -3 | sed 's/^/    /'; fi
  rm -rf "$work/out"
}

mib() { awk -v b="$1" 'BEGIN { printf "%.0f MiB", b / 1048576 }'; }

if [ -z "${SKIP_WINDOW:-}" ]; then
  Xvfb :97 -screen 0 1600x1000x24 >/dev/null 2>&1 &
  xvfb_pid=$!
  sleep 1
fi

for heads in ${HEADS:-1 8 16}; do
  scenario=$work/h$heads.json
  cat >"$scenario" <<JSON
{"format": "attnviz-scenario/1", "sentence": "$sentence", "tokenizer": "words", "d_model": 64,
 "seed": 11, "num_heads": $heads, "num_kv_heads": $heads, "d_k": 8, "d_v": $dv, "mask": {"causal": true}}
JSON
  matrices=$((heads * n * n * 4 * 2))
  result=$((matrices + heads * n * dv * 4 * 2))
  echo "== $n tokens, $heads heads: the result's float32 size $(mib $result) (scores and weights $(mib $matrices))"
  rm -rf "$work/out" && mkdir -p "$work/out"
  measure "compute (JSON, default --max-output)" "$bin" compute --scenario "$scenario" --out "$work/out/r.json"
  rm -rf "$work/out"
  measure "compute --format npy --max-output none" "$bin" compute --scenario "$scenario" --format npy --max-output none --out "$work/out"
  measure "export --what weights --format json" "$bin" export --scenario "$scenario" --what weights --format json --out "$work/out/"
  measure "export --what weights --format npy" "$bin" export --scenario "$scenario" --what weights --format npy --out "$work/out/"
  if [ -z "${SKIP_WINDOW:-}" ]; then
    measure "window, automatic backend (30 frames)" env DISPLAY=:97 "$bin" --scenario "$scenario" --frames 30 --stats
    measure "window, --backend vulkan (30 frames)" env DISPLAY=:97 "$bin" --scenario "$scenario" --frames 30 --stats --backend vulkan
  fi
done
if [ -z "${SKIP_LONG:-}" ]; then
  long=${LONG_TOKENS:-65536}
  scripts/write-long-text.sh "$work" "$long"
  echo "== $long tokens, 8 heads: the overview (N x N in float32 would be $(mib $((long * long * 4))) a head)"
  mkdir -p "$work/out"
  measure "export --overview 1024 --heads all --format npy" "$bin" export --scenario "$work/long.json" \
    --text-file "$work/long.txt" --overview 1024 --heads all --format npy --out "$work/out/overview.npy"
  if [ -z "${SKIP_WINDOW:-}" ]; then
    measure "window, the overview of head 0 (30 frames)" env DISPLAY=:97 "$bin" --scenario "$work/long.json" \
      --text-file "$work/long.txt" --frames 30 --stats
  fi
fi
echo "== machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo), load average $(cut -d' ' -f1-3 /proc/loadavg)"
