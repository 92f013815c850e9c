//! A deterministic generator of valid common models, for writer property tests: any model it
//! makes passes [`Model::validate`](relic_core::Model::validate), and [`poison`] breaks one
//! float of it.
//!
//! ```
//! use relic_testkit::{Rng, models};
//! let mut rng = Rng::new(1);
//! for _ in 0..50 {
//!     let mut model = models::valid_model(&mut rng);
//!     model.validate().unwrap();
//!     let what = models::poison(&mut model, &mut rng);
//!     assert!(model.validate().is_err(), "{what}");
//! }
//! ```

// Test support: every index below is drawn below the length it indexes (`Rng::below`).
#![allow(clippy::indexing_slicing)]
use crate::Rng;
use relic_core::math;
use relic_core::model::{
    Aabb, Animation, Attachment, Bone, BoneFlags, Channel, ChannelValues, Clock, Event, Influence, Interpolation, Lod,
    Material, Mesh, Model, MorphChannel, MorphTarget, Skin, TextureRef, Transform,
};
use relic_core::sample::normalize4;

impl Rng {
    /// A float in `[0, 1)`.
    pub fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }
    /// A float in `[lo, hi)`.
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }
    /// True with probability `p`.
    pub fn chance(&mut self, p: f32) -> bool {
        self.unit() < p
    }
    /// A number in `lo..=hi`.
    pub fn between(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi.saturating_sub(lo) + 1)
    }
}

fn vec3(rng: &mut Rng, r: f32) -> [f32; 3] {
    [rng.range(-r, r), rng.range(-r, r), rng.range(-r, r)]
}

fn unit3(rng: &mut Rng) -> [f32; 3] {
    loop {
        if let Some(v) = math::normalize3(vec3(rng, 1.0)).filter(|v| v.iter().all(|x| x.is_finite())) {
            return v;
        }
    }
}

/// A random unit quaternion `[x, y, z, w]`.
pub fn rotation(rng: &mut Rng) -> [f32; 4] {
    loop {
        let q = [rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)];
        if math::quat_norm(q) > 0.2 {
            return normalize4(q);
        }
    }
}

fn transform(rng: &mut Rng) -> Transform {
    let scale =
        if rng.chance(0.7) { [1.0; 3] } else { [rng.range(0.5, 1.5), rng.range(0.5, 1.5), rng.range(0.5, 1.5)] };
    Transform { translation: vec3(rng, 2.0), rotation: rotation(rng), scale }
}

/// Strictly increasing times in `[0, duration]`, `keys` of them.
fn times(rng: &mut Rng, keys: usize, duration: f32) -> Vec<f32> {
    if keys == 1 {
        return vec![rng.range(0.0, duration)];
    }
    (0..keys).map(|k| duration * k as f32 / (keys - 1) as f32).collect()
}

/// `n` weights ≥ 0 that sum to 1 (within f32 rounding, far inside the validator's tolerance).
fn weights(rng: &mut Rng, n: usize) -> Vec<f32> {
    let raw: Vec<f64> = (0..n).map(|_| 0.05 + f64::from(rng.unit())).collect();
    let sum: f64 = raw.iter().sum();
    let mut w: Vec<f32> = raw.iter().map(|x| (x / sum) as f32).collect();
    let rest: f32 = w.iter().skip(1).sum();
    if let Some(first) = w.first_mut() {
        *first = 1.0 - rest;
    }
    w
}

fn bones(rng: &mut Rng) -> Vec<Bone> {
    let most = if rng.chance(0.2) { 40 } else { 10 };
    let count = if rng.chance(0.1) { 0 } else { rng.between(1, most) };
    let mut bones: Vec<Bone> = Vec::with_capacity(count);
    for i in 0..count {
        // Mostly one root; now and then a second root (glTF gets a synthetic root for it).
        let parent = if i == 0 || rng.chance(0.05) { None } else { Some(rng.below(i)) };
        let rest = transform(rng);
        let local = rest.to_matrix();
        let bind = match parent.and_then(|p| bones.get(p)) {
            Some(p) => math::mul(&p.bind_matrix, &local),
            None => local,
        };
        let inverse = math::inverse(&bind).unwrap_or(math::IDENTITY);
        bones.push(Bone {
            name: format!("bone_{i}"),
            parent,
            rest,
            bind_matrix: bind,
            inverse_bind_matrix: inverse,
            flags: BoneFlags::default(),
        });
    }
    bones
}

