"""The add-on tested as a user meets it, inside a real Blender (Debian's 3.4 with ``blender -b
--python``, or ``bpy`` 5 from PyPI with ``python``); run by ``cargo xtask blender-addon --test``.

    addon_test.py -- ZIP KIND MODELS_LIST HOSTILE_LIST FIXTURES WORK OUT.json

Installs ``ZIP`` as a user does (``legacy``: ``preferences.addon_install`` + ``addon_enable``;
``extension``: ``extensions.package_install_files``), then:

* every model in ``MODELS_LIST`` (one path a line) imported with ``import_scene.relic`` and
  exported unedited with ``export_scene.relic`` into its own format; every file written (the
  model and its ``.skin``/``.anim`` companions) compared byte for byte with the one read;
* scripted edits on one model of each format, exported and read back with ``relic``;
* a model built in Blender from scratch exported to every format relic writes;
* every file in ``HOSTILE_LIST`` imported: a cancelled operator with an error report, never an
  exception out of the operator or a crash.

Writes the results to ``OUT.json`` (rows of the table the closing note prints); exits 0 even when
a row failed (the caller judges the rows), 1 if the harness itself broke.
"""

import filecmp
import glob
import importlib
import json
import os
import sys
import time
import traceback

import bpy

argv = sys.argv[sys.argv.index("--") + 1 :] if "--" in sys.argv else sys.argv[1:]
ZIP, KIND, MODELS, HOSTILE, FIXTURES, WORK, OUT = argv[:7]
# The add-on's package: a legacy add-on's module, or an extension's in its repository.
PACKAGE = "relic_blender" if KIND == "legacy" else "bl_ext.user_default.relic_blender"


def addon(module=""):
    return importlib.import_module(PACKAGE + module)


def install():
    if KIND == "legacy":
        bpy.ops.preferences.addon_install(filepath=ZIP, overwrite=True)
        bpy.ops.preferences.addon_enable(module="relic_blender")
    else:
        bpy.ops.extensions.package_install_files(filepath=ZIP, repo="user_default", enable_on_install=True)
    assert hasattr(bpy.ops.import_scene, "relic"), "the import operator is not registered"
    assert hasattr(bpy.ops.export_scene, "relic"), "the export operator is not registered"
    return addon().relic_module()


def reset():
    """An empty scene (the add-on stays enabled: factory settings would disable it)."""
    for collection in (
        bpy.data.objects,
        bpy.data.meshes,
        bpy.data.armatures,
        bpy.data.actions,
        bpy.data.images,
        bpy.data.materials,
        bpy.data.collections,
    ):
        bpy.data.batch_remove(list(collection))


def armature():
    return next(o for o in bpy.context.scene.objects if o.type == "ARMATURE")


def select(obj):
    for o in bpy.context.scene.objects:
        o.select_set(False)
    obj.select_set(True)
    bpy.context.view_layer.objects.active = obj


def counts():
    scene = bpy.context.scene.objects
    arm = armature()
    return {
        "bones": len(arm.data.bones),
        "meshes": sum(1 for o in scene if o.type == "MESH" and "relic_index" in o),
        "images": sum(1 for i in bpy.data.images if i.packed_file is not None),
        "actions": len(bpy.data.actions),
        "empties": sum(1 for o in scene if o.type == "EMPTY"),
        "emitters": sum(1 for o in scene if "relic_emitter" in o),
    }


def import_file(path, **options):
    started = time.perf_counter()
    result = bpy.ops.import_scene.relic(filepath=path, **options)
    return result, time.perf_counter() - started


def export_file(path, fmt, **options):
    select(armature())
    result = bpy.ops.export_scene.relic(filepath=path, format=fmt, **options)
    return result


