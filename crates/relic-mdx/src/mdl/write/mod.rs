//! MDX → MDL text (version 800), in the block order MdlxConv and Magos use (spec §8.4): tabs,
//! LF, every value written (none omitted as a default), static colours reversed (§8.6).

use relic_core::{Converted, Loss, WriteError};

mod nodes;

use super::names::*;
use super::number::{FloatStyle, float};
use crate::file::*;

struct W {
    out: String,
    style: FloatStyle,
    losses: Vec<Loss>,
}

/// The node records of a file, in MDL's order, gathered over every chunk of each kind.
#[derive(Default)]
struct Parts<'a> {
    version: Option<u32>,
    model: Option<&'a ModelInfo>,
    sequences: Vec<&'a Sequence>,
    global_sequences: Vec<u32>,
    textures: Vec<&'a Texture>,
    materials: Vec<&'a Material>,
    texture_anims: Vec<&'a TextureAnim>,
    geosets: Vec<&'a Geoset>,
    geoset_anims: Vec<&'a GeosetAnim>,
    bones: Vec<&'a Bone>,
    lights: Vec<&'a Light>,
    helpers: Vec<&'a Helper>,
    attachments: Vec<&'a Attachment>,
    pivots: Vec<[f32; 3]>,
    emitters1: Vec<&'a ParticleEmitter>,
    emitters2: Vec<&'a ParticleEmitter2>,
    ribbons: Vec<&'a RibbonEmitter>,
    cameras: Vec<&'a Camera>,
    events: Vec<&'a EventObject>,
    shapes: Vec<&'a CollisionShape>,
}

/// Writes `file` as MDL text with floats in `style`; what MDL cannot hold is listed as losses
/// (unknown chunks, bytes after a NUL, sync points, flag bits without a keyword, a static value
/// beside its track). Versions past 800 are refused: Reforged has no official MDL and the
/// community dialects disagree (spec §8.5).
pub fn write_mdl(file: &MdxFile, style: FloatStyle) -> Result<Converted<String>, WriteError> {
    let version = file.version();
    if version != 800 {
        return Err(WriteError::Unsupported(format!(
            "MDL of version {version}: Reforged has no official MDL and the community dialects disagree (specs/mdx.md §8.5); \
             relic-mdx writes MDL for version 800"
        )));
    }
    let mut w = W { out: String::new(), style, losses: Vec::new() };
    let p = gather(file, &mut w.losses);
    w.block(0, "Version", |w| w.line(1, &format!("FormatVersion {},", p.version.unwrap_or(800))));
    if let Some(m) = p.model {
        w.model(m, &p);
    }
    if !p.sequences.is_empty() {
        w.block(0, &format!("Sequences {}", p.sequences.len()), |w| {
            for s in &p.sequences {
                w.sequence(s);
            }
        });
    }
    if !p.global_sequences.is_empty() {
        w.block(0, &format!("GlobalSequences {}", p.global_sequences.len()), |w| {
            for d in &p.global_sequences {
                w.line(1, &format!("Duration {d},"));
            }
        });
    }
    if !p.textures.is_empty() {
        w.block(0, &format!("Textures {}", p.textures.len()), |w| {
            for (i, t) in p.textures.iter().enumerate() {
                w.texture(i, t);
            }
        });
    }
    if !p.materials.is_empty() {
        w.block(0, &format!("Materials {}", p.materials.len()), |w| {
            for (i, m) in p.materials.iter().enumerate() {
                w.material(i, m);
            }
        });
    }
    if !p.texture_anims.is_empty() {
        w.block(0, &format!("TextureAnims {}", p.texture_anims.len()), |w| {
            for t in &p.texture_anims {
                w.block(1, "TVertexAnim", |w| w.tracks(2, Owner::TextureAnim, &t.tracks, "TXAN"));
            }
        });
    }
    for (i, g) in p.geosets.iter().enumerate() {
        w.geoset(i, g);
    }
    for g in &p.geoset_anims {
        w.geoset_anim(g);
    }
    for b in &p.bones {
        w.node_block("Bone", &b.node, 0x100, |w| {
            w.id_or(1, "GeosetId", b.geoset_id, "Multiple");
            w.id_or(1, "GeosetAnimId", b.geoset_animation_id, "None");
        });
    }
    for l in &p.lights {
        w.light(l);
    }
    for h in &p.helpers {
        w.node_block("Helper", &h.node, 0, |_| {});
    }
    for a in &p.attachments {
        w.node_block("Attachment", &a.node, 0x800, |w| {
            w.line(1, &format!("AttachmentID {},", a.attachment_id));
            w.string(1, "Path", &a.path.0, "ATCH.path");
            w.tracks(1, Owner::Attachment, &a.tracks, "ATCH");
        });
    }
    if !p.pivots.is_empty() {
        w.block(0, &format!("PivotPoints {}", p.pivots.len()), |w| {
            for v in &p.pivots {
                let v = w.vector(v);
                w.line(1, &format!("{v},"));
            }
        });
    }
    for e in &p.emitters1 {
        w.emitter1(e);
    }
    for e in &p.emitters2 {
        w.emitter2(e);
    }
    for r in &p.ribbons {
        w.ribbon(r);
    }
    for c in &p.cameras {
        w.camera(c);
    }
    for e in &p.events {
        w.node_block("EventObject", &e.node, 0x400, |w| {
            if let Some(t) = &e.track {
                w.block(1, &format!("EventTrack {}", t.frames.len()), |w| {
                    if t.global_sequence_id != -1 {
                        w.line(2, &format!("GlobalSeqId {},", t.global_sequence_id));
                    }
                    for f in &t.frames {
                        w.line(2, &format!("{f},"));
                    }
                });
            }
        });
    }
    for s in &p.shapes {
        w.shape(s);
    }
    Ok(Converted { value: w.out, losses: w.losses })
}

