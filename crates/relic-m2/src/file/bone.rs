//! Bones (spec §6; m2-wrath.md §5.1): 108 bytes up to 259, 112 from 260, 88 from Wrath on.
//!
//! The file stores no bind matrices: a bone's matrix is
//! `T(pivot) · T(translation) · R(rotation) · S(scale) · T(−pivot)`, composed with its parent's.

use binrw::binrw;
use serde::{Deserialize, Serialize};

use super::ctx::Ctx;
use super::kind::{Ranged, TrackKind, by_kind};
use super::layout::Layout;
use super::record::{Record, record};

record! {
    size(version) = by_kind::<K>(if version >= 260 { 112 } else { 108 }, 88);
    /// A bone: 108 bytes up to 259, 112 from 260, 88 from Wrath on (shorter tracks).
    #[binrw]
    #[brw(little)]
    #[br(import(ctx: &Ctx))]
    #[bw(import(layout: &Layout))]
    #[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
    pub struct Bone<K: TrackKind = Ranged> {
        /// Key-bone id (index into the key-bone lookup), or −1.
        pub key_bone_id: i32,
        /// 0x1/0x2/0x4 ignore parent translation/scale/rotation; 0x8 spherical billboard;
        /// 0x10/0x20/0x40 cylindrical billboard about X/Y/Z; 0x200 animated.
        pub flags: u32,
        /// Parent bone, or −1 for a root.
        pub parent: i16,
        /// The wiki's "submesh id": 0 in Blizzard's Classic export; from Wrath on
        /// `floor(36 × |pivot − parent pivot|)`, 0 for a root (m2-wrath.md §5.1, wowserhq's
        /// `distToParent`).
        #[serde(alias = "distance_to_parent")]
        pub submesh_id: u16,
        /// 260 on: an unknown u32, from Wrath on known as a bone-name CRC (hash input unknown),
        /// kept as read. A bone made for an older layout has none: 0 is written, as
        /// m2-wrath.md §5.1 says to write for an invented bone.
        #[br(if(ctx.tbc()))]
        #[bw(if(layout.tbc()), map = |u: &Option<u32>| u.unwrap_or(0))]
        #[serde(alias = "name_crc")]
        pub unknown: Option<u32>,
        /// Animated translation, added to the pivot-relative offset.
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub translation: K::Track<[f32; 3]>,
        /// Animated rotation about the pivot.
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub rotation: K::Rotation,
        /// Animated scale about the pivot.
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub scale: K::Track<[f32; 3]>,
        /// Pivot: the bone's bind-pose position in model space.
        pub pivot: [f32; 3],
    }
}

impl Bone {
    /// Bytes of a bone record in a file of `version` (256–263).
    pub fn size(version: u32) -> u64 {
        <Self as Record>::size(version)
    }
}

/// Bone flag 0x1: ignore the parent's translation.
pub const BONE_IGNORE_PARENT_TRANSLATION: u32 = 0x1;
/// Bone flag 0x2: ignore the parent's scale.
pub const BONE_IGNORE_PARENT_SCALE: u32 = 0x2;
/// Bone flag 0x4: ignore the parent's rotation.
pub const BONE_IGNORE_PARENT_ROTATION: u32 = 0x4;
/// Bone flag 0x8: spherical billboard.
pub const BONE_BILLBOARD: u32 = 0x8;
/// Bone flags 0x10/0x20/0x40: cylindrical billboard about X/Y/Z.
pub const BONE_BILLBOARD_X: u32 = 0x10;
/// See [`BONE_BILLBOARD_X`].
pub const BONE_BILLBOARD_Y: u32 = 0x20;
/// See [`BONE_BILLBOARD_X`].
pub const BONE_BILLBOARD_Z: u32 = 0x40;
/// Bone flag 0x200: the bone is animated ("transformed").
pub const BONE_ANIMATED: u32 = 0x200;