def same_files(relic, source, out):
    """Every file the source model was read from, against the one written beside ``out``. MDL text
    is relic's print of the file it describes (another tool's comments and layout are not kept):
    the two texts are compared as the MDX files they describe, byte for byte."""
    if relic.detect(source).format == "mdl":
        described = []
        for i, text in enumerate((source, out)):
            mdx = os.path.join(os.path.dirname(out), f"described_{i}.mdx")
            relic.open(text).save(mdx, format="mdx")
            described.append(mdx)
        return [] if filecmp.cmp(*described, shallow=False) else [f"{os.path.basename(source)}: describes another MDX"]
    model = relic.open(source)
    diffs = []
    folder = os.path.dirname(out)
    stem_in = os.path.splitext(os.path.basename(source))[0]
    stem_out = os.path.splitext(os.path.basename(out))[0]
    for f in model.files:
        name = os.path.basename(f)
        written = os.path.join(folder, stem_out + name[len(stem_in) :]) if name.startswith(stem_in) else None
        if written is None or not os.path.exists(written):
            diffs.append(f"{name}: not written")
        elif not filecmp.cmp(f, written, shallow=False):
            diffs.append(f"{name}: bytes differ")
    return diffs


def corpus_rows(relic):
    rows = []
    with open(MODELS) as handle:
        paths = [line.strip() for line in handle if line.strip()]
    for i, path in enumerate(paths):
        row = {"model": path, "import": False, "identical": False}
        try:
            reset()
            result, seconds = import_file(path)
            row["import"] = result == {"FINISHED"}
            row["seconds"] = round(seconds, 3)
            row.update(counts())
            kind = relic.detect(path)
            out = os.path.join(WORK, f"{i:03d}", os.path.basename(path))
            os.makedirs(os.path.dirname(out), exist_ok=True)
            result = export_file(out, kind.format)
            diffs = same_files(relic, path, out)
            row["identical"] = result == {"FINISHED"} and not diffs
            if diffs:
                row["differences"] = diffs
        except Exception:
            row["error"] = traceback.format_exc(limit=3)
        rows.append(row)
        print(f"addon-test: {row['model']}: import {row['import']}, identical {row['identical']}", flush=True)
    return rows


def reopen(relic, out):
    """A file written by the export, with the animation files written beside it (a NOD's NADs)."""
    anims = sorted(glob.glob(os.path.join(os.path.dirname(out), "*.nad")))
    return relic.open(out, anims=anims)


#: Formats that keep mesh and clip names (an M2 names its geosets by id and its clips by
#: AnimationData id).
NAMED = {"abc", "ltb", "nod", "glb", "gltf"}
FORMAT = None


def clip_name(base):
    """A clip name the format keeps: an AnimationData name for an M2."""
    return {"waved": "Run.0", "renamed_clip": "Walk.1"}.get(base, base) if FORMAT == "m2" else base


def edit_rows(relic):
    """Scripted edits on one model of each format: each must reach the file."""
    global FORMAT
    rows = []
    models = {
        "abc": (os.path.join(FIXTURES, "abc/v12_full.abc"), {}),
        "m2": (os.path.join(FIXTURES, "m2/v256_linear.m2"), {}),
        "nod": (os.path.join(FIXTURES, "nod/skinned.nod"), {"anims": os.path.join(FIXTURES, "nod/tags.nad")}),
        "ltb": (os.path.join(FIXTURES, "ltb/v25_full.ltb"), {}),
    }
    for fmt, (path, options) in models.items():
        FORMAT = fmt
        for edit in EDITS:
            row = {"model": path, "edit": edit.__name__, "ok": False}
            try:
                reset()
                import_file(path, **options)
                expect = edit(relic)
                out = os.path.join(WORK, "edits", f"{fmt}_{edit.__name__}", "edited." + fmt)
                os.makedirs(os.path.dirname(out), exist_ok=True)
                result = export_file(out, fmt)
                back = reopen(relic, out)
                row["ok"] = result == {"FINISHED"} and expect(back)
                row["back"] = {
                    "meshes": [(m.name, m.vertex_count) for m in back.meshes],
                    "clips": [c.name for c in back.clips],
                }
            except Exception:
                row["error"] = traceback.format_exc(limit=3)
            rows.append(row)
            print(f"addon-test: edit {edit.__name__} on {fmt}: {row['ok']}", flush=True)
    return rows


