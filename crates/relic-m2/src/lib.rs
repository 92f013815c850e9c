#![doc = include_str!("../README.md")]
//!
//! | version | game | bone | submesh | rotation keys | notes |
//! |---|---|---|---|---|---|
//! | 256–259 | Classic 1.x | 108 B | 32 B | 4×f32 | the real 1.12 file is 256 |
//! | 260–263 | The Burning Crusade 2.x | 112 B | 48 B | 4×i16, excess-32767 | + blend overrides with flag 0x8 |
//! | 264, 272 | Wrath, Cataclysm | 88 B | 48 B (in `.skin`) | 4×i16 | tracks per sequence, views in `.skin`, keys of external sequences in `.anim` ([`wrath`]) |
//! | 274 (272) in `MD21` | Legion | 88 B | 48 B (in `.skin`) | 4×i16 | chunked: the `MD20` block in an `MD21` chunk, FileDataID chunks beside it ([`md21`]) |
//! | 265–271, 273, plain 274+ | — | — | — | — | refused: no documented layout |
//!
//! | section | file layer ([`mod@file`]) | common model ([`to_ir()`], [`from_ir()`]) |
//! |---|---|---|
//! | header, name, flags | [`M2File`] | `Model::name`; flags in extras |
//! | global sequences | `M2File::global_sequences` (ms) | `Model::global_sequences` (s) |
//! | sequences + lookups | [`file::Sequence`] | one `Animation` per sequence |
//! | bones + tracks | [`file::Bone`], [`file::Track`] | bones (pivot → rest, bind), channels |
//! | vertices, view 0 | [`file::Vertex`], [`file::View`] | one mesh per submesh of view 0 |
//! | textures, render flags, texture units | [`file::Texture`], [`file::RenderFlag`], [`file::TextureUnit`] | materials |
//! | attachments, events | [`file::Attachment`], [`file::Event`] | attachments, animation events |
//! | ribbons, particles | [`file::Ribbon`], [`file::Particle`] | `Model::emitters`, each with its record ([`EmitterRecord`]) |
//! | views 1–3, colours, transparency, UV animations, lookups, collision, lights, cameras | their records | [`M2Extras`] in `Model::extras` |

pub mod anim;
pub mod bone_file;
mod carried;
mod chunk;
mod companions;
mod entry;
mod extras;
pub mod file;
pub mod frame;
mod from_ir;
pub mod md21;
pub mod names;
mod readback;
pub mod skel;
mod to_ir;
mod tolerated;
mod validate;
#[cfg(feature = "verify")]
pub mod verify;
pub mod wrath;

pub use entry::ENTRY;
pub use extras::{EmitterRecord, M2Extras};
pub use file::M2File;

use relic_core::format::{Content, Detected, Written};
use relic_core::{Converted, Info, Model, ReadError, ReadErrorKind, WriteError, WriteOptions};

/// World of Warcraft M2, as named in [`relic_core::model::SourceInfo`] and the format registry.
pub const FORMAT: relic_core::FormatId = relic_core::FormatId::new("m2");

/// The version written when the caller names none and the model did not come from M2 (the
/// registry's `default_write`): 256, World of Warcraft Classic's.
pub(crate) const DEFAULT_VERSION: u32 = 256;

/// The first version read with its sibling files: Wrath moved the views into `.skin` files.
const FIRST_UNSUPPORTED: u32 = 264;

/// Recognises M2 by its bytes: `MD20` with any version (256–263 are read, the others are
/// recognised so that reading can refuse them with a reason), `MD21` (Legion+), and the two files
/// users mistake for an M2 (`SKIN`, `MDLX`).
pub fn detect(bytes: &[u8]) -> Option<Detected> {
    let magic = bytes.get(..4)?;
    let u32_at = |at: usize| bytes.get(at..at + 4).and_then(|b| b.try_into().ok()).map(u32::from_le_bytes);
    let (version, content) = match magic {
        b"MD20" => (u32_at(4)?, Content::Model),
        // A chunked file too short to say its version is refused as chunked all the same.
        b"MD21" => (u32_at(12).unwrap_or(0), Content::Model),
        b"SKIN" => (0, Content::Part),
        b"MDLX" => (0, Content::Model),
        _ => return None,
    };
    Some(Detected::new(FORMAT, version, content))
}

