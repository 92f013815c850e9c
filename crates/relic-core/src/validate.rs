//! Validation of the common model: what every writer requires before it writes.
//!
//! | rule | tolerance |
//! |---|---|
//! | indices (parents, materials, bones, vertices, meshes, clocks) in range | — |
//! | a parent comes before its children (so the skeleton is acyclic) | — |
//! | every float finite | — |
//! | a skinned vertex has ≥ 1 influence, weights ≥ 0 summing to 1 | [`WEIGHT_SUM_TOLERANCE`] |
//! | key times strictly increasing | — |
//! | rotations (rest, keys, attachments) unit length | [`UNIT_TOLERANCE`] |
//! | per-vertex arrays as long as the positions | — |

use crate::math::Mat4;
use crate::model::{ChannelValues, Clock, EmitterTrack, Interpolation, LayerRef, Model, TintTarget, Transform};

/// How far a vertex's weights may sum from 1.
pub const WEIGHT_SUM_TOLERANCE: f32 = 1e-4;
/// How far a rotation quaternion's length may be from 1. Game exporters store quaternions that
/// are unit only to about 1e-3 (LithTech does not renormalise), so this is looser than glTF's.
pub const UNIT_TOLERANCE: f32 = 5e-3;

/// A rule the model breaks, with the element that breaks it.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{element}: {problem}")]
pub struct ValidationError {
    /// Path of the element (`meshes[2] "head".skin vertex 17`).
    pub element: String,
    /// What is wrong with it.
    pub problem: Problem,
}

/// What is wrong with an element.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Problem {
    /// An index points past the end of what it indexes.
    #[error("{what} {index} is out of range ({count} exist)")]
    IndexOutOfRange {
        /// What the index refers to (`bone`, `material`, `vertex`, …).
        what: &'static str,
        /// The index.
        index: usize,
        /// How many exist.
        count: usize,
    },
    /// A bone's parent does not come before it.
    #[error("parent {parent} does not come before the bone")]
    ParentAfterChild {
        /// The parent index.
        parent: usize,
    },
    /// A value is NaN or infinite.
    #[error("{what} is not finite")]
    NotFinite {
        /// Which value.
        what: &'static str,
    },
    /// A per-vertex array has the wrong length.
    #[error("{what} has {found} entries for {expected} vertices")]
    LengthMismatch {
        /// Which array.
        what: &'static str,
        /// Its length.
        found: usize,
        /// The vertex count.
        expected: usize,
    },
    /// A skinned vertex has no influence.
    #[error("vertex {vertex} has no bone influence")]
    NoInfluence {
        /// The vertex.
        vertex: usize,
    },
    /// A weight is negative.
    #[error("vertex {vertex} has negative weight {weight}")]
    NegativeWeight {
        /// The vertex.
        vertex: usize,
        /// The weight.
        weight: f32,
    },
    /// A vertex's weights do not sum to 1.
    #[error("vertex {vertex} weights sum to {sum}, not 1")]
    WeightSum {
        /// The vertex.
        vertex: usize,
        /// The sum.
        sum: f32,
    },
    /// The skin's offset table is malformed.
    #[error("skin offsets are not ascending or do not end at the influence count")]
    SkinOffsets,
    /// Key times are not strictly increasing.
    #[error("key {key} at {time} s does not come after the previous key")]
    TimesNotIncreasing {
        /// The key.
        key: usize,
        /// Its time.
        time: f32,
    },
    /// The number of values does not fit the number of keys.
    #[error("{values} values for {keys} keys ({per_key} per key expected)")]
    ValueCount {
        /// Values stored.
        values: usize,
        /// Keys.
        keys: usize,
        /// Values per key.
        per_key: usize,
    },
    /// A rotation is not a unit quaternion.
    #[error("rotation {index} has length {length}, not 1")]
    NotUnit {
        /// Which rotation (key index, or 0 for a single one).
        index: usize,
        /// Its length.
        length: f32,
    },
    /// A number is negative where it must not be.
    #[error("{what} is negative ({value})")]
    Negative {
        /// Which value.
        what: &'static str,
        /// The value.
        value: f32,
    },
}

