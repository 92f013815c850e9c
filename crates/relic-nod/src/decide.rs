//! Per-file plausibility checks that pick a reading for each open layout question of a NOD
//! (spec §9), and the cross-reference checks that depend on the picked group-tail layout.
//!
//! | question | candidates pass when | then preferred | tie |
//! |---|---|---|---|
//! | group tail | every group's mesh number < NumMeshs and bone number < NumBones | more groups with flags ≤ 0xF | B |
//! | matrix layout | every bone's 3×3 block is a rotation (`|BᵀB − I|`, `|det − 1|` ≤ 10⁻³) | bone origins match `RestTranslate` (half the error or less), then bound vertices lie closer to their bone (10 % or more) | H1 |
//! | RestTranslate space | — | parent-space or model-space origins match `RestTranslate` (half the error or less) | parent |
//! | winding | — | three quarters or more of the faces agree with the stored normals | ccw |
//! | NAD polynomial | — | P1 or P2 has clearly smaller slope jumps at keys (half or less) | P1 |

use nalgebra::Vector3;
use relic_core::{ReadError, ReadErrorKind};

use crate::file::{NadFile, NodFile, NodVertex, TRACK_ROTATION};
use crate::options::{
    AngleUnit, Choice, Decided, EulerOrder, GroupTail, How, MatrixLayout, NadOptions, NodOptions, Polynomial,
    RestTranslateSpace, UvOrigin, Winding,
};
use crate::rest::{block, inverse_rest, invert, point, rotation_error, translation};
use crate::validate::{check_vertex_bones, tail_problem};

/// Largest `|BᵀB − I|` / `|det B − 1|` for a block to count as a rotation.
const ROTATION_TOLERANCE: f64 = 1e-3;

/// The readings taken for one NOD file.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct NodChoices {
    /// `RestMatrixInverse` layout.
    pub matrix_layout: Decided<MatrixLayout>,
    /// Group bytes 22–27.
    pub group_tail: Decided<GroupTail>,
    /// Space of `RestTranslate`.
    pub rest_translate: Decided<RestTranslateSpace>,
    /// Front-face winding.
    pub winding: Decided<Winding>,
    /// UV origin (an option only).
    pub uv_origin: UvOrigin,
}

impl NodChoices {
    /// The working assumptions, as a writer uses them for a model that did not come from a NOD.
    pub(crate) fn defaults() -> Self {
        let why = "default for a model from elsewhere";
        NodChoices {
            matrix_layout: Decided::fixed(MatrixLayout::default(), why),
            group_tail: Decided::fixed(GroupTail::default(), why),
            rest_translate: Decided::fixed(RestTranslateSpace::default(), why),
            winding: Decided::fixed(Winding::default(), why),
            uv_origin: UvOrigin::default(),
        }
    }
}

/// The readings taken for one NAD file.
#[derive(Debug, Clone, PartialEq)]
pub struct NadChoices {
    /// Coefficient order.
    pub polynomial: Decided<Polynomial>,
    /// Euler order (an option only).
    pub euler_order: EulerOrder,
    /// Angle unit (an option only).
    pub angle_unit: AngleUnit,
}

/// Picks a reading for every open question of `file` and checks the references that depend on
/// it (mesh and bone numbers of the groups, bone numbers of the vertices).
pub fn decide_nod(file: &NodFile, options: &NodOptions) -> Result<NodChoices, ReadError> {
    let group_tail = decide_tail(file, options.group_tail)?;
    check_vertex_bones(file, group_tail.value)?;
    let matrix_layout = decide_matrix(file, options.matrix_layout);
    let rest_translate = decide_rest_translate(file, options.rest_translate, matrix_layout.value);
    let winding = decide_winding(file, options.winding);
    Ok(NodChoices { matrix_layout, group_tail, rest_translate, winding, uv_origin: options.uv_origin })
}

