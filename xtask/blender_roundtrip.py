# The way modders edit a model: import relic's glTF into Blender, change nothing, export it again.
# For each file, both ways a user exports: with "Custom Properties" ticked (export_extras=True,
# relic's extras survive as custom properties) and with Blender's defaults (no extras). Everything
# else is Blender 3.4's default import and export.
#
# Run by `cargo xtask blender-roundtrip` as
#   blender -b --factory-startup --python xtask/blender_roundtrip.py -- LIST OUT_DIR REPORT
# LIST has one glTF path per line; OUT_DIR receives <n>.custom.glb and <n>.plain.glb; REPORT one
# JSON object per line: {"file", "custom", "plain"} or {"file", "error"}.
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


def main():
    argv = sys.argv[sys.argv.index('--') + 1:]
    listing, out_dir, report = argv[0], argv[1], argv[2]
    with open(listing) as f:
        files = [line.strip() for line in f if line.strip()]
    with open(report, 'w') as out:
        for number, path in enumerate(files):
            record = {'file': path}
            try:
                bpy.ops.wm.read_homefile(use_empty=True)
                result = bpy.ops.import_scene.gltf(filepath=path)
                if 'FINISHED' not in result:
                    raise RuntimeError('import returned %s' % (result,))
                for variant, extras in (('custom', True), ('plain', False)):
                    target = os.path.join(out_dir, '%d.%s.glb' % (number, variant))
                    result = bpy.ops.export_scene.gltf(filepath=target, export_format='GLB', export_extras=extras)
                    if 'FINISHED' not in result:
                        raise RuntimeError('export returned %s' % (result,))
                    record[variant] = target
                record['images'] = [[i.name, i.size[0], i.size[1]] for i in bpy.data.images]
                record['materials_with_images'] = sum(
                    1 for m in bpy.data.materials if m.node_tree and any(n.type == 'TEX_IMAGE' and n.image for n in m.node_tree.nodes))
            except Exception as e:  # report and go on with the next file
                record['error'] = '%s: %s' % (type(e).__name__, e)
                record['trace'] = traceback.format_exc()[-2000:]
            out.write(json.dumps(record) + '\n')
            out.flush()


main()