/// Why a file that [`detect`] accepts cannot be read, or `None` if it can.
fn refusal(bytes: &[u8]) -> Option<ReadError> {
    // Fewer than 4 bytes: no magic at all, refused as a bad one.
    let magic = bytes.get(..4).unwrap_or_default();
    let version = detect(bytes).map_or(0, |d| d.source.version);
    let refuse = |reason: String| Some(ReadError::new(0, ReadErrorKind::UnsupportedVersion { version, reason }));
    match magic {
        b"MD20" if (256..FIRST_UNSUPPORTED).contains(&version) => None,
        b"MD20" if version >= FIRST_UNSUPPORTED => refuse(wrath::refusal(version).unwrap_or_else(|| format!(
            "M2 version {version} keeps its views in .skin files next to it: read it with them (relic_m2::wrath::read, or read_input)"
        ))),
        b"MD20" => refuse(format!("M2 version {version} is older than any known release; only 256–263 are supported")),
        b"MD21" => refuse(md21::refusal(version).unwrap_or_else(|| {
            "a chunked M2 (MD21) keeps its views in .skin files next to it: read it with them (relic_m2::md21::read, or read_input)"
                .into()
        })),
        b"SKIN" => refuse("this is a .skin file (a view of a Wrath-or-later model), not an .m2".into()),
        b"MDLX" => refuse("this is a WoW alpha / Warcraft III MDX file, not an M2".into()),
        _ => Some(ReadError::new(0, ReadErrorKind::BadMagic { found: format!("{magic:?}"), expected: "MD20".into() })),
    }
}

/// Parses an M2 file of versions 256–263 and checks every cross-reference.
pub fn read(bytes: &[u8]) -> Result<M2File, ReadError> {
    if let Some(e) = refusal(bytes) {
        return Err(e);
    }
    let mut file = relic_core::binary::parse(bytes, |s| {
        use binrw::BinRead;
        <M2File>::read_options(s, binrw::Endian::Little, (&[], None))
    })?;
    file.as_read = file::AsRead::of(file.version, bytes, file.header_size(), &[], |r| file.visit(r));
    validate::validate(&file, bytes.len() as u64)?;
    Ok(file)
}

/// Writes a file in Blizzard's layout (header order, depth first, every block 16-byte aligned:
/// see [`file::Layout`]), or in the layout it was read with while every array still holds the
/// count it was read with ([`file::AsRead`]): a file read comes back byte for byte, whatever its
/// layout. An error only if the file would outgrow the format's u32 offsets.
pub fn write(file: &M2File) -> Result<Vec<u8>, WriteError> {
    file::write(file)
}

/// Maps a file to the common model (glTF's frame, seconds; see the crate docs). The file goes
/// into the model's extras, so [`from_ir`] can write it back byte for byte.
pub fn to_ir(file: &M2File) -> Result<Model, ReadError> {
    let mut model = to_ir::to_ir(file)?;
    carried::attach(&mut model, to_ir::kept(file.clone()));
    Ok(model)
}

/// Maps a common model to a file: sections of the extras' file are kept while they still map to
/// what the model holds, everything else is built from the model; what the file cannot hold
/// comes back as losses. The version is `options.version`, else the version the model was read
/// from when it came from M2, else 256.
pub fn from_ir(model: &Model, options: &WriteOptions) -> Result<Converted<M2File>, WriteError> {
    let (extras, unread) = decoded(model);
    let mut converted = from_ir::from_ir(model, extras.as_deref(), options)?;
    converted.losses.splice(0..0, unread);
    // A model read from an M2 holds the file's lights, which the kept file writes back.
    if model.source.is_none_or(|s| s.format != FORMAT) {
        converted
            .losses
            .extend(model.scene_not_held("relic writes an M2's lights and cameras from its own records only"));
    }
    Ok(converted)
}

