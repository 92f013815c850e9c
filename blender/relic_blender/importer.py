"""A relic model as Blender data: one armature (the model's root) with its bones, meshes skinned
to it, materials with their images packed, every clip as an action kept in the NLA, LODs in
collections of their own (beyond LOD 0 hidden), attachments as empties on their bones, emitters
as stand-ins. What Blender cannot show is kept on the armature (``records.py``) so that export
gives the file back exactly."""

import array
import math

import bpy
from mathutils import Matrix

from . import compat, frames, records

#: Frames per second of the actions (keys keep their exact times as fractional frames).
FPS = 30

#: The last frame Blender has.
MAX_FRAME = 1048574

#: A relic interpolation → Blender's keyframe interpolation enum value.
INTERPOLATION = {"step": "CONSTANT", "linear": "LINEAR", "cubicspline": "BEZIER"}
# Blender's number for each keyframe interpolation (what ``foreach_set`` takes).
INTERPOLATION_VALUE = {
    name: bpy.types.Keyframe.bl_rna.properties["interpolation"].enum_items[name].value
    for name in INTERPOLATION.values()
}


class Report:
    """What the import could not show, counted: the operator's report lines."""

    def __init__(self):
        self.counts = {}
        self.notes = []

    def add(self, what, n=1):
        """Counts ``n`` more of ``what`` (a plural phrase: ``meshes edited``)."""
        if n:
            self.counts[what] = self.counts.get(what, 0) + n

    def note(self, text):
        """A line of its own (a read note of relic's, with its own counts)."""
        self.notes.append(text)

    def lines(self):
        return self.notes + [f"{n} {what}" for what, n in self.counts.items()]


def import_model(context, model, path, *, lods="ALL", source_files=None):
    """Builds ``model`` (a ``relic.Model``) into the scene; returns the armature object and a
    :class:`Report`. ``lods``: ``ALL`` (every level, beyond 0 hidden) or ``LOD0``."""
    report = Report()
    for note in model.notes:
        report.note(f"note: {note.text}")
    collection = bpy.data.collections.new(model.name or "relic")
    context.scene.collection.children.link(collection)
    size = model_size(model)
    armature = build_armature(context, model, collection, size)
    images = build_images(model)
    materials = [build_material(m, i, images) for i, m in enumerate(model.materials)]
    meshes = build_meshes(model, armature, materials, collection, lods, report)
    build_attachments(model, armature, collection, size)
    build_emitters(model, armature, collection, report, size)
    actions = build_actions(context, model, armature, report)
    # Matrices of objects on bones are computed by the depsgraph: the digests take them as export
    # will see them.
    context.view_layer.update()
    records.store(
        armature,
        model,
        path=path,
        files=source_files if source_files is not None else model.files,
        meshes=meshes,
        actions=actions,
        materials=materials,
    )
    scene = context.scene
    scene.render.fps = FPS
    scene.render.fps_base = 1.0
    if actions:
        first = actions[0][1]
        compat.assign_action(armature, first)
        scene.frame_start = 0
        scene.frame_end = max(1, min(MAX_FRAME, int(math.ceil(model.clips[actions[0][0]].duration * FPS))))
    for note in unsupported_bone_flags(model):
        report.note(note)
    return armature, report


def rest_frames(model):
    """Each bone's bind pose as Blender holds it: a matrix of rotation and translation (Blender
    bones have no scale), in the model's frame."""
    out = []
    for bone in model.bones:
        if bone.bind_matrix is not None:
            m = frames.relic_matrix(bone.bind_matrix)
        else:
            rest = bone.rest
            m = frames.trs_matrix(rest.translation, rest.rotation, rest.scale)
            if bone.parent is not None and bone.parent < len(out):
                m = out[bone.parent] @ m
        loc, rot, _ = m.decompose()
        out.append(Matrix.Translation(loc) @ rot.to_matrix().to_4x4())
    return out


def bone_length(model, binds, i, default):
    head = binds[i].translation
    for j, other in enumerate(model.bones):
        if other.parent == i:
            d = (binds[j].translation - head).length
            if d > 1e-4:
                return d
    return default


def model_size(model):
    """The largest extent of the model's vertices (1 for none)."""
    lo = [math.inf] * 3
    hi = [-math.inf] * 3
    for mesh in model.meshes:
        p = mesh.positions
        for axis in range(3):
            values = p[axis::3]
            if len(values):
                lo[axis] = min(lo[axis], min(values))
                hi[axis] = max(hi[axis], max(values))
    size = max((h - l for l, h in zip(lo, hi) if h >= l), default=1.0)
    return size if size > 0 else 1.0


