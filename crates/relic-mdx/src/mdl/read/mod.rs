//! MDL text (version 800) → the MDX types, chunks in the canonical order (spec §2.2), empty
//! chunks left out. Values MDL does not state take the defaults of spec §8.8 (`TVertexAnimId −1`,
//! `Parent −1`, `static Alpha 1`, …); a static value beside its track takes [`static_default`].

use std::str::FromStr;

use relic_core::ReadError;
use relic_core::binary::FixedString;

mod records;

use records::{camera, emitter1, emitter2, geoset, light, ribbon, shape};

use super::names::*;
use super::tree::{Block, Item, Tok, keyword, parse_tree};
use crate::file::*;

type R<T> = Result<T, ReadError>;

/// A key as written: frame, the value's words, and the tangents' words.
type RawKey = (i32, Vec<String>, Option<[Vec<String>; 2]>);

fn err(b: &Block, message: impl std::fmt::Display) -> ReadError {
    ReadError::document(format!("MDL line {} ({}): {message}", b.line, b.kw()))
}

fn word<'a>(b: &Block, tokens: Option<&'a [Tok]>, what: &str) -> R<&'a str> {
    tokens.and_then(|t| t.first()).and_then(Tok::word).ok_or_else(|| err(b, format!("{what} is missing")))
}

fn number<T: FromStr>(b: &Block, text: &str) -> R<T> {
    let value = match text {
        "Infinity" => "inf",
        "-Infinity" => "-inf",
        other => other,
    };
    value.parse().map_err(|_| err(b, format!("{text:?} is not a number of the right kind")))
}

/// The number of statement `kw`, or `default` when there is none.
fn get<T: FromStr>(b: &Block, kw: &str, default: T) -> R<T> {
    match b.stmt(kw) {
        Some(t) => number(b, word(b, Some(t), kw)?),
        None => Ok(default),
    }
}

/// The `N` numbers of vector block `kw`.
fn vector<const N: usize>(b: &Block, kw: &str) -> R<[f32; N]> {
    let v = b.block(kw).ok_or_else(|| err(b, format!("{kw} is missing")))?;
    floats(v)
}

fn floats<const N: usize>(v: &Block) -> R<[f32; N]> {
    let words = v.words();
    if words.len() != N {
        return Err(err(v, format!("{} numbers where {N} belong", words.len())));
    }
    let mut out = [0f32; N];
    for (o, w) in out.iter_mut().zip(words) {
        *o = number(v, w)?;
    }
    Ok(out)
}

/// A static colour (written reversed, §8.6).
fn color(v: &Block) -> R<[f32; 3]> {
    let [a, b, c] = floats::<3>(v)?;
    Ok([c, b, a])
}

/// A string as MDX bytes: Windows-1252 (how the writer decodes MDX bytes, so MDX → MDL → MDX
/// keeps them), else UTF-8 (real MDL files hold UTF-8 names whose MDX stored another code page).
fn string<const N: usize>(b: &Block, text: &str) -> R<FixedString<N>> {
    let bytes = relic_core::text::encode_cp1252(text).unwrap_or_else(|| text.as_bytes().to_vec());
    let mut out = [0u8; N];
    match out.get_mut(..bytes.len()) {
        Some(head) if bytes.len() < N => head.copy_from_slice(&bytes),
        _ => return Err(err(b, format!("{text:?} takes {} bytes; char[{N}] holds {}", bytes.len(), N - 1))),
    }
    Ok(FixedString(out))
}

fn name<const N: usize>(b: &Block) -> R<FixedString<N>> {
    match b.head.get(1) {
        Some(Tok::Str(s)) => string(b, s),
        _ => Ok(FixedString::default()),
    }
}

fn text_stmt<const N: usize>(b: &Block, kw: &str) -> R<FixedString<N>> {
    match b.stmt(kw).and_then(|t| t.first()) {
        Some(Tok::Str(s)) => string(b, s),
        _ => Ok(FixedString::default()),
    }
}

fn flags(b: &Block, names: &[(u32, &str)]) -> u32 {
    names.iter().filter(|(_, n)| b.flag(n)).fold(0, |acc, (bit, _)| acc | bit)
}

