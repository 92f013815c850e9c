//! Geoset animations, layer alpha and texture animations as the model's tints and UV animations:
//! the counts of the real files (the probe's), and MDX → model → MDX (without the kept file) giving
//! back the same records but for the writer's normalisation (its own timeline, GEOA flags other
//! than UseColor).

// Test code: a failed unwrap or index is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::path::{Path, PathBuf};

use relic_core::WriteOptions;
use relic_core::model::{ALPHA, COLOR, Clock, EmitterTrack, LayerRef, Tint, TintTarget, UV_ROTATION, UvAnimation};
use relic_mdx::MdxFile;
use relic_mdx::file::{Chunk, GeosetAnim, Key, Keys, Layer, TextureAnim, Track, Value};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `(file, GEOA records, TXAN records)` as `mdx_probe.py --brief` counts them
/// (`geoset_animations`, `texture_animations`); `corpus:` files are the shared corpus's.
const EXPECTED: [(&str, usize, usize); 9] = [
    ("fixtures/mdx/v800_full.mdx", 1, 1),
    ("fixtures/mdx/v900_emissive.mdx", 1, 1),
    ("fixtures/mdx/v1000_hd.mdx", 1, 1),
    ("fixtures/mdx/v1100_slots.mdx", 1, 1),
    ("fixtures/mdx/v1200_shadow.mdx", 1, 1),
    ("corpus:File00001202_98f1fm0.mdx", 2, 0),
    ("corpus:PackHorse.mdx", 3, 0),
    ("corpus:SmileyGW_004.mdx", 1, 0),
    ("corpus:blob.mdx", 1, 0),
];

fn files(test: &str) -> Vec<(String, Vec<u8>, usize, usize)> {
    let corpus = relic_testkit::corpus_dir(test);
    let mut out = Vec::new();
    for (name, geoa, txan) in EXPECTED {
        let path = match name.strip_prefix("corpus:") {
            Some(file) => match &corpus {
                Some(dir) => dir.join("mdx").join(file),
                None => continue,
            },
            None => root().join(name),
        };
        out.push((name.to_string(), std::fs::read(path).unwrap(), geoa, txan));
    }
    out
}

fn geoas(f: &MdxFile) -> Vec<&GeosetAnim> {
    f.chunks.iter().filter_map(|c| if let Chunk::GeosetAnims(v) = c { Some(v) } else { None }).flatten().collect()
}

fn txans(f: &MdxFile) -> Vec<&TextureAnim> {
    f.chunks.iter().filter_map(|c| if let Chunk::TextureAnims(v) = c { Some(v) } else { None }).flatten().collect()
}

fn layers(f: &MdxFile) -> Vec<&Layer> {
    f.chunks
        .iter()
        .filter_map(|c| if let Chunk::Materials(v) = c { Some(v) } else { None })
        .flatten()
        .flat_map(|m| &m.layers)
        .collect()
}

/// Each sequence's `(start, end)`.
fn intervals(f: &MdxFile) -> Vec<(i64, i64)> {
    f.chunks
        .iter()
        .filter_map(|c| if let Chunk::Sequences(v) = c { Some(v) } else { None })
        .flatten()
        .map(|s| (i64::from(s.interval_start), i64::from(s.interval_end)))
        .collect()
}

/// A layer's alpha, texture animation and KMTA tracks.
type LayerKeys = (f32, i32, Vec<(relic_mdx::file::Tag, Normalised)>);

/// A track as [`normalised`] gives it: interpolation, global sequence, keys.
type Normalised = (u32, i32, Vec<(usize, i64, Vec<i64>)>);

/// A track's keys on the file's timeline as `(sequence, frame from its start, values)` (sequence
/// `usize::MAX` for a global track), values with their tangents, rotations rounded to 1e-6: what
/// survives a writer that lays the sequences out afresh.
fn normalised(t: &Track, f: &MdxFile) -> Normalised {
    let round = |v: &[f32]| v.iter().map(|x| (f64::from(*x) * 1e6).round() as i64).collect::<Vec<_>>();
    fn flat<T: Value + Copy>(keys: &[Key<T>], numbers: impl Fn(T) -> Vec<f32>) -> Vec<(i32, Vec<f32>)> {
        let all =
            |k: &Key<T>| [k.value].into_iter().chain(k.tangents.into_iter().flatten()).flat_map(&numbers).collect();
        keys.iter().map(|k| (k.frame, all(k))).collect()
    }
    let values: Vec<(i32, Vec<f32>)> = match &t.keys {
        Keys::Float(k) => flat(k, |v| vec![v]),
        Keys::Vec3(k) => flat(k, |v| v.to_vec()),
        Keys::Quat(k) => flat(k, |v| v.to_vec()),
        Keys::Int(k) => flat(k, |v| vec![v as f32]),
    };
    let values: Vec<(i32, Vec<i64>)> = values.into_iter().map(|(f, v)| (f, round(&v))).collect();
    let mut out = Vec::new();
    for (frame, v) in values {
        if t.global_sequence_id >= 0 {
            out.push((usize::MAX, i64::from(frame), v));
            continue;
        }
        for (s, (start, end)) in intervals(f).into_iter().enumerate() {
            if (start..=end).contains(&i64::from(frame)) {
                out.push((s, i64::from(frame) - start, v.clone()));
            }
        }
    }
    out.sort();
    out.dedup_by(|a, b| a.0 == b.0 && a.1 == b.1);
    // Tangents shape nothing at one key (read as linear); KTAR's are not carried (read as linear,
    // a loss the reading lists).
    let mut interpolation = t.interpolation;
    if interpolation >= 2 && (t.keys.len() < 2 || t.tag.0 == *b"KTAR") {
        interpolation = 1;
        let size = match t.keys {
            Keys::Quat(_) => 4,
            Keys::Vec3(_) => 3,
            _ => 1,
        };
        for k in &mut out {
            k.2.truncate(size);
        }
    }
    (interpolation, t.global_sequence_id, out)
}