def build_armature(context, model, collection, size):
    data = bpy.data.armatures.new(model.name or "relic")
    data.display_type = "STICK"
    obj = bpy.data.objects.new(model.name or "relic", data)
    obj.show_in_front = True
    collection.objects.link(obj)
    if not model.bones:
        return obj
    binds = rest_frames(model)
    default = size * 0.03
    view_layer = context.view_layer
    previous = view_layer.objects.active
    view_layer.objects.active = obj
    bpy.ops.object.mode_set(mode="EDIT")
    edit = data.edit_bones
    made = []
    for i, bone in enumerate(model.bones):
        eb = edit.new(bone.name or f"bone_{i}")
        eb.head = (0, 0, 0)
        eb.tail = (0, max(bone_length(model, binds, i, default), 1e-3), 0)
        eb.matrix = frames.TO_BLENDER @ binds[i]
        made.append(eb)
    for i, bone in enumerate(model.bones):
        if bone.parent is not None and bone.parent < len(made):
            made[i].parent = made[bone.parent]
    names = [eb.name for eb in made]
    bpy.ops.object.mode_set(mode="OBJECT")
    view_layer.objects.active = previous if previous is not None else obj
    for i, name in enumerate(names):
        data.bones[name]["relic_index"] = i
        obj.pose.bones[name].rotation_mode = "QUATERNION"
    obj["relic_bone_names"] = names
    return obj


def bone_name(armature, i):
    names = armature.get("relic_bone_names") or []
    return names[i] if i < len(names) else None


def build_images(model):
    """Each texture's image, packed, named after the game's file; shared by textures that name
    the same file."""
    out = {}
    for m, material in enumerate(model.materials):
        for layer, texture in enumerate(material.textures):
            image = texture.image
            if image is None:
                continue
            name = image.name or texture.path.replace("\\", "/").rsplit("/", 1)[-1] or f"texture_{m}_{layer}"
            key = (name, image.width, image.height)
            if key not in out:
                try:
                    png = image.png
                except Exception:  # a JPEG found under --textures: embedded as it is
                    png = image.data
                img = compat.image_from_png(name, png)
                img["relic_game_path"] = texture.path
                out[key] = img
            out[(m, layer)] = out[key]
    return out


BLEND = {
    "opaque": "OPAQUE",
    "alpha_key": "CLIP",
    "alpha": "BLEND",
    "add": "BLEND",
    "add_alpha": "BLEND",
    "modulate": "BLEND",
    "modulate2x": "BLEND",
}


def build_material(material, index, images):
    mat = bpy.data.materials.new(material.name or f"material {index}")
    mat["relic_index"] = index
    mat["relic_blend"] = material.blend
    mat.use_nodes = True
    mat.use_backface_culling = not material.double_sided
    compat.set_blend(mat, BLEND.get(material.blend, "OPAQUE"))
    if material.blend == "alpha_key" and hasattr(mat, "alpha_threshold"):
        mat.alpha_threshold = material.alpha_cutoff if material.alpha_cutoff is not None else 0.5
    nodes = mat.node_tree.nodes
    bsdf = next((n for n in nodes if n.type == "BSDF_PRINCIPLED"), None)
    image = images.get((index, 0))
    if image is not None and bsdf is not None:
        tex = nodes.new("ShaderNodeTexImage")
        tex.image = image
        tex.location = (-300, 300)
        links = mat.node_tree.links
        links.new(tex.outputs["Color"], bsdf.inputs["Base Color"])
        if material.blend != "opaque":
            links.new(tex.outputs["Alpha"], bsdf.inputs["Alpha"])
        if material.unlit:
            emission = bsdf.inputs.get("Emission Color") or bsdf.inputs.get("Emission")
            if emission is not None:
                links.new(tex.outputs["Color"], emission)
    return mat


def build_meshes(model, armature, materials, collection, lods, report):
    """One object a mesh; returns ``[(model mesh index, object)]``."""
    lod_collections = {}
    out = []
    for i, mesh in enumerate(model.meshes):
        if lods == "LOD0" and mesh.lod != 0:
            report.add("lower-LOD meshes left out (LOD 0 only)")
            continue
        obj = build_mesh(mesh, i, model, armature, materials, report)
        if mesh.lod == 0:
            collection.objects.link(obj)
        else:
            sub = lod_collections.get(mesh.lod)
            if sub is None:
                sub = bpy.data.collections.new(f"{collection.name} LOD {mesh.lod}")
                collection.children.link(sub)
                lod_collections[mesh.lod] = sub
            sub.objects.link(obj)
            obj.hide_set(True) if bpy.context.view_layer.objects.get(obj.name) else None
            obj.hide_viewport = True
            obj.hide_render = True
        out.append((i, obj))
    return out


