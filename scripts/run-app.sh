#!/usr/bin/env bash
# Installs what attnviz needs, builds it and opens the window. Arguments go to attnviz
# (e.g. --scenario preset:korean-restaurant, or a subcommand: compute, export, tokenize, ...).
# Without a display (no $DISPLAY or $WAYLAND_DISPLAY: SSH, a container, CI) it builds and then
# says how to get a picture or the numbers instead of opening a window; with --screenshot it
# runs the window in a virtual display (xvfb-run) by itself.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
# The window and command line alone: the tests and benchmarks are for scripts/run-tests.sh.
./scripts/build.sh release attnviz
binary=./build/release/app/attnviz

# A subcommand (any first argument that is not an option: attnviz itself names an unknown one)
# and --help/--version need no window.
needs_window=1
case "${1:-}" in
  --help | -h | --version) needs_window=0 ;;
  "" | -*) ;;
  *) needs_window=0 ;;
esac
screenshot=0
for arg in "$@"; do
  if [ "$arg" = "--screenshot" ]; then screenshot=1; fi
done

if [ "$needs_window" -eq 1 ] && [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  if [ "$screenshot" -eq 1 ] && command -v xvfb-run >/dev/null 2>&1; then
    echo "attnviz: no display here; drawing the screenshot in a virtual one (xvfb-run)" >&2
    exec xvfb-run -a -s "-screen 0 1920x1200x24" "$binary" "$@"
  fi
  cat >&2 <<MESSAGE
attnviz is built ($binary), but there is no display here (\$DISPLAY and \$WAYLAND_DISPLAY are
not set), so the window cannot open. Instead:
  - a picture of the window, in a virtual display:
      xvfb-run -a $binary --scenario preset:korean-restaurant --screenshot korean.png
    (or: scripts/run-app.sh --scenario preset:korean-restaurant --screenshot korean.png)
  - the numbers or figures without a window:
      $binary compute --scenario preset:korean-restaurant
      $binary export --scenario preset:korean-restaurant --out figures/
  - the window itself: run this on a desktop, or with ssh -X / -Y from one.
MESSAGE
  exit 1
fi
exec "$binary" "$@"
