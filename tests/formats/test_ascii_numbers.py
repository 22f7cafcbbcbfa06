"""Numbers in Gambit files are ASCII digits, as Gambit's lexer reads them (``isdigit`` in the C
locale): Arabic-Indic, fullwidth and Devanagari digits, which Python's ``\\d`` and ``int()``
take, are refused with the file's line, by the token reader and the .efg fast path alike."""

from __future__ import annotations

import pytest

from rmviz.errors import FormatError
from rmviz.formats import read_game_file

# four in Arabic-Indic, fullwidth and Devanagari digits
FOURS = {"arabic-indic": "\u0664", "fullwidth": "\uff14", "devanagari": "\u096a"}


@pytest.mark.parametrize("digit", list(FOURS.values()), ids=list(FOURS))
def test_nfg_payloads_take_ascii_digits_only(tmp_path, digit):
    path = tmp_path / "g.nfg"
    path.write_text(f'NFG 1 R "x" {{ "A" "B" }} {{ 2 2 }}\n1 2 3 {digit} 5 6 7 8\n', encoding="utf-8")
    with pytest.raises(FormatError, match="line 2"):
        read_game_file(path)


@pytest.mark.parametrize("digit", list(FOURS.values()), ids=list(FOURS))
@pytest.mark.parametrize("where", ["outcome number", "payoff", "information set number"])
def test_efg_numbers_take_ascii_digits_only(tmp_path, digit, where):
    lines = {
        "outcome number": f't "" {digit} "o" {{ 1 -1 }}',
        "payoff": f't "" 1 "o" {{ {digit} -1 }}',
        "information set number": f'p "" 2 {digit} "s" {{ "l" "r" }} 0',
    }
    body = lines[where]
    if where == "information set number":
        body += '\nt "" 1 "o" { 1 -1 }\nt "" 2 "q" { -1 1 }'
    text = f'EFG 2 R "x" {{ "A" "B" }}\np "" 1 1 "I" {{ "l" "r" }} 0\n{body}\nt "" 3 "z" {{ 0 0 }}\n'
    path = tmp_path / "g.efg"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(FormatError):
        read_game_file(path)


def test_the_same_files_in_ascii_read(tmp_path):
    path = tmp_path / "g.nfg"
    path.write_text('NFG 1 R "x" { "A" "B" } { 2 2 }\n1 2 3 4 5 6 7 8\n', encoding="utf-8")
    assert read_game_file(path).payoffs.shape == (2, 2, 2)
    path = tmp_path / "g.efg"
    path.write_text(
        'EFG 2 R "x" { "A" "B" }\np "" 1 1 "I" { "l" "r" } 0\nt "" 1 "o" { 4 -1 }\nt "" 2 "z" { 0 0 }\n',
        encoding="utf-8",
    )
    assert read_game_file(path).n_players == 2
