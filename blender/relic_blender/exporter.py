"""Blender data as a relic model, for export. An armature imported by the add-on carries the files
it came from and a digest of everything as imported (``records.py``): each mesh, bone, action,
attachment, emitter, material and image whose digest is unchanged is taken from those files as it
was, so that an unedited import exports byte for byte; what was edited is read from Blender. An
armature without records (a model made in Blender) is read whole."""

import array
import re

import bpy
from mathutils import Matrix, Quaternion, Vector

from . import compat, frames, importer, records

SUFFIX = re.compile(r"\.\d{3}$")


class Report(importer.Report):
    """What the export changed or could not carry, counted."""


def clean(name):
    """A name without the ``.001`` Blender adds to keep names unique."""
    return SUFFIX.sub("", name)


def children(armature, predicate):
    return [o for o in bpy.data.objects if o.parent == armature and predicate(o)]


def is_mesh(obj):
    return obj.type == "MESH" and "relic_emitter" not in obj


def is_attachment(obj):
    return obj.type == "EMPTY" and "relic_emitter" not in obj


def armature_actions(armature):
    """The actions of the armature: its NLA tracks' in order, then its active one."""
    out = []
    data = armature.animation_data
    if data is None:
        return out
    for track in data.nla_tracks:
        for strip in track.strips:
            if strip.action is not None and strip.action not in out:
                out.append(strip.action)
    if data.action is not None and data.action not in out:
        out.append(data.action)
    return out


def build(relic, armature, report):
    """The model to save for ``armature``."""
    bpy.context.view_layer.update()
    source = records.source_of(armature)
    digests = records.digests_of(armature) or {}
    original = records.open_source(source, relic) if source else None
    model = original if original is not None else relic.Model(clean(armature.name))
    old_bones = list(model.bones) if original is not None else []
    bones, remap = export_bones(relic, armature, old_bones, digests.get("bones", {}), report)
    model.bones = bones
    materials = export_materials(relic, armature, model, digests, report)
    model.meshes = export_meshes(relic, armature, model, remap, materials, digests.get("meshes", {}), report)
    model.clips = export_clips(relic, armature, model, remap, digests.get("actions", {}), report)
    model.attachments = export_attachments(relic, armature, model, remap, digests.get("placed", {}), report)
    model.emitters = export_emitters(relic, armature, model, remap, digests.get("placed", {}), report)
    return model


# Bones ---------------------------------------------------------------------------------------


def ordered_bones(armature):
    """Blender's bones, imported ones in their file order first, then new ones parents first."""
    bones = list(armature.data.bones)
    known = sorted((b for b in bones if "relic_index" in b), key=lambda b: b["relic_index"])
    new = [b for b in bones if "relic_index" not in b]
    done = {b.name for b in known}
    ordered_new = []
    while new:
        progress = [b for b in new if b.parent is None or b.parent.name in done]
        if not progress:
            progress = new[:1]
        for b in progress:
            ordered_new.append(b)
            done.add(b.name)
            new.remove(b)
    return known + ordered_new


def model_bind(bone):
    """A Blender bone's rest as a model-frame matrix."""
    return frames.TO_MODEL @ bone.matrix_local


def export_bones(relic, armature, old, digests, report):
    """The bones, and the index each imported bone has now (``None``: deleted)."""
    ordered = ordered_bones(armature)
    index = {b.name: i for i, b in enumerate(ordered)}
    remap = [None] * len(old)
    out = []
    edited = 0
    for i, bone in enumerate(ordered):
        parent = index.get(bone.parent.name) if bone.parent else None
        k = bone.get("relic_index")
        kept = k is not None and 0 <= k < len(old) and digests.get(str(k)) == records.bone_digest(bone)
        if kept:
            b = old[k]
            b.parent = parent
            remap[k] = i
            out.append(b)
            continue
        bind = model_bind(bone)
        local = model_bind(bone.parent).inverted() @ bind if bone.parent else bind
        loc, rot, scale = local.decompose()
        rest = relic.Transform(translation=tuple(loc), rotation=(rot.x, rot.y, rot.z, rot.w), scale=tuple(scale))
        b = relic.Bone(clean(bone.name), parent=parent, rest=rest)
        if k is not None and 0 <= k < len(old):
            previous = old[k]
            for flag in ("inherit_translation", "inherit_rotation", "inherit_scale", "rotation_only", "billboard"):
                setattr(b, flag, getattr(previous, flag))
            remap[k] = i
        edited += 1
        out.append(b)
    report.add("bones moved, renamed or added (rest poses read from Blender)", edited)
    report.add("bones deleted", sum(1 for r in remap if r is None))
    return out, remap


