#!/usr/bin/env bash
# Trains the models attnviz ships (assets/models/, docs/design.md "Bundled models") with fixed
# seeds, so that anyone can make them again and compare:
#   kjv-chars   a character-level (byte-level) GPT-2 on the King James Bible, from Debian's
#               bible-kjv-text (public domain: the translation of 1611), read out with the
#               bible program of bible-kjv.
# Needs a release build (scripts/build.sh release attnviz) and `sudo apt-get install bible-kjv
# bible-kjv-text`. Writes assets/models/NAME/ (the model folder without the optimiser's state).
# usage: scripts/train-bundled-models.sh [--threads N]
set -euo pipefail
cd "$(dirname "$0")/.."
threads=1  # one thread: the same weights bit for bit on the same build
[ "${1:-}" = --threads ] && threads=$2
attnviz=build/release/app/attnviz
[ -x "$attnviz" ] || { echo "train-bundled-models: build it first: scripts/build.sh release attnviz" >&2; exit 1; }
command -v bible >/dev/null || {
  echo "train-bundled-models: the King James text comes from Debian: sudo apt-get install bible-kjv bible-kjv-text" >&2
  exit 1
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The whole text, one verse a line, without the references ("Ge1:1 ").
bible -f "gen1:1-rev22:21" | sed -E 's/^[1-3]?[A-Za-z]+[0-9]+:[0-9]+ //' >"$work/kjv.txt"
echo "kjv.txt: $(wc -c <"$work/kjv.txt") bytes"

keep_model() {  # the model folder, without what only resuming needs
  local from=$1 to=$2
  rm -rf "$to"
  mkdir -p "$to"
  cp "$from"/{config.json,model.safetensors,vocab.json,merges.txt,task.json,training.jsonl} "$to"/
}

threads_option=(--threads "$threads")
"$attnviz" train --task text --text-file "$work/kjv.txt" --out "$work/kjv-chars" --layers 2 --heads 4 --d-model 64 \
  --context 128 --batch 16 --steps 3000 --seed 1 "${threads_option[@]}"
keep_model "$work/kjv-chars" assets/models/kjv-chars
echo "Character-level GPT-2 (2 layers × 4 heads, d_model 64, 128 bytes of context) trained on the King James Bible: 3,000 steps" \
  >assets/models/kjv-chars/about.txt
echo "킹 제임스 성경으로 학습한 문자 단위 GPT-2 (2 레이어 × 4 헤드, d_model 64, 컨텍스트 128바이트): 3,000 스텝" \
  >assets/models/kjv-chars/about.ko.txt
echo "And God said, Let there be light: and there was light." >assets/models/kjv-chars/sample.txt
echo "written: assets/models/kjv-chars ($(du -sh assets/models/kjv-chars | cut -f1))"
