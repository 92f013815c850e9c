"""FileDataIDs through a listfile (``listfile=``, the command's ``--listfile``): a corpus chunked
M2 whose ``.skin`` files are renamed as a listfile names them, under the game folder its own
listed path starts in, opens, converts and is described with those names; without the listfile
the model is refused naming the ids; a listfile that cannot be read is an error naming it."""

import shutil

import pytest

import relic

MODEL = "m2-md21/manafiend_holy"
# The SFID chunk of manafiend_holy.m2 (m2_probe.py: chunks.SFID.skins).
SKIN_IDS = [1348417, 1348418, 1348419]


@pytest.fixture
def game(corpus, tmp_path):
    """The model in ``<tmp>/Creature/Manafiend_Holy/``, its skins renamed into ``LOD/`` as the
    listfile names them, and the listfile (with a BOM, CRLF and one malformed line)."""
    folder = tmp_path / "Creature" / "Manafiend_Holy"
    (folder / "LOD").mkdir(parents=True)
    source = corpus / MODEL
    for f in source.iterdir():
        if f.suffix.lower() != ".skin":
            shutil.copy(f, folder / f.name)
    for i, _ in enumerate(SKIN_IDS):
        shutil.copy(source / f"manafiend_holy{i:02}.skin", folder / "LOD" / f"MH_Lod{i}.skin")
    lines = ["1;creature/manafiend_holy/manafiend_holy.m2", "not a line"]
    lines += [f"{id};creature/manafiend_holy/lod/mh_lod{i}.skin" for i, id in enumerate(SKIN_IDS)]
    listfile = tmp_path / "listfile.csv"
    listfile.write_bytes(b"\xef\xbb\xbf" + "\r\n".join(lines).encode() + b"\r\n")
    return folder / "manafiend_holy.m2", listfile


def test_a_model_opens_with_the_files_the_listfile_names(game):
    model_path, listfile = game
    model = relic.open(model_path, listfile=listfile)
    names = [p.replace("\\", "/").split("/")[-1] for p in model.files]
    assert names == ["manafiend_holy.m2", "MH_Lod0.skin", "MH_Lod1.skin", "MH_Lod2.skin"]
    assert model.meshes
    facts = relic.info(model_path, listfile=listfile)
    assert facts["skin_file_ids"] == ", ".join(
        f"{id} (creature/manafiend_holy/lod/mh_lod{i}.skin)" for i, id in enumerate(SKIN_IDS)
    )
    assert relic.info(model_path)["skin_file_ids"] == ", ".join(f"{id} (unresolved)" for id in SKIN_IDS)


def test_without_the_listfile_the_ids_are_named(game):
    model_path, _ = game
    with pytest.raises(relic.Incomplete) as e:
        relic.open(model_path)
    assert "manafiend_holy00.skin (FileDataID 1348417, no listfile given)" in str(e.value)


def test_convert_reads_through_the_listfile(game, tmp_path):
    model_path, listfile = game
    saved = relic.convert(model_path, tmp_path / "out.glb", listfile=listfile)
    assert (tmp_path / "out.glb").read_bytes()[:4] == b"glTF"
    assert saved.files and saved.files[0].endswith("out.glb")


def test_a_listfile_that_cannot_be_read_is_named(game, tmp_path):
    model_path, _ = game
    missing = tmp_path / "nowhere.csv"
    for call in (
        lambda: relic.open(model_path, listfile=missing),
        lambda: relic.info(model_path, listfile=missing),
        lambda: relic.convert(model_path, tmp_path / "x.glb", listfile=missing),
    ):
        with pytest.raises(relic.UsageError) as e:
            call()
        assert f"listfile {missing}: cannot read" in str(e.value)