fn rows<'s, 'a>(b: &'s Block<'a>) -> Vec<&'s Block<'a>> {
    b.items
        .iter()
        .filter_map(|i| match i {
            Item::Block(r) if r.head.is_empty() => Some(&**r),
            _ => None,
        })
        .collect()
}

fn extent(b: &Block) -> R<Extent> {
    Ok(Extent {
        bounds_radius: get(b, "BoundsRadius", 0.0)?,
        minimum: if b.block("MinimumExtent").is_some() { vector(b, "MinimumExtent")? } else { [0.0; 3] },
        maximum: if b.block("MaximumExtent").is_some() { vector(b, "MaximumExtent")? } else { [0.0; 3] },
    })
}

/// Whether `b` is a track block (`Name count {`).
fn is_track(b: &Block) -> bool {
    b.head.len() == 2
        && b.head.iter().all(|t| t.word().is_some())
        && b.head.get(1).and_then(Tok::word).is_some_and(|w| w.parse::<u32>().is_ok())
}

/// The tracks of `b` that `owner` names, in order.
fn tracks(b: &Block, owner: Owner) -> R<Vec<Track>> {
    let mut out = Vec::new();
    for item in &b.items {
        if let Item::Block(t) = item
            && is_track(t)
            && let Some(tag) = track_tag(owner, t.kw())
        {
            out.push(track(t, tag)?);
        }
    }
    Ok(out)
}

/// One track block.
fn track(b: &Block, tag: [u8; 4]) -> R<Track> {
    let count: usize = number(b, b.head.get(1).and_then(Tok::word).unwrap_or(""))?;
    let mut items = b.items.iter().peekable();
    let interpolation = match items.next() {
        Some(Item::Stmt(s)) => {
            let w = s.first().and_then(Tok::word).unwrap_or("");
            INTERPOLATION
                .iter()
                .position(|i| *i == w)
                .ok_or_else(|| err(b, format!("{w:?} is not an interpolation")))?
        }
        _ => return Err(err(b, "the interpolation is missing")),
    } as u32;
    let mut global_sequence_id = -1;
    if let Some(Item::Stmt(s)) = items.peek()
        && keyword(s) == Some("GlobalSeqId")
    {
        global_sequence_id = number(b, s.get(1).and_then(Tok::word).unwrap_or(""))?;
        items.next();
    }
    // Each key: its frame and value words, then the words of InTan and OutTan.
    let mut raw: Vec<RawKey> = Vec::new();
    let value_words = |item: &Item| -> Vec<String> {
        match item {
            Item::Stmt(s) => s.iter().skip(1).filter_map(Tok::word).map(str::to_string).collect(),
            Item::Block(v) => v.words().into_iter().map(str::to_string).collect(),
        }
    };
    while let Some(item) = items.next() {
        let (frame, value) = match item {
            Item::Stmt(s) if matches!(s.get(1), Some(Tok::Colon)) => {
                let frame = number(b, s.first().and_then(Tok::word).unwrap_or(""))?;
                (frame, s.iter().skip(2).filter_map(Tok::word).map(str::to_string).collect())
            }
            Item::Block(v) if matches!(v.head.get(1), Some(Tok::Colon)) => (
                number(b, v.head.first().and_then(Tok::word).unwrap_or(""))?,
                v.words().into_iter().map(str::to_string).collect(),
            ),
            _ => return Err(err(b, "a key frame (`frame: value`) was expected")),
        };
        let tangent = |item: Option<&&Item>, kw: &str| match item {
            Some(Item::Stmt(s)) => keyword(s) == Some(kw),
            Some(Item::Block(v)) => v.kw() == kw,
            None => false,
        };
        let tangents = if tangent(items.peek(), "InTan") {
            let a = items.next().map(&value_words).unwrap_or_default();
            if !tangent(items.peek(), "OutTan") {
                return Err(err(b, "InTan without OutTan"));
            }
            let c = items.next().map(&value_words).unwrap_or_default();
            Some([a, c])
        } else {
            None
        };
        raw.push((frame, value, tangents));
    }
    if raw.len() != count {
        return Err(err(b, format!("{count} keys declared, {} written", raw.len())));
    }
    let kind = value_kind(tag).unwrap_or(ValueKind::Float);
    fn keys<T: Value>(b: &Block, raw: &[RawKey], value: impl Fn(&[String]) -> R<T>) -> R<Vec<Key<T>>> {
        let _ = b;
        raw.iter()
            .map(|(frame, v, t)| {
                let tangents = match t {
                    Some([a, c]) => Some([value(a)?, value(c)?]),
                    None => None,
                };
                Ok(Key { frame: *frame, value: value(v)?, tangents })
            })
            .collect()
    }
    fn one<'w>(b: &Block, w: &'w [String]) -> R<&'w str> {
        match w {
            [x] => Ok(x.as_str()),
            _ => Err(err(b, format!("{} numbers where one belongs", w.len()))),
        }
    }
    fn many<const N: usize>(b: &Block<'_>, w: &[String]) -> R<[f32; N]> {
        let mut out = [0f32; N];
        if w.len() != N {
            return Err(err(b, format!("{} numbers where {N} belong", w.len())));
        }
        for (o, x) in out.iter_mut().zip(w) {
            *o = number(b, x)?;
        }
        Ok(out)
    }
    let keys = match kind {
        ValueKind::Int => Keys::Int(keys(b, &raw, |w| number(b, one(b, w)?))?),
        ValueKind::Float => Keys::Float(keys(b, &raw, |w| number(b, one(b, w)?))?),
        ValueKind::Vec3 => Keys::Vec3(keys(b, &raw, |w| many::<3>(b, w))?),
        ValueKind::Quat => Keys::Quat(keys(b, &raw, |w| many::<4>(b, w))?),
    };
    let track = Track { tag: Tag(tag), interpolation, global_sequence_id, keys };
    if !track.keys.tangents_agree(interpolation >= HERMITE) {
        return Err(err(b, "Hermite and Bezier keys need InTan and OutTan, the others none"));
    }
    Ok(track)
}

