//! Wrath and later non-chunked M2 (264, 272) with the files beside it: the `.skin` views and the
//! `.anim` keys of external sequences (m2-wrath.md). [`read`] finds them by name next to the
//! model; [`write()`] gives them back with the suffixes to name them by.

mod check;
pub mod convert;
pub mod skeleton;

use std::sync::Arc;

use relic_core::format::{Input, SiblingFile};
use relic_core::{ReadError, ReadErrorKind, WriteError};

use crate::anim::AnimFile;
use crate::companions::{self, FileIds};
use crate::file::wrath::{Skin, WrathFile, WrathSequence, resolve_alias};

/// Versions read and written from Wrath on.
pub const WRATH_VERSIONS: [u32; 2] = [264, 272];

/// Most `.skin` files a model may name (`NAME00` … `NAME03`).
pub const MAX_SKINS: u32 = 4;

/// A Wrath-or-later model with its `.skin` files (the `.anim` keys are inside the file's tracks).
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize, serde::Deserialize)]
pub struct Wrath {
    /// The `.m2`.
    pub file: WrathFile,
    /// `NAME00.skin` … in order; a missing LOD skin after the first ends the list (see `notes`).
    pub skins: Vec<Skin>,
    /// `.anim` files read, by name (for `relic info`).
    #[serde(default)]
    pub anim_files: Vec<String>,
    /// What was missing but did not stop the model from being read.
    #[serde(default)]
    pub notes: Vec<String>,
    /// The skeleton (`.skel`) of a chunked model naming one (`SKID`): `file`'s global
    /// sequences, sequences, bones, attachments and their lookups are the skeleton's.
    #[serde(default)]
    pub skeleton: Option<skeleton::Skeleton>,
    /// The `.bone` files of a chunked model's `BFID` found beside it, by `BFID` index
    /// (`<stem>_<index:02>.bone`).
    #[serde(default)]
    pub bone_files: Vec<(usize, crate::bone_file::BoneFile)>,
}

/// Why a Wrath-or-later version cannot be read, or `None` if it can.
pub(crate) fn refusal(version: u32) -> Option<String> {
    match version {
        264 | 272 => None,
        265..=271 => Some(format!(
            "M2 version {version} was never seen in a released file: its layout is unknown (264 and 272 are read)"
        )),
        273 | 274 => Some(format!(
            "non-chunked M2 version {version} (Warlords/Legion) has no documented layout: only 264 and 272 are read"
        )),
        _ => {
            Some(format!("M2 version {version} is newer than any documented non-chunked layout (264 and 272 are read)"))
        }
    }
}

/// The `.skin` file name of profile `i` of the model named `stem`.
pub fn skin_name(stem: &str, i: u32) -> String {
    format!("{stem}{i:02}.skin")
}

/// The `.anim` file name of a sequence of the model named `stem`.
pub fn anim_name(stem: &str, sequence: &WrathSequence) -> String {
    format!("{stem}{:04}-{:02}.anim", sequence.id, sequence.variation)
}

/// True if the keys of sequence `s` live in a `.anim` file (after alias resolution, §3.4).
pub fn is_external(sequences: &[WrathSequence], s: usize) -> bool {
    crate::file::wrath::keys_external(sequences, s)
}

fn missing(name: &str, what: &str) -> ReadError {
    ReadError::new(0, ReadErrorKind::Invalid(format!("{what} {name} was looked for next to the model and not found")))
}

/// Reads the sequences from the header (before the tracks, which need to know which are external).
fn peek_sequences(bytes: &[u8]) -> Result<Vec<WrathSequence>, ReadError> {
    let u32_at = |at: usize| bytes.get(at..at + 4).and_then(|b| b.try_into().ok()).map(u32::from_le_bytes);
    let (Some(count), Some(offset)) = (u32_at(0x1C), u32_at(0x20)) else {
        return Err(ReadError::new(0x1C, ReadErrorKind::Truncated));
    };
    let len = u64::from(count) * 64;
    let end = u64::from(offset).saturating_add(len);
    let Some(block) = usize::try_from(end).ok().and_then(|end| bytes.get(offset as usize..end)) else {
        let file_len = bytes.len() as u64;
        return Err(ReadError::at(
            0x1C,
            "WrathFile.sequences",
            ReadErrorKind::OffsetOutOfBounds { target: u64::from(offset), len, file_len },
        ));
    };
    Ok(block.as_chunks::<64>().0.iter().map(|s| bytemuck::pod_read_unaligned(s)).collect())
}

