//! YAML summaries of every fixture and of the real file (counts, names, first values, checksums).

// Test helpers: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use relic_core::model::ChannelValues;
use relic_m2::file::{RotationTrack, Track};

fn fnv(bytes: &[u8]) -> String {
    format!("{:016x}", relic_core::hash::fnv1a(bytes))
}

/// The bytes of a track's ranges, timestamps and values, appended to `out`.
fn track_bytes<T: bytemuck::Pod>(out: &mut Vec<u8>, t: &Track<T>) {
    out.extend(t.interpolation.to_le_bytes());
    out.extend(t.global_sequence.to_le_bytes());
    out.extend(bytemuck::cast_slice::<_, u8>(&t.ranges.items));
    out.extend(bytemuck::cast_slice::<_, u8>(&t.timestamps.items));
    out.extend(bytemuck::cast_slice::<_, u8>(&t.values.items));
}

/// Interpolation, global sequence and key count of a track: `"linear gs-1 ×12"`.
fn track_shape<T: bytemuck::Pod>(t: &Track<T>, kind: &str) -> String {
    let interpolation = ["step", "linear", "hermite", "bezier"].get(usize::from(t.interpolation)).unwrap_or(&"?");
    format!("{kind}{interpolation} gs{} ×{}", t.global_sequence, t.timestamps.items.len())
}

/// Every bone track of the file as bytes (all keys of all bones, in file order).
fn bone_track_bytes(f: &relic_m2::M2File) -> Vec<u8> {
    let mut out = Vec::new();
    for b in f.bones.iter() {
        track_bytes(&mut out, &b.translation);
        match &b.rotation {
            RotationTrack::Float(t) => track_bytes(&mut out, t),
            RotationTrack::Compressed(t) => track_bytes(&mut out, t),
        }
        track_bytes(&mut out, &b.scale);
    }
    out
}

/// The common model's channels as bytes (bone, interpolation, clock, times, values of each).
fn channel_bytes(m: &relic_core::Model) -> Vec<u8> {
    let mut out = Vec::new();
    for c in m.animations.iter().flat_map(|a| &a.channels) {
        out.extend(format!("{} {:?} {:?}", c.bone, c.interpolation, c.clock).bytes());
        out.extend(bytemuck::cast_slice::<_, u8>(&c.times));
        match &c.values {
            ChannelValues::Translation(v) | ChannelValues::Scale(v) => out.extend(bytemuck::cast_slice::<_, u8>(v)),
            ChannelValues::Rotation(v) => out.extend(bytemuck::cast_slice::<_, u8>(v)),
        }
    }
    out
}

/// The interpolations the model's channels use, each once.
fn interpolations(m: &relic_core::Model) -> Vec<String> {
    let mut kinds: Vec<String> =
        m.animations.iter().flat_map(|a| &a.channels).map(|c| format!("{:?}", c.interpolation)).collect();
    kinds.sort();
    kinds.dedup();
    kinds
}

fn summary(bytes: &[u8]) -> serde_json::Value {
    let f = relic_m2::read(bytes).unwrap();
    let m = relic_m2::read_model(bytes).unwrap();
    let v0 = f.views.first();
    serde_json::json!({
        "version": f.version,
        "name": m.name,
        "bytes": bytes.len(),
        "bones": f.bones.len(),
        "bone_parents": f.bones.iter().take(12).map(|b| b.parent).collect::<Vec<_>>(),
        "pivots_first": f.bones.iter().take(3).map(|b| b.pivot).collect::<Vec<_>>(),
        "vertices": f.vertices.len(),
        "vertices_fnv": fnv(bytemuck::cast_slice(&f.vertices)),
        "first_vertex": f.vertices.first().map(|v| (v.position, v.bone_weights, v.bone_indices)),
        "views": f.views.iter().map(|v| (v.indices.len(), v.triangles.len() / 3, v.submeshes.len(), v.texture_units.len(), v.bone_count_max)).collect::<Vec<_>>(),
        "geosets": v0.map(|v| v.submeshes.iter().map(|s| s.id).collect::<Vec<_>>()),
        "textures": f.textures.iter().map(|t| (t.kind, t.filename_text())).collect::<Vec<_>>(),
        "sequences": f.sequences.iter().map(|s| (s.id, s.start, s.end, s.flags)).collect::<Vec<_>>(),
        "animations": m.animations.iter().map(|a| (a.name.clone(), a.duration, a.channels.len(), a.events.len())).collect::<Vec<_>>(),
        "bone_tracks_first": f.bones.iter().take(4).map(|b| {
            let rotation = match &b.rotation {
                RotationTrack::Float(t) => track_shape(t, "float "),
                RotationTrack::Compressed(t) => track_shape(t, "int16 "),
            };
            (track_shape(&b.translation, ""), rotation, track_shape(&b.scale, ""))
        }).collect::<Vec<_>>(),
        "bone_tracks_fnv": fnv(&bone_track_bytes(&f)),
        "channels": m.animations.iter().map(|a| a.channels.len()).sum::<usize>(),
        "channel_interpolations": interpolations(&m),
        "channels_fnv": fnv(&channel_bytes(&m)),
        "global_sequences": f.global_sequences.items.clone(),
        "materials": m.materials.iter().map(|x| (x.name.clone(), x.textures.len(), format!("{:?}", x.blend))).collect::<Vec<_>>(),
        "attachments": m.attachments.iter().map(|a| (a.id, a.bone)).collect::<Vec<_>>(),
        "events": f.events.iter().map(|e| e.name()).collect::<Vec<_>>(),
        "particles": f.particle_emitters.len(),
        "ribbons": f.ribbon_emitters.len(),
        "lights": f.lights.len(),
        "cameras": f.cameras.len(),
        "blend_overrides": f.blend_overrides.as_ref().map(|o| o.len()),
    })
}

#[test]
fn fixture_summaries() {
    insta::glob!("../../../fixtures/m2", "*.m2", |path| {
        let bytes = std::fs::read(path).unwrap();
        insta::assert_yaml_snapshot!(summary(&bytes));
    });
}

#[test]
fn corpus_summary() {
    let Some(bytes) = relic_testkit::corpus_file("corpus_summary", "m2/GnomePounder-vanilla.m2") else {
        return;
    };
    insta::assert_yaml_snapshot!("GnomePounder-vanilla", summary(&bytes));
}
