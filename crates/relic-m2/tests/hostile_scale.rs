//! relic-m2 at hostile scale: files that are small but ask for work or memory that grows with
//! the product of two counts (sequences × keys, bones × sequences, bones × depth), and models
//! whose counts do not fit the file's narrow fields. Every crafted file is built with the crate's
//! own types and written with its own writer, so it is valid apart from what the test is about.

// Test helpers: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use relic_core::{ReadErrorKind, WriteError, WriteOptions};
use relic_m2::file::{Bone, M2Array, M2File, Sequence, Track};
use relic_testkit::{CountingAllocator, Limits};

#[global_allocator]
static ALLOC: CountingAllocator = CountingAllocator;

/// `n` sequences of 5 ms, 10 ms apart on the shared timeline.
fn sequences(n: usize) -> Vec<Sequence> {
    (0..n)
        .map(|i| Sequence { start: i as u32 * 10, end: i as u32 * 10 + 5, next_variation: -1, ..Sequence::default() })
        .collect()
}

/// A root bone without keys.
fn root() -> Bone {
    Bone { parent: -1, key_bone_id: -1, ..Bone::default() }
}

/// A version-256 file with `sequences` sequences and these bones.
fn file(sequences_n: usize, bones: Vec<Bone>) -> M2File {
    M2File {
        version: 256,
        name: M2Array::new(b"hostile\0".to_vec()),
        sequences: sequences(sequences_n).into(),
        bones: bones.into(),
        ..M2File::default()
    }
}

/// The file's bytes.
fn written(f: &M2File) -> Vec<u8> {
    relic_m2::write(f).unwrap()
}

/// A linear translation track of `keys` keys, 1 ms apart, with these ranges and clock.
fn track(keys: usize, ranges: Vec<[u32; 2]>, global_sequence: i16) -> Track<[f32; 3]> {
    Track {
        interpolation: 1,
        global_sequence,
        ranges: ranges.into(),
        timestamps: (0..keys as u32).collect::<Vec<_>>().into(),
        values: vec![[0.5f32, 0.0, 0.0]; keys].into(),
    }
}

/// Every sequence's range is the whole key list (plus the terminator).
fn shared_ranges(sequences: usize, keys: usize) -> Vec<[u32; 2]> {
    let mut r = vec![[0, keys as u32 - 1]; sequences];
    r.push([0, 0]);
    r
}

/// One bone whose translation track is shared by every sequence in one of the three ways a track
/// can be: the same range for every sequence, no ranges at all, a global sequence.
fn sharing_files(sequences: usize, keys: usize) -> Vec<(&'static str, Vec<u8>)> {
    let with = |t: Track<[f32; 3]>, globals: Vec<u32>| {
        let mut f = file(sequences, vec![Bone { translation: t, ..root() }]);
        f.global_sequences = globals.into();
        written(&f)
    };
    vec![
        ("shared ranges", with(track(keys, shared_ranges(sequences, keys), -1), vec![])),
        ("no ranges", with(track(keys, vec![], -1), vec![])),
        ("global sequence", with(track(keys, vec![], 0), vec![1000])),
    ]
}

fn invalid_message(e: &relic_core::ReadError) -> &str {
    match &e.kind {
        ReadErrorKind::Invalid(m) => m,
        other => panic!("expected an Invalid error, got {other:?} ({e})"),
    }
}

