//! The NOD v7 file layer: one type per record, fields in file order (spec §2).
//!
//! ```text
//! Version u32 = 7 · NumMaterials u32 · MaterialName char[32] × NumMaterials
//! NumBones u16 · NumMeshs u16 · NumVertices u32 · NumFaces u32 · NumGroups u16 · ModelFlags u32 · Bounds f32[6]
//! Bone (66 bytes) × NumBones · MeshName char[32] × NumMeshs · Vertex (40 bytes) × NumVertices
//! [LOD collapse u16 × NumVertices, iff ModelFlags & HASLOD] · Face u16[3] × NumFaces · Group (28 bytes) × NumGroups
//! ```
//!
//! Little-endian and fully packed; the group array ends the file and the size rule of §2.9 must
//! hold exactly. [`parse_nod`] checks the size rule before it reads any array, then every
//! cross-reference that does not depend on an open layout question (parents, links, material
//! indices, face indices, LOD entries, group sums). Mesh and bone numbers in the group tails and
//! vertex bone numbers depend on [`crate::options::GroupTail`] and are checked when a layout is
//! chosen ([`crate::decide`]).

use binrw::{BinRead, BinResult, BinWrite, Endian, binrw};
use bytemuck::{Pod, Zeroable};
use relic_core::binary::{ByteWriter, FixedString, counted, parse, pod_vec, remaining, write_pod};
use relic_core::error::{custom, fit};
use relic_core::{ReadError, ReadErrorKind, WriteError};

use crate::options::{GroupTail, MAX_BONES, MAX_PLAUSIBLE_GROUP_FLAGS, MODEL_HASLOD, NAD_VERSION, NOD_VERSION};

/// A NUL-padded `char[32]` (material and mesh names). Bytes after the NUL are kept as stored.
pub type Name = FixedString<32>;

/// Size of a name field.
pub const NAME_SIZE: u64 = 32;
/// Size of the second header part (counts, flags, bounds).
pub const COUNTS_SIZE: u64 = 42;
/// Size of a bone record.
pub const BONE_SIZE: u64 = 66;
/// Size of a vertex record.
pub const VERTEX_SIZE: u64 = 40;
/// Size of a LOD collapse entry.
pub const LOD_ENTRY_SIZE: u64 = 2;
/// Size of a face record.
pub const FACE_SIZE: u64 = 6;
/// Size of a mesh-group record.
pub const GROUP_SIZE: u64 = 28;

/// A whole NOD v7 file.
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

/// One bone, 66 bytes.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NodBone {
    /// Rest offset of the bone from its parent, in the parent's frame (the root: its model-space
    /// position); see [`crate::options::RestTranslateSpace`].
    pub rest_translate: [f32; 3],
    /// Inverse of the bone's rest transform in model space ("Matrix34"), 12 floats in the layout of
    /// [`crate::options::MatrixLayout`].
    pub rest_matrix_inverse: [f32; 12],
    /// Next bone with the same parent, −1 for the last.
    pub sibling: i16,
    /// First child, −1 for none.
    pub child: i16,
    /// Parent, −1 only for bone 0 (the root).
    pub parent: i16,
}

/// One vertex, 40 bytes, in the rest pose and model space.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
pub struct NodVertex {
    /// Position.
    pub pos: [f32; 3],
    /// Normal.
    pub norm: [f32; 3],
    /// Texture coordinates.
    pub uv: [f32; 2],
    /// Influence of `bone_num`; below [`crate::options::SINGLE_INFLUENCE_WEIGHT`] the rest
    /// (`1 − weight`) belongs to that bone's parent.
    pub weight: f32,
    /// The bone the vertex is bound to.
    pub bone_num: u8,
    /// Three bytes after the bone number (zero in every file the readers were tried on).
    pub pad: [u8; 3],
}

/// One mesh group, 28 bytes.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NodGroup {
    /// Index into the material names, −1 = untextured.
    pub material_id: i32,
    /// "Should be ignored" (probably run-time pointers the engine fills in); kept as stored.
    pub reserved: [u8; 12],
    /// Triangles of this group.
    pub num_faces: u16,
    /// Vertices of this group.
    pub num_vertices: u16,
    /// Vertices in the minimum-LOD set ("invalid but present" without LOD; often 0xCDCD).
    pub min_vertices: u16,
    /// Bytes 22–27: group flags, bone number and mesh number in a disputed layout, see
    /// [`crate::options::GroupTail`].
    pub tail: [u8; 6],
}

