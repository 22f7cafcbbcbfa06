"""The reliability table: hostile files fed to ``rmviz solve FILE -n 10 --json``, as a person would.

Inputs: the hand-made corpus of tests/formats/test_hostile_files.py (one file per class of
defect), every file of tests/data, and ``--mutants`` files made by mutating valid games
(catalog games, reference Gambit files, random games and trees) with the fuzzer's mutations
(truncate, flip, delete, duplicate, hostile words). Each file goes through the CLI entry point
in this process with a time limit; the outcome is one of

* ``read``: solved, exit 0, output is valid JSON (no NaN/Infinity);
* ``refused``: exit 2 with one line on stderr naming the file;
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
import signal
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository: tests.formats

from rmviz.cli import main
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
    print(f"{'inputs':<12} {'files':>6} {'read':>6} {'refused':>8} {'crash':>6} {'hang':>5} {'changed':>8}")
    for name, counts in table.items():
        print(
            f"{name:<12} {sum(counts.values()):>6} {counts['read']:>6} {counts['refused']:>8} "
            f"{counts['crash']:>6} {counts['hang']:>5} {counts['changed']:>8}"
        )
    print(f"({time.perf_counter() - started:.0f} s, seed {args.seed})")
    bad = sum(counts[k] for counts in table.values() for k in ("crash", "hang", "changed"))
    return 1 if bad else 0


def _rewritten(path: Path) -> str:
    """The file written again from the game read from it: the same text if nothing changed."""
    with tempfile.TemporaryDirectory() as folder:
        again = Path(folder) / path.name
        write_game_file(read_game_file(path), again)
        return again.read_text()


if __name__ == "__main__":
    np.seterr(all="ignore")
    sys.exit(main_())
