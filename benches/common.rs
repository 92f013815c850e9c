//! Shared pieces of the relic benchmarks: the memcpy baseline, access to the real corpus and the
//! fixtures, a synthetic model generator for inputs of any size, and the large synthetic files
//! (ABC, M2, NOD, NAD; each over 10 MB, built in memory) that several benches share.
//!
//! Every parse/write group measures `memcpy` of the same bytes in the same run, so each result
//! can be read as a ratio to the physical limit of this machine.

// Benchmark set-up: a failure must stop the run loudly.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{BenchmarkGroup, measurement::WallTime};
use relic_core::WriteOptions;
use relic_core::model::{
    Animation, Channel, ChannelValues, Clock, Influence, Interpolation, Material, Mesh, Model, Skin,
};
use relic_nod::file::{NadFile, NadKey, NadTrack};

/// The real game files, if present next to the checkout (see `relic_testkit::corpus_dir`).
pub fn corpus_dir() -> Option<PathBuf> {
    relic_testkit::corpus_dir("the corpus benchmarks")
}

/// The checked-in fixture files (`fixtures/abc`, `fixtures/m2`, `fixtures/nod`).
pub fn fixtures_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fixtures")
}

/// Reads a corpus file (`abc/PARTNER_DANCIN.ABC`); says so and returns `None` if the corpus is
/// absent (see `relic_testkit::corpus_file`).
pub fn corpus_file(rel: &str) -> Option<Vec<u8>> {
    relic_testkit::corpus_file(rel, rel)
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
    model.bones = relic_testkit::bone_chain(bones, "bone_");
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

/// A large ABC v12 file: the synthetic generator's 70 000 vertices with 4 weights each in 4
/// pieces, 32 nodes with 8 animations of 60 keys (about 12 MB).
pub fn large_abc() -> Vec<u8> {
    let model = synthetic_model(70_000, 4, 32, 4, 8, 60);
    let bytes = relic_abc::write_model(&model, &WriteOptions { version: Some(12) }).unwrap().value;
    assert!(bytes.len() >= 10 << 20, "synthetic ABC is only {} bytes", bytes.len());
    bytes
}

/// A large M2 (version 256): 10 000 vertices in 8 meshes, 120 bones with 400 linear keys per
/// channel in 8 sequences (about 12 MB, mostly animation tracks).
pub fn large_m2() -> Vec<u8> {
    let model = synthetic_model(10_000, 8, 120, 4, 8, 400);
    let bytes = relic_m2::write_model(&model, &WriteOptions::default()).unwrap().value;
    assert!(bytes.len() >= 10 << 20, "synthetic M2 is only {} bytes", bytes.len());
    bytes
}

/// A large NOD: 250 000 vertices in 8 groups, 64 bones, two influences per vertex (about 13 MB).
pub fn large_nod() -> Vec<u8> {
    let synthetic = synthetic_model(250_000, 8, 64, 2, 0, 0);
    let bytes = relic_nod::write_model(&synthetic, &WriteOptions::default()).unwrap().value;
    assert!(bytes.len() >= 10 << 20, "synthetic NOD is only {} bytes", bytes.len());
    bytes
}

/// A NAD of `bones` × (rotation, translation) tracks of `keys` smooth cubic keys one frame apart
/// (64 bones × 2 000 keys is about 14 MB).
pub fn nad(bones: u32, keys: usize) -> Vec<u8> {
    let mut tracks = Vec::new();
    for bone in 0..bones {
        for track_type in [0u32, 1] {
            let keys = (0..keys)
                .map(|k| {
                    let f = k as f32;
                    let v = (f * 0.05 + bone as f32).sin() * 20.0;
                    NadKey {
                        frame: f,
                        frame_scale: if k + 1 == keys { f32::INFINITY } else { 1.0 },
                        value: [v, v * 0.5, -v],
                        c: [1.0, 0.5, -1.0],
                        b: [0.0; 3],
                        a: [0.0; 3],
                    }
                })
                .collect();
            tracks.push(NadTrack { bone, track_type, keys });
        }
    }
    let file = NadFile { version: 3, flags: 0, duration: keys as f32, tracks, tags: vec![] };
    relic_nod::write_nad(&file).unwrap()
}

/// A short label for a size: `12.3 MB`.
pub fn mb(bytes: usize) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
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
