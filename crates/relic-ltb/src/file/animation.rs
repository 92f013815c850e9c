//! Animations and their tracks (ltb.md §9).
//!
//! Hand-written rather than derived: a track's layout depends on its animation's compression
//! mode and, in mode 0, on its own `IsVertexAnim` byte, and compressed counts must be 0, 1 or the
//! key count (the engine indexes by key number), which is checked where the count is read.

use binrw::{BinRead, BinResult, binrw};
use relic_core::ReadErrorKind;
use relic_core::binary::{LenString, PutLe, Source, counted, in_element, in_field, pod_vec};
use relic_core::error::custom;

/// Compression modes (ltb.md §9.3).
pub mod compression {
    /// Every node keyed at every key, full floats.
    pub const NONE: u32 = 0;
    /// "Relevant": 0, 1 or all keys per channel, full floats.
    pub const RELEVANT: u32 = 1;
    /// "Relevant 16": positions as i16 / 16, rotations as i16 / 32767.
    pub const RELEVANT_16: u32 = 2;
    /// "Relevant rot16" (player view): full positions, rotations as i16 / 32767.
    pub const RELEVANT_ROT16: u32 = 3;
}

/// One animation.
#[derive(Debug, Clone, PartialEq)]
pub struct Animation {
    /// Object dimensions while it plays ("user dims" of ModelEdit).
    pub dims: [f32; 3],
    /// Name the game plays it by.
    pub name: LenString,
    /// Compression mode of its tracks (0–3, [`compression`]).
    pub compression: u32,
    /// Milliseconds to blend into it.
    pub interpolation_ms: u32,
    /// Key times and their command strings.
    pub keyframes: Vec<Keyframe>,
    /// One track per node, in node order.
    pub tracks: Vec<Track>,
}

/// A key: time and game event.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq)]
pub struct Keyframe {
    /// Milliseconds from the start (non-decreasing; duplicates occur).
    pub time: u32,
    /// Game event (`begin`, `WeaponReload`; often empty).
    pub command: LenString,
}

/// One node's track.
#[derive(Debug, Clone, PartialEq)]
pub enum Track {
    /// Mode 0, `IsVertexAnim` 0: a position and a rotation per key, all positions first.
    Transform {
        /// Local translation per key.
        positions: Vec<[f32; 3]>,
        /// Local rotation `[x, y, z, w]` per key.
        rotations: Vec<[f32; 4]>,
    },
    /// Mode 0, `IsVertexAnim` ≠ 0: per key a list of vertex positions (§9.4).
    Vertex {
        /// The `IsVertexAnim` byte as stored.
        flag: u8,
        /// Per key, how many positions.
        counts: Vec<u32>,
        /// Every key's positions, key after key.
        positions: Vec<[f32; 3]>,
    },
    /// Modes 1–3: 0, 1 or one value per key per channel.
    Compressed {
        /// Positions.
        positions: PositionKeys,
        /// Rotations.
        rotations: RotationKeys,
    },
}

/// The positions of a compressed track.
#[derive(Debug, Clone, PartialEq)]
pub enum PositionKeys {
    /// Modes 1 and 3: full floats.
    Full(Vec<[f32; 3]>),
    /// Mode 2: `value = i16 / 16`.
    Short(Vec<[i16; 3]>),
}

/// The rotations of a compressed track.
#[derive(Debug, Clone, PartialEq)]
pub enum RotationKeys {
    /// Mode 1: full floats `[x, y, z, w]`.
    Full(Vec<[f32; 4]>),
    /// Modes 2 and 3: `value = i16 / 32767`.
    Short(Vec<[i16; 4]>),
}

impl PositionKeys {
    /// Stored values.
    pub fn len(&self) -> usize {
        match self {
            PositionKeys::Full(v) => v.len(),
            PositionKeys::Short(v) => v.len(),
        }
    }
    /// True if none is stored.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl RotationKeys {
    /// Stored values.
    pub fn len(&self) -> usize {
        match self {
            RotationKeys::Full(v) => v.len(),
            RotationKeys::Short(v) => v.len(),
        }
    }
    /// True if none is stored.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Track {
    /// Position and rotation bytes, as `AnimDataSize` counts them (§9.5), and vertex-animation
    /// position bytes, as `VertAnimDataSize` counts them.
    pub fn data_sizes(&self) -> (usize, usize) {
        match self {
            Track::Transform { positions, rotations } => (12 * positions.len() + 16 * rotations.len(), 0),
            Track::Vertex { positions, .. } => (0, 12 * positions.len()),
            Track::Compressed { positions, rotations } => {
                let p = match positions {
                    PositionKeys::Full(v) => 12 * v.len(),
                    PositionKeys::Short(v) => 6 * v.len(),
                };
                let r = match rotations {
                    RotationKeys::Full(v) => 16 * v.len(),
                    RotationKeys::Short(v) => 8 * v.len(),
                };
                (p + r, 0)
            }
        }
    }