def proper_triangles(indices):
    """The triangles Blender can hold (three different corners, each a vertex of the mesh), as
    flat indices, and how many were left out (a degenerate triangle, zero area, which the games
    draw as nothing: Blender's faces cannot repeat a vertex)."""
    if all(indices[i] != indices[i + 1] and indices[i] != indices[i + 2] and indices[i + 1] != indices[i + 2] for i in range(0, len(indices), 3)):
        return indices, 0
    kept = array.array("i")
    for i in range(0, len(indices), 3):
        a, b, c = indices[i], indices[i + 1], indices[i + 2]
        if a != b and a != c and b != c:
            kept.extend((a, b, c))
    return kept, (len(indices) - len(kept)) // 3


def build_mesh(mesh, index, model, armature, materials, report):
    data = bpy.data.meshes.new(mesh.name or f"mesh {index}")
    n = mesh.vertex_count
    indices, skipped = proper_triangles(mesh.indices)
    report.add("degenerate triangles (a corner repeated) not shown; kept for export", skipped)
    faces = len(indices) // 3
    data.vertices.add(n)
    data.vertices.foreach_set("co", frames.point_to_blender(mesh.positions))
    data.loops.add(3 * faces)
    data.loops.foreach_set("vertex_index", indices)
    data.polygons.add(faces)
    data.polygons.foreach_set("loop_start", array.array("i", range(0, 3 * faces, 3)))
    data.polygons.foreach_set("loop_total", array.array("i", [3]) * faces)
    for s, uv in enumerate(mesh.uv_sets):
        layer = data.uv_layers.new(name=f"UVMap{'' if s == 0 else s}")
        corners = array.array("f", [0.0]) * (2 * 3 * faces)
        us, vs = uv[0::2], uv[1::2]
        corners[0::2] = array.array("f", [us[v] for v in indices])
        corners[1::2] = array.array("f", [1.0 - vs[v] for v in indices])
        layer.data.foreach_set("uv", corners)
    data.update(calc_edges=True)
    if len(mesh.normals) == 3 * n and n:
        compat.set_custom_normals(data, frames.point_to_blender(mesh.normals))
    if mesh.material is not None and mesh.material < len(materials):
        data.materials.append(materials[mesh.material])
    obj = bpy.data.objects.new(mesh.name or f"mesh {index}", data)
    obj["relic_index"] = index
    if skipped:
        obj["relic_degenerate_triangles"] = skipped
    obj["relic_lod"] = mesh.lod
    if mesh.part_id is not None:
        obj["relic_part_id"] = mesh.part_id
    obj.parent = armature
    if len(mesh.skin_offsets):
        add_weights(obj, mesh, armature)
        modifier = obj.modifiers.new("Armature", "ARMATURE")
        modifier.object = armature
    for target in mesh.morph_targets:
        add_shape_key(obj, target)
    return obj


def add_weights(obj, mesh, armature):
    """Vertex groups from the influences: one ``add`` call per bone and weight value (the vertices
    that share them), not one per influence."""
    offsets, joints, weights = mesh.skin_offsets, mesh.joints, mesh.weights
    if len(offsets) < 2:
        return
    first = offsets[0]
    owners = []
    for v in range(len(offsets) - 1):
        owners.extend([v] * (offsets[v + 1] - offsets[v]))
    batches = {}
    for v, bone, weight in zip(owners, joints[first:], weights[first:]):
        batch = batches.get((bone, weight))
        if batch is None:
            batches[(bone, weight)] = [v]
        else:
            batch.append(v)
    groups = {}
    for (bone, weight), vertices in batches.items():
        group = groups.get(bone)
        if group is None:
            name = bone_name(armature, bone) or f"bone_{bone}"
            group = obj.vertex_groups.new(name=name)
            groups[bone] = group
        group.add(vertices, weight, "ADD")


def add_shape_key(obj, target):
    if obj.data.shape_keys is None:
        obj.shape_key_add(name="Basis", from_mix=False)
    key = obj.shape_key_add(name=target.name or "morph", from_mix=False)
    base = array.array("f", [0.0]) * (3 * len(obj.data.vertices))
    obj.data.vertices.foreach_get("co", base)
    deltas = frames.point_to_blender(target.position_deltas)
    key.data.foreach_set("co", [b + d for b, d in zip(base, deltas)])


