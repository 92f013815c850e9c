//! Linear blend skinning of positions and normals, with morph targets applied first.
//!
//! Two implementations that must agree to 1e-5 (a test checks it on every fixture model):
//! * [`skin_reference`]: the straightforward one, per vertex over its influence list with
//!   nalgebra matrices. Easy to read, the definition.
//! * [`skin_mesh`]: the fast one. A [`SkinBinding`] packs up to four influences per vertex into
//!   fixed arrays once; the loop blends the four skin matrices' columns with their weights and
//!   transforms the vertex, with no allocation and no branch on the influence count. Vertices with
//!   more than four influences (ABC lower LODs carry up to six) are finished by the general path.
//!
//! Normals are transformed by the blended matrix's 3×3 part and renormalised.
//! Outputs go into caller-provided buffers: no allocation per frame.

use relic_core::model::{Mesh, MorphChannel};
use relic_core::sample::find_segment;

use wide::f32x4;

use crate::affine::{self, Affine, madd};

/// A mesh's influences packed for [`skin_mesh`].
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SkinBinding {
    /// Up to four bones per vertex (unused slots: bone 0, weight 0).
    pub joints: Vec<[u16; 4]>,
    /// Their weights.
    pub weights: Vec<[f32; 4]>,
    /// Vertices with more than four influences, finished by the general path.
    pub wide: Vec<u32>,
    /// The highest bone index used (skin matrices must cover it).
    pub max_bone: u16,
}

impl SkinBinding {
    /// Packs a mesh's skin. An unskinned mesh gives an empty binding (positions are copied).
    pub fn new(mesh: &Mesh) -> Self {
        let skin = &mesh.skin;
        let mut b = SkinBinding::default();
        if skin.is_empty() {
            return b;
        }
        let n = mesh.positions.len();
        b.joints.reserve(n);
        b.weights.reserve(n);
        for v in 0..n {
            let influences = skin.vertex(v);
            let mut j = [0u16; 4];
            let mut w = [0f32; 4];
            for ((slot_j, slot_w), inf) in j.iter_mut().zip(w.iter_mut()).zip(influences) {
                *slot_j = inf.bone.min(u32::from(u16::MAX)) as u16;
                *slot_w = inf.weight;
                b.max_bone = b.max_bone.max(*slot_j);
            }
            if influences.len() > 4 {
                b.wide.push(v as u32);
                for inf in influences {
                    b.max_bone = b.max_bone.max(inf.bone.min(u32::from(u16::MAX)) as u16);
                }
            }
            b.joints.push(j);
            b.weights.push(w);
        }
        b
    }

    /// True for an unskinned mesh.
    pub fn is_empty(&self) -> bool {
        self.joints.is_empty()
    }
}

/// Why skinning refused to run.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SkinError {
    /// An output or input buffer is shorter than the mesh.
    #[error("buffer of {found} entries for {expected} vertices")]
    BufferLength {
        /// Its length.
        found: usize,
        /// The vertex count.
        expected: usize,
    },
    /// A bone index is not covered by the skin matrices.
    #[error("bone {bone} used by the mesh but only {matrices} skin matrices given")]
    MissingBone {
        /// The bone.
        bone: usize,
        /// Matrices given.
        matrices: usize,
    },
}

fn check_len(found: usize, expected: usize) -> Result<(), SkinError> {
    if found < expected { Err(SkinError::BufferLength { found, expected }) } else { Ok(()) }
}

/// Checks the skinning buffers of an `n`-vertex mesh: positions and their output always, normals
/// and theirs when `normals` is not empty. Returns whether normals are skinned.
fn check_buffers(
    n: usize,
    positions: &[[f32; 3]],
    normals: &[[f32; 3]],
    out_positions: &[[f32; 3]],
    out_normals: &[[f32; 3]],
) -> Result<bool, SkinError> {
    check_len(positions.len(), n)?;
    check_len(out_positions.len(), n)?;
    let with_normals = !normals.is_empty();
    if with_normals {
        check_len(normals.len(), n)?;
        check_len(out_normals.len(), n)?;
    }
    Ok(with_normals)
}