fn decide_tail(file: &NodFile, choice: Choice<GroupTail>) -> Result<Decided<GroupTail>, ReadError> {
    let refuse = |(offset, path, why): (u64, String, String)| ReadError::at(offset, path, ReadErrorKind::Invalid(why));
    if let Choice::Fixed(layout) = choice {
        return match tail_problem(file, layout) {
            Some(p) => Err(refuse(p)),
            None => Ok(Decided::fixed(layout, "set by the caller")),
        };
    }
    let (a, b) = (tail_problem(file, GroupTail::A), tail_problem(file, GroupTail::B));
    let n = file.groups.len();
    let plausible = |layout: GroupTail| {
        file.groups.iter().filter(|g| layout.decode(g.tail).flags == layout.decode(g.tail).effective_flags()).count()
    };
    match (a, b) {
        (None, None) => {
            let (pa, pb) = (plausible(GroupTail::A), plausible(GroupTail::B));
            let evidence = format!(
                "both give in-range mesh/bone numbers; flags ≤ 0xF in {pa}/{n} groups under A, {pb}/{n} under B"
            );
            Ok(match pa.cmp(&pb) {
                std::cmp::Ordering::Greater => Decided { value: GroupTail::A, how: How::Auto, evidence },
                std::cmp::Ordering::Less => Decided { value: GroupTail::B, how: How::Auto, evidence },
                std::cmp::Ordering::Equal => Decided { value: GroupTail::default(), how: How::Undecided, evidence },
            })
        }
        (None, Some((_, _, why))) => Ok(Decided {
            value: GroupTail::A,
            how: How::Auto,
            evidence: format!("only A gives in-range numbers ({why})"),
        }),
        (Some((_, _, why)), None) => Ok(Decided {
            value: GroupTail::B,
            how: How::Auto,
            evidence: format!("only B gives in-range numbers ({why})"),
        }),
        (Some(pa), Some((_, _, why_b))) => {
            let (offset, path, why_a) = pa;
            Err(ReadError::at(
                offset,
                path,
                ReadErrorKind::Invalid(format!("no group-tail layout fits: {why_a}; {why_b}")),
            ))
        }
    }
}

/// The largest coordinate of the model (for scale-aware tolerances), over the bones and up to
/// [`SAMPLES`] evenly spaced vertices.
pub(crate) fn model_extent(file: &NodFile) -> f64 {
    let from_vertices = file
        .vertices
        .iter()
        .step_by(sample_stride(file.vertices.len()))
        .flat_map(|v| v.pos)
        .map(|c| f64::from(c).abs())
        .fold(0.0, f64::max);
    let from_bones = file.bones.iter().flat_map(|b| b.rest_translate).map(|c| f64::from(c).abs()).fold(0.0, f64::max);
    let e = from_vertices.max(from_bones);
    if e.is_finite() { e } else { 0.0 }
}

/// How far `RestTranslate` is from each bone's origin (from the inverse rest matrices) in parent
/// space and in model space: the worst distance over all bones for each reading.
fn rest_translate_fit(file: &NodFile, layout: MatrixLayout) -> (f64, f64) {
    let inv = inverse_rest(file, layout);
    let mut parent_fit = 0.0f64;
    let mut model_fit = 0.0f64;
    for (b, bone) in file.bones.iter().enumerate() {
        let Some(world) = inv.get(b).and_then(invert) else {
            return (f64::INFINITY, f64::INFINITY);
        };
        let origin: [f64; 3] = translation(&world).into();
        let rt = bone.rest_translate.map(f64::from);
        let local = match usize::try_from(bone.parent).ok().and_then(|p| inv.get(p)) {
            Some(parent_inverse) => point(parent_inverse, origin),
            None => origin,
        };
        parent_fit = parent_fit.max(max_diff3(local, rt));
        model_fit = model_fit.max(max_diff3(origin, rt));
    }
    let clean = |x: f64| if x.is_nan() { f64::INFINITY } else { x };
    (clean(parent_fit), clean(model_fit))
}

/// The statistics below look at up to this many evenly spaced faces or vertices: enough to tell
/// the readings apart, and a large file is decided in a fraction of its parse time.
const SAMPLES: usize = 8192;

fn sample_stride(n: usize) -> usize {
    n.div_ceil(SAMPLES).max(1)
}

