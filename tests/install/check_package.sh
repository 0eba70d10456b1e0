#!/usr/bin/env bash
# The .deb as a user gets it (issue 16): built by cpack from a portable build, installed with
# apt on this machine (CI's is a fresh bookworm; as root or through sudo), then the installed
# application checked by tests/install/test_install.py against the system's own databases, and
# `attnviz --version` and `man attnviz` as a user would type them. Removed again at the end.
#   usage: tests/install/check_package.sh BUILD_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
source_dir=$(cd "$(dirname "$0")/../.." && pwd)

(cd "$build" && cpack -G DEB >/dev/null)
deb=$(ls "$build"/attnviz_*.deb)
echo "check_package: built $(basename "$deb") ($(du -h "$deb" | cut -f1))"
dpkg-deb --info "$deb" | grep -E '^ (Package|Version|Architecture|Depends|Recommends):'
contents=$(dpkg-deb --contents "$deb")
for file in ./usr/bin/attnviz ./usr/share/applications/io.github.attnviz.Attnviz.desktop \
            ./usr/share/metainfo/io.github.attnviz.Attnviz.metainfo.xml ./usr/share/mime/packages/io.github.attnviz.Attnviz.xml \
            ./usr/share/icons/hicolor/scalable/apps/io.github.attnviz.Attnviz.svg ./usr/share/man/man1/attnviz.1.gz \
            ./usr/share/locale/ko/LC_MESSAGES/attnviz.mo; do
  grep -q " $file\$" <<<"$contents" || { echo "check_package: $file is missing from $(basename "$deb")" >&2; exit 1; }
done

if [ "$(id -u)" -eq 0 ]; then as_root=(); elif command -v sudo >/dev/null; then as_root=(sudo); else
  echo "check_package: not root and no sudo: the package was built and its contents checked, but not installed" >&2
  exit 0
fi
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$deb" >/dev/null
trap '"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get remove -y -q attnviz >/dev/null' EXIT
[ "$(command -v attnviz)" = /usr/bin/attnviz ] || { echo "check_package: attnviz is not /usr/bin/attnviz on PATH" >&2; exit 1; }
attnviz --version
man -w attnviz >/dev/null || { echo "check_package: man attnviz finds no page" >&2; exit 1; }
MANWIDTH=80 man attnviz 2>&1 | grep -q 'attnviz - see how transformer attention is computed' || {
  echo "check_package: man attnviz does not show the manual" >&2; exit 1; }
ATTNVIZ_INSTALLED_PREFIX=/usr /usr/bin/python3 "$source_dir/tests/install/test_install.py" "$build" "$source_dir"
echo "check_package: $(basename "$deb") installs, runs, and opens a double-clicked scenario"
