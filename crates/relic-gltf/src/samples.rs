//! Small common models that exercise every part of the export: used by the tests, the benchmarks
//! and `cargo xtask gltf-validate` / `blender-check` (which export them beside the real files).
//!
//! Each is valid ([`relic_core::Model::validate`]) and built from exact, simple numbers.

// Samples are built here from constants, not read from files: indexing them cannot fail.
#![allow(clippy::indexing_slicing)]

use relic_core::FormatId;
use relic_core::math::{self, Mat4};
use relic_core::model::{
    Animation, Attachment, Billboard, BlendMode, Bone, BoneFlags, Channel, ChannelValues, Clock, Event, FormatExtras,
    Influence, Interpolation, Lod, Material, Mesh, Model, MorphChannel, MorphTarget, Skin, SourceInfo, Specular,
    TextureRef, Transform, UvTransform,
};

/// A valid 1 × 1 RGBA PNG (checked chunk by chunk: IHDR, IDAT, IEND with correct CRCs).
pub const PNG_1X1: [u8; 70] = [
    137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0, 31, 21, 196,
    137, 0, 0, 0, 13, 73, 68, 65, 84, 120, 218, 99, 100, 248, 207, 80, 15, 0, 3, 134, 1, 128, 90, 52, 125, 107, 0, 0,
    0, 0, 73, 69, 78, 68, 174, 66, 96, 130,
];

/// Writes PNG versions of two of [`skinned_animated`]'s textures under `dir`, one at its game path
/// (`textures/sample/skin0.png`) and one by file stem only (`SKIN2.png`), for
/// [`crate::ExportOptions::textures`] (a folder source). A third (`skin1.jpg`) is not an image at all.
pub fn write_textures(dir: &std::path::Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir.join("textures/sample"))?;
    std::fs::write(dir.join("textures/sample/skin0.png"), PNG_1X1)?;
    std::fs::write(dir.join("SKIN2.png"), PNG_1X1)?;
    std::fs::write(dir.join("skin1.jpg"), b"not a JPEG")
}

/// Every sample with its name.
pub fn all() -> Vec<(&'static str, Model)> {
    vec![
        ("skinned_animated", skinned_animated()),
        ("flagged_bones", flagged_bones()),
        ("rigid_two_roots", rigid_two_roots()),
    ]
}

/// A unit quaternion for `angle` radians about a unit `axis`.
fn axis_angle(axis: [f32; 3], angle: f32) -> [f32; 4] {
    let (s, c) = (angle * 0.5).sin_cos();
    [axis[0] * s, axis[1] * s, axis[2] * s, c]
}

/// Bones from (name, parent, local translation, local rotation); bind matrices from the rest pose.
/// (name, parent, local translation, local rotation) of one bone.
type BoneSpec<'a> = (&'a str, Option<usize>, [f32; 3], [f32; 4]);

