//! Random valid M2 files (versions 256–263) within the ranges of `shared/specs/m2.md`, laid out
//! byte by byte with relic-testkit's independent builder (never relic-m2's writer).
//!
//! What varies: the version (Classic and TBC record sizes, float and compressed rotations),
//! 0, 1 or many bones (parents before children), sequences and global sequences, tracks with 0,
//! 1 or many keys, every interpolation, constant, global-sequence and ranged tracks (ranges
//! sharing keys, sequences without keys), 1–4 views with their palettes, global flags (0x8 with
//! blend overrides from 260), empty names, textures of every kind, colours, texture weights and
//! transforms, attachments, events, lights, cameras, collision, and 0 or 1 ribbon and particle.

// Test support: every index below is drawn below the length it indexes.
#![allow(clippy::indexing_slicing)]

mod effects;
mod geometry;

use relic_testkit::Rng;
use relic_testkit::m2::{Block, Order, Rec, Track, floats, quats};

/// One generated file and what the test needs to know about it.
pub(crate) struct Generated {
    pub(crate) bytes: Vec<u8>,
    /// What was chosen, for failure messages.
    pub(crate) what: String,
}

/// The choices every part of the file depends on.
pub(crate) struct Gen {
    pub(crate) rng: Rng,
    pub(crate) version: u32,
    /// `(start, end)` of each sequence, ms.
    pub(crate) sequences: Vec<(u32, u32)>,
    /// Durations of the global sequences, ms.
    pub(crate) globals: Vec<u32>,
    pub(crate) bones: usize,
    pub(crate) textures: usize,
    pub(crate) render_flags: usize,
    pub(crate) colors: usize,
    pub(crate) what: Vec<String>,
}

impl Gen {
    pub(crate) fn tbc(&self) -> bool {
        self.version >= 260
    }

    /// A value of `n` floats in `[-r, r)`.
    pub(crate) fn vec(&mut self, n: usize, r: f32) -> Vec<u8> {
        let v: Vec<f32> = (0..n).map(|_| self.rng.range(-r, r)).collect();
        floats(&v)
    }

    /// A rotation value in the file's rotation type.
    fn quat(&mut self) -> Vec<u8> {
        let q = relic_testkit::models::rotation(&mut self.rng);
        quats(self.version, &[q])
    }

    /// An i16 value.
    pub(crate) fn short(&mut self) -> Vec<u8> {
        (self.rng.below(0x8000) as i16).to_le_bytes().to_vec()
    }

    /// A track whose values are made by `value`: no key, a constant, a global-sequence track, or
    /// keys per sequence with ranges (and the `(0, 0)` terminator).
    pub(crate) fn track(&mut self, value: fn(&mut Gen) -> Vec<u8>) -> Track {
        self.any_track(value, false)
    }

    /// A camera track: every key a spline key (value, in, out) whatever the interpolation.
    pub(crate) fn spline(&mut self, value: fn(&mut Gen) -> Vec<u8>) -> Track {
        self.any_track(value, true)
    }

    fn any_track(&mut self, value: fn(&mut Gen) -> Vec<u8>, spline: bool) -> Track {
        let interp = self.rng.below(4) as u16;
        let per_key = if spline || interp >= 2 { 3 } else { 1 };
        let mut t = Track { interp, gseq: -1, ..Track::default() };
        let values = |g: &mut Gen, keys: usize| (0..keys * per_key).flat_map(|_| value(g)).collect::<Vec<u8>>();
        match self.rng.below(5) {
            0 => return Track::empty(),
            1 => {
                // Constant: one key, no ranges, at 0 or at the first sequence's start (step as
                // Blizzard stores them, or any interpolation).
                if self.rng.chance(0.7) {
                    t.interp = 0;
                }
                let per_key = if spline || t.interp >= 2 { 3 } else { 1 };
                let at = if self.rng.chance(0.5) { self.sequences.first().map_or(0, |s| s.0) } else { 0 };
                t.ts = vec![at];
                t.values = (0..per_key).flat_map(|_| value(self)).collect();
            }
            2 if !self.globals.is_empty() => {
                let g = self.rng.below(self.globals.len());
                t.gseq = g as i16;
                let (duration, wanted) = (self.globals[g], self.rng.between(1, 4));
                t.ts = times(&mut self.rng, 0, duration, wanted);
                t.values = values(self, t.ts.len());
            }
            _ => {
                for s in 0..self.sequences.len() {
                    let (start, end) = self.sequences[s];
                    if s > 0 && self.rng.chance(0.15) {
                        // Two sequences on the same keys (as aliases share them).
                        let previous = t.ranges[s - 1];
                        t.ranges.push(previous);
                        continue;
                    }
                    let wanted = self.rng.below(4);
                    let keys = times(&mut self.rng, start, end, wanted);
                    if keys.is_empty() {
                        t.ranges.push((1, 0)); // first after last: no key for this sequence
                        continue;
                    }
                    let first = t.ts.len() as u32;
                    t.ranges.push((first, first + keys.len() as u32 - 1));
                    t.ts.extend(keys);
                }
                match self.rng.below(10) {
                    // Spec §7: a count other than sequences + 1 means no animation for the
                    // sequences without one.
                    0 => {}
                    1 => t.ranges.extend([(0, 0), (0, 0)]),
                    _ => t.ranges.push((0, 0)),
                }
                t.values = values(self, t.ts.len());
            }
        }
        t
    }