/// 20 000 sequences sharing one 100 000-key range: checking the ranges rescanned the keys once per
/// sequence (2·10⁹ comparisons).
#[test]
fn shared_ranges_are_checked_in_linear_time() {
    let (s, k) = (20_000, 100_000);
    let bytes = written(&file(s, vec![Bone { translation: track(k, shared_ranges(s, k), -1), ..root() }]));
    assert!(bytes.len() < 4 << 20, "{} bytes", bytes.len());
    relic_testkit::check("shared ranges", &bytes, Limits::default(), relic_m2::read).unwrap();
    assert_eq!(relic_m2::read(&bytes).unwrap().sequences.len(), s);

    // The fast check finds the same key the full scan found: range 0 avoids the bad key, range 1
    // covers it.
    let mut ranges = shared_ranges(s, k);
    ranges[0] = [0, 10];
    let mut t = track(k, ranges, -1);
    t.timestamps[50_000] = t.timestamps[49_999];
    let bytes = written(&file(s, vec![Bone { translation: t, ..root() }]));
    let e = relic_m2::read(&bytes).unwrap_err();
    assert_eq!(invalid_message(&e), "range 1: key 50000 does not come after key 49999 in time", "{e}");
    assert!(e.path.contains("bones[0]"), "{e}");
}

/// Keys shared by many sequences were copied out once per sequence: 20 000 sequences and one
/// 100 000-key track asked about 32 GB of a 3 MB file. Now the mapping refuses with a typed error
/// before it copies, within the memory and time budget.
#[test]
fn keys_shared_by_many_sequences_are_refused_not_copied() {
    for (what, bytes) in sharing_files(20_000, 100_000).into_iter().chain(sharing_files(2_000, 10_000)) {
        relic_testkit::check(what, &bytes, Limits::default(), relic_m2::read_model).unwrap();
        relic_m2::read(&bytes).unwrap_or_else(|e| panic!("{what}: the file itself is valid: {e}"));
        let e = relic_m2::read_model(&bytes).unwrap_err();
        assert!(invalid_message(&e).contains("budget"), "{what}: {e}");
        assert!(e.path.contains("bones[0].translation"), "{what}: {e}");
    }
}

/// The cap leaves ordinary sharing alone: 200 sequences over a 300-key track each way still read,
/// every sequence with its channel.
#[test]
fn ordinary_sharing_still_reads() {
    for (what, bytes) in sharing_files(200, 300) {
        let model = relic_m2::read_model(&bytes).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(model.animations.len(), 200, "{what}");
        for a in &model.animations {
            assert_eq!(a.channels.len(), 1, "{what}");
            assert_eq!(a.channels[0].times.len(), 300, "{what}");
        }
    }
}

/// 20 000 bones without a key and 20 000 sequences: mapping looped bone × sequence and built a
/// per-bone list of every sequence's (absent) channels.
#[test]
fn keyless_bones_cost_nothing_per_sequence() {
    let bytes = written(&file(20_000, vec![root(); 20_000]));
    relic_testkit::check("keyless bones", &bytes, Limits::default(), relic_m2::read_model).unwrap();
    let model = relic_m2::read_model(&bytes).unwrap();
    assert_eq!((model.bones.len(), model.animations.len()), (20_000, 20_000));
    assert!(model.animations.iter().all(|a| a.channels.is_empty()));
}

/// The same file written back: the writer kept a bones × animations table of channels (20 000 ×
/// 20 000 slots, 9.6 GB) although no bone has one.
#[test]
fn keyless_bones_write_back_without_a_bones_by_animations_table() {
    let bytes = written(&file(20_000, vec![root(); 20_000]));
    let model = relic_m2::read_model(&bytes).unwrap();
    relic_testkit::check("keyless bones written", &bytes, Limits::default(), |_| {
        relic_m2::write_model(&model, &WriteOptions::default()).map_err(|e| e.to_string())
    })
    .unwrap();
    let out = relic_m2::write_model(&model, &WriteOptions::default()).unwrap();
    let (before, after) = (relic_m2::read(&bytes).unwrap(), relic_m2::read(&out.value).unwrap());
    assert!(after.bones == before.bones, "the bones are kept");
    assert_eq!(after.sequences.len(), before.sequences.len());
}