/// Mean distance of the vertices bound to each bone from that bone's origin, in bone space
/// (over up to [`SAMPLES`] evenly spaced vertices).
fn bone_space_spread(file: &NodFile, layout: MatrixLayout) -> f64 {
    let inv = inverse_rest(file, layout);
    let (mut sum, mut n) = (0.0f64, 0usize);
    for v in file.vertices.iter().step_by(sample_stride(file.vertices.len())) {
        if let Some(m) = inv.get(usize::from(v.bone_num)) {
            sum += Vector3::from(point(m, v.pos.map(f64::from))).norm();
            n += 1;
        }
    }
    let mean = if n == 0 { 0.0 } else { sum / n as f64 };
    if mean.is_finite() { mean } else { f64::INFINITY }
}

/// `a` is clearly smaller than `b`: at most half, and apart by more than `tol`.
fn clearly_below(a: f64, b: f64, tol: f64) -> bool {
    a <= 0.5 * b && b - a > tol
}

fn decide_matrix(file: &NodFile, choice: Choice<MatrixLayout>) -> Decided<MatrixLayout> {
    if let Choice::Fixed(layout) = choice {
        return Decided::fixed(layout, "set by the caller");
    }
    if file.bones.is_empty() {
        return Decided { value: MatrixLayout::default(), how: How::Undecided, evidence: "no bones".into() };
    }
    let layouts = [MatrixLayout::H1, MatrixLayout::H2, MatrixLayout::H3];
    let errors = layouts.map(|l| {
        let e = inverse_rest(file, l).iter().map(|m| rotation_error(&block(m))).fold(0.0, f64::max);
        if e.is_nan() { f64::INFINITY } else { e }
    });
    let mut evidence = format!("rotation-block error H1 {:.1e}, H2 {:.1e}, H3 {:.1e}", errors[0], errors[1], errors[2]);
    let mut candidates: Vec<MatrixLayout> =
        layouts.iter().zip(errors).filter(|(_, e)| *e <= ROTATION_TOLERANCE).map(|(l, _)| *l).collect();
    match candidates.as_slice() {
        [] => {
            evidence.push_str(&format!("; none is a rotation (tolerance {ROTATION_TOLERANCE:e})"));
            return Decided { value: MatrixLayout::default(), how: How::Undecided, evidence };
        }
        [only] => return Decided { value: *only, how: How::Auto, evidence },
        _ => {}
    }
    let tol = 1e-4 * (1.0 + model_extent(file));
    // RestTranslate against the origins, in whichever space fits better.
    let fits: Vec<(MatrixLayout, f64)> = candidates
        .iter()
        .map(|&l| {
            let (p, m) = rest_translate_fit(file, l);
            (l, p.min(m))
        })
        .collect();
    evidence.push_str("; RestTranslate vs origins");
    for (l, f) in &fits {
        evidence.push_str(&format!(" {l} {f:.2e}"));
    }
    if let Some(&(best, f)) = fits.iter().min_by(|a, b| a.1.total_cmp(&b.1))
        && fits.iter().all(|&(l, g)| l == best || clearly_below(f, g, tol))
    {
        return Decided { value: best, how: How::Auto, evidence };
    }
    let best_fit = fits.iter().map(|x| x.1).fold(f64::INFINITY, f64::min);
    candidates.retain(|l| fits.iter().any(|&(m, f)| m == *l && !clearly_below(best_fit, f, tol)));
    let spreads: Vec<(MatrixLayout, f64)> = candidates.iter().map(|&l| (l, bone_space_spread(file, l))).collect();
    evidence.push_str("; vertices from their bone");
    for (l, s) in &spreads {
        evidence.push_str(&format!(" {l} {s:.3}"));
    }
    if let Some(&(best, s)) = spreads.iter().min_by(|a, b| a.1.total_cmp(&b.1))
        && spreads.iter().all(|&(l, t)| l == best || (s < 0.9 * t && t - s > tol))
    {
        return Decided { value: best, how: How::Auto, evidence };
    }
    let value = if candidates.contains(&MatrixLayout::default()) {
        MatrixLayout::default()
    } else {
        // No candidate at all (no bone to judge by): the spec's working hypothesis, the layout's
        // `#[default]` (options.rs), as for every undecided file.
        candidates.first().copied().unwrap_or_default()
    };
    Decided { value, how: How::Undecided, evidence }
}

