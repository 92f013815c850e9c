//! Shared pieces of the relic benchmarks: the memcpy baseline, access to the real corpus, and a
//! synthetic model generator for inputs of any size.
//!
//! Every parse/write group measures `memcpy` of the same bytes in the same run, so each result
//! can be read as a ratio to the physical limit of this machine.

// Benchmark set-up: a failure must stop the run loudly.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{BenchmarkGroup, measurement::WallTime};
use relic_core::model::{
    Animation, Bone, Channel, ChannelValues, Clock, Influence, Interpolation, Material, Mesh, Model, Skin, Transform,
};

/// The real game files, if present next to the checkout.
pub fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus")
}

/// Reads a corpus file (`abc/PARTNER_DANCIN.ABC`); prints why and returns `None` if absent.
pub fn corpus_file(rel: &str) -> Option<Vec<u8>> {
    let path = corpus_dir().join(rel);
    match std::fs::read(&path) {
        Ok(bytes) => Some(bytes),
        Err(e) => {
            eprintln!("skipping corpus benchmark {rel}: {} ({e})", path.display());
            None
        }
    }
}

/// Adds `memcpy/<name>`: copying the same bytes, the baseline for every parse and write.
pub fn bench_memcpy(group: &mut BenchmarkGroup<'_, WallTime>, name: &str, bytes: &[u8]) {
    let mut out = vec![0u8; bytes.len()];
    group.bench_function(format!("memcpy/{name}"), |b| {
        b.iter(|| {
            out.copy_from_slice(black_box(bytes));
            black_box(&mut out);
        })
    });
}

/// A valid synthetic model: a grid mesh of about `vertices` vertices split into `meshes` meshes,
/// a chain of `bones` bones, each vertex weighted to `influences` bones (1–4), and `animations`
/// clips of `keys` linear keys on every bone (translation and rotation).
pub fn synthetic_model(
    vertices: usize,
    meshes: usize,
    bones: usize,
    influences: usize,
    animations: usize,
    keys: usize,
) -> Model {
    let bones = bones.max(1);
    let influences = influences.clamp(1, 4);
    let per_mesh = (vertices / meshes.max(1)).max(3);
    let side = (per_mesh as f64).sqrt().ceil() as usize;
    let mut model = Model { name: "synthetic".into(), ..Model::default() };
    for b in 0..bones {
        let t = [0.0, if b == 0 { 0.0 } else { 1.0 }, 0.0];
        let global_y = b as f32;
        let mut bind = relic_core::math::IDENTITY;
        bind[13] = global_y;
        let mut inverse = relic_core::math::IDENTITY;
        inverse[13] = -global_y;
        model.bones.push(Bone {
            name: format!("bone_{b}"),
            parent: b.checked_sub(1),
            rest: Transform { translation: t, ..Transform::IDENTITY },
            bind_matrix: bind,
            inverse_bind_matrix: inverse,
            ..Bone::default()
        });
    }
    model.materials.push(Material { name: "synthetic".into(), ..Material::default() });
    for m in 0..meshes.max(1) {
        let mut mesh = Mesh { name: format!("mesh_{m}"), material: Some(0), ..Mesh::default() };
        let mut uvs = Vec::new();
        let mut weights = Vec::new();
        for i in 0..per_mesh {
            let (x, y) = ((i % side) as f32, (i / side) as f32);
            let height = y / side as f32 * bones as f32;
            mesh.positions.push([x * 0.1, height, m as f32 * 0.1]);
            mesh.normals.push([0.0, 0.0, 1.0]);
            uvs.push([x / side as f32, y / side as f32]);
            let first = (height as usize).min(bones - 1);
            let n = influences.min(bones);
            weights.push(
                (0..n)
                    .map(move |k| Influence { bone: ((first + k) % bones) as u32, weight: 1.0 / n as f32 })
                    .collect::<Vec<_>>(),
            );
        }
        mesh.uv_sets.push(uvs);
        mesh.skin = Skin::from_vertices(weights);
        for i in 0..per_mesh.saturating_sub(side + 1) {
            if i % side == side - 1 {
                continue;
            }
            let (a, b, c, d) = (i as u32, i as u32 + 1, (i + side) as u32, (i + side + 1) as u32);
            mesh.triangles.push([a, b, d]);
            mesh.triangles.push([a, d, c]);
        }
        model.meshes.push(mesh);
    }
    for a in 0..animations {
        let duration = 1.0;
        let times: Vec<f32> = (0..keys.max(1)).map(|k| k as f32 * duration / keys.max(2) as f32).collect();
        let mut channels = Vec::new();
        for b in 0..bones {
            let angle = |k: usize| (k as f32 * 0.1 + a as f32 + b as f32 * 0.01).sin() * 0.5;
            let rotations = (0..times.len()).map(|k| [0.0, 0.0, angle(k).sin(), angle(k).cos()]).collect();
            let translations =
                (0..times.len()).map(|k| [0.0, if b == 0 { k as f32 * 0.01 } else { 1.0 }, 0.0]).collect();
            for values in [ChannelValues::Rotation(rotations), ChannelValues::Translation(translations)] {
                channels.push(Channel {
                    bone: b,
                    clock: Clock::Animation,
                    interpolation: Interpolation::Linear,
                    times: times.clone(),
                    values,
                });
            }
        }
        model.animations.push(Animation { name: format!("anim_{a}"), duration, channels, ..Animation::default() });
    }
    model
}

#[cfg(test)]
mod tests {
    #[test]
    fn synthetic_model_is_valid() {
        let m = super::synthetic_model(1000, 3, 8, 4, 2, 5);
        assert_eq!(m.validate(), Ok(()));
        assert!(m.vertex_count() >= 990);
    }
}