#[test]
fn geoset_and_texture_animations_become_tints_and_uv_animations_with_the_files_counts() {
    for (name, bytes, geoa, txan) in
        files("geoset_and_texture_animations_become_tints_and_uv_animations_with_the_files_counts")
    {
        let file = relic_mdx::read(&bytes).unwrap();
        assert_eq!((geoas(&file).len(), txans(&file).len()), (geoa, txan), "{name}: the probe's counts");
        let read = relic_mdx::read_model_with_losses(&bytes).unwrap();
        let model = read.value;
        let on_meshes = model.tints.iter().filter(|t| matches!(t.target, TintTarget::Mesh(_))).count();
        assert_eq!(on_meshes, geoa, "{name}");
        assert_eq!(model.uv_animations.len(), txan, "{name}");
        assert!(
            read.losses
                .iter()
                .all(|l| !(l.what.contains("kept as nodes only") && ["GEOA", "TXAN"].contains(&l.element.as_str()))),
            "{name}: {:?}",
            read.losses
        );
        // Every layer's texture animation is one UV animation's layer.
        let animated = layers(&file).iter().filter(|l| l.texture_animation_id >= 0).count();
        assert_eq!(model.uv_animations.iter().map(|u| u.layers.len()).sum::<usize>(), animated, "{name}");
        let keyed =
            layers(&file).iter().filter(|l| l.alpha != 1.0 || l.tracks.iter().any(|t| t.tag.0 == *b"KMTA")).count();
        assert_eq!(model.tints.len() - on_meshes, keyed, "{name}");

        // Without the kept file: written from the model as 800.
        let mut plain = model.clone();
        plain.extras = None;
        let out = relic_mdx::from_ir(&plain, &WriteOptions::default()).unwrap();
        let written = out.value;
        let (a, b) = (geoas(&file), geoas(&written));
        assert_eq!(a.len(), b.len(), "{name}");
        for (a, b) in a.iter().zip(&b) {
            assert_eq!((a.alpha, a.geoset_id, a.flags & 2), (b.alpha, b.geoset_id, b.flags), "{name}");
            if a.flags & 2 != 0 {
                assert_eq!(a.color, b.color, "{name}");
            }
            let tracks =
                |g: &GeosetAnim, f: &MdxFile| g.tracks.iter().map(|t| (t.tag, normalised(t, f))).collect::<Vec<_>>();
            assert_eq!(tracks(a, &file), tracks(b, &written), "{name}: GEOA tracks");
        }
        let (a, b) = (txans(&file), txans(&written));
        assert_eq!(a.len(), b.len(), "{name}");
        for (a, b) in a.iter().zip(&b) {
            let tracks =
                |x: &TextureAnim, f: &MdxFile| x.tracks.iter().map(|t| (t.tag, normalised(t, f))).collect::<Vec<_>>();
            assert_eq!(tracks(a, &file), tracks(b, &written), "{name}: TXAN tracks");
        }
        // Layer by layer (the file's layers that name a texture): alpha, KMTA and the animation id.
        let kept = |f: &MdxFile| -> Vec<LayerKeys> {
            layers(f)
                .into_iter()
                .map(|l| {
                    let kmta =
                        l.tracks.iter().filter(|t| t.tag.0 == *b"KMTA").map(|t| (t.tag, normalised(t, f))).collect();
                    (l.alpha, l.texture_animation_id, kmta)
                })
                .collect()
        };
        assert_eq!(kept(&file), kept(&written), "{name}: layers");
        // And the model read back is the model.
        let back = relic_mdx::to_ir(&written).unwrap();
        assert_eq!(back.tints, model.tints, "{name}");
        assert_eq!(back.uv_animations, model.uv_animations, "{name}");
    }
}

fn track(property: &str, animation: usize, times: Vec<f32>, components: usize, values: Vec<f32>) -> EmitterTrack {
    EmitterTrack {
        property: property.into(),
        animation: Some(animation),
        clock: Clock::Animation,
        times,
        components,
        values,
        ..EmitterTrack::default()
    }
}