/// Group flags, bone number and mesh number as one reading of a group's tail gives them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TailFields {
    /// GroupFlags as stored (may be 0xCD fill, see [`TailFields::effective_flags`]).
    pub flags: u16,
    /// BoneNum: the bone a NOSKINNING group is rigid on.
    pub bone: u8,
    /// MeshNum: index into the mesh names.
    pub mesh: u8,
}

impl TailFields {
    /// The flags the mapping uses: the stored ones when plausible (≤ 0x000F), else none.
    pub fn effective_flags(&self) -> u16 {
        if self.flags <= MAX_PLAUSIBLE_GROUP_FLAGS { self.flags } else { 0 }
    }
}

impl GroupTail {
    /// Reads a group's bytes 22–27 under this layout.
    pub fn decode(self, tail: [u8; 6]) -> TailFields {
        let [t0, t1, t2, t3, t4, t5] = tail;
        match self {
            GroupTail::A => TailFields { flags: u16::from_le_bytes([t0, t1]), bone: t2, mesh: t3 },
            GroupTail::B => TailFields { flags: u16::from_le_bytes([t2, t3]), bone: t4, mesh: t5 },
        }
    }

    /// Offsets within the tail of the bone and mesh numbers.
    pub fn bone_mesh_offsets(self) -> (u64, u64) {
        match self {
            GroupTail::A => (2, 3),
            GroupTail::B => (4, 5),
        }
    }

    /// A tail that reads the same under both layouts for an ordinary skinned group (spec §2.7):
    /// A sees flags 0, bone 0, mesh `mesh`; B sees flags `mesh << 8` (implausible, so none),
    /// bone 0, mesh `mesh`.
    pub fn neutral(mesh: u8) -> [u8; 6] {
        [0, 0, 0, mesh, 0, mesh]
    }
}

/// The header counts, as the size rule needs them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Counts {
    /// NumMaterials.
    pub materials: u32,
    /// NumBones.
    pub bones: u16,
    /// NumMeshs.
    pub meshes: u16,
    /// NumVertices.
    pub vertices: u32,
    /// NumFaces.
    pub faces: u32,
    /// NumGroups.
    pub groups: u16,
    /// ModelFlags & HASLOD.
    pub has_lod: bool,
}