/// View 0 with 2 000 submeshes over the same 65 535 view vertices: each submesh became a mesh with
/// its own copy of them (4 GB of a 450 KB file).
#[test]
fn overlapping_submeshes_are_refused_not_copied() {
    use relic_m2::file::{Submesh, Vertex, View};
    let view = View {
        indices: vec![0u16; 65_535].into(),
        properties: vec![[0u8; 4]; 65_535].into(),
        submeshes: vec![Submesh { vertex_count: 65_535, ..Submesh::default() }; 2_000].into(),
        bone_count_max: 256,
        ..View::default()
    };
    let mut f = file(0, vec![]);
    f.vertices = vec![Vertex::default()].into();
    f.views = vec![view].into();
    let bytes = written(&f);
    relic_m2::read(&bytes).unwrap();
    relic_testkit::check("overlapping submeshes", &bytes, Limits::default(), relic_m2::read_model).unwrap();
    let e = relic_m2::read_model(&bytes).unwrap_err();
    assert!(invalid_message(&e).contains("budget"), "{e}");
    assert!(e.path.starts_with("M2File.views[0].submeshes["), "{e}");
}

/// Texture units naming 65 535 textures each (through one long texture-lookup run) of a texture
/// with a 10 000-byte path: every unit's material copied the path 65 535 times.
#[test]
fn texture_units_naming_many_textures_are_refused() {
    use relic_m2::file::{RenderFlag, Submesh, Texture, TextureUnit, View};
    let unit = TextureUnit {
        texture_count: u16::MAX,
        color_index: -1,
        texture_transform_combo_index: u16::MAX,
        ..TextureUnit::default()
    };
    let view = View {
        submeshes: vec![Submesh::default()].into(),
        texture_units: vec![unit; 1_000].into(),
        bone_count_max: 256,
        ..View::default()
    };
    let mut f = file(0, vec![]);
    f.views = vec![view].into();
    let mut path = vec![b'a'; 10_000];
    path.push(0);
    f.textures = vec![Texture { filename: path.into(), ..Texture::default() }].into();
    f.texture_lookup = vec![0i16; 65_535].into();
    f.texture_unit_lookup = vec![0i16].into();
    f.transparency_lookup = vec![-1i16].into();
    f.render_flags = vec![RenderFlag::default()].into();
    let bytes = written(&f);
    relic_m2::read(&bytes).unwrap();
    relic_testkit::check("many textures", &bytes, Limits::default(), relic_m2::read_model).unwrap();
    let e = relic_m2::read_model(&bytes).unwrap_err();
    assert!(invalid_message(&e).contains("budget"), "{e}");
    assert!(e.path.starts_with("M2File.views[0].texture_units["), "{e}");
}

/// Bone `i`'s parent is bone `i + 1`: the last bone is the root, every child comes before its
/// parent. Cycle detection walked up from every bone (n²/2 steps) and the parents-first order
/// took one pass per level (n passes of n bones).
fn child_first_chain(n: usize) -> Vec<Bone> {
    (0..n).map(|i| Bone { parent: if i + 1 < n { i as i16 + 1 } else { -1 }, ..root() }).collect()
}

#[test]
fn a_child_first_chain_of_20k_bones_reads_quickly() {
    let n = 20_000;
    let bytes = written(&file(1, child_first_chain(n)));
    relic_testkit::check("child-first chain", &bytes, Limits::default(), relic_m2::read_model).unwrap();
    let model = relic_m2::read_model(&bytes).unwrap();
    assert_eq!(model.bones.len(), n);
    assert_eq!(model.bones[0].parent, None);
    for (i, b) in model.bones.iter().enumerate().skip(1) {
        assert_eq!(b.parent, Some(i - 1), "bone {i}");
    }
    // Closing the chain into a ring is refused as quickly.
    let mut ring = child_first_chain(n);
    ring[n - 1].parent = 0;
    let bytes = written(&file(1, ring));
    relic_testkit::check("ring", &bytes, Limits::default(), relic_m2::read).unwrap();
    let e = relic_m2::read(&bytes).unwrap_err();
    assert!(e.to_string().contains("cycle"), "{e}");
    assert_eq!(e.path, "M2File.bones[0].parent");
}

