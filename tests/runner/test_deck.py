"""Lecture decks, Qt-free: every field of a slide checked with one line naming the file, the
slide and the field; writing and reading back gives the same sessions; the shipped decks read."""

from __future__ import annotations

import tomllib

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rmviz.errors import ReadError
from rmviz.examples import example_path, examples
from rmviz.games import catalog_game
from rmviz.runner.deck import MAX_DECK_BYTES, read_deck
from rmviz.runner.deck_writer import session_files, toml_string, write_deck
from rmviz.runner.session import Session, View, session_to_dict, write_session
from rmviz.solvers.matrix.script import advance, parse_script
from rmviz.solvers.registry import MATRIX, TREE

GOOD = """
title = "A lecture"
[[slide]]
title = "RPS"
notes = "line one\\nline two"
game = "rps"
algorithm = "discounted-rm"
iterations = 100
tab = "compare"
compared = ["rm", "rm+"]
joint = "1, 0, 0, 0, 1, 0, 0, 0, 1"
text_steps = 1
[slide.options]
play = "sampled"
seed = 7
alpha = 2
start = {"0" = [0.5, 0.25, 0.25]}

[[slide]]
title = "Kuhn"
game = "kuhn"
algorithm = "cfr+"
iterations = 10
infoset = "Kb"
side_tab = "average"
recorded = true
"""


def write(tmp_path, text, name="deck.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_deck_becomes_one_session_per_slide(tmp_path):
    deck = read_deck(write(tmp_path, GOOD))
    assert deck.title == "A lecture" and [s.title for s in deck.slides] == ["RPS", "Kuhn"]
    rps, kuhn = (slide.session for slide in deck.slides)
    assert deck.slides[0].notes == "line one\nline two"
    config = MATRIX.config("discounted-rm", play="sampled", seed=7, alpha=2.0, start={0: (0.5, 0.25, 0.25)})
    assert rps.config == config
    assert rps.iteration == 100 and rps.game.title == catalog_game("rps").title
    assert rps.view.tab == "compare" and rps.view.compared == ("rm", "rm+") and rps.view.presentation
    assert rps.view.text_steps == 1 and rps.view.joint == "1, 0, 0, 0, 1, 0, 0, 0, 1"
    assert kuhn.config == TREE.config("cfr+") and kuhn.iteration == 10
    assert (kuhn.view.infoset, kuhn.view.side_tab, kuhn.view.recorded) == ("Kb", "average", True)


LECTURE_SCRIPT = (
    "Cinema,Dancing; Dancing,Cinema; Cinema,Dancing; Cinema,Cinema; Cinema,Dancing; Cinema,Cinema"
)
SCRIPTED = f"""[[slide]]
title = "Cat and Dee"
game = "battle-of-partners"
algorithm = "rm"
iterations = 9
tab = "step"
script = "{LECTURE_SCRIPT}"
[slide.options]
play = "sampled"
seed = 2
"""


def test_a_scripted_slide_holds_the_run_its_script_draws(tmp_path):
    """The lecture's six rounds as a slide: the session holds the run (made when the deck is
    read) whose first six iterations drew the script, then three at random, as the Step tab
    draws; and the script, so the tab explains them as they ran."""
    (slide,) = read_deck(write(tmp_path, SCRIPTED)).slides
    session = slide.session
    assert session.iteration == 9 and session.saved is not None
    assert session.view.script[3] == ("Cinema", "Cinema") and len(session.view.script) == 6
    game = catalog_game("battle-of-partners")
    by_hand = MATRIX.solver(game, session.config)
    advance(by_hand, 9, dict(enumerate(parse_script(game, LECTURE_SCRIPT), start=1)))
    saved, expected = session.saved.checkpoint, by_hand.checkpoint()
    assert saved.iteration == 9 and saved.rng == expected.rng
    assert all(np.array_equal(saved.arrays[name], array) for name, array in expected.arrays.items())
    assert list(session.saved.trace_iterations) == list(range(1, 10))


def test_the_shipped_decks_battle_of_the_partners_slide_draws_the_lectures_rounds():
    (deck,) = [e for e in examples("decks") if e.filename == "seeds.toml"]
    with example_path(deck) as path:
        slides = read_deck(path).slides
    (battle,) = [s.session for s in slides if s.session.view.script]
    assert " ".join(",".join(p) for p in battle.view.script) == LECTURE_SCRIPT.replace("; ", " ")


def test_a_session_slide_reads_its_file_beside_the_deck(tmp_path):
    session = Session(catalog_game("matching-pennies"), MATRIX.config("rm", seed=3), 42, view=View(tab="run"))
    (tmp_path / "runs").mkdir()
    write_session(session, tmp_path / "runs" / "pennies.rmviz-session.json")
    deck = read_deck(write(tmp_path, '[[slide]]\ntitle = "P"\nsession = "runs/pennies.rmviz-session.json"\n'))
    (slide,) = deck.slides
    assert slide.source == tmp_path / "runs" / "pennies.rmviz-session.json"
    assert session_to_dict(slide.session) == session_to_dict(session)


def test_a_game_file_is_found_beside_the_deck(tmp_path):
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "g.nfg").write_text(
        'NFG 1 R "two by two" { "A" "B" } { 2 2 }\n1 -1 -1 1 -1 1 1 -1\n', encoding="utf-8"
    )
    deck = read_deck(write(tmp_path, '[[slide]]\ntitle = "G"\ngame = "games/g.nfg"\n'))
    assert deck.slides[0].session.game.title == "two by two"