fn skeleton(spec: &[BoneSpec<'_>]) -> Vec<Bone> {
    let mut bones: Vec<Bone> = Vec::new();
    let mut globals: Vec<Mat4> = Vec::new();
    for &(name, parent, t, r) in spec {
        let rest = Transform { translation: t, rotation: r, scale: [1.0; 3] };
        let local = rest.to_matrix();
        let global = match parent.and_then(|p| globals.get(p)) {
            Some(pg) => math::mul(pg, &local),
            None => local,
        };
        globals.push(global);
        bones.push(Bone {
            name: name.into(),
            parent,
            rest,
            bind_matrix: global,
            inverse_bind_matrix: math::inverse(&global).unwrap_or(math::IDENTITY),
            flags: BoneFlags::default(),
        });
    }
    bones
}

/// An axis-aligned box mesh (24 vertices, 12 triangles, face normals, one or two UV sets).
fn cuboid(name: &str, min: [f32; 3], max: [f32; 3], uv_sets: usize) -> Mesh {
    let mut mesh = Mesh { name: name.into(), ..Mesh::default() };
    let mut uv0 = Vec::new();
    for axis in 0..3 {
        for side in [0usize, 1] {
            let normal: [f32; 3] =
                std::array::from_fn(|i| if i == axis { if side == 1 { 1.0 } else { -1.0 } } else { 0.0 });
            let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
            let base = mesh.positions.len() as u32;
            for (a, b) in [(0, 0), (1, 0), (1, 1), (0, 1)] {
                let mut p = [0.0f32; 3];
                p[axis] = if side == 1 { max[axis] } else { min[axis] };
                p[u] = if a == 1 { max[u] } else { min[u] };
                p[v] = if b == 1 { max[v] } else { min[v] };
                mesh.positions.push(p);
                mesh.normals.push(normal);
                uv0.push([a as f32, b as f32]);
            }
            // Counter-clockwise seen from outside: (u, v) is right-handed with the normal on the
            // positive side, reversed on the negative side.
            if side == 1 {
                mesh.triangles.extend([[base, base + 1, base + 2], [base, base + 2, base + 3]]);
            } else {
                mesh.triangles.extend([[base, base + 2, base + 1], [base, base + 3, base + 2]]);
            }
        }
    }
    mesh.uv_sets.push(uv0.clone());
    if uv_sets > 1 {
        mesh.uv_sets.push(uv0.iter().map(|[u, v]| [u * 0.5, v * 0.5 + 0.25]).collect());
    }
    mesh
}

/// Weights of a vertex at height `y` over bones at `heights`, falling off with distance, for the
/// `count` nearest bones; summing to 1.
fn height_weights(y: f32, heights: &[(u32, f32)], count: usize) -> Vec<Influence> {
    let mut near: Vec<(u32, f64)> =
        heights.iter().map(|&(b, h)| (b, 1.0 / (0.25 + f64::from((y - h).abs())))).collect();
    near.sort_by(|a, b| b.1.total_cmp(&a.1));
    near.truncate(count);
    let sum: f64 = near.iter().map(|x| x.1).sum();
    near.iter().map(|&(bone, w)| Influence { bone, weight: (w / sum) as f32 }).collect()
}

/// The richest sample: 7 bones, a body skinned with six influences per vertex (JOINTS_1), a
/// second LOD, a face with two morph targets, an unskinned prop, one material per blend mode
/// (unlit, double-sided, textured), linear, cubic and step clips with morph weights and events,
/// a clip without channels, two attachments and JSON format extras.
pub fn skinned_animated() -> Model {
    let q0 = [0.0, 0.0, 0.0, 1.0];
    let bones = skeleton(&[
        ("root", None, [0.0, 0.0, 0.0], q0),
        ("hips", Some(0), [0.0, 1.0, 0.0], q0),
        ("spine", Some(1), [0.0, 0.5, 0.0], q0),
        ("chest", Some(2), [0.0, 0.5, 0.0], axis_angle([0.0, 1.0, 0.0], 0.25)),
        ("head", Some(3), [0.0, 0.5, 0.0], q0),
        ("arm_l", Some(3), [0.5, 0.25, 0.0], axis_angle([0.0, 0.0, 1.0], 1.0)),
        ("arm_r", Some(3), [-0.5, 0.25, 0.0], axis_angle([0.0, 0.0, 1.0], -1.0)),
    ]);
    let heights: Vec<(u32, f32)> = bones.iter().enumerate().map(|(b, bone)| (b as u32, bone.bind_matrix[13])).collect();
    let mut body = cuboid("body", [-0.4, 0.5, -0.2], [0.4, 3.0, 0.2], 2);
    // Split the tall box into rings so the weights vary: add an inner column of vertices.
    body.skin = Skin::from_vertices(body.positions.iter().map(|p| height_weights(p[1], &heights, 6)));
    body.material = Some(0);
    let mut lod1 = cuboid("body_lod1", [-0.4, 0.5, -0.2], [0.4, 3.0, 0.2], 1);
    lod1.skin = Skin::from_vertices(lod1.positions.iter().map(|p| height_weights(p[1], &heights, 2)));
    lod1.lod = Lod { level: 1, distance: 12.5 };
    lod1.material = Some(0);
    let mut face = cuboid("face", [-0.2, 2.6, 0.2], [0.2, 2.9, 0.3], 1);
    face.skin = Skin::from_vertices(face.positions.iter().map(|_| [Influence { bone: 4, weight: 1.0 }]));
    face.part_id = Some(1);
    face.material = Some(1);
    let n = face.positions.len();
    face.morph_targets = vec![
        MorphTarget {
            name: "smile".into(),
            position_deltas: face.positions.iter().map(|p| [0.0, if p[1] < 2.7 { 0.05 } else { 0.0 }, 0.0]).collect(),
            normal_deltas: Vec::new(),
        },
        MorphTarget {
            name: "blink".into(),
            position_deltas: vec![[0.0, -0.02, 0.0]; n],
            normal_deltas: vec![[0.0; 3]; n],
        },
    ];
    let mut prop = cuboid("prop", [2.0, 0.0, 2.0], [2.5, 0.5, 2.5], 1);
    prop.material = Some(2);
    let blends = [
        BlendMode::Opaque,
        BlendMode::AlphaKey,
        BlendMode::Alpha,
        BlendMode::Add,
        BlendMode::AddAlpha,
        BlendMode::Modulate,
        BlendMode::Modulate2x,
    ];
    let materials = blends
        .iter()
        .enumerate()
        .map(|(i, &blend)| Material {
            name: format!("material_{i}"),
            textures: vec![TextureRef {
                path: format!("TEXTURES\\SAMPLE\\SKIN{i}.BLP"),
                replaceable: (i == 1).then_some(11),
                uv_set: Some(0),
                wrap_u: i % 2 == 0,
                wrap_v: true,
                slot: None,
                // One texture with a fixed UV transform (exported as KHR_texture_transform).
                transform: (i == 2).then_some(UvTransform { offset: [0.25, 0.0], rotation: 0.0, scale: [2.0, 1.0] }),
            }],
            blend,
            double_sided: i % 3 == 1,
            unlit: i >= 3,
            unfogged: i == 4,
            depth_write: i < 2,
            alpha_cutoff: (blend == BlendMode::AlphaKey).then_some(224.0 / 255.0),
            specular: (i == 0).then_some(Specular { power: 8.0, scale: 0.5 }),
        })
        .collect();
    let walk = Animation {
        name: "walk".into(),
        duration: 1.0,
        looping: true,
        blend_in: 0.2,
        channels: vec![
            Channel {
                bone: 1,
                clock: Clock::Animation,
                interpolation: Interpolation::Linear,
                times: vec![0.0, 0.5, 1.0],
                values: ChannelValues::Translation(vec![[0.0, 1.0, 0.0], [0.0, 1.1, 0.25], [0.0, 1.0, 0.5]]),
            },
            Channel {
                bone: 5,
                clock: Clock::Animation,
                interpolation: Interpolation::Linear,
                times: vec![0.0, 0.5, 1.0],
                // The last key is stored in the opposite hemisphere (same rotation).
                values: ChannelValues::Rotation(vec![
                    axis_angle([0.0, 0.0, 1.0], 1.0),
                    axis_angle([0.0, 0.0, 1.0], 0.5),
                    axis_angle([0.0, 0.0, 1.0], 1.0).map(|c| -c),
                ]),
            },
            Channel {
                bone: 2,
                clock: Clock::Animation,
                interpolation: Interpolation::Linear,
                times: vec![0.0, 1.0],
                values: ChannelValues::Scale(vec![[1.0; 3], [1.0, 1.2, 1.0]]),
            },
        ],
        events: vec![
            Event {
                time: 0.0,
                name: "footstep left".into(),
                bone: Some(0),
                position: Some([0.1, 0.0, 0.0]),
                parameter: Some(1),
            },
            Event { time: 0.5, name: "footstep right".into(), ..Event::default() },
        ],
        bounds: Some(relic_core::model::Aabb { min: [-1.0, 0.0, -1.0], max: [1.0, 3.5, 1.0] }),
        key_bounds: vec![relic_core::model::KeyBounds {
            time: 0.5,
            bounds: relic_core::model::Aabb { min: [-1.0, 0.0, -0.5], max: [1.0, 3.4, 0.75] },
        }],
        ..Animation::default()
    };
    // Hermite keys: p(t) on [0, 2] with tangents in units per second.
    let wave = Animation {
        name: "wave".into(),
        duration: 2.0,
        channels: vec![
            Channel {
                bone: 6,
                clock: Clock::Animation,
                interpolation: Interpolation::CubicSpline,
                times: vec![0.0, 1.0, 2.0],
                values: ChannelValues::Rotation(vec![
                    [0.0; 4],
                    axis_angle([0.0, 0.0, 1.0], -1.0),
                    [0.0, 0.0, -0.3, 0.1],
                    [0.0, 0.0, 0.2, 0.0],
                    axis_angle([1.0, 0.0, 0.0], 0.6),
                    [0.1, 0.0, 0.0, 0.0],
                    [0.0; 4],
                    axis_angle([0.0, 0.0, 1.0], -1.0),
                    [0.0; 4],
                ]),
            },
            Channel {
                bone: 6,
                clock: Clock::Animation,
                interpolation: Interpolation::CubicSpline,
                times: vec![0.0, 2.0],
                values: ChannelValues::Translation(vec![
                    [0.0; 3],
                    [-0.5, 0.25, 0.0],
                    [0.0, 0.5, 0.0],
                    [0.0, -0.5, 0.0],
                    [-0.5, 0.25, 0.0],
                    [0.0; 3],
                ]),
            },
        ],
        ..Animation::default()
    };
    let blink = Animation {
        name: "blink".into(),
        duration: 0.5,
        channels: vec![Channel {
            bone: 4,
            clock: Clock::Animation,
            interpolation: Interpolation::Step,
            times: vec![0.0, 0.25],
            values: ChannelValues::Rotation(vec![[0.0, 0.0, 0.0, 1.0], axis_angle([1.0, 0.0, 0.0], 0.1)]),
        }],
        morph_channels: vec![MorphChannel {
            mesh: 2,
            interpolation: Interpolation::Linear,
            times: vec![0.0, 0.25, 0.5],
            weights: vec![0.0, 0.0, 0.5, 1.0, 0.0, 0.0],
        }],
        ..Animation::default()
    };
    // Morph weights only: glTF still gets a (hold) channel on the skeleton.
    let smile = Animation {
        name: "smile".into(),
        duration: 1.0,
        morph_channels: vec![MorphChannel {
            mesh: 2,
            interpolation: Interpolation::Step,
            times: vec![0.0, 0.5],
            weights: vec![0.0, 0.0, 1.0, 0.0],
        }],
        ..Animation::default()
    };
    let pose = Animation {
        name: "pose".into(),
        duration: 0.0,
        events: vec![Event { time: 0.0, name: "snd_pose".into(), ..Event::default() }],
        ..Animation::default()
    };
    Model {
        name: "sample_character".into(),
        source: Some(SourceInfo { format: FormatId::new("abc"), version: 12 }),
        bones,
        meshes: vec![body, lod1, face, prop],
        materials,
        animations: vec![walk, wave, blink, smile, pose],
        global_sequences: Vec::new(),
        attachments: vec![
            Attachment {
                name: "hand_r".into(),
                id: Some(1),
                bone: 6,
                transform: Transform { translation: [0.0, -0.5, 0.0], ..Transform::IDENTITY },
            },
            Attachment { name: "head_top".into(), id: None, bone: 4, transform: Transform::IDENTITY },
        ],
        extras: Some(FormatExtras::from_json(
            FormatId::new("abc"),
            r#"{"child_models":["base","extra"],"weight_sets":[{"name":"upper","weights":[0.0,0.5,1.0]}]}"#.into(),
        )),
        emitters: Vec::new(),
        lights: Vec::new(),
        cameras: Vec::new(),
        collision_shapes: Vec::new(),
        tints: Vec::new(),
        uv_animations: Vec::new(),
        original: None,
    }
}

/// M2-like bones that glTF cannot compose as the model does: a bone that does not inherit its
/// parent's rotation, a rotation-only bone with a translation channel, a billboard, and channels
/// on two global sequences (one shorter than the clip, so it wraps).
pub fn flagged_bones() -> Model {
    let q0 = [0.0, 0.0, 0.0, 1.0];
    let mut bones = skeleton(&[
        ("root", None, [0.0, 0.0, 0.0], q0),
        ("arm", Some(0), [0.0, 1.0, 0.0], axis_angle([0.0, 0.0, 1.0], 0.5)),
        ("level", Some(1), [0.0, 1.0, 0.0], q0),
        ("tip", Some(2), [0.0, 0.5, 0.0], q0),
        ("swing", Some(0), [1.0, 0.0, 0.0], q0),
        ("sprite", Some(4), [0.0, 0.5, 0.0], q0),
    ]);
    bones[2].flags = BoneFlags { inherit_rotation: false, ..BoneFlags::default() };
    // The bind pose of a bone that ignores its parent's rotation: parent translation only.
    let arm_global = bones[1].bind_matrix;
    let level_global =
        Transform { translation: [arm_global[12], arm_global[13] + 1.0, arm_global[14]], ..Transform::IDENTITY }
            .to_matrix();
    let tip_global = math::mul(&level_global, &bones[3].rest.to_matrix());
    for (b, g) in [(2usize, level_global), (3, tip_global)] {
        bones[b].bind_matrix = g;
        bones[b].inverse_bind_matrix = math::inverse(&g).unwrap_or(math::IDENTITY);
    }
    bones[4].flags.rotation_only = true;
    bones[5].flags.billboard = Billboard::Spherical;
    let column = |name: &str, bone: u32, min: [f32; 3], max: [f32; 3]| {
        let mut m = cuboid(name, min, max, 1);
        m.skin = Skin::from_vertices(m.positions.iter().map(|_| [Influence { bone, weight: 1.0 }]));
        m.material = Some(0);
        m
    };
    let g2 = |b: usize| bones[b].bind_matrix;
    let at = |b: usize, d: f32| {
        let g = g2(b);
        ([g[12] - d, g[13] - d, g[14] - d], [g[12] + d, g[13] + d, g[14] + d])
    };
    let (a0, a1) = at(1, 0.1);
    let (l0, l1) = at(2, 0.1);
    let (t0, t1) = at(3, 0.1);
    let (s0, s1) = at(5, 0.2);
    let mut sprite = column("sprite", 5, s0, s1);
    sprite.morph_targets = vec![MorphTarget {
        name: "grow".into(),
        position_deltas: sprite.positions.iter().map(|p| [0.0, if p[1] > s0[1] { 0.1 } else { 0.0 }, 0.0]).collect(),
        normal_deltas: Vec::new(),
    }];
    let meshes = vec![column("arm", 1, a0, a1), column("level", 2, l0, l1), column("tip", 3, t0, t1), sprite];
    let swing = Animation {
        name: "swing".into(),
        duration: 2.0,
        looping: true,
        channels: vec![
            Channel {
                bone: 1,
                clock: Clock::Animation,
                interpolation: Interpolation::Linear,
                times: vec![0.0, 1.0, 2.0],
                values: ChannelValues::Rotation(vec![
                    axis_angle([0.0, 0.0, 1.0], 0.5),
                    axis_angle([0.0, 0.0, 1.0], -0.5),
                    axis_angle([0.0, 0.0, 1.0], 0.5),
                ]),
            },
            Channel {
                bone: 4,
                clock: Clock::Animation,
                interpolation: Interpolation::Linear,
                times: vec![0.0, 2.0],
                values: ChannelValues::Translation(vec![[1.0, 0.0, 0.0], [1.0, 3.0, 0.0]]),
            },
            Channel {
                bone: 4,
                clock: Clock::Animation,
                interpolation: Interpolation::Linear,
                times: vec![0.0, 2.0],
                values: ChannelValues::Rotation(vec![q0, axis_angle([0.0, 1.0, 0.0], 1.5)]),
            },
            Channel {
                bone: 5,
                clock: Clock::Global(0),
                interpolation: Interpolation::Linear,
                times: vec![0.0, 0.25, 0.5],
                values: ChannelValues::Scale(vec![[1.0; 3], [1.5; 3], [1.0; 3]]),
            },
            Channel {
                bone: 3,
                clock: Clock::Global(1),
                interpolation: Interpolation::Step,
                times: vec![0.0, 0.4],
                values: ChannelValues::Translation(vec![[0.0, 0.5, 0.0], [0.0, 0.75, 0.0]]),
            },
        ],
        // Morph weights in a clip whose bone channels are partly baked.
        morph_channels: vec![MorphChannel {
            mesh: 3,
            interpolation: Interpolation::Linear,
            times: vec![0.0, 1.0, 2.0],
            weights: vec![0.0, 1.0, 0.0],
        }],
        ..Animation::default()
    };
    Model {
        name: "sample_flagged".into(),
        source: Some(SourceInfo { format: FormatId::new("m2"), version: 256 }),
        bones,
        meshes,
        materials: vec![Material { name: "flat".into(), depth_write: true, ..Material::default() }],
        animations: vec![swing],
        global_sequences: vec![0.75, 0.8],
        attachments: Vec::new(),
        extras: None,
        emitters: Vec::new(),
        lights: Vec::new(),
        cameras: Vec::new(),
        collision_shapes: Vec::new(),
        tints: Vec::new(),
        uv_animations: Vec::new(),
        original: None,
    }
}

/// Two root bones (exported under one synthetic root), two rigid meshes each bound wholly to one
/// bone, one unskinned mesh, more than 65 535 vertices in one mesh (32-bit indices), no animation.
pub fn rigid_two_roots() -> Model {
    let q0 = [0.0, 0.0, 0.0, 1.0];
    let bones = skeleton(&[
        ("left", None, [-2.0, 0.0, 0.0], q0),
        ("right", None, [2.0, 0.0, 0.0], axis_angle([0.0, 1.0, 0.0], 0.75)),
        ("right_child", Some(1), [0.0, 1.0, 0.0], q0),
    ]);
    let mut left = cuboid("left_box", [-2.5, -0.5, -0.5], [-1.5, 0.5, 0.5], 1);
    left.skin = Skin::from_vertices(left.positions.iter().map(|_| [Influence { bone: 0, weight: 1.0 }]));
    let mut right = cuboid("right_box", [1.5, 0.5, -0.5], [2.5, 1.5, 0.5], 1);
    right.skin = Skin::from_vertices(right.positions.iter().map(|_| [Influence { bone: 2, weight: 1.0 }]));
    // A flat grid of 300 × 300 vertices.
    let side = 300u32;
    let mut grid = Mesh { name: "ground".into(), ..Mesh::default() };
    for z in 0..side {
        for x in 0..side {
            grid.positions.push([x as f32 * 0.1 - 15.0, 0.0, z as f32 * 0.1 - 15.0]);
            grid.normals.push([0.0, 1.0, 0.0]);
        }
    }
    for z in 0..side - 1 {
        for x in 0..side - 1 {
            let i = z * side + x;
            grid.triangles.extend([[i, i + side, i + 1], [i + 1, i + side, i + side + 1]]);
        }
    }
    Model {
        name: "sample_rigid".into(),
        source: Some(SourceInfo { format: FormatId::new("nod"), version: 9 }),
        bones,
        meshes: vec![left, right, grid],
        materials: Vec::new(),
        animations: Vec::new(),
        global_sequences: Vec::new(),
        attachments: Vec::new(),
        extras: None,
        emitters: Vec::new(),
        lights: Vec::new(),
        cameras: Vec::new(),
        collision_shapes: Vec::new(),
        tints: Vec::new(),
        uv_animations: Vec::new(),
        original: None,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn samples_are_valid() {
        for (name, model) in super::all() {
            assert_eq!(model.validate(), Ok(()), "{name}");
        }
    }
}
