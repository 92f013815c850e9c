//! The whole NOD v7 file: header, counts and the order of the sections (spec §2.1, §2.9).
//!
//! ```text
//! Version u32 = 7 · NumMaterials u32 · MaterialName char[32] × NumMaterials
//! NumBones u16 · NumMeshs u16 · NumVertices u32 · NumFaces u32 · NumGroups u16 · ModelFlags u32 · Bounds f32[6]
//! Bone (66 bytes) × NumBones · MeshName char[32] × NumMeshs · Vertex (40 bytes) × NumVertices
//! [LOD collapse u16 × NumVertices, iff ModelFlags & HASLOD] · Face u16[3] × NumFaces · Group (28 bytes) × NumGroups
//! ```
//!
//! Little-endian and fully packed; the group array ends the file and the size rule of §2.9 must
//! hold exactly: it is checked before any array is read.

use binrw::{BinRead, BinResult, BinWrite, Endian, binrw};
use relic_core::binary::{ByteWriter, counted, parse, pod_vec, remaining, write_pod};
use relic_core::error::{custom, fit};
use relic_core::{ReadError, ReadErrorKind, WriteError};

use super::write_slice;
use super::{BONE_SIZE, FACE_SIZE, GROUP_SIZE, LOD_ENTRY_SIZE, Name, NodBone, NodGroup, NodVertex, VERTEX_SIZE};
use crate::options::{MAX_BONES, MODEL_HASLOD, NAD_VERSION, NOD_VERSION};

/// Size of a name field.
pub const NAME_SIZE: u64 = 32;
/// Size of the second header part (counts, flags, bounds).
pub const COUNTS_SIZE: u64 = 42;

/// A whole NOD v7 file.
///
/// The custom parsers (`parse_with`) exist only to report a refused value at its own offset:
/// binrw's `assert` reports the start of the struct instead.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq)]
pub struct NodFile {
    /// Format version: 7 (VtMR 1.1). Every other version is refused.
    #[br(parse_with = nod_version)]
    pub version: u32,
    #[br(temp)]
    #[bw(calc = materials.len() as u32)]
    num_materials: u32,
    /// Material names: the base name of a `.nam` material or else a `.tga` texture, no extension.
    #[br(parse_with = counted, args(u64::from(num_materials), NAME_SIZE))]
    pub materials: Vec<Name>,
    #[br(temp, parse_with = bone_count)]
    #[bw(calc = bones.len() as u16)]
    num_bones: u16,
    #[br(temp)]
    #[bw(calc = mesh_names.len() as u16)]
    num_meshes: u16,
    #[br(temp)]
    #[bw(calc = vertices.len() as u32)]
    num_vertices: u32,
    #[br(temp)]
    #[bw(calc = faces.len() as u32)]
    num_faces: u32,
    #[br(temp)]
    #[bw(calc = groups.len() as u16)]
    num_groups: u16,
    /// ModelFlags: 0x1 HASLOD (LOD table present), 0x2 INLINE (level-editor data), 0x4 STATIC (no
    /// skeletal animation), 0x8 and 0x10 reserved. Stored unaligned (the file is packed).
    pub model_flags: u32,
    /// Axis-aligned box of the rest pose in model space: min x, y, z, then max x, y, z.
    pub bounds: [f32; 6],
    #[br(temp, parse_with = size_rule, args(Counts {
        materials: num_materials, bones: num_bones, meshes: num_meshes, vertices: num_vertices,
        faces: num_faces, groups: num_groups, has_lod: model_flags & MODEL_HASLOD != 0,
    }))]
    #[bw(ignore)]
    size_rule: (),
    /// The skeleton, root first.
    #[br(parse_with = counted, args(u64::from(num_bones), BONE_SIZE))]
    pub bones: Vec<NodBone>,
    /// Mesh names; groups refer to them by number. Some are tags the game searches for.
    #[br(parse_with = counted, args(u64::from(num_meshes), NAME_SIZE))]
    pub mesh_names: Vec<Name>,
    /// All vertices: each group's local vertex array, concatenated in group order.
    #[br(parse_with = pod_vec, args(u64::from(num_vertices)))]
    #[bw(write_with = write_slice)]
    pub vertices: Vec<NodVertex>,
    /// Progressive-mesh collapse table, one group-local vertex index per vertex; present iff
    /// `model_flags & HASLOD`.
    #[br(parse_with = lod_table, args(model_flags & MODEL_HASLOD != 0, u64::from(num_vertices)))]
    #[bw(write_with = write_lod)]
    pub lod: Option<Vec<u16>>,
    /// Triangles as three group-local vertex indices, concatenated in group order.
    #[br(parse_with = pod_vec, args(u64::from(num_faces)))]
    #[bw(write_with = write_slice)]
    pub faces: Vec<[u16; 3]>,
    /// Render groups (one material, contiguous vertex and face ranges); the last section.
    #[br(parse_with = counted, args(u64::from(num_groups), GROUP_SIZE))]
    pub groups: Vec<NodGroup>,
}