SLIDE = '[[slide]]\ntitle = "S"\ngame = "rps"\n'
KUHN = '[[slide]]\ntitle = "S"\ngame = "kuhn"\n'
BAD = {
    "not TOML": ("[[slide]\n", "not TOML"),
    "a script on a tree": (KUHN + 'script = "p"\n', "script chooses the Step tab's draws of a matrix game"),
    "a script in expected play": (
        '[[slide]]\ntitle = "S"\ngame = "rps"\nscript = "Rock,Paper"\n',
        "script: scripted actions need sampled play",
    ),
    "a script naming no action": (
        '[[slide]]\ntitle = "S"\ngame = "rps"\nscript = "Rock,Lizard"\n[slide.options]\nplay = "sampled"\n',
        "script:",
    ),
    "an integer of 5,000 digits": ("x = " + "9" * 5000 + "\n", "not TOML: Exceeds the limit (4300 digits)"),
    "unknown deck key": ('colour = "red"\n' + SLIDE, "unknown key 'colour'; a deck has title, slide"),
    "deck title not a string": ("title = 3\n" + SLIDE, "title must be a string"),
    "no slides": ('title = "empty"\n', "a deck needs its slides"),
    "slide not a table": ("slide = [1, 2]\n", "a deck needs its slides"),
    "no title": ('[[slide]]\ngame = "rps"\n', "slide 1: title must be a non-empty string, not None"),
    "blank title": ('[[slide]]\ntitle = "  "\ngame = "rps"\n', "slide 1: title must be a non-empty string"),
    "long title": (
        f'[[slide]]\ntitle = "{"x" * 201}"\ngame = "rps"\n',
        "title is 201 characters long; at most 200",
    ),
    "notes not text": (SLIDE + "notes = 3\n", "slide 1 ('S'): notes must be a string, not 3"),
    "neither game nor session": ('[[slide]]\ntitle = "S"\n', "give either session"),
    "both game and session": (SLIDE + 'session = "x.rmviz-session.json"\n', "give either session"),
    "unknown slide key": (SLIDE + "speed = 3\n", "unknown key 'speed'; a game slide has title"),
    "game key on a session slide": (
        '[[slide]]\ntitle = "S"\nsession = "x.rmviz-session.json"\niterations = 3\n',
        "unknown key 'iterations'; a session slide has title, notes, session",
    ),
    "missing session file": ('[[slide]]\ntitle = "S"\nsession = "x.rmviz-session.json"\n', "no such file"),
    "unknown game": ('[[slide]]\ntitle = "S"\ngame = "no-such-game"\n', "no-such-game"),
    "game not a string": ('[[slide]]\ntitle = "S"\ngame = 3\n', "game must be a non-empty string, not 3"),
    "unknown algorithm": (SLIDE + 'algorithm = "cfr"\n', "algorithm is 'cfr'; matrix games are solved by rm"),
    "iterations negative": (SLIDE + "iterations = -1\n", "iterations must be a whole number from 0 to"),
    "iterations fractional": (SLIDE + "iterations = 1.5\n", "iterations must be a whole number from 0"),
    "iterations boolean": (SLIDE + "iterations = true\n", "iterations must be a whole number from 0"),
    "unknown tab": (SLIDE + 'tab = "slides"\n', "tab is 'slides'; choose one of run, compare"),
    "text steps out of range": (
        SLIDE + "text_steps = 99\n",
        "text_steps must be a whole number from -50 to 50",
    ),
    "side tab": (KUHN + 'side_tab = "left"\n', "side_tab is 'left'; choose one of infoset, average"),
    "infoset of a matrix game": (
        SLIDE + 'infoset = "J"\n',
        "infoset names an information set of a game tree",
    ),
    "unknown infoset": (KUHN + 'infoset = "Z"\n', "infoset is 'Z'; the tree's information sets are"),
    "recorded not a flag": (KUHN + 'recorded = "yes"\n', "recorded must be true or false, not 'yes'"),
    "recorded on a matrix game": (SLIDE + "recorded = true\n", "recorded shows a game tree's last iteration"),
    "joint of a tree": (KUHN + 'joint = "1"\n', "joint is a matrix game's joint distribution"),
    "joint of the wrong size": (
        SLIDE + 'joint = "1, 0"\n',
        "joint: a joint distribution of this 3x3 game has 9",
    ),
    "compared not a list": (
        SLIDE + 'compared = "rm"\n',
        "compared must be a list of matrix games' algorithms",
    ),
    "compared of another family": (
        SLIDE + 'compared = ["cfr"]\n',
        "compared must be a list of matrix games'",
    ),
    "compared twice": (SLIDE + 'compared = ["rm", "rm"]\n', "compared names an algorithm twice"),
    "options not a table": (SLIDE + "options = 3\n", "options must be a table"),
    "unknown option": (
        SLIDE + "[slide.options]\nplus = true\n",
        "options has 'plus'; matrix games take play",
    ),
    "tree option on a matrix game": (
        SLIDE + "[slide.options]\nexploration = 0.5\n",
        "options has 'exploration'; matrix games take",
    ),
    "seed a string": (SLIDE + '[slide.options]\nseed = "3"\n', "options.seed must be a whole number from 0"),
    "seed negative": (SLIDE + "[slide.options]\nseed = -3\n", "options.seed must be a whole number from 0"),
    "alpha a string": (SLIDE + '[slide.options]\nalpha = "x"\n', "options.alpha must be a number, not 'x'"),
    "alpha a flag": (SLIDE + "[slide.options]\nalpha = true\n", "options.alpha must be a number, not True"),
    "play a number": (SLIDE + "[slide.options]\nplay = 1\n", "options.play must be a string, not 1"),
    "play unknown": (SLIDE + '[slide.options]\nplay = "often"\n', "unknown play 'often'"),
    "start not a table": (SLIDE + "[slide.options]\nstart = [1, 0, 0]\n", "options.start must be a table"),
    "start of a player 9": (
        SLIDE + '[slide.options]\nstart = {"9" = [1, 0, 0]}\n',
        "players are numbered 0 to 7",
    ),
    "start not numbers": (
        SLIDE + '[slide.options]\nstart = {"0" = ["a"]}\n',
        "options.start.0 must be a list of probabilities",
    ),
    "second slide named": (
        SLIDE + '[[slide]]\ntitle = "Two"\ngame = "rps"\ntab = 3\n',
        "slide 2 ('Two'): tab is 3",
    ),
}