    /// An event track: firing times per sequence with half-open ranges, or on a global sequence.
    pub(crate) fn event_track(&mut self) -> Track {
        let mut t = Track { interp: 0, gseq: -1, ..Track::default() };
        if !self.globals.is_empty() && self.rng.chance(0.2) {
            let g = self.rng.below(self.globals.len());
            t.gseq = g as i16;
            let wanted = self.rng.between(1, 2);
            t.ts = times(&mut self.rng, 0, self.globals[g], wanted);
            return t;
        }
        for s in 0..self.sequences.len() {
            let (start, end) = self.sequences[s];
            let wanted = self.rng.below(3);
            let keys = times(&mut self.rng, start, end, wanted);
            let first = t.ts.len() as u32;
            t.ranges.push((first, first + keys.len() as u32));
            t.ts.extend(keys);
        }
        t.ranges.push((0, 0));
        t
    }
}

/// Up to `n` strictly increasing times in `start..=end`.
fn times(rng: &mut Rng, start: u32, end: u32, n: usize) -> Vec<u32> {
    let span = u64::from(end - start) + 1;
    let n = (n as u64).min(span) as usize;
    let mut picked: Vec<u32> = Vec::with_capacity(n);
    while picked.len() < n {
        let t = start + rng.below(span as usize) as u32;
        if !picked.contains(&t) {
            picked.push(t);
        }
    }
    picked.sort_unstable();
    picked
}

/// A random valid file from `seed`.
pub(crate) fn file(seed: u64) -> Generated {
    let mut rng = Rng::new(seed);
    let version = 256 + rng.below(8) as u32;
    let mut g = Gen {
        rng,
        version,
        sequences: Vec::new(),
        globals: Vec::new(),
        bones: 0,
        textures: 0,
        render_flags: 0,
        colors: 0,
        what: vec![format!("v{version}")],
    };
    // Global sequences (a duration of 0 occurs in the real file) and sequences on one timeline.
    g.globals =
        (0..g.rng.below(3)).map(|_| if g.rng.chance(0.2) { 0 } else { g.rng.between(1, 3000) as u32 }).collect();
    let mut at = if g.rng.chance(0.5) { 3333 } else { 0 };
    for _ in 0..g.rng.below(4) {
        if let Some(&last) = g.sequences.last().filter(|_| g.rng.chance(0.15)) {
            g.sequences.push(last); // an alias: the same window as the sequence before
            continue;
        }
        let duration = g.rng.between(0, 2000) as u32;
        g.sequences.push((at, at + duration));
        at += duration + g.rng.between(1, 4000) as u32;
    }
    g.bones = match g.rng.below(4) {
        0 => 0,
        1 => 1,
        _ => g.rng.between(2, 7),
    };
    g.what.push(format!("{} sequences, {} globals, {} bones", g.sequences.len(), g.globals.len(), g.bones));
    let mut h = Rec::new();
    h.raw(b"MD20").u32(version);
    h.arr(match g.rng.below(3) {
        0 => Block::default(), // an empty name
        1 => Block::text(""),
        _ => Block::text("Generated Model"),
    });
    let overrides = g.tbc() && g.rng.chance(0.3);
    // Flag 0x8 means blend overrides from 260; a Classic file may carry the bit all the same.
    let stray = !g.tbc() && g.rng.chance(0.1);
    let flags = (g.rng.below(4) as u32) | if overrides || stray { 0x8 } else { 0 };
    h.u32(flags);
    h.arr(Block::u32s(&g.globals));
    h.arr(sequences(&mut g));
    let (sequence_lookup, playable) = lookups(&mut g);
    h.arr(sequence_lookup);
    h.arr(playable);
    let (bones, key_bone_lookup) = geometry::bones(&mut g);
    h.arr(bones);
    h.arr(key_bone_lookup);
    let geometry = geometry::geometry(&mut g);
    h.arr(geometry.vertices);
    h.arr(geometry.views);
    h.arr(geometry.colors);
    h.arr(geometry.textures);
    h.arr(geometry.transparency);
    h.arr(Block::default()); // texture flipbooks: never populated
    h.arr(geometry.texture_transforms);
    h.arr(geometry.replaceable_lookup);
    h.arr(geometry.render_flags);
    h.arr(geometry.bone_lookup);
    h.arr(geometry.texture_lookup);
    h.arr(geometry.texture_unit_lookup);
    h.arr(geometry.transparency_lookup);
    h.arr(geometry.texture_transform_lookup);
    let bounds = g.vec(6, 2.0);
    h.raw(&sorted_box(&bounds)).f32(g.rng.range(0.0, 3.0));
    let collision_box = g.vec(6, 2.0);
    h.raw(&sorted_box(&collision_box)).f32(g.rng.range(0.0, 3.0));
    effects::collision(&mut g, &mut h);
    effects::points(&mut g, &mut h);
    effects::scene(&mut g, &mut h);
    if overrides {
        let n = g.rng.below(3);
        h.arr(Block::u16s(&(0..n).map(|_| g.rng.below(7) as u16).collect::<Vec<_>>()));
    }
    Generated { bytes: relic_testkit::m2::build(h, Order::Blizzard), what: g.what.join("; ") }
}

