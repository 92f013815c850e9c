//! M2 → common model.
//!
//! * Frame: WoW is right-handed Z-up; everything passes through
//!   [`FRAME`] once (`(x, y, z) → (y, z, x)`: Z up becomes Y up and the creature's
//!   forward, +X, becomes glTF's front, +Z; a rotation, so winding is unchanged).
//! * Bones (spec §6): the file stores pivots, no bind matrices. The bind matrix is
//!   `translate(pivot)`, the inverse bind `translate(−pivot)`, the rest transform the translation
//!   `pivot − parent pivot`; an animated translation key is `pivot − parent pivot + value`.
//! * Sequences → animations named `<AnimationData name>.<n>` (n counts the sequences of one id in
//!   file order: the stored variation field is 0 everywhere in the real 1.12 file). Key times are
//!   seconds from the sequence start; a range's keys may lie outside the sequence (kept, the
//!   sampler clamps). Tracks without ranges apply to every sequence with their absolute times;
//!   global-sequence tracks go into every animation on [`Clock::Global`] with their own times.
//! * Interpolation 0 → step, 1 → linear, 2 (Hermite) and 3 (Bezier) → glTF cubic spline. M2
//!   tangents are per segment (the parameter runs 0–1 over a segment, as in Warcraft III MDX);
//!   glTF's are per second, so a key's out-tangent is divided by the length of the segment after
//!   it and its in-tangent by the segment before it (the first in- and last out-tangent, which
//!   no segment uses, by the nearest segment). Bezier control points become Hermite tangents:
//!   `out = 3 (C_out − P)`, `in = 3 (P − C_in)`.
//! * Meshes: one per submesh of view 0, vertices through the view's index list, weights
//!   `w / Σw` (= w / 255), part id = geoset id. Materials from the submesh's texture units (base
//!   layer first); equal materials are shared.
//! * Shared keys are copied once per sequence they serve (the model has no shared tracks), so the
//!   channels and events are counted before they are built and a file whose model would exceed
//!   [`BUILD_PER_FILE_BYTE`] × its data + [`BUILD_FIXED`] is refused.
//! * Everything else, and the file itself for exact writing back, goes into [`M2Extras`].

use relic_core::frame::{Axis, Frame};
use relic_core::math::IDENTITY;
use relic_core::math::{add3, sub3};
use relic_core::model::{self as ir, *};
use relic_core::{Model, ReadError, ReadErrorKind};
use serde::{Deserialize, Serialize};

use crate::file::*;
use crate::names;
use crate::track::{
    EventTrack, INTERPOLATION_BEZIER, INTERPOLATION_HERMITE, INTERPOLATION_NONE, RotationTrack, decode_quat,
};
use crate::validate::{submesh_indices, submesh_vertices};

/// The frame conversion of M2.
pub const FRAME: Frame = Frame::new([Axis::Y, Axis::Z, Axis::X]);

/// What an M2 holds that the common model does not: the file as read, without its vertex array
/// (the model's meshes hold those). [`crate::from_ir`] takes each section from here while mapping
/// it gives exactly what the model now holds, and rebuilds it from the model otherwise.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct M2Extras {
    /// The file as read, `vertices` emptied.
    pub file: M2File,
}

/// The extras' operations (JSON through serde).
pub static EXTRAS_OPS: ExtrasOps =
    relic_core::extras_ops!(M2Extras, |e: &M2Extras| serde_json::to_string(e).unwrap_or_default());

/// The model name: the text before the first NUL, Windows-1252.
pub fn name_text(name: &[u8]) -> String {
    relic_core::text::decode_cp1252(name.split(|&b| b == 0).next().unwrap_or_default())
}

/// Bone order of the model: parents before children, file order otherwise. Returns
/// `(order, rank)`: `order[ir] = file index`, `rank[file index] = ir`.
///
/// The order is the one of placing bones in passes over the file, each pass taking in file order
/// every bone whose parent is already placed: a bone goes in its parent's pass if it comes after
/// the parent in the file, else in the next one (a root, or a parent out of range, in the first).
/// The passes are computed once per bone, so a chain of children before their parents costs n
/// steps, not one pass per bone. Bones in or below a cycle (the reader refuses those) are left out
/// and keep rank 0.
pub fn bone_order(file: &M2File) -> (Vec<usize>, Vec<usize>) {
    let n = file.bones.len();
    const UNKNOWN: usize = usize::MAX;
    const ON_WALK: usize = usize::MAX - 1;
    const CYCLE: usize = usize::MAX - 2;
    let parent = |i: usize| file.bones.get(i).and_then(|b| usize::try_from(b.parent).ok()).filter(|&p| p < n);
    let mut pass = vec![UNKNOWN; n];
    let mut walk: Vec<usize> = Vec::new();
    for i in 0..n {
        // Climb until a root or a bone whose pass is known, then settle the walk top down.
        let mut p = i;
        let mut cycle = false;
        loop {
            match pass.get(p).copied() {
                Some(UNKNOWN) => {
                    if let Some(x) = pass.get_mut(p) {
                        *x = ON_WALK;
                    }
                    walk.push(p);
                    match parent(p) {
                        Some(q) => p = q,
                        None => break,
                    }
                }
                Some(ON_WALK | CYCLE) => {
                    cycle = true;
                    break;
                }
                _ => break,
            }
        }
        while let Some(q) = walk.pop() {
            let settled = match parent(q) {
                _ if cycle => CYCLE,
                None => 0,
                Some(p) => pass.get(p).copied().unwrap_or(0) + usize::from(p > q),
            };
            if let Some(x) = pass.get_mut(q) {
                *x = settled;
            }
        }
    }
    let mut order: Vec<usize> = (0..n).filter(|&i| pass.get(i).is_some_and(|&p| p != CYCLE)).collect();
    order.sort_unstable_by_key(|&i| (pass.get(i).copied().unwrap_or(0), i));
    let mut rank = vec![0; n];
    for (ir, &f) in order.iter().enumerate() {
        if let Some(r) = rank.get_mut(f) {
            *r = ir;
        }
    }
    (order, rank)
}

