"""Writing: every corpus model saved unedited is its file byte for byte; edits made in Python land
in the file (read back by ``relic info`` and ``relic.open``); inputs are never written over and a
refused save leaves no file."""

import array
import filecmp
import json
import pathlib
import subprocess

import pytest

import relic
from conftest import FIXTURES


def test_every_corpus_model_saves_byte_identical(models, tmp_path):
    checked = 0
    for i, path in enumerate(models):
        model = relic.open(path)
        out = tmp_path / str(i) / pathlib.Path(path).name
        saved = model.save(out)
        # The model's own file and every companion it was read with (.skin, .anim) come back.
        originals = {pathlib.Path(f).name.lower(): f for f in model.files}
        written = {pathlib.Path(f).name.lower(): f for f in saved.files}
        assert set(originals) <= set(written), (path, sorted(originals), sorted(written))
        for name, original in originals.items():
            if model.format == "mdl":
                # MDL text is relic's print of the MDX it describes (another tool's comments and
                # layout are not kept): the two texts describe the same MDX, byte for byte.
                described = [tmp_path / str(i) / f"described_{k}.mdx" for k in range(2)]
                for text, mdx in zip((original, written[name]), described):
                    relic.open(text).save(mdx, format="mdx")
                assert filecmp.cmp(*described, shallow=False), (path, name)
                continue
            assert filecmp.cmp(original, written[name], shallow=False), (path, name)
        # Nothing is lost but what could not be read in the first place (a .skin file missing
        # beside the model, which its read notes name).
        if not model.notes:
            assert saved.losses == [], (path, [str(n) for n in saved.losses])
        checked += 1
    assert checked == len(models)


