#!/usr/bin/env bash
# Render the application icon's PNG sizes from resources/icons/rmviz.svg into the package
# (rmviz/resources/icons/rmviz-SIZE.png: the window loads them, the install script copies
# them into the hicolor theme). Needs rsvg-convert (Debian: apt-get install librsvg2-bin).
set -euo pipefail
cd "$(dirname "$0")/../.."
for size in 16 24 32 48 64 128 256 512; do
  rsvg-convert --width "$size" --height "$size" resources/icons/rmviz.svg \
    --output "rmviz/resources/icons/rmviz-$size.png"
done
ls -l rmviz/resources/icons
