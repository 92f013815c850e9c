"""File > Import and File > Export: one operator each (``import_scene.relic``,
``export_scene.relic``), with a menu entry per family of formats the registry lists
(``relic.formats()``: a new format needs no edit here)."""

import os
import traceback

import bpy
from bpy.props import BoolProperty, EnumProperty, IntProperty, StringProperty
from bpy_extras.io_utils import ExportHelper, ImportHelper

from . import exporter, importer, relic_module

LOD_ITEMS = (
    ("ALL", "Every LOD", "Every level of detail, each beyond LOD 0 in a hidden collection of its own"),
    ("LOD0", "LOD 0 only", "Only the full-detail meshes"),
)


def families():
    """``[(family, [format names], [extensions])]`` of the formats that hold models, in the
    registry's order."""
    relic = relic_module()
    out = {}
    for f in relic.formats():
        if "model" not in f.holds:
            continue
        entry = out.setdefault(f.family, ([], []))
        entry[0].append(f.name)
        entry[1].extend(e for e in f.extensions if e not in entry[1])
    return [(family, names, exts) for family, (names, exts) in out.items()]


def split_paths(text):
    return [p.strip() for p in text.split(";") if p.strip()]


def preferences(context):
    addon = context.preferences.addons.get(__package__)
    return addon.preferences if addon else None


def report_lines(operator, lines, level="INFO"):
    for line in lines:
        operator.report({level}, line)
        print(f"relic: {line}")


class ImportRelic(bpy.types.Operator, ImportHelper):
    """Import a model relic reads (LithTech ABC/LTB, World of Warcraft M2, Warcraft III MDX/MDL, Nod NOD, glTF with relic's records)"""

    bl_idname = "import_scene.relic"
    bl_label = "Import (relic)"
    bl_options = {"REGISTER", "UNDO", "PRESET"}

    filter_glob: StringProperty(default="*.abc;*.ltb;*.m2;*.mdx;*.mdl;*.nod;*.glb;*.gltf", options={"HIDDEN"})
    data: StringProperty(
        name="Data folders",
        description="Game data folders where M2 texture paths are found (';' between several); "
        "empty: the add-on's preference, else every folder above the model",
        default="",
    )
    textures: StringProperty(
        name="Texture folders",
        description="Folders of PNG/JPEG versions of the textures (';' between several)",
        default="",
    )
    skins: StringProperty(
        name="Skins",
        description="LithTech skin files for slots 0, 1, … (';' between them; SLOT=FILE names a slot); "
        "empty: SKINS/NAME.DTX and SKINS/NAME_HEAD.DTX as the games lay them out",
        default="",
    )
    anims: StringProperty(
        name="NAD animations",
        description="NAD animation files to play on a NOD model (';' between several); "
        "empty: every .nad file beside the model",
        default="",
    )
    listfile: StringProperty(name="Listfile", description="The community id;path CSV naming files by FileDataID", default="")
    lods: EnumProperty(name="LODs", items=LOD_ITEMS, default="ALL")

    def invoke(self, context, event):
        prefs = preferences(context)
        if prefs is not None:
            self.data = self.data or prefs.data
            self.textures = self.textures or prefs.textures
            self.listfile = self.listfile or prefs.listfile
            self.lods = prefs.lods
        return ImportHelper.invoke(self, context, event)

    def open_options(self, path):
        relic = relic_module()
        prefs = preferences(bpy.context)
        data = split_paths(self.data) or (split_paths(prefs.data) if prefs else [])
        textures = split_paths(self.textures) or (split_paths(prefs.textures) if prefs else [])
        skins = {}
        free = 0
        for item in split_paths(self.skins):
            slot, sep, file = item.partition("=")
            if sep and slot.isdigit():
                skins[int(slot)] = file
            else:
                while free in skins:
                    free += 1
                skins[free] = item
        anims = split_paths(self.anims)
        kind = relic.detect(path)
        if not anims and kind is not None and kind.format == "nod":
            folder = os.path.dirname(path) or "."
            anims = sorted(
                os.path.join(folder, n)
                for n in os.listdir(folder)
                if n.lower().endswith(".nad") and relic.detect(os.path.join(folder, n)) is not None
            )
        listfile = self.listfile or (prefs.listfile if prefs else "")
        return dict(data=data, textures=textures, skins=skins or None, anims=anims, listfile=listfile or None)

    def execute(self, context):
        relic = relic_module()
        path = self.filepath
        try:
            model = relic.open(path, **self.open_options(path))
            armature, report = importer.import_model(context, model, path, lods=self.lods)
        except (relic.Error, OSError) as e:
            self.report({"ERROR"}, f"relic: {e}")
            return {"CANCELLED"}
        except Exception as e:  # a bug of the add-on: reported, Blender stays up
            traceback.print_exc()
            self.report({"ERROR"}, f"relic: {os.path.basename(path)}: the import failed: {e}")
            return {"CANCELLED"}
        report_lines(self, report.lines())
        summary = (
            f"{os.path.basename(path)}: {len(model.bones)} bones, {len(model.meshes)} meshes, "
            f"{len(model.clips)} clips, {len(model.attachments)} attachments, {len(model.emitters)} emitters"
        )
        self.report({"INFO"}, summary)
        for obj in context.selected_objects:
            obj.select_set(False)
        armature.select_set(True)
        context.view_layer.objects.active = armature
        return {"FINISHED"}

    def draw(self, context):
        layout = self.layout
        for prop in ("data", "textures", "skins", "anims", "listfile", "lods"):
            layout.prop(self, prop)