# Materials and images ------------------------------------------------------------------------


def blender_image_to_relic(relic, image):
    """A Blender image's pixels as a ``relic.Image`` (rows top first)."""
    w, h = image.size
    pixels = array.array("f", [0.0]) * (w * h * 4)
    image.pixels.foreach_get(pixels)
    rgba = bytearray(w * h * 4)
    row = 4 * w
    for y in range(h):
        src = (h - 1 - y) * row
        dst = y * row
        for x in range(row):
            v = pixels[src + x]
            rgba[dst + x] = 0 if v <= 0 else 255 if v >= 1 else int(v * 255 + 0.5)
    return relic.Image(w, h, bytes(rgba), name=image.name)


def export_materials(relic, armature, model, digests, report):
    """The model's materials (imported ones kept, edited ones updated, new ones added) and, for
    each Blender material, its index."""
    index = {}
    old_digests = digests.get("materials", {})
    image_digests = digests.get("images", {})
    used = []
    for obj in children(armature, is_mesh):
        for m in obj.data.materials:
            if m is not None and m not in used:
                used.append(m)
    for mat in used:
        k = mat.get("relic_index")
        if k is not None and 0 <= k < len(model.materials):
            index[mat.name] = k
            material = model.materials[k]
            if old_digests.get(str(k)) != records.material_digest(mat):
                material.double_sided = not mat.use_backface_culling
                report.add("materials edited")
            image = records.material_image(mat)
            if image is not None and image_digests.get(image.name) not in (None, records.image_digest(image)):
                if material.textures:
                    material.textures[0].image = blender_image_to_relic(relic, image)
                    report.add("images changed (written as the game's textures)")
            continue
        material = relic.Material(clean(mat.name))
        image = records.material_image(mat)
        if image is not None:
            path = image.get("relic_game_path") or image.name
            material.textures = [relic.Texture(path, image=blender_image_to_relic(relic, image))]
        material.double_sided = not mat.use_backface_culling
        index[mat.name] = len(model.materials)
        model.materials.append(material)
        report.add("materials added")
    return index


# Meshes --------------------------------------------------------------------------------------


def export_meshes(relic, armature, model, remap, materials, digests, report):
    old = list(model.meshes)
    kept = {}
    new = []
    objects = children(armature, is_mesh)
    for obj in objects:
        k = obj.get("relic_index")
        if k is not None and 0 <= k < len(old) and digests.get(str(k)) == records.mesh_digest(obj):
            mesh = old[k]
            mesh.name = clean(obj.name) if clean(obj.name) != mesh.name and obj.name != mesh.name else mesh.name
            if any(r != i for i, r in enumerate(remap)):
                remap_joints(mesh, remap, report)
            kept[k] = [mesh]
            continue
        rebuilt = mesh_from_blender(relic, armature, obj, materials, report)
        report.add("degenerate triangles of edited meshes not written (zero area)", obj.get("relic_degenerate_triangles", 0))
        if k is not None and 0 <= k < len(old):
            for m in rebuilt:
                m.lod, m.lod_distance, m.part_id = old[k].lod, old[k].lod_distance, old[k].part_id
            kept[k] = rebuilt
            report.add("meshes edited (read from Blender)")
        else:
            new.extend(rebuilt)
            report.add("meshes added", len(rebuilt))
    report.add("meshes deleted", sum(1 for k in range(len(old)) if k not in kept))
    return [m for k in sorted(kept) for m in kept[k]] + new


