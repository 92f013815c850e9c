//! Vertex streams (ltb.md §6.3): up to four D3D vertex buffers per render object, stream `s`
//! present iff `StreamFlags[s] ≠ 0`, each `VertCount` vertices of the layout its flags give.
//!
//! The layout of one vertex, in this order: position (`POSITION`) followed by the skinning data
//! of §6.5/§6.6 (skeletal meshes), normal (`NORMAL`), colour (`COLOR`), the UV sets, the basis
//! vectors S and T (`BASISVECTORS`). How the flags give the sizes has two readings:
//!
//! | rule | position + skin | normal | colour | UV sets | basis |
//! |---|---|---|---|---|---|
//! | [`StrideRule::Packer`] (how the packer writes, and S3/S4/S8 read) | `POSITION` | `NORMAL` | `COLOR` | one per `UVSETS_n` bit | `BASISVECTORS` |
//! | [`StrideRule::Engine`] (the engine's own stride function, S1 `d3d_utils.h`) | only if `POSITION` and `NORMAL` | same | never | the first `UVSETS_n` bit set gives n sets | `BASISVECTORS` |
//!
//! Both agree on every flag set a shipped file is known to use (`0x13`). A reader takes the
//! packer's reading when the render object then ends exactly where its `ObjSize` says, else the
//! engine's, and keeps which one it was so that the object is written back the same way.

use relic_core::binary::{Fields, PutLe};

/// Stream flag bits (ltb.md §6.3).
pub mod flag {
    /// vec3 position (then the skinning data of a skeletal mesh).
    pub const POSITION: u32 = 0x0001;
    /// vec3 normal.
    pub const NORMAL: u32 = 0x0002;
    /// u32 colour (channel order unknown; D3D colours are 0xAARRGGBB).
    pub const COLOR: u32 = 0x0004;
    /// 2 × f32 UV set 1.
    pub const UV1: u32 = 0x0010;
    /// 2 × f32 UV set 2.
    pub const UV2: u32 = 0x0020;
    /// 2 × f32 UV set 3.
    pub const UV3: u32 = 0x0040;
    /// 2 × f32 UV set 4.
    pub const UV4: u32 = 0x0080;
    /// vec3 S (tangent) then vec3 T (binormal).
    pub const BASIS: u32 = 0x0100;
    /// Every bit the packer writes; others are refused.
    pub const KNOWN: u32 = POSITION | NORMAL | COLOR | UV1 | UV2 | UV3 | UV4 | BASIS;
    /// The UV bits.
    pub const UVS: [u32; 4] = [UV1, UV2, UV3, UV4];
}

/// Which reading of the stream flags a render object follows (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum StrideRule {
    /// One field per flag bit, as the packer writes.
    #[default]
    Packer,
    /// The engine's stride function.
    Engine,
}

/// The skinning data that follows a position in a skeletal mesh's stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SkinLayout {
    /// f32 blend weights per vertex.
    pub blend_weights: usize,
    /// Four u8 bone (palette) indices after the weights (matrix palettes).
    pub bone_indices: bool,
}

/// The fields of one vertex of one stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Layout {
    /// Position (and the skinning data after it).
    pub position: bool,
    /// Skinning data after the position.
    pub skin: SkinLayout,
    /// Normal.
    pub normal: bool,
    /// Colour.
    pub color: bool,
    /// UV sets.
    pub uv_sets: usize,
    /// Basis vectors.
    pub basis: bool,
}