/// A box's six floats with each minimum at most its maximum.
pub(crate) fn sorted_box(bytes: &[u8]) -> Vec<u8> {
    let f: Vec<f32> = bytes.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    let (lo, hi): (Vec<f32>, Vec<f32>) = (0..3).map(|i| (f[i].min(f[i + 3]), f[i].max(f[i + 3]))).unzip();
    floats(&[lo, hi].concat())
}

/// The sequences (68 bytes each): ids with variations chained by `next_variation`.
fn sequences(g: &mut Gen) -> Block {
    let ids: Vec<u16> = g.sequences.iter().map(|_| [0u16, 0, 4, 5, 1, 16, 130][g.rng.below(7)]).collect();
    g.what.push(format!("sequence ids {ids:?}"));
    // Next variations chained as in Blizzard's files, or all −1 (as another tool may write).
    let chained = g.rng.chance(0.8);
    let mut r = Rec::new();
    for (i, &(start, end)) in g.sequences.clone().iter().enumerate() {
        let next = ids.iter().skip(i + 1).position(|&x| x == ids[i]).map_or(-1, |k| (i + 1 + k) as i16);
        let next = if chained { next } else { -1 };
        r.u16(ids[i]).u16(g.rng.below(2) as u16).u32(start).u32(end).f32(g.rng.range(0.0, 7.0));
        // Flags: 0x1 non-looping; other bits are kept as read (spec §5: "preserve").
        r.u32([0u32, 0, 1, 3, 0x20, 0x21][g.rng.below(6)]).i16(g.rng.below(0x8000) as i16).u16(0);
        r.u32(g.rng.below(3) as u32).u32(g.rng.below(3) as u32).u32(g.rng.below(500) as u32);
        let bounds = g.vec(6, 3.0);
        r.raw(&sorted_box(&bounds)).f32(g.rng.range(0.0, 4.0)).i16(next).u16(g.rng.below(2) as u16);
    }
    Block::of(g.sequences.len(), r.into_bytes())
}

/// The sequence lookup (id → first sequence of that id) and the playable lookup.
fn lookups(g: &mut Gen) -> (Block, Block) {
    if g.sequences.is_empty() {
        return (Block::default(), Block::default());
    }
    // The ids were written by `sequences`; the lookup only needs to name sequences that exist.
    let n = g.sequences.len();
    let lookup: Vec<i16> =
        (0..g.rng.between(1, 6)).map(|_| if g.rng.chance(0.5) { -1 } else { g.rng.below(n) as i16 }).collect();
    let playable: Vec<i16> = (0..g.rng.between(0, 4) * 2).map(|_| g.rng.below(4) as i16).collect();
    (Block::i16s(&lookup), Block::of(playable.len() / 2, playable.iter().flat_map(|x| x.to_le_bytes()).collect()))
}

/// A rotation value (for [`Gen::track`]).
pub(crate) fn rotation(g: &mut Gen) -> Vec<u8> {
    g.quat()
}

/// A 3-float value in ±2.
pub(crate) fn vec3(g: &mut Gen) -> Vec<u8> {
    g.vec(3, 2.0)
}

/// A 4-float value in ±1 (texture-transform rotations, read as floats in every version).
pub(crate) fn vec4(g: &mut Gen) -> Vec<u8> {
    g.vec(4, 1.0)
}

/// One float in ±2.
pub(crate) fn float(g: &mut Gen) -> Vec<u8> {
    g.vec(1, 2.0)
}

/// A 0/1 visibility byte.
pub(crate) fn visibility(g: &mut Gen) -> Vec<u8> {
    vec![g.rng.below(2) as u8]
}

/// An i16 (alpha, weight).
pub(crate) fn short(g: &mut Gen) -> Vec<u8> {
    g.short()
}

/// A u16 (texture slot).
pub(crate) fn slot(g: &mut Gen) -> Vec<u8> {
    (g.rng.below(4) as u16).to_le_bytes().to_vec()
}
