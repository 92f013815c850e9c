"""What the add-on keeps of an imported model so that export gives the game file back exactly:
the files it was read from (on the armature, ``_relic_source``: base64 in JSON, hidden from the
Custom Properties panel by its leading underscore), and a digest of each thing as Blender held it
right after import — every mesh, bone, action, attachment, emitter, material and image. Export
computes the digests again: what is unchanged is taken from the file as it was, bit for bit;
only what was edited is written anew."""

import array
import base64
import hashlib
import json
import os
import tempfile

import bpy

from . import compat

SOURCE = "_relic_source"
DIGESTS = "_relic_digests"


def _floats(collection, attribute, width):
    out = array.array("f", [0.0]) * (width * len(collection))
    if len(collection):
        collection.foreach_get(attribute, out)
    return out


def _ints(collection, attribute, width=1):
    out = array.array("i", [0]) * (width * len(collection))
    if len(collection):
        collection.foreach_get(attribute, out)
    return out


def mesh_digest(obj):
    """The geometry of a mesh object as Blender holds it: vertices, corners, faces, UVs, custom
    normals, weights by group name, shape keys, materials, and where it hangs."""
    h = hashlib.sha1()
    data = obj.data
    for part in (
        _floats(data.vertices, "co", 3),
        _ints(data.loops, "vertex_index"),
        _ints(data.polygons, "loop_start"),
        _ints(data.polygons, "loop_total"),
        _ints(data.polygons, "material_index"),
    ):
        h.update(part.tobytes())
    for layer in data.uv_layers:
        h.update(layer.name.encode())
        h.update(_floats(layer.data, "uv", 2).tobytes())
    h.update(compat.corner_normals(data).tobytes())
    names = [g.name for g in obj.vertex_groups]
    weights = [(v.index, g.group, g.weight) for v in data.vertices for g in v.groups]
    h.update(repr([(v, names[g] if g < len(names) else g) for v, g, _ in weights]).encode())
    h.update(array.array("f", [w for _, _, w in weights]).tobytes())
    if data.shape_keys is not None:
        for key in data.shape_keys.key_blocks:
            h.update(key.name.encode())
            h.update(_floats(key.data, "co", 3).tobytes())
    h.update(repr([m.name if m else None for m in data.materials]).encode())
    h.update(repr((obj.parent.name if obj.parent else None, obj.parent_type, obj.parent_bone)).encode())
    h.update(array.array("f", [x for row in obj.matrix_local for x in row]).tobytes())
    return h.hexdigest()


def bone_digest(bone):
    """A bone's rest pose, parent and name as Blender holds it."""
    h = hashlib.sha1()
    h.update(bone.name.encode())
    h.update((bone.parent.name if bone.parent else "").encode())
    h.update(array.array("f", [x for row in bone.matrix_local for x in row]).tobytes())
    return h.hexdigest()


def action_digest(action):
    """Every key of an action: paths, indices, times, values, handles and interpolations."""
    h = hashlib.sha1()
    h.update(action.name.encode())
    curves = sorted(compat.fcurves(action), key=lambda c: (c.data_path, c.array_index))
    for curve in curves:
        h.update(f"{curve.data_path}[{curve.array_index}]".encode())
        points = curve.keyframe_points
        for attribute in ("co", "handle_left", "handle_right"):
            h.update(_floats(points, attribute, 2).tobytes())
        h.update(_ints(points, "interpolation").tobytes())
    for marker in action.pose_markers:
        h.update(f"{marker.name}@{marker.frame}".encode())
    h.update(repr(tuple(getattr(action, a, None) for a in ("frame_start", "frame_end", "use_cyclic"))).encode())
    return h.hexdigest()


def placed_digest(obj):
    """An empty or stand-in: its name, where it hangs and where it is relative to that (not the
    pose the armature is in)."""
    h = hashlib.sha1()
    h.update(repr((obj.name, obj.parent.name if obj.parent else None, obj.parent_type, obj.parent_bone)).encode())
    for m in (obj.matrix_parent_inverse, obj.matrix_basis):
        h.update(array.array("f", [x for row in m for x in row]).tobytes())
    return h.hexdigest()


def image_digest(image):
    """The pixels of an image."""
    h = hashlib.sha1()
    h.update(repr(tuple(image.size)).encode())
    h.update(_floats_pixels(image).tobytes())
    return h.hexdigest()


def _floats_pixels(image):
    out = array.array("f", [0.0]) * (len(image.pixels))
    if len(out):
        image.pixels.foreach_get(out)
    return out


def material_digest(mat):
    """What the add-on reads back of a material: blending, sides and its image."""
    image = material_image(mat)
    return repr((mat.name, mat.use_backface_culling, getattr(mat, "blend_method", None), image.name if image else None))


def material_image(mat):
    """The image of a material's first image texture node, or ``None``."""
    if not mat or not mat.use_nodes or not mat.node_tree:
        return None
    for node in mat.node_tree.nodes:
        if node.type == "TEX_IMAGE" and node.image is not None:
            return node.image
    return None


def store(armature, model, *, path, files, meshes, actions, materials):
    """Keeps the source files and the digests of what was just built on ``armature``."""
    sources = {}
    for f in files:
        with open(f, "rb") as handle:
            sources[os.path.basename(f)] = base64.b64encode(handle.read()).decode("ascii")
    armature[SOURCE] = json.dumps(
        {"path": str(path), "main": os.path.basename(str(files[0])) if files else "", "files": sources,
         "format": model.format, "version": model.version},
        separators=(",", ":"),
    )
    images = {}
    for mat in materials:
        image = material_image(mat)
        if image is not None and image.name not in images:
            images[image.name] = image_digest(image)
    digests = {
        "meshes": {str(i): mesh_digest(obj) for i, obj in meshes},
        "bones": {str(b.get("relic_index", -1)): bone_digest(b) for b in armature.data.bones},
        "actions": {str(c): action_digest(a) for c, a in actions},
        "materials": {str(m.get("relic_index", -1)): material_digest(m) for m in materials},
        "images": images,
        "placed": {},
    }
    for child in bpy.data.objects:
        if child.parent == armature and ("relic_attachment" in child or "relic_emitter" in child):
            key = f"a{child['relic_attachment']}" if "relic_attachment" in child else f"e{child['relic_emitter']}"
            digests["placed"][key] = placed_digest(child)
    armature[DIGESTS] = json.dumps(digests, separators=(",", ":"))


def source_of(armature):
    """The stored source (``{"main", "files", "format", "version", "path"}``) or ``None``."""
    text = armature.get(SOURCE)
    if not text:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return None


def digests_of(armature):
    text = armature.get(DIGESTS)
    try:
        return json.loads(text) if text else None
    except ValueError:
        return None


def open_source(source, relic, **options):
    """The model as it was imported: its files written to a temporary folder and opened there
    (the folder is removed after)."""
    with tempfile.TemporaryDirectory(prefix="relic-source-") as folder:
        for name, data in source["files"].items():
            with open(os.path.join(folder, name), "wb") as handle:
                handle.write(base64.b64decode(data))
        main = os.path.join(folder, source["main"])
        anims = [os.path.join(folder, n) for n in source["files"] if n.lower().endswith(".nad")]
        return relic.open(main, anims=anims, **options)