def remap_joints(mesh, remap, report):
    joints = array.array("I", mesh.joints)
    lost = 0
    for i, j in enumerate(joints):
        r = remap[j] if j < len(remap) else None
        if r is None:
            lost += 1
            r = 0
        joints[i] = r
    mesh.joints = joints
    report.add("influences on deleted bones moved to bone 0", lost)


def mesh_from_blender(relic, armature, obj, materials, report):
    """A Blender mesh object as relic meshes (one a material), split where a vertex's corners
    disagree on UVs or normals."""
    data = obj.data
    data.calc_loop_triangles()
    to_model = frames.TO_MODEL @ obj.matrix_local
    normal_matrix = to_model.to_3x3().inverted().transposed()
    corner_normals = compat.corner_normals(data)
    uv_layers = [layer.data for layer in data.uv_layers]
    uvs = [records._floats(layer, "uv", 2) for layer in uv_layers]
    bone_index = {b.name: i for i, b in enumerate(ordered_bones(armature))}
    group_bone = {g.index: bone_index.get(g.name) for g in obj.vertex_groups}
    skinned = any(b is not None for b in group_bone.values())
    by_material = {}
    for tri in data.loop_triangles:
        by_material.setdefault(tri.material_index, []).append(tri)
    out = []
    unweighted = 0
    for slot, tris in sorted(by_material.items()):
        mat = data.materials[slot] if slot < len(data.materials) else None
        keys = {}
        positions, normals, uv_sets, indices = [], [], [[] for _ in uvs], []
        influences = []
        for tri in tris:
            for loop in tri.loops:
                v = data.loops[loop].vertex_index
                n = tuple(corner_normals[3 * loop : 3 * loop + 3])
                uv = tuple(tuple(u[2 * loop : 2 * loop + 2]) for u in uvs)
                key = (v, n, uv)
                at = keys.get(key)
                if at is None:
                    at = len(keys)
                    keys[key] = at
                    p = to_model @ Vector(data.vertices[v].co)
                    positions.extend(p)
                    nn = (normal_matrix @ Vector(n)).normalized()
                    normals.extend(nn)
                    for s, (a, b) in enumerate(uv):
                        uv_sets[s].extend((a, 1.0 - b))
                    if skinned:
                        weights = [(group_bone.get(g.group), g.weight) for g in data.vertices[v].groups]
                        weights = [(b, w) for b, w in weights if b is not None and w > 0]
                        if not weights:
                            unweighted += 1
                            weights = [(bone_index.get(obj.parent_bone, 0), 1.0)]
                        total = sum(w for _, w in weights)
                        influences.append([(b, w / total) for b, w in weights])
                indices.append(at)
        mesh = relic.Mesh(clean(obj.name), positions=positions, indices=indices, normals=normals)
        mesh.uv_sets = uv_sets
        if skinned:
            offsets = [0]
            joints, weights = [], []
            for vertex in influences:
                for b, w in vertex:
                    joints.append(b)
                    weights.append(w)
                offsets.append(len(joints))
            mesh.skin_offsets = array.array("I", offsets)
            mesh.joints = array.array("I", joints)
            mesh.weights = array.array("f", weights)
        mesh.lod = obj.get("relic_lod", 0)
        mesh.part_id = obj.get("relic_part_id")
        mesh.material = materials.get(mat.name) if mat is not None else None
        out.append(mesh)
    if len(by_material) > 1:
        report.add("meshes with several materials split into one mesh a material")
    report.add("vertices without weights bound to their object's bone", unweighted)
    extra = [m for m in obj.modifiers if m.type != "ARMATURE"]
    report.add("modifiers other than Armature not applied", len(extra))
    return out


