#!/usr/bin/env bash
# Build the one-folder bundle dist/rmviz: a fresh venv, a normal (non-editable) install of
# this checkout and PyInstaller, then the desktop files and install.sh beside the
# executable. Takes a few minutes; see docs/packaging.md.
#
#   packaging/build.sh            # -> dist/rmviz/rmviz, dist/rmviz/install.sh
#   PYTHON=python3.12 packaging/build.sh
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$repo/build/bundle"
dist="$repo/dist"
python="${PYTHON:-python3}"
started=$(date +%s)

rm -rf "$work" "$dist/rmviz"
mkdir -p "$work"
"$python" -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet --upgrade pip
# a wheel built from the checkout, installed like any user's: no editable paths, package data
"$work/venv/bin/pip" install --quiet "$repo" "pyinstaller>=6.10"
installed="$(cd "$work" && "$work/venv/bin/python" -c 'import rmviz, os; print(os.path.dirname(rmviz.__file__))')"
case "$installed" in
  "$work/venv/"*) ;;
  *) echo "build.sh: rmviz resolves to $installed, not the fresh venv" >&2; exit 1 ;;
esac

(cd "$work" && "$work/venv/bin/pyinstaller" --noconfirm --clean --log-level WARN \
  --distpath "$dist" --workpath "$work/pyinstaller" "$repo/packaging/rmviz.spec")

# what install.sh puts under ~/.local/share, and install.sh itself (the examples are package
# data inside the bundle: rmviz examples --copy DIR)
share="$dist/rmviz/share"
mkdir -p "$share/icons"
cp "$repo"/resources/io.github.rmviz.rmviz.desktop "$repo"/resources/io.github.rmviz.rmviz.metainfo.xml "$share/"
cp "$repo"/resources/icons/rmviz.svg "$repo"/rmviz/resources/icons/rmviz-*.png "$share/icons/"
install -m 755 "$repo/packaging/install.sh" "$dist/rmviz/install.sh"

echo "built $dist/rmviz in $(( $(date +%s) - started )) s, $(du -sh "$dist/rmviz" | cut -f1)"
