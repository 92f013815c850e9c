//! Points on the skeleton: attachments and timed events (spec §13; m2-wrath.md §5.4).

use binrw::binrw;
use serde::{Deserialize, Serialize};

use super::ctx::Ctx;
use super::kind::{Ranged, TrackKind, by_kind};
use super::layout::Layout;
use super::record::record;

record! {
    size(_version) = by_kind::<K>(48, 40);
    /// An attachment point (48 bytes; 40 from Wrath on).
    #[binrw]
    #[brw(little)]
    #[br(import(ctx: &Ctx))]
    #[bw(import(layout: &Layout))]
    #[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
    pub struct Attachment<K: TrackKind = Ranged> {
        /// Slot id (0 shield … 34; see the attachment lookup).
        pub id: u32,
        /// Bone the point moves with.
        pub bone: u16,
        /// Unknown (0).
        pub unknown: u16,
        /// Position in model space (bind pose).
        pub position: [f32; 3],
        /// Visibility (1 shown).
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub visibility: K::Track<u8>,
    }
}

record! {
    size(_version) = by_kind::<K>(44, 36);
    /// A timed event (44 bytes; 36 from Wrath on).
    #[binrw]
    #[brw(little)]
    #[br(import(ctx: &Ctx))]
    #[bw(import(layout: &Layout))]
    #[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
    pub struct Event<K: TrackKind = Ranged> {
        /// Identifier such as `$CSS`, `$FSD`, `$DTH`.
        pub identifier: [u8; 4],
        /// Event data (a sound or effect id).
        pub data: u32,
        /// Bone the event happens at.
        pub bone: u32,
        /// Position in model space.
        pub position: [f32; 3],
        /// Firing times.
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub times: K::Events,
    }
}

impl<K: TrackKind> Event<K> {
    /// The event's name: its identifier (`$CSS`) up to the first NUL, Windows-1252.
    pub fn name(&self) -> String {
        super::array::text(&self.identifier)
    }
}