/// 40 000 sequences sharing the id 0 (Stand): the names `Stand.0` … `Stand.39999` counted the
/// earlier sequences of each id for every sequence.
#[test]
fn animation_names_of_40k_sequences_are_quick() {
    let bytes = written(&file(40_000, vec![]));
    relic_testkit::check("40k sequences", &bytes, Limits::default(), relic_m2::read_model).unwrap();
    let model = relic_m2::read_model(&bytes).unwrap();
    assert_eq!(model.animations[39_999].name, "Stand.39999");
}

/// A model with one triangle skinned to bone 0 of `bones`, and one animation per name.
fn small_model(bones: usize, animations: &[&str]) -> relic_core::Model {
    use relic_core::model::*;
    Model {
        name: "small".into(),
        bones: relic_testkit::bone_chain(bones, "b"),
        meshes: vec![Mesh {
            name: "m".into(),
            positions: vec![[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
            normals: vec![[0.0, 0.0, 1.0]; 3],
            uv_sets: vec![vec![[0.0; 2]; 3]],
            triangles: vec![[0, 1, 2]],
            skin: if bones > 0 {
                Skin::from_vertices((0..3).map(|_| vec![Influence { bone: 0, weight: 1.0 }]))
            } else {
                Skin::default()
            },
            ..Mesh::default()
        }],
        animations: animations
            .iter()
            .map(|n| Animation { name: (*n).into(), duration: 1.0, looping: true, ..Animation::default() })
            .collect(),
        ..Model::default()
    }
}

/// Names and texture paths were written as UTF-8 and read as Windows-1252 ("é" came back "Ã©");
/// an event name with one character outside Windows-1252 lost its whole identifier.
#[test]
fn text_is_written_in_windows_1252() {
    use relic_core::model::*;
    let mut model = small_model(1, &["Stand"]);
    model.name = "Café".into();
    model.materials.push(Material {
        name: "m".into(),
        textures: vec![TextureRef { path: "Textures\\Crème.blp".into(), uv_set: Some(0), ..TextureRef::default() }],
        depth_write: true,
        ..Material::default()
    });
    model.meshes[0].material = Some(0);
    model.animations[0].events = vec![
        Event { time: 0.25, name: "$CSé".into(), bone: Some(0), ..Event::default() },
        Event { time: 0.5, name: "$€€€€".into(), bone: Some(0), ..Event::default() },
        Event { time: 0.75, name: "$日S".into(), bone: Some(0), ..Event::default() },
    ];
    model.validate().unwrap();
    let out = relic_m2::write_model(&model, &WriteOptions::default()).unwrap();
    let file = relic_m2::read(&out.value).unwrap();
    assert_eq!(file.name.items, b"Caf\xE9\0");
    let back = relic_m2::read_model(&out.value).unwrap();
    assert_eq!(back.name, "Café");
    assert_eq!(back.materials[0].textures[0].path, "Textures\\Crème.blp");
    let names: Vec<&str> = back.animations[0].events.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["$CSé", "$€€€", "$?S"]);
    // Exactly the two events that changed are reported; the name and path are not.
    let lost: Vec<&str> = out.losses.iter().map(|l| l.element.as_str()).collect();
    assert_eq!(lost.len(), 2, "{:?}", out.losses);
    assert!(lost.iter().all(|l| l.starts_with("event")), "{:?}", out.losses);

    // A name outside Windows-1252 is written with '?' and reported.
    let mut model = small_model(1, &["Stand"]);
    model.name = "日本 model".into();
    let out = relic_m2::write_model(&model, &WriteOptions::default()).unwrap();
    assert_eq!(relic_m2::read_model(&out.value).unwrap().name, "?? model");
    assert!(out.losses.iter().any(|l| l.element == "name"), "{:?}", out.losses);
}

fn does_not_fit(result: Result<relic_core::Converted<Vec<u8>>, WriteError>, what: &str) -> String {
    match result {
        Err(e @ WriteError::DoesNotFit { .. }) => {
            println!("{what}: {e}");
            e.to_string()
        }
        Err(e) => panic!("{what}: expected DoesNotFit, got {e}"),
        Ok(out) => panic!("{what}: written ({} bytes, losses {:?}) instead of refused", out.value.len(), out.losses),
    }
}

/// Parents, sequence indices, lookups and global-sequence indices are i16 in the file: a model
/// with more than 32 768 of them was written with wrapped indices instead of refused.
#[test]
fn counts_past_the_file_fields_are_refused_with_a_typed_error() {
    use relic_core::model::*;
    let options = WriteOptions::default();
    let model = small_model(40_000, &["Stand"]);
    model.validate().unwrap();
    let e = does_not_fit(relic_m2::write_model(&model, &options), "40 000 bones");
    assert!(e.contains("parent"), "{e}");

    let names = vec!["Stand"; 40_000];
    let model = small_model(1, &names);
    model.validate().unwrap();
    does_not_fit(relic_m2::write_model(&model, &options), "40 000 sequences");

    let mut model = small_model(1, &["Stand"]);
    model.global_sequences = vec![1.0; 40_001];
    model.animations[0].channels.push(Channel {
        bone: 0,
        clock: Clock::Global(40_000),
        interpolation: Interpolation::Linear,
        times: vec![0.0, 0.5],
        values: ChannelValues::Translation(vec![[0.0; 3], [1.0, 0.0, 0.0]]),
    });
    model.validate().unwrap();
    does_not_fit(relic_m2::write_model(&model, &options), "global sequence 40 000");

    let mut model = small_model(1, &["Stand"]);
    model.attachments = (0..40_000)
        .map(|i| Attachment {
            name: format!("a{i}"),
            id: Some(if i == 39_999 { 1 } else { 300 }),
            ..Attachment::default()
        })
        .collect();
    model.validate().unwrap();
    does_not_fit(relic_m2::write_model(&model, &options), "attachment 39 999");

    // Within the limits the same kinds of model still write and read back.
    let model = small_model(300, &["Stand", "Walk"]);
    let out = relic_m2::write_model(&model, &options).unwrap();
    let back = relic_m2::read_model(&out.value).unwrap();
    assert_eq!((back.bones.len(), back.animations.len()), (300, 2));
}

/// The sequence-box proof (the corpus check, through relic-anim) on a deep skeleton whose children
/// come before their parents: the file's own posing of old recomputed the bone order, decoded
/// every rotation track and built a list of key times for every pose.
#[test]
fn posing_a_deep_skeleton_is_linear_per_pose() {
    use relic_core::model::{Influence, Mesh, Skin};
    let n = 2_000;
    let keys = 60;
    let mut bones = child_first_chain(n);
    bones[0].translation = track(keys, shared_ranges(1, keys), -1);
    let mut f = file(1, bones);
    f.sequences[0].end = keys as u32;
    let mut model = relic_m2::read_model(&written(&f)).unwrap();
    model.meshes.push(Mesh {
        positions: vec![[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
        triangles: vec![[0, 1, 2]],
        skin: Skin::from_vertices((0..3).map(|_| [Influence { bone: n as u32 - 1, weight: 1.0 }])),
        ..Mesh::default()
    });
    let before = relic_anim::pose::bones_composed();
    let fits = relic_anim::proofs::clip_box_fits(&model).unwrap();
    let composed = relic_anim::pose::bones_composed() - before;
    assert_eq!(fits.len(), 1);
    assert_eq!(relic_anim::bounds::key_times(&model.animations[0]).len(), keys + 1);
    // Counted, not timed: every bone composed once per pose (the rest pose the evaluator starts
    // from and 61 key times, of 2 000 bones), whatever the depth of the chain and the order the
    // file stores it in.
    assert_eq!(composed, (keys as u64 + 2) * n as u64, "bone matrices composed");
}
