"""relic for Blender: File > Import and File > Export for every model relic reads — LithTech ABC
and LTB, World of Warcraft M2 (with .skin and .anim files), Nod NOD with NAD animations, glTF
with relic's records — exact back into the game: an unedited import exports byte for byte, edits
are carried, and what a format cannot hold is reported.

Runs on the Python module ``relic`` (one abi3 wheel): bundled as a wheel in the Blender 4.2+
extension, inside this package in the legacy add-on for Blender 3.4–4.1.
"""

bl_info = {
    "name": "relic: classic game models",
    "author": "relic",
    "version": (0, 1, 0),
    "blender": (3, 4, 0),
    "location": "File > Import, File > Export",
    "description": "LithTech ABC/LTB, World of Warcraft M2, Vampire: Redemption NOD: import and export, exact",
    "category": "Import-Export",
}

import bpy  # noqa: E402
from bpy.props import EnumProperty, StringProperty  # noqa: E402


def relic_module():
    """The module ``relic``: the copy inside this package (``vendor/``, the legacy add-on), else
    the installed one (the extension's bundled wheel, or pip)."""
    import os
    import sys

    vendor = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vendor")
    if os.path.isdir(vendor) and vendor not in sys.path:
        sys.path.insert(0, vendor)
    import relic

    return relic


class RelicPreferences(bpy.types.AddonPreferences):
    bl_idname = __package__

    data: StringProperty(
        name="WoW data folders",
        description="Game data folders where M2 texture paths are found (';' between several)",
        subtype="NONE",
        default="",
    )
    textures: StringProperty(
        name="Texture folders",
        description="Folders of PNG/JPEG versions of the textures (';' between several)",
        default="",
    )
    listfile: StringProperty(
        name="Listfile",
        description="The community id;path CSV naming files by FileDataID",
        subtype="FILE_PATH",
        default="",
    )
    lods: EnumProperty(
        name="LODs",
        items=(("ALL", "Every LOD", "Every level, beyond 0 hidden"), ("LOD0", "LOD 0 only", "Only full detail")),
        default="ALL",
    )

    def draw(self, context):
        layout = self.layout
        for prop in ("data", "textures", "listfile", "lods"):
            layout.prop(self, prop)
        relic = relic_module()
        layout.label(text=f"relic {relic.__version__}: " + ", ".join(f.name for f in relic.formats()))


def register():
    from . import operators

    bpy.utils.register_class(RelicPreferences)
    for cls in operators.CLASSES:
        bpy.utils.register_class(cls)
    bpy.types.TOPBAR_MT_file_import.append(operators.menu_import)
    bpy.types.TOPBAR_MT_file_export.append(operators.menu_export)


def unregister():
    from . import operators

    bpy.types.TOPBAR_MT_file_import.remove(operators.menu_import)
    bpy.types.TOPBAR_MT_file_export.remove(operators.menu_export)
    for cls in reversed(operators.CLASSES):
        bpy.utils.unregister_class(cls)
    bpy.utils.unregister_class(RelicPreferences)