/// The model's M2 extras, decoded once for a write, and the loss to report if they do not read
/// (then the file is built from the model alone).
fn decoded(model: &Model) -> (Option<std::borrow::Cow<'_, M2Extras>>, Option<relic_core::Loss>) {
    match carried::decode(model) {
        Ok(extras) => (extras, None),
        Err(loss) => (None, Some(loss)),
    }
}

/// The file's own counts (`relic info`).
pub fn info(bytes: &[u8]) -> Result<Info, ReadError> {
    let file = read(bytes)?;
    Ok(file_info(&file, &tolerated::notes(&file)))
}

/// A 256–263 file's counts, with `notes` (what it holds that the game tolerates).
fn file_info(file: &M2File, notes: &[relic_core::Loss]) -> Info {
    let mut info = Info::new(crate::FORMAT, file.version);
    let view0 = file.views.first();
    info.text("name", file.name_text())
        .count("bones", file.bones.len())
        .count("vertices", file.vertices.len())
        .count("views", file.views.len())
        .count("submeshes", view0.map_or(0, |v| v.submeshes.len()))
        .count("triangles", view0.map_or(0, |v| v.triangles.len() / 3))
        .count("textures", file.textures.len())
        .count("replaceable_textures", file.textures.iter().filter(|t| t.kind != 0).count())
        .count("sequences", file.sequences.len())
        .count("global_sequences", file.global_sequences.len())
        .count("attachments", file.attachments.len())
        .count("events", file.events.len())
        .count("lights", file.lights.len())
        .count("cameras", file.cameras.len())
        .count("particles", file.particle_emitters.len())
        .count("ribbons", file.ribbon_emitters.len())
        .count("colors", file.colors.len())
        .count("transparency", file.transparency.len())
        .count("texture_animations", file.texture_transforms.len());
    for note in notes {
        info.text("note", note.to_string());
    }
    info
}

/// The file's own counts, with the `.skin` and `.anim` files a Wrath-or-later model has beside it.
pub fn info_input(input: &relic_core::format::Input<'_>) -> Result<Info, ReadError> {
    if input.bytes.starts_with(b"MD21") {
        return md21_info_input(input);
    }
    let wrath =
        input.bytes.starts_with(b"MD20") && detect(input.bytes).is_some_and(|d| d.source.version >= FIRST_UNSUPPORTED);
    if !wrath {
        return info(input.bytes);
    }
    // An incomplete model (`.anim` or `.skin` files missing) is described as far as it is there.
    let (w, notes) = match wrath::read_checked(input) {
        Err(e) if matches!(e.kind, ReadErrorKind::Incomplete { .. }) => (wrath::read_partial(input)?, Vec::new()),
        read => {
            let (w, classic, _) = read?;
            let mut notes = tolerated::notes(&classic);
            notes.extend(tolerated::skin_notes(&w.skins));
            (w, notes)
        }
    };
    Ok(wrath_info(&w, &notes, input.stem()))
}

/// The counts of a chunked model (as a Wrath-or-later one's), its chunks and FileDataIDs.
fn md21_info_input(input: &relic_core::format::Input<'_>) -> Result<Info, ReadError> {
    let (m, notes) = match md21::read_checked(input) {
        Err(e) if matches!(e.kind, ReadErrorKind::Incomplete { .. }) => (md21::read_partial(input)?, Vec::new()),
        read => {
            let (m, classic, _) = read?;
            let mut notes = skeletal_notes(tolerated::notes(&classic), &m.model);
            notes.extend(tolerated::skin_notes(&m.model.skins));
            (m, notes)
        }
    };
    let mut info = wrath_info(&m.model, &notes, input.stem());
    md21_facts(&mut info, &m, input);
    Ok(info)
}

