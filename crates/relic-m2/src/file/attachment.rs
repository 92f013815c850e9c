//! Points on the skeleton: attachments and timed events (spec §13).

use binrw::binrw;
use serde::{Deserialize, Serialize};

use super::layout::Layout;
use super::record::{Record, Visitor};
use super::track::{Ctx, EventTrack, Track};

/// An attachment point (48 bytes).
#[binrw]
#[brw(little)]
#[br(import(ctx: Ctx))]
#[bw(import(layout: &Layout))]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Attachment {
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
    pub visibility: Track<u8>,
}

impl Record for Attachment {
    const PAIRS: usize = 3;
    fn size(_: u32) -> u64 {
        48
    }
    fn visit<'f, V: Visitor<'f>>(&'f self, v: &mut V) {
        self.visibility.visit("visibility", v);
    }
}

/// A timed event (44 bytes).
#[binrw]
#[brw(little)]
#[br(import(ctx: Ctx))]
#[bw(import(layout: &Layout))]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Event {
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
    pub times: EventTrack,
}

impl Record for Event {
    const PAIRS: usize = 2;
    fn size(_: u32) -> u64 {
        44
    }
    fn visit<'f, V: Visitor<'f>>(&'f self, v: &mut V) {
        self.times.visit("times", v);
    }
}

impl Event {
    /// The event's name: its identifier (`$CSS`) up to the first NUL, Windows-1252.
    pub fn name(&self) -> String {
        super::array::text(&self.identifier)
    }
}
