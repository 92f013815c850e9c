"""Shared set-up of the Python module's tests: where the workspace, the corpus and the ``relic``
command are, and the corpus's models (``cargo xtask python`` runs these against the built wheel).

The corpus (``../shared/corpus`` beside the workspace, or ``RELIC_CORPUS``) is required where
``RELIC_REQUIRE_CORPUS`` or ``CI`` is set; elsewhere its tests are skipped with the reason.
Listed known failures (``corpus-known-failures.txt``) are left out of the corpus's models and
printed, counted.
"""

import os
import pathlib
import shutil
import sys

import pytest

import relic

ROOT = pathlib.Path(os.environ.get("RELIC_ROOT", pathlib.Path(__file__).resolve().parents[3]))
CORPUS = pathlib.Path(os.environ.get("RELIC_CORPUS", ROOT.parent / "shared" / "corpus"))
FIXTURES = ROOT / "fixtures"


def corpus_required():
    return bool(os.environ.get("RELIC_REQUIRE_CORPUS") or os.environ.get("CI"))


def known_failures():
    """``(path, step, what)`` of every line of corpus-known-failures.txt."""
    out = []
    for line in (ROOT / "corpus-known-failures.txt").read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = [p.strip() for p in line.split(" | ")]
        out.append((parts[0], parts[1], parts[2]))
    return out


def corpus_models():
    """Every model file of the corpus relic reads (by content), less the listed known failures of
    the corpus step, as paths; the known failures met are printed."""
    if not CORPUS.is_dir():
        return []
    known = {path for path, step, _ in known_failures() if step == "corpus"}
    models, met = [], []
    for path in sorted(p for p in CORPUS.rglob("*") if p.is_file()):
        rel = path.relative_to(CORPUS).as_posix()
        kind = relic.detect(path.read_bytes())
        if kind is None or kind.content != "model":
            continue
        if rel in known:
            met.append(rel)
            continue
        if not kind.readable:
            continue
        models.append(path)
    if met:
        print(f"\nrelic-py tests: {len(met)} known corpus failure(s) left out: {', '.join(met)}", file=sys.stderr)
    return models


def incomplete(path):
    """Whether relic refuses `path` because files beside it are missing (m2-incomplete/)."""
    try:
        relic.open(path)
    except relic.Incomplete:
        return True
    except relic.Error:
        return False
    return False


@pytest.fixture(scope="session")
def corpus():
    if not CORPUS.is_dir():
        if corpus_required():
            pytest.fail(f"{CORPUS} is absent and RELIC_REQUIRE_CORPUS/CI is set: the corpus tests must run")
        pytest.skip(f"{CORPUS} is absent (CI always has it)")
    return CORPUS


@pytest.fixture(scope="session")
def models(corpus):
    found = [p for p in corpus_models() if not incomplete(p)]
    # The corpus holds ABC, LTB, M2 (256–264) and more: far more than this.
    assert len(found) >= 40, f"only {len(found)} readable corpus models"
    return found


@pytest.fixture(scope="session")
def cli():
    """The ``relic`` command (``RELIC_CLI``, else the workspace's release or debug build)."""
    given = os.environ.get("RELIC_CLI")
    for candidate in [given, ROOT / "target/release/relic", ROOT / "target/debug/relic", shutil.which("relic")]:
        if candidate and pathlib.Path(candidate).is_file():
            return str(candidate)
    pytest.fail("the relic command is not built: cargo build --release -p relic-cli (or set RELIC_CLI)")