fn decide_rest_translate(
    file: &NodFile,
    choice: Choice<RestTranslateSpace>,
    layout: MatrixLayout,
) -> Decided<RestTranslateSpace> {
    if let Choice::Fixed(space) = choice {
        return Decided::fixed(space, "set by the caller");
    }
    let (parent, model) = rest_translate_fit(file, layout);
    let evidence = format!("worst distance to the origins: parent-space {parent:.2e}, model-space {model:.2e}");
    let tol = 1e-4 * (1.0 + model_extent(file));
    if clearly_below(parent, model, tol) {
        Decided { value: RestTranslateSpace::Parent, how: How::Auto, evidence }
    } else if clearly_below(model, parent, tol) {
        Decided { value: RestTranslateSpace::Model, how: How::Auto, evidence }
    } else {
        Decided { value: RestTranslateSpace::default(), how: How::Undecided, evidence }
    }
}

/// Faces whose geometric normal (counter-clockwise, right-handed) agrees with the sum of their
/// stored vertex normals, and faces where it disagrees (over up to [`SAMPLES`] evenly spaced faces).
fn winding_votes(file: &NodFile) -> (usize, usize) {
    let (mut agree, mut disagree) = (0usize, 0usize);
    let stride = sample_stride(file.faces.len());
    for (group, (v0, f0)) in file.groups.iter().zip(file.group_starts()) {
        let faces = file.group_faces(f0, group);
        // Evenly spaced faces (all of them in files of up to SAMPLES faces).
        let skip = (stride - f0 % stride) % stride;
        for face in faces.iter().skip(skip).step_by(stride) {
            let Some([a, b, c]) = face_vertices(file, v0, face) else { continue };
            let wide = |v: &NodVertex| Vector3::from(v.pos.map(f64::from));
            let (pa, pb, pc) = (wide(a), wide(b), wide(c));
            let n = (pb - pa).cross(&(pc - pa));
            let normal = |v: &NodVertex| Vector3::from(v.norm.map(f64::from));
            let dot = n.dot(&(normal(a) + normal(b) + normal(c)));
            if dot > 0.0 {
                agree += 1;
            } else if dot < 0.0 {
                disagree += 1;
            }
        }
    }
    (agree, disagree)
}

fn face_vertices<'a>(file: &'a NodFile, first: usize, face: &[u16; 3]) -> Option<[&'a NodVertex; 3]> {
    let get = |i: u16| file.vertices.get(first + usize::from(i));
    Some([get(face[0])?, get(face[1])?, get(face[2])?])
}

fn decide_winding(file: &NodFile, choice: Choice<Winding>) -> Decided<Winding> {
    if let Choice::Fixed(w) = choice {
        return Decided::fixed(w, "set by the caller");
    }
    let (agree, disagree) = winding_votes(file);
    let total = agree + disagree;
    let evidence = format!("stored normals agree with counter-clockwise faces on {agree} of {total}");
    if total > 0 && 4 * agree >= 3 * total {
        Decided { value: Winding::CounterClockwise, how: How::Auto, evidence }
    } else if total > 0 && 4 * disagree >= 3 * total {
        Decided { value: Winding::Clockwise, how: How::Auto, evidence }
    } else {
        Decided { value: Winding::default(), how: How::Undecided, evidence }
    }
}

/// Largest absolute difference of two 3-vectors.
fn max_diff3(a: [f64; 3], b: [f64; 3]) -> f64 {
    a.iter().zip(&b).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max)
}

// ---- NAD ----------------------------------------------------------------------------------------

/// Figures on a NAD's curves (spec §9.5).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct CurveReport {
    /// Segments (pairs of consecutive keys).
    pub(crate) segments: usize,
    /// Largest `|P(σ) − Value_k+1|` over segments and components, under P1 and P2.
    pub(crate) end_gap: [f64; 2],
    /// Relative slope jump at interior keys under P1 and P2: `Σ|Δslope| / Σ(|slope in| + |slope out|)`.
    pub(crate) slope_jump: [f64; 2],
    /// Largest `|(Frame_k+1 − Frame_k) · FrameScale_k − 1|`.
    pub(crate) frame_scale_error: f64,
    /// Tracks whose last key's FrameScale is +∞.
    pub(crate) infinite_last: usize,
    /// Tracks with keys.
    pub(crate) tracks_with_keys: usize,
    /// Largest |angle| stored in a rotation track (stored units).
    pub(crate) max_angle: f64,
    /// Every track's frames are finite and strictly ascending.
    pub(crate) ascending: bool,
}

