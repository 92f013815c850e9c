"""Reading: the registry, recognition, ``info`` against the ``relic`` command, and every corpus
model opened with its arrays, textures and clips."""

import array
import json
import subprocess
import sys

import pytest

import relic
from conftest import FIXTURES


def cli_lines(cli, *args):
    out = subprocess.run([cli, *args], capture_output=True, text=True, check=True)
    return out.stdout


def test_formats_are_the_commands(cli):
    names = [f.name for f in relic.formats()]
    listed = [line.split(" ")[0] for line in cli_lines(cli, "formats").splitlines() if not line.startswith(" ")]
    assert names == listed
    m2 = next(f for f in relic.formats() if f.name == "m2")
    assert "model" in m2.holds and (256, 256) <= m2.reads[0]
    assert any(lo <= 264 <= hi for lo, hi in m2.writes)


def test_detect_by_content_not_name(tmp_path):
    data = (FIXTURES / "abc/v12_full.abc").read_bytes()
    renamed = tmp_path / "looks_like.m2"
    renamed.write_bytes(data)
    kind = relic.detect(renamed)
    assert (kind.format, kind.version, kind.content, kind.readable) == ("abc", 12, "model", True)
    assert relic.detect(data).format == "abc"
    assert relic.detect(b"not a model at all") is None
    skin = relic.detect(FIXTURES / "m2-wrath/v264_skins00.skin")
    assert skin.content == "part"


def test_info_is_the_commands_json(models, cli):
    assert models
    for path in models:
        ours = relic.info(path)
        theirs = json.loads(cli_lines(cli, "info", "--json", str(path)))
        ours["file"] = theirs["file"]
        assert ours == theirs, path


# The model's counts against the file's own, as ``relic info`` names them per format.
BONES = {"abc": "nodes", "ltb": "nodes", "m2": "bones", "nod": "bones"}
CLIPS = {"abc": "animations", "ltb": "animations", "m2": "sequences"}


def test_every_corpus_model_opens_with_its_counts(models):
    checked = 0
    for path in models:
        model = relic.open(path)
        facts = relic.info(path)
        assert model.format == facts["format"] and model.version == facts["version"], path
        assert model.files[0] == str(path)
        key = BONES.get(model.format)
        if key:
            assert len(model.bones) == facts[key], (path, key)
        key = CLIPS.get(model.format)
        if key:
            assert len(model.clips) == facts[key], (path, key)
        for mesh in model.meshes:
            n = mesh.vertex_count
            assert mesh.positions.typecode == "f" and len(mesh.positions) == 3 * n
            assert len(mesh.normals) in (0, 3 * n)
            assert all(len(uv) == 2 * n for uv in mesh.uv_sets)
            assert mesh.indices.typecode == "i" and len(mesh.indices) % 3 == 0
            assert max(mesh.indices, default=0) < max(n, 1)
            if len(mesh.skin_offsets):
                assert len(mesh.skin_offsets) == n + 1
                assert mesh.skin_offsets[n] == len(mesh.joints) == len(mesh.weights)
        for clip in model.clips:
            for channel in clip.channels:
                width = 4 if channel.property == "rotation" else 3
                keys = len(channel.times) * (3 if channel.interpolation == "cubicspline" else 1)
                assert len(channel.values) == width * keys, (path, clip.name)
        checked += 1
    assert checked == len(models)


def test_buffers_are_read_without_copying_and_written_in_place():
    model = relic.open(FIXTURES / "abc/v12_full.abc")
    mesh = model.meshes[0]
    view = mesh.positions
    # The model's own array: the same object each time, read through the buffer protocol as it
    # is (memoryview here; numpy.frombuffer and Blender's foreach_set alike).
    assert isinstance(view, array.array) and view is mesh.positions
    assert memoryview(view).format == "f" and len(view) == 3 * mesh.vertex_count
    before = view[0]
    view[0] = before + 1.0
    assert mesh.positions[0] == before + 1.0
    assert memoryview(mesh.positions).tobytes()[:4] == array.array("f", [before + 1.0]).tobytes()
    # A partial vertex appended is refused when saved, naming the array.
    view.append(0.0)
    with pytest.raises(relic.Invalid, match=r"meshes\[0\]\.positions"):
        model.validate()


def test_numpy_is_never_imported():
    code = "import sys, relic; m = relic.open(sys.argv[1]); bytes(m.meshes[0].positions); print('numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code, str(FIXTURES / "abc/v12_full.abc")], capture_output=True, text=True)
    assert out.stdout.strip() == "False", out.stderr


def test_numpy_when_present():
    numpy = pytest.importorskip("numpy")
    model = relic.open(FIXTURES / "abc/v12_full.abc")
    mesh = model.meshes[0]
    positions = numpy.frombuffer(mesh.positions, dtype=numpy.float32).reshape(-1, 3)
    assert positions.shape == (mesh.vertex_count, 3)
    mesh.positions = positions * 2.0  # float64: converted value by value
    assert mesh.positions[0] == pytest.approx(2.0 * positions[0, 0])


def test_textures_are_found_as_the_command_finds_them(corpus):
    model = relic.open(corpus / "wow-data/Interface/Glues/Models/UI_RS_Orc/UI_RS_Orc.m2")
    found = [t.image for m in model.materials for t in m.textures if t.image is not None]
    assert len(found) == 5
    png = found[0].png
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    image = relic.Image.from_png(png)
    assert (image.width, image.height) == (found[0].width, found[0].height)
    assert len(image.rgba) == 4 * image.width * image.height
    # A LithTech model names no texture: its skins are found as the games lay them out.
    partner = relic.open(corpus / "abc/PARTNER_DANCIN.ABC", skins=[corpus / "dtx/PARTNER_DANCIN.DTX"])
    body = partner.materials[0].textures[0]
    assert body.image is not None and body.image.width == 512


def test_a_missing_texture_says_where_relic_looked():
    model = relic.open(FIXTURES / "abc/v12_full.abc")
    texture = model.materials[0].textures[0]
    assert texture.image is None
    assert texture.image_note


def test_anims_are_played_on_a_nod():
    model = relic.open(FIXTURES / "nod/skinned.nod", anims=[FIXTURES / "nod/tags.nad"])
    assert [c.name for c in model.clips] == ["tags"]
    assert model.files == [str(FIXTURES / "nod/skinned.nod"), str(FIXTURES / "nod/tags.nad")]


def test_companions_are_named_in_files():
    model = relic.open(FIXTURES / "m2-wrath/v264_external.m2")
    names = [f.rsplit("/", 1)[-1] for f in model.files]
    assert names[0] == "v264_external.m2"
    assert "v264_external00.skin" in names and "v264_external0000-00.anim" in names
