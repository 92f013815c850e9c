# Imports glTF files into Blender, one after another in one Blender process, and reports what
# Blender made of each: bones, mesh objects, vertices, triangles, actions.
#
# Run by `cargo xtask blender-check DIR` as
#   blender -b --factory-startup --python xtask/blender_check.py -- LIST OUT [REEXPORT_DIR]
# where LIST has one file path per line; OUT receives one JSON object per line and file:
#   {"file": ..., "bones": n, "meshes": n, "vertices": n, "triangles": n, "actions": n,
#    "reexport": path}
# or {"file": ..., "error": "..."} when the import fails. With REEXPORT_DIR, Blender also exports
# each imported scene back to glTF (REEXPORT_DIR/<line number>.glb): the way back from Blender,
# which relic then imports.
import json
import os
import sys
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
    return {
        'bones': bones,
        'meshes': len(meshes),
        'vertices': vertices,
        'triangles': triangles,
        'actions': len(bpy.data.actions),
    }


def main():
    argv = sys.argv[sys.argv.index('--') + 1:]
    listing, out_path = argv[0], argv[1]
    reexport_dir = argv[2] if len(argv) > 2 else None
    with open(listing) as f:
        files = [line.strip() for line in f if line.strip()]
    with open(out_path, 'w') as out:
        for number, path in enumerate(files):
            try:
                record = counts(path)
                if reexport_dir:
                    target = os.path.join(reexport_dir, '%d.glb' % number)
                    result = bpy.ops.export_scene.gltf(filepath=target, export_format='GLB')
                    if 'FINISHED' in result:
                        record['reexport'] = target
            except Exception as e:  # report and go on with the next file
                record = {'error': '%s: %s' % (type(e).__name__, e), 'trace': traceback.format_exc()[-2000:]}
            record['file'] = path
            out.write(json.dumps(record) + '\n')
            out.flush()


main()
