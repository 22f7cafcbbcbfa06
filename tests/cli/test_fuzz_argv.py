"""The command-line fuzzer: argument vectors drawn from every option of the game commands,
with good values and hostile ones (signs, NaN, huge and malformed numbers, strange games and
``random:`` / ``openspiel:`` specs, empty and long text, options given twice or as ``--X=--``).

Each vector must end in exit status 0 (it ran) or 2 with one line on stderr, within seconds:
never a traceback (exit 1), a bug line (exit 70) or a hang; nothing is written outside the
test's folder. The default run tries ``RMVIZ_FUZZ_EXAMPLES`` vectors (80); a release runs::

    RMVIZ_FUZZ_EXAMPLES=3000 python -m pytest tests/cli/test_fuzz_argv.py -p no:cacheprovider

Past finds are replayed first (:data:`CORPUS`).
"""

from __future__ import annotations

import os
import time

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from rmviz.cli import main

EXAMPLES = int(os.environ.get("RMVIZ_FUZZ_EXAMPLES", "80"))
SECONDS_PER_RUN = 60.0  # a hang guard on a loaded 2-core machine; typical runs take a second

HOSTILE = [
    "",
    "-",
    "--",
    "nan",
    "inf",
    "-1",
    "0",
    "1e400",
    "9" * 400,
    "1/0",
    "x" * 300,
    "\u0663",
    "１",
    "a,b",
]
NUMBERS = ["0.5", "1", "2", "1.5", "0", "-0.5", "3"]
GAMES = [
    "rps",
    "battle-of-partners",
    "matching-pennies",
    "kuhn",
    "random:zero-sum:3x3",
    "random:general-sum:2x3x2:seed=5",
    "random:cooperative:4x4:seed=1",
    "reduced:kuhn",
    "openspiel:kuhn_poker",
]
HOSTILE_GAMES = [
    "random:zero-sum:0x3",
    "random:zero-sum:99999x99999",
    "random:zero-sum:3x3:seed=abc",
    "random:general-sum:" + "2x" * 40 + "2",
    "random::",
    "reduced:rps",
    "openspiel:nosuch_game",
    "openspiel:kuhn_poker(players=3)",
    "openspiel:kuhn_poker(players=x)",
    "no/such/file.nfg",
    *HOSTILE,
]
ALGORITHMS = [
    "rm",
    "rm+",
    "discounted-rm",
    "greedy-rm",
    "internal-rm",
    "cfr",
    "cfr+",
    "mccfr-outcome",
    "nosuch",
]
PROFILES = ["1=0.5,0.5", "1=1/3,1/3,1/3", "2=1,0,0", "3=0.5,0.5", "1=-1,2", "1=0.5", "1=", "=0.5"]


def mostly(good: list[str], hostile: list[str]) -> st.SearchStrategy[str]:
    """One of ``good`` three times in four, else one of ``hostile``."""
    return st.one_of(*[st.sampled_from(good)] * 3, st.sampled_from(hostile))


def option(flag: str, values: list[str]) -> st.SearchStrategy[list[str]]:
    """``flag`` with one of ``values`` or a hostile one, as two words or as ``flag=value``."""
    value = mostly(values, HOSTILE)
    return st.one_of(value.map(lambda v: [flag, v]), value.map(lambda v: [f"{flag}={v}"]))


RUN_OPTIONS = [
    option("-n", ["1", "3", "17", "100"]),
    option("--algorithm", ALGORITHMS),
    option("--play", ["expected", "sampled"]),
    option("--updates", ["simultaneous", "alternating"]),
    option("--seed", ["0", "7", str(2**63 - 1), str(2**63)]),
    option("--device", ["auto", "cpu", "gpu"]),
    option("--alpha", NUMBERS),
    option("--beta", NUMBERS),
    option("--gamma", NUMBERS),
    option("--floor", NUMBERS),
    option("--inertia", NUMBERS),
    option("--exploration", ["0.6", "1", "0", "2"]),
    option("--dtype", ["float32", "float64"]),
    option("--threads", ["1", "2", str(2**63)]),
    option("--fix", PROFILES),
    option("--start", PROFILES),
    st.just(["--json"]),
]
COMMANDS = {
    "solve": [*RUN_OPTIONS, option("--every", ["1", "5"]), option("--trace", ["t.csv", "t.json", "t.txt"])],
    "step": [
        *RUN_OPTIONS,
        option("--actions", ["1,1;2,2", "Rock,Paper", "draw,draw", "9,9"]),
        option("--infoset", ["0", "Q", "1pb"]),
        st.just(["--latex"]),
    ],
    "equilibria": [st.just(["--no-lp"]), st.just(["--json"])],
    "convert": [],
}


@st.composite
def argument_vectors(draw) -> list[str]:
    command = draw(st.sampled_from(sorted(COMMANDS)))
    argv = [command, draw(mostly(GAMES, HOSTILE_GAMES))]
    if command == "convert":
        argv.append(draw(st.sampled_from(["out.nfg", "out.efg", "out.json", "out.tex", "out.txt", ""])))
    for words in draw(st.lists(st.sampled_from(COMMANDS[command]), max_size=4)) if COMMANDS[command] else []:
        argv += draw(words)
    return argv


CORPUS = [  # past finds, each once a traceback or a hang
    ["solve", "rps", "--seed=--"],
    ["solve", "rps", "-n=--"],
    ["solve", "openspiel:nfg_game"],
    ["solve", "rps", "--threads", str(2**64)],
    ["solve", "random:zero-sum:" + "9" * 400 + "x2"],
    ["solve", "rps", "-a", "discounted-rm", "--alpha", "nan"],
    ["step", "rps", "--actions", "9,9"],
]


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(argv=argument_vectors())
def test_every_argument_vector_runs_or_is_refused_in_one_line(argv, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    before = set(os.listdir(tmp_path.parent))
    started = time.perf_counter()
    try:
        status = main(argv)
    except SystemExit as exit_:  # argparse's own exits (--help): the shared parser's code
        status = exit_.code
    _, error = capsys.readouterr()
    assert time.perf_counter() - started < SECONDS_PER_RUN, argv
    assert status in (0, 2), (argv, status, error)
    if status == 2:
        assert error.count("\n") == 1 and error.startswith("rmviz"), (argv, error)
        assert len(error) < 1_000, (argv, len(error))  # the input quoted briefly, not echoed
    assert set(os.listdir(tmp_path.parent)) == before  # nothing beside the test's folder


for vector in CORPUS:  # replayed before the random ones, in every run
    test_every_argument_vector_runs_or_is_refused_in_one_line = example(argv=vector)(
        test_every_argument_vector_runs_or_is_refused_in_one_line
    )