def format_items(self, context):
    items = []
    relic = relic_module()
    for f in relic.formats():
        if "model" in f.holds and f.writes:
            items.append((f.name, f.name.upper(), f.title))
    return items


class ExportRelic(bpy.types.Operator, ExportHelper):
    """Export the selected model (its armature) to a format relic writes: an unedited import gives back its file byte for byte"""

    bl_idname = "export_scene.relic"
    bl_label = "Export (relic)"
    bl_options = {"REGISTER", "PRESET"}

    filename_ext = ""
    filter_glob: StringProperty(default="*.abc;*.ltb;*.m2;*.mdx;*.mdl;*.nod;*.glb;*.gltf", options={"HIDDEN"})
    format: EnumProperty(name="Format", items=format_items, description="The format written")
    version: IntProperty(
        name="Version",
        description="The format's version (0: the version the model was read in, else the format's usual one)",
        default=0,
        min=0,
    )
    strict: BoolProperty(
        name="Strict",
        description="Write nothing if the format cannot hold everything (the report lists what)",
        default=False,
    )

    def check(self, context):
        base, ext = os.path.splitext(self.filepath)
        wanted = "." + self.format
        if ext.lower() != wanted:
            self.filepath = base + wanted
            return True
        return False

    def invoke(self, context, event):
        armature = find_armature(context)
        if armature is not None:
            source = exporter.records.source_of(armature)
            if source and source.get("format"):
                names = [i[0] for i in format_items(self, context)]
                if source["format"] in names:
                    self.format = source["format"]
            self.filepath = os.path.join(
                os.path.dirname(bpy.data.filepath) if bpy.data.filepath else "",
                exporter.clean(armature.name) + "." + self.format,
            )
        return ExportHelper.invoke(self, context, event)

    def execute(self, context):
        relic = relic_module()
        armature = find_armature(context)
        if armature is None:
            self.report({"ERROR"}, "relic: select the model's armature (or one of its meshes) to export")
            return {"CANCELLED"}
        path = self.filepath
        report = exporter.Report()
        try:
            model = exporter.build(relic, armature, report)
            saved = model.save(path, format=self.format, version=self.version or None, strict=self.strict)
        except relic.Unsupported as e:
            self.report({"ERROR"}, f"relic: {e}")
            return {"CANCELLED"}
        except (relic.Error, OSError, TypeError, ValueError) as e:
            self.report({"ERROR"}, f"relic: {e}")
            return {"CANCELLED"}
        except Exception as e:
            traceback.print_exc()
            self.report({"ERROR"}, f"relic: {os.path.basename(path)}: the export failed: {e}")
            return {"CANCELLED"}
        report_lines(self, report.lines())
        report_lines(self, [f"note: {n.text}" for n in saved.notes], "WARNING")
        if saved.comparison:
            report_lines(self, [saved.comparison])
        self.report({"INFO"}, f"wrote {', '.join(os.path.basename(f) for f in saved.files)} ({saved.bytes} bytes)")
        return {"FINISHED"}


def find_armature(context):
    """The armature to export: the active or a selected object's (a mesh's parent), else the only
    armature in the scene."""
    candidates = [context.view_layer.objects.active] + list(context.selected_objects)
    for obj in candidates:
        while obj is not None:
            if obj.type == "ARMATURE":
                return obj
            obj = obj.parent
    armatures = [o for o in context.scene.objects if o.type == "ARMATURE"]
    return armatures[0] if len(armatures) == 1 else None


def menu_import(self, context):
    for family, names, exts in families():
        label = f"{family} ({', '.join('.' + e for e in exts)})"
        op = self.layout.operator(ImportRelic.bl_idname, text=label)
        op.filter_glob = ";".join(f"*.{e}" for e in exts)


def menu_export(self, context):
    relic = relic_module()
    for f in relic.formats():
        if "model" in f.holds and f.writes:
            op = self.layout.operator(ExportRelic.bl_idname, text=f"{f.family} (.{f.name})")
            op.format = f.name


CLASSES = (ImportRelic, ExportRelic)