#[test]
fn a_tint_and_a_uv_turn_are_written_in_the_games_orders_and_read_back() {
    let bytes = std::fs::read(root().join("fixtures/mdx/v800_full.mdx")).unwrap();
    let mut model = relic_mdx::read_model(&bytes).unwrap();
    model.extras = None;
    model.tints = vec![
        Tint {
            target: TintTarget::Mesh(0),
            color: Some([1.0, 0.5, 0.25]),
            alpha: 0.75,
            tracks: vec![
                track(COLOR, 0, vec![0.0, 0.5], 3, vec![1.0, 0.5, 0.0, 0.0, 0.25, 1.0]),
                track(ALPHA, 0, vec![0.0], 1, vec![0.5]),
            ],
        },
        Tint {
            target: TintTarget::Layer(LayerRef { material: 0, texture: 0 }),
            color: None,
            alpha: 0.5,
            tracks: vec![],
        },
    ];
    let turn = std::f32::consts::FRAC_PI_2;
    model.uv_animations = vec![UvAnimation {
        layers: vec![LayerRef { material: 0, texture: 0 }],
        tracks: vec![track(UV_ROTATION, 0, vec![0.0], 1, vec![turn])],
    }];
    let out = relic_mdx::from_ir(&model, &WriteOptions::default()).unwrap();
    let file = out.value;
    let g = geoas(&file);
    assert_eq!(g.len(), 1);
    assert_eq!((g[0].alpha, g[0].flags, g[0].color, g[0].geoset_id), (0.75, 2, [1.0, 0.5, 0.25], 0));
    let kgac = g[0].tracks.iter().find(|t| t.tag.0 == *b"KGAC").unwrap();
    let Keys::Vec3(keys) = &kgac.keys else { panic!() };
    // Keys BGR, the static colour RGB (spec §8.6).
    assert_eq!(keys.iter().map(|k| k.value).collect::<Vec<_>>(), vec![[0.0, 0.5, 1.0], [1.0, 0.25, 0.0]]);
    assert_eq!(keys[1].frame - keys[0].frame, 500);
    let layer = layers(&file)[0];
    assert_eq!((layer.alpha, layer.texture_animation_id), (0.5, 0));
    let t = txans(&file);
    let Keys::Quat(q) = &t[0].tracks[0].keys else { panic!() };
    // A quarter turn counter-clockwise in KHR_texture_transform's sense: −90° about Z.
    let half = -turn / 2.0;
    assert_eq!(q[0].value, [0.0, 0.0, half.sin(), half.cos()]);
    let back = relic_mdx::to_ir(&file).unwrap();
    assert_eq!(back.tints, model.tints);
    let angle = back.uv_animations[0].tracks[0].values[0];
    assert!((angle - turn).abs() < 1e-6, "{angle}");
}

#[test]
fn m2_colours_transparency_and_texture_transforms_reach_the_mdx() {
    for name in ["v256_texture_animation.m2", "v263_texture_animation.m2", "v256_effects.m2"] {
        let bytes = std::fs::read(root().join("fixtures/m2").join(name)).unwrap();
        let file = relic_m2::read(&bytes).unwrap();
        let model = relic_m2::to_ir(&file).unwrap();
        // One UV animation per texture transform, each moving the layers whose units name it.
        assert_eq!(model.uv_animations.len(), file.texture_transforms.len(), "{name}");
        let view = &file.views[0];
        let named: std::collections::BTreeSet<i16> = view
            .texture_units
            .iter()
            .filter_map(|u| file.texture_transform_lookup.get(usize::from(u.texture_transform_combo_index)).copied())
            .filter(|&i| i >= 0)
            .collect();
        for (i, u) in model.uv_animations.iter().enumerate() {
            assert_eq!(!u.layers.is_empty(), named.contains(&(i as i16)), "{name}: transform {i}");
        }
        // A mesh tint per submesh whose first unit names a colour.
        let coloured = (0..view.submeshes.len())
            .filter(|&s| {
                let first = view.texture_units.iter().find(|u| usize::from(u.submesh_index) == s);
                first.is_some_and(|u| u.color_index >= 0 && (u.color_index as usize) < file.colors.len())
            })
            .count();
        let on_meshes = model.tints.iter().filter(|t| matches!(t.target, TintTarget::Mesh(_))).count();
        assert_eq!(on_meshes, coloured, "{name}");
        // Written as MDX: a GEOA per coloured mesh, a TXAN per transform, the layers naming them.
        let out = relic_mdx::write_model(&model, &WriteOptions::default()).unwrap();
        let mdx = relic_mdx::read(&out.value).unwrap();
        assert_eq!(geoas(&mdx).len(), coloured, "{name}");
        assert_eq!(txans(&mdx).len(), file.texture_transforms.len(), "{name}");
        let animated = layers(&mdx).iter().filter(|l| l.texture_animation_id >= 0).count();
        assert_eq!(animated, model.uv_animations.iter().map(|u| u.layers.len()).sum::<usize>(), "{name}");
        eprintln!("{name}: {coloured} GEOA, {} TXAN, {animated} animated layers", file.texture_transforms.len());
    }
}