# Clips ---------------------------------------------------------------------------------------


PATHS = {"location": ("translation", 3), "rotation_quaternion": ("rotation", 4), "scale": ("scale", 3)}
BONE_PATH = re.compile(r'pose\.bones\["(.+)"\]\.(location|rotation_quaternion|scale)$')


def export_clips(relic, armature, model, remap, digests, report):
    old = list(model.clips)
    out = []
    rests = {b.name: local_rest(b) for b in armature.data.bones}
    bone_index = {b.name: i for i, b in enumerate(ordered_bones(armature))}
    seen = set()
    for action in armature_actions(armature):
        k = action.get("relic_clip")
        if k is not None and 0 <= k < len(old) and digests.get(str(k)) == records.action_digest(action):
            clip = old[k]
            if any(r != i for i, r in enumerate(remap)):
                remap_channels(clip, remap)
            out.append(clip)
            seen.add(k)
            continue
        clip = clip_from_action(relic, action, rests, bone_index, report)
        if k is not None and 0 <= k < len(old):
            previous = old[k]
            clip.blend_in = previous.blend_in
            clip.bounds = previous.bounds
            clip.key_bounds = previous.key_bounds
            merge_events(clip, previous)
            seen.add(k)
            report.add("clips edited (keys read from Blender)")
        else:
            report.add("clips added")
        out.append(clip)
    report.add("clips deleted", sum(1 for k in range(len(old)) if k not in seen))
    return out


def remap_channels(clip, remap):
    clip.channels = [c for c in clip.channels if c.bone < len(remap) and remap[c.bone] is not None]
    for c in clip.channels:
        c.bone = remap[c.bone]
    for e in clip.events:
        if e.bone is not None:
            e.bone = remap[e.bone] if e.bone < len(remap) else None


def local_rest(bone):
    """A Blender bone's rest relative to its parent (what pose values are relative to)."""
    if bone.parent is None:
        m = frames.TO_MODEL @ bone.matrix_local
    else:
        m = bone.parent.matrix_local.inverted() @ bone.matrix_local
    loc, rot, _ = m.decompose()
    return loc, rot


def clip_from_action(relic, action, rests, bone_index, report):
    fps = bpy.context.scene.render.fps / bpy.context.scene.render.fps_base
    start = action.frame_start if getattr(action, "use_frame_range", False) else action.frame_range[0]
    end = action.frame_end if getattr(action, "use_frame_range", False) else action.frame_range[1]
    clip = relic.Clip(clean(action.name), max(0.0, (end - start) / fps))
    clip.looping = bool(getattr(action, "use_cyclic", False) or action.get("relic_looping", False))
    groups = {}
    for curve in compat.fcurves(action):
        match = BONE_PATH.match(curve.data_path)
        if not match:
            continue
        groups.setdefault((match.group(1), match.group(2)), {})[curve.array_index] = curve
    channels = []
    sampled = 0
    for (bone, path), curves in sorted(groups.items(), key=lambda g: (bone_index.get(g[0][0], 1 << 30), g[0][1])):
        if bone not in bone_index or bone not in rests:
            continue
        prop, width = PATHS[path]
        frames_at = sorted({p.co[0] for c in curves.values() for p in c.keyframe_points})
        kinds = {p.interpolation for c in curves.values() for p in c.keyframe_points}
        if kinds <= {"CONSTANT"}:
            interpolation = "step"
        elif kinds <= {"LINEAR", "CONSTANT"} and "CONSTANT" not in kinds:
            interpolation = "linear"
        else:
            interpolation = "linear"
            if frames_at:
                lo, hi = frames_at[0], frames_at[-1]
                frames_at = sorted(set(frames_at) | {float(f) for f in range(int(lo) + 1, int(hi) + 1)})
                sampled += 1
        default = [1.0, 0.0, 0.0, 0.0] if prop == "rotation" else [1.0] * 3 if prop == "scale" else [0.0] * 3
        rest_loc, rest_rot = rests[bone]
        values = []
        for f in frames_at:
            v = [curves[i].evaluate(f) if i in curves else default[i] for i in range(width)]
            if prop == "translation":
                t = rest_loc + rest_rot @ Vector(v)
                values.extend(t)
            elif prop == "rotation":
                q = (rest_rot @ Quaternion(v)).normalized()
                values.extend((q.x, q.y, q.z, q.w))
            else:
                values.extend(v)
        times = [(f - start) / fps for f in frames_at]
        channels.append(relic.Channel(bone_index[bone], prop, times, values, interpolation=interpolation))
    clip.channels = channels
    clip.events = [relic.Event(m.name, (m.frame - start) / fps) for m in sorted(action.pose_markers, key=lambda m: m.frame)]
    report.add("channels with Bézier keys sampled at every frame", sampled)
    return clip


