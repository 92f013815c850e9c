"""relic from Python beside the relic command, side by side in one run (issue 37; docs/PERFORMANCE.md).

    python benches/python/speed.py RELIC_BINARY CORPUS [--rounds N]

Run it with an interpreter that has the wheel installed (`cargo xtask python` leaves one in
target/python/test). It measures, alternating the two sides each round:

1. GnomePounder-vanilla (`m2/GnomePounder-vanilla.m2` under CORPUS): `relic.open` and reading every
   buffer of the model (each mesh array, each channel's times and values; then also each image's
   PNG bytes) in this process, beside `relic info` on it as a whole process.
2. Every model `relic batch --to glb` converts under CORPUS: `relic.convert` of each from a
   `concurrent.futures` thread pool (one thread a core), beside `relic batch` as a process.

Prints a Markdown table: the median and best of the rounds, and the ratio of the medians.
"""

import concurrent.futures
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import relic


def read_all(model, images=False):
    """Reads every number of every buffer once (and each image's PNG bytes with `images`); returns
    how many bytes that was."""
    total = 0

    def touch(buf):
        nonlocal total
        view = memoryview(buf)
        total += view.nbytes
        if view.nbytes:
            bytes(view)  # every byte read once, as a consumer that copies them out would

    for mesh in model.meshes:
        for buf in (mesh.positions, mesh.normals, mesh.indices, mesh.skin_offsets, mesh.joints, mesh.weights):
            touch(buf)
        for uv in mesh.uv_sets:
            touch(uv)
    for clip in model.clips:
        for ch in clip.channels:
            touch(ch.times)
            touch(ch.values)
    for material in model.materials if images else ():
        for texture in material.textures:
            if texture.image is not None:
                touch(texture.image.png)
    return total


def timed(f):
    started = time.perf_counter()
    f()
    return time.perf_counter() - started


def row(name, values):
    return f"| {name} | {statistics.median(values) * 1e3:.1f} ms | {min(values) * 1e3:.1f} ms |"


def main():
    args = sys.argv[1:]
    rounds = 7
    if "--rounds" in args:
        i = args.index("--rounds")
        rounds = int(args[i + 1])
        del args[i : i + 2]
    relic_bin, corpus = args
    gnome = os.path.join(corpus, "m2", "GnomePounder-vanilla.m2")
    work = tempfile.mkdtemp(prefix="relic-speed-")
    listed = subprocess.run(
        [relic_bin, "batch", "--force", "--json", "--to", "glb", corpus, os.path.join(work, "list")],
        capture_output=True,
        text=True,
    )
    models = []
    for line in listed.stdout.splitlines():
        try:
            v = json.loads(line)
        except ValueError:
            continue
        if v.get("status") == "converted":
            models.append(v["input"])
    if not models:
        sys.exit(f"relic batch converted nothing under {corpus}")
    threads = os.cpu_count() or 2
    info, in_process, with_images, batch, pool = [], [], [], [], []
    read_bytes = read_all(relic.open(gnome))
    image_bytes = read_all(relic.open(gnome), images=True) - read_bytes
    for _ in range(rounds):
        info.append(timed(lambda: subprocess.run([relic_bin, "info", gnome], capture_output=True, check=True)))
        in_process.append(timed(lambda: read_all(relic.open(gnome))))
        with_images.append(timed(lambda: read_all(relic.open(gnome), images=True)))
        out = os.path.join(work, "batch")
        shutil.rmtree(out, ignore_errors=True)
        batch.append(
            timed(lambda: subprocess.run([relic_bin, "batch", "--force", "--no-progress", "--to", "glb", corpus, out], capture_output=True))
        )
        out = os.path.join(work, "threads")
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(out)

        def convert_all():
            def one(i_src):
                i, src = i_src
                relic.convert(src, os.path.join(out, f"{i}.glb"))

            with concurrent.futures.ThreadPoolExecutor(max_workers=threads) as ex:
                list(ex.map(one, enumerate(models)))

        pool.append(timed(convert_all))
    shutil.rmtree(work, ignore_errors=True)
    med = statistics.median
    print(f"- rounds: {rounds}; load average after: {open('/proc/loadavg').read().split()[:3]}")
    print(f"- GnomePounder-vanilla: {read_bytes} bytes of buffers read, {image_bytes} bytes of PNG")
    print(f"- corpus: {len(models)} models, {threads} threads\n")
    print("| what | median | best |\n|---|---:|---:|")
    print(row("`relic info GnomePounder-vanilla.m2` (process)", info))
    print(row("`relic.open` + every buffer read (in process)", in_process))
    print(row("the same and every image's PNG (found and encoded on access)", with_images))
    print(row(f"`relic batch --to glb` of {len(models)} models (process)", batch))
    print(row(f"`relic.convert` of the same from {threads} threads", pool))
    print()
    print(f"- open + buffers ÷ `relic info`: {med(in_process) / med(info):.2f}× (medians), {min(in_process) / min(info):.2f}× (best)")
    print(f"- threads ÷ `relic batch`: {med(pool) / med(batch):.2f}× (medians), {min(pool) / min(batch):.2f}× (best)")


if __name__ == "__main__":
    main()
