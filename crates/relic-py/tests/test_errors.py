"""Bad input: every hostile fixture and fuzz finding raises one of relic's exceptions (or opens, for
the ones the game tolerates), never crashes the interpreter; messages are the command's."""

import os
import pathlib
import subprocess
import sys

import pytest

import relic
from conftest import CORPUS, FIXTURES, ROOT


def hostile_files():
    files = sorted(p for p in FIXTURES.glob("*/hostile/*") if p.is_file())
    findings = CORPUS.parent / "fuzz-findings"
    if findings.is_dir():
        files += sorted(p for p in findings.rglob("*") if p.is_file())
    return files


def test_hostile_inputs_raise_relic_errors():
    files = hostile_files()
    assert len(files) >= 50, len(files)
    raised = opened = 0
    for path in files:
        try:
            relic.open(path)
            opened += 1
        except relic.Error as e:
            assert str(e).startswith(str(path)), (path, str(e))
            raised += 1
    # Most are refused; a few are inconsistencies the games tolerate and read.
    assert raised > opened, (raised, opened)


def test_each_exception_class_and_its_attributes(tmp_path):
    noise = tmp_path / "noise.bin"
    noise.write_bytes(os.urandom(4096))
    with pytest.raises(relic.NotAModel) as e:
        relic.open(noise)
    assert str(noise) in str(e.value)

    damaged = tmp_path / "half.abc"
    data = (FIXTURES / "abc/v12_full.abc").read_bytes()
    damaged.write_bytes(data[: len(data) // 2])
    with pytest.raises(relic.Invalid) as e:
        relic.open(damaged)
    assert isinstance(e.value, ValueError) and isinstance(e.value.offset, int)

    lonely = tmp_path / "v264_skins.m2"
    lonely.write_bytes((FIXTURES / "m2-wrath/v264_skins.m2").read_bytes())
    with pytest.raises(relic.Incomplete) as e:
        relic.open(lonely)
    assert e.value.missing and e.value.missing[0].endswith("00.skin")

    with pytest.raises(relic.UsageError):
        relic.open(FIXTURES / "nod/tags.nad")
    with pytest.raises(FileNotFoundError):
        relic.open(tmp_path / "nowhere.m2")


def test_unsupported_version(tmp_path):
    # A chunked M2 whose inner MD20 block says 273 (no documented layout; 272 and 274 are read).
    data = bytearray((FIXTURES / "m2-md21/v274_chunked.m2").read_bytes())
    data[12:16] = (273).to_bytes(4, "little")
    md21 = tmp_path / "v273_chunked.m2"
    md21.write_bytes(bytes(data))
    with pytest.raises(relic.Unsupported) as e:
        relic.open(md21)
    assert e.value.version == 273


def test_messages_are_the_commands(cli, tmp_path):
    damaged = tmp_path / "half.m2"
    data = (FIXTURES / "m2/v256_linear.m2").read_bytes()
    damaged.write_bytes(data[: len(data) // 3])
    with pytest.raises(relic.Error) as e:
        relic.open(damaged)
    out = subprocess.run([cli, "convert", str(damaged), str(tmp_path / "x.glb")], capture_output=True, text=True)
    assert out.returncode == 1
    assert f"relic: {e.value}" in out.stderr


def test_a_bad_edit_is_an_exception_not_a_crash(tmp_path):
    model = relic.open(FIXTURES / "abc/v12_full.abc")
    with pytest.raises(ValueError):
        model.meshes[0].positions = [1.0, 2.0]  # not whole vertices
    with pytest.raises(TypeError):
        model.meshes[0].indices = ["a", "b", "c"]
    model.meshes[0].indices = [0, 1, 10**6]
    with pytest.raises(relic.Invalid) as e:
        model.save(tmp_path / "bad.abc")
    assert "meshes[0]" in str(e.value)
    assert not (tmp_path / "bad.abc").exists()
    model.bones.append("not a bone")
    with pytest.raises(TypeError, match=r"bones\[\d+\]"):
        model.validate()


def test_the_interpreter_survives_every_hostile_file_in_a_child():
    """One child interpreter opens every hostile file: it must exit normally (a crash of the
    native module would kill it with a signal)."""
    files = [str(p) for p in hostile_files()]
    code = (
        "import relic, sys\n"
        "for p in sys.argv[1:]:\n"
        "    try:\n"
        "        m = relic.open(p)\n"
        "        for mesh in m.meshes: bytes(mesh.positions)\n"
        "        for mat in m.materials:\n"
        "            for t in mat.textures: t.image\n"
        "    except (relic.Error, OSError):\n"
        "        pass\n"
        "print('survived', len(sys.argv) - 1)\n"
    )
    out = subprocess.run([sys.executable, "-c", code, *files], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == f"survived {len(files)}"
