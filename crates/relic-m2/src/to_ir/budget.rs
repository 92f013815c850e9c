//! The build budget: what mapping a file may build, counted before anything is built.

use relic_core::model::{self as ir, *};
use relic_core::{ReadError, ReadErrorKind};

use super::animation::{TRACK_NAMES, bone_heads};
use super::mesh::has_uv2;
use crate::file::*;

/// Bytes of model data mapping may build per byte of data in the file (see [`BUILD_FIXED`]).
pub(crate) const BUILD_PER_FILE_BYTE: u64 = 8;

/// Bytes of model data mapping may build whatever the file's size.
///
/// A track without ranges or on a global sequence animates every sequence, and ranges may
/// overlap, so one stored key becomes a key of many channels (and one event an event of many
/// animations): 20 000 sequences sharing one 100 000-key track asked 32 GB of a 3 MB file. The
/// channels and events are counted before any is built, and a file whose model would take more
/// than `BUILD_PER_FILE_BYTE` × its data bytes + `BUILD_FIXED` is refused; with the file itself
/// that keeps reading within the project's budget of 16 × input + 1 MiB.
pub(crate) const BUILD_FIXED: u64 = 1 << 20;

/// What mapping may still build, spent element by element before anything is built.
pub(super) struct Budget {
    data: u64,
    limit: u64,
    used: u64,
}

impl Budget {
    pub(super) fn new(file: &M2File) -> Self {
        let data = crate::validate::data_bytes(file);
        Self { data, limit: data.saturating_mul(BUILD_PER_FILE_BYTE).saturating_add(BUILD_FIXED), used: 0 }
    }

    /// Spends `bytes` on the element at `offset` (`path`); an error once the budget is exceeded.
    fn spend(&mut self, bytes: u64, offset: u64, path: impl FnOnce() -> String) -> Result<(), ReadError> {
        self.used = self.used.saturating_add(bytes);
        if self.used <= self.limit {
            return Ok(());
        }
        Err(ReadError::at(
            offset,
            path(),
            ReadErrorKind::Invalid(format!(
                "the common model would take more than {} bytes, over the budget of {} for a file of {} data bytes: its keys, events or vertices serve too many sequences or submeshes",
                self.used, self.limit, self.data
            )),
        ))
    }

    /// The channels and events of the animations.
    pub(super) fn animations(&mut self, file: &M2File) -> Result<(), ReadError> {
        let sequences = file.sequences.len();
        let first_track: u64 = if file.version >= 260 { 16 } else { 12 };
        let bone_size = crate::file::Bone::size(file.version);
        for (f, b) in file.bones.iter().enumerate() {
            for (p, ((head, value_bytes), name)) in bone_heads(b).iter().zip([12, 16, 12]).zip(TRACK_NAMES).enumerate()
            {
                let offset = u64::from(file.bones.offset) + f as u64 * bone_size + first_track + 28 * p as u64;
                self.spend(head.model_bytes(sequences, value_bytes), offset, || format!("M2File.bones[{f}].{name}"))?;
            }
        }
        for (i, e) in file.events.iter().enumerate() {
            let offset = u64::from(file.events.offset) + i as u64 * 44 + 24;
            let bytes = event_count(&e.times, sequences).saturating_mul(EVENT_BYTES);
            self.spend(bytes, offset, || format!("M2File.events[{i}].times"))?;
        }
        Ok(())
    }
}

impl Budget {
    /// The meshes: every submesh of view 0 gets its own copy of its vertices, and submeshes may
    /// overlap (2 000 submeshes over the same 65 535 view vertices asked 4 GB of a 450 KB file).
    pub(super) fn meshes(&mut self, file: &M2File) -> Result<(), ReadError> {
        let Some(view) = file.views.first() else { return Ok(()) };
        let uv_sets = if has_uv2(file) { 2 } else { 1 };
        // Position, normal, UV sets, the list of file vertices, and the skin: an offset and up to
        // four influences (in the per-vertex list they are made from and with the slack of the
        // list they are gathered in).
        let vertex = 12 + 12 + 8 * uv_sets + 8 + 4 + 3 * 4 * size_of::<Influence>() as u64;
        let size = Submesh::size(file.version);
        for (si, s) in view.submeshes.iter().enumerate() {
            let (_, vertices) = s.vertices();
            let (_, indices) = s.indices();
            let bytes = size_of::<Mesh>() as u64 + vertices as u64 * vertex + (indices / 3) as u64 * 12;
            let offset = u64::from(view.submeshes.offset) + si as u64 * size;
            self.spend(bytes, offset, || format!("M2File.views[0].submeshes[{si}]"))?;
        }
        Ok(())
    }

    /// The materials: a texture unit lists up to 65 535 textures through the lookups, each with
    /// its path, and every submesh's material is built before equal ones are shared.
    pub(super) fn materials(&mut self, file: &M2File) -> Result<(), ReadError> {
        let Some(view) = file.views.first() else { return Ok(()) };
        // A path decodes to at most 3 UTF-8 bytes per stored byte; the material and the key it
        // is shared by each hold it.
        let longest = 3 * file.textures.iter().fold(0, |n, t| n.max(t.filename.len())) as u64;
        let texture = 2 * (size_of::<TextureRef>() as u64 + longest);
        for (ui, u) in view.texture_units.iter().enumerate() {
            let bytes = size_of::<Material>() as u64 + longest + u64::from(u.texture_count.max(1)) * texture;
            let offset = u64::from(view.texture_units.offset) + ui as u64 * 24;
            self.spend(bytes, offset, || format!("M2File.views[0].texture_units[{ui}]"))?;
        }
        Ok(())
    }
}

/// Bytes one event takes in the model: the record, the slack of the list it grows in, its name.
const EVENT_BYTES: u64 = 2 * size_of::<ir::Event>() as u64 + 16;

/// Firing times of an event track (half-open ranges) summed over `sequences` sequences.
fn event_count(t: &EventTrack, sequences: usize) -> u64 {
    let n = t.timestamps.len();
    if t.global_sequence >= 0 || t.ranges.is_empty() {
        return (n as u64).saturating_mul(sequences as u64);
    }
    t.ranges
        .iter()
        .take(sequences)
        .filter(|&&[a, b]| a < b && b as usize <= n)
        .fold(0, |sum: u64, &[a, b]| sum.saturating_add(u64::from(b - a)))
}
