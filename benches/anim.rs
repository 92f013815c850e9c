//! Animation benchmarks: a 64-bone pose, skinning 100k vertices with 4 influences (fast loop
//! beside the plain scalar reference loop), and per-clip bounds of the real PARTNER_DANCIN.ABC
//! (every clip posed and skinned at each of its key times) when the corpus is present.

// Benchmark set-up: a failure must stop the run loudly.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use relic_anim::bounds::clip_bounds;
use relic_anim::pose::{ClipTime, Evaluator};
use relic_anim::skin::{SkinBinding, skin_mesh, skin_reference};
use relic_benches::{corpus_file, synthetic_model};

fn pose(c: &mut Criterion) {
    // 64 bones, one clip of 30 linear keys on translation and rotation of every bone. The synthetic
    // skeleton is a chain (each bone waits for its parent: the worst case); a tree of the same size
    // is measured beside it.
    let chain = synthetic_model(100, 1, 64, 4, 1, 30);
    let mut tree = chain.clone();
    for (b, bone) in tree.bones.iter_mut().enumerate() {
        bone.parent = b.checked_sub(1).map(|p| p / 2);
    }
    let mut g = c.benchmark_group("pose");
    g.throughput(Throughput::Elements(64));
    for (name, model) in [("chain", &chain), ("tree", &tree)] {
        let anim = &model.animations[0];
        let mut ev = Evaluator::new(model, anim);
        let mut frame = 0u32;
        g.bench_function(format!("64 bones {name}, full pose (locals, model space, skin), sequential"), |b| {
            b.iter(|| {
                frame = frame.wrapping_add(1);
                let t = (frame % 1000) as f32 / 1000.0 * anim.duration;
                black_box(ev.evaluate(ClipTime::at(black_box(t))).skin.len())
            })
        });
    }
    let anim = &chain.animations[0];
    let mut ev = Evaluator::new(&chain, anim);
    let mut frame = 0u32;
    g.bench_function("64 bones, sampling only (local TRS), sequential", |b| {
        b.iter(|| {
            frame = frame.wrapping_add(1);
            let t = (frame % 1000) as f32 / 1000.0 * anim.duration;
            ev.sample_locals(ClipTime::at(black_box(t)));
            black_box(ev.pose.locals.len())
        })
    });
    let mut ev = Evaluator::new(&chain, anim);
    let mut seed = 1u32;
    g.bench_function("64 bones chain, full pose, random times", |b| {
        b.iter(|| {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            let t = (seed >> 8) as f32 / (1u32 << 24) as f32 * anim.duration;
            black_box(ev.evaluate(ClipTime::at(black_box(t))).skin.len())
        })
    });
    g.finish();
}

fn skinning(c: &mut Criterion) {
    let model = synthetic_model(100_000, 1, 64, 4, 1, 8);
    let mesh = &model.meshes[0];
    let n = mesh.positions.len();
    let mut ev = Evaluator::new(&model, &model.animations[0]);
    let pose = ev.evaluate(ClipTime::at(0.37)).clone();
    let binding = SkinBinding::new(mesh);
    let (mut op, mut on) = (vec![[0.0f32; 3]; n], vec![[0.0f32; 3]; n]);
    let mut g = c.benchmark_group("skinning");
    g.throughput(Throughput::Elements(n as u64));
    g.bench_function(format!("fast/{n} vertices x4 influences, positions+normals"), |b| {
        b.iter(|| {
            skin_mesh(mesh, &binding, &pose.skin, &mesh.positions, &mesh.normals, &mut op, &mut on).unwrap();
            black_box(&op);
        })
    });
    g.bench_function(format!("reference scalar loop/{n} vertices x4 influences, positions+normals"), |b| {
        b.iter(|| {
            skin_reference(mesh, &pose.skin, &mesh.positions, &mesh.normals, &mut op, &mut on).unwrap();
            black_box(&op);
        })
    });
    g.finish();
}

fn bounds(c: &mut Criterion) {
    let Some(bytes) = corpus_file("abc/PARTNER_DANCIN.ABC") else { return };
    let model = relic_abc::read_model(&bytes).unwrap();
    let clips = model.animations.len();
    let mut g = c.benchmark_group("bounds");
    g.throughput(Throughput::Elements(clips as u64));
    g.bench_function(format!("PARTNER_DANCIN, every clip at every key time/{clips} clips"), |b| {
        b.iter(|| (0..clips).map(|a| clip_bounds(black_box(&model), a).unwrap()).collect::<Vec<_>>())
    });
    g.finish();
}

criterion_group!(group, pose, skinning, bounds);
criterion_main!(group);