/// Figures on every curve of the file.
pub(crate) fn curve_report(nad: &NadFile) -> CurveReport {
    let mut r = CurveReport { ascending: true, ..CurveReport::default() };
    let mut jump = [0.0f64; 2];
    let mut total = [0.0f64; 2];
    for track in &nad.tracks {
        if let Some(last) = track.keys.last() {
            r.tracks_with_keys += 1;
            if last.frame_scale == f32::INFINITY {
                r.infinite_last += 1;
            }
        }
        if track.track_type == TRACK_ROTATION {
            for k in &track.keys {
                r.max_angle = k.value.iter().map(|v| f64::from(v.abs())).fold(r.max_angle, f64::max);
            }
        }
        for pair in track.keys.windows(2) {
            let [a, b] = pair else { continue };
            if !(a.frame.is_finite() && b.frame.is_finite() && b.frame > a.frame) {
                r.ascending = false;
                continue;
            }
            r.segments += 1;
            let s = a.sigma(b);
            if s.is_finite() {
                r.frame_scale_error = r.frame_scale_error.max((s - 1.0).abs());
            }
            for (p, poly) in [Polynomial::Ascending, Polynomial::Descending].into_iter().enumerate() {
                let end = a.eval(s, poly);
                let gap = end.iter().zip(b.value).map(|(e, v)| (e - f64::from(v)).abs()).fold(0.0, f64::max);
                if let Some(g) = r.end_gap.get_mut(p)
                    && gap.is_finite()
                {
                    *g = g.max(gap);
                }
            }
        }
        for triple in track.keys.windows(3) {
            let [a, b, c] = triple else { continue };
            if !(b.frame > a.frame && c.frame > b.frame) {
                continue;
            }
            for (p, poly) in [Polynomial::Ascending, Polynomial::Descending].into_iter().enumerate() {
                let end = a.slope(a.sigma(b), poly).map(|x| x * f64::from(a.frame_scale));
                let start = b.slope(0.0, poly).map(|x| x * f64::from(b.frame_scale));
                for (e, s) in end.iter().zip(start) {
                    if e.is_finite() && s.is_finite() {
                        if let Some(j) = jump.get_mut(p) {
                            *j += (e - s).abs();
                        }
                        if let Some(t) = total.get_mut(p) {
                            *t += e.abs() + s.abs();
                        }
                    }
                }
            }
        }
    }
    r.slope_jump = [0, 1].map(|p| {
        // p < 2 indexes the two-element sums above: the defaults are never taken.
        let (j, t) = (jump.get(p).copied().unwrap_or(0.0), total.get(p).copied().unwrap_or(0.0));
        if t > 0.0 { j / t } else { 0.0 }
    });
    r
}

/// Picks the readings for one NAD.
pub fn decide_nad(nad: &NadFile, options: &NadOptions) -> NadChoices {
    let polynomial = match options.polynomial {
        Choice::Fixed(p) => Decided::fixed(p, "set by the caller"),
        Choice::Auto => {
            let r = curve_report(nad);
            let [p1, p2] = r.slope_jump;
            let evidence = format!("relative slope jump at keys: P1 {p1:.2e}, P2 {p2:.2e}");
            let clearly = |a: f64, b: f64| a <= 0.5 * b && b - a > 1e-3;
            if clearly(p1, p2) {
                Decided { value: Polynomial::Ascending, how: How::Auto, evidence }
            } else if clearly(p2, p1) {
                Decided { value: Polynomial::Descending, how: How::Auto, evidence }
            } else {
                Decided { value: Polynomial::default(), how: How::Undecided, evidence }
            }
        }
    };
    NadChoices { polynomial, euler_order: options.euler_order, angle_unit: options.angle_unit }
}