/// The header counts, as the size rule needs them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Counts {
    /// NumMaterials.
    pub(crate) materials: u32,
    /// NumBones.
    pub(crate) bones: u16,
    /// NumMeshs.
    pub(crate) meshes: u16,
    /// NumVertices.
    pub(crate) vertices: u32,
    /// NumFaces.
    pub(crate) faces: u32,
    /// NumGroups.
    pub(crate) groups: u16,
    /// ModelFlags & HASLOD.
    pub(crate) has_lod: bool,
}

/// Where each section of a NOD starts (spec §2.9), from its counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    /// First material name.
    pub materials: u64,
    /// NumBones (start of the second header part).
    pub counts: u64,
    /// First bone.
    pub bones: u64,
    /// First mesh name.
    pub mesh_names: u64,
    /// First vertex.
    pub vertices: u64,
    /// LOD table, if present.
    pub lod: Option<u64>,
    /// First face.
    pub faces: u64,
    /// First group.
    pub groups: u64,
    /// End of the file.
    pub end: u64,
}

impl Counts {
    /// Section offsets and the file size these counts imply.
    pub(crate) fn layout(&self) -> Layout {
        let materials = 8;
        let counts = materials + NAME_SIZE * u64::from(self.materials);
        let bones = counts + COUNTS_SIZE;
        let mesh_names = bones + BONE_SIZE * u64::from(self.bones);
        let vertices = mesh_names + NAME_SIZE * u64::from(self.meshes);
        let after_vertices = vertices + VERTEX_SIZE * u64::from(self.vertices);
        let lod = self.has_lod.then_some(after_vertices);
        let faces = after_vertices + if self.has_lod { LOD_ENTRY_SIZE * u64::from(self.vertices) } else { 0 };
        let groups = faces + FACE_SIZE * u64::from(self.faces);
        let end = groups + GROUP_SIZE * u64::from(self.groups);
        Layout { materials, counts, bones, mesh_names, vertices, lod, faces, groups, end }
    }

    fn describe(&self) -> String {
        format!(
            "{} materials, {} bones, {} meshes, {} vertices{}, {} faces, {} groups",
            self.materials,
            self.bones,
            self.meshes,
            self.vertices,
            if self.has_lod { " with LOD table" } else { "" },
            self.faces,
            self.groups
        )
    }
}

impl NodFile {
    /// The counts as this value would write them (saturated where they do not fit).
    fn counts(&self) -> Counts {
        let sat16 = |n: usize| u16::try_from(n).unwrap_or(u16::MAX);
        let sat32 = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        Counts {
            materials: sat32(self.materials.len()),
            bones: sat16(self.bones.len()),
            meshes: sat16(self.mesh_names.len()),
            vertices: sat32(self.vertices.len()),
            faces: sat32(self.faces.len()),
            groups: sat16(self.groups.len()),
            has_lod: self.lod.is_some(),
        }
    }

    /// Where each section of this file starts (as [`crate::write`] lays it out).
    pub fn layout(&self) -> Layout {
        self.counts().layout()
    }

    /// For each group, its first vertex and first face in the concatenated arrays.
    pub(crate) fn group_starts(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::with_capacity(self.groups.len());
        let (mut v, mut f) = (0usize, 0usize);
        for g in &self.groups {
            out.push((v, f));
            v += usize::from(g.num_vertices);
            f += usize::from(g.num_faces);
        }
        out
    }

    /// The vertices of `group`, which starts at vertex `first` ([`NodFile::group_starts`]).
    ///
    /// The group sums equal the arrays' lengths (checked when a file is read,
    /// `validate::check_groups`, and before one is written), so the range lies inside the array
    /// and the empty default is never taken for a file relic reads or writes.
    pub(crate) fn group_vertices(&self, first: usize, group: &NodGroup) -> &[NodVertex] {
        self.vertices.get(first..first + usize::from(group.num_vertices)).unwrap_or_default()
    }

