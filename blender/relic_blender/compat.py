"""What differs between the Blenders the add-on runs in (3.4 to 5.x), in one place: actions with
slots (4.4 on; the only kind in 5.0), custom normals without auto smooth (4.1 on), EEVEE Next's
render method (4.2 on)."""

import bpy

SLOTTED_ACTIONS = "slots" in bpy.types.Action.bl_rna.properties


def new_action(name, owner):
    """A new action for the armature object ``owner``, and the F-curve collection its curves go
    into (the action's own in Blender before 4.4; its channel bag for ``owner``'s slot after)."""
    action = bpy.data.actions.new(name)
    if not SLOTTED_ACTIONS:
        return action, action.fcurves
    slot = action.slots.new(id_type="OBJECT", name=owner.name)
    layer = action.layers.new("Layer")
    strip = layer.strips.new(type="KEYFRAME")
    channelbag = strip.channelbag(slot, ensure=True)
    return action, channelbag.fcurves


def fcurves(action, owner=None):
    """Every F-curve of ``action`` (for ``owner``'s slot where actions have slots: the first slot
    for an object, else the first)."""
    if not SLOTTED_ACTIONS:
        return list(action.fcurves)
    out = []
    for layer in action.layers:
        for strip in layer.strips:
            for bag in strip.channelbags:
                out.extend(bag.fcurves)
    return out


def new_fcurve(curves, data_path, index, group):
    """An F-curve in ``curves`` (what :func:`new_action` returned), grouped under ``group``."""
    if SLOTTED_ACTIONS:
        return curves.new(data_path, index=index, group_name=group)
    return curves.new(data_path, index=index, action_group=group)


def assign_action(obj, action):
    """Makes ``action`` the object's active action (its slot too, where actions have them)."""
    data = obj.animation_data or obj.animation_data_create()
    data.action = action
    if SLOTTED_ACTIONS and action.slots and data.action_slot is None:
        data.action_slot = action.slots[0]


def push_to_nla(obj, action, start):
    """Keeps ``action`` in a muted NLA track of its own on ``obj`` (so no clip is lost or plays
    over another)."""
    data = obj.animation_data or obj.animation_data_create()
    track = data.nla_tracks.new()
    track.name = action.name
    strip = track.strips.new(action.name, int(start), action)
    if SLOTTED_ACTIONS and action.slots and hasattr(strip, "action_slot"):
        strip.action_slot = action.slots[0]
    track.mute = True
    return track


def set_custom_normals(mesh, normals):
    """Per-vertex custom normals (a flat sequence of 3 floats a vertex)."""
    if hasattr(mesh, "use_auto_smooth"):
        mesh.use_auto_smooth = True
    triples = [tuple(normals[i : i + 3]) for i in range(0, len(normals), 3)]
    mesh.normals_split_custom_set_from_vertices(triples)


def corner_normals(mesh):
    """The normal of each face corner, flat (3 floats a corner)."""
    import array

    if hasattr(mesh, "corner_normals"):
        out = array.array("f", [0.0]) * (3 * len(mesh.corner_normals))
        mesh.corner_normals.foreach_get("vector", out)
        return out
    mesh.calc_normals_split()
    out = array.array("f", [0.0]) * (3 * len(mesh.loops))
    mesh.loops.foreach_get("normal", out)
    return out


def set_blend(material, mode):
    """Blends ``material`` as ``mode`` says: ``OPAQUE``, ``CLIP`` (alpha key) or ``BLEND``."""
    if hasattr(material, "surface_render_method"):
        material.surface_render_method = "DITHERED" if mode != "BLEND" else "BLENDED"
    if hasattr(material, "blend_method"):
        try:
            material.blend_method = mode
        except TypeError:
            pass


def image_from_png(name, png):
    """A packed image from a PNG file's bytes."""
    image = bpy.data.images.new(name, 8, 8, alpha=True)
    image.pack(data=png, data_len=len(png))
    image.source = "FILE"
    image.filepath_raw = "//" + name
    image.reload()
    return image