/// The chunk order MDL gives back (spec §2.2, without the Reforged chunks).
const ORDER: [&[u8; 4]; 20] = [
    b"VERS", b"MODL", b"SEQS", b"GLBS", b"MTLS", b"TEXS", b"TXAN", b"GEOS", b"GEOA", b"BONE", b"LITE", b"HELP",
    b"ATCH", b"PIVT", b"PREM", b"PRE2", b"RIBB", b"CAMS", b"EVTS", b"CLID",
];

fn gather<'a>(file: &'a MdxFile, losses: &mut Vec<Loss>) -> Parts<'a> {
    let mut p = Parts::default();
    let places: Vec<Option<usize>> = file.chunks.iter().map(|c| ORDER.iter().position(|t| **t == c.tag().0)).collect();
    let known: Vec<usize> = places.iter().flatten().copied().collect();
    if known.windows(2).any(|w| matches!(w, [a, b] if a >= b)) {
        losses.push(Loss::new(
            "chunks",
            "their order (or a repeated chunk): MDL gives them back in the canonical order, once each",
        ));
    }
    if file.chunks.iter().any(is_empty) {
        losses.push(Loss::new("chunks", "an empty chunk: MDL gives back only chunks with records"));
    }
    for chunk in &file.chunks {
        match chunk {
            Chunk::Version(v) => p.version = p.version.or(Some(*v)),
            Chunk::Model(m) => p.model = p.model.or(Some(m)),
            Chunk::Sequences(v) => p.sequences.extend(v),
            Chunk::GlobalSequences(v) => p.global_sequences.extend(v),
            Chunk::Materials(v) => p.materials.extend(v),
            Chunk::Textures(v) => p.textures.extend(v),
            Chunk::TextureAnims(v) => p.texture_anims.extend(v),
            Chunk::Geosets(v) => p.geosets.extend(v),
            Chunk::GeosetAnims(v) => p.geoset_anims.extend(v),
            Chunk::Bones(v) => p.bones.extend(v),
            Chunk::Lights(v) => p.lights.extend(v),
            Chunk::Helpers(v) => p.helpers.extend(v),
            Chunk::Attachments(v) => p.attachments.extend(v),
            Chunk::PivotPoints(v) => p.pivots.extend(v),
            Chunk::ParticleEmitters(v) => p.emitters1.extend(v),
            Chunk::ParticleEmitters2(v) => p.emitters2.extend(v),
            Chunk::RibbonEmitters(v) => p.ribbons.extend(v),
            Chunk::Cameras(v) => p.cameras.extend(v),
            Chunk::Events(v) => p.events.extend(v),
            Chunk::CollisionShapes(v) => p.shapes.extend(v),
            Chunk::PopcornEmitters(_) | Chunk::FaceFx(_) | Chunk::BindPose(_) => {
                losses.push(Loss::new(
                    chunk.tag().text(),
                    "a Reforged chunk in a version-800 file: MDL 800 has no block for it",
                ));
            }
            Chunk::Unknown { tag, data } => {
                losses.push(Loss::new(
                    tag.text(),
                    format!("unknown chunk of {} bytes: MDL has no place for it", data.len()),
                ));
            }
        }
    }
    p
}

