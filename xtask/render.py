# Renders a picture of a glTF model: Blender's own import (so what a user sees), its full-detail
# meshes only (relic names lower LODs `piece LOD1 (300)`), in its rest pose, seen from the front
# three-quarters, lit by a sun and a grey sky, with Eevee (which shows the embedded textures).
# A model with emitters is framed on their stand-ins (`particle 3 (stand-in)`: a quad of the
# emitter's texture at its size, unlit) with what surrounds them, its other meshes drawn
# see-through in grey and the stand-ins with bloom, so that the small quads of a glue screen's
# effects show inside the scene.
#
# Run by `cargo xtask render` as
#   blender -b --factory-startup --python xtask/render.py -- MODEL.glb OUT.png WIDTH HEIGHT
import math
import re
import sys

import bpy
from mathutils import Vector

# Blender 3.4's glTF importer still uses numpy aliases that NumPy 1.24 (Debian 12's python3-numpy)
# removed (`np.bool`, …). Restore them before the importer loads; they are the builtins.
try:
    import numpy
    for _name, _type in (('bool', bool), ('int', int), ('float', float), ('object', object)):
        if not hasattr(numpy, _name):
            setattr(numpy, _name, _type)
except ImportError:  # the importer will report it
    pass

LOWER_LOD = re.compile(r' LOD[1-9][0-9]* \(')
STAND_IN = re.compile(r' \(stand-in\)(\.[0-9]{3})?$')


def see_through():
    """A grey material that lets what is behind it show."""
    material = bpy.data.materials.new('see-through')
    material.use_nodes = True
    material.blend_method = 'BLEND'
    material.shadow_method = 'NONE'
    material.show_transparent_back = False
    shader = material.node_tree.nodes['Principled BSDF']
    shader.inputs['Base Color'].default_value = (0.55, 0.6, 0.7, 1.0)
    shader.inputs['Alpha'].default_value = 0.25
    return material


def main():
    argv = sys.argv[sys.argv.index('--') + 1:]
    model, out, width, height = argv[0], argv[1], int(argv[2]), int(argv[3])
    bpy.ops.wm.read_homefile(use_empty=True)
    result = bpy.ops.import_scene.gltf(filepath=model)
    if 'FINISHED' not in result:
        raise RuntimeError('import returned %s' % (result,))
    scene = bpy.context.scene
    # The rest pose: no clip playing.
    for obj in scene.objects:
        if obj.animation_data:
            obj.animation_data.action = None
        if obj.type == 'ARMATURE':
            for bone in obj.pose.bones:
                bone.matrix_basis.identity()
    meshes = []
    for obj in scene.objects:
        if obj.type != 'MESH':
            continue
        if LOWER_LOD.search(obj.name):
            obj.hide_render = True
        else:
            meshes.append(obj)
    if not meshes:
        raise RuntimeError('no full-detail mesh to render')
    stand_ins = [o for o in meshes if STAND_IN.search(o.data.name)]
    bpy.context.view_layer.update()
    depsgraph = bpy.context.evaluated_depsgraph_get()
    corners = []
    for obj in stand_ins or meshes:
        evaluated = obj.evaluated_get(depsgraph)
        corners.extend(evaluated.matrix_world @ Vector(c) for c in evaluated.bound_box)
    low = Vector([min(c[i] for c in corners) for i in range(3)])
    high = Vector([max(c[i] for c in corners) for i in range(3)])
    center = (low + high) / 2
    size = high - low
    if stand_ins:
        # The emitters with some of the scene around them, which is drawn see-through.
        size = Vector([max(s, max(size) * 0.5) * 1.5 for s in size])
        glass = see_through()
        for obj in meshes:
            if obj not in stand_ins:
                obj.data.materials.clear()
                obj.data.materials.append(glass)

    # glTF's front (+Z) is Blender's −Y: the camera stands in front, a little to the side.
    camera_data = bpy.data.cameras.new('camera')
    camera_data.sensor_fit = 'VERTICAL'
    camera_data.angle = math.radians(28)
    camera = bpy.data.objects.new('camera', camera_data)
    scene.collection.objects.link(camera)
    scene.camera = camera
    reach = max(size.z, size.x * height / width) * 0.56
    distance = reach / math.tan(camera_data.angle / 2) + size.y / 2
    direction = Vector((0.45, -1.0, 0.12)).normalized()
    camera.location = center + direction * distance
    camera.rotation_euler = (-direction).to_track_quat('-Z', 'Y').to_euler()
    camera_data.clip_end = distance * 10

    sun_data = bpy.data.lights.new('sun', 'SUN')
    sun_data.energy = 3.5
    sun = bpy.data.objects.new('sun', sun_data)
    scene.collection.objects.link(sun)
    sun.rotation_euler = Vector((-0.6, -1.0, -0.9)).to_track_quat('-Z', 'Y').to_euler()
    world = bpy.data.worlds.new('sky')
    world.use_nodes = True
    background = world.node_tree.nodes['Background']
    # A night sky behind a model with emitters: their glowing stand-ins stand out.
    background.inputs['Color'].default_value = (0.03, 0.035, 0.05, 1.0) if stand_ins else (0.42, 0.45, 0.5, 1.0)
    background.inputs['Strength'].default_value = 0.9
    scene.world = world

    scene.render.engine = 'BLENDER_EEVEE'
    scene.eevee.taa_render_samples = 32
    # The stand-ins glow a little: a spark a few pixels wide stays visible.
    scene.eevee.use_bloom = bool(stand_ins)
    scene.eevee.bloom_intensity = 0.4
    scene.eevee.bloom_radius = 3.0
    scene.view_settings.view_transform = 'Standard'
    scene.render.resolution_x = width
    scene.render.resolution_y = height
    scene.render.resolution_percentage = 100
    scene.render.image_settings.file_format = 'PNG'
    scene.render.image_settings.color_mode = 'RGB'
    scene.render.image_settings.compression = 100
    scene.render.filepath = out
    bpy.ops.render.render(write_still=True)
    images = sorted(i.name for i in bpy.data.images if i.size[0] > 0)
    print('relic-render: %d mesh objects (%d stand-ins), %d images (%s) -> %s'
          % (len(meshes), len(stand_ins), len(images), ', '.join(images), out))


main()