def bone_world(armature, model, bone_index):
    """The rest matrix of a bone in Blender's frame (armature space)."""
    name = bone_name(armature, bone_index)
    if name is None or name not in armature.data.bones:
        return Matrix()
    return armature.data.bones[name].matrix_local.copy()


def transform_matrix(t):
    return frames.trs_matrix(t.translation, t.rotation, t.scale)


def parent_to_bone(obj, armature, name):
    obj.parent = armature
    if name is not None and name in armature.data.bones:
        obj.parent_type = "BONE"
        obj.parent_bone = name


def place_on_bone(obj, armature, model, bone_index, local):
    """Puts ``obj`` at ``local`` (a relic transform relative to the bone's bind pose), as a child
    of the bone whatever pose the armature is in."""
    bind = frames.relic_matrix(model.bones[bone_index].bind_matrix) if model.bones[bone_index].bind_matrix else Matrix()
    rest = frames.TO_BLENDER @ bind @ transform_matrix(local)
    name = bone_name(armature, bone_index)
    parent_to_bone(obj, armature, name)
    obj.matrix_parent_inverse = Matrix()
    obj.matrix_basis = parent_rest(obj, armature).inverted_safe() @ rest


def parent_rest(obj, armature):
    """Where ``obj``'s parent space is in the armature's rest pose (armature space): a bone
    parent's tail (Blender hangs bone children there), else the armature itself."""
    bone = armature.data.bones.get(obj.parent_bone) if obj.parent_type == "BONE" else None
    if bone is None:
        return Matrix()
    return bone.matrix_local @ Matrix.Translation((0.0, bone.length, 0.0))


def rest_placement(obj, armature):
    """``obj``'s matrix in armature space in the rest pose (not the pose an action puts the
    armature in)."""
    return parent_rest(obj, armature) @ obj.matrix_parent_inverse @ obj.matrix_basis


def build_attachments(model, armature, collection, size):
    for i, a in enumerate(model.attachments):
        empty = bpy.data.objects.new(a.name or f"attachment {i}", None)
        empty.empty_display_type = "ARROWS"
        empty.empty_display_size = size * 0.05
        empty["relic_attachment"] = i
        if a.id is not None:
            empty["relic_attachment_id"] = a.id
        collection.objects.link(empty)
        if a.bone < len(model.bones):
            place_on_bone(empty, armature, model, a.bone, a.transform)


def build_emitters(model, armature, collection, report, size):
    if not model.emitters:
        return
    stand_in = bpy.data.materials.new("relic emitter stand-in")
    stand_in.diffuse_color = (1.0, 0.5, 0.0, 1.0)
    for i, e in enumerate(model.emitters):
        shown = e.size if e.size > 0 else size * 0.05
        mesh = bpy.data.meshes.new(f"{e.kind} {e.name}")
        h = shown / 2
        mesh.from_pydata([(-h, 0, -h), (h, 0, -h), (h, 0, h), (-h, 0, h)], [], [(0, 1, 2, 3)])
        mesh.materials.append(stand_in)
        obj = bpy.data.objects.new(f"emitter {e.name}", mesh)
        obj["relic_emitter"] = i
        if e.texture:
            obj["relic_texture"] = e.texture
        collection.objects.link(obj)
        if e.bone < len(model.bones):
            place_on_bone(obj, armature, model, e.bone, e.transform)
    report.add("emitters shown as stand-ins (their records are kept for export)", len(model.emitters))


def local_rests(model):
    """Per bone, the rest matrix relative to its parent as Blender holds it (bind poses of the
    bone and its parent, without scale): key values are stored relative to it."""
    binds = rest_frames(model)
    out = []
    for i, bone in enumerate(model.bones):
        if bone.parent is not None and bone.parent < len(binds):
            out.append(binds[bone.parent].inverted() @ binds[i])
        else:
            out.append(binds[i])
    return out