@pytest.mark.parametrize("case", BAD)
def test_a_bad_deck_is_refused_naming_the_file_the_slide_and_the_field(tmp_path, case):
    text, expected = BAD[case]
    path = write(tmp_path, text)
    with pytest.raises(ReadError) as error:
        read_deck(path)
    message = str(error.value)
    assert message.startswith(f"{path}: ") and "\n" not in message
    assert expected in message


def test_a_deck_must_be_a_regular_file_of_bounded_size(tmp_path):
    with pytest.raises(ReadError, match="no such file"):
        read_deck(tmp_path / "missing.toml")
    (tmp_path / "folder.toml").mkdir()
    with pytest.raises(ReadError, match=r"folder\.toml"):
        read_deck(tmp_path / "folder.toml")
    big = write(tmp_path, "# " + "x" * MAX_DECK_BYTES + "\n" + SLIDE)
    with pytest.raises(ReadError, match="a deck file is at most"):
        read_deck(big)


@given(st.text())
def test_any_string_is_written_as_toml_that_reads_back(text):
    assert tomllib.loads(f"key = {toml_string(text)}")["key"] == text


def test_a_written_deck_reads_back_as_the_same_sessions(tmp_path):
    sessions = [
        Session(
            catalog_game("rps"), MATRIX.config("rm+", play="sampled", seed=5), 123, view=View(tab="step")
        ),
        Session(catalog_game("kuhn"), TREE.config("cfr"), 7, view=View(infoset="Qb", presentation=True)),
    ]
    slides = [('Say "hi"\\', "notes\n\ttabbed \x7f", sessions[0]), ("Kuhn", "", sessions[1])]
    path = write_deck(tmp_path / "lecture", slides, title="Week 3")
    assert path == tmp_path / "lecture.toml"
    assert [f.exists() for f in session_files(path, 2)] == [True, True]
    deck = read_deck(path)
    assert deck.title == "Week 3"
    assert [(s.title, s.notes) for s in deck.slides] == [(t, n) for t, n, _ in slides]
    for slide, session in zip(deck.slides, sessions, strict=True):
        assert session_to_dict(slide.session) == session_to_dict(session)