/// The `.anim` of each sequence, `None` for a sequence kept in the `.m2`.
pub type AnimBytes = crate::anim::AnimSources;

/// The `.anim` files of a model: each sequence's, the names read and the names looked for and
/// not found (with the first sequence needing each).
struct Anims {
    bytes: AnimBytes,
    read: Vec<String>,
    missing: Vec<(String, usize)>,
    /// What was tolerated in them (chunked files: unknown chunks, padding).
    notes: Vec<String>,
}

/// Loads the `.anim` of every external sequence (indexed by sequence), raw or chunked (§6), found
/// by its FileDataID (`AFID`) or its conventional name. A missing file is listed, and its
/// sequences get [`AnimFile::missing`] (read as "keys not loaded" only by [`read_partial`];
/// [`read_checked`] refuses the model as incomplete first).
fn load_anims(input: &Input<'_>, sequences: &[WrathSequence], ids: &FileIds) -> Result<Anims, ReadError> {
    let mut by_name: Vec<(String, Arc<AnimFile>)> = Vec::new();
    let mut missing: Vec<(String, usize)> = Vec::new();
    let mut anims = Vec::with_capacity(sequences.len());
    for s in 0..sequences.len() {
        if !is_external(sequences, s) {
            anims.push(None);
            continue;
        }
        let r = resolve_alias(sequences, s).unwrap_or(s);
        let Some(seq) = sequences.get(r) else {
            anims.push(None);
            continue;
        };
        let conventional = anim_name(input.stem(), seq);
        let id = ids.anim(seq.id, seq.variation);
        let Some(companions::Found { name, bytes }) = companions::read(input, id, &conventional)? else {
            let name = companions::wanted(input, id, &conventional);
            if !missing.iter().any(|(n, _)| *n == name) {
                missing.push((name.clone(), s));
            }
            anims.push(Some(Arc::new(AnimFile::missing(name))));
            continue;
        };
        if let Some((_, bytes)) = by_name.iter().find(|(n, _)| *n == name) {
            anims.push(Some(bytes.clone()));
            continue;
        }
        if bytes.is_empty() {
            return Err(ReadError::invalid(0, name, "the .anim file is empty (0 bytes): its keys cannot be read"));
        }
        let anim = Arc::new(AnimFile::read(&name, bytes)?);
        by_name.push((name, anim.clone()));
        anims.push(Some(anim));
    }
    let notes = by_name.iter().flat_map(|(_, a)| a.notes.iter().cloned()).collect();
    Ok(Anims { bytes: anims, read: by_name.into_iter().map(|(n, _)| n).collect(), missing, notes })
}

/// Refuses a model whose `.anim` files, whose first `.skin` or whose `.skel` are not beside it: the typed
/// [`ReadErrorKind::Incomplete`] naming every missing file.
fn incomplete(
    input: &Input<'_>,
    anims: &Anims,
    bytes: &[u8],
    ids: &FileIds,
    skel_missing: bool,
) -> Result<(), ReadError> {
    let mut missing: Vec<String> = anims.missing.iter().map(|(n, _)| n.clone()).collect();
    let mut what = Vec::new();
    if skel_missing {
        missing.insert(0, companions::wanted(input, ids.skeleton, &skeleton::skel_name(input.stem(), None)));
        what.push("the skeleton the SKID chunk names (bones, sequences, attachments)".to_string());
    }
    if !anims.missing.is_empty() {
        let first = anims.missing.first().map_or(0, |(_, s)| *s);
        what.push(format!("the keys of the external sequences (the first is sequence {first})"));
    }
    let profiles = bytes.get(0x44..0x48).and_then(|b| b.try_into().ok()).map_or(0, u32::from_le_bytes);
    let skin = skin_name(input.stem(), 0);
    if profiles > 0 && companions::read(input, ids.skin(0), &skin)?.is_none() {
        missing.push(companions::wanted(input, ids.skin(0), &skin));
        what.push("the geometry (its first view)".into());
    }
    if missing.is_empty() {
        return Ok(());
    }
    Err(ReadError::new(0, ReadErrorKind::Incomplete { missing, what: what.join("; ") }))
}