/// Writes `mesh`'s positions and normals with the morph `weights` (one per target) applied into
/// `out_positions`/`out_normals`. Targets with weight 0 cost nothing.
pub fn apply_morphs(
    mesh: &Mesh,
    weights: &[f32],
    out_positions: &mut [[f32; 3]],
    out_normals: &mut [[f32; 3]],
) -> Result<(), SkinError> {
    let n = mesh.positions.len();
    check_len(out_positions.len(), n)?;
    check_len(out_normals.len(), mesh.normals.len())?;
    out_positions.iter_mut().zip(&mesh.positions).for_each(|(o, p)| *o = *p);
    out_normals.iter_mut().zip(&mesh.normals).for_each(|(o, p)| *o = *p);
    for (target, &w) in mesh.morph_targets.iter().zip(weights) {
        if w == 0.0 {
            continue;
        }
        for (o, d) in out_positions.iter_mut().zip(&target.position_deltas) {
            *o = [o[0] + w * d[0], o[1] + w * d[1], o[2] + w * d[2]];
        }
        for (o, d) in out_normals.iter_mut().zip(&target.normal_deltas) {
            *o = [o[0] + w * d[0], o[1] + w * d[1], o[2] + w * d[2]];
        }
    }
    Ok(())
}

/// The morph-target weights of one mesh at `t`, written into `out` (one per target; targets the
/// channel does not cover stay 0). Morph channels interpolate step-wise or linearly (a cubic
/// morph channel is treated as linear between its keys' values).
pub fn sample_morph_weights(channel: &MorphChannel, targets: usize, t: f32, out: &mut [f32]) {
    out.iter_mut().for_each(|w| *w = 0.0);
    if targets == 0 || channel.times.is_empty() {
        return;
    }
    let seg = find_segment(&channel.times, t);
    // Model::validate checks that a channel holds `targets` weights a key, and k is a key of it: never taken
    // for a valid model (an unchecked short channel samples as weight 0).
    let row = |k: usize| channel.weights.get(k * targets..(k + 1) * targets).unwrap_or_default();
    let a = row(seg.key);
    let linear = channel.interpolation != relic_core::model::Interpolation::Step && seg.fraction > 0.0;
    let b = if linear { row(seg.key + 1) } else { a };
    for ((o, &wa), &wb) in out.iter_mut().zip(a).zip(b) {
        *o = wa + (wb - wa) * seg.fraction;
    }
}

#[inline(always)]
fn normalized(v: [f32; 3]) -> [f32; 3] {
    let len2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    if len2 > 0.0 {
        let inv = 1.0 / len2.sqrt();
        [v[0] * inv, v[1] * inv, v[2] * inv]
    } else {
        v
    }
}

/// The straightforward skinning: for each vertex, `Σ wᵢ · Mᵢ · p` over its influences, in plain
/// scalar arithmetic (the definition the fast loop is tested against).
/// `positions`/`normals` are the (morphed) bind-pose inputs.
pub fn skin_reference(
    mesh: &Mesh,
    skin: &[Affine],
    positions: &[[f32; 3]],
    normals: &[[f32; 3]],
    out_positions: &mut [[f32; 3]],
    out_normals: &mut [[f32; 3]],
) -> Result<(), SkinError> {
    let n = mesh.positions.len();
    let with_normals = check_buffers(n, positions, normals, out_positions, out_normals)?;
    for v in 0..n {
        let (Some(p), Some(out_p)) = (positions.get(v), out_positions.get_mut(v)) else { continue };
        let nrm = normals.get(v).copied().unwrap_or([0.0; 3]);
        if mesh.skin.is_empty() {
            *out_p = *p;
            if let Some(o) = out_normals.get_mut(v) {
                *o = nrm;
            }
            continue;
        }
        let mut pos = [0.0f32; 3];
        let mut nor = [0.0f32; 3];
        for inf in mesh.skin.vertex(v) {
            let m = skin
                .get(inf.bone as usize)
                .ok_or(SkinError::MissingBone { bone: inf.bone as usize, matrices: skin.len() })?;
            let tp = affine::transform_point(m, p);
            let tn = affine::transform_vector(m, &nrm);
            for k in 0..3 {
                if let (Some(acc), Some(t)) = (pos.get_mut(k), tp.get(k)) {
                    *acc += inf.weight * t;
                }
                if let (Some(acc), Some(t)) = (nor.get_mut(k), tn.get(k)) {
                    *acc += inf.weight * t;
                }
            }
        }
        *out_p = pos;
        if with_normals && let Some(o) = out_normals.get_mut(v) {
            *o = normalized(nor);
        }
    }
    Ok(())
}