def info(cli, path):
    out = subprocess.run([cli, "info", "--json", str(path)], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_a_moved_vertex_reaches_the_file(tmp_path, cli, corpus):
    source = corpus / "m2/GnomePounder-vanilla.m2"
    model = relic.open(source)
    mesh = model.meshes[0]
    x = mesh.positions[0]
    mesh.positions[0] = x + 0.25
    out = tmp_path / "moved.m2"
    saved = model.save(out)
    assert saved.files == [str(out)]
    back = relic.open(out)
    assert back.meshes[0].positions[0] == pytest.approx(x + 0.25)
    assert list(back.meshes[0].positions[3:]) == list(relic.open(source).meshes[0].positions[3:])
    assert info(cli, out)["vertices"] == info(cli, source)["vertices"]


def test_a_changed_key_reaches_the_file(tmp_path):
    source = FIXTURES / "abc/v12_full.abc"
    model = relic.open(source)
    walk = next(c for c in model.clips if c.name == "walk")
    channel = next(c for c in walk.channels if c.property == "translation" and len(c.times) > 1)
    old = channel.values[3]
    channel.values[3] = old + 2.0
    out = tmp_path / "rekeyed.abc"
    model.save(out)
    back = next(c for c in relic.open(out).clips if c.name == "walk")
    same = next(c for c in back.channels if c.bone == channel.bone and c.property == "translation")
    assert same.values[3] == pytest.approx(old + 2.0, abs=1e-4)
    assert not filecmp.cmp(source, out, shallow=False)


def test_a_removed_mesh_reaches_the_file(tmp_path, cli, corpus):
    source = corpus / "abc/PARTNER_DANCIN.ABC"
    model = relic.open(source)
    lod0 = [m for m in model.meshes if m.lod == 0]
    removed = lod0[-1].name
    model.meshes = [m for m in model.meshes if m.name != removed]
    out = tmp_path / "fewer.abc"
    saved = model.save(out)
    assert info(cli, out)["pieces"] == info(cli, source)["pieces"] - 1
    assert removed not in {m.name for m in relic.open(out).meshes}
    assert saved.comparison and "pieces" in " ".join(n.text for n in saved.notes)


def test_a_changed_image_is_written_beside_the_model(tmp_path, corpus):
    model = relic.open(corpus / "m2-wrath/Rabbit.m2")
    texture = model.materials[0].textures[0]
    image = texture.image
    assert image is not None, texture.image_note
    pixels = bytearray(image.rgba)
    pixels[0:4] = b"\xff\x00\x00\xff"
    texture.image = relic.Image(image.width, image.height, pixels, name=image.name)
    out = tmp_path / "Rabbit.m2"
    saved = model.save(out)
    blps = [f for f in saved.files if f.lower().endswith(".blp")]
    assert len(blps) == 1, saved.files
    written = relic.Image.open(blps[0])
    assert (written.width, written.height) == (image.width, image.height)


def test_unedited_save_into_glb_and_back(tmp_path):
    model = relic.open(FIXTURES / "abc/v12_full.abc")
    glb = tmp_path / "hero.glb"
    model.save(glb)
    back = relic.open(glb)
    out = tmp_path / "hero.abc"
    saved = back.save(out)
    assert filecmp.cmp(FIXTURES / "abc/v12_full.abc", out, shallow=False), saved.notes
    assert "0 differ" in saved.comparison


def test_the_files_read_are_never_written_over(tmp_path):
    source = tmp_path / "hero.abc"
    source.write_bytes((FIXTURES / "abc/v12_full.abc").read_bytes())
    before = source.read_bytes()
    model = relic.open(source)
    model.meshes[0].positions[0] += 1.0
    with pytest.raises(relic.UsageError, match="input"):
        model.save(source)
    assert source.read_bytes() == before


def test_strict_refuses_and_writes_nothing(tmp_path, corpus):
    model = relic.open(corpus / "m2/GnomePounder-vanilla.m2")
    out = tmp_path / "gnome.abc"
    with pytest.raises(relic.Unsupported) as refused:
        model.save(out, strict=True)
    assert refused.value.notes and not out.exists()
    assert list(tmp_path.iterdir()) == []
    saved = model.save(out)
    assert out.exists() and saved.notes
    assert sum(n.count for n in saved.notes) == len(saved.losses)


def test_a_model_built_in_python_saves_to_every_format(tmp_path):
    model = relic.Model("tri")
    model.bones.append(relic.Bone("root"))
    model.bones.append(relic.Bone("tip", parent=0, rest=relic.Transform(translation=(0, 1, 0))))
    mesh = relic.Mesh("tri", positions=[(0, 0, 0), (1, 0, 0), (0, 1, 0)], indices=[0, 1, 2])
    mesh.normals = [(0, 0, 1)] * 3
    mesh.uv_sets = [[(0, 0), (1, 0), (0, 1)]]
    mesh.set_skin(array.array("I", [0, 0, 1]), array.array("f", [1, 1, 1]), per_vertex=1)
    mesh.material = 0
    model.meshes.append(mesh)
    model.materials.append(relic.Material("skin", textures=[relic.Texture("tri.blp")]))
    rot = relic.Channel(1, "rotation", [0.0, 1.0], [(0, 0, 0, 1), (0, 0, 0.7071068, 0.7071068)])
    model.clips.append(relic.Clip("bend", 1.0, channels=[rot]))
    model.attachments.append(relic.Attachment("hand", 1))
    model.validate()
    writers = [f for f in relic.formats() if "model" in f.holds and f.writes]
    assert {f.name for f in writers} >= {"abc", "ltb", "m2", "nod", "glb", "gltf"}
    for f in writers:
        out = tmp_path / f"tri.{f.name}"
        saved = model.save(out)
        back = relic.open(out)
        assert len(back.meshes) >= 1 and back.meshes[0].vertex_count >= 3, f.name
        assert len(back.bones) >= 2, f.name
        assert saved.files[0] == str(out)


def test_convert_has_the_commands_options(tmp_path, corpus):
    out = tmp_path / "partner.glb"
    saved = relic.convert(
        corpus / "abc/PARTNER_DANCIN.ABC",
        out,
        skins={0: corpus / "dtx/PARTNER_DANCIN.DTX", 1: corpus / "dtx/PARTNER_DANCIN_HEAD.DTX"},
        lod=0,
    )
    assert out.read_bytes()[:4] == b"glTF"
    assert any("LOD" in n.text or "lower-LOD" in n.text for n in saved.notes)
    with pytest.raises(FileExistsError):
        relic.convert(corpus / "abc/PARTNER_DANCIN.ABC", out)
    relic.convert(corpus / "abc/PARTNER_DANCIN.ABC", out, force=True)
    png = tmp_path / "skin.png"
    relic.convert(corpus / "dtx/PARTNER_DANCIN.DTX", png)
    assert png.read_bytes().startswith(b"\x89PNG")
    blp = tmp_path / "skin.blp"
    relic.convert(png, blp, encoding="dxt1", mips=3)
    assert relic.detect(blp).format == "blp"
    with pytest.raises(relic.UsageError):
        relic.convert(png, tmp_path / "x.blp", encoding="jpeg")
    with pytest.raises(relic.UsageError):
        relic.convert(png, tmp_path / "x.png", mips=2)