def move_vertex(relic):
    obj = next(o for o in bpy.context.scene.objects if o.type == "MESH" and o.get("relic_index") == 0)
    obj.data.vertices[0].co.z += 0.5
    z = obj.data.vertices[0].co.z  # the model's +Y is Blender's +Z

    def check(back):
        return any(abs(y - z) < 1e-4 for m in back.meshes if m.lod == 0 for y in m.positions[1::3])

    return check


def rekey_bone(relic):
    """A key of the first clip moved by one unit: that clip's keys in the file differ from the
    original's, by about that much, and the clip count stays."""
    action = next(a for a in bpy.data.actions if a.get("relic_clip") == 0)
    compat = addon(".compat")
    curves = [c for c in compat.fcurves(action) if c.data_path.endswith(".location")] or compat.fcurves(action)
    curves[0].keyframe_points[0].co.y += 1.0
    name = action.name
    source = addon(".records").source_of(armature())
    original = addon(".records").open_source(source, addon().relic_module())
    before = next(c for c in original.clips if c.name == name)

    def check(back):
        after = next((c for c in back.clips if c.name == name), None)
        if after is None or len(back.clips) != len(original.clips):
            return False
        old = [v for c in before.channels for v in c.values]
        new = [v for c in after.channels for v in c.values]
        return len(old) != len(new) or max((abs(x - y) for x, y in zip(old, new)), default=0) > 0.5

    return check


def lod0_meshes():
    return [o for o in bpy.context.scene.objects if o.type == "MESH" and "relic_index" in o and o.get("relic_lod", 0) == 0]


def delete_mesh(relic):
    """A whole piece: its mesh at every level of detail."""
    count = len(lod0_meshes())
    gone = lod0_meshes()[-1].data.name
    for obj in [o for o in bpy.context.scene.objects if o.type == "MESH" and o.data.name.split(".")[0] == gone.split(".")[0]]:
        bpy.data.objects.remove(obj, do_unlink=True)

    def check(back):
        return sum(1 for m in back.meshes if m.lod == 0) == count - 1

    return check


def add_mesh(relic):
    arm = armature()
    count = len(lod0_meshes())
    data = bpy.data.meshes.new("added")
    data.from_pydata([(0, 0, 0), (1, 0, 0), (0, 0, 1)], [], [(0, 1, 2)])
    obj = bpy.data.objects.new("added", data)
    bpy.context.scene.collection.objects.link(obj)
    obj.parent = arm
    group = obj.vertex_groups.new(name=arm.data.bones[0].name)
    group.add([0, 1, 2], 1.0, "REPLACE")

    def check(back):
        lod0 = [m for m in back.meshes if m.lod == 0]
        return len(lod0) == count + 1 and (FORMAT not in NAMED or any(m.name == "added" for m in lod0))

    return check


def new_action(relic):
    arm = armature()
    compat = addon(".compat")
    action, curves = compat.new_action(clip_name("waved"), arm)
    bone = arm.data.bones[0].name
    for index in range(4):
        curve = compat.new_fcurve(curves, f'pose.bones["{bone}"].rotation_quaternion', index, bone)
        curve.keyframe_points.add(2)
        curve.keyframe_points.foreach_set("co", [0.0, 1.0 if index == 0 else 0.0, 30.0, 0.7 if index in (0, 3) else 0.0])
        for p in curve.keyframe_points:
            p.interpolation = "LINEAR"
    compat.push_to_nla(arm, action, 0)
    count = len([a for a in bpy.data.actions if "relic_clip" in a])

    def check(back):
        return len(back.clips) == count + 1 and any(c.name == clip_name("waved") for c in back.clips)

    return check


def rename_action(relic):
    action = next(a for a in bpy.data.actions if "relic_clip" in a)
    action.name = clip_name("renamed_clip")

    def check(back):
        return any(c.name == clip_name("renamed_clip") for c in back.clips)

    return check