/// A bone's pivot (M2 frame); zero for "no bone".
pub(crate) fn pivot(file: &M2File, bone: i64) -> [f32; 3] {
    usize::try_from(bone).ok().and_then(|b| file.bones.get(b)).map_or([0.0; 3], |b| b.pivot)
}

/// The pivot-relative rest offset of a bone (M2 frame).
pub(crate) fn rest_offset(file: &M2File, bone: usize) -> [f32; 3] {
    let b = file.bones.get(bone);
    let parent = b.map_or(-1, |b| i64::from(b.parent));
    sub3(b.map_or([0.0; 3], |b| b.pivot), pivot(file, parent))
}

fn translate(t: [f32; 3]) -> relic_core::math::Mat4 {
    let mut m = IDENTITY;
    m[12] = t[0];
    m[13] = t[1];
    m[14] = t[2];
    m
}

/// A cylindrical billboard locked to the model's axis `axis` (0 = X, 1 = Y, 2 = Z).
pub fn cylindrical(axis: usize) -> Billboard {
    match axis {
        0 => Billboard::CylindricalX,
        1 => Billboard::CylindricalY,
        _ => Billboard::CylindricalZ,
    }
}

/// The bone flags of the model from M2 bone flags.
pub fn bone_flags(flags: u32) -> BoneFlags {
    // M2's cylindrical lock axes are M2 axes; the model's are its own.
    let billboard = if flags & BONE_BILLBOARD != 0 {
        Billboard::Spherical
    } else if flags & BONE_BILLBOARD_X != 0 {
        cylindrical(FRAME.axis_to_ir(0))
    } else if flags & BONE_BILLBOARD_Y != 0 {
        cylindrical(FRAME.axis_to_ir(1))
    } else if flags & BONE_BILLBOARD_Z != 0 {
        cylindrical(FRAME.axis_to_ir(2))
    } else {
        Billboard::None
    };
    BoneFlags {
        inherit_translation: flags & BONE_IGNORE_PARENT_TRANSLATION == 0,
        inherit_rotation: flags & BONE_IGNORE_PARENT_ROTATION == 0,
        inherit_scale: flags & BONE_IGNORE_PARENT_SCALE == 0,
        rotation_only: false,
        billboard,
    }
}

/// The model's bones (in `order`).
pub fn bones_to_ir(file: &M2File, order: &[usize], rank: &[usize]) -> Vec<ir::Bone> {
    order
        .iter()
        .enumerate()
        .filter_map(|(ir, &f)| {
            let b = file.bones.get(f)?;
            let p = FRAME.vector_to_ir(b.pivot);
            Some(ir::Bone {
                name: names::bone_name(ir, b.key_bone_id),
                parent: usize::try_from(b.parent).ok().and_then(|p| rank.get(p).copied()),
                rest: Transform { translation: FRAME.vector_to_ir(rest_offset(file, f)), ..Transform::IDENTITY },
                bind_matrix: translate(p),
                inverse_bind_matrix: translate(p.map(|c| -c)),
                flags: bone_flags(b.flags),
            })
        })
        .collect()
}

/// Seconds from a sequence start to a key (exact for any millisecond count below 2²⁴).
#[inline]
pub fn seconds(ms: i64) -> f32 {
    (ms as f64 / 1000.0) as f32
}

/// Animation names: `<AnimationData name>.<n>`, n counting the sequences of one id in file order.
pub fn animation_names(sequences: &[Sequence]) -> Vec<String> {
    let mut seen: std::collections::HashMap<u16, usize> = std::collections::HashMap::new();
    sequences
        .iter()
        .map(|s| {
            let n = seen.entry(s.id).or_insert(0);
            let name = format!("{}.{n}", names::animation_name(s.id));
            *n += 1;
            name
        })
        .collect()
}

/// A sequence box in the model's frame.
// Component indices 0..3 of 3-element arrays.
#[allow(clippy::indexing_slicing)]
pub fn bounds_to_ir(b: &Bounds) -> Aabb {
    let (a, c) = (FRAME.vector_to_ir(b.min), FRAME.vector_to_ir(b.max));
    Aabb { min: std::array::from_fn(|i| a[i].min(c[i])), max: std::array::from_fn(|i| a[i].max(c[i])) }
}

