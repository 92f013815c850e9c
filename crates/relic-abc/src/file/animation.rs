//! The v9–v13 `Animation` section (abc.md §4.5).
//!
//! v9–v11 have no `InterpolationTime`; v13 adds a per-node prefix and 8 bytes per key.

use binrw::binrw;
use bytemuck::{Pod, Zeroable};
use relic_core::binary::{LenString, counted, counted_args, pod_vec};

use crate::file::common::{NodeKey, pods};

/// `Animation` section body.
#[binrw]
#[brw(little)]
#[br(import(version: u32, node_count: u32))]
#[derive(Debug, Clone, PartialEq)]
pub struct Animations {
    #[br(temp)]
    #[bw(calc = animations.len() as u32)]
    count: u32,
    /// The model's own animations.
    #[br(parse_with = counted_args, args(u64::from(count), 22, (version, node_count)))]
    pub animations: Vec<Animation>,
}

/// One animation.
#[binrw]
#[brw(little)]
#[br(import(version: u32, node_count: u32))]
#[derive(Debug, Clone, PartialEq)]
pub struct Animation {
    /// Object half-extents while this animation plays (24, 53, 24 for NOLF humans).
    pub dims: [f32; 3],
    /// Name the game plays it by.
    pub name: LenString,
    /// −1 in every known file (LTB's compression-type slot).
    pub marker: i32,
    /// v ≥ 12: milliseconds to blend into this animation.
    #[br(if(version >= 12))]
    pub interpolation_time: Option<u32>,
    #[br(temp)]
    #[bw(calc = keyframes.len() as u32)]
    keyframe_count: u32,
    /// Key times and their command strings.
    #[br(parse_with = counted, args(u64::from(keyframe_count), 6))]
    pub keyframes: Vec<Keyframe>,
    /// Per node, one transform per keyframe.
    #[br(args(version, node_count, keyframe_count))]
    pub tracks: Tracks,
}

/// A keyframe: time and command string.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq)]
pub struct Keyframe {
    /// Milliseconds from the start of the animation.
    pub time: u32,
    /// Game event at this key (often empty).
    pub command: LenString,
}

/// The transforms of an animation, node after node in node order, one per keyframe. v9–v12 store
/// the plain 28-byte transforms; v13 puts an `i32` before each node's keys and 8 bytes after
/// each key (abc.md §4.8).
#[binrw]
#[brw(little)]
#[br(import(version: u32, node_count: u32, keys: u32))]
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Tracks {
    /// v9–v12: key `k` of node `n` at `n · keyframe_count + k`; parent-relative, rotation not
    /// conjugated. Empty in v13.
    #[br(if(version < 13), parse_with = pod_vec, args(u64::from(node_count) * u64::from(keys),))]
    #[bw(write_with = pods)]
    pub transforms: Vec<NodeKey>,
    /// v13: one track per node. Empty before v13.
    #[br(if(version >= 13), parse_with = counted_args, args(u64::from(node_count), 4 + 36 * u64::from(keys), (keys,)))]
    pub v13: Vec<V13Track>,
}

impl Tracks {
    /// The keys of node `n` (empty if out of range).
    pub fn node(&self, n: usize, keyframe_count: usize) -> Vec<NodeKey> {
        match self.v13.get(n) {
            Some(t) => t.keys.iter().map(|k| k.transform).collect(),
            None => self.transforms.get(n * keyframe_count..(n + 1) * keyframe_count).unwrap_or_default().to_vec(),
        }
    }

    /// Bytes of the tracks as written.
    pub(crate) fn size(&self) -> usize {
        28 * self.transforms.len() + self.v13.iter().map(|t| 4 + 36 * t.keys.len()).sum::<usize>()
    }
}

/// One node's track in a v13 animation.
#[binrw]
#[brw(little)]
#[br(import(keys: u32))]
#[derive(Debug, Clone, PartialEq, Default)]
pub struct V13Track {
    /// The `i32` before the keys (−1 per the sources).
    pub prefix: i32,
    /// The keys.
    #[br(parse_with = pod_vec, args(u64::from(keys),))]
    #[bw(write_with = pods)]
    pub keys: Vec<V13Key>,
}

/// A v13 key: the transform and 8 bytes of unknown meaning (zeros in Global Operations, S11).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default, Pod, Zeroable, serde::Serialize, serde::Deserialize)]
pub struct V13Key {
    /// Parent-relative transform.
    pub transform: NodeKey,
    /// The 8 bytes after it.
    pub extra: [u8; 8],
}