/// Where each section starts (spec §2.9), from the counts.
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
    pub fn layout(&self) -> Layout {
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
    pub fn counts(&self) -> Counts {
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

    /// Section offsets of this file.
    pub fn layout(&self) -> Layout {
        self.counts().layout()
    }

    /// For each group, its first vertex and first face in the concatenated arrays.
    pub fn group_starts(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::with_capacity(self.groups.len());
        let (mut v, mut f) = (0usize, 0usize);
        for g in &self.groups {
            out.push((v, f));
            v += usize::from(g.num_vertices);
            f += usize::from(g.num_faces);
        }
        out
    }

    /// The faces of group `g` at the level of detail with `n` vertices (spec §2.5, an inferred
    /// reading of the progressive-mesh description): every index at or above `n` follows the
    /// collapse table until it is below `n`, and faces that become degenerate are dropped.
    /// `n` is clamped to `MinVertices..=NumVertices`. `None` without a LOD table or group `g`.
    pub fn lod_faces(&self, g: usize, n: u16) -> Option<Vec<[u16; 3]>> {
        let table = self.lod.as_ref()?;
        let group = self.groups.get(g)?;
        let &(v0, f0) = self.group_starts().get(g)?;
        let count = group.num_vertices;
        let table = table.get(v0..v0 + usize::from(count))?;
        let n = n.clamp(group.min_vertices.min(count), count);
        let collapse = |mut i: u16| {
            // Entries are below `count` (checked on read); following only lower indices ends.
            while i >= n {
                match table.get(usize::from(i)) {
                    Some(&next) if next < i => i = next,
                    _ => return None,
                }
            }
            Some(i)
        };
        let faces = self.faces.get(f0..f0 + usize::from(group.num_faces))?;
        Some(
            faces
                .iter()
                .filter_map(|f| {
                    let [a, b, c] = [collapse(f[0])?, collapse(f[1])?, collapse(f[2])?];
                    (a != b && b != c && a != c).then_some([a, b, c])
                })
                .collect(),
        )
    }

    /// Writes the file; refuses values that break the format's rules (counts that do not fit
    /// their fields, more than 64 bones, a LOD table that disagrees with the flag or the vertex
    /// count, group sums that disagree with the arrays).
    pub fn to_bytes(&self) -> Result<Vec<u8>, WriteError> {
        self.check_writable()?;
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

/// Parses a NOD v7 file and checks every cross-reference that does not depend on an open layout
/// question. Fails with the offset and field path of the first problem.
pub fn parse_nod(bytes: &[u8]) -> Result<NodFile, ReadError> {
    let file = parse(bytes, |s| NodFile::read(s))?;
    check_structure(&file)?;
    Ok(file)
}

/// Checks bones (one root first, parents in range, no cycle, parents before children, links in
/// range), group sums, material numbers, face indices and LOD entries against their group.
pub fn check_structure(file: &NodFile) -> Result<(), ReadError> {
    let layout = file.layout();
    check_bones(file, &layout)?;
    check_groups(file, &layout)?;
    check_faces(file, &layout)?;
    check_lod(file, &layout)
}

fn bone_at(layout: &Layout, index: usize, field_offset: u64) -> u64 {
    layout.bones + BONE_SIZE * index as u64 + field_offset
}

fn check_bones(file: &NodFile, layout: &Layout) -> Result<(), ReadError> {
    let n = file.bones.len();
    let in_range = |v: i16| v == -1 || usize::try_from(v).is_ok_and(|v| v < n);
    for (i, bone) in file.bones.iter().enumerate() {
        let at = |field: u64| bone_at(layout, i, field);
        match (i, bone.parent) {
            (0, -1) => {}
            (0, p) => {
                return Err(ReadError::invalid(
                    at(64),
                    "bones[0].parent",
                    format!("the root bone 0 has parent {p}, not -1"),
                ));
            }
            (_, -1) => {
                return Err(ReadError::invalid(
                    at(64),
                    format!("bones[{i}].parent"),
                    format!("bone {i} has no parent; only bone 0 may be a root"),
                ));
            }
            (_, p) if !in_range(p) => {
                return Err(ReadError::invalid(
                    at(64),
                    format!("bones[{i}].parent"),
                    format!("parent {p} is out of range ({n} bones)"),
                ));
            }
            _ => {}
        }
        for (field, name, value) in [(60, "sibling", bone.sibling), (62, "child", bone.child)] {
            if !in_range(value) {
                return Err(ReadError::invalid(
                    at(field),
                    format!("bones[{i}].{name}"),
                    format!("{name} {value} is out of range ({n} bones)"),
                ));
            }
        }
    }
    // With every parent in range, a bone that does not reach the root within n steps is on a cycle.
    let parent = |b: usize| file.bones.get(b).and_then(|x| usize::try_from(x.parent).ok());
    for start in 0..n {
        let mut chain = vec![start];
        let mut b = start;
        while let Some(p) = parent(b) {
            chain.push(p);
            if p == start || chain.len() > n {
                let cycle: Vec<String> = chain.iter().map(usize::to_string).collect();
                return Err(ReadError::invalid(
                    bone_at(layout, start, 64),
                    format!("bones[{start}].parent"),
                    format!("bone parents form a cycle ({})", cycle.join(" → ")),
                ));
            }
            b = p;
        }
    }
    for (i, bone) in file.bones.iter().enumerate() {
        if let Ok(p) = usize::try_from(bone.parent)
            && p >= i
        {
            return Err(ReadError::invalid(
                bone_at(layout, i, 64),
                format!("bones[{i}].parent"),
                format!("parent {p} comes after bone {i}; NOD skeletons are stored parents first"),
            ));
        }
    }
    Ok(())
}

fn check_groups(file: &NodFile, layout: &Layout) -> Result<(), ReadError> {
    let materials = file.materials.len();
    for (i, g) in file.groups.iter().enumerate() {
        let ok = g.material_id == -1 || usize::try_from(g.material_id).is_ok_and(|m| m < materials);
        if !ok {
            return Err(ReadError::invalid(
                layout.groups + GROUP_SIZE * i as u64,
                format!("groups[{i}].material_id"),
                format!("material {} is out of range ({materials} materials; -1 = untextured)", g.material_id),
            ));
        }
    }
    let sum_v: u64 = file.groups.iter().map(|g| u64::from(g.num_vertices)).sum();
    let sum_f: u64 = file.groups.iter().map(|g| u64::from(g.num_faces)).sum();
    if sum_v != file.vertices.len() as u64 {
        return Err(ReadError::invalid(
            layout.groups,
            "groups.num_vertices",
            format!("the groups hold {sum_v} vertices but the header says {}", file.vertices.len()),
        ));
    }
    if sum_f != file.faces.len() as u64 {
        return Err(ReadError::invalid(
            layout.groups,
            "groups.num_faces",
            format!("the groups hold {sum_f} faces but the header says {}", file.faces.len()),
        ));
    }
    Ok(())
}

fn check_faces(file: &NodFile, layout: &Layout) -> Result<(), ReadError> {
    for (g, (group, (_, first_face))) in file.groups.iter().zip(file.group_starts()).enumerate() {
        let count = usize::from(group.num_faces);
        let faces = file.faces.get(first_face..first_face + count).unwrap_or_default();
        let limit = group.num_vertices;
        // One pass for the common case; the slow search only runs to name the culprit.
        if faces.iter().all(|f| f[0] < limit && f[1] < limit && f[2] < limit) {
            continue;
        }
        for (k, face) in faces.iter().enumerate() {
            if let Some((corner, index)) = face.iter().enumerate().find(|(_, v)| **v >= limit) {
                let f = first_face + k;
                return Err(ReadError::invalid(
                    layout.faces + FACE_SIZE * f as u64 + 2 * corner as u64,
                    format!("faces[{f}][{corner}]"),
                    format!("vertex {index} is out of group {g}'s range ({limit} vertices)"),
                ));
            }
        }
    }
    Ok(())
}

fn check_lod(file: &NodFile, layout: &Layout) -> Result<(), ReadError> {
    let (Some(lod), Some(lod_at)) = (&file.lod, layout.lod) else { return Ok(()) };
    for (g, (group, (first, _))) in file.groups.iter().zip(file.group_starts()).enumerate() {
        let entries = lod.get(first..first + usize::from(group.num_vertices)).unwrap_or_default();
        if let Some((k, &to)) = entries.iter().enumerate().find(|(_, to)| **to >= group.num_vertices) {
            let v = first + k;
            return Err(ReadError::invalid(
                lod_at + LOD_ENTRY_SIZE * v as u64,
                format!("lod[{v}]"),
                format!("collapses into vertex {to}, outside group {g}'s range ({} vertices)", group.num_vertices),
            ));
        }
    }
    Ok(())
}

#[binrw::parser(reader, endian)]
fn nod_version() -> BinResult<u32> {
    let pos = reader.stream_position()?;
    let version = u32::read_options(reader, endian, ())?;
    if version != NOD_VERSION {
        let reason = if version == NAD_VERSION {
            "this is a NAD animation (version 3); a NAD needs its NOD: read the model and pass the animation to it"
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

#[binrw::parser(reader, endian)]
fn lod_table(present: bool, count: u64) -> BinResult<Option<Vec<u16>>> {
    if present { pod_vec(reader, endian, (count,)).map(Some) } else { Ok(None) }
}

pub(crate) use relic_core::binary::write_pod_field as write_slice;

#[binrw::writer(writer)]
fn write_lod(lod: &Option<Vec<u16>>) -> BinResult<()> {
    match lod {
        Some(entries) => write_pod(writer, entries),
        None => Ok(()),
    }
}

/// Reads the counts of a NOD header without allocating; `None` if the bytes are too short or the
/// version is not 7.
pub fn peek_counts(bytes: &[u8]) -> Option<Counts> {
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