/// The part of a stored track that says which keys serve which sequence.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Head<'a> {
    pub interpolation: u16,
    pub global_sequence: i16,
    pub ranges: &'a [[u32; 2]],
    pub timestamps: &'a [u32],
}

impl<'a> Head<'a> {
    fn of<T>(t: &'a crate::track::Track<T>) -> Self {
        Self {
            interpolation: t.interpolation,
            global_sequence: t.global_sequence,
            ranges: &t.ranges,
            timestamps: &t.timestamps,
        }
    }

    fn rotation(t: &'a RotationTrack) -> Self {
        let (interpolation, global_sequence, ranges, timestamps) = t.head();
        Self { interpolation, global_sequence, ranges, timestamps }
    }

    fn per_key(&self) -> usize {
        crate::track::values_per_key(self.interpolation)
    }

    /// True if every sequence gets all the keys: a global-sequence track or one without ranges.
    fn shared(&self) -> bool {
        self.global_sequence >= 0 || self.ranges.is_empty()
    }

    /// How many of the first sequences may have keys: none for a keyless track, every one of
    /// `sequences` for a shared track, else those with a range.
    fn users(&self, sequences: usize) -> usize {
        if self.timestamps.is_empty() {
            0
        } else if self.shared() {
            sequences
        } else {
            self.ranges.len().min(sequences)
        }
    }

    /// The keys (index range) and clock of sequence `s`, or `None` if the track does not animate it.
    fn keys_for(&self, s: usize) -> Option<(std::ops::Range<usize>, Clock)> {
        let n = self.timestamps.len();
        if n == 0 {
            return None;
        }
        if let Ok(g) = usize::try_from(self.global_sequence) {
            return Some((0..n, Clock::Global(g)));
        }
        if self.ranges.is_empty() {
            return Some((0..n, Clock::Animation));
        }
        let [first, last] = *self.ranges.get(s)?;
        let (first, last) = (first as usize, last as usize);
        (first <= last && last < n).then_some((first..last + 1, Clock::Animation))
    }

    /// Bytes the channels of this track take in the model over `sequences` sequences, for values
    /// of `value_bytes` each: one channel per sequence the track animates, with its own copy of
    /// the keys (a channel counts twice: once itself, once as the slack of the list it grows in).
    fn model_bytes(&self, sequences: usize, value_bytes: usize) -> u64 {
        let key = 4 + (self.per_key() * value_bytes) as u64;
        let channel = |keys: usize| 2 * size_of::<Channel>() as u64 + keys as u64 * key;
        if self.timestamps.is_empty() {
            0
        } else if self.shared() {
            channel(self.timestamps.len()).saturating_mul(sequences as u64)
        } else {
            (0..self.users(sequences))
                .filter_map(|s| self.keys_for(s))
                .fold(0, |sum: u64, (k, _)| sum.saturating_add(channel(k.len())))
        }
    }
}

/// The heads of a bone's translation, rotation and scale tracks.
pub(crate) fn bone_heads(b: &crate::file::Bone) -> [Head<'_>; 3] {
    [Head::of(&b.translation), Head::rotation(&b.rotation), Head::of(&b.scale)]
}

/// Names of a bone's three tracks, in [`bone_heads`] order.
const TRACK_NAMES: [&str; 3] = ["translation", "rotation", "scale"];

/// Bytes of model data mapping may build per byte of data in the file (see [`BUILD_FIXED`]).
pub const BUILD_PER_FILE_BYTE: u64 = 8;

/// Bytes of model data mapping may build whatever the file's size.
///
/// A track without ranges or on a global sequence animates every sequence, and ranges may
/// overlap, so one stored key becomes a key of many channels (and one event an event of many
/// animations): 20 000 sequences sharing one 100 000-key track asked 32 GB of a 3 MB file. The
/// channels and events are counted before any is built, and a file whose model would take more
/// than `BUILD_PER_FILE_BYTE` × its data bytes + `BUILD_FIXED` is refused; with the file itself
/// that keeps reading within the project's budget of 16 × input + 1 MiB.
pub const BUILD_FIXED: u64 = 1 << 20;

/// What mapping may still build, spent element by element before anything is built.
struct Budget {
    data: u64,
    limit: u64,
    used: u64,
}