fn is_empty(chunk: &Chunk) -> bool {
    match chunk {
        Chunk::Sequences(v) => v.is_empty(),
        Chunk::GlobalSequences(v) => v.is_empty(),
        Chunk::Materials(v) => v.is_empty(),
        Chunk::Textures(v) => v.is_empty(),
        Chunk::TextureAnims(v) => v.is_empty(),
        Chunk::Geosets(v) => v.is_empty(),
        Chunk::GeosetAnims(v) => v.is_empty(),
        Chunk::Bones(v) => v.is_empty(),
        Chunk::Lights(v) => v.is_empty(),
        Chunk::Helpers(v) => v.is_empty(),
        Chunk::Attachments(v) => v.is_empty(),
        Chunk::PivotPoints(v) => v.is_empty(),
        Chunk::ParticleEmitters(v) => v.is_empty(),
        Chunk::ParticleEmitters2(v) => v.is_empty(),
        Chunk::RibbonEmitters(v) => v.is_empty(),
        Chunk::Cameras(v) => v.is_empty(),
        Chunk::Events(v) => v.is_empty(),
        Chunk::CollisionShapes(v) => v.is_empty(),
        _ => false,
    }
}

impl W {
    fn line(&mut self, depth: usize, text: &str) {
        for _ in 0..depth {
            self.out.push('\t');
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn block(&mut self, depth: usize, head: &str, body: impl FnOnce(&mut Self)) {
        self.line(depth, &format!("{head} {{"));
        body(self);
        self.line(depth, "}");
    }

    fn f(&self, v: f32) -> String {
        float(v, self.style)
    }

    fn vector(&self, v: &[f32]) -> String {
        let parts: Vec<String> = v.iter().map(|x| self.f(*x)).collect();
        format!("{{ {} }}", parts.join(", "))
    }

    /// A static colour, written in the opposite component order (§8.6).
    fn color(&self, v: &[f32; 3]) -> String {
        self.vector(&[v[2], v[1], v[0]])
    }

    fn lose(&mut self, element: impl Into<String>, what: impl Into<String>) {
        self.losses.push(Loss::new(element, what));
    }

    /// `Name "text",` for a fixed string; bytes after the NUL are a loss.
    fn string<const N: usize>(&mut self, depth: usize, keyword: &str, raw: &[u8; N], element: &str) {
        let fixed = relic_core::binary::FixedString(*raw);
        let text = fixed.text_bytes();
        if raw.get(text.len()..).is_some_and(|rest| rest.iter().any(|&b| b != 0)) {
            self.lose(element, "bytes after the NUL: MDL keeps the text only");
        }
        if text.contains(&b'"') {
            self.lose(element, "a \" in the text: MDL has no escapes; written as '");
        }
        self.line(depth, &format!("{keyword} {},", quoted(text)));
    }

    fn flags(&mut self, depth: usize, flags: u32, names: &[(u32, &str)]) -> u32 {
        let mut used = 0;
        for (bit, name) in names {
            if flags & bit != 0 {
                self.line(depth, &format!("{name},"));
                used |= bit;
            }
        }
        used
    }

    fn extent(&mut self, depth: usize, e: &Extent) {
        let (min, max) = (self.vector(&e.minimum), self.vector(&e.maximum));
        self.line(depth, &format!("MinimumExtent {min},"));
        self.line(depth, &format!("MaximumExtent {max},"));
        let r = self.f(e.bounds_radius);
        self.line(depth, &format!("BoundsRadius {r},"));
    }

    fn model(&mut self, m: &ModelInfo, p: &Parts<'_>) {
        let name = quoted(m.name.text_bytes());
        self.block(0, &format!("Model {name}"), |w| {
            for (label, n) in [
                ("NumGeosets", p.geosets.len()),
                ("NumGeosetAnims", p.geoset_anims.len()),
                ("NumHelpers", p.helpers.len()),
                ("NumLights", p.lights.len()),
                ("NumBones", p.bones.len()),
                ("NumAttachments", p.attachments.len()),
                ("NumParticleEmitters", p.emitters1.len()),
                ("NumParticleEmitters2", p.emitters2.len()),
                ("NumRibbonEmitters", p.ribbons.len()),
                ("NumEvents", p.events.len()),
            ] {
                if n > 0 {
                    w.line(1, &format!("{label} {n},"));
                }
            }
            w.line(1, &format!("BlendTime {},", m.blend_time));
            w.extent(1, &m.extent);
            w.string(1, "AnimationFile", &m.animation_file.0, "MODL.animation_file");
        });
    }

    fn sequence(&mut self, s: &Sequence) {
        let name = quoted(s.name.text_bytes());
        self.block(1, &format!("Anim {name}"), |w| {
            w.line(2, &format!("Interval {{ {}, {} }},", s.interval_start, s.interval_end));
            if s.flags & 1 != 0 {
                w.line(2, "NonLooping,");
            }
            if s.flags & !1 != 0 {
                w.lose(format!("SEQS {name}.flags"), format!("bits {:#x} have no MDL keyword", s.flags & !1));
            }
            if s.sync_point != 0 {
                w.lose(format!("SEQS {name}.sync_point"), "MDL has no keyword for the sync point");
            }
            let (speed, rarity) = (w.f(s.move_speed), w.f(s.rarity));
            w.line(2, &format!("MoveSpeed {speed},"));
            w.line(2, &format!("Rarity {rarity},"));
            w.extent(2, &s.extent);
        });
    }

    fn texture(&mut self, i: usize, t: &Texture) {
        self.block(1, "Bitmap", |w| {
            w.string(2, "Image", &t.path.0, &format!("TEXS[{i}].path"));
            w.line(2, &format!("ReplaceableId {},", t.replaceable_id));
            let used = w.flags(2, t.flags, &[(1, "WrapWidth"), (2, "WrapHeight")]);
            if t.flags & !used != 0 {
                w.lose(format!("TEXS[{i}].flags"), format!("bits {:#x} have no MDL keyword", t.flags & !used));
            }
        });
    }

    fn material(&mut self, i: usize, m: &Material) {
        self.block(1, "Material", |w| {
            let used = w.flags(2, m.flags, MATERIAL_FLAGS);
            if m.flags & !used != 0 {
                w.lose(format!("MTLS[{i}].flags"), format!("bits {:#x} have no MDL 800 keyword", m.flags & !used));
            }
            w.line(2, &format!("PriorityPlane {},", m.priority_plane));
            for (j, l) in m.layers.iter().enumerate() {
                w.layer(&format!("MTLS[{i}].layers[{j}]"), l);
            }
        });
    }

    fn layer(&mut self, at: &str, l: &Layer) {
        self.block(2, "Layer", |w| {
            let mode = FILTER_MODES.get(l.filter_mode as usize).copied().unwrap_or("None");
            if FILTER_MODES.get(l.filter_mode as usize).is_none() {
                w.lose(format!("{at}.filter_mode"), format!("filter mode {} has no MDL keyword", l.filter_mode));
            }
            w.line(3, &format!("FilterMode {mode},"));
            let used = w.flags(3, l.shading_flags, LAYER_FLAGS);
            if l.shading_flags & !used != 0 {
                w.lose(
                    format!("{at}.shading_flags"),
                    format!("bits {:#x} have no MDL 800 keyword", l.shading_flags & !used),
                );
            }
            let texture = l.texture_id.to_string();
            w.animated(3, Owner::Layer, *b"KMTF", &l.tracks, &texture, &[l.texture_id as f32], at);
            w.line(3, &format!("TVertexAnimId {},", l.texture_animation_id));
            w.line(3, &format!("CoordId {},", l.coord_id));
            let alpha = w.f(l.alpha);
            w.animated(3, Owner::Layer, *b"KMTA", &l.tracks, &alpha, &[l.alpha], at);
            w.other_tracks(3, Owner::Layer, &l.tracks, &[*b"KMTF", *b"KMTA"], at);
        });
    }

    /// `static Name value,` or, when the record has the track, the track (the static value `raw`
    /// is then a loss unless it is the reader's default, [`static_default`]).
    #[allow(clippy::too_many_arguments)] // The value as text and as numbers, and where it is.
    fn animated(
        &mut self,
        depth: usize,
        owner: Owner,
        tag: [u8; 4],
        tracks: &[Track],
        value: &str,
        raw: &[f32],
        at: &str,
    ) {
        let name = track_name(owner, tag).unwrap_or("?");
        match tracks.iter().find(|t| t.tag.0 == tag) {
            Some(t) => {
                self.track(depth, name, t);
                if raw.iter().any(|v| v.to_bits() != static_default(tag).to_bits()) {
                    self.lose(format!("{at}.{name}"), format!("the static value {value} beside the track"));
                }
            }
            None => self.line(depth, &format!("static {name} {value},")),
        }
    }

    /// Tracks of `owner` not written by [`W::animated`] (and not in `except`).
    fn other_tracks(&mut self, depth: usize, owner: Owner, tracks: &[Track], except: &[[u8; 4]], at: &str) {
        for t in tracks.iter().filter(|t| !except.contains(&t.tag.0)) {
            match track_name(owner, t.tag.0) {
                Some(name) => self.track(depth, name, t),
                None => self.lose(format!("{at}.{}", t.tag), "a track MDL has no keyword for here"),
            }
        }
    }

    fn tracks(&mut self, depth: usize, owner: Owner, tracks: &[Track], at: &str) {
        self.other_tracks(depth, owner, tracks, &[], at);
    }

    fn track(&mut self, depth: usize, name: &str, t: &Track) {
        let interp = INTERPOLATION.get(t.interpolation as usize).copied().unwrap_or("DontInterp");
        self.block(depth, &format!("{name} {}", t.keys.len()), |w| {
            w.line(depth + 1, &format!("{interp},"));
            if t.global_sequence_id != -1 {
                w.line(depth + 1, &format!("GlobalSeqId {},", t.global_sequence_id));
            }
            match &t.keys {
                Keys::Int(k) => w.keys(depth + 1, k, |_, v| v.to_string()),
                Keys::Float(k) => w.keys(depth + 1, k, |w, v| w.f(*v)),
                Keys::Vec3(k) => w.keys(depth + 1, k, |w, v| w.vector(v)),
                Keys::Quat(k) => w.keys(depth + 1, k, |w, v| w.vector(v)),
            }
        });
    }

    fn keys<T: Value>(&mut self, depth: usize, keys: &[Key<T>], text: impl Fn(&Self, &T) -> String) {
        for k in keys {
            self.line(depth, &format!("{}: {},", k.frame, text(self, &k.value)));
            if let Some([a, b]) = &k.tangents {
                self.line(depth + 1, &format!("InTan {},", text(self, a)));
                self.line(depth + 1, &format!("OutTan {},", text(self, b)));
            }
        }
    }

    fn geoset(&mut self, i: usize, g: &Geoset) {
        self.block(0, "Geoset", |w| {
            w.rows(1, "Vertices", g.vertices.iter().map(|v| w.vector(v)).collect());
            w.rows(1, "Normals", g.normals.iter().map(|v| w.vector(v)).collect());
            for uv in &g.uv_sets {
                w.rows(1, "TVertices", uv.uvs.iter().map(|v| w.vector(v)).collect());
            }
            w.block(1, "VertexGroup", |w| {
                for v in &g.vertex_groups {
                    w.line(2, &format!("{v},"));
                }
            });
            // The groups as MDL holds them: whole triangle lists cut where PVTX ends.
            let mut groups: Vec<&[u16]> = Vec::new();
            let mut at = 0usize;
            for (k, (&kind, &count)) in g.face_types.iter().zip(&g.face_counts).enumerate() {
                if kind != 4 {
                    w.lose(format!("GEOS[{i}].face_types[{k}]"), format!("face type {kind}: MDL names triangles only"));
                }
                let end = at.saturating_add(count as usize).min(g.indices.len());
                groups.push(g.indices.get(at..end).unwrap_or_default());
                at = end;
            }
            if g.face_types.len() != g.face_counts.len() || at != g.indices.len() {
                w.lose(format!("GEOS[{i}].faces"), "PTYP, PCNT and PVTX disagree: MDL writes whole groups");
            }
            let written: usize = groups.iter().map(|g| g.len()).sum();
            w.block(1, &format!("Faces {} {written}", groups.len()), |w| {
                for list in &groups {
                    let list: Vec<String> = list.iter().map(u16::to_string).collect();
                    w.block(2, "Triangles", |w| w.line(3, &format!("{{ {} }},", list.join(", "))));
                }
            });
            let mut matrices: Vec<&[u32]> = Vec::new();
            let mut at = 0usize;
            for &n in &g.matrix_group_sizes {
                let end = at.saturating_add(n as usize).min(g.matrix_indices.len());
                matrices.push(g.matrix_indices.get(at..end).unwrap_or_default());
                at = end;
            }
            if at != g.matrix_indices.len()
                || matrices.iter().zip(&g.matrix_group_sizes).any(|(m, &n)| m.len() != n as usize)
            {
                w.lose(format!("GEOS[{i}].matrix_indices"), "MTGC and MATS disagree: MDL writes whole groups");
            }
            let written: usize = matrices.iter().map(|m| m.len()).sum();
            w.block(1, &format!("Groups {} {written}", matrices.len()), |w| {
                for ids in &matrices {
                    let ids: Vec<String> = ids.iter().map(u32::to_string).collect();
                    w.line(2, &format!("Matrices {{ {} }},", ids.join(", ")));
                }
            });
            w.extent(1, &g.extent);
            for e in &g.sequence_extents {
                w.block(1, "Anim", |w| w.extent(2, e));
            }
            w.line(1, &format!("MaterialID {},", g.material_id));
            w.line(1, &format!("SelectionGroup {},", g.selection_group));
            match g.selection_flags {
                0 => {}
                4 => w.line(1, "Unselectable,"),
                other => w.lose(format!("GEOS[{i}].selection_flags"), format!("{other} has no MDL 800 keyword")),
            }
        });
    }

    /// `Name n { row, … }`.
    fn rows(&mut self, depth: usize, name: &str, rows: Vec<String>) {
        self.block(depth, &format!("{name} {}", rows.len()), |w| {
            for r in &rows {
                w.line(depth + 1, &format!("{r},"));
            }
        });
    }

    fn geoset_anim(&mut self, g: &GeosetAnim) {
        self.block(0, "GeosetAnim", |w| {
            if g.flags & 1 != 0 {
                w.line(1, "DropShadow,");
            }
            if g.flags & !3 != 0 {
                w.lose("GEOA.flags", format!("bits {:#x} have no MDL keyword", g.flags & !3));
            }
            let alpha = w.f(g.alpha);
            w.animated(1, Owner::GeosetAnim, *b"KGAO", &g.tracks, &alpha, &[g.alpha], "GEOA");
            // Colour is written when the UseColor bit is set or a colour track exists; the reader
            // sets the bit from it.
            let has_track = g.tracks.iter().any(|t| t.tag.0 == *b"KGAC");
            if g.flags & 2 != 0 || has_track {
                let color = w.color(&g.color);
                w.animated(1, Owner::GeosetAnim, *b"KGAC", &g.tracks, &color, &g.color, "GEOA");
                if has_track && g.flags & 2 == 0 {
                    w.lose("GEOA.flags", "a colour track without UseColor: the reader sets UseColor");
                }
            } else if g.color != [1.0, 1.0, 1.0] {
                w.lose("GEOA.color", "a colour without UseColor: MDL writes colours only with it");
            }
            w.line(1, &format!("GeosetId {},", g.geoset_id));
            w.other_tracks(1, Owner::GeosetAnim, &g.tracks, &[*b"KGAO", *b"KGAC"], "GEOA");
        });
    }
}

/// A string in quotes; its bytes as Windows-1252 text (MDX strings carry no encoding). MDL has
/// no escapes: a `"` inside becomes `'` (the writers report it).
fn quoted(bytes: &[u8]) -> String {
    format!("\"{}\"", relic_core::text::decode_cp1252(bytes).replace('"', "'"))
}