/// A static value `kw` of a record whose track may replace it.
fn static_f32(b: &Block, kw: &str, tag: [u8; 4], own: &[Track], default: f32) -> R<f32> {
    if own.iter().any(|t| t.tag.0 == tag) {
        return Ok(static_default(tag));
    }
    get(b, kw, default)
}

fn static_color(b: &Block, kw: &str, tag: [u8; 4], own: &[Track]) -> R<[f32; 3]> {
    if own.iter().any(|t| t.tag.0 == tag) {
        return Ok([static_default(tag); 3]);
    }
    match b.block(kw) {
        Some(v) => color(v),
        None => Ok([1.0; 3]),
    }
}

/// A node: name, ids, flags and its KGTR/KGRT/KGSC tracks.
fn node(b: &Block, type_bit: u32, own_flags: &[(u32, &str)]) -> R<Node> {
    let mut flags = type_bit | flags(b, NODE_FLAGS) | flags(b, own_flags);
    if let Some(d) = b.block("DontInherit") {
        let words = d.words();
        for (bit, n) in DONT_INHERIT {
            if words.contains(n) {
                flags |= bit;
            }
        }
    }
    Ok(Node {
        name: name(b)?,
        object_id: get(b, "ObjectId", 0)?,
        parent_id: get(b, "Parent", -1)?,
        flags,
        tracks: tracks(b, Owner::Node)?,
    })
}

fn id_or(b: &Block, kw: &str, none: &str) -> R<i32> {
    match b.stmt(kw).and_then(|t| t.first()).and_then(Tok::word) {
        Some(w) if w == none => Ok(-1),
        Some(w) => number(b, w),
        None => Ok(-1),
    }
}