impl Layout {
    /// The layout of a stream with `flags` under `rule`; `skin` is what a position carries.
    pub fn new(flags: u32, skin: SkinLayout, rule: StrideRule) -> Self {
        let has = |bit: u32| flags & bit != 0;
        let (position, normal, color, uv_sets) = match rule {
            StrideRule::Packer => (
                has(flag::POSITION),
                has(flag::NORMAL),
                has(flag::COLOR),
                flag::UVS.iter().filter(|&&b| has(b)).count(),
            ),
            StrideRule::Engine => {
                let both = has(flag::POSITION) && has(flag::NORMAL);
                let uvs = flag::UVS.iter().position(|&b| has(b)).map_or(0, |i| i + 1);
                (both, both, false, uvs)
            }
        };
        let skin = if position { skin } else { SkinLayout::default() };
        Layout { position, skin, normal, color, uv_sets, basis: has(flag::BASIS) }
    }

    /// Bytes of one vertex.
    pub fn stride(&self) -> usize {
        let skin = 4 * self.skin.blend_weights + 4 * usize::from(self.skin.bone_indices);
        (12 + skin) * usize::from(self.position)
            + 12 * usize::from(self.normal)
            + 4 * usize::from(self.color)
            + 8 * self.uv_sets
            + 24 * usize::from(self.basis)
    }
}

/// The vertices of one stream, one column per field its layout has (columns it does not have
/// are empty).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct VertexStream {
    /// Model-space bind-pose positions.
    pub positions: Vec<[f32; 3]>,
    /// Blend weights, [`SkinLayout::blend_weights`] per vertex, vertex after vertex.
    pub blend_weights: Vec<f32>,
    /// Bone (palette) indices of a matrix-palette mesh.
    pub bone_indices: Vec<[u8; 4]>,
    /// Normals (model space).
    pub normals: Vec<[f32; 3]>,
    /// Colours as stored.
    pub colors: Vec<u32>,
    /// UV sets, D3D convention (origin top left).
    pub uv_sets: Vec<Vec<[f32; 2]>>,
    /// Basis vectors S and T.
    pub basis: Vec<[[f32; 3]; 2]>,
}

impl VertexStream {
    /// Decodes `count` vertices of `layout` from exactly `count × stride` bytes.
    pub(crate) fn decode(raw: &[u8], count: usize, layout: &Layout) -> Self {
        let mut s = VertexStream::default();
        let stride = layout.stride();
        if stride == 0 {
            return s;
        }
        let n = |on: bool, per: usize| if on { count * per } else { 0 };
        s.positions.reserve_exact(n(layout.position, 1));
        s.blend_weights.reserve_exact(n(layout.position, layout.skin.blend_weights));
        s.bone_indices.reserve_exact(n(layout.position && layout.skin.bone_indices, 1));
        s.normals.reserve_exact(n(layout.normal, 1));
        s.colors.reserve_exact(n(layout.color, 1));
        s.uv_sets = (0..layout.uv_sets).map(|_| Vec::with_capacity(count)).collect();
        s.basis.reserve_exact(n(layout.basis, 1));
        for chunk in raw.chunks_exact(stride).take(count) {
            let mut f = Fields::new(chunk);
            if layout.position {
                s.positions.push(f.f32s());
                for _ in 0..layout.skin.blend_weights {
                    s.blend_weights.push(f.f32());
                }
                if layout.skin.bone_indices {
                    s.bone_indices.push(f.bytes());
                }
            }
            if layout.normal {
                s.normals.push(f.f32s());
            }
            if layout.color {
                s.colors.push(f.u32());
            }
            for set in &mut s.uv_sets {
                set.push(f.f32s());
            }
            if layout.basis {
                s.basis.push([f.f32s(), f.f32s()]);
            }
        }
        s
    }