EDITS = [move_vertex, rekey_bone, delete_mesh, add_mesh, new_action, rename_action]


def scratch_rows(relic):
    """A model made in Blender (an armature, a skinned mesh, an action) exported to every format
    relic writes."""
    rows = []
    writers = [f.name for f in relic.formats() if "model" in f.holds and f.writes]
    for fmt in writers:
        row = {"model": "scratch", "format": fmt, "ok": False}
        try:
            reset()
            data = bpy.data.armatures.new("scratch")
            arm = bpy.data.objects.new("scratch", data)
            bpy.context.scene.collection.objects.link(arm)
            bpy.context.view_layer.objects.active = arm
            bpy.ops.object.mode_set(mode="EDIT")
            root = data.edit_bones.new("root")
            root.head, root.tail = (0, 0, 0), (0, 0, 1)
            tip = data.edit_bones.new("tip")
            tip.head, tip.tail, tip.parent = (0, 0, 1), (0, 0, 2), root
            bpy.ops.object.mode_set(mode="OBJECT")
            mesh = bpy.data.meshes.new("quad")
            mesh.from_pydata([(0, 0, 0), (1, 0, 0), (1, 0, 2), (0, 0, 2)], [], [(0, 1, 2, 3)])
            obj = bpy.data.objects.new("quad", mesh)
            bpy.context.scene.collection.objects.link(obj)
            obj.parent = arm
            obj.vertex_groups.new(name="root").add([0, 1], 1.0, "REPLACE")
            obj.vertex_groups.new(name="tip").add([2, 3], 1.0, "REPLACE")
            compat = addon(".compat")
            action, curves = compat.new_action("bend", arm)
            for index in range(4):
                curve = compat.new_fcurve(curves, 'pose.bones["tip"].rotation_quaternion', index, "tip")
                curve.keyframe_points.add(2)
                value = [(1.0, 0.7071), (0.0, 0.7071), (0.0, 0.0), (0.0, 0.0)][index]
                curve.keyframe_points.foreach_set("co", [0.0, value[0], 24.0, value[1]])
            compat.assign_action(arm, action)
            out = os.path.join(WORK, "scratch", fmt, "scratch." + fmt)
            os.makedirs(os.path.dirname(out), exist_ok=True)
            result = export_file(out, fmt)
            back = reopen(relic, out)
            row["ok"] = result == {"FINISHED"} and len(back.bones) >= 2 and len(back.meshes) >= 1 and len(back.clips) >= 1
            row["counts"] = [len(back.bones), len(back.meshes), len(back.clips)]
        except Exception:
            row["error"] = traceback.format_exc(limit=3)
        rows.append(row)
        print(f"addon-test: scratch model to {fmt}: {row['ok']}", flush=True)
    return rows


def hostile_rows():
    rows = []
    with open(HOSTILE) as handle:
        paths = [line.strip() for line in handle if line.strip()]
    for path in paths:
        row = {"model": path, "ok": False}
        try:
            reset()
            try:
                result = bpy.ops.import_scene.relic(filepath=path)
                row["result"] = sorted(result)
            except RuntimeError as e:  # the operator's ERROR report surfaces as RuntimeError
                row["result"] = ["CANCELLED"]
                row["report"] = str(e).splitlines()[0][:200]
            row["ok"] = True
        except Exception:
            row["error"] = traceback.format_exc(limit=3)
        rows.append(row)
    print(f"addon-test: {len(rows)} hostile files imported, {sum(r['ok'] for r in rows)} handled", flush=True)
    return rows


def main():
    try:
        relic = install()
        results = {
            "blender": bpy.app.version_string,
            "kind": KIND,
            "corpus": corpus_rows(relic),
            "edits": edit_rows(relic),
            "scratch": scratch_rows(relic),
            "hostile": hostile_rows(),
        }
    except Exception:
        traceback.print_exc()
        sys.exit(1)
    with open(OUT, "w") as handle:
        json.dump(results, handle, indent=1)
    print(f"addon-test: wrote {OUT}", flush=True)


main()
