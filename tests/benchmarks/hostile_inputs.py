"""The reliability table: hostile input on every surface, fed as a person would.

Game files go to ``rmviz solve FILE -n 10 --json``: the hand-made corpus of
tests/formats/test_hostile_files.py (one file per class of defect), every file of tests/data,
and ``--mutants`` files made by mutating valid games (catalog games, reference Gambit files,
random games and trees) with the fuzzer's mutations (truncate, flip, delete, duplicate,
hostile words). The other surfaces get ``--mutants // 5`` inputs each: game names (``rmviz
solve NAME``), command lines (the argument-vector fuzzer's, ``tests/cli/test_fuzz_argv.py``),
session files with their saved runs (read, then restored as the window restores them), sweep
configs and lecture decks (read and checked whole, as ``rmviz sweep`` and ``rmviz deck`` do
before anything is written). Each input runs in this process with a time limit; the outcome
is one of

* ``read``: solved, exit 0, output is valid JSON (no NaN/Infinity);
* ``refused``: exit 2 with one line on stderr naming the file (files; a reader's one-line
  ``RmvizError`` naming it);
* ``crash``: any other exception or exit status, or more than one line of error;
* ``hang``: past ``--seconds``;
* ``changed``: an unmutated file that does not read back as the game written.

    python tests/benchmarks/hostile_inputs.py [--mutants 5000] [--seconds 30] [--seed 0]

docs/reliability.md records the table with the command that produced it.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import shutil
import signal
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository: tests.formats

from rmviz.cli import main
from rmviz.errors import ReadError, RmvizError
from rmviz.formats import read_game_file, write_game_file
from rmviz.games.catalog import CATALOG, catalog_game
from rmviz.games.extensive_form import ExtensiveFormGame
from rmviz.games.generators import random_game
from tests.formats.strategies import mutate
from tests.formats.test_hostile_files import HOSTILE

DATA = Path(__file__).resolve().parents[1] / "data"
EXTENSIONS = {"read_nfg": ".nfg", "read_efg": ".efg", "read_json": ".json"}


class Hang(Exception):
    pass


def _alarm(*_: object) -> None:
    raise Hang


def solve(path: Path, seconds: int) -> str:
    """The outcome of ``rmviz solve PATH -n 10 --json``."""
    out, err = io.StringIO(), io.StringIO()
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(seconds)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(["solve", str(path), "-n", "10", "--json"])
    except Hang:
        return "hang"
    except SystemExit as exit_:
        status = exit_.code
    except BaseException as error:  # what the table counts
        print(f"  crash {path.name}: {type(error).__name__}: {str(error)[:200]}", file=sys.stderr)
        return "crash"
    finally:
        signal.alarm(0)
    lines = err.getvalue().splitlines()
    if status == 2 and len(lines) == 1 and path.name in lines[0]:
        return "refused"
    if status == 0:
        try:
            json.loads(out.getvalue(), parse_constant=lambda name: (_ for _ in ()).throw(ValueError(name)))
        except ValueError:
            print(f"  crash {path.name}: --json printed invalid JSON", file=sys.stderr)
            return "crash"
        return "read"
    print(f"  crash {path.name}: exit {status}: {err.getvalue()[:300]!r}", file=sys.stderr)
    return "crash"


def outcome(call, seconds: int, name: str) -> str:
    """The outcome of ``call()`` (a reader or the CLI through :func:`cli`): ``read`` when it
    returns, ``refused`` when it raises one line of RmvizError naming ``name``."""
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(seconds)
    try:
        call()
    except Hang:
        return "hang"
    except RmvizError as error:
        if "\n" in str(error) or name not in str(error):
            print(f"  crash {name}: not one line naming it: {str(error)[:200]!r}", file=sys.stderr)
            return "crash"
        return "refused"
    except BaseException as error:
        print(f"  crash {name}: {type(error).__name__}: {str(error)[:200]}", file=sys.stderr)
        return "crash"
    finally:
        signal.alarm(0)
    return "read"


def cli(argv: list[str], seconds: int) -> str:
    """The outcome of the command line ``argv``: exit 0 ``read``, exit 2 with one line
    ``refused``, anything else a crash."""
    err = io.StringIO()
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(seconds)
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            status = main(argv)
    except Hang:
        return "hang"
    except SystemExit as exit_:
        status = exit_.code
    except BaseException as error:
        print(f"  crash {argv}: {type(error).__name__}: {str(error)[:200]}", file=sys.stderr)
        return "crash"
    finally:
        signal.alarm(0)
    if status == 0:
        return "read"
    if status == 2 and err.getvalue().count("\n") == 1:
        return "refused"
    print(f"  crash {str(argv)[:200]}: exit {status}: {err.getvalue()[:300]!r}", file=sys.stderr)
    return "crash"


def session_texts() -> list[str]:
    """Session files to mutate: a matrix run (sampled play) and a tree run, with their runs."""
    from rmviz.formats.rmviz_json import dumps_json
    from rmviz.runner.record import record_run
    from rmviz.runner.session import Session, session_to_dict
    from rmviz.runner.trace import SavedRun
    from rmviz.solvers.registry import family_of

    texts = []
    for game, algorithm, options in (
        (catalog_game("rps"), "rm+", {"play": "sampled", "seed": 3}),
        (catalog_game("kuhn"), "mccfr-external", {"seed": 1}),
    ):
        family = family_of(game)
        config = family.config(algorithm, **options)
        solver = family.solver(game, config)
        trace = record_run(solver, 30)
        saved = SavedRun(solver.checkpoint(), *trace.kept())
        texts.append(dumps_json(session_to_dict(Session(game, config, 30, saved=saved))))
    return texts


def reopen(path: Path) -> None:
    """Read a session and put its run back into a run loop, as the window does."""
    from rmviz.runner.loop import RunLoop
    from rmviz.runner.session import read_session

    session = read_session(path)
    loop = RunLoop(session.family.solver(session.game, session.config))
    if session.saved is not None:
        try:
            loop.restore(session.saved)
        except (RmvizError, ValueError) as error:  # the window says it in one line, naming the file
            raise ReadError(str(path), str(error)) from None
    loop.solver.step(2)


def originals() -> list[tuple[str, object]]:
    """Valid games to mutate: the catalog, the shipped Gambit files, random games."""
    games: list[tuple[str, object]] = [(game_id, catalog_game(game_id)) for game_id in CATALOG]
    games += [
        (path.stem, read_game_file(path))
        for path in sorted(DATA.rglob("*"))
        if path.suffix in (".nfg", ".efg")
    ]
    games += [(f"random{k}", random_game("general-sum", (3, 4), seed=k)) for k in range(3)]
    return games


def main_(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mutants", type=int, default=2000)
    parser.add_argument("--seconds", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    table: dict[str, Counter[str]] = {
        "corpus": Counter(),
        "shipped": Counter(),
        "round trip": Counter(),
        "mutants": Counter(),
        "game names": Counter(),
        "command lines": Counter(),
        "sessions": Counter(),
        "sweep configs": Counter(),
        "decks": Counter(),
    }
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        for k, (reader, text, _) in enumerate(HOSTILE.values()):
            path = root / f"corpus{k}{EXTENSIONS[reader.__name__]}"
            path.write_text(text, encoding="utf-8")
            table["corpus"][solve(path, args.seconds)] += 1
        for path in sorted(DATA.rglob("*")):
            if path.suffix in (".nfg", ".efg", ".json"):
                table["shipped"][solve(path, args.seconds)] += 1
        games = originals()
        texts = []
        for name, game in games:
            for suffix in (
                (".json", ".efg") if isinstance(game, ExtensiveFormGame) else (".json", ".efg", ".nfg")
            ):
                path = root / f"{name}{suffix}"
                write_game_file(game, path)
                same = _rewritten(path) == path.read_text(encoding="utf-8")
                table["round trip"]["read" if same else "changed"] += 1
                texts.append((suffix, path.read_text(encoding="utf-8")))
        for k in range(args.mutants):
            suffix, text = rng.choice(texts)
            path = root / f"mutant{k}{suffix}"
            path.write_text(mutate(text, rng), encoding="utf-8", errors="surrogatepass")
            table["mutants"][solve(path, args.seconds)] += 1
            path.unlink()
        surfaces(root, rng, max(1, args.mutants // 5), args.seconds, table)
    print(f"{'inputs':<14} {'files':>6} {'read':>6} {'refused':>8} {'crash':>6} {'hang':>5} {'changed':>8}")
    for name, counts in table.items():
        print(
            f"{name:<14} {sum(counts.values()):>6} {counts['read']:>6} {counts['refused']:>8} "
            f"{counts['crash']:>6} {counts['hang']:>5} {counts['changed']:>8}"
        )
    print(f"({time.perf_counter() - started:.0f} s, seed {args.seed})")
    bad = sum(counts[k] for counts in table.values() for k in ("crash", "hang", "changed"))
    return 1 if bad else 0


def surfaces(
    root: Path, rng: random.Random, count: int, seconds: int, table: dict[str, Counter[str]]
) -> None:
    """``count`` hostile inputs on each surface besides game files (module docstring)."""
    import warnings

    from hypothesis.errors import NonInteractiveExampleWarning

    from rmviz.runner.deck import read_deck
    from rmviz.sweep.config import load_config
    from tests.cli.test_fuzz_argv import argument_vectors
    from tests.formats.test_fuzz_specs import CORPUS, NAMES, not_too_large
    from tests.sweep.test_fuzz_configs import SOURCES

    shipped = Path(__file__).resolve().parents[2] / "rmviz" / "examples" / "decks"
    shutil.copytree(shipped, root / "decks")  # a deck's sessions are beside it: mutants too
    decks = sorted((root / "decks").glob("*.toml"))
    kinds = {
        "sessions": (session_texts(), ".rmviz-session.json", reopen),
        "sweep configs": (SOURCES, ".toml", load_config),
        "decks": ([path.read_text() for path in decks], ".toml", read_deck),
    }
    for k in range(count):
        name = CORPUS[k] if k < len(CORPUS) else mutate(rng.choice(NAMES), rng)
        if not_too_large(name):  # a random: game of 10^8 payoffs is a long run, not hostile
            table["game names"][cli(["solve", name, "-n", "10", "--json"], seconds)] += 1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NonInteractiveExampleWarning)
        vectors = [argument_vectors().example() for _ in range(count)]
    with contextlib.chdir(root):
        for argv in vectors:
            table["command lines"][cli(argv, seconds)] += 1
    for surface, (texts, suffix, read) in kinds.items():
        for k in range(count if texts else 0):
            path = root / f"{surface.replace(' ', '-')}{k}{suffix}"
            if surface == "decks":
                path = root / "decks" / f"hostile{k}{suffix}"
            path.write_text(mutate(rng.choice(texts), rng), encoding="utf-8", errors="surrogatepass")
            try:
                table[surface][outcome(lambda p=path, r=read: r(p), seconds, str(path))] += 1
            finally:
                path.unlink()


def _rewritten(path: Path) -> str:
    """The file written again from the game read from it: the same text if nothing changed."""
    with tempfile.TemporaryDirectory() as folder:
        again = Path(folder) / path.name
        write_game_file(read_game_file(path), again)
        return again.read_text()


if __name__ == "__main__":
    np.seterr(all="ignore")
    sys.exit(main_())
