#!/usr/bin/env bash
# Install the rmviz bundle for this user: run from the bundle (dist/rmviz/install.sh).
#
#   ~/.local/lib/rmviz/                 the bundle (a copy; --uninstall removes it)
#   ~/.local/bin/rmviz                  a link to its executable
#   ~/.local/share/applications/io.github.rmviz.rmviz.desktop
#   ~/.local/share/icons/hicolor/SIZExSIZE/apps/io.github.rmviz.rmviz.png (16..512), scalable SVG
#   ~/.local/share/metainfo/io.github.rmviz.rmviz.metainfo.xml
#
#   ./install.sh [--uninstall]     PREFIX=/some/where ./install.sh  (default ~/.local)
set -euo pipefail
bundle="$(cd "$(dirname "$0")" && pwd)"
prefix="${PREFIX:-$HOME/.local}"
app=io.github.rmviz.rmviz
data="$prefix/share"
icons="$data/icons/hicolor"
sizes="16 24 32 48 64 128 256 512"

uninstall() {
  rm -rf "$prefix/lib/rmviz"
  rm -f "$prefix/bin/rmviz" "$data/applications/$app.desktop" "$data/metainfo/$app.metainfo.xml" \
    "$icons/scalable/apps/$app.svg"
  for size in $sizes; do rm -f "$icons/${size}x${size}/apps/$app.png"; done
}

refresh() {  # the desktop's caches, where the tools are installed
  command -v update-desktop-database >/dev/null && update-desktop-database -q "$data/applications" || true
  command -v gtk-update-icon-cache >/dev/null && gtk-update-icon-cache -q -t "$icons" || true
}

if [ "${1:-}" = "--uninstall" ]; then
  uninstall
  refresh
  echo "rmviz removed from $prefix"
  exit 0
fi
[ -x "$bundle/rmviz" ] && [ -d "$bundle/share" ] || { echo "install.sh: run it from the built bundle (dist/rmviz)" >&2; exit 2; }
[ "$bundle" != "$(cd "$prefix" 2>/dev/null && pwd)/lib/rmviz" ] || { echo "install.sh: this is the installed copy; run the one in dist/rmviz" >&2; exit 2; }

uninstall
mkdir -p "$prefix/lib" "$prefix/bin" "$data/applications" "$data/metainfo" "$icons/scalable/apps"
cp -a "$bundle" "$prefix/lib/rmviz"
ln -s "$prefix/lib/rmviz/rmviz" "$prefix/bin/rmviz"
# Exec and TryExec by full path: ~/.local/bin is not on every desktop session's PATH
sed -e "s|^Exec=rmviz|Exec=$prefix/lib/rmviz/rmviz|" -e "s|^TryExec=rmviz|TryExec=$prefix/lib/rmviz/rmviz|" \
  "$bundle/share/$app.desktop" > "$data/applications/$app.desktop"
install -m 644 "$bundle/share/$app.metainfo.xml" "$data/metainfo/$app.metainfo.xml"
install -m 644 "$bundle/share/icons/rmviz.svg" "$icons/scalable/apps/$app.svg"
for size in $sizes; do
  install -D -m 644 "$bundle/share/icons/rmviz-$size.png" "$icons/${size}x${size}/apps/$app.png"
done
refresh
echo "rmviz installed: $prefix/bin/rmviz, and in the desktop's application menu"
