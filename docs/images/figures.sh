#!/usr/bin/env bash
# Regenerates the figures of docs/user-guide.md ("Figures for lectures") with rmviz export;
# the TikZ pictures need pdflatex and pdftoppm. Run from the repository root:
#   bash docs/images/figures.sh            (RMVIZ="python -m rmviz.cli" for a checkout)
set -euo pipefail
rmviz=${RMVIZ:-rmviz}
out=docs/images
export_figure() { $rmviz export --style paper --dpi 110 "$@"; }  # a later --dpi wins

export_figure rps-crash -a predictive-rm+ -n 100000 --figure gaps --size 900x500 --out $out/export-gaps.svg
export_figure rps-crash -a rm -n 2000 --figure strategies --out $out/figure-strategies.png
export_figure rps-crash -a rm -n 2000 --figure regrets --out $out/figure-regrets.png
export_figure battle-of-partners -a rm -n 5000 --play sampled --figure welfare --out $out/figure-welfare.png
export_figure rps-crash -a rm -n 2000 --figure simplex --out $out/figure-simplex.png
export_figure rps -a hedge --step-size 0.5 -n 100 --start 1=0.6,0.3,0.1 --start 2=0.2,0.3,0.5 --figure simplex --field --field-step 1 --out $out/figure-dynamics.png
export_figure battle-of-partners -a rm -n 5000 --play sampled --figure joint --out $out/figure-joint.png
export_figure rps-crash -a rm -n 2000 --figure dashboard --out $out/figure-dashboard.png
export_figure rps-crash -a rm,rm+,predictive-rm+,greedy-rm -n 10000 --figure compare --out $out/figure-compare.png
export_figure rps-crash -a hedge,optimistic-hedge --step-size 0.5 -n 10000 --figure compare --out $out/figure-last-iterate.png
export_figure kuhn -a cfr+ -n 1000 --figure gaps --out $out/figure-kuhn-gaps.png
export_figure kuhn -a cfr+ -n 1000 --figure strategies --out $out/figure-kuhn-strategies.png
export_figure kuhn -a cfr+ -n 1000 --figure tree --dpi 250 --out $out/figure-kuhn-tree.png  # a beamer frame's width

tmp=$(mktemp -d)
$rmviz convert rps-crash "$tmp/rps-crash.tex"
$rmviz export kuhn -a cfr+ -n 1000 --figure tikz --out "$tmp/kuhn.tex"
for name in rps-crash kuhn; do
  (cd "$tmp" && pdflatex -interaction=nonstopmode -halt-on-error "$name.tex" >/dev/null)
  pdftoppm -r 110 -png -singlefile "$tmp/$name.pdf" "$out/tikz-$name"
done
rm -rf "$tmp"
