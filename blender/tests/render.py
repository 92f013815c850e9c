"""A picture of a model as the relic add-on imports it: the legacy add-on installed in Blender
(3.4), the model imported with its textures, LOD 0 in its rest pose, seen from Blender's front
(the model's own front, −Y) three-quarters, Eevee. Used for the README's pictures:

    blender -b --factory-startup --python blender/tests/render.py -- ZIP MODEL OUT.png [OPTIONS.json]

OPTIONS.json: the import operator's options (``{"skins": "a.dtx;b.dtx"}``).
"""

import json
import math
import sys

import bpy
from mathutils import Vector

argv = sys.argv[sys.argv.index("--") + 1 :]
ZIP, MODEL, OUT = argv[:3]
OPTIONS = json.loads(open(argv[3]).read()) if len(argv) > 3 else {}

bpy.ops.preferences.addon_install(filepath=ZIP, overwrite=True)
bpy.ops.preferences.addon_enable(module="relic_blender")
for collection in (bpy.data.objects, bpy.data.meshes, bpy.data.cameras, bpy.data.lights):
    bpy.data.batch_remove(list(collection))
result = bpy.ops.import_scene.relic(filepath=MODEL, lods="LOD0", **OPTIONS)
assert result == {"FINISHED"}, result
scene = bpy.context.scene
for obj in scene.objects:
    if obj.type == "ARMATURE":
        if obj.animation_data:
            obj.animation_data.action = None
        for bone in obj.pose.bones:
            bone.matrix_basis.identity()
bpy.context.view_layer.update()
meshes = [o for o in scene.objects if o.type == "MESH" and not o.hide_render and "relic_emitter" not in o]
points = []
for obj in meshes:
    depsgraph = bpy.context.evaluated_depsgraph_get()
    evaluated = obj.evaluated_get(depsgraph)
    mesh = evaluated.to_mesh()
    points.extend(evaluated.matrix_world @ v.co for v in mesh.vertices)
    evaluated.to_mesh_clear()
lo = Vector((min(p[i] for p in points) for i in range(3)))
hi = Vector((max(p[i] for p in points) for i in range(3)))
center = (lo + hi) / 2
size = max((hi - lo).length, 1e-3)

camera = bpy.data.objects.new("camera", bpy.data.cameras.new("camera"))
scene.collection.objects.link(camera)
camera.data.lens = 50
direction = Vector((0.55, -1.0, 0.35)).normalized()  # front three-quarters: the model faces −Y
camera.location = center + direction * size * 1.5
camera.rotation_euler = (center - camera.location).to_track_quat("-Z", "Y").to_euler()
scene.camera = camera
sun = bpy.data.objects.new("sun", bpy.data.lights.new("sun", "SUN"))
sun.data.energy = 3.0
sun.rotation_euler = (math.radians(50), 0, math.radians(30))
scene.collection.objects.link(sun)
world = bpy.data.worlds.new("sky")
world.use_nodes = True
world.node_tree.nodes["Background"].inputs["Color"].default_value = (0.35, 0.37, 0.4, 1.0)
scene.world = world
scene.render.engine = "BLENDER_EEVEE"
scene.render.resolution_x, scene.render.resolution_y = 640, 640
scene.render.filepath = OUT
bpy.ops.render.render(write_still=True)
print("render: wrote", OUT)