/// The notes of a model's 256–263 form, without the shared-bytes ("layout") one for a model
/// with a skeleton: its skeleton's arrays count their offsets from their `.skel` chunk's
/// payload (m2-md21.md §7.1), not from the `.m2`, so blocks of different files meet there.
fn skeletal_notes(notes: Vec<relic_core::Loss>, model: &wrath::Wrath) -> Vec<relic_core::Loss> {
    match model.skeleton {
        Some(_) => notes.into_iter().filter(|l| l.element != "layout").collect(),
        None => notes,
    }
}

/// What `relic info` adds for a chunked model: the chunks by tag, the FileDataIDs and what was
/// tolerated.
fn md21_facts(info: &mut Info, m: &md21::Md21, input: &relic_core::format::Input<'_>) {
    // Each id with the listfile's path of it, or "unresolved" (0: no file).
    let listfile = input.siblings.listfile();
    let named = |id: u32| match listfile.and_then(|l| l.path(id)).filter(|_| id != 0) {
        _ if id == 0 => "0".to_string(),
        Some(path) => format!("{id} ({path})"),
        None => format!("{id} (unresolved)"),
    };
    let ids = |ids: &[u32]| ids.iter().map(|&id| named(id)).collect::<Vec<_>>().join(", ");
    let chunks: Vec<String> = m
        .chunks
        .iter()
        .map(|c| match c.declared_size == c.read_size {
            true => format!("{} ({} bytes)", c.tag_text(), c.read_size),
            false => format!("{} ({} bytes, declared {})", c.tag_text(), c.read_size, c.declared_size),
        })
        .collect();
    info.text("container", "MD21 (chunked)").text("chunks", chunks.join(", "));
    if m.chunk(b"SFID").is_some() {
        info.text("skin_file_ids", ids(m.skin_ids()));
    }
    if m.chunk(b"AFID").is_some() {
        let anims: Vec<String> = m
            .anim_ids()
            .iter()
            .map(|a| format!("{}-{:02}: {}", a.animation_id, a.variation, named(a.file_data_id)))
            .collect();
        info.text("anim_file_ids", anims.join(", "));
    }
    if m.chunk(b"TXID").is_some() {
        info.text("texture_file_ids", ids(m.texture_ids()));
    }
    if let Some(sk) = &m.model.skeleton {
        let parents: Vec<&str> = sk.parents.iter().map(|p| p.name.as_str()).collect();
        info.text("skel", format!("{} ({})", sk.skel.name, sk.skel.tags().join(", ")));
        if !parents.is_empty() {
            info.text("parent_skels", parents.join(", "));
        }
        // Counted too, so that a file written without them (built from a model another tool
        // gave back without relic's extras) says so in its comparison with the original.
        info.count("skel_files", 1 + parents.len());
    }
    if m.chunk(b"BFID").is_some() {
        info.count("bone_files", m.model.bone_files.len());
    }
    for c in &m.chunks {
        let (key, list): (&'static str, &[u32]) = match &c.data {
            md21::ChunkData::BoneIds(v) => ("bone_file_ids", v),
            md21::ChunkData::RecursiveParticleIds(v) => ("recursive_particle_file_ids", v),
            md21::ChunkData::GeometryParticleIds(v) => ("geometry_particle_file_ids", v),
            md21::ChunkData::SkeletonId(v) => ("skeleton_file_id", std::slice::from_ref(v)),
            md21::ChunkData::PhysicsId(v) => ("physics_file_id", std::slice::from_ref(v)),
            _ => continue,
        };
        info.text(key, ids(list));
    }
    let unknown: Vec<String> =
        m.chunks.iter().filter(|c| matches!(c.data, md21::ChunkData::Raw(_))).map(md21::Chunk::tag_text).collect();
    if !unknown.is_empty() {
        info.text("raw_chunks", unknown.join(", "));
        // Counted too, so that a file written without them says so in its comparison.
        info.count("unknown_chunks", unknown.len());
    }
    // A count, so that a conversion that drops them says so ("file data ids: 3 in the original").
    info.count("file_data_ids", m.chunks.iter().map(|c| c.data.file_data_ids()).sum::<usize>());
    for note in &m.notes {
        info.text("note", note.clone());
    }
}

