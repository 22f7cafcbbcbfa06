"""The sweep-config fuzzer: the shipped configs and hand-made ones, mutated as the file fuzzer
mutates game files (truncations, flipped characters, hostile words: ``1e400``, 5,000 digits,
``{1..1000000000}`` ranges, NaN, braces...). Each file is read as a checked grid or refused
with one line naming it, within seconds. The default run tries ``RMVIZ_FUZZ_EXAMPLES`` files
(80); a release runs ``RMVIZ_FUZZ_EXAMPLES=3000``."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rmviz.examples
from rmviz.errors import ReadError
from rmviz.sweep.config import load_config
from tests.cpu_guard import cpu_under
from tests.formats.strategies import mutations

EXAMPLES = int(os.environ.get("RMVIZ_FUZZ_EXAMPLES", "80"))
CPU_SECONDS_PER_FILE = 30.0  # a hang guard; a config reads in milliseconds
SHIPPED = sorted((Path(rmviz.examples.__file__).parent / "sweeps").glob("*.toml"))
HAND_MADE = [
    'games = ["kuhn", "leduc"]\nalgorithms = ["cfr", "mccfr-outcome"]\n'
    "seeds = [1, 2]\niterations = [10, 100]\n",
    'games = ["random:general-sum:3x3x2:seed={1..4}"]\nalgorithms = ["rm+", "linear-rm"]\n'
    'seeds = 2\niterations = [50]\nmetrics = ["nash_conv"]\n[options]\nupdates = "alternating"\n',
    'games = ["rps"]\nalgorithms = ["discounted-rm"]\nseeds = [0]\niterations = [20]\n'
    "[options]\nalpha = 1.5\n"
    "start = {1 = [0.5, 0.25, 0.25]}\n",
]
SOURCES = [path.read_text() for path in SHIPPED] + HAND_MADE


def test_the_sources_are_valid_configs(tmp_path):
    for number, text in enumerate(SOURCES):
        path = tmp_path / f"source{number}.toml"
        path.write_text(text)
        load_config(path)


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_a_mutated_sweep_config_is_read_or_refused_in_one_line(data, tmp_path):
    path = tmp_path / "sweep.toml"
    text = data.draw(mutations(data.draw(st.sampled_from(SOURCES))))
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    with cpu_under(CPU_SECONDS_PER_FILE):
        try:
            load_config(path)
        except ReadError as error:
            message = str(error)
            assert message.startswith(str(path)) and "\n" not in message, message
            assert len(message) < 2_000, len(message)


def test_a_key_of_five_thousand_digits_is_quoted_by_its_ends(tmp_path):
    """Found by the fuzzer: the refusal quoted the whole key; ReadError's reason is one_line's."""
    path = tmp_path / "sweep.toml"
    path.write_text("9" * 5000 + ' = 1\ngames = ["rps"]\nalgorithms = ["rm"]\nseeds = 1\niterations = [10]\n')
    with pytest.raises(ReadError, match=r"unknown key '9+…9+'; \(5,003 characters\)") as error:
        load_config(path)
    assert len(str(error.value)) < 400 + len(str(path))
