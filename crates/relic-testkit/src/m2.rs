//! World of Warcraft M2 files (versions 256–263) laid out byte by byte from the format notes
//! (`shared/specs/m2.md`), independent of relic-m2's writer. The fixtures (`cargo xtask
//! fixtures`) and relic-m2's generator tests build their files with it, so a bug in the reader
//! and the same bug in the writer cannot cancel each other out.
//!
//! A file is a tree of [`Block`]s: the header is a record ([`Rec`]) whose `(count, offset)` pairs
//! point to blocks, records in those blocks point to further blocks. [`build`] places them in
//! Blizzard's order (spec §1: header order, each record array followed by the blocks its records
//! point to, depth first, every block 16-byte aligned) or in a foreign order.

/// A block of the file: its bytes, the count its pair states, and the blocks its records'
/// `(count, offset)` pairs point to (by the position of the pair inside `bytes`).
#[derive(Debug, Clone, Default)]
pub struct Block {
    /// The count the pair states (records, or keys for Hermite/Bezier values).
    pub count: u32,
    /// The block's bytes.
    pub bytes: Vec<u8>,
    /// `(position of the pair in bytes, block)`.
    pub subs: Vec<(usize, Block)>,
}

impl Block {
    /// A block of `count` entries with these bytes.
    pub fn of(count: usize, bytes: Vec<u8>) -> Self {
        Block { count: count as u32, bytes, subs: Vec::new() }
    }
    /// A u16 array.
    pub fn u16s(v: &[u16]) -> Self {
        Block::of(v.len(), v.iter().flat_map(|x| x.to_le_bytes()).collect())
    }
    /// An i16 array.
    pub fn i16s(v: &[i16]) -> Self {
        Block::of(v.len(), v.iter().flat_map(|x| x.to_le_bytes()).collect())
    }
    /// A u32 array.
    pub fn u32s(v: &[u32]) -> Self {
        Block::of(v.len(), v.iter().flat_map(|x| x.to_le_bytes()).collect())
    }
    /// `count` entries of f32 values.
    pub fn f32s(count: usize, v: &[f32]) -> Self {
        Block::of(count, floats(v))
    }
    /// A NUL-terminated string (the count includes the NUL).
    pub fn text(s: &str) -> Self {
        let mut v = s.as_bytes().to_vec();
        v.push(0);
        Block::of(v.len(), v)
    }
    /// The same block stating another count.
    pub fn with_count(mut self, count: u32) -> Self {
        self.count = count;
        self
    }
}

/// The contents of a 28-byte track (20 without values: event tracks).
#[derive(Debug, Clone, Default)]
pub struct Track {
    /// 0 none, 1 linear, 2 Hermite, 3 Bezier.
    pub interp: u16,
    /// Global sequence, or −1.
    pub gseq: i16,
    /// `(first, last)` per sequence (plus the terminator, if wanted).
    pub ranges: Vec<(u32, u32)>,
    /// Key times, ms.
    pub ts: Vec<u32>,
    /// The values' bytes (three values per key for Hermite and Bezier).
    pub values: Vec<u8>,
}

impl Track {
    /// No key, driven by the sequences.
    pub fn empty() -> Self {
        Track { gseq: -1, ..Track::default() }
    }
    /// One step key at time 0 without ranges (a constant, as Blizzard stores them).
    pub fn constant(values: Vec<u8>) -> Self {
        Track { interp: 0, gseq: -1, ranges: vec![], ts: vec![0], values }
    }
}

/// A record under construction: its bytes with `(count, offset)` pairs and their blocks.
#[derive(Debug, Clone, Default)]
pub struct Rec {
    bytes: Vec<u8>,
    subs: Vec<(usize, Block)>,
}

impl Rec {
    /// An empty record.
    pub fn new() -> Self {
        Self::default()
    }
    /// Appends raw bytes.
    pub fn raw(&mut self, v: &[u8]) -> &mut Self {
        self.bytes.extend_from_slice(v);
        self
    }
    crate::bytes::le_appends!();