/// A Wrath-or-later model's counts (its `.skin` files named after `stem`), with `notes`.
fn wrath_info(w: &wrath::Wrath, notes: &[relic_core::Loss], stem: &str) -> Info {
    let f = &w.file;
    let mut info = Info::new(crate::FORMAT, f.version);
    let skin0 = w.skins.first();
    let skins: Vec<String> = (0..w.skins.len() as u32).map(|i| wrath::skin_name(stem, i)).collect();
    let external = (0..f.sequences.len()).filter(|&s| wrath::is_external(&f.sequences, s)).count();
    let aliases = f.sequences.iter().filter(|s| s.is_alias()).count();
    info.text("name", f.name_text())
        .count("bones", f.bones.len())
        .count("vertices", f.vertices.len())
        .count("skin_profiles", f.skin_profiles as usize)
        .text("skins", skins.join(", "))
        .count("submeshes", skin0.map_or(0, |v| v.view.submeshes.len()))
        .count("triangles", skin0.map_or(0, |v| v.view.triangles.len() / 3))
        .count("textures", f.textures.len())
        .count("replaceable_textures", f.textures.iter().filter(|t| t.kind != 0).count())
        .count("sequences", f.sequences.len())
        .count("alias_sequences", aliases)
        .count("external_sequences", external)
        .text("anims", if w.anim_files.is_empty() { "none needed".into() } else { w.anim_files.join(", ") })
        .count("global_sequences", f.global_sequences.len())
        .count("attachments", f.attachments.len())
        .count("events", f.events.len())
        .count("lights", f.lights.len())
        .count("cameras", f.cameras.len())
        .count("particles", f.particle_emitters.len())
        .count("ribbons", f.ribbon_emitters.len())
        .count("colors", f.colors.len())
        .count("transparency", f.transparency.len())
        .count("texture_animations", f.texture_transforms.len())
        // The header's other counts (as `m2_probe.py` names them).
        .count("sequence_lookup", f.sequence_lookup.len())
        .count("key_bone_lookup", f.key_bone_lookup.len())
        .count("replaceable_texture_lookup", f.replaceable_texture_lookup.len())
        .count("materials", f.render_flags.len())
        .count("bone_lookup", f.bone_lookup.len())
        .count("texture_lookup", f.texture_lookup.len())
        .count("texture_coord_lookup", f.texture_unit_lookup.len())
        .count("texture_weight_lookup", f.transparency_lookup.len())
        .count("texture_transform_lookup", f.texture_transform_lookup.len())
        .count("collision_indices", f.collision_triangles.len())
        .count("collision_vertices", f.collision_vertices.len())
        .count("collision_normals", f.collision_normals.len())
        .count("attachment_lookup", f.attachment_lookup.len())
        .count("camera_lookup", f.camera_lookup.len());
    for note in &w.notes {
        info.text("note", note.clone());
    }
    for note in notes {
        info.text("note", note.to_string());
    }
    info
}

/// Parses and maps to the common model: `to_ir(&read(bytes)?)`, without copying the file into
/// the extras.
pub fn read_model(bytes: &[u8]) -> Result<Model, ReadError> {
    let file = read(bytes)?;
    let mut model = to_ir::to_ir(&file)?;
    carried::attach(&mut model, to_ir::kept(file));
    Ok(model)
}

/// Reads a model of any supported version from an input that can open the files beside it:
/// 256–263 from the bytes alone, 264 and 272 with their `.skin` and `.anim` files (a missing LOD
/// skin is a note among the losses, and so is each inconsistency the game loads: `tolerated`).
pub fn read_input(input: &relic_core::format::Input<'_>) -> Result<Converted<Model>, ReadError> {
    read_input_with_info(input).map(|(model, _)| model)
}