/// Reads the `.skin` files the header counts (at most [`MAX_SKINS`]): the first must exist
/// (unless `partial`: then it is a note too); a later one missing ends the list with a note.
fn load_skins(
    input: &Input<'_>,
    file: &WrathFile,
    notes: &mut Vec<String>,
    partial: bool,
    ids: &FileIds,
) -> Result<Vec<Skin>, ReadError> {
    let mut skins = Vec::new();
    if file.skin_profiles > MAX_SKINS {
        notes.push(format!("the header names {} .skin files: only the first {MAX_SKINS} are read", file.skin_profiles));
    }
    for i in 0..file.skin_profiles.min(MAX_SKINS) {
        let conventional = skin_name(input.stem(), i);
        let Some(companions::Found { name, bytes }) = companions::read(input, ids.skin(i), &conventional)? else {
            let name = companions::wanted(input, ids.skin(i), &conventional);
            if i == 0 && !partial {
                return Err(missing(&name, "the model's geometry (its first view)"));
            }
            notes.push(format!(
                "{name} (LOD {i}) was not found next to the model: read without it and the LODs after it"
            ));
            break;
        };
        let skin = read_skin(&bytes, file.version).map_err(|e| e.within(&name))?;
        check::skin(&skin, file).map_err(|e| e.within(&name))?;
        skins.push(skin);
    }
    Ok(skins)
}

/// Parses one `.skin` file of a model of `version` (no cross-checks against the model). An array
/// that starts inside the header is refused: its "records" would be the header's own bytes, which
/// no writer can give back as they were read (fuzz findings of issue 42).
pub fn read_skin(bytes: &[u8], version: u32) -> Result<Skin, ReadError> {
    let mut skin = relic_core::binary::parse(bytes, |s| {
        use binrw::BinRead;
        Skin::read_options(s, binrw::Endian::Little, (version,))
    })?;
    let header = skin.header_size();
    let shadow = skin.shadow_batches.as_ref().map(|a| (a.len(), a.offset));
    let pairs = [
        ("indices", skin.view.indices.len(), skin.view.indices.offset),
        ("triangles", skin.view.triangles.len(), skin.view.triangles.offset),
        ("properties", skin.view.properties.len(), skin.view.properties.offset),
        ("submeshes", skin.view.submeshes.len(), skin.view.submeshes.offset),
        ("texture_units", skin.view.texture_units.len(), skin.view.texture_units.offset),
    ];
    let shadow = shadow.map(|(len, offset)| ("shadow_batches", len, offset));
    // The offset of pair `i` is at 8 + 8·i (after the magic and the count), shadow batches' at 0x34.
    let at = |i: usize| if i < pairs.len() { 8 + 8 * i as u64 } else { 0x34 };
    for (i, (name, len, offset)) in pairs.into_iter().chain(shadow).enumerate() {
        if len > 0 && u64::from(offset) < header {
            let message = format!("{len} entries at byte {offset}, inside the {header}-byte header");
            return Err(ReadError::invalid(at(i), format!("Skin.{name}"), message));
        }
    }
    skin.as_read = crate::file::AsRead::of(version, bytes, skin.header_size(), &[], |r| skin.visit(r));
    Ok(skin)
}

/// Parses a Wrath-or-later `.m2` with the `.anim` bytes of its external sequences given by
/// sequence index (no `.skin`, no cross-checks).
pub fn read_file(bytes: &[u8], anims: &[Option<Arc<AnimFile>>]) -> Result<WrathFile, ReadError> {
    read_file_as(bytes, anims, None)
}

/// [`read_file`] of the `MD20` block of a model with a skeleton: its tracks follow the
/// skeleton's global loops and sequences (`skel`: their count and the sequences).
fn read_file_as(
    bytes: &[u8],
    anims: &[Option<Arc<AnimFile>>],
    skel: Option<(usize, &[WrathSequence])>,
) -> Result<WrathFile, ReadError> {
    let counts = skel.map(|(g, s)| [g, s.len()]);
    let mut file = relic_core::binary::parse(bytes, |s| {
        use binrw::BinRead;
        WrathFile::read_options(s, binrw::Endian::Little, (anims, counts))
    })?;
    let sequences = skel.map_or(&file.sequences[..], |(_, s)| s);
    let external: Vec<bool> = (0..sequences.len()).map(|s| is_external(sequences, s)).collect();
    file.as_read = crate::file::AsRead::of(file.version, bytes, file.header_size(), &external, |r| file.visit(r))
        .with_anims(anims);
    Ok(file)
}

/// Reads a Wrath-or-later model with its `.skin` and `.anim` files (found through
/// `input.siblings` by `input`'s stem) and checks every cross-reference.
pub fn read(input: &Input<'_>) -> Result<Wrath, ReadError> {
    read_checked(input).map(|(wrath, _, _)| wrath)
}

/// [`read`], with the model's 256–263 form its references were checked on and what that form
/// cannot hold (the common model is mapped from it).
pub(crate) fn read_checked(
    input: &Input<'_>,
) -> Result<(Wrath, crate::file::M2File, Vec<relic_core::Loss>), ReadError> {
    read_checked_as(input, false, &FileIds::default(), false)
}