def merge_events(clip, previous):
    """Events Blender shows as markers keep what a marker cannot hold (bone, position, data) when
    their name and place are unchanged."""
    kept = {(e.name, round(e.time * importer.FPS)): e for e in previous.events}
    events = []
    for e in clip.events:
        match = kept.get((e.name, round(e.time * importer.FPS)))
        events.append(match if match is not None else e)
    clip.events = events


# Attachments and emitters --------------------------------------------------------------------


def placement(relic, armature, obj):
    """Where an empty is relative to its bone's rest, in the model's frame, and the bone."""
    bone = armature.data.bones.get(obj.parent_bone) if obj.parent_type == "BONE" else None
    world = frames.TO_MODEL @ importer.rest_placement(obj, armature)
    if bone is not None:
        world = (frames.TO_MODEL @ bone.matrix_local).inverted() @ world
    loc, rot, scale = world.decompose()
    transform = relic.Transform(translation=tuple(loc), rotation=(rot.x, rot.y, rot.z, rot.w), scale=tuple(scale))
    return transform, bone


def export_attachments(relic, armature, model, remap, digests, report):
    old = list(model.attachments)
    bone_index = {b.name: i for i, b in enumerate(ordered_bones(armature))}
    out = []
    for obj in sorted(children(armature, is_attachment), key=lambda o: o.get("relic_attachment", 1 << 30)):
        k = obj.get("relic_attachment")
        if k is not None and 0 <= k < len(old) and digests.get(f"a{k}") == records.placed_digest(obj):
            a = old[k]
            if a.bone < len(remap) and remap[a.bone] is not None:
                a.bone = remap[a.bone]
            out.append(a)
            continue
        transform, bone = placement(relic, armature, obj)
        a = relic.Attachment(clean(obj.name), bone_index.get(bone.name, 0) if bone else 0, transform)
        if "relic_attachment_id" in obj:
            a.id = obj["relic_attachment_id"]
        report.add("attachments moved, re-parented or added" if k is None or k >= len(old) else "attachments edited")
        out.append(a)
    kept = {o.get("relic_attachment") for o in children(armature, is_attachment)}
    report.add("attachments deleted", sum(1 for k in range(len(old)) if k not in kept))
    return out


def export_emitters(relic, armature, model, remap, digests, report):
    old = list(model.emitters)
    bone_index = {b.name: i for i, b in enumerate(ordered_bones(armature))}
    out = []
    for obj in sorted(children(armature, lambda o: "relic_emitter" in o), key=lambda o: o["relic_emitter"]):
        k = obj["relic_emitter"]
        if not 0 <= k < len(old):
            continue
        e = old[k]
        if digests.get(f"e{k}") != records.placed_digest(obj):
            transform, bone = placement(relic, armature, obj)
            e.transform = transform
            if bone is not None:
                e.bone = bone_index.get(bone.name, e.bone)
            report.add("emitters moved")
        elif e.bone < len(remap) and remap[e.bone] is not None:
            e.bone = remap[e.bone]
        out.append(e)
    report.add("emitters deleted", len(old) - len(out))
    return out