    /// Why the columns do not hold `count` vertices of `layout`, if they do not.
    pub(crate) fn mismatch(&self, count: usize, layout: &Layout) -> Option<String> {
        let want = |on: bool, per: usize| if on { count * per } else { 0 };
        let uv_ok = self.uv_sets.len() == layout.uv_sets && self.uv_sets.iter().all(|s| s.len() == count);
        let columns = [
            ("positions", self.positions.len(), want(layout.position, 1)),
            ("blend_weights", self.blend_weights.len(), want(layout.position, layout.skin.blend_weights)),
            ("bone_indices", self.bone_indices.len(), want(layout.position && layout.skin.bone_indices, 1)),
            ("normals", self.normals.len(), want(layout.normal, 1)),
            ("colors", self.colors.len(), want(layout.color, 1)),
            ("basis", self.basis.len(), want(layout.basis, 1)),
        ];
        let bad = columns.iter().find(|(_, have, want)| have != want);
        match (bad, uv_ok) {
            (Some((name, have, want)), _) => Some(format!("{name} holds {have} values, the layout needs {want}")),
            (None, false) => {
                Some(format!("uv_sets: {} sets, the layout needs {} of {count}", self.uv_sets.len(), layout.uv_sets))
            }
            (None, true) => None,
        }
    }

    /// Appends the vertices in `layout` (the columns must fit it: [`VertexStream::mismatch`]).
    pub(crate) fn encode(&self, count: usize, layout: &Layout, out: &mut Vec<u8>) {
        out.reserve(count * layout.stride());
        let weights = layout.skin.blend_weights;
        // The columns fit the layout (`mismatch`, checked by `write_problem` first): each has
        // `count` values, so none of the defaults below is taken.
        for v in 0..count {
            if layout.position {
                out.put_f32s(self.positions.get(v).map_or(&[0.0; 3][..], |p| &p[..]));
                out.put_f32s(self.blend_weights.get(v * weights..(v + 1) * weights).unwrap_or_default());
                if layout.skin.bone_indices {
                    out.put(self.bone_indices.get(v).copied().unwrap_or_default());
                }
            }
            if layout.normal {
                out.put_f32s(self.normals.get(v).map_or(&[0.0; 3][..], |p| &p[..]));
            }
            if layout.color {
                out.put(self.colors.get(v).copied().unwrap_or_default().to_le_bytes());
            }
            for set in &self.uv_sets {
                out.put_f32s(set.get(v).map_or(&[0.0; 2][..], |p| &p[..]));
            }
            if layout.basis {
                let [s, t] = self.basis.get(v).copied().unwrap_or_default();
                out.put_f32s(&s);
                out.put_f32s(&t);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_two_rules_agree_on_0x13_and_differ_where_the_notes_say() {
        let skin = SkinLayout { blend_weights: 2, bone_indices: false };
        let common = 0x13;
        assert_eq!(Layout::new(common, skin, StrideRule::Packer), Layout::new(common, skin, StrideRule::Engine));
        assert_eq!(Layout::new(common, skin, StrideRule::Packer).stride(), 12 + 8 + 12 + 8);
        // UVSETS_2 alone: one pair for the packer, two for the engine.
        assert_eq!(Layout::new(0x23, skin, StrideRule::Packer).uv_sets, 1);
        assert_eq!(Layout::new(0x23, skin, StrideRule::Engine).uv_sets, 2);
        // Colour is ignored by the engine; position without normal is dropped by it.
        assert!(!Layout::new(0x17, skin, StrideRule::Engine).color);
        assert_eq!(Layout::new(flag::POSITION, skin, StrideRule::Engine).stride(), 0);
        assert_eq!(Layout::new(0x1F7, SkinLayout::default(), StrideRule::Packer).stride(), 12 + 12 + 4 + 32 + 24);
    }

    #[test]
    fn streams_decode_and_encode_exactly() {
        let layout = Layout::new(0x1F7, SkinLayout { blend_weights: 1, bone_indices: true }, StrideRule::Packer);
        let raw: Vec<u8> = (0..2 * layout.stride()).map(|i| (i * 7) as u8).collect();
        let s = VertexStream::decode(&raw, 2, &layout);
        assert_eq!(s.mismatch(2, &layout), None);
        let mut out = Vec::new();
        s.encode(2, &layout, &mut out);
        assert_eq!(out, raw);
        assert!(s.mismatch(3, &layout).is_some());
    }
}
