#!/usr/bin/env bash
# Installs what attnviz needs, builds it and opens it. Arguments go to attnviz.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/build.sh release
if [ $# -eq 0 ]; then
  set -- compute --scenario preset:korean-restaurant
fi
exec ./build/release/app/attnviz "$@"
