//! Meshes: vertex streams, LODs, skin weights and morph targets.

/// A triangle mesh with one material.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Mesh {
    /// Name (ABC piece name, NOD mesh name, M2 `geoset <id>`).
    pub name: String,
    /// Index into [`Model::materials`](super::Model::materials).
    pub material: Option<usize>,
    /// Bind-pose positions in model space.
    pub positions: Vec<[f32; 3]>,
    /// Unit normals, one per vertex, or empty.
    pub normals: Vec<[f32; 3]>,
    /// UV sets (0 to 2), each one per vertex; top-left image origin (glTF's).
    pub uv_sets: Vec<Vec<[f32; 2]>>,
    /// Bone influences; empty for a mesh that no bone moves.
    pub skin: Skin,
    /// Triangles, counter-clockwise front faces (glTF's).
    pub triangles: Vec<[u32; 3]>,
    /// Level of detail this mesh belongs to.
    pub lod: Lod,
    /// Part id (M2 geoset id: 0 body, 1xx hair, 5xx boots, …) for selective display.
    pub part_id: Option<u32>,
    /// Shape keys (vertex animation), blended before skinning.
    pub morph_targets: Vec<MorphTarget>,
}

/// Level of detail.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Lod {
    /// 0 = full detail.
    pub level: u32,
    /// Camera distance from which this level is used (0 for level 0), in model units.
    pub distance: f32,
}

/// Bone influences of every vertex of a mesh, stored flat: vertex `v` has
/// `influences[offsets[v] .. offsets[v + 1]]`. Any number of influences per vertex.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Skin {
    /// `vertex count + 1` ascending offsets into `influences` (empty for an unskinned mesh).
    pub offsets: Vec<u32>,
    /// All influences, vertex after vertex.
    pub influences: Vec<Influence>,
}

impl Skin {
    /// True if no bone moves the mesh.
    pub fn is_empty(&self) -> bool {
        self.offsets.is_empty()
    }

    /// The influences of vertex `v` (empty if out of range).
    pub fn vertex(&self, v: usize) -> &[Influence] {
        let (Some(&a), Some(&b)) = (self.offsets.get(v), self.offsets.get(v + 1)) else {
            return &[];
        };
        // Model::validate checks that the offsets ascend from 0 to the influence count, so for a model a
        // writer accepts this is never empty by default; an unchecked skin with broken offsets reads as
        // unskinned here and is refused by validate().
        self.influences.get(a as usize..b as usize).unwrap_or_default()
    }

    /// Number of vertices described.
    pub fn vertex_count(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }

    /// Largest number of influences on one vertex.
    pub fn max_influences(&self) -> usize {
        // A skin of no vertices has at most 0 influences a vertex (the meaning of the default); a pair of
        // offsets always has two elements.
        self.offsets
            .windows(2)
            .map(|w| w.get(1).zip(w.first()).map_or(0, |(b, a)| b.saturating_sub(*a) as usize))
            .max()
            .unwrap_or(0)
    }

    /// The `n` strongest influences of vertex `v` (of equal weights, the earlier), in their stored
    /// order, renormalised to sum to 1 (left as they are if they sum to 0). All of them when the
    /// vertex has `n` or fewer. For formats that store a fixed number of influences per vertex.
    pub fn strongest(&self, v: usize, n: usize) -> Vec<Influence> {
        let all = self.vertex(v);
        let mut kept: Vec<Influence> = if all.len() <= n {
            all.to_vec()
        } else {
            let mut order: Vec<usize> = (0..all.len()).collect();
            let weight = |i: usize| all.get(i).map_or(0.0, |x| x.weight);
            order.sort_by(|&a, &b| weight(b).total_cmp(&weight(a)).then(a.cmp(&b)));
            order.truncate(n);
            order.sort_unstable();
            order.into_iter().filter_map(|i| all.get(i).copied()).collect()
        };
        let sum: f64 = kept.iter().map(|i| f64::from(i.weight)).sum();
        if sum > 0.0 {
            for i in &mut kept {
                i.weight = (f64::from(i.weight) / sum) as f32;
            }
        }
        kept
    }

    /// Builds a skin from per-vertex influence lists.
    pub fn from_vertices<I>(vertices: I) -> Self
    where
        I: IntoIterator,
        I::Item: IntoIterator<Item = Influence>,
    {
        let vertices = vertices.into_iter();
        let mut offsets = Vec::with_capacity(vertices.size_hint().0 + 1);
        offsets.push(0);
        let mut skin = Skin { offsets, influences: Vec::new() };
        for vertex in vertices {
            skin.influences.extend(vertex);
            skin.offsets.push(skin.influences.len() as u32);
        }
        skin
    }
}

/// One bone's weight on one vertex.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Influence {
    /// Index into [`Model::bones`](super::Model::bones).
    pub bone: u32,
    /// Weight; a vertex's weights sum to 1.
    pub weight: f32,
}

/// A shape key: per-vertex offsets from the bind-pose mesh.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct MorphTarget {
    /// Name.
    pub name: String,
    /// Position offsets, one per vertex of the mesh.
    pub position_deltas: Vec<[f32; 3]>,
    /// Normal offsets, one per vertex, or empty.
    pub normal_deltas: Vec<[f32; 3]>,
}
