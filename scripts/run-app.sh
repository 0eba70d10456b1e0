#!/usr/bin/env bash
# Installs what attnviz needs, builds it and opens the window. Arguments go to attnviz
# (e.g. --scenario preset:korean-restaurant, or a subcommand: compute, export, devices).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/build.sh release
exec ./build/release/app/attnviz "$@"