    /// Appends a `(count, offset)` pair pointing to `block` (an empty block stays `(0, 0)`).
    pub fn arr(&mut self, block: Block) -> &mut Self {
        let at = self.bytes.len();
        self.u32(0).u32(0);
        if block.count > 0 {
            self.subs.push((at, block));
        }
        self
    }
    /// Appends a 28-byte track: interpolation, global sequence, ranges, timestamps, values.
    pub fn track(&mut self, t: &Track) -> &mut Self {
        self.event_track(t);
        self.arr(Block::of(t.ts.len(), t.values.clone()))
    }
    /// Appends a 20-byte event track: interpolation, global sequence, ranges, timestamps.
    pub fn event_track(&mut self, t: &Track) -> &mut Self {
        self.u16(t.interp).i16(t.gseq);
        let ranges: Vec<u8> = t.ranges.iter().flat_map(|(a, z)| [a.to_le_bytes(), z.to_le_bytes()]).flatten().collect();
        self.arr(Block::of(t.ranges.len(), ranges));
        self.arr(Block::u32s(&t.ts))
    }
    /// The record's bytes, for a block of plain values (a record with pairs is placed with
    /// [`records`] instead).
    pub fn into_bytes(self) -> Vec<u8> {
        debug_assert!(self.subs.is_empty(), "a record with pairs taken as plain bytes");
        self.bytes
    }
    /// Bytes so far.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }
    /// True if nothing was appended.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }
}

/// Records as one array block.
pub fn records(recs: Vec<Rec>) -> Block {
    let mut block = Block { count: recs.len() as u32, ..Block::default() };
    for r in recs {
        let base = block.bytes.len();
        block.bytes.extend(r.bytes);
        block.subs.extend(r.subs.into_iter().map(|(at, b)| (base + at, b)));
    }
    block
}

/// Little-endian f32 bytes.
pub fn floats(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Excess-32767 encoding of a quaternion component (spec §8).
pub fn compress(f: f32) -> i16 {
    let r = (f64::from(f) * 32767.0).round() as i32;
    (if f > 0.0 { r - 32768 } else { r + 32767 }) as i16
}

/// Rotation key bytes: 4×f32 up to 259, 4×i16 compressed from 260 (spec §8).
pub fn quats(version: u32, qs: &[[f32; 4]]) -> Vec<u8> {
    if version >= 260 {
        qs.iter().flat_map(|q| q.iter().flat_map(|c| compress(*c).to_le_bytes())).collect()
    } else {
        qs.iter().flat_map(|q| floats(q)).collect()
    }
}

/// Where [`build`] puts the blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// Blizzard's: header order, depth first, 16-byte aligned, the file padded to 16.
    Blizzard,
    /// The header's blocks in reverse order, 4-byte aligned (a layout another tool could write).
    Reversed,
}

/// The file: the header record, then its blocks placed in `order`.
pub fn build(header: Rec, order: Order) -> Vec<u8> {
    let header = records(vec![header]);
    let mut out = header.bytes.clone();
    let (align, reverse) = match order {
        Order::Blizzard => (16, false),
        Order::Reversed => (4, true),
    };
    let subs: Vec<&(usize, Block)> =
        if reverse { header.subs.iter().rev().collect() } else { header.subs.iter().collect() };
    for (off, sub) in subs {
        place(&mut out, *off, sub, align);
    }
    pad(&mut out, align);
    out
}

fn pad(out: &mut Vec<u8>, align: usize) {
    while !out.len().is_multiple_of(align) {
        out.push(0);
    }
}

/// Writes `block` at the end of `out` (aligned), fills its pair at `pair_at`, then everything
/// it points to, depth first.
fn place(out: &mut Vec<u8>, pair_at: usize, block: &Block, align: usize) {
    if block.count == 0 {
        return;
    }
    pad(out, align);
    let at = out.len() as u32;
    crate::write_at(out, pair_at, &block.count.to_le_bytes());
    crate::write_at(out, pair_at + 4, &at.to_le_bytes());
    out.extend_from_slice(&block.bytes);
    for (off, sub) in &block.subs {
        place(out, at as usize + off, sub, align);
    }
}