/// [`read_checked`] of the `MD20` block of a chunked file (`input.bytes`), whose inner version
/// the chunked reader checked already (it reads 272 and 274).
pub(crate) fn read_checked_chunked(
    input: &Input<'_>,
    ids: &FileIds,
    skeletal: bool,
) -> Result<(Wrath, crate::file::M2File, Vec<relic_core::Loss>), ReadError> {
    read_checked_as(input, true, ids, skeletal)
}

/// [`read_checked`] of a plain file, or of the `MD20` block of a chunked one (`chunked`: its
/// version was checked by the chunked reader, and a texture lookup inside the header is
/// tolerated, see [`texture_lookup_damaged`]; `skeletal`: it names a `.skel`).
fn read_checked_as(
    input: &Input<'_>,
    chunked: bool,
    ids: &FileIds,
    skeletal: bool,
) -> Result<(Wrath, crate::file::M2File, Vec<relic_core::Loss>), ReadError> {
    let version = crate::detect(input.bytes).map_or(0, |d| d.source.version);
    // The chunked reader refused the inner versions it does not read before it came here.
    if let Some(reason) = refusal(version).filter(|_| !chunked) {
        return Err(ReadError::new(4, ReadErrorKind::UnsupportedVersion { version, reason }));
    }
    if input.stem().is_empty() {
        let reason = "a Wrath-or-later M2 keeps its views in NAME00.skin …: read it from a named file".into();
        return Err(ReadError::new(0, ReadErrorKind::UnsupportedVersion { version, reason }));
    }
    let wrath = read_model(input, ids, skeletal, false)?;
    let (classic, losses) = convert::to_classic(&wrath)?;
    let damaged = chunked && texture_lookup_damaged(&wrath.file);
    crate::validate::references_with(&classic, !damaged).map_err(|e| e.within("the model as 256–263"))?;
    Ok((wrath, classic, losses))
}

/// Reads the model, its skeleton (`skeletal`), `.anim` and `.skin` files. `partial`: what is
/// missing is a note and the keys it holds are not read ([`read_partial`]); else it is refused
/// as incomplete.
fn read_model(input: &Input<'_>, ids: &FileIds, skeletal: bool, partial: bool) -> Result<Wrath, ReadError> {
    let bytes = input.bytes;
    let chain = if skeletal { skeleton::load_chain(input, ids.skeleton)? } else { None };
    let skel_missing = skeletal && chain.is_none();
    let sks1 = match &chain {
        Some(c) => c.sequences()?,
        None => None,
    };
    let sequences = match &sks1 {
        Some(s) => s.sequences.items.clone(),
        None => peek_sequences(bytes)?,
    };
    let anims = load_anims(input, &sequences, ids)?;
    if !partial {
        incomplete(input, &anims, bytes, ids, skel_missing)?;
    }
    let skel = sks1.as_ref().map(|s| (s.global_loops.len(), &sequences[..]));
    let mut file = read_file_as(bytes, &anims.bytes, skel)?;
    let mut notes: Vec<String> = anims
        .missing
        .iter()
        .map(|(name, s)| format!("{name} (keys of sequence {s} and its variations) was not found next to the model: those keys are not read"))
        .chain(anims.notes)
        .collect();
    if chain.is_none() {
        // Without a skeleton every track reads AFM2 (§6): AFSB/AFSA blobs are kept as read only.
        let split = anims.bytes.iter().flatten().filter(|a| a.is_split());
        let mut names: Vec<&str> = split.map(|a| a.name.as_str()).collect();
        names.dedup();
        notes.extend(names.into_iter().map(|n| format!(
            "{n} splits its keys by kind (AFSB/AFSA) but the model reads no skeleton: its tracks read AFM2; the other blobs are written back as read, and dropped when the keys are laid out anew"
        )));
    }
    if skel_missing {
        let name = companions::wanted(input, ids.skeleton, &skeleton::skel_name(input.stem(), None));
        notes.push(format!(
            "{name} (the skeleton SKID names) was not found: read with the MD20 block's own bones and sequences"
        ));
    }
    let skeleton = match chain {
        Some(chain) => {
            let loops = sks1.as_ref().map_or(file.global_sequences.len(), |s| s.global_loops.len());
            let skels = chain
                .skels
                .into_iter()
                .map(|c| c.parse(loops, &sequences, &anims.bytes))
                .collect::<Result<Vec<_>, _>>()?;
            let missing_parent = !chain.notes.is_empty();
            notes.extend(chain.notes);
            skeleton::merge(&mut file, skels, missing_parent, &mut notes)
        }
        None => None,
    };
    check::file(&file)?;
    let skins = load_skins(input, &file, &mut notes, partial, ids)?;
    Ok(Wrath { file, skins, anim_files: anims.read, notes, skeleton, bone_files: Vec::new() })
}