/// [`read_input`] and [`info_input`] from one parse: the model and the file's counts (the facade
/// records them as the model's original without reading the file again).
pub fn read_input_with_info(input: &relic_core::format::Input<'_>) -> Result<(Converted<Model>, Info), ReadError> {
    if input.bytes.starts_with(b"MD21") {
        let (m, classic, losses) = md21::read_checked(input)?;
        let mut notes = skeletal_notes(tolerated::notes(&classic), &m.model);
        notes.extend(tolerated::skin_notes(&m.model.skins));
        let mut info = wrath_info(&m.model, &notes, input.stem());
        md21_facts(&mut info, &m, input);
        notes.extend(m.notes.iter().map(|n| relic_core::Loss::new("md21", n.clone())));
        let mut model = md21_model(m, classic, losses)?;
        model.losses.extend(notes);
        return Ok((model, info));
    }
    let wrath =
        input.bytes.starts_with(b"MD20") && detect(input.bytes).is_some_and(|d| d.source.version >= FIRST_UNSUPPORTED);
    if wrath {
        let (wrath, classic, losses) = wrath::read_checked(input)?;
        let mut notes = tolerated::notes(&classic);
        notes.extend(tolerated::skin_notes(&wrath.skins));
        let info = wrath_info(&wrath, &notes, input.stem());
        let mut model = wrath_model(wrath, classic, losses)?;
        model.losses.extend(notes);
        return Ok((model, info));
    }
    let file = read(input.bytes)?;
    let notes = tolerated::notes(&file);
    let info = file_info(&file, &notes);
    let mut model = to_ir::to_ir(&file)?;
    carried::attach(&mut model, to_ir::kept(file));
    Ok((Converted { value: model, losses: notes }, info))
}

/// The model of a Wrath-or-later file, given its 256–263 form and what that form cannot hold.
fn wrath_model(
    wrath: wrath::Wrath,
    classic: M2File,
    classic_losses: Vec<relic_core::Loss>,
) -> Result<Converted<Model>, ReadError> {
    let (mut model, extras) = to_ir::wrath_form_to_ir(wrath, classic, classic_losses)?;
    carried::attach(&mut model.value, extras);
    Ok(model)
}

/// The model of a chunked file, given its 256–263 form and what that form cannot hold: the
/// Wrath file's model, whose extras keep the chunks too.
fn md21_model(
    m: md21::Md21,
    classic: M2File,
    classic_losses: Vec<relic_core::Loss>,
) -> Result<Converted<Model>, ReadError> {
    let container = m.container();
    let (mut model, mut extras) = to_ir::wrath_form_to_ir(m.model, classic, classic_losses)?;
    extras.md21 = Some(container);
    carried::attach(&mut model.value, extras);
    Ok(model)
}

/// The model of a chunked file read already (the corpus checks).
#[cfg(feature = "verify")]
pub(crate) fn md21_to_ir(m: md21::Md21) -> Result<Converted<Model>, ReadError> {
    let (classic, losses) = wrath::convert::to_classic(&m.model)?;
    md21_model(m, classic, losses)
}

/// The model of a Wrath-or-later file read already (the corpus checks).
#[cfg(feature = "verify")]
pub(crate) fn wrath_to_ir(wrath: wrath::Wrath) -> Result<Converted<Model>, ReadError> {
    let (classic, losses) = wrath::convert::to_classic(&wrath)?;
    wrath_model(wrath, classic, losses)
}

/// Reads back files [`write_files`] gave (the `.m2` and its siblings), as the chunked or the
/// Wrath-or-later reader would beside them.
fn read_written(bytes: &[u8], siblings: &[relic_core::format::SiblingFile]) -> Result<(), ReadError> {
    const STEM: &str = "written";
    let files = siblings.iter().map(|s| (format!("{STEM}{}", s.suffix), s.bytes.clone())).collect();
    let name = format!("{STEM}.m2");
    let input = relic_core::format::Input { bytes, name: &name, siblings: &wrath::SiblingBytes(files) };
    if bytes.starts_with(b"MD21") {
        return md21::read(&input).map(|_| ());
    }
    wrath::read(&input).map(|_| ())
}