fn mesh(rng: &mut Rng, index: usize, bones: usize, materials: usize) -> Mesh {
    let n = rng.between(3, 40);
    let positions: Vec<[f32; 3]> = (0..n).map(|_| vec3(rng, 5.0)).collect();
    let normals = if rng.chance(0.8) { (0..n).map(|_| unit3(rng)).collect() } else { Vec::new() };
    let mut uv_sets = Vec::new();
    for _ in 0..rng.below(3) {
        uv_sets.push((0..n).map(|_| [rng.range(0.0, 1.0), rng.range(0.0, 1.0)]).collect());
    }
    let triangles = (0..rng.between(1, 30))
        .map(|_| {
            // Three distinct corners: degenerate triangles are data some writers drop.
            let a = rng.below(n);
            let b = (a + 1 + rng.below(n - 1)) % n;
            let mut c = rng.below(n);
            while c == a || c == b {
                c = (c + 1) % n;
            }
            [a as u32, b as u32, c as u32]
        })
        .collect();
    let skin = if bones > 0 && rng.chance(0.85) {
        let max = rng.between(1, 8);
        Skin::from_vertices((0..n).map(|_| {
            let k = rng.between(1, max);
            let w = weights(rng, k);
            w.into_iter().map(|weight| Influence { bone: rng.below(bones) as u32, weight }).collect::<Vec<_>>()
        }))
    } else {
        Skin::default()
    };
    let morph_targets = (0..if rng.chance(0.3) { rng.between(1, 3) } else { 0 })
        .map(|t| MorphTarget {
            name: format!("shape_{t}"),
            position_deltas: (0..n).map(|_| vec3(rng, 0.5)).collect(),
            normal_deltas: if rng.chance(0.5) { (0..n).map(|_| vec3(rng, 0.1)).collect() } else { Vec::new() },
        })
        .collect();
    let lod = if index > 0 && rng.chance(0.3) {
        Lod { level: rng.between(1, 3) as u32, distance: rng.range(10.0, 100.0) }
    } else {
        Lod::default()
    };
    Mesh {
        name: format!("mesh_{index}"),
        material: if materials > 0 && rng.chance(0.9) { Some(rng.below(materials)) } else { None },
        positions,
        normals,
        uv_sets,
        skin,
        triangles,
        lod,
        part_id: if rng.chance(0.5) { Some(rng.below(3) as u32 * 100) } else { None },
        morph_targets,
    }
}

fn material(rng: &mut Rng, index: usize) -> Material {
    let textures = (0..rng.between(0, 2))
        .map(|t| TextureRef {
            path: format!("TEXTURES\\T{index}_{t}.BLP"),
            replaceable: None,
            uv_set: Some(0),
            wrap_u: rng.chance(0.5),
            wrap_v: rng.chance(0.5),
            ..TextureRef::default()
        })
        .collect();
    Material {
        name: format!("material_{index}"),
        textures,
        double_sided: rng.chance(0.3),
        depth_write: true,
        ..Material::default()
    }
}

fn channel(rng: &mut Rng, bone: usize, duration: f32, globals: usize) -> Channel {
    let interpolation = match rng.below(3) {
        0 => Interpolation::Step,
        1 => Interpolation::Linear,
        _ => Interpolation::CubicSpline,
    };
    let keys = rng.between(1, 6);
    let times = times(rng, keys, duration);
    let per_key = if interpolation == Interpolation::CubicSpline { 3 } else { 1 };
    let values = match rng.below(3) {
        0 => ChannelValues::Translation((0..keys * per_key).map(|_| vec3(rng, 2.0)).collect()),
        1 => ChannelValues::Rotation(
            (0..keys * per_key).map(|i| if per_key == 3 && i % 3 != 1 { [0.0; 4] } else { rotation(rng) }).collect(),
        ),
        _ => ChannelValues::Scale(
            (0..keys * per_key)
                .map(|i| {
                    if per_key == 3 && i % 3 != 1 {
                        [0.0; 3]
                    } else {
                        [rng.range(0.5, 1.5), rng.range(0.5, 1.5), rng.range(0.5, 1.5)]
                    }
                })
                .collect(),
        ),
    };
    let clock = if globals > 0 && rng.chance(0.2) { Clock::Global(rng.below(globals)) } else { Clock::Animation };
    Channel { bone, clock, interpolation, times, values }
}

