#!/usr/bin/env bash
# Installs every Debian bookworm package attnviz needs to build, run and test.
# Idempotent: when everything is present it prints nothing and touches nothing.
set -euo pipefail

packages=(
  # build
  build-essential cmake ninja-build pkg-config
  # core
  libeigen3-dev nlohmann-json3-dev libstb-dev
  # Vulkan: headers, loader, shader compiler, CPU driver (lavapipe), validation layer, tools
  libvulkan-dev glslc mesa-vulkan-drivers vulkan-validationlayers vulkan-tools spirv-tools
  # window and UI
  libglfw3-dev libimgui-dev
  # fonts with Hangul for the UI and exported labels
  fonts-nanum fonts-dejavu-core
  # tests: GoogleTest, headless X server, screenshot tools
  libgtest-dev xvfb xauth x11-utils imagemagick python3-numpy
  # fuzzing (scripts/fuzz.sh): clang with libFuzzer and the sanitizer runtimes, OpenMP for clang
  clang libclang-rt-14-dev libomp-14-dev
)

missing=()
for pkg in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)
  [ "$status" = "installed" ] || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "attnviz: installing ${#missing[@]} Debian package(s): ${missing[*]}" >&2
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