/// The loss of a model read from a chunked file written as a plain one (`version`): its chunks
/// beside the model's (FileDataIDs of skins, textures, `.anim` files …), if it had any.
fn chunks_dropped(container: &md21::Container, version: u32) -> Vec<relic_core::Loss> {
    let tags: Vec<String> = container.chunks.iter().filter(|c| c.tag != *b"MD21").map(md21::Chunk::tag_text).collect();
    let dropped = (!tags.is_empty()).then(|| {
        let what = format!(
            "{} dropped: a version {version} file is not chunked (write 272 or 274 to keep them)",
            tags.join(", ")
        );
        relic_core::Loss::new("MD21 chunks", what)
    });
    dropped.into_iter().chain(texture_names_written(container)).collect()
}

/// The note on the texture names a plain file is written with in place of `TXID`'s ids: how
/// many the listfile gave and how many were invented (`<id>.blp`, [`md21::Md21::texture_names`]).
fn texture_names_written(container: &md21::Container) -> Option<relic_core::Loss> {
    let names: Vec<&String> = container.texture_names.iter().filter(|n| !n.is_empty()).collect();
    let invented = |n: &&&String| n.strip_suffix(".blp").is_some_and(|id| id.bytes().all(|b| b.is_ascii_digit()));
    let made = names.iter().filter(invented).count();
    (!names.is_empty()).then(|| {
        let what = format!(
            "TXID's FileDataIDs written as file names: {} texture named by the listfile, {made} named <id>.blp",
            names.len() - made
        );
        relic_core::Loss::new("textures", what)
    })
}

/// The note of a model read with a `.skel` written without one (another version, or a model
/// changed since): its skeleton is in the `MD20` block's arrays (m2-md21.md §7.3), with counts.
fn skeleton_merged(stored: Option<&M2Extras>, written: &wrath::Wrath) -> Option<relic_core::Loss> {
    let skeleton = stored?.wrath.as_deref()?.skeleton.as_ref()?;
    if written.skeleton.is_some() {
        return None;
    }
    let f = &written.file;
    let what = format!(
        "{} merged into the MD20 block (version {}): {} sequences, {} global sequences, {} bones, {} attachments; no .skel written{}",
        skeleton.skel.name,
        f.version,
        f.sequences.len(),
        f.global_sequences.len(),
        f.bones.len(),
        f.attachments.len(),
        if skeleton.parents.is_empty() {
            String::new()
        } else {
            format!(" (its {} parent skeletons' arrays included)", skeleton.parents.len())
        }
    );
    Some(relic_core::Loss::new("skeleton", what))
}

/// The loss of the `.bone` files a model was read with that the files written do not hold
/// (`written` of them): Wrath has no `.bone` (m2-md21.md §8), a rebuilt model none.
fn bone_files_dropped(stored: Option<&M2Extras>, written: usize, version: u32) -> Option<relic_core::Loss> {
    let read = stored?.wrath.as_deref()?.bone_files.len();
    (read > written).then(|| {
        let what = format!("{} of {read} .bone files dropped: version {version} has no .bone files", read - written);
        relic_core::Loss::new("bone files", what)
    })
}

/// The chunks to write `model` in: without `SKID` when the model has no `.skel` to write (its
/// skeleton is in the `MD20` block then).
fn without_skeleton_id(container: &md21::Container, model: &wrath::Wrath) -> md21::Container {
    let mut c = container.clone();
    if model.skeleton.is_none() {
        c.chunks.retain(|chunk| chunk.tag != *b"SKID");
    }
    c
}