    /// The faces of `group`, which starts at face `first` (see [`NodFile::group_vertices`]).
    pub(crate) fn group_faces(&self, first: usize, group: &NodGroup) -> &[[u16; 3]] {
        self.faces.get(first..first + usize::from(group.num_faces)).unwrap_or_default()
    }

    /// Writes the file; refuses values that break the format's rules (counts that do not fit
    /// their fields, more than 64 bones, a LOD table that disagrees with the flag or the vertex
    /// count, group sums that disagree with the arrays).
    pub(crate) fn to_bytes(&self) -> Result<Vec<u8>, WriteError> {
        self.check_writable()?;
        // A capacity hint only (0 on a target whose usize cannot hold the size: the writer grows).
        let size = usize::try_from(self.layout().end).unwrap_or(0);
        let mut out = ByteWriter::with_capacity(size);
        self.write_options(&mut out, Endian::Little, ()).map_err(|e| WriteError::from_binrw(&e))?;
        Ok(out.into_bytes())
    }

    fn check_writable(&self) -> Result<(), WriteError> {
        if self.version != NOD_VERSION {
            return Err(WriteError::Unsupported(format!(
                "NOD version {} cannot be written; relic-nod writes version {NOD_VERSION}",
                self.version
            )));
        }
        fit::<u32>("materials", self.materials.len(), "u32")?;
        if self.bones.len() > MAX_BONES {
            return Err(WriteError::Unsupported(format!(
                "bones: {} bones, a NOD holds at most {MAX_BONES}",
                self.bones.len()
            )));
        }
        fit::<u16>("mesh_names", self.mesh_names.len(), "u16")?;
        fit::<u32>("vertices", self.vertices.len(), "u32")?;
        fit::<u32>("faces", self.faces.len(), "u32")?;
        fit::<u16>("groups", self.groups.len(), "u16")?;
        let has_lod_flag = self.model_flags & MODEL_HASLOD != 0;
        if has_lod_flag != self.lod.is_some() {
            return Err(WriteError::Unsupported(format!(
                "model_flags: HASLOD is {} but the LOD table is {}",
                if has_lod_flag { "set" } else { "clear" },
                if self.lod.is_some() { "present" } else { "absent" }
            )));
        }
        if let Some(lod) = &self.lod
            && lod.len() != self.vertices.len()
        {
            return Err(WriteError::Unsupported(format!(
                "lod: {} entries for {} vertices",
                lod.len(),
                self.vertices.len()
            )));
        }
        let sum_v: usize = self.groups.iter().map(|g| usize::from(g.num_vertices)).sum();
        let sum_f: usize = self.groups.iter().map(|g| usize::from(g.num_faces)).sum();
        if sum_v != self.vertices.len() || sum_f != self.faces.len() {
            return Err(WriteError::Unsupported(format!(
                "groups: the groups hold {sum_v} vertices and {sum_f} faces, the arrays {} and {}",
                self.vertices.len(),
                self.faces.len()
            )));
        }
        Ok(())
    }
}

/// Parses the layout of a NOD v7 file (no cross-reference checks: see `crate::validate`).
pub(crate) fn parse_nod(bytes: &[u8]) -> Result<NodFile, ReadError> {
    parse(bytes, |s| NodFile::read(s))
}

#[binrw::parser(reader, endian)]
fn nod_version() -> BinResult<u32> {
    let pos = reader.stream_position()?;
    let version = u32::read_options(reader, endian, ())?;
    if version != NOD_VERSION {
        let reason = if version == NAD_VERSION {
            "this is a NAD animation (version 3); a NAD needs its NOD: read the model and pass the animation to it"
                .to_string()
        } else if version.swap_bytes() == NOD_VERSION {
            "the bytes 00 00 00 07 are a big-endian 7: relic-nod reads the little-endian NOD v7 of the PC game (no \
             other byte order is documented, spec §6)"
                .to_string()
        } else {
            format!("relic-nod reads NOD version {NOD_VERSION} (Vampire: The Masquerade – Redemption 1.1)")
        };
        return Err(custom(pos, ReadErrorKind::UnsupportedVersion { version, reason }));
    }
    Ok(version)
}

