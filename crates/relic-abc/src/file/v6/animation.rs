//! The v6 `Animation`, `AnimDims` and `TransformInfo` sections (abc.md §3.4–§3.6): skeletal and
//! vertex animation interleaved per node.

use binrw::{BinRead, BinResult, binrw};
use relic_core::binary::{LenString, check_count, counted, pod_vec};

use crate::file::common::{NodeKey, at_index, pods};

/// `Animation` section body.
#[binrw]
#[brw(little)]
#[br(import(md_counts: &[u32]))]
#[derive(Debug, Clone, PartialEq)]
pub struct V6Animations {
    #[br(temp)]
    #[bw(calc = animations.len() as u32)]
    count: u32,
    /// The animations.
    #[br(parse_with = read_animations, args(count, md_counts))]
    pub animations: Vec<V6Animation>,
}

#[binrw::parser(reader, endian)]
fn read_animations(count: u32, md_counts: &[u32]) -> BinResult<Vec<V6Animation>> {
    check_count(reader, u64::from(count), 34 + 24 * md_counts.len() as u64)?;
    let mut out = Vec::with_capacity(count as usize);
    for i in 0..count as usize {
        out.push(V6Animation::read_options(reader, endian, (md_counts,)).map_err(|e| at_index(e, i))?);
    }
    Ok(out)
}

/// One animation: keyframes, then every node's track.
#[binrw]
#[brw(little)]
#[br(import(md_counts: &[u32]))]
#[derive(Debug, Clone, PartialEq)]
pub struct V6Animation {
    /// Name the game plays it by.
    pub name: LenString,
    /// Length in milliseconds (= last key time in known files).
    pub length: u32,
    /// Model-space box of the whole animation.
    pub bounds_min: [f32; 3],
    /// See `bounds_min`.
    pub bounds_max: [f32; 3],
    #[br(temp)]
    #[bw(calc = keyframes.len() as u32)]
    num_keyframes: u32,
    /// Key times, posed boxes and frame strings.
    #[br(parse_with = counted, args(u64::from(num_keyframes), 30))]
    pub keyframes: Vec<V6Keyframe>,
    /// One track per node, depth-first order.
    #[br(parse_with = read_node_anims, args(md_counts, num_keyframes))]
    pub node_anims: Vec<V6NodeAnim>,
}

#[binrw::parser(reader, endian)]
fn read_node_anims(md_counts: &[u32], keys: u32) -> BinResult<Vec<V6NodeAnim>> {
    check_count(reader, md_counts.len() as u64, 24 + 28 * u64::from(keys))?;
    let mut out = Vec::with_capacity(md_counts.len());
    for (i, &md) in md_counts.iter().enumerate() {
        out.push(V6NodeAnim::read_options(reader, endian, (keys, md)).map_err(|e| at_index(e, i))?);
    }
    Ok(out)
}

/// A keyframe.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq)]
pub struct V6Keyframe {
    /// Milliseconds from the start of the animation.
    pub time: u32,
    /// Model-space box of the posed mesh at this key (all zero where the exporter left it empty).
    pub bounds_min: [f32; 3],
    /// See `bounds_min`.
    pub bounds_max: [f32; 3],
    /// Game event at this key (`FIRE_KEY`, `SOUND_KEY shotgun\select`), often empty.
    pub frame_string: LenString,
}

/// One node's track in one animation.
#[binrw]
#[brw(little)]
#[br(import(key_count: u32, md_count: u32))]
#[derive(Debug, Clone, PartialEq)]
pub struct V6NodeAnim {
    /// One parent-relative transform per keyframe; `local = T(translation) · R(conjugate(rotation))`.
    #[br(parse_with = pod_vec, args(u64::from(key_count),))]
    #[bw(write_with = pods)]
    pub keys: Vec<NodeKey>,
    /// Mesh-deformation frames: per keyframe, per MD vertex, 3 bytes (key-major).
    #[br(parse_with = pod_vec, args(u64::from(key_count) * u64::from(md_count),))]
    #[bw(write_with = pods)]
    pub vertex_frames: Vec<[u8; 3]>,
    /// Decompression: node-local position = byte · scale + translation.
    pub scale: [f32; 3],
    /// See `scale`.
    pub translation: [f32; 3],
}

impl V6Animations {
    /// Bytes of the body as written.
    pub(crate) fn size(&self) -> usize {
        let anim = |a: &V6Animation| {
            2 + a.name.0.len()
                + 4
                + 24
                + 4
                + a.keyframes.iter().map(|k| 30 + k.frame_string.0.len()).sum::<usize>()
                + a.node_anims.iter().map(|t| 28 * t.keys.len() + 3 * t.vertex_frames.len() + 24).sum::<usize>()
        };
        4 + self.animations.iter().map(anim).sum::<usize>()
    }
}

/// `AnimDims` section body (abc.md §3.5): one vector per animation, no count of its own.
#[binrw]
#[brw(little)]
#[br(import(count: u32))]
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AnimDims {
    /// Object dimensions per animation.
    #[br(parse_with = pod_vec, args(u64::from(count),))]
    #[bw(write_with = pods)]
    pub dims: Vec<[f32; 3]>,
}

/// `TransformInfo` section body (abc.md §3.6).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TransformInfo {
    /// ≠ 0: the engine mirrors the geometry's Z axis.
    pub flip_mat: i32,
    /// ≠ 0: key rotations are stored conjugated.
    pub fix_anim_keyframes: i32,
}