fn err(element: impl Into<String>, problem: Problem) -> ValidationError {
    ValidationError { element: element.into(), problem }
}

fn finite(v: &[f32]) -> bool {
    v.iter().all(|x| x.is_finite())
}

fn check_unit(element: &str, index: usize, q: &[f32; 4], out: &mut Vec<ValidationError>) {
    let length = crate::math::quat_norm(*q);
    if !finite(q) {
        out.push(err(element, Problem::NotFinite { what: "rotation" }));
    } else if (length - 1.0).abs() > UNIT_TOLERANCE {
        out.push(err(element, Problem::NotUnit { index, length }));
    }
}

fn check_transform(element: &str, t: &Transform, out: &mut Vec<ValidationError>) {
    if !finite(&t.translation) {
        out.push(err(element, Problem::NotFinite { what: "translation" }));
    }
    if !finite(&t.scale) {
        out.push(err(element, Problem::NotFinite { what: "scale" }));
    }
    check_unit(element, 0, &t.rotation, out);
}

fn check_matrix(element: &str, what: &'static str, m: &Mat4, out: &mut Vec<ValidationError>) {
    if !finite(m) {
        out.push(err(element, Problem::NotFinite { what }));
    }
}

fn check_index(element: &str, what: &'static str, index: usize, count: usize, out: &mut Vec<ValidationError>) -> bool {
    if index >= count {
        out.push(err(element, Problem::IndexOutOfRange { what, index, count }));
        return false;
    }
    true
}

fn check_times(element: &str, times: &[f32], out: &mut Vec<ValidationError>) {
    if !finite(times) {
        out.push(err(element, Problem::NotFinite { what: "key time" }));
        return;
    }
    for (key, pair) in times.windows(2).enumerate() {
        if let [a, b] = pair
            && b <= a
        {
            out.push(err(element, Problem::TimesNotIncreasing { key: key + 1, time: *b }));
            return;
        }
    }
}