/// Writes a model in the version `options.version` names, else the one it came from
/// ([`Model::recorded_version`], when it is written), else the default version, 256: 264 and 272
/// as an `.m2` with its `.skin` (and `.anim`) files beside it; 274, and 272 of a model read from a
/// chunked file, as a chunked `.m2` (`MD21`, in the chunks it was read with) with its `.skin` files.
pub fn write_files(model: &Model, options: &WriteOptions) -> Result<Converted<Written>, WriteError> {
    let writable = |v: &u32| {
        (256..FIRST_UNSUPPORTED).contains(v) || wrath::WRATH_VERSIONS.contains(v) || md21::VERSIONS.contains(v)
    };
    let version = options.version.or(model.recorded_version(FORMAT).filter(writable)).unwrap_or(DEFAULT_VERSION);
    if wrath::WRATH_VERSIONS.contains(&version) || md21::VERSIONS.contains(&version) {
        // The chunks the model was read with, kept even when the rest of its extras is not; a
        // plain file has none (a loss for each chunk beside the model's own).
        // The extras decoded once: the read-back's builds differ from `model` in their emitters
        // only, or have no extras at all.
        let (stored, unread) = decoded(model);
        let read_with = stored.as_deref().and_then(|e| e.md21.clone());
        let chunked = md21::VERSIONS.contains(&version);
        let unchunked = read_with.as_ref().filter(|_| !chunked).map(|c| chunks_dropped(c, version)).unwrap_or_default();
        let container = read_with
            .filter(|_| chunked)
            .or_else(|| (!wrath::WRATH_VERSIONS.contains(&version)).then(md21::Container::new));
        // As `write_model`: the files must read back when a record came as text.
        let build = |model: &Model, with_extras: bool| {
            let extras = stored.as_deref().filter(|_| with_extras && model.extras.is_some());
            let mut converted = from_ir::to_wrath(model, extras, version, container.is_some())?;
            let unread = unread.clone().filter(|_| model.extras.is_some());
            converted.losses.splice(0..0, unread.into_iter().chain(unchunked.clone()));
            converted.losses.extend(skeleton_merged(stored.as_deref(), &converted.value));
            converted.losses.extend(bone_files_dropped(stored.as_deref(), converted.value.bone_files.len(), version));
            let (bytes, siblings) = match &container {
                Some(c) => md21::write_parts(&without_skeleton_id(c, &converted.value), &converted.value)?,
                None => wrath::write(&converted.value)?,
            };
            Ok(Converted { value: Written { bytes, siblings }, losses: converted.losses })
        };
        return readback::checked(model, build, |w: &Written| read_written(&w.bytes, &w.siblings));
    }
    if !(256..FIRST_UNSUPPORTED).contains(&version) {
        let message = format!("M2 version {version} cannot be written: only 256–263, 264, 272 and 274 (chunked)");
        return Err(WriteError::Unsupported(message));
    }
    let options = WriteOptions { version: Some(version) };
    let mut written = write_model(model, &options)?.map(Written::single);
    let stored = decoded(model).0;
    let read_with = stored.as_deref().and_then(|e| e.md21.clone());
    written.losses.splice(0..0, read_with.map(|c| chunks_dropped(&c, version)).unwrap_or_default());
    written.losses.extend(bone_files_dropped(stored.as_deref(), 0, version));
    Ok(written)
}

/// Maps from the common model and writes: `write(&from_ir(model)?)`.
///
/// Records that came back as JSON (through glTF) may have been edited into a file the reader
/// refuses: such a file is checked with [`read`]; an emitter whose record the reader refuses is
/// dropped, extras that do not fit are left out (the file built from the model alone), each with a
/// [`Loss`](relic_core::Loss) saying why. Nothing the reader refuses is written.
pub fn write_model(model: &Model, options: &WriteOptions) -> Result<Converted<Vec<u8>>, WriteError> {
    // Extras that came as text may have been edited into a file the reader refuses (see `readback`).
    let build = |model: &Model, with_extras: bool| {
        let (extras, unread) = decoded(model);
        let extras = extras.filter(|_| with_extras);
        let mut converted = from_ir::from_ir(model, extras.as_deref(), options)?;
        converted.losses.splice(0..0, unread);
        let bytes = write(&converted.value)?;
        Ok(Converted { value: bytes, losses: converted.losses })
    };
    readback::checked(model, build, |bytes: &Vec<u8>| read(bytes).map(|_| ()))
}