/// Parses MDL text of version 800 into an [`MdxFile`].
pub fn read_mdl(text: &str) -> Result<MdxFile, ReadError> {
    let root = parse_tree(text)?;
    let version: u32 = match root.block("Version") {
        Some(v) => get(v, "FormatVersion", 800)?,
        None => 800,
    };
    if version != 800 {
        return Err(ReadError::document(format!(
            "MDL FormatVersion {version}: relic-mdx reads MDL of version 800 (Reforged has no official MDL, specs/mdx.md §8.5)"
        )));
    }
    let mut chunks = vec![Chunk::Version(version)];
    if let Some(m) = root.block("Model") {
        chunks.push(Chunk::Model(Box::new(ModelInfo {
            name: name(m)?,
            animation_file: text_stmt(m, "AnimationFile")?,
            extent: extent(m)?,
            blend_time: get(m, "BlendTime", 0)?,
        })));
    }
    let all = |kw: &'static str| root.blocks(kw).collect::<Vec<&Block>>();
    let mut sequences = Vec::new();
    for s in root.blocks("Sequences").flat_map(|b| b.blocks("Anim")) {
        let [start, end] = s
            .block("Interval")
            .map(|v| -> R<[u32; 2]> {
                let w = v.words();
                match w[..] {
                    [a, b] => Ok([number(v, a)?, number(v, b)?]),
                    _ => Err(err(v, "an interval is two numbers")),
                }
            })
            .transpose()?
            .unwrap_or([0, 0]);
        sequences.push(Sequence {
            name: name(s)?,
            interval_start: start,
            interval_end: end,
            move_speed: get(s, "MoveSpeed", 0.0)?,
            flags: u32::from(s.flag("NonLooping")),
            rarity: get(s, "Rarity", 0.0)?,
            sync_point: 0,
            extent: extent(s)?,
        });
    }
    push(&mut chunks, sequences, Chunk::Sequences);
    let mut globals = Vec::new();
    for g in all("GlobalSequences") {
        for item in &g.items {
            if let Item::Stmt(s) = item
                && keyword(s) == Some("Duration")
            {
                globals.push(number(g, s.get(1).and_then(Tok::word).unwrap_or(""))?);
            }
        }
    }
    push(&mut chunks, globals, Chunk::GlobalSequences);
    let mut materials = Vec::new();
    for m in root.blocks("Materials").flat_map(|b| b.blocks("Material")) {
        let mut layers = Vec::new();
        for l in m.blocks("Layer") {
            let own = tracks(l, Owner::Layer)?;
            let mode = l.stmt("FilterMode").and_then(|t| t.first()).and_then(Tok::word).unwrap_or("None");
            let filter_mode =
                FILTER_MODES.iter().position(|f| *f == mode).ok_or_else(|| err(l, format!("filter mode {mode:?}")))?;
            layers.push(Layer {
                filter_mode: filter_mode as u32,
                shading_flags: flags(l, LAYER_FLAGS),
                texture_id: if own.iter().any(|t| t.tag.0 == *b"KMTF") { 0 } else { get(l, "TextureID", 0)? },
                texture_animation_id: get(l, "TVertexAnimId", -1)?,
                coord_id: get(l, "CoordId", 0)?,
                alpha: static_f32(l, "Alpha", *b"KMTA", &own, 1.0)?,
                emissive_gain: None,
                fresnel: None,
                slots: None,
                tracks: own,
            });
        }
        materials.push(Material {
            priority_plane: get(m, "PriorityPlane", 0)?,
            flags: flags(m, MATERIAL_FLAGS),
            shader: None,
            layers,
        });
    }
    push(&mut chunks, materials, Chunk::Materials);
    let mut textures = Vec::new();
    for t in root.blocks("Textures").flat_map(|b| b.blocks("Bitmap")) {
        textures.push(Texture {
            replaceable_id: get(t, "ReplaceableId", 0)?,
            path: text_stmt(t, "Image")?,
            flags: flags(t, &[(1, "WrapWidth"), (2, "WrapHeight")]),
        });
    }
    push(&mut chunks, textures, Chunk::Textures);
    let mut anims = Vec::new();
    for t in root.blocks("TextureAnims").flat_map(|b| b.blocks("TVertexAnim")) {
        anims.push(TextureAnim { tracks: tracks(t, Owner::TextureAnim)? });
    }
    push(&mut chunks, anims, Chunk::TextureAnims);
    let geosets = all("Geoset").into_iter().map(geoset).collect::<R<Vec<_>>>()?;
    push(&mut chunks, geosets, Chunk::Geosets);
    let mut geoset_anims = Vec::new();
    for g in all("GeosetAnim") {
        let own = tracks(g, Owner::GeosetAnim)?;
        let has_color = g.block("Color").is_some() || own.iter().any(|t| t.tag.0 == *b"KGAC");
        geoset_anims.push(GeosetAnim {
            alpha: static_f32(g, "Alpha", *b"KGAO", &own, 1.0)?,
            flags: u32::from(g.flag("DropShadow")) | if has_color { 2 } else { 0 },
            color: static_color(g, "Color", *b"KGAC", &own)?,
            geoset_id: get(g, "GeosetId", -1)?,
            tracks: own,
        });
    }
    push(&mut chunks, geoset_anims, Chunk::GeosetAnims);
    let mut bones = Vec::new();
    for b in all("Bone") {
        bones.push(Bone {
            node: node(b, 0x100, &[])?,
            geoset_id: id_or(b, "GeosetId", "Multiple")?,
            geoset_animation_id: id_or(b, "GeosetAnimId", "None")?,
        });
    }
    push(&mut chunks, bones, Chunk::Bones);
    let lights = all("Light").into_iter().map(light).collect::<R<Vec<_>>>()?;
    push(&mut chunks, lights, Chunk::Lights);
    let helpers = all("Helper").into_iter().map(|h| Ok(Helper { node: node(h, 0, &[])? })).collect::<R<Vec<_>>>()?;
    push(&mut chunks, helpers, Chunk::Helpers);
    let mut attachments = Vec::new();
    for a in all("Attachment") {
        attachments.push(Attachment {
            node: node(a, 0x800, &[])?,
            path: text_stmt(a, "Path")?,
            attachment_id: get(a, "AttachmentID", 0)?,
            tracks: tracks(a, Owner::Attachment)?,
        });
    }
    push(&mut chunks, attachments, Chunk::Attachments);
    let mut pivots = Vec::new();
    for p in all("PivotPoints") {
        for r in rows(p) {
            pivots.push(floats::<3>(r)?);
        }
    }
    push(&mut chunks, pivots, Chunk::PivotPoints);
    let emitters = all("ParticleEmitter").into_iter().map(emitter1).collect::<R<Vec<_>>>()?;
    push(&mut chunks, emitters, Chunk::ParticleEmitters);
    let emitters = all("ParticleEmitter2").into_iter().map(emitter2).collect::<R<Vec<_>>>()?;
    push(&mut chunks, emitters, Chunk::ParticleEmitters2);
    let ribbons = all("RibbonEmitter").into_iter().map(ribbon).collect::<R<Vec<_>>>()?;
    push(&mut chunks, ribbons, Chunk::RibbonEmitters);
    let cameras = all("Camera").into_iter().map(camera).collect::<R<Vec<_>>>()?;
    push(&mut chunks, cameras, Chunk::Cameras);
    let mut events = Vec::new();
    for e in all("EventObject") {
        let track = match e.block("EventTrack") {
            Some(t) => {
                let mut frames = Vec::new();
                let mut global_sequence_id = -1;
                for item in &t.items {
                    if let Item::Stmt(s) = item {
                        if keyword(s) == Some("GlobalSeqId") {
                            global_sequence_id = number(t, s.get(1).and_then(Tok::word).unwrap_or(""))?;
                        } else {
                            frames.push(number(t, s.first().and_then(Tok::word).unwrap_or(""))?);
                        }
                    }
                }
                Some(EventTrack { global_sequence_id, frames })
            }
            None => None,
        };
        events.push(EventObject { node: node(e, 0x400, &[])?, track });
    }
    push(&mut chunks, events, Chunk::Events);
    let shapes = all("CollisionShape").into_iter().map(shape).collect::<R<Vec<_>>>()?;
    push(&mut chunks, shapes, Chunk::CollisionShapes);
    Ok(MdxFile { chunks })
}

fn push<T>(chunks: &mut Vec<Chunk>, items: Vec<T>, chunk: impl FnOnce(Vec<T>) -> Chunk) {
    if !items.is_empty() {
        chunks.push(chunk(items));
    }
}