impl Model {
    /// Checks every rule of [`crate::validate`]; returns the first broken one.
    pub fn validate(&self) -> Result<(), ValidationError> {
        match self.problems().into_iter().next() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Keys of emitters, lights, cameras, tints and UV animations: their clip and clock exist,
    /// times ascend, one value (three for cubic keys) of `components` numbers a key.
    fn check_tracks(&self, element: &str, tracks: &[EmitterTrack], out: &mut Vec<ValidationError>) {
        for t in tracks {
            if let Some(a) = t.animation {
                check_index(element, "animation", a, self.animations.len(), out);
            }
            if let Clock::Global(g) = t.clock {
                check_index(element, "global sequence", g, self.global_sequences.len(), out);
            }
            check_times(element, &t.times, out);
            let per_key = t.components * if t.interpolation == Interpolation::CubicSpline { 3 } else { 1 };
            if per_key == 0 || t.values.len() != t.times.len() * per_key {
                let (values, keys) = (t.values.len(), t.times.len());
                out.push(err(element, Problem::ValueCount { values, keys, per_key }));
            } else if !finite(&t.values) {
                out.push(err(element, Problem::NotFinite { what: "track value" }));
            }
        }
    }

    /// Lights, cameras and collision shapes: their bones, places and parameters.
    fn check_scene(&self, out: &mut Vec<ValidationError>) {
        for (i, l) in self.lights.iter().enumerate() {
            let element = format!("lights[{i}] {:?}", l.name);
            check_index(&element, "bone", l.bone, self.bones.len(), out);
            check_transform(&element, &l.transform, out);
            let numbers = l.color.iter().chain([&l.intensity]).chain(l.attenuation.iter().flatten());
            let numbers = numbers.chain(l.ambient.iter().flat_map(|(c, i)| c.iter().chain([i])));
            if !numbers.chain(l.cone.iter().flatten()).all(|v| v.is_finite()) {
                out.push(err(&element, Problem::NotFinite { what: "light parameter" }));
            }
            self.check_tracks(&element, &l.tracks, out);
        }
        for (i, c) in self.cameras.iter().enumerate() {
            let element = format!("cameras[{i}] {:?}", c.name);
            if let Some(b) = c.bone {
                check_index(&element, "bone", b, self.bones.len(), out);
            }
            if !c.position.iter().chain(&c.target).chain([&c.yfov, &c.znear, &c.zfar]).all(|v| v.is_finite()) {
                out.push(err(&element, Problem::NotFinite { what: "camera parameter" }));
            }
            self.check_tracks(&element, &c.tracks, out);
        }
        for (i, c) in self.collision_shapes.iter().enumerate() {
            let element = format!("collision_shapes[{i}] {:?}", c.name);
            check_index(&element, "bone", c.bone, self.bones.len(), out);
            check_transform(&element, &c.transform, out);
            if !c.shape.points().iter().flatten().chain([&c.shape.radius()]).all(|v| v.is_finite()) {
                out.push(err(&element, Problem::NotFinite { what: "shape" }));
            }
        }
    }

    /// Every broken rule, in model order.
    pub fn problems(&self) -> Vec<ValidationError> {
        let mut out = Vec::new();
        self.check_bones(&mut out);
        self.check_meshes(&mut out);
        self.check_animations(&mut out);
        for (i, a) in self.attachments.iter().enumerate() {
            let element = format!("attachments[{i}] {:?}", a.name);
            check_index(&element, "bone", a.bone, self.bones.len(), &mut out);
            check_transform(&element, &a.transform, &mut out);
        }
        for (i, e) in self.emitters.iter().enumerate() {
            let element = format!("emitters[{i}] {:?}", e.name);
            check_index(&element, "bone", e.bone, self.bones.len(), &mut out);
            check_transform(&element, &e.transform, &mut out);
            if !e.size.is_finite() {
                out.push(err(element.clone(), Problem::NotFinite { what: "size" }));
            }
            self.check_tracks(&element, &e.tracks, &mut out);
        }
        self.check_scene(&mut out);
        self.check_surfaces(&mut out);
        for (i, d) in self.global_sequences.iter().enumerate() {
            if !d.is_finite() {
                out.push(err(format!("global_sequences[{i}]"), Problem::NotFinite { what: "duration" }));
            } else if *d < 0.0 {
                out.push(err(format!("global_sequences[{i}]"), Problem::Negative { what: "duration", value: *d }));
            }
        }
        out
    }

    /// Tints and UV animations: their meshes and layers exist, their values are finite.
    fn check_surfaces(&self, out: &mut Vec<ValidationError>) {
        let check_layer = |element: &str, l: &LayerRef, out: &mut Vec<ValidationError>| {
            if check_index(element, "material", l.material, self.materials.len(), out) {
                let count = self.materials.get(l.material).map_or(0, |m| m.textures.len());
                check_index(element, "texture", l.texture, count, out);
            }
        };
        for (i, t) in self.tints.iter().enumerate() {
            let element = format!("tints[{i}]");
            match &t.target {
                TintTarget::Mesh(m) => _ = check_index(&element, "mesh", *m, self.meshes.len(), out),
                TintTarget::Layer(l) => check_layer(&element, l, out),
            }
            if !t.alpha.is_finite() || !t.color.is_none_or(|c| finite(&c)) {
                out.push(err(element.clone(), Problem::NotFinite { what: "tint" }));
            }
            self.check_tracks(&element, &t.tracks, out);
        }
        for (i, u) in self.uv_animations.iter().enumerate() {
            let element = format!("uv_animations[{i}]");
            for l in &u.layers {
                check_layer(&element, l, out);
            }
            self.check_tracks(&element, &u.tracks, out);
        }
    }

    fn check_bones(&self, out: &mut Vec<ValidationError>) {
        for (i, bone) in self.bones.iter().enumerate() {
            let element = format!("bones[{i}] {:?}", bone.name);
            if let Some(parent) = bone.parent
                && parent >= i
            {
                out.push(err(&element, Problem::ParentAfterChild { parent }));
            }
            check_transform(&element, &bone.rest, out);
            check_matrix(&element, "bind matrix", &bone.bind_matrix, out);
            check_matrix(&element, "inverse bind matrix", &bone.inverse_bind_matrix, out);
        }
    }

    fn check_meshes(&self, out: &mut Vec<ValidationError>) {
        for (m, mesh) in self.meshes.iter().enumerate() {
            let element = format!("meshes[{m}] {:?}", mesh.name);
            let n = mesh.positions.len();
            if let Some(material) = mesh.material {
                check_index(&element, "material", material, self.materials.len(), out);
            }
            if mesh.positions.iter().any(|p| !finite(p)) {
                out.push(err(&element, Problem::NotFinite { what: "position" }));
            }
            if !mesh.normals.is_empty() && mesh.normals.len() != n {
                out.push(err(
                    &element,
                    Problem::LengthMismatch { what: "normals", found: mesh.normals.len(), expected: n },
                ));
            }
            if mesh.normals.iter().any(|p| !finite(p)) {
                out.push(err(&element, Problem::NotFinite { what: "normal" }));
            }
            for uv in &mesh.uv_sets {
                if uv.len() != n {
                    out.push(err(&element, Problem::LengthMismatch { what: "uv set", found: uv.len(), expected: n }));
                }
                if uv.iter().any(|p| !finite(p)) {
                    out.push(err(&element, Problem::NotFinite { what: "uv" }));
                }
            }
            // The element path is formatted only for a failing triangle: this loop runs once per
            // triangle of every model a writer or exporter sees.
            for (t, tri) in mesh.triangles.iter().enumerate() {
                if let Some(&index) = tri.iter().find(|&&i| i as usize >= n) {
                    check_index(&format!("{element}.triangles[{t}]"), "vertex", index as usize, n, out);
                }
            }
            self.check_skin(&element, mesh, out);
            for (t, target) in mesh.morph_targets.iter().enumerate() {
                let el = format!("{element}.morph_targets[{t}] {:?}", target.name);
                if target.position_deltas.len() != n {
                    out.push(err(
                        &el,
                        Problem::LengthMismatch {
                            what: "position deltas",
                            found: target.position_deltas.len(),
                            expected: n,
                        },
                    ));
                }
                if !target.normal_deltas.is_empty() && target.normal_deltas.len() != n {
                    out.push(err(
                        &el,
                        Problem::LengthMismatch {
                            what: "normal deltas",
                            found: target.normal_deltas.len(),
                            expected: n,
                        },
                    ));
                }
                if target.position_deltas.iter().chain(&target.normal_deltas).any(|p| !finite(p)) {
                    out.push(err(&el, Problem::NotFinite { what: "morph delta" }));
                }
            }
        }
    }

    fn check_skin(&self, element: &str, mesh: &crate::model::Mesh, out: &mut Vec<ValidationError>) {
        let skin = &mesh.skin;
        if skin.is_empty() {
            return;
        }
        let n = mesh.positions.len();
        let element = format!("{element}.skin");
        if skin.vertex_count() != n {
            out.push(err(&element, Problem::LengthMismatch { what: "skin", found: skin.vertex_count(), expected: n }));
            return;
        }
        let ascending = skin.offsets.windows(2).all(|w| w.first() <= w.get(1));
        if !ascending
            || skin.offsets.first() != Some(&0)
            || skin.offsets.last().map(|&l| l as usize) != Some(skin.influences.len())
        {
            out.push(err(&element, Problem::SkinOffsets));
            return;
        }
        for vertex in 0..n {
            let influences = skin.vertex(vertex);
            if influences.is_empty() {
                out.push(err(&element, Problem::NoInfluence { vertex }));
                return;
            }
            let mut sum = 0.0f32;
            for inf in influences {
                if !check_index(&element, "bone", inf.bone as usize, self.bones.len(), out) {
                    return;
                }
                if !inf.weight.is_finite() {
                    out.push(err(&element, Problem::NotFinite { what: "weight" }));
                    return;
                }
                if inf.weight < 0.0 {
                    out.push(err(&element, Problem::NegativeWeight { vertex, weight: inf.weight }));
                    return;
                }
                sum += inf.weight;
            }
            if (sum - 1.0).abs() > WEIGHT_SUM_TOLERANCE {
                out.push(err(&element, Problem::WeightSum { vertex, sum }));
                return;
            }
        }
    }

    fn check_animations(&self, out: &mut Vec<ValidationError>) {
        for (a, anim) in self.animations.iter().enumerate() {
            let element = format!("animations[{a}] {:?}", anim.name);
            if !anim.duration.is_finite() || !anim.blend_in.is_finite() {
                out.push(err(&element, Problem::NotFinite { what: "duration or blend time" }));
            } else if anim.duration < 0.0 {
                out.push(err(&element, Problem::Negative { what: "duration", value: anim.duration }));
            }
            for (c, ch) in anim.channels.iter().enumerate() {
                let el = format!("{element}.channels[{c}] ({})", ch.values.property());
                check_index(&el, "bone", ch.bone, self.bones.len(), out);
                if let crate::model::Clock::Global(g) = ch.clock {
                    check_index(&el, "global sequence", g, self.global_sequences.len(), out);
                }
                check_times(&el, &ch.times, out);
                let per_key = if ch.interpolation == Interpolation::CubicSpline { 3 } else { 1 };
                if ch.values.len() != ch.times.len() * per_key {
                    out.push(err(&el, Problem::ValueCount { values: ch.values.len(), keys: ch.times.len(), per_key }));
                    continue;
                }
                match &ch.values {
                    ChannelValues::Translation(v) | ChannelValues::Scale(v) => {
                        if v.iter().any(|x| !finite(x)) {
                            out.push(err(&el, Problem::NotFinite { what: "key value" }));
                        }
                    }
                    ChannelValues::Rotation(v) => {
                        // Tangents of cubic rotation channels are not unit quaternions.
                        let keys = v.iter().enumerate().filter(|(i, _)| per_key == 1 || i % 3 == 1);
                        for (i, q) in keys {
                            let before = out.len();
                            check_unit(&el, i / per_key, q, out);
                            if out.len() > before {
                                break;
                            }
                        }
                    }
                }
            }
            for (c, ch) in anim.morph_channels.iter().enumerate() {
                let el = format!("{element}.morph_channels[{c}]");
                if !check_index(&el, "mesh", ch.mesh, self.meshes.len(), out) {
                    continue;
                }
                check_times(&el, &ch.times, out);
                let targets = self.meshes.get(ch.mesh).map_or(0, |m| m.morph_targets.len());
                if ch.weights.len() != ch.times.len() * targets {
                    out.push(err(
                        &el,
                        Problem::ValueCount { values: ch.weights.len(), keys: ch.times.len(), per_key: targets },
                    ));
                }
                if !finite(&ch.weights) {
                    out.push(err(&el, Problem::NotFinite { what: "morph weight" }));
                }
            }
            for (e, event) in anim.events.iter().enumerate() {
                let el = format!("{element}.events[{e}] {:?}", event.name);
                if !event.time.is_finite() {
                    out.push(err(&el, Problem::NotFinite { what: "event time" }));
                }
                if let Some(bone) = event.bone {
                    check_index(&el, "bone", bone, self.bones.len(), out);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::*;

    /// Two bones, one triangle skinned to both, one animation with a rotation channel.
    fn valid() -> Model {
        Model {
            name: "t".into(),
            bones: vec![
                Bone { name: "root".into(), ..Bone::default() },
                Bone { name: "arm".into(), parent: Some(0), ..Bone::default() },
            ],
            materials: vec![Material { name: "m".into(), ..Material::default() }],
            meshes: vec![Mesh {
                name: "body".into(),
                material: Some(0),
                positions: vec![[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
                normals: vec![[0.0, 0.0, 1.0]; 3],
                uv_sets: vec![vec![[0.0; 2]; 3]],
                skin: Skin::from_vertices([
                    vec![Influence { bone: 0, weight: 1.0 }],
                    vec![Influence { bone: 0, weight: 0.25 }, Influence { bone: 1, weight: 0.75 }],
                    vec![Influence { bone: 1, weight: 1.0 }],
                ]),
                triangles: vec![[0, 1, 2]],
                ..Mesh::default()
            }],
            animations: vec![Animation {
                name: "wave".into(),
                duration: 1.0,
                channels: vec![Channel {
                    bone: 1,
                    clock: Clock::Animation,
                    interpolation: Interpolation::Linear,
                    times: vec![0.0, 1.0],
                    values: ChannelValues::Rotation(vec![[0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 1.0, 0.0]]),
                }],
                ..Animation::default()
            }],
            ..Model::default()
        }
    }

    fn problem(m: &Model) -> ValidationError {
        m.validate().unwrap_err()
    }

    #[test]
    fn a_valid_model_passes() {
        assert_eq!(valid().problems(), vec![]);
    }

    #[test]
    fn parent_after_child_is_refused() {
        let mut m = valid();
        m.bones[0].parent = Some(1);
        let e = problem(&m);
        assert_eq!(e.element, "bones[0] \"root\"");
        assert_eq!(e.problem, Problem::ParentAfterChild { parent: 1 });
        // A self-parent is a cycle too.
        let mut m = valid();
        m.bones[1].parent = Some(1);
        assert_eq!(problem(&m).problem, Problem::ParentAfterChild { parent: 1 });
    }

    #[test]
    fn triangle_index_out_of_range() {
        let mut m = valid();
        m.meshes[0].triangles.push([0, 2, 3]);
        let e = problem(&m);
        assert_eq!(e.element, "meshes[0] \"body\".triangles[1]");
        assert_eq!(e.problem, Problem::IndexOutOfRange { what: "vertex", index: 3, count: 3 });
        assert_eq!(e.to_string(), "meshes[0] \"body\".triangles[1]: vertex 3 is out of range (3 exist)");
    }

    #[test]
    fn weights_must_sum_to_one() {
        let mut m = valid();
        m.meshes[0].skin.influences[1].weight = 0.3;
        let e = problem(&m);
        assert_eq!(e.element, "meshes[0] \"body\".skin");
        assert!(matches!(e.problem, Problem::WeightSum { vertex: 1, .. }));
        // Within tolerance passes.
        let mut m = valid();
        m.meshes[0].skin.influences[1].weight = 0.25 + 0.5e-4;
        assert!(m.validate().is_ok());
    }

    #[test]
    fn skin_bone_out_of_range_and_nan_weight() {
        let mut m = valid();
        m.meshes[0].skin.influences[0].bone = 9;
        assert_eq!(problem(&m).problem, Problem::IndexOutOfRange { what: "bone", index: 9, count: 2 });
        let mut m = valid();
        m.meshes[0].skin.influences[0].weight = f32::NAN;
        assert_eq!(problem(&m).problem, Problem::NotFinite { what: "weight" });
    }

    #[test]
    fn times_must_increase() {
        let mut m = valid();
        m.animations[0].channels[0].times = vec![0.5, 0.5];
        let e = problem(&m);
        assert_eq!(e.element, "animations[0] \"wave\".channels[0] (rotation)");
        assert_eq!(e.problem, Problem::TimesNotIncreasing { key: 1, time: 0.5 });
    }

    #[test]
    fn rotations_must_be_unit() {
        let mut m = valid();
        if let ChannelValues::Rotation(v) = &mut m.animations[0].channels[0].values {
            v[1] = [0.0, 0.0, 2.0, 0.0];
        }
        assert_eq!(problem(&m).problem, Problem::NotUnit { index: 1, length: 2.0 });
        let mut m = valid();
        m.bones[1].rest.rotation = [0.0; 4];
        assert_eq!(problem(&m).problem, Problem::NotUnit { index: 0, length: 0.0 });
    }

    #[test]
    fn value_count_and_lengths() {
        let mut m = valid();
        m.animations[0].channels[0].interpolation = Interpolation::CubicSpline;
        assert_eq!(problem(&m).problem, Problem::ValueCount { values: 2, keys: 2, per_key: 3 });
        let mut m = valid();
        m.meshes[0].normals.pop();
        assert_eq!(problem(&m).problem, Problem::LengthMismatch { what: "normals", found: 2, expected: 3 });
        let mut m = valid();
        m.meshes[0].material = Some(4);
        assert_eq!(problem(&m).problem, Problem::IndexOutOfRange { what: "material", index: 4, count: 1 });
    }

    #[test]
    fn global_clock_and_attachment_indices() {
        let mut m = valid();
        m.animations[0].channels[0].clock = Clock::Global(0);
        assert_eq!(problem(&m).problem, Problem::IndexOutOfRange { what: "global sequence", index: 0, count: 0 });
        m.global_sequences.push(2.0);
        assert!(m.validate().is_ok());
        m.attachments.push(Attachment { name: "hand".into(), bone: 5, ..Attachment::default() });
        assert_eq!(problem(&m).problem, Problem::IndexOutOfRange { what: "bone", index: 5, count: 2 });
    }

    #[test]
    fn tints_and_uv_animations_name_meshes_and_layers_that_exist() {
        let mut m = valid();
        let track = EmitterTrack {
            property: ALPHA.into(),
            times: vec![0.0],
            components: 1,
            values: vec![0.5],
            ..EmitterTrack::default()
        };
        m.tints.push(Tint { target: TintTarget::Mesh(0), tracks: vec![track], ..Tint::default() });
        m.uv_animations.push(UvAnimation { layers: vec![LayerRef { material: 0, texture: 0 }], tracks: vec![] });
        m.materials[0].textures.push(TextureRef::default());
        assert!(m.validate().is_ok());
        m.tints[0].target = TintTarget::Mesh(1);
        assert!(matches!(m.validate().unwrap_err().problem, Problem::IndexOutOfRange { what: "mesh", .. }));
        m.tints[0].target = TintTarget::Layer(LayerRef { material: 0, texture: 1 });
        assert!(matches!(m.validate().unwrap_err().problem, Problem::IndexOutOfRange { what: "texture", .. }));
        m.tints[0].target = TintTarget::Mesh(0);
        m.tints[0].tracks[0].values.push(1.0);
        assert!(matches!(m.validate().unwrap_err().problem, Problem::ValueCount { .. }));
        m.tints[0].tracks[0].values.pop();
        m.uv_animations[0].layers[0].material = 3;
        assert!(matches!(m.validate().unwrap_err().problem, Problem::IndexOutOfRange { what: "material", .. }));
    }

    #[test]
    fn emitters_are_checked_like_attachments_and_channels() {
        let mut m = valid();
        m.emitters.push(Emitter { name: "particle 0".into(), bone: 1, size: 1.0, ..Emitter::default() });
        assert!(m.validate().is_ok());
        m.emitters[0].bone = 2;
        assert_eq!(problem(&m).problem, Problem::IndexOutOfRange { what: "bone", index: 2, count: 2 });
        m.emitters[0].bone = 1;
        m.emitters[0].size = f32::NAN;
        assert_eq!(problem(&m).problem, Problem::NotFinite { what: "size" });
        m.emitters[0].size = 1.0;
        let track = EmitterTrack { times: vec![0.0, 1.0], components: 1, values: vec![1.0], ..EmitterTrack::default() };
        m.emitters[0].tracks.push(track);
        assert_eq!(problem(&m).problem, Problem::ValueCount { values: 1, keys: 2, per_key: 1 });
        m.emitters[0].tracks[0].values.push(2.0);
        assert!(m.validate().is_ok());
        m.emitters[0].tracks[0].animation = Some(7);
        assert_eq!(problem(&m).problem, Problem::IndexOutOfRange { what: "animation", index: 7, count: 1 });
    }

    #[test]
    fn unskinned_vertex_in_skinned_mesh() {
        let mut m = valid();
        m.meshes[0].skin = Skin::from_vertices([
            vec![Influence { bone: 0, weight: 1.0 }],
            vec![],
            vec![Influence { bone: 1, weight: 1.0 }],
        ]);
        assert_eq!(problem(&m).problem, Problem::NoInfluence { vertex: 1 });
    }
}