fn animation(rng: &mut Rng, index: usize, model: &Model) -> Animation {
    let duration = rng.range(0.25, 3.0);
    let bones = model.bones.len();
    let mut channels = Vec::new();
    for bone in 0..bones {
        if rng.chance(0.6) {
            channels.push(channel(rng, bone, duration, model.global_sequences.len()));
        }
    }
    let morph_channels = model
        .meshes
        .iter()
        .enumerate()
        .filter(|(_, m)| !m.morph_targets.is_empty())
        .map(|(mesh, m)| {
            let keys = rng.between(1, 4);
            MorphChannel {
                mesh,
                interpolation: if rng.chance(0.5) { Interpolation::Step } else { Interpolation::Linear },
                times: times(rng, keys, duration),
                weights: (0..keys * m.morph_targets.len()).map(|_| rng.unit()).collect(),
            }
        })
        .collect();
    let events = (0..rng.below(3))
        .map(|e| Event {
            time: rng.range(0.0, duration),
            name: ["$CSS", "Fire", "footstep"][e % 3].to_string(),
            bone: if bones > 0 && rng.chance(0.5) { Some(rng.below(bones)) } else { None },
            position: if rng.chance(0.5) { Some(vec3(rng, 1.0)) } else { None },
            parameter: if rng.chance(0.5) { Some(rng.below(100) as u32) } else { None },
        })
        .collect();
    let bounds = Aabb::of_points(model.meshes.iter().flat_map(|m| &m.positions));
    Animation {
        name: format!("anim_{index}"),
        duration,
        looping: rng.chance(0.5),
        blend_in: if rng.chance(0.5) { 0.0 } else { rng.range(0.0, 0.5) },
        channels,
        morph_channels,
        events,
        bounds,
        key_bounds: Vec::new(),
    }
}

/// A random valid model: 0–40 bones in a tree (parents first, now and then a second root),
/// 1–4 meshes with 3–40 vertices, normals, 0–2 UV sets, 1–8 influences per skinned vertex,
/// morph targets, LOD levels and part ids, 0–2 materials with textures, 0–3 animations with
/// step, linear and cubic translation/rotation/scale channels (some on global sequences),
/// morph weight channels and events, 0–2 attachments.
pub fn valid_model(rng: &mut Rng) -> Model {
    let mut model = Model { name: format!("generated_{}", rng.below(1_000_000)), ..Model::default() };
    model.bones = bones(rng);
    model.materials = (0..rng.below(3)).map(|i| material(rng, i)).collect();
    let meshes = rng.between(1, 4);
    model.meshes = (0..meshes).map(|i| mesh(rng, i, model.bones.len(), model.materials.len())).collect();
    model.global_sequences = (0..rng.below(3)).map(|_| rng.range(0.5, 3.0)).collect();
    let animations = rng.below(4);
    for i in 0..animations {
        let a = animation(rng, i, &model);
        model.animations.push(a);
    }
    if !model.bones.is_empty() {
        model.attachments = (0..rng.below(3))
            .map(|i| Attachment {
                name: format!("attachment_{i}"),
                id: Some(i as u32),
                bone: rng.below(model.bones.len()),
                transform: Transform { translation: vec3(rng, 1.0), rotation: rotation(rng), scale: [1.0; 3] },
            })
            .collect();
    }
    model
}

/// What [`check_writer`] saw.
#[derive(Debug, Default)]
pub struct WriterReport {
    /// Valid models written and read back into valid models.
    pub written: usize,
    /// Valid models the writer refused with a typed error other than `InvalidModel` (a limit
    /// of the format), with the first few reasons.
    pub refused: usize,
    /// Up to five refusal messages, for the test log.
    pub refusals: Vec<String>,
    /// Poisoned models refused with `WriteError::InvalidModel`.
    pub poisoned: usize,
    /// Broken promises: a file its reader refuses, a read-back model that is invalid, a valid
    /// model refused as invalid, a poisoned model written.
    pub failures: Vec<String>,
}

/// The writer property: for `count` generated valid models (seeded with `seed`), `write`
/// either refuses with a typed error that is not `InvalidModel`, or produces bytes that `read`
/// reads back into a model that passes `validate()`; the same model with one float poisoned
/// is refused with `WriteError::InvalidModel`.
pub fn check_writer(
    seed: u64,
    count: usize,
    write: impl Fn(&Model) -> Result<Vec<u8>, relic_core::WriteError>,
    read: impl Fn(&[u8]) -> Result<Model, relic_core::ReadError>,
) -> WriterReport {
    let mut rng = Rng::new(seed);
    let mut report = WriterReport::default();
    for i in 0..count {
        let model = valid_model(&mut rng);
        if let Err(e) = model.validate() {
            report.failures.push(format!("model {i}: the generator made an invalid model: {e}"));
            continue;
        }
        match write(&model) {
            Ok(bytes) => match read(&bytes) {
                Ok(back) => match back.validate() {
                    Ok(()) => report.written += 1,
                    Err(e) => report.failures.push(format!("model {i}: read back invalid: {e}")),
                },
                Err(e) => report.failures.push(format!("model {i}: the written file does not read: {e}")),
            },
            Err(relic_core::WriteError::InvalidModel(e)) => {
                report.failures.push(format!("model {i}: a valid model refused as invalid: {e}"));
            }
            Err(e) => {
                report.refused += 1;
                if report.refusals.len() < 5 {
                    report.refusals.push(format!("model {i}: {e}"));
                }
            }
        }
        let mut poisoned = model;
        let what = poison(&mut poisoned, &mut rng);
        match write(&poisoned) {
            Err(relic_core::WriteError::InvalidModel(_)) => report.poisoned += 1,
            Err(e) => {
                report.failures.push(format!("model {i} with a non-finite {what}: refused, but not as invalid: {e}"))
            }
            Ok(_) => report.failures.push(format!("model {i} with a non-finite {what}: written")),
        }
    }
    report
}