/// The fast skinning of one mesh (see the module docs), with the pose's skin matrices.
pub fn skin_mesh(
    mesh: &Mesh,
    binding: &SkinBinding,
    matrices: &[Affine],
    positions: &[[f32; 3]],
    normals: &[[f32; 3]],
    out_positions: &mut [[f32; 3]],
    out_normals: &mut [[f32; 3]],
) -> Result<(), SkinError> {
    let n = mesh.positions.len();
    check_buffers(n, positions, normals, out_positions, out_normals)?;
    if binding.is_empty() {
        out_positions.iter_mut().zip(positions).for_each(|(o, p)| *o = *p);
        out_normals.iter_mut().zip(normals).for_each(|(o, p)| *o = *p);
        return Ok(());
    }
    check_len(binding.joints.len(), n)?;
    if usize::from(binding.max_bone) >= matrices.len() {
        return Err(SkinError::MissingBone { bone: usize::from(binding.max_bone), matrices: matrices.len() });
    }
    kernel(matrices, binding, positions, normals, out_positions, out_normals);
    // Vertices with more than four influences: redo them in full.
    for &v in &binding.wide {
        let v = v as usize;
        let mut m: Affine = ZERO;
        for inf in mesh.skin.vertex(v) {
            let Some(src) = matrices.get(inf.bone as usize) else { continue };
            add_scaled(&mut m, src, inf.weight);
        }
        if let (Some(p), Some(op)) = (positions.get(v), out_positions.get_mut(v)) {
            *op = transform_point(&m, p);
        }
        if let (Some(nrm), Some(on)) = (normals.get(v), out_normals.get_mut(v)) {
            *on = normalized(transform_vector(&m, nrm));
        }
    }
    Ok(())
}

const ZERO: Affine = [[0.0; 4]; 4];

/// Runs the four-influence loop with the best instructions this CPU has: AVX2 + FMA where the
/// processor reports them at run time, portable SSE2 otherwise. Both compute the same sums; the
/// FMA path rounds once per multiply-add, so results differ in the last bits only.
fn kernel(
    matrices: &[Affine],
    binding: &SkinBinding,
    positions: &[[f32; 3]],
    normals: &[[f32; 3]],
    out_positions: &mut [[f32; 3]],
    out_normals: &mut [[f32; 3]],
) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma") {
        // SAFETY: the only requirement of a `#[target_feature]` function is that the CPU has the
        // features, which was checked just above.
        #[allow(unsafe_code)]
        unsafe {
            kernel_avx2_fma(matrices, binding, positions, normals, out_positions, out_normals)
        };
        return;
    }
    kernel_sse(matrices, binding, positions, normals, out_positions, out_normals);
}

fn kernel_sse(
    matrices: &[Affine],
    binding: &SkinBinding,
    positions: &[[f32; 3]],
    normals: &[[f32; 3]],
    out_positions: &mut [[f32; 3]],
    out_normals: &mut [[f32; 3]],
) {
    let joints = binding.joints.iter().zip(&binding.weights);
    if normals.is_empty() {
        for (((j, w), p), op) in joints.zip(positions).zip(out_positions.iter_mut()) {
            *op = point(&blend(matrices, j, w), p);
        }
        return;
    }
    let work = joints.zip(positions.iter().zip(normals));
    for ((((j, w), (p, nrm)), op), on) in work.zip(out_positions.iter_mut()).zip(out_normals.iter_mut()) {
        let m = blend(matrices, j, w);
        *op = point(&m, p);
        *on = normalized(vector(&m, nrm));
    }
}

