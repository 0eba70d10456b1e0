#!/usr/bin/env bash
# The mechanical renames of branch core-split (core/ restructured into one library per layer),
# as sed commands over app/ and tests/, in the order they were made. Run from the repository
# root, e.g. after moving app files, to bring their include paths and namespaces in step with
# core/. Idempotent: each command only matches the old spelling, so a second run changes nothing.
# (Meant for replaying these renames once; a later "core/model" for pretrained models is a new
# folder that this script must not be run over.)
set -euo pipefail
cd "$(dirname "$0")"

# replace EXTENDED_REGEX SED_EXPRESSION: applies the expression to every file under app/ and
# tests/ that matches the regex.
replace() {
  grep -rlZE -- "$1" app tests 2>/dev/null | xargs -0 -r sed -i -E -- "$2"
}

# 1. core/model -> core/scenario (Scenario, Problem, generation, scenario JSON).
replace 'core/model/' 's#core/model/#core/scenario/#g'
replace "core/model's" "s#core/model's#core/scenario's#g"