/// Sets one float that [`Model::validate`] checks (a position, normal, UV, weight, rest
/// translation, bind matrix entry, key time or value, morph delta or weight, event time,
/// duration or global sequence) to NaN or ±∞. Returns what it broke.
pub fn poison(model: &mut Model, rng: &mut Rng) -> &'static str {
    let bad = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY][rng.below(3)];
    for _ in 0..64 {
        if let Some(what) = try_poison(model, rng, bad) {
            return what;
        }
    }
    // Every model has a mesh with positions.
    if let Some(p) = model.meshes.first_mut().and_then(|m| m.positions.first_mut()) {
        p[0] = bad;
    }
    "position"
}

fn pick<'a, T>(rng: &mut Rng, items: &'a mut [T]) -> Option<&'a mut T> {
    let n = items.len();
    items.get_mut(rng.below(n))
}

fn try_poison(model: &mut Model, rng: &mut Rng, bad: f32) -> Option<&'static str> {
    let which = rng.below(12);
    let mesh_count = model.meshes.len();
    let mesh = model.meshes.get_mut(rng.below(mesh_count));
    match which {
        0 => {
            pick(rng, &mut mesh?.positions)?[rng.below(3)] = bad;
            Some("position")
        }
        1 => {
            pick(rng, &mut mesh?.normals)?[rng.below(3)] = bad;
            Some("normal")
        }
        2 => {
            let set = pick(rng, &mut mesh?.uv_sets)?;
            pick(rng, set)?[rng.below(2)] = bad;
            Some("uv")
        }
        3 => {
            pick(rng, &mut mesh?.skin.influences)?.weight = bad;
            Some("weight")
        }
        4 => {
            pick(rng, &mut model.bones)?.rest.translation[rng.below(3)] = bad;
            Some("rest translation")
        }
        5 => {
            pick(rng, &mut model.bones)?.inverse_bind_matrix[rng.below(16)] = bad;
            Some("inverse bind matrix")
        }
        6 => {
            let anim = pick(rng, &mut model.animations)?;
            let channel = pick(rng, &mut anim.channels)?;
            *pick(rng, &mut channel.times)? = bad;
            Some("key time")
        }
        7 => {
            let anim = pick(rng, &mut model.animations)?;
            let channel = pick(rng, &mut anim.channels)?;
            match &mut channel.values {
                ChannelValues::Translation(v) | ChannelValues::Scale(v) => pick(rng, v)?[rng.below(3)] = bad,
                ChannelValues::Rotation(v) => {
                    let per_key = if channel.interpolation == Interpolation::CubicSpline { 3 } else { 1 };
                    let key = rng.below(channel.times.len());
                    v.get_mut(key * per_key + per_key / 2)?[rng.below(4)] = bad;
                }
            }
            Some("key value")
        }
        8 => {
            let target = pick(rng, &mut mesh?.morph_targets)?;
            pick(rng, &mut target.position_deltas)?[rng.below(3)] = bad;
            Some("morph delta")
        }
        9 => {
            let anim = pick(rng, &mut model.animations)?;
            let channel = pick(rng, &mut anim.morph_channels)?;
            *pick(rng, &mut channel.weights)? = bad;
            Some("morph weight")
        }
        10 => {
            let anim = pick(rng, &mut model.animations)?;
            if rng.chance(0.5) {
                pick(rng, &mut anim.events)?.time = bad;
                Some("event time")
            } else {
                anim.duration = bad;
                Some("duration")
            }
        }
        _ => {
            *pick(rng, &mut model.global_sequences)? = bad;
            Some("global sequence")
        }
    }
}
