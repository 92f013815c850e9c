//! An independent byte builder for random valid ABC files: laid out field by field from
//! `../shared/specs/abc.md`, never with relic-abc's writer (so a reader bug and a writer bug
//! cannot cancel), with its own little math.

#![allow(dead_code, clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

pub(crate) mod v12;
pub(crate) mod v6;

use relic_testkit::Rng;

/// The shared little-endian byte builder.
pub(crate) use relic_testkit::LeBytes as Bytes;

/// Sections in order, each `string name, i32 next` (−1 on the last), then its body (abc.md §2).
pub(crate) fn sections(list: &[(Vec<u8>, Vec<u8>)]) -> Vec<u8> {
    let mut out = Bytes::default();
    for (i, (name, body)) in list.iter().enumerate() {
        let next = out.0.len() + 2 + name.len() + 4 + body.len();
        out.len_string(name);
        out.i32(if i + 1 == list.len() { -1 } else { next as i32 });
        out.raw(body);
    }
    out.0
}

/// Random values within the spec's ranges.
pub(crate) struct Gen {
    pub(crate) rng: Rng,
}

const WORDS: [&str; 12] = [
    "",
    "base",
    "walk",
    "Torso_node",
    "head",
    "FIRE_KEY",
    "SOUND_KEY shotgun\\select",
    "null",
    "l_gun",
    "a",
    "",
    "run",
];

impl Gen {
    pub(crate) fn new(seed: u64) -> Self {
        Self { rng: Rng::new(seed) }
    }
    pub(crate) fn chance(&mut self, p: f32) -> bool {
        self.rng.chance(p)
    }
    pub(crate) fn between(&mut self, lo: usize, hi: usize) -> usize {
        self.rng.between(lo, hi)
    }
    pub(crate) fn u16(&mut self) -> u16 {
        self.rng.next_u64() as u16
    }
    pub(crate) fn u32(&mut self) -> u32 {
        self.rng.next_u64() as u32
    }
    pub(crate) fn f32(&mut self, r: f32) -> f32 {
        self.rng.range(-r, r)
    }
    pub(crate) fn v3(&mut self, r: f32) -> [f32; 3] {
        [self.f32(r), self.f32(r), self.f32(r)]
    }
    /// A unit quaternion `(x, y, z, w)`.
    pub(crate) fn quat(&mut self) -> [f32; 4] {
        relic_testkit::models::rotation(&mut self.rng)
    }
    /// A name: a common word (repeats make the string count rule matter), a random word or
    /// Windows-1252 bytes (every byte is a character), sometimes empty.
    pub(crate) fn name(&mut self) -> Vec<u8> {
        match self.rng.below(6) {
            0..=2 => WORDS[self.rng.below(WORDS.len())].as_bytes().to_vec(),
            3 => (0..self.between(1, 12)).map(|_| b'a' + self.rng.below(26) as u8).collect(),
            4 => (0..self.between(1, 6)).map(|_| 0x20 + self.rng.below(0xE0) as u8).collect(),
            _ => Vec::new(),
        }
    }
    /// Strictly increasing key times in milliseconds from 0 (or a later start).
    pub(crate) fn times(&mut self, keys: usize) -> Vec<u32> {
        let mut t = if self.chance(0.8) { 0 } else { self.between(1, 100) as u32 };
        (0..keys)
            .map(|_| {
                let now = t;
                t += self.between(1, 700) as u32;
                now
            })
            .collect()
    }
    /// A node tree of `n` nodes as depth-first child counts (one root).
    pub(crate) fn tree(&mut self, n: usize) -> Vec<u32> {
        let mut parents: Vec<usize> = Vec::new();
        // Each node after the first hangs under one of the nodes on the open path.
        let mut counts = vec![0u32; n];
        let mut path: Vec<usize> = vec![0];
        for i in 1..n {
            let keep = self.between(1, path.len());
            path.truncate(keep);
            let parent = *path.last().unwrap();
            counts[parent] += 1;
            parents.push(parent);
            path.push(i);
        }
        counts
    }
}

/// Rotates `v` by the unit quaternion `q`.
pub(crate) fn rotate(q: [f32; 4], v: [f32; 3]) -> [f32; 3] {
    let u = [q[0], q[1], q[2]];
    let cross =
        |a: [f32; 3], b: [f32; 3]| [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
    let t = cross(u, v).map(|c| 2.0 * c);
    let c = cross(u, t);
    [v[0] + q[3] * t[0] + c[0], v[1] + q[3] * t[1] + c[1], v[2] + q[3] * t[2] + c[2]]
}

/// The row-major 4×4 matrix (translation in elements 3, 7, 11) of rotation `q` then translation `t`.
pub(crate) fn matrix(q: [f32; 4], t: [f32; 3]) -> [f32; 16] {
    let [x, y, z] = [rotate(q, [1.0, 0.0, 0.0]), rotate(q, [0.0, 1.0, 0.0]), rotate(q, [0.0, 0.0, 1.0])];
    [x[0], y[0], z[0], t[0], x[1], y[1], z[1], t[1], x[2], y[2], z[2], t[2], 0.0, 0.0, 0.0, 1.0]
}