/// The same loop with 256-bit registers and fused multiply-adds: a skin matrix is two 8-lane
/// halves (columns 0–1 and 2–3), so the four-influence blend is eight FMAs, and a point or normal
/// is two more plus one half-sum.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn kernel_avx2_fma(
    matrices: &[Affine],
    binding: &SkinBinding,
    positions: &[[f32; 3]],
    normals: &[[f32; 3]],
    out_positions: &mut [[f32; 3]],
    out_normals: &mut [[f32; 3]],
) {
    use std::arch::x86_64::{
        __m128, __m256, _mm_add_ps, _mm_cvtss_f32, _mm_rsqrt_ss, _mm_set_ss, _mm256_castps256_ps128,
        _mm256_extractf128_ps, _mm256_fmadd_ps, _mm256_mul_ps, _mm256_set1_ps, _mm256_setr_ps,
    };
    let halves: &[[[f32; 8]; 2]] = bytemuck::cast_slice(matrices);
    // `skin_mesh` checked every joint against the matrix count (`max_bone`), so this index never
    // fails; as a plain index it costs one predictable branch instead of a select per half.
    #[allow(clippy::indexing_slicing)]
    let get = |j: u16| &halves[usize::from(j)];
    let load = |a: &[f32; 8]| bytemuck::cast::<[f32; 8], __m256>(*a);
    let sum_halves = |v: __m256| -> [f32; 4] {
        bytemuck::cast::<__m128, [f32; 4]>(_mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps::<1>(v)))
    };
    let joints = binding.joints.iter().zip(&binding.weights);
    let mut normal_io = normals.iter().zip(out_normals.iter_mut());
    for (((j, w), p), op) in joints.zip(positions).zip(out_positions.iter_mut()) {
        let (m0, m1, m2, m3) = (get(j[0]), get(j[1]), get(j[2]), get(j[3]));
        let (w0, w1, w2, w3) = (_mm256_set1_ps(w[0]), _mm256_set1_ps(w[1]), _mm256_set1_ps(w[2]), _mm256_set1_ps(w[3]));
        let ([m0a, m0b], [m1a, m1b], [m2a, m2b], [m3a, m3b]) = (m0, m1, m2, m3);
        let blend = |h0: &[f32; 8], h1: &[f32; 8], h2: &[f32; 8], h3: &[f32; 8]| {
            let a = _mm256_fmadd_ps(load(h1), w1, _mm256_mul_ps(load(h0), w0));
            _mm256_fmadd_ps(load(h3), w3, _mm256_fmadd_ps(load(h2), w2, a))
        };
        let (c01, c23) = (blend(m0a, m1a, m2a, m3a), blend(m0b, m1b, m2b, m3b));
        let pos = _mm256_fmadd_ps(
            c23,
            _mm256_setr_ps(p[2], p[2], p[2], p[2], 1.0, 1.0, 1.0, 1.0),
            _mm256_mul_ps(c01, _mm256_setr_ps(p[0], p[0], p[0], p[0], p[1], p[1], p[1], p[1])),
        );
        let r = sum_halves(pos);
        *op = [r[0], r[1], r[2]];
        if let Some((n, on)) = normal_io.next() {
            let nor = _mm256_fmadd_ps(
                c23,
                _mm256_setr_ps(n[2], n[2], n[2], n[2], 0.0, 0.0, 0.0, 0.0),
                _mm256_mul_ps(c01, _mm256_setr_ps(n[0], n[0], n[0], n[0], n[1], n[1], n[1], n[1])),
            );
            let r = sum_halves(nor);
            // 1/√len² by the hardware estimate plus one Newton step (relative error ~1e-7).
            let len2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
            *on = if len2 > f32::MIN_POSITIVE && len2.is_finite() {
                let y = _mm_cvtss_f32(_mm_rsqrt_ss(_mm_set_ss(len2)));
                let y = y * (1.5 - 0.5 * len2 * y * y);
                [r[0] * y, r[1] * y, r[2] * y]
            } else {
                normalized([r[0], r[1], r[2]])
            };
        }
    }
}

/// `Σ wᵢ · Mᵢ` of four matrices: each column is one 4-lane multiply-add per influence.
#[inline(always)]
// Joints were checked against the matrix count (`max_bone`) before the loop: see `kernel_avx2_fma`.
#[allow(clippy::indexing_slicing)]
fn blend(matrices: &[Affine], j: &[u16; 4], w: &[f32; 4]) -> [f32x4; 4] {
    let (m0, m1) = (&matrices[usize::from(j[0])], &matrices[usize::from(j[1])]);
    let (m2, m3) = (&matrices[usize::from(j[2])], &matrices[usize::from(j[3])]);
    let (w0, w1, w2, w3) = (f32x4::splat(w[0]), f32x4::splat(w[1]), f32x4::splat(w[2]), f32x4::splat(w[3]));
    // Pairwise sums: two independent chains instead of one of length four.
    let col = |c: usize| {
        (f32x4::from(m0[c]) * w0 + f32x4::from(m1[c]) * w1) + (f32x4::from(m2[c]) * w2 + f32x4::from(m3[c]) * w3)
    };
    [col(0), col(1), col(2), col(3)]
}

/// `m · (p, 1)` for blended columns.
#[inline(always)]
fn point(m: &[f32x4; 4], p: &[f32; 3]) -> [f32; 3] {
    let r = ((m[0] * f32x4::splat(p[0]) + m[1] * f32x4::splat(p[1])) + (m[2] * f32x4::splat(p[2]) + m[3])).to_array();
    [r[0], r[1], r[2]]
}

/// `m · (v, 0)` for blended columns.
#[inline(always)]
fn vector(m: &[f32x4; 4], v: &[f32; 3]) -> [f32; 3] {
    let r = (m[0] * f32x4::splat(v[0]) + m[1] * f32x4::splat(v[1]) + m[2] * f32x4::splat(v[2])).to_array();
    [r[0], r[1], r[2]]
}

#[inline(always)]
fn add_scaled(m: &mut Affine, src: &Affine, w: f32) {
    for (dc, sc) in m.iter_mut().zip(src) {
        *dc = madd(*dc, *sc, w);
    }
}

#[inline(always)]
fn transform_point(m: &Affine, p: &[f32; 3]) -> [f32; 3] {
    affine::transform_point(m, p)
}

#[inline(always)]
fn transform_vector(m: &Affine, v: &[f32; 3]) -> [f32; 3] {
    affine::transform_vector(m, v)
}