#[binrw::parser(reader, endian)]
fn bone_count() -> BinResult<u16> {
    let pos = reader.stream_position()?;
    let n = u16::read_options(reader, endian, ())?;
    if usize::from(n) > MAX_BONES {
        return Err(custom(
            pos,
            ReadErrorKind::Invalid(format!("{n} bones; a NOD holds at most {MAX_BONES} (spec §2.1)")),
        ));
    }
    Ok(n)
}

/// The exact-size rule (spec §2.9), checked before any array is read.
#[binrw::parser(reader)]
fn size_rule(counts: Counts) -> BinResult<()> {
    let here = reader.stream_position()?;
    let file_len = here + remaining(reader)?;
    let layout = counts.layout();
    if layout.end == file_len {
        return Ok(());
    }
    if layout.end < file_len {
        return Err(custom(layout.end, ReadErrorKind::TrailingBytes(file_len - layout.end)));
    }
    Err(custom(
        layout.counts,
        ReadErrorKind::Invalid(format!(
            "the header's counts ({}) make a file of {} bytes but it has {file_len} (spec §2.9)",
            counts.describe(),
            layout.end
        )),
    ))
}

/// The LOD table: present iff ModelFlags has HASLOD (binrw's `if` would need `Option<Vec>` of a
/// bulk-read array, which it cannot express).
#[binrw::parser(reader, endian)]
fn lod_table(present: bool, count: u64) -> BinResult<Option<Vec<u16>>> {
    if present { pod_vec(reader, endian, (count,)).map(Some) } else { Ok(None) }
}

#[binrw::writer(writer)]
fn write_lod(lod: &Option<Vec<u16>>) -> BinResult<()> {
    match lod {
        Some(entries) => write_pod(writer, entries),
        None => Ok(()),
    }
}

/// Reads the counts of a NOD header without allocating; `None` if the bytes are too short or the
/// version is not 7.
fn peek_counts(bytes: &[u8]) -> Option<Counts> {
    let u32_at = |at: usize| bytes.get(at..at + 4).and_then(|b| b.try_into().ok()).map(u32::from_le_bytes);
    let u16_at = |at: usize| bytes.get(at..at + 2).and_then(|b| b.try_into().ok()).map(u16::from_le_bytes);
    if u32_at(0)? != NOD_VERSION {
        return None;
    }
    let materials = u32_at(4)?;
    let m = usize::try_from(8 + NAME_SIZE * u64::from(materials)).ok()?;
    let flags = u32_at(m.checked_add(14)?)?;
    Some(Counts {
        materials,
        bones: u16_at(m)?,
        meshes: u16_at(m + 2)?,
        vertices: u32_at(m + 4)?,
        faces: u32_at(m + 8)?,
        groups: u16_at(m + 12)?,
        has_lod: flags & MODEL_HASLOD != 0,
    })
}

/// True if the bytes look like a NOD v7 without allocating: the exact-size rule, at most 64
/// bones, a root bone 0 and group counts that add up to the header's.
pub(crate) fn peek_nod(bytes: &[u8]) -> bool {
    let Some(counts) = peek_counts(bytes) else { return false };
    let layout = counts.layout();
    if layout.end != bytes.len() as u64 || usize::from(counts.bones) > MAX_BONES {
        return false;
    }
    let at = |offset: u64| usize::try_from(offset).ok();
    let i16_at = |offset: u64| {
        at(offset).and_then(|o| bytes.get(o..o + 2)).and_then(|b| b.try_into().ok()).map(i16::from_le_bytes)
    };
    if counts.bones > 0 && i16_at(layout.bones + 64) != Some(-1) {
        return false;
    }
    let (mut vertices, mut faces) = (0u64, 0u64);
    for g in 0..u64::from(counts.groups) {
        let base = layout.groups + GROUP_SIZE * g;
        let u16_at = |o: u64| {
            at(base + o).and_then(|o| bytes.get(o..o + 2)).and_then(|b| b.try_into().ok()).map(u16::from_le_bytes)
        };
        let (Some(f), Some(v)) = (u16_at(16), u16_at(18)) else { return false };
        faces += u64::from(f);
        vertices += u64::from(v);
    }
    vertices == u64::from(counts.vertices) && faces == u64::from(counts.faces)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_sizes() {
        assert_eq!(size_of::<NodVertex>() as u64, VERTEX_SIZE);
        let c = Counts { materials: 1, bones: 1, meshes: 1, vertices: 3, faces: 1, groups: 1, has_lod: true };
        // 8 + 32 + 42 + 66 + 32 + 120 + 6 + 6 + 28
        assert_eq!(c.layout().end, 340);
    }
}