    /// Whether the track's form belongs to `compression` mode.
    pub fn fits(&self, compression: u32) -> bool {
        matches!(
            (self, compression),
            (Track::Transform { .. } | Track::Vertex { .. }, compression::NONE)
                | (
                    Track::Compressed { positions: PositionKeys::Full(_), rotations: RotationKeys::Full(_) },
                    compression::RELEVANT
                )
                | (
                    Track::Compressed { positions: PositionKeys::Short(_), rotations: RotationKeys::Short(_) },
                    compression::RELEVANT_16
                )
                | (
                    Track::Compressed { positions: PositionKeys::Full(_), rotations: RotationKeys::Short(_) },
                    compression::RELEVANT_ROT16
                )
        )
    }
}

fn invalid(pos: u64, message: String) -> binrw::Error {
    custom(pos, ReadErrorKind::Invalid(message))
}

/// Reads one animation whose tracks cover `nodes` nodes.
pub(crate) fn read_animation(s: &mut Source<'_>, nodes: usize) -> BinResult<Animation> {
    let dims = <[f32; 3]>::read_le(s).map_err(|e| in_field(e, "dims"))?;
    let name = LenString::read_le(s).map_err(|e| in_field(e, "name"))?;
    let at = s.position();
    let compression = u32::read_le(s).map_err(|e| in_field(e, "compression"))?;
    if compression > compression::RELEVANT_ROT16 {
        let m = format!("compression mode {compression} is not 0–3 (no way to size its tracks)");
        return Err(in_field(invalid(at, m), "compression"));
    }
    let interpolation_ms = u32::read_le(s).map_err(|e| in_field(e, "interpolation_ms"))?;
    let key_count = u32::read_le(s).map_err(|e| in_field(e, "keyframe_count"))?;
    let keyframes =
        counted(s, binrw::Endian::Little, (u64::from(key_count), 6)).map_err(|e| in_field(e, "keyframes"))?;
    // Every node's track takes at least one byte (mode 0) or two counts.
    relic_core::binary::check_count(s, nodes as u64, if compression == 0 { 1 } else { 8 })
        .map_err(|e| in_field(e, "tracks"))?;
    let mut tracks = Vec::with_capacity(nodes);
    for n in 0..nodes {
        let track = read_track(s, compression, key_count).map_err(|e| in_field(in_element(e, n), "tracks"))?;
        tracks.push(track);
    }
    Ok(Animation { dims, name, compression, interpolation_ms, keyframes, tracks })
}

fn read_track(s: &mut Source<'_>, compression: u32, keys: u32) -> BinResult<Track> {
    let le = binrw::Endian::Little;
    let k = u64::from(keys);
    if compression == compression::NONE {
        let flag = u8::read_le(s).map_err(|e| in_field(e, "is_vertex_anim"))?;
        if flag == 0 {
            let positions = pod_vec(s, le, (k,)).map_err(|e| in_field(e, "positions"))?;
            let rotations = pod_vec(s, le, (k,)).map_err(|e| in_field(e, "rotations"))?;
            return Ok(Track::Transform { positions, rotations });
        }
        relic_core::binary::check_count(s, k, 4).map_err(|e| in_field(e, "vertex_frames"))?;
        let mut counts = Vec::with_capacity(keys as usize);
        let mut positions: Vec<[f32; 3]> = Vec::new();
        for key in 0..keys as usize {
            let n = u32::read_le(s).map_err(|e| in_field(in_element(e, key), "vertex_frames"))?;
            let frame: Vec<[f32; 3]> =
                pod_vec(s, le, (u64::from(n),)).map_err(|e| in_field(in_element(e, key), "vertex_frames"))?;
            counts.push(n);
            positions.extend_from_slice(&frame);
        }
        return Ok(Track::Vertex { flag, counts, positions });
    }
    let count = |s: &mut Source<'_>, field: &str| -> BinResult<u64> {
        let at = s.position();
        let n = u32::read_le(s).map_err(|e| in_field(e, field))?;
        if n > 1 && n != keys {
            let m = format!("{n} values for {keys} keys (the engine reads 0, 1 or one per key)");
            return Err(in_field(invalid(at, m), field));
        }
        Ok(u64::from(n))
    };
    let pc = count(s, "position_count")?;
    let positions = match compression {
        compression::RELEVANT_16 => PositionKeys::Short(pod_vec(s, le, (pc,)).map_err(|e| in_field(e, "positions"))?),
        _ => PositionKeys::Full(pod_vec(s, le, (pc,)).map_err(|e| in_field(e, "positions"))?),
    };
    let rc = count(s, "rotation_count")?;
    let rotations = match compression {
        compression::RELEVANT => RotationKeys::Full(pod_vec(s, le, (rc,)).map_err(|e| in_field(e, "rotations"))?),
        _ => RotationKeys::Short(pod_vec(s, le, (rc,)).map_err(|e| in_field(e, "rotations"))?),
    };
    Ok(Track::Compressed { positions, rotations })
}