/// True if the texture lookup is what a converter that patched a 264 header into a chunked file
/// without removing its 8-byte chunk header leaves (m2-md21.md §2.3): `(1, 0)`, one entry read
/// from the block's first bytes, the magic's `MD` (17485) — inside the header as read, or the
/// same one entry once written elsewhere. Its entries and the texture combos past it are not
/// checked; a texture they do not resolve is a texture slot without a path in the common model.
pub fn texture_lookup_damaged(file: &WrathFile) -> bool {
    let t = &file.texture_lookup;
    let magic = i16::from_le_bytes([b'M', b'D']);
    t.len() == 1 && (u64::from(t.offset) < file.header_size() || t.first() == Some(&magic))
}

/// Reads what there is of a model whose `.anim` or first `.skin` files are missing (for
/// `relic info`): the keys of sequences in a missing `.anim` are left empty, and each missing file
/// is a note. Every bound is checked as in [`read`]; the references between model and skins too.
pub fn read_partial(input: &Input<'_>) -> Result<Wrath, ReadError> {
    read_partial_as(input, false, &FileIds::default(), false)
}

/// [`read_partial`] of the `MD20` block of a chunked file (versions 272 and 274).
pub(crate) fn read_partial_chunked(input: &Input<'_>, ids: &FileIds, skeletal: bool) -> Result<Wrath, ReadError> {
    read_partial_as(input, true, ids, skeletal)
}

/// [`read_partial`] of a plain file, or of the `MD20` block of a chunked one (`chunked`;
/// `skeletal`: it names a `.skel`).
fn read_partial_as(input: &Input<'_>, chunked: bool, ids: &FileIds, skeletal: bool) -> Result<Wrath, ReadError> {
    let version = crate::detect(input.bytes).map_or(0, |d| d.source.version);
    // The chunked reader refused the inner versions it does not read before it came here.
    if let Some(reason) = refusal(version).filter(|_| !chunked) {
        return Err(ReadError::new(4, ReadErrorKind::UnsupportedVersion { version, reason }));
    }
    read_model(input, ids, skeletal, true)
}

/// Writes the model, its skins (`00.skin` …) and its `.anim` files (`0060-00.anim` …) as files
/// beside the model: the main bytes and the siblings with their suffixes after the stem.
pub fn write(wrath: &Wrath) -> Result<(Vec<u8>, Vec<SiblingFile>), WriteError> {
    let (model, anims, skel) = match &wrath.skeleton {
        None => {
            let written = crate::file::wrath::write(&wrath.file)?;
            (written.model, written.anims, None)
        }
        Some(skeleton) => {
            // The `.m2` with its own arrays; the skeleton's in the `.skel` (§7).
            let file = &wrath.file;
            let own = skeleton.own.put_into(file);
            let m2 = crate::file::wrath::write_keyed(&own, &file.sequences, crate::anim::AnimPart::Model)?;
            let skel = skeleton.skel_of(file).write(&file.sequences)?;
            let sources = own.as_read.for_version(own.version).map_or(&[][..], |r| &r.anims[..]);
            let parts = std::iter::once((crate::anim::AnimPart::Model, m2.blobs)).chain(skel.blobs).collect();
            (m2.bytes, crate::file::wrath::anim_files(parts, sources)?, Some(skel.bytes))
        }
    };
    let mut siblings = Vec::new();
    for (i, skin) in wrath.skins.iter().enumerate() {
        let bytes = crate::file::wrath::write_skin(skin)?;
        siblings.push(SiblingFile { suffix: format!("{i:02}.skin"), bytes });
    }
    for (s, bytes) in anims {
        let Some(seq) = wrath.file.sequences.get(s) else { continue };
        siblings.push(SiblingFile { suffix: anim_name("", seq), bytes });
    }
    siblings.extend(skel.map(|bytes| SiblingFile { suffix: skeleton::skel_name("", None), bytes }));
    for (i, bone) in &wrath.bone_files {
        siblings.push(SiblingFile { suffix: crate::bone_file::bone_name("", *i), bytes: bone.write()? });
    }
    Ok((model, siblings))
}

pub use relic_core::format::SiblingBytes;