def build_actions(context, model, armature, report):
    """Every clip as an action with the armature's pose keys, kept in a muted NLA track and with a
    fake user; returns ``[(clip index, action)]``."""
    if not model.clips:
        return []
    rests = [m.decompose() for m in local_rests(model)]
    out = []
    for c, clip in enumerate(model.clips):
        action, curves = compat.new_action(clip.name or f"clip {c}", armature)
        action.use_fake_user = True
        action["relic_clip"] = c
        action["relic_looping"] = clip.looping
        if hasattr(action, "use_frame_range"):
            action.use_frame_range = True
            action.frame_start = 0
            action.frame_end = min(max(clip.duration * FPS, 1.0), MAX_FRAME)
            action.use_cyclic = clip.looping
        for channel in clip.channels:
            name = bone_name(armature, channel.bone)
            if name is None:
                continue
            if channel.clock is not None:
                report.add("channels on a global sequence's clock keyed on the clip's timeline")
            add_channel(curves, name, channel, rests[channel.bone])
        if clip.events:
            for event in clip.events:
                marker = action.pose_markers.new(event.name or "event")
                marker.frame = int(round(event.time * FPS))
        if clip.morph_channels:
            report.add("shape-key channels not shown", len(clip.morph_channels))
        compat.push_to_nla(armature, action, 0)
        out.append((c, action))
    return out


def add_channel(curves, bone, channel, rest):
    """The keys of one channel as F-curves of the pose bone, relative to its rest. The per-key
    arithmetic is on plain floats, the keys handed to Blender with ``foreach_set`` (points, then
    their interpolation): a long clip costs what the glTF importer's does, not a Python object per
    key and value."""
    columns = channel_columns(channel)
    if not columns or not len(columns[0]):
        return
    path = {"translation": "location", "rotation": "rotation_quaternion", "scale": "scale"}[channel.property]
    interpolation = INTERPOLATION_VALUE[INTERPOLATION[channel.interpolation]]
    frames_at = [t * FPS for t in channel.times]
    count = len(frames_at)
    co = array.array("f", [0.0]) * (2 * count)
    co[0::2] = array.array("f", frames_at)
    for index, column in enumerate(rest_relative(channel.property, columns, rest)):
        curve = compat.new_fcurve(curves, f'pose.bones["{bone}"].{path}', index, bone)
        points = curve.keyframe_points
        points.add(count)
        co[1::2] = array.array("f", column)
        points.foreach_set("co", co)
        points.foreach_set("interpolation", [interpolation] * count)
        curve.update()


def channel_columns(channel):
    """The channel's values as one column per component (the key values of a cubic channel, not
    its tangents), each as long as its times."""
    cubic = channel.interpolation == "cubicspline"
    width = 4 if channel.property == "rotation" else 3
    step = 3 * width if cubic else width
    at = width if cubic else 0
    count = len(channel.times)
    values = channel.values
    if len(values) < step * count:
        return []
    return [values[at + i :: step][:count] for i in range(width)]


def rest_relative(prop, columns, rest):
    """Columns of model values → columns of pose-bone values (relative to the bone's rest):
    translations ``R⁻¹ (v − t)``, rotations ``r⁻¹ ⊗ q`` (``w, x, y, z``, each key on the side of
    the one before it), scales as they are."""
    rest_loc, rest_rot, _ = rest
    inverse = rest_rot.inverted()
    if prop == "translation":
        m = inverse.to_matrix()
        x = [v - rest_loc.x for v in columns[0]]
        y = [v - rest_loc.y for v in columns[1]]
        z = [v - rest_loc.z for v in columns[2]]
        return [[m[r][0] * a + m[r][1] * b + m[r][2] * c for a, b, c in zip(x, y, z)] for r in range(3)]
    if prop == "rotation":
        iw, ix, iy, iz = inverse.w, inverse.x, inverse.y, inverse.z
        out_w, out_x, out_y, out_z = [], [], [], []
        pw = px = py = pz = None
        for x, y, z, w in zip(*columns):
            qw = iw * w - ix * x - iy * y - iz * z
            qx = iw * x + ix * w + iy * z - iz * y
            qy = iw * y - ix * z + iy * w + iz * x
            qz = iw * z + ix * y - iy * x + iz * w
            if pw is not None and pw * qw + px * qx + py * qy + pz * qz < 0:
                qw, qx, qy, qz = -qw, -qx, -qy, -qz
            pw, px, py, pz = qw, qx, qy, qz
            out_w.append(qw)
            out_x.append(qx)
            out_y.append(qy)
            out_z.append(qz)
        return [out_w, out_x, out_y, out_z]
    return [list(c) for c in columns]


def unsupported_bone_flags(model):
    out = []
    billboards = sum(1 for b in model.bones if b.billboard != "none")
    if billboards:
        out.append(f"{billboards} billboarded bones (turn to the camera in the game; still here; kept for export)")
    partial = sum(1 for b in model.bones if not (b.inherit_translation and b.inherit_rotation and b.inherit_scale))
    if partial:
        out.append(f"{partial} bones that do not inherit all of their parent's transform (kept for export)")
    return out
