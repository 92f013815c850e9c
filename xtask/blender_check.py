# Imports glTF files into Blender, one after another in one Blender process, and reports what
# Blender made of each: bones, mesh objects, vertices, triangles, actions, images.
#
# Run by `cargo xtask blender-check DIR` as
#   blender -b --factory-startup --python xtask/blender_check.py -- LIST OUT [REEXPORT_DIR]
# where LIST has one file per line, "<path>\t<1 or 0>" (whether the re-export carries the clips:
# Blender's exporter bakes every clip of every bone, minutes for a converted creature of 34
# clips); OUT receives one JSON object per line and file:
#   {"file": ..., "bones": n, "meshes": n, "vertices": n, "triangles": n, "actions": n,
#    "blender_images": n, "reexport": path, "seconds": s}
# or {"file": ..., "error": "..."} when the import fails. With REEXPORT_DIR, Blender also exports
# each imported scene back to glTF (REEXPORT_DIR/<line number>.glb): the way back from Blender,
# which relic then imports.
import json
import os
import sys
import time
import traceback

import bpy

# Blender 3.4's glTF importer still uses numpy aliases that NumPy 1.24 (Debian 12's python3-numpy)
# removed (`np.bool`, …). Restore them before the importer loads; they are the builtins.
try:
    import numpy
    for _name, _type in (('bool', bool), ('int', int), ('float', float), ('object', object)):
        if not hasattr(numpy, _name):
            setattr(numpy, _name, _type)
except ImportError:  # the importer will report it
    pass


def clear():
    bpy.ops.wm.read_homefile(use_empty=True)
    for collection in (bpy.data.actions, bpy.data.armatures, bpy.data.meshes, bpy.data.materials,
                       bpy.data.images, bpy.data.objects, bpy.data.shape_keys):
        for block in list(collection):
            try:
                collection.remove(block)
            except (TypeError, RuntimeError):
                pass


def gltf_images(path):
    """The glTF's textured materials and (name, width, height) of each PNG it embeds."""
    import struct
    with open(path, 'rb') as f:
        data = f.read()
    if data[:4] != b'glTF':
        return 0, []
    json_len = struct.unpack_from('<I', data, 12)[0]
    doc = json.loads(data[20:20 + json_len])
    bin_start = 20 + json_len + 8
    textured = sum(1 for m in doc.get('materials', [])
                   if 'baseColorTexture' in m.get('pbrMetallicRoughness', {}))
    images = []
    for image in doc.get('images', []):
        view = doc['bufferViews'][image['bufferView']] if 'bufferView' in image else None
        if view is None:
            continue
        start = bin_start + view.get('byteOffset', 0)
        head = data[start:start + 24]
        if head[:8] == b'\x89PNG\r\n\x1a\n':
            width, height = struct.unpack('>II', head[16:24])
            images.append((image.get('name', ''), width, height))
    return textured, images


def image_check(path):
    """Every textured material of the glTF has an image node in Blender, every image its size."""
    textured, images = gltf_images(path)
    with_nodes = sum(1 for m in bpy.data.materials if m.node_tree and any(
        n.type == 'TEX_IMAGE' and n.image is not None for n in m.node_tree.nodes))
    problems = []
    if with_nodes < textured:
        problems.append('%d textured materials in the glTF, %d with an image node in Blender' % (textured, with_nodes))
    sizes = {tuple(i.size) for i in bpy.data.images}
    for name, width, height in images:
        if (width, height) not in sizes:
            problems.append('image %r (%dx%d) has no image of that size in Blender' % (name, width, height))
    return textured, len(images), problems


def counts(path):
    clear()
    result = bpy.ops.import_scene.gltf(filepath=path)
    if 'FINISHED' not in result:
        raise RuntimeError('import returned %s' % (result,))
    objects = list(bpy.context.scene.objects)
    meshes = [o for o in objects if o.type == 'MESH']
    bones = sum(len(o.data.bones) for o in objects if o.type == 'ARMATURE')
    vertices = sum(len(o.data.vertices) for o in meshes)
    triangles = sum(len(p.vertices) - 2 for o in meshes for p in o.data.polygons)
    textured, images, problems = image_check(path)
    return {
        'textured_materials': textured,
        'images': images,
        'image_problems': problems,
        'bones': bones,
        'meshes': len(meshes),
        'vertices': vertices,
        'triangles': triangles,
        'actions': len(bpy.data.actions),
        # The images Blender shows (loaded for the imported materials).
        'blender_images': len(bpy.data.images),
        # Emitters' stand-ins (relic names their meshes `particle 0 (stand-in)`).
        'stand_ins': sum(1 for o in meshes if o.data.name.rsplit('.', 1)[0].endswith(' (stand-in)')
                         or o.data.name.endswith(' (stand-in)')),
    }


def main():
    argv = sys.argv[sys.argv.index('--') + 1:]
    listing, out_path = argv[0], argv[1]
    reexport_dir = argv[2] if len(argv) > 2 else None
    with open(listing) as f:
        # "<path>\t<1 or 0>": whether the re-export carries the clips.
        files = [line.rstrip('\n').rsplit('\t', 1) for line in f if line.strip()]
    with open(out_path, 'w') as out:
        for number, (path, clips) in enumerate(files):
            started = time.perf_counter()
            try:
                record = counts(path)
                if reexport_dir:
                    target = os.path.join(reexport_dir, '%d.glb' % number)
                    result = bpy.ops.export_scene.gltf(filepath=target, export_format='GLB',
                                                       export_animations=(clips == '1'))
                    if 'FINISHED' in result:
                        record['reexport'] = target
            except Exception as e:  # report and go on with the next file
                record = {'error': '%s: %s' % (type(e).__name__, e), 'trace': traceback.format_exc()[-2000:]}
            record['file'] = path
            record['seconds'] = round(time.perf_counter() - started, 2)
            out.write(json.dumps(record) + '\n')
            out.flush()


main()
