//! Random valid NAD v3 files within the ranges of the spec (§4): 0, 1 or many tracks of every
//! type (rotation, translation, scale) on bones of the skeleton, 0, 1 or many keys with strictly
//! ascending (also fractional or negative) frames, frame scales `1/Δframe` (or other finite values)
//! and `+∞` (or a finite value) on the last key, held, linear, smooth and arbitrary cubic
//! segments, any flags, and tags of every listed type and of types the spec does not list; now
//! and then two tracks of one kind on one bone.

use relic_testkit::Rng;

use super::bytes::Le;
use super::nod::count;

/// One generated NAD and a line saying what it holds.
pub(crate) struct NadCase {
    pub(crate) bytes: Vec<u8>,
    pub(crate) what: String,
}

struct Key {
    frame: f32,
    frame_scale: f32,
    value: [f32; 3],
    c: [f32; 3],
    b: [f32; 3],
    a: [f32; 3],
}

/// Strictly ascending frames: a start, then steps of whole, half or odd fractions of a frame.
fn frames(rng: &mut Rng, n: usize) -> Vec<f32> {
    let mut f = match rng.below(4) {
        0 => 0.0,
        1 => -(rng.between(1, 30) as f32),
        _ => rng.range(0.0, 60.0),
    };
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        out.push(f);
        f += match rng.below(5) {
            0 => 1.0,
            1 => 0.5,
            2 => 7.5,
            3 => rng.between(2, 15) as f32,
            _ => rng.range(0.25, 12.0),
        };
    }
    out
}

fn value(rng: &mut Rng, kind: u32) -> [f32; 3] {
    let (lo, hi) = match kind {
        0 => (-360.0, 360.0), // degrees
        1 => (-50.0, 50.0),
        _ => (0.1, 3.0),
    };
    [rng.range(lo, hi), rng.range(lo, hi), rng.range(lo, hi)]
}

/// Keys of one track: segments that hold, run linearly, follow a Catmull-Rom cubic, or have any
/// coefficients (then they need not end on the next key).
fn keys(rng: &mut Rng, kind: u32) -> Vec<Key> {
    let n = count(rng, 12);
    let frames = frames(rng, n);
    let values: Vec<[f32; 3]> = (0..n).map(|_| value(rng, kind)).collect();
    let shape = rng.below(4);
    let mut out = Vec::with_capacity(n);
    for k in 0..n {
        let (v0, f0) = (values[k], frames[k]);
        let (mut c, mut b, mut a) = ([0.0f32; 3], [0.0f32; 3], [0.0f32; 3]);
        let frame_scale = match frames.get(k + 1) {
            Some(&f1) => {
                let v1 = values[k + 1];
                match shape {
                    0 => {} // held
                    1 => c = std::array::from_fn(|i| v1[i] - v0[i]),
                    2 => {
                        let tangent = |j: usize| -> [f32; 3] {
                            let (p, q) = (j.saturating_sub(1), (j + 1).min(n - 1));
                            std::array::from_fn(|i| (values[q][i] - values[p][i]) / (frames[q] - frames[p]))
                        };
                        let (m0, m1, d) = (tangent(k), tangent(k + 1), f1 - f0);
                        c = std::array::from_fn(|i| d * m0[i]);
                        b = std::array::from_fn(|i| 3.0 * (v1[i] - v0[i]) - 2.0 * d * m0[i] - d * m1[i]);
                        a = std::array::from_fn(|i| 2.0 * (v0[i] - v1[i]) + d * m0[i] + d * m1[i]);
                    }
                    _ => {
                        c = value(rng, kind);
                        b = value(rng, kind);
                        a = value(rng, kind);
                    }
                }
                if rng.chance(0.9) { 1.0 / (f1 - f0) } else { rng.range(0.01, 2.0) }
            }
            None => match rng.below(6) {
                0 => 0.0,
                1 => rng.range(0.01, 2.0),
                _ => f32::INFINITY,
            },
        };
        out.push(Key { frame: f0, frame_scale, value: v0, c, b, a });
    }
    out
}

/// A random valid NAD v3 for a skeleton of `bones` bones (1 to 64), laid out field by field.
pub(crate) fn nad(rng: &mut Rng, bones: usize) -> NadCase {
    let n_tracks = count(rng, 10);
    let mut tracks: Vec<(u32, u32, Vec<Key>)> = Vec::with_capacity(n_tracks);
    for _ in 0..n_tracks {
        let bone = rng.below(bones) as u32;
        let kind = rng.below(3) as u32;
        // One track per bone and kind (spec §4: "a bone with rotation and translation has two
        // tracks"), but now and then a second one, which the spec does not rule out.
        if tracks.iter().any(|(b, k, _)| (*b, *k) == (bone, kind)) && !rng.chance(0.05) {
            continue;
        }
        tracks.push((bone, kind, keys(rng, kind)));
    }
    let last = tracks.iter().filter_map(|(_, _, k)| k.last().map(|k| k.frame)).fold(0.0f32, f32::max);
    let duration = match rng.below(3) {
        0 => 0.0,
        1 => rng.range(0.0, 100.0),
        _ => last.max(0.0),
    };
    let tags: Vec<(f32, u32)> = (0..count(rng, 5))
        .map(|_| {
            let kind = match rng.below(5) {
                0 => rng.between(19, 100) as u32,
                1 => u32::MAX,
                _ => rng.below(19) as u32,
            };
            (rng.range(-10.0, duration + 10.0), kind)
        })
        .collect();
    let flags = if rng.chance(0.8) { 0 } else { rng.next_u64() as u32 };

    let mut b = Le::default();
    b.u32(3).u32(tracks.len() as u32).u32(flags).f32(duration);
    for (bone, kind, keys) in &tracks {
        b.u32(keys.len() as u32).u32(*bone).u32(*kind);
        for k in keys {
            b.f32(k.frame).f32(k.frame_scale).f32s(&k.value).f32s(&k.c).f32s(&k.b).f32s(&k.a);
        }
    }
    b.u32(tags.len() as u32);
    for (frame, kind) in &tags {
        b.f32(*frame).u32(*kind);
    }
    let keys: usize = tracks.iter().map(|(_, _, k)| k.len()).sum();
    let kinds: Vec<u32> = tracks.iter().map(|(_, k, _)| *k).collect();
    let what = format!(
        "{} tracks (types {kinds:?}), {keys} keys, {} tags, duration {duration}, flags {flags:#x}",
        tracks.len(),
        tags.len()
    );
    NadCase { bytes: b.0, what }
}