impl Budget {
    fn new(file: &M2File) -> Self {
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
    fn animations(&mut self, file: &M2File) -> Result<(), ReadError> {
        let sequences = file.sequences.len();
        let first_track: u64 = if file.version >= 260 { 16 } else { 12 };
        let bone_size = bone_size(file.version);
        for (f, b) in file.bones.iter().enumerate() {
            for (p, (head, value_bytes)) in bone_heads(b).iter().zip([12, 16, 12]).enumerate() {
                let offset = u64::from(file.bones.offset) + f as u64 * bone_size + first_track + 28 * p as u64;
                let name = TRACK_NAMES.get(p).copied().unwrap_or_default();
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
    fn meshes(&mut self, file: &M2File) -> Result<(), ReadError> {
        let Some(view) = file.views.first() else { return Ok(()) };
        let uv_sets = if has_uv2(file) { 2 } else { 1 };
        // Position, normal, UV sets, the list of file vertices, and the skin: an offset and up to
        // four influences (in the per-vertex list they are made from and with the slack of the
        // list they are gathered in).
        let vertex = 12 + 12 + 8 * uv_sets + 8 + 4 + 3 * 4 * size_of::<Influence>() as u64;
        let size = submesh_size(file.version);
        for (si, s) in view.submeshes.iter().enumerate() {
            let (_, vertices) = submesh_vertices(s);
            let (_, indices) = submesh_indices(s);
            let bytes = size_of::<Mesh>() as u64 + vertices as u64 * vertex + (indices / 3) as u64 * 12;
            let offset = u64::from(view.submeshes.offset) + si as u64 * size;
            self.spend(bytes, offset, || format!("M2File.views[0].submeshes[{si}]"))?;
        }
        Ok(())
    }

    /// The materials: a texture unit lists up to 65 535 textures through the lookups, each with
    /// its path, and every submesh's material is built before equal ones are shared.
    fn materials(&mut self, file: &M2File) -> Result<(), ReadError> {
        let Some(view) = file.views.first() else { return Ok(()) };
        // A path decodes to at most 3 UTF-8 bytes per stored byte; the material and the key it
        // is shared by each hold it.
        let longest = 3 * file.textures.iter().map(|t| t.filename.len()).max().unwrap_or(0) as u64;
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

/// One stored track, reduced to what channel building needs: its head and its values already in
/// the model's frame, `per_key` entries per key in M2's order (value, in, out).
pub(crate) struct TrackView<'a, const N: usize> {
    pub head: Head<'a>,
    pub values: Vec<[f32; N]>,
}

impl<const N: usize> TrackView<'_, N> {
    /// The channel of sequence `s` (starting at `start` ms) for `bone`.
    pub(crate) fn channel(
        &self,
        s: usize,
        start: u32,
        bone: usize,
        make: fn(Vec<[f32; N]>) -> ChannelValues,
    ) -> Option<Channel> {
        let (keys, clock) = self.head.keys_for(s)?;
        let origin = if clock == Clock::Animation { i64::from(start) } else { 0 };
        let times: Vec<f32> =
            self.head.timestamps.get(keys.clone())?.iter().map(|&t| seconds(i64::from(t) - origin)).collect();
        let per_key = self.head.per_key();
        let stored = self.values.get(keys.start * per_key..keys.end * per_key)?;
        let (interpolation, values) = if per_key == 1 {
            let i =
                if self.head.interpolation == INTERPOLATION_NONE { Interpolation::Step } else { Interpolation::Linear };
            (i, stored.to_vec())
        } else {
            (Interpolation::CubicSpline, cubic_values(stored, &times, self.head.interpolation == INTERPOLATION_BEZIER))
        };
        Some(Channel { bone, clock, interpolation, times, values: make(values) })
    }

    /// Appends the channel of every sequence the track animates to its animation.
    fn add_channels(
        &self,
        file: &M2File,
        bone: usize,
        make: fn(Vec<[f32; N]>) -> ChannelValues,
        animations: &mut [Animation],
    ) {
        let users = self.head.users(file.sequences.len());
        for (s, (seq, anim)) in file.sequences.iter().zip(animations.iter_mut()).enumerate().take(users) {
            anim.channels.extend(self.channel(s, seq.start, bone, make));
        }
    }

    /// True if `current` (one entry per sequence) holds exactly the channels this track maps to.
    /// Channels are built one at a time, and only where the key counts already agree.
    fn matches(
        &self,
        file: &M2File,
        bone: usize,
        make: fn(Vec<[f32; N]>) -> ChannelValues,
        current: &[Option<&Channel>],
    ) -> bool {
        current.len() == file.sequences.len()
            && current.iter().zip(file.sequences.iter()).enumerate().all(|(s, (c, seq))| {
                match (self.head.keys_for(s), c) {
                    (None, None) => true,
                    (Some((keys, _)), Some(c)) if keys.len() == c.times.len() => {
                        self.channel(s, seq.start, bone, make).as_ref() == Some(*c)
                    }
                    _ => false,
                }
            })
    }
}

/// Segment lengths in seconds around key `k`: (before, after), falling back to the neighbour
/// segment at the ends and to 1 s for a single key.
pub(crate) fn spans(times: &[f32], k: usize) -> (f32, f32) {
    let seg = |i: usize| match (times.get(i), times.get(i + 1)) {
        (Some(a), Some(b)) => Some(b - a),
        _ => None,
    };
    let before = k.checked_sub(1).and_then(seg);
    let after = seg(k);
    let before_or = before.or(after).unwrap_or(1.0);
    let after_or = after.or(before).unwrap_or(1.0);
    (before_or, after_or)
}

/// M2 spline keys (value, in, out) → glTF cubic triples (in/s, value, out/s).
// Component indices run over 0..N of `[f32; N]` arrays.
#[allow(clippy::indexing_slicing)]
fn cubic_values<const N: usize>(stored: &[[f32; N]], times: &[f32], bezier: bool) -> Vec<[f32; N]> {
    let mut out = Vec::with_capacity(stored.len());
    for (k, key) in stored.chunks_exact(3).enumerate() {
        let (Some(&p), Some(&i), Some(&o)) = (key.first(), key.get(1), key.get(2)) else { continue };
        let (before, after) = spans(times, k);
        let (m_in, m_out): ([f32; N], [f32; N]) = if bezier {
            (std::array::from_fn(|c| 3.0 * (p[c] - i[c])), std::array::from_fn(|c| 3.0 * (o[c] - p[c])))
        } else {
            (i, o)
        };
        out.push(std::array::from_fn(|c| (f64::from(m_in[c]) / f64::from(before)) as f32));
        out.push(p);
        out.push(std::array::from_fn(|c| (f64::from(m_out[c]) / f64::from(after)) as f32));
    }
    out
}

/// Converts a bone's translation values to the model's frame: values and Bezier control points
/// get the pivot offset, Hermite tangents do not.
fn translation_values(values: &[[f32; 3]], interpolation: u16, offset: [f32; 3]) -> Vec<[f32; 3]> {
    let per_key = crate::track::values_per_key(interpolation);
    values
        .iter()
        .enumerate()
        .map(|(j, v)| {
            let is_tangent = per_key == 3 && j % 3 != 0 && interpolation == INTERPOLATION_HERMITE;
            FRAME.vector_to_ir(if is_tangent { *v } else { add3(offset, *v) })
        })
        .collect()
}

/// A bone's translation track as a view in the model's frame.
fn translation_view(file: &M2File, f: usize) -> Option<TrackView<'_, 3>> {
    let t = &file.bones.get(f)?.translation;
    Some(TrackView { head: Head::of(t), values: translation_values(&t.values, t.interpolation, rest_offset(file, f)) })
}

/// A bone's rotation track as a view in the model's frame.
fn rotation_view(file: &M2File, f: usize) -> Option<TrackView<'_, 4>> {
    let r = &file.bones.get(f)?.rotation;
    let values = match r {
        RotationTrack::Float(t) => t.values.iter().map(|q| FRAME.quat_to_ir(*q)).collect(),
        RotationTrack::Compressed(t) => t.values.iter().map(|q| FRAME.quat_to_ir(decode_quat(*q))).collect(),
    };
    Some(TrackView { head: Head::rotation(r), values })
}

/// A bone's scale track as a view in the model's frame.
fn scale_view(file: &M2File, f: usize) -> Option<TrackView<'_, 3>> {
    let s = &file.bones.get(f)?.scale;
    Some(TrackView { head: Head::of(s), values: s.values.iter().map(|v| FRAME.scale_to_ir(*v)).collect() })
}

/// True if file bone `f`'s track of property `p` (0 translation, 1 rotation, 2 scale) maps to
/// exactly `current`, the model's channels of bone `ir` for that property, one per sequence.
pub(crate) fn track_matches(file: &M2File, f: usize, ir: usize, p: usize, current: &[Option<&Channel>]) -> bool {
    match p {
        0 => translation_view(file, f).is_some_and(|v| v.matches(file, ir, ChannelValues::Translation, current)),
        1 => rotation_view(file, f).is_some_and(|v| v.matches(file, ir, ChannelValues::Rotation, current)),
        _ => scale_view(file, f).is_some_and(|v| v.matches(file, ir, ChannelValues::Scale, current)),
    }
}

/// True if file bone `f`'s track of property `p` animates no sequence (it maps to no channel).
pub(crate) fn track_is_silent(file: &M2File, f: usize, p: usize) -> bool {
    let Some(head) = file.bones.get(f).and_then(|b| bone_heads(b).get(p).copied()) else { return false };
    (0..head.users(file.sequences.len())).all(|s| head.keys_for(s).is_none())
}

/// The event name of an identifier (`$CSS`), Windows-1252 up to the first NUL.
pub fn event_name(identifier: &[u8; 4]) -> String {
    relic_core::text::decode_cp1252(identifier.split(|&b| b == 0).next().unwrap_or_default())
}

/// Events of every sequence (ranges are half-open), by time. One pass over the events: a
/// sequence an event track has no range for costs nothing.
fn events_to_ir(file: &M2File, rank: &[usize]) -> Vec<Vec<ir::Event>> {
    let sequences = file.sequences.len();
    let mut out: Vec<Vec<ir::Event>> = vec![Vec::new(); sequences];
    for e in file.events.iter() {
        let t = &e.times;
        let n = t.timestamps.len();
        if n == 0 {
            continue;
        }
        let shared = t.global_sequence >= 0 || t.ranges.is_empty();
        let users = if shared { sequences } else { t.ranges.len().min(sequences) };
        let name = event_name(&e.identifier);
        let bone = rank.get(e.bone as usize).copied();
        let position = FRAME.vector_to_ir(sub3(e.position, pivot(file, i64::from(e.bone))));
        for (s, (seq, list)) in file.sequences.iter().zip(out.iter_mut()).enumerate().take(users) {
            let (keys, origin) = if shared {
                (0..n, if t.global_sequence >= 0 { 0 } else { i64::from(seq.start) })
            } else {
                match t.ranges.get(s) {
                    Some(&[a, b]) if a < b && b as usize <= n => (a as usize..b as usize, i64::from(seq.start)),
                    _ => continue,
                }
            };
            for &ts in t.timestamps.get(keys).unwrap_or_default() {
                list.push(ir::Event {
                    time: seconds(i64::from(ts) - origin),
                    name: name.clone(),
                    bone,
                    position: Some(position),
                    parameter: Some(e.data),
                });
            }
        }
    }
    for list in &mut out {
        list.sort_by(|a, b| a.time.total_cmp(&b.time));
    }
    out
}

/// True if the file's events map to exactly the animations' events. The events are counted per
/// sequence first and only built when every count agrees.
pub(crate) fn events_match(file: &M2File, rank: &[usize], animations: &[Animation]) -> bool {
    let sequences = file.sequences.len();
    if animations.len() != sequences {
        return false;
    }
    let mut every = 0u64;
    let mut counts = vec![0u64; sequences];
    for e in file.events.iter() {
        let t = &e.times;
        if t.global_sequence >= 0 || t.ranges.is_empty() {
            every = every.saturating_add(t.timestamps.len() as u64);
            continue;
        }
        for (c, &[a, b]) in counts.iter_mut().zip(t.ranges.iter()) {
            if a < b && b as usize <= t.timestamps.len() {
                *c += u64::from(b - a);
            }
        }
    }
    counts.iter().zip(animations).all(|(&c, a)| c.saturating_add(every) == a.events.len() as u64)
        && events_to_ir(file, rank).iter().zip(animations).all(|(e, a)| *e == a.events)
}

/// The model's animations: the channels and events the file maps to, refused when they would take
/// more than the build budget (see [`BUILD_FIXED`]).
pub fn animations_to_ir(file: &M2File, order: &[usize], rank: &[usize]) -> Result<Vec<Animation>, ReadError> {
    Budget::new(file).animations(file)?;
    Ok(build_animations(file, order, rank))
}

/// [`animations_to_ir`] once the budget is checked.
fn build_animations(file: &M2File, order: &[usize], rank: &[usize]) -> Vec<Animation> {
    let names = animation_names(&file.sequences);
    let mut animations: Vec<Animation> = file
        .sequences
        .iter()
        .zip(names)
        .zip(events_to_ir(file, rank))
        .map(|((seq, name), events)| Animation {
            name,
            duration: seconds(i64::from(seq.end) - i64::from(seq.start)),
            looping: seq.flags & 1 == 0,
            blend_in: seconds(i64::from(seq.blend_time)),
            channels: Vec::new(),
            morph_channels: Vec::new(),
            events,
            bounds: Some(bounds_to_ir(&seq.bounds)),
            key_bounds: Vec::new(),
        })
        .collect();
    // Bone by bone, translation, rotation, scale: the order a channel list had per animation.
    // A keyless track animates no sequence and costs nothing here.
    for (ir, &f) in order.iter().enumerate() {
        let Some(b) = file.bones.get(f) else { continue };
        let [t, r, s] = bone_heads(b).map(|h| h.users(file.sequences.len()) > 0);
        if t && let Some(v) = translation_view(file, f) {
            v.add_channels(file, ir, ChannelValues::Translation, &mut animations);
        }
        if r && let Some(v) = rotation_view(file, f) {
            v.add_channels(file, ir, ChannelValues::Rotation, &mut animations);
        }
        if s && let Some(v) = scale_view(file, f) {
            v.add_channels(file, ir, ChannelValues::Scale, &mut animations);
        }
    }
    animations
}

/// The model's materials and, per submesh of view 0, its material index; refused when they would
/// take more than the build budget (see [`BUILD_FIXED`]).
pub fn materials_to_ir(file: &M2File) -> Result<(Vec<Material>, Vec<Option<usize>>), ReadError> {
    Budget::new(file).materials(file)?;
    Ok(build_materials(file))
}

/// [`materials_to_ir`] once the budget is checked. The units are grouped by submesh in one pass
/// and equal materials found through a map (a scan of the units per submesh and of the materials
/// per material made both quadratic).
fn build_materials(file: &M2File) -> (Vec<Material>, Vec<Option<usize>>) {
    let Some(view) = file.views.first() else { return (Vec::new(), Vec::new()) };
    let mut units_of: Vec<Vec<&TextureUnit>> = vec![Vec::new(); view.submeshes.len()];
    for u in view.texture_units.iter() {
        if let Some(list) = units_of.get_mut(usize::from(u.submesh_index)) {
            list.push(u);
        }
    }
    let mut materials: Vec<Material> = Vec::new();
    // Materials by name and texture paths; equal materials share one entry.
    let mut by_key: std::collections::HashMap<(String, Vec<String>), Vec<usize>> = std::collections::HashMap::new();
    let mut of_submesh = Vec::with_capacity(view.submeshes.len());
    for units in &units_of {
        let Some(material) = material_of_units(file, units) else {
            of_submesh.push(None);
            continue;
        };
        let key = (material.name.clone(), material.textures.iter().map(|t| t.path.clone()).collect());
        let same = by_key.entry(key).or_default();
        let index = match same.iter().copied().find(|&i| materials.get(i) == Some(&material)) {
            Some(i) => i,
            None => {
                materials.push(material);
                same.push(materials.len() - 1);
                materials.len() - 1
            }
        };
        of_submesh.push(Some(index));
    }
    (materials, of_submesh)
}

/// The material of one submesh's texture units (base layer first).
pub(crate) fn material_of_units(file: &M2File, units: &[&TextureUnit]) -> Option<Material> {
    let base = units.first()?;
    let mut textures = Vec::new();
    for u in units {
        for k in 0..usize::from(u.texture_count.max(1)) {
            let texture = file
                .texture_lookup
                .get(usize::from(u.texture_combo_index) + k)
                .and_then(|&t| usize::try_from(t).ok())
                .and_then(|t| file.textures.get(t));
            let Some(texture) = texture else { continue };
            let coord = file.texture_unit_lookup.get(usize::from(u.texture_coord_combo_index) + k).copied();
            textures.push(TextureRef {
                path: name_text(&texture.filename),
                replaceable: (texture.kind != 0).then_some(texture.kind),
                uv_set: match coord {
                    Some(c) if c >= 0 => Some(c as u32),
                    Some(_) => None,
                    None => Some(0),
                },
                wrap_u: texture.flags & 1 != 0,
                wrap_v: texture.flags & 2 != 0,
            });
        }
    }
    let flags = file.render_flags.get(usize::from(base.render_flag_index)).copied().unwrap_or_default();
    let name = textures.first().map_or_else(|| "material".to_string(), texture_stem);
    Some(Material {
        name,
        textures,
        blend: blend_mode(flags.blend_mode),
        double_sided: flags.flags & 0x4 != 0,
        unlit: flags.flags & 0x1 != 0,
        unfogged: flags.flags & 0x2 != 0,
        depth_write: flags.flags & 0x10 == 0,
        specular: None,
    })
}

fn texture_stem(t: &TextureRef) -> String {
    if t.path.is_empty() {
        return format!("replaceable_{}", t.replaceable.unwrap_or(0));
    }
    let file = t.path.rsplit(['\\', '/']).next().unwrap_or(&t.path);
    file.split('.').next().unwrap_or(file).to_string()
}

/// The blend mode of an M2 blend-mode number.
pub fn blend_mode(mode: u16) -> BlendMode {
    match mode {
        1 => BlendMode::AlphaKey,
        2 => BlendMode::Alpha,
        3 => BlendMode::Add,
        4 => BlendMode::AddAlpha,
        5 => BlendMode::Modulate,
        6 => BlendMode::Modulate2x,
        _ => BlendMode::Opaque,
    }
}

/// True if any vertex has a second UV set (any bit set).
pub(crate) fn has_uv2(file: &M2File) -> bool {
    file.vertices.iter().any(|v| v.tex_coords2.iter().any(|c| c.to_bits() != 0))
}

/// The model's meshes, one per submesh of view 0; refused when they would take more than the build
/// budget (see [`BUILD_FIXED`]).
pub fn meshes_to_ir(file: &M2File, rank: &[usize], materials: &[Option<usize>]) -> Result<Vec<Mesh>, ReadError> {
    Budget::new(file).meshes(file)?;
    Ok(build_meshes(file, rank, materials))
}

/// [`meshes_to_ir`] once the budget is checked.
fn build_meshes(file: &M2File, rank: &[usize], materials: &[Option<usize>]) -> Vec<Mesh> {
    let Some(view) = file.views.first() else { return Vec::new() };
    let uv2 = has_uv2(file);
    let skinned = !file.bones.is_empty();
    view.submeshes
        .iter()
        .enumerate()
        .map(|(si, s)| {
            let (vs, vc) = submesh_vertices(s);
            let (is, ic) = submesh_indices(s);
            let globals = view.indices.get(vs..vs + vc).unwrap_or_default();
            let vertices: Vec<&Vertex> = globals.iter().filter_map(|&g| file.vertices.get(usize::from(g))).collect();
            let mut mesh = Mesh {
                name: format!("geoset {}", s.id),
                material: materials.get(si).copied().flatten(),
                positions: vertices.iter().map(|v| FRAME.vector_to_ir(v.position)).collect(),
                normals: vertices.iter().map(|v| FRAME.vector_to_ir(v.normal)).collect(),
                uv_sets: vec![vertices.iter().map(|v| v.tex_coords).collect()],
                part_id: Some(u32::from(s.id)),
                ..Mesh::default()
            };
            if uv2 {
                mesh.uv_sets.push(vertices.iter().map(|v| v.tex_coords2).collect());
            }
            if skinned {
                mesh.skin = Skin::from_vertices(vertices.iter().map(|v| influences(v, rank)));
            }
            mesh.triangles = view
                .triangles
                .get(is..is + ic)
                .unwrap_or_default()
                .chunks_exact(3)
                .map(|t| std::array::from_fn(|k| u32::from(t.get(k).copied().unwrap_or(0)).saturating_sub(vs as u32)))
                .collect();
            mesh
        })
        .collect()
}

/// A vertex's influences: weighted slots in order, weights `w / Σw`. A vertex without weight is
/// bound to its first slot's bone.
pub(crate) fn influences(v: &Vertex, rank: &[usize]) -> Vec<Influence> {
    let sum: u32 = v.bone_weights.iter().map(|&w| u32::from(w)).sum();
    let bone = |b: u8| rank.get(usize::from(b)).copied().unwrap_or(0) as u32;
    if sum == 0 {
        return vec![Influence { bone: bone(v.bone_indices[0]), weight: 1.0 }];
    }
    v.bone_weights
        .iter()
        .zip(&v.bone_indices)
        .filter(|(w, _)| **w > 0)
        .map(|(&w, &b)| Influence { bone: bone(b), weight: f32::from(w) / sum as f32 })
        .collect()
}

/// The model's attachments.
pub fn attachments_to_ir(file: &M2File, rank: &[usize]) -> Vec<ir::Attachment> {
    file.attachments
        .iter()
        .map(|a| ir::Attachment {
            name: format!("attachment {}", a.id),
            id: Some(a.id),
            bone: rank.get(usize::from(a.bone)).copied().unwrap_or(0),
            transform: Transform {
                translation: FRAME.vector_to_ir(sub3(a.position, pivot(file, i64::from(a.bone)))),
                ..Transform::IDENTITY
            },
        })
        .collect()
}

/// Maps a file to the common model (see the module docs).
pub fn to_ir(file: &M2File) -> Result<Model, ReadError> {
    let model = mapped(file)?;
    Ok(with_extras(model, file.clone()))
}

/// [`to_ir`] for a file the caller no longer needs: the file becomes the model's extras without
/// a copy (reading a model then holds the file once, not twice).
pub fn into_ir(file: M2File) -> Result<Model, ReadError> {
    let model = mapped(&file)?;
    Ok(with_extras(model, file))
}

/// The model without its extras.
fn mapped(file: &M2File) -> Result<Model, ReadError> {
    let mut budget = Budget::new(file);
    budget.animations(file)?;
    budget.meshes(file)?;
    budget.materials(file)?;
    let (order, rank) = bone_order(file);
    let (materials, of_submesh) = build_materials(file);
    Ok(Model {
        name: name_text(&file.name),
        source: Some(SourceInfo { format: crate::FORMAT, version: file.version }),
        bones: bones_to_ir(file, &order, &rank),
        meshes: build_meshes(file, &rank, &of_submesh),
        materials,
        animations: build_animations(file, &order, &rank),
        global_sequences: file.global_sequences.iter().map(|&g| seconds(i64::from(g))).collect(),
        attachments: attachments_to_ir(file, &rank),
        extras: None,
    })
}

/// Keeps the file (less its vertices, which the meshes hold) as the model's extras.
fn with_extras(model: Model, mut kept: M2File) -> Model {
    kept.vertices = Default::default();
    Model { extras: Some(FormatExtras::new(crate::FORMAT, M2Extras { file: kept }, &EXTRAS_OPS)), ..model }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pass-by-pass placement `bone_order` used to make.
    fn by_passes(file: &M2File) -> Vec<usize> {
        let n = file.bones.len();
        let mut order = Vec::new();
        let mut placed = vec![false; n];
        while order.len() < n {
            let before = order.len();
            for (i, b) in file.bones.iter().enumerate() {
                let parent_placed = usize::try_from(b.parent).map_or(true, |p| placed.get(p).copied().unwrap_or(true));
                if !placed[i] && parent_placed {
                    order.push(i);
                    placed[i] = true;
                }
            }
            if order.len() == before {
                break;
            }
        }
        order
    }

    #[test]
    fn bone_order_is_the_pass_order() {
        let mut rng = relic_testkit::Rng::new(11);
        for _ in 0..2000 {
            let n = rng.below(10);
            let bones = (0..n)
                .map(|_| crate::file::Bone { parent: rng.below(n + 3) as i16 - 2, ..Default::default() })
                .collect::<Vec<_>>();
            let file = M2File { bones: bones.into(), ..M2File::default() };
            let (order, rank) = bone_order(&file);
            assert_eq!(order, by_passes(&file), "{:?}", file.bones.iter().map(|b| b.parent).collect::<Vec<_>>());
            for (k, &f) in order.iter().enumerate() {
                assert_eq!(rank[f], k);
            }
        }
    }

    #[test]
    fn names_count_each_id() {
        let seq = |id| Sequence { id, ..Sequence::default() };
        let names = animation_names(&[seq(0), seq(4), seq(0), seq(0), seq(4)]);
        assert_eq!(names, ["Stand.0", "Walk.0", "Stand.1", "Stand.2", "Walk.1"]);
    }
}