/// Why an animation would not read back as itself with `nodes` nodes, if it would not.
pub(crate) fn write_problem(anim: &Animation, nodes: usize) -> Option<String> {
    let keys = anim.keyframes.len();
    if anim.compression > compression::RELEVANT_ROT16 {
        return Some(format!("compression mode {} is not 0–3", anim.compression));
    }
    if anim.tracks.len() != nodes {
        return Some(format!("{} tracks for {nodes} nodes", anim.tracks.len()));
    }
    anim.tracks.iter().enumerate().find_map(|(n, t)| {
        let why = match t {
            _ if !t.fits(anim.compression) => {
                format!("its form does not belong to compression mode {}", anim.compression)
            }
            Track::Transform { positions, rotations } if positions.len() != keys || rotations.len() != keys => {
                format!("{} positions and {} rotations for {keys} keys", positions.len(), rotations.len())
            }
            Track::Vertex { flag: 0, .. } => "a vertex track's IsVertexAnim byte is 0".into(),
            Track::Vertex { counts, positions, .. }
                if counts.len() != keys || counts.iter().map(|&c| c as usize).sum::<usize>() != positions.len() =>
            {
                format!("{} vertex frames for {keys} keys", counts.len())
            }
            Track::Compressed { positions, rotations }
                if [positions.len(), rotations.len()].iter().any(|&c| c > 1 && c != keys) =>
            {
                format!("{} positions and {} rotations for {keys} keys", positions.len(), rotations.len())
            }
            _ => return None,
        };
        Some(format!("tracks[{n}]: {why}"))
    })
}

/// Appends an animation that [`write_problem`] accepted.
pub(crate) fn write_animation(anim: &Animation, out: &mut Vec<u8>) {
    out.put_f32s(&anim.dims);
    out.put((anim.name.0.len() as u16).to_le_bytes());
    out.extend_from_slice(&anim.name.0);
    out.put(anim.compression.to_le_bytes());
    out.put(anim.interpolation_ms.to_le_bytes());
    out.put((anim.keyframes.len() as u32).to_le_bytes());
    for k in &anim.keyframes {
        out.put(k.time.to_le_bytes());
        out.put((k.command.0.len() as u16).to_le_bytes());
        out.extend_from_slice(&k.command.0);
    }
    for track in &anim.tracks {
        match track {
            Track::Transform { positions, rotations } => {
                out.push(0);
                out.extend_from_slice(bytemuck::cast_slice(positions));
                out.extend_from_slice(bytemuck::cast_slice(rotations));
            }
            Track::Vertex { flag, counts, positions } => {
                out.push(*flag);
                let mut rest: &[[f32; 3]] = positions;
                for &c in counts {
                    let (frame, after) = rest.split_at((c as usize).min(rest.len()));
                    out.put(c.to_le_bytes());
                    out.extend_from_slice(bytemuck::cast_slice(frame));
                    rest = after;
                }
            }
            Track::Compressed { positions, rotations } => {
                out.put((positions.len() as u32).to_le_bytes());
                match positions {
                    PositionKeys::Full(v) => out.extend_from_slice(bytemuck::cast_slice(v)),
                    PositionKeys::Short(v) => out.extend_from_slice(bytemuck::cast_slice(v)),
                }
                out.put((rotations.len() as u32).to_le_bytes());
                match rotations {
                    RotationKeys::Full(v) => out.extend_from_slice(bytemuck::cast_slice(v)),
                    RotationKeys::Short(v) => out.extend_from_slice(bytemuck::cast_slice(v)),
                }
            }
        }
    }
}
