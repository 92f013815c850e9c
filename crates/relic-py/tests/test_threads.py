"""The GIL is released while reading, converting and writing: a batch converted from
``concurrent.futures`` threads gives the very files a sequential run gives, and the threads
can run while the native code works (shown with a pipe, not a clock)."""

import concurrent.futures
import filecmp
import os
import pathlib
import subprocess
import sys

import relic
from conftest import FIXTURES


def convert_all(models, out_dir, workers):
    out_dir.mkdir()
    jobs = [(path, out_dir / f"{i}_{pathlib.Path(path).stem}.glb") for i, path in enumerate(models)]
    if workers == 1:
        return [relic.convert(src, dst) for src, dst in jobs], jobs
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        return list(pool.map(lambda job: relic.convert(*job), jobs)), jobs


def test_threads_convert_the_corpus_as_one_thread_does(models, tmp_path):
    one, jobs = convert_all(models, tmp_path / "one", 1)
    many, _ = convert_all(models, tmp_path / "many", 4)
    assert len(one) == len(many) == len(models)
    for (_, a), (_, b) in zip(jobs, [(s, tmp_path / "many" / d.name) for s, d in jobs]):
        assert filecmp.cmp(a, b, shallow=False), a.name
    for x, y in zip(one, many):
        assert [n.text for n in x.losses] == [n.text for n in y.losses]


PIPE_SCRIPT = """
import os, sys, threading, relic
fixture, work = sys.argv[1], sys.argv[2]
calls = [("open", lambda p: relic.open(p)), ("convert", lambda p: relic.convert(p, os.path.join(work, "from_pipe.glb")))]
for name, call in calls:
    pipe = os.path.join(work, "pipe.abc")
    os.mkfifo(pipe)
    result = {}
    def read():
        try:
            result["value"] = call(pipe)
        except BaseException as e:
            result["error"] = repr(e)
    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    with open(pipe, "wb") as w:  # only this thread's Python code fills the pipe
        w.write(open(fixture, "rb").read())
    reader.join()
    print(name, result.get("error", "ok"), flush=True)
    os.unlink(pipe)
"""


def test_the_gil_is_released_while_reading(tmp_path):
    """``relic.open`` and ``relic.convert`` read their input from a pipe that another Python
    thread fills only after the call has begun: with the GIL held while reading, that thread
    could never run and the child interpreter would wait forever (killed after two minutes and
    failed as a hang)."""
    fixture = FIXTURES / "abc/v12_full.abc"
    try:
        out = subprocess.run(
            [sys.executable, "-c", PIPE_SCRIPT, str(fixture), str(tmp_path)],
            capture_output=True, text=True, timeout=120,
        )
    except subprocess.TimeoutExpired:
        raise AssertionError("hang: the GIL was held while the input was read") from None
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\n")[:2] == ["open ok", "convert ok"], out.stdout + out.stderr
    assert (tmp_path / "from_pipe.glb").read_bytes()[:4] == b"glTF"
