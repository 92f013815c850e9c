//! One node's track, from the model's values at the keys (file frame), in a compression mode:
//! per key the stored raw value where the model's is within float noise of what it decodes to
//! (so a 16-bit value a tool moved by noise comes back bit for bit), else the model's value
//! encoded (16-bit values truncated toward zero, as the packer does); and the stored count form
//! (0, 1 or one value per key) while the motion still allows it, else the packer's rule (one
//! value when every key holds the same, compared before quantisation).

use super::{close, same_rotation};
use crate::file::{PositionKeys, RotationKeys, Track, compression};
use crate::quantize;

/// How far (game units) a full-float position may be from the stored one and still be it.
const POSITION_TOLERANCE: f32 = 2e-3;
/// How far a rotation component may be from the stored one (about 0.2°).
const ROTATION_TOLERANCE: f32 = 2e-3;
/// How far a 16-bit position may be: one step (a fitted value next to the stored one truncates
/// to its neighbour).
const SHORT_POSITION_TOLERANCE: f32 = 1.0 / quantize::POSITION_SCALE;

const IDENTITY: [f32; 4] = [0.0, 0.0, 0.0, 1.0];

/// The raw values of one channel (see the module documentation).
fn channel<const N: usize, R: Copy + PartialEq>(
    model: &[[f32; N]],
    stored: Option<&[R]>,
    identity: [f32; N],
    decode: impl Fn(R) -> [f32; N],
    encode: impl Fn([f32; N]) -> R,
    near: impl Fn(&[f32; N], &[f32; N]) -> bool,
) -> Vec<R> {
    let stored_at = |k: usize| {
        let s = stored?;
        if s.len() == 1 { s.first() } else { s.get(k) }.copied()
    };
    let mut raw: Vec<R> = model
        .iter()
        .enumerate()
        .map(|(k, m)| match stored_at(k) {
            Some(r) if near(&decode(r), m) => r,
            _ => encode(*m),
        })
        .collect();
    let keys = model.len();
    match stored.map(<[R]>::len) {
        Some(0) if model.iter().all(|m| near(&identity, m)) => Vec::new(),
        Some(1) if (0..keys).all(|k| raw.get(k).copied() == stored_at(0)) => {
            raw.truncate(1);
            raw
        }
        Some(n) if n == keys && n > 1 => raw,
        _ => {
            if model.first().is_some_and(|f| model.iter().all(|m| m == f)) {
                raw.truncate(1);
            }
            raw
        }
    }
}

fn near_position(tolerance: f32) -> impl Fn(&[f32; 3], &[f32; 3]) -> bool {
    move |a, b| close(a, b, tolerance)
}

fn near_rotation(a: &[f32; 4], b: &[f32; 4]) -> bool {
    same_rotation(crate::to_ir::unit(*a), *b, ROTATION_TOLERANCE)
}

/// The track of one node in `mode`; `stored` is the stored track at the same keys, if any.
pub(super) fn track(
    mode: u32,
    positions: &[[f32; 3]],
    rotations: &[[f32; 4]],
    stored: Option<&Track>,
    saturated: &mut usize,
) -> Track {
    let copy3 = |v: [f32; 3]| v;
    let copy4 = |v: [f32; 4]| v;
    if mode == compression::NONE {
        let (sp, sr) = match stored {
            Some(Track::Transform { positions, rotations }) => (Some(positions.as_slice()), Some(rotations.as_slice())),
            _ => (None, None),
        };
        // Every key stored (mode 0 has no count form).
        let p = channel(positions, sp, [0.0; 3], copy3, copy3, near_position(POSITION_TOLERANCE));
        let r = channel(rotations, sr, IDENTITY, copy4, copy4, near_rotation);
        let pad3 = |mut v: Vec<[f32; 3]>, all: &[[f32; 3]]| {
            if v.len() != all.len() {
                v = all.iter().enumerate().map(|(k, m)| v.get(k).copied().unwrap_or(*m)).collect();
            }
            v
        };
        let pad4 = |mut v: Vec<[f32; 4]>, all: &[[f32; 4]]| {
            if v.len() != all.len() {
                v = all.iter().enumerate().map(|(k, m)| v.get(k).copied().unwrap_or(*m)).collect();
            }
            v
        };
        return Track::Transform { positions: pad3(p, positions), rotations: pad4(r, rotations) };
    }
    let (sp, sr) = match stored {
        Some(Track::Compressed { positions, rotations }) => (Some(positions), Some(rotations)),
        _ => (None, None),
    };
    let positions = if mode == compression::RELEVANT_16 {
        *saturated += positions.iter().filter(|p| !quantize::position_fits(**p)).count();
        let stored = match sp {
            Some(PositionKeys::Short(v)) => Some(v.as_slice()),
            _ => None,
        };
        let near = near_position(SHORT_POSITION_TOLERANCE);
        PositionKeys::Short(channel(positions, stored, [0.0; 3], quantize::position, quantize::encode_position, near))
    } else {
        let stored = match sp {
            Some(PositionKeys::Full(v)) => Some(v.as_slice()),
            _ => None,
        };
        PositionKeys::Full(channel(positions, stored, [0.0; 3], copy3, copy3, near_position(POSITION_TOLERANCE)))
    };
    let rotations = if mode == compression::RELEVANT {
        let stored = match sr {
            Some(RotationKeys::Full(v)) => Some(v.as_slice()),
            _ => None,
        };
        RotationKeys::Full(channel(rotations, stored, IDENTITY, copy4, copy4, near_rotation))
    } else {
        let stored = match sr {
            Some(RotationKeys::Short(v)) => Some(v.as_slice()),
            _ => None,
        };
        RotationKeys::Short(channel(
            rotations,
            stored,
            IDENTITY,
            quantize::rotation,
            quantize::encode_rotation,
            near_rotation,
        ))
    };
    Track::Compressed { positions, rotations }
}