/// Layouts other writers than Blizzard's exporter leave (issue 27 class 3), made from a file of
/// the builder (or one written in Blizzard's layout) the way each is described: what relic must
/// write back byte for byte.
pub mod layouts {
    fn u32_at(bytes: &[u8], at: usize) -> usize {
        bytes.get(at..at + 4).and_then(|b| b.try_into().ok()).map_or(0, |b| u32::from_le_bytes(b) as usize)
    }

    fn slice(bytes: &[u8], at: usize, len: usize) -> Vec<u8> {
        bytes.get(at..at + len).unwrap_or_default().to_vec()
    }

    /// The model name stored behind a NUL: `"Name\0"` becomes `"\0Name"` (the same count).
    /// Returns the name's text.
    pub fn name_behind_nul(m2: &mut [u8]) -> String {
        let (count, at) = (u32_at(m2, 0x08), u32_at(m2, 0x0C));
        let text = slice(m2, at, count.saturating_sub(1));
        crate::write_at(m2, at, &[0]);
        crate::write_at(m2, at + 1, &text);
        String::from_utf8_lossy(&text).into_owned()
    }

    /// The model name stored as NULs only.
    pub fn no_name_text(m2: &mut [u8]) {
        let (count, at) = (u32_at(m2, 0x08), u32_at(m2, 0x0C));
        crate::write_at(m2, at, &vec![0; count]);
    }

    /// Sequence `s` (256–263: 68-byte records, the box at 0x24) with an empty box stored inverted:
    /// min at `f32::MAX`, max at `-f32::MAX`.
    pub fn inverted_box(m2: &mut [u8], s: usize) {
        let at = u32_at(m2, 0x20) + 68 * s + 0x24;
        let corners = [f32::MAX, f32::MAX, f32::MAX, -f32::MAX, -f32::MAX, -f32::MAX];
        crate::write_at(m2, at, &super::floats(&corners));
    }

    /// Points the array whose pair is at `shorter` at the start of the one whose pair is at
    /// `longer`, as a writer that stores a lookup as a prefix of another does; false (and nothing
    /// changed) unless the shorter one's entries (`entry` bytes each) are the longer one's first.
    pub fn shared_prefix(m2: &mut [u8], shorter: usize, longer: usize, entry: usize) -> bool {
        let (n, a) = (u32_at(m2, shorter), u32_at(m2, shorter + 4));
        let (m, b) = (u32_at(m2, longer), u32_at(m2, longer + 4));
        if n >= m || slice(m2, a, n * entry) != slice(m2, b, n * entry) {
            return false;
        }
        crate::write_at(m2, shorter + 4, &(b as u32).to_le_bytes());
        true
    }

    /// A `.skin` of 264 given Cataclysm's header ([`cataclysm_skin_header`]) whose shadow-batch
    /// pair counts `count` records at 256 bytes past the end of the file, as ported models have.
    pub fn shadow_batches_past_end(skin: &[u8], count: u32) -> Vec<u8> {
        let mut out = cataclysm_skin_header(skin);
        let past = out.len() as u32 + 256;
        crate::write_at(&mut out, 0x30, &count.to_le_bytes());
        crate::write_at(&mut out, 0x34, &past.to_le_bytes());
        out
    }

    /// A `.skin` of 264 (48-byte header) given Cataclysm's header: 56 bytes (the shadow-batch
    /// pair at 0x30, empty) padded to 0x40, every array 16 bytes further on.
    pub fn cataclysm_skin_header(skin: &[u8]) -> Vec<u8> {
        let mut out = slice(skin, 0, 0x30);
        out.extend_from_slice(&[0; 16]);
        out.extend_from_slice(skin.get(0x30..).unwrap_or_default());
        for pair in [0x04, 0x0C, 0x14, 0x1C, 0x24] {
            let offset = u32_at(&out, pair + 4);
            if offset != 0 {
                crate::write_at(&mut out, pair + 4, &(offset as u32 + 16).to_le_bytes());
            }
        }
        out
    }
}
