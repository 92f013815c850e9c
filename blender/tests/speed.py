"""The add-on's import beside Blender's own glTF importer, in one Blender run (issue 38; the table in
docs/PERFORMANCE.md). Every model under CORPUS that relic reads: `import_scene.relic` of the game
file, and `import_scene.gltf` of relic's glb of it (converted first, not timed), each the best of
ROUNDS into an emptied scene.

    target/python/bpy/bin/python blender/tests/speed.py -- EXTENSION.zip CORPUS WORK [ROUNDS]

(`bpy` 5 from PyPI, where the glTF importer works; Debian's 3.4 fails it even on a cube.) Prints a
Markdown table and the totals.
"""

import importlib
import os
import sys
import time

import bpy

ZIP, CORPUS, WORK = sys.argv[sys.argv.index("--") + 1 :][:3]
ROUNDS = int((sys.argv[sys.argv.index("--") + 1 :] + ["3"])[3])

bpy.ops.extensions.package_install_files(filepath=ZIP, repo="user_default", enable_on_install=True)
relic = importlib.import_module("bl_ext.user_default.relic_blender").relic_module()


def reset():
    for c in (bpy.data.objects, bpy.data.meshes, bpy.data.armatures, bpy.data.actions, bpy.data.images,
              bpy.data.materials, bpy.data.collections, bpy.data.textures):
        bpy.data.batch_remove(list(c))


def best_of(call):
    best, result = None, None
    for _ in range(ROUNDS):
        reset()
        started = time.perf_counter()
        try:
            result = call()
        except Exception as e:  # the importer's own failure: its first line in the table
            result = {"failed: " + str(e).strip().splitlines()[-1][:80]}
        took = time.perf_counter() - started
        best = took if best is None else min(best, took)
    return best, result


models = []
for root, _, files in os.walk(CORPUS):
    for name in sorted(files):
        path = os.path.join(root, name)
        kind = relic.detect(path)
        if kind is not None and kind.content == "model" and kind.readable:
            models.append(path)
models.sort()
os.makedirs(WORK, exist_ok=True)
print(f"- Blender {bpy.app.version_string}; {len(models)} models; best of {ROUNDS} rounds each\n")
print("| model | add-on | glTF importer (relic's glb) | add-on ÷ glTF |\n|---|---:|---:|---:|")
totals = [0.0, 0.0]
compared = 0
for i, path in enumerate(models):
    glb = os.path.join(WORK, f"{i:03d}.glb")
    try:
        relic.convert(path, glb, force=True)
    except relic.Error as e:
        print(f"| {os.path.relpath(path, CORPUS)} | — | — | not converted: {str(e)[:60]} |")
        continue
    ours, ours_result = best_of(lambda: bpy.ops.import_scene.relic(filepath=path))
    theirs, theirs_result = best_of(lambda: bpy.ops.import_scene.gltf(filepath=glb))
    name = os.path.relpath(path, CORPUS)
    if ours_result != {"FINISHED"} or theirs_result != {"FINISHED"}:
        print(f"| {name} | {ours * 1e3:.0f} ms {sorted(ours_result)} | {theirs * 1e3:.0f} ms {sorted(theirs_result)} | — |")
        continue
    totals[0] += ours
    totals[1] += theirs
    compared += 1
    print(f"| {name} | {ours * 1e3:.0f} ms | {theirs * 1e3:.0f} ms | {ours / theirs:.2f}× |", flush=True)
print(f"| **all {compared} both import** | {totals[0]:.2f} s | {totals[1]:.2f} s | {totals[0] / max(totals[1], 1e-9):.2f}× |")