def test_the_shipped_decks_read():
    decks = examples("decks")
    assert decks, "rmviz ships a deck of the seeds' worked examples"
    for example in decks:
        with example_path(example) as path:
            deck = read_deck(path)
        assert len(deck.slides) >= 5 and all(slide.notes for slide in deck.slides)


def test_the_shipped_decks_crash_slide_quotes_its_own_runs_regret_bound():
    """Its notes promised "2 max R / T is below 0.03, as the snippet prints" at 500
    iterations, where the slide's run reads 0.068: the notes quote the run's own bound, and
    when regret matching passes the snippet's 0.03."""
    from rmviz.solvers.matrix.config import preset
    from rmviz.solvers.matrix.solver import RegretMinimizer

    (deck,) = [e for e in examples("decks") if e.filename == "seeds.toml"]
    with example_path(deck) as path:
        slides = read_deck(path).slides
    (crash,) = [s for s in slides if s.title.startswith("RPS with Crash")]
    solver = RegretMinimizer(crash.session.game, crash.session.config)
    assert crash.session.config == preset("rm") and crash.session.iteration == 500
    solver.step(500)
    notes = " ".join(crash.notes.split())
    assert f"reads {solver.metrics().eps_bound:.3f}" in notes
    assert "passes 0.03 only between 2,000 and 3,000 iterations" in notes
    solver.step(1500)
    assert solver.metrics().eps_bound > 0.03
    solver.step(1000)
    assert solver.metrics().eps_bound < 0.03
