//! Lights, cameras and collision shapes: every fixture and corpus file maps to a model holding
//! as many as the probe counts, and a file built from that model alone (no kept file) holds the
//! same LITE, CAMS and CLID records (their nodes renumbered; the 1200 shadow intensity, which the
//! model does not hold, aside).

// Test code: a failed unwrap or index is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::path::{Path, PathBuf};

use relic_core::WriteOptions;
use relic_core::model::{LightKind, ShapeKind};
use relic_mdx::file::{Camera, Chunk, CollisionShape, Light, MdxFile};

/// `(file, lights, cameras, collision shapes)` as `python3 /work/shared/tools/mdx_probe.py`
/// counts them (`counts.lights`, `counts.cameras`, `counts.collision_shapes`).
const PROBED: [(&str, usize, usize, usize); 14] = [
    ("v800_full.mdx", 1, 1, 4),
    ("v900_emissive.mdx", 1, 1, 4),
    ("v1000_hd.mdx", 1, 1, 4),
    ("v1100_slots.mdx", 1, 1, 4),
    ("v1200_shadow.mdx", 1, 1, 4),
    ("DustEmitter.mdx", 0, 0, 0),
    ("File00001202_98f1fm0.mdx", 1, 0, 0),
    ("FireSmallBurn.mdx", 0, 0, 0),
    ("Hero_Glow.mdx", 0, 0, 0),
    ("InfernalMagicFire.mdx", 0, 0, 0),
    ("PackHorse.mdx", 0, 0, 1),
    ("SmileyGW_004.mdx", 0, 0, 1),
    ("blob.mdx", 1, 0, 1),
    ("evilakama.mdx", 0, 0, 0),
];

fn files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = vec![root.join("fixtures/mdx")];
    if let Some(corpus) = relic_testkit::corpus_dir("scene") {
        files.push(corpus.join("mdx"));
    }
    files
        .iter()
        .flat_map(|d| std::fs::read_dir(d).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "mdx"))
        .collect()
}

fn lights(f: &MdxFile) -> Vec<Light> {
    f.chunks.iter().filter_map(|c| if let Chunk::Lights(v) = c { Some(v) } else { None }).flatten().cloned().collect()
}

fn cameras(f: &MdxFile) -> Vec<Camera> {
    f.chunks.iter().filter_map(|c| if let Chunk::Cameras(v) = c { Some(v) } else { None }).flatten().cloned().collect()
}

fn shapes(f: &MdxFile) -> Vec<CollisionShape> {
    f.chunks
        .iter()
        .filter_map(|c| if let Chunk::CollisionShapes(v) = c { Some(v) } else { None })
        .flatten()
        .cloned()
        .collect()
}

/// A record's tracks but for their frames (laid on the rebuilt timeline, which starts each clip
/// at the first whole second after the last; the frames within a clip are checked through the
/// model read back): tag, interpolation, global sequence, keys.
fn shape_of(tracks: &[relic_mdx::file::Track]) -> Vec<(String, u32, i32, usize)> {
    tracks.iter().map(|t| (t.tag.text(), t.interpolation, t.global_sequence_id, t.keys.len())).collect()
}

#[test]
fn lights_cameras_and_collision_shapes_keep_their_counts_and_records_through_the_model() {
    let mut seen = 0;
    for path in files() {
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let &(_, n_lights, n_cameras, n_shapes) =
            PROBED.iter().find(|p| p.0 == name).unwrap_or_else(|| panic!("{name}: not in the probe's table"));
        seen += 1;
        let bytes = std::fs::read(&path).unwrap();
        let file = relic_mdx::read(&bytes).unwrap();
        let mut model = relic_mdx::read_model(&bytes).unwrap();
        let counts = (model.lights.len(), model.cameras.len(), model.collision_shapes.len());
        assert_eq!(counts, (n_lights, n_cameras, n_shapes), "{name}");
        assert_eq!((lights(&file).len(), cameras(&file).len(), shapes(&file).len()), counts, "{name}");
        // Built from the model alone, in the file's version (800 for one relic does not build).
        model.extras = None;
        let version = [900, 1000].contains(&file.version()).then_some(file.version());
        let out = relic_mdx::from_ir(&model, &WriteOptions { version }).unwrap();
        let noted = |element: &str| out.losses.iter().filter(|l| l.element == element).count();
        assert_eq!(
            (noted("lights"), noted("cameras"), noted("collision shapes"), noted("tracks")),
            (0, 0, 0, 0),
            "{name}: {:?}",
            out.losses
        );
        let (a, b) = (lights(&file), lights(&out.value));
        assert_eq!(a.len(), b.len(), "{name}");
        for (x, y) in a.iter().zip(&b) {
            assert_eq!((&x.node.name, x.node.flags), (&y.node.name, y.node.flags), "{name}");
            let mut y = y.clone();
            y.node = x.node.clone();
            y.shadow_intensity = x.shadow_intensity;
            assert_eq!(shape_of(&x.tracks), shape_of(&y.tracks), "{name}");
            y.tracks = x.tracks.clone();
            assert_eq!(*x, y, "{name}");
        }
        let (a, b) = (cameras(&file), cameras(&out.value));
        assert_eq!(
            a.iter().map(|c| shape_of(&c.tracks)).collect::<Vec<_>>(),
            b.iter().map(|c| shape_of(&c.tracks)).collect::<Vec<_>>(),
            "{name}"
        );
        let untracked =
            |v: Vec<Camera>| -> Vec<Camera> { v.into_iter().map(|c| Camera { tracks: Vec::new(), ..c }).collect() };
        assert_eq!(untracked(a), untracked(b), "{name}");
        let (a, b) = (shapes(&file), shapes(&out.value));
        assert_eq!(a.len(), b.len(), "{name}");
        for (x, y) in a.iter().zip(&b) {
            assert_eq!((&x.node.name, x.node.flags, x.shape), (&y.node.name, y.node.flags, y.shape), "{name}");
        }
        // Read back: the same model's lights, cameras and shapes.
        let back = relic_mdx::read_model(&relic_mdx::write(&out.value).unwrap()).unwrap();
        assert_eq!(back.lights, model.lights, "{name}");
        assert_eq!(back.cameras, model.cameras, "{name}");
        assert_eq!(back.collision_shapes, model.collision_shapes, "{name}");
    }
    assert!(seen >= 5);
}

#[test]
fn the_fixture_maps_each_kind_where_the_spec_puts_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let bytes = std::fs::read(root.join("fixtures/mdx/v800_full.mdx")).unwrap();
    let file = relic_mdx::read(&bytes).unwrap();
    let model = relic_mdx::read_model(&bytes).unwrap();
    let (l, fl) = (&model.lights[0], &lights(&file)[0]);
    let kind = [LightKind::Point, LightKind::Directional, LightKind::Ambient][fl.light_type as usize];
    assert_eq!(l.kind, kind);
    assert_eq!(l.color, fl.color);
    assert_eq!(l.attenuation, Some([fl.attenuation_start, fl.attenuation_end]));
    assert_eq!(model.bones[l.bone].name, fl.node.name.to_text());
    // Warcraft (x, y, z) is the model's (y, z, x).
    let (c, fc) = (&model.cameras[0], &cameras(&file)[0]);
    assert_eq!(c.position, [fc.position[1], fc.position[2], fc.position[0]]);
    assert_eq!(c.target, [fc.target_position[1], fc.target_position[2], fc.target_position[0]]);
    assert_eq!((c.yfov, c.znear, c.zfar), (fc.field_of_view, fc.near_clip, fc.far_clip));
    let kinds: Vec<&str> = model.collision_shapes.iter().map(|s| s.shape.as_str()).collect();
    assert_eq!(kinds.len(), 4);
    for (s, fs) in model.collision_shapes.iter().zip(shapes(&file)) {
        if let (ShapeKind::Sphere { center, radius }, relic_mdx::file::Shape::Sphere(c, r)) = (s.shape, fs.shape) {
            assert_eq!((center, radius), ([c[1], c[2], c[0]], r));
        }
    }
}

/// A model of another origin: a spot light on a skinned bone, a camera on a bone, a shape with
/// a transform of its own, a parameter MDX has no tag for and a key past its clip's end.
#[test]
fn what_mdx_cannot_carry_is_noted_with_counts() {
    use relic_core::model::*;
    let mut model = Model { name: "scene".into(), bones: relic_testkit::bone_chain(2, "b"), ..Model::default() };
    model.meshes.push(Mesh {
        name: "geoset 0".into(),
        positions: vec![[0.0; 3]; 3],
        skin: Skin::from_vertices(vec![vec![Influence { bone: 0, weight: 1.0 }]; 3]),
        triangles: vec![[0, 1, 2]],
        ..Mesh::default()
    });
    model.animations.push(Animation { name: "Stand".into(), duration: 1.0, looping: true, ..Animation::default() });
    let track = |property: &str, times: Vec<f32>, values: Vec<f32>| EmitterTrack {
        property: property.into(),
        animation: Some(0),
        clock: Clock::Animation,
        interpolation: Interpolation::Linear,
        components: 1,
        times,
        values,
    };
    model.lights.push(Light {
        name: "b0".into(),
        kind: LightKind::Spot,
        bone: 0,
        transform: Transform::IDENTITY,
        color: [1.0, 0.5, 0.25],
        intensity: 2.0,
        cone: Some([0.1, 0.5]),
        tracks: vec![
            track("intensity", vec![0.0, 2.0], vec![1.0, 3.0]),
            track("shadow_softness", vec![0.0], vec![1.0]),
        ],
        ..Light::default()
    });
    model.cameras.push(Camera {
        name: "eye".into(),
        bone: Some(1),
        position: [0.0, 0.0, 5.0],
        target: [0.0; 3],
        yfov: 0.7,
        znear: 1.0,
        zfar: 100.0,
        ..Camera::default()
    });
    model.collision_shapes.push(CollisionShape {
        name: "b1".into(),
        bone: 1,
        transform: Transform { translation: [0.0, 1.0, 0.0], ..Transform::IDENTITY },
        shape: ShapeKind::Sphere { center: [0.0; 3], radius: 2.0 },
    });
    model.validate().unwrap();
    let out = relic_mdx::from_ir(&model, &WriteOptions::default()).unwrap();
    let notes: Vec<String> = out.losses.iter().map(|l| format!("{}: {}", l.element, l.what)).collect();
    for expected in [
        "lights: 1 lights are not on a bone of their own",
        "collision shapes: 1 collision shapes are not on a bone of their own",
        "lights: 1 spot lights written as omnidirectional",
        "lights: 1 lights without attenuation or ambient colour",
        "cameras: 1 cameras on a bone written at its rest place",
        "tracks: 1 light and camera parameter tracks MDX has no tag for dropped",
        "tracks: 1 light and camera keys outside their clip dropped",
    ] {
        assert!(notes.iter().any(|n| n.starts_with(expected)), "{expected}: {notes:?}");
    }
    let (l, c, s) = (lights(&out.value), cameras(&out.value), shapes(&out.value));
    assert_eq!((l.len(), c.len(), s.len()), (1, 1, 1));
    // The light's own node is new (b0 is skinned), under b0; the shape's node sits at the
    // sphere's centre, one unit up b1 (the model's +Y is Warcraft's +Z).
    assert_eq!(l[0].node.parent_id, 0);
    assert_eq!(l[0].light_type, 0);
    assert_eq!(l[0].tracks.len(), 1);
    assert_eq!(l[0].tracks[0].keys.len(), 1, "the key at 2 s lies past the 1 s clip");
    let bind = model.bones[1].bind_matrix;
    let pivot = [bind[14], bind[12], bind[13] + 1.0];
    match s[0].shape {
        relic_mdx::file::Shape::Sphere(center, radius) => assert_eq!((center, radius), (pivot, 2.0)),
        other => panic!("{other:?}"),
    }
    let back = relic_mdx::read_model(&relic_mdx::write(&out.value).unwrap()).unwrap();
    assert_eq!((back.lights.len(), back.cameras.len(), back.collision_shapes.len()), (1, 1, 1));
    // The camera at the bone's rest place: b1's bind translation plus its position.
    assert_eq!(back.cameras[0].position, [bind[12], bind[13], bind[14] + 5.0]);
}

/// WoW → MDX: an M2's lights are the model's (on their bones), so the MDX written from it holds
/// them as LITE records with the light's colour, intensity and attenuation.
#[test]
fn m2_lights_become_lite_records() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    for name in ["v256_effects.m2", "v260_effects_wide.m2"] {
        let bytes = std::fs::read(root.join("fixtures/m2").join(name)).unwrap();
        let file = relic_m2::read(&bytes).unwrap();
        let on_bones =
            file.lights.iter().filter(|l| usize::try_from(l.bone).is_ok_and(|b| b < file.bones.len())).count();
        assert!(on_bones > 0, "{name}");
        let model = relic_m2::read_model(&bytes).unwrap();
        assert_eq!(model.lights.len(), on_bones, "{name}");
        let out = relic_mdx::from_ir(&model, &WriteOptions::default()).unwrap();
        let written = lights(&out.value);
        assert_eq!(written.len(), on_bones, "{name}");
        for (l, w) in model.lights.iter().zip(&written) {
            assert_eq!((w.color, w.intensity), (l.color, l.intensity), "{name}");
            assert_eq!(Some([w.attenuation_start, w.attenuation_end]), l.attenuation, "{name}");
            assert_eq!(w.light_type, if l.kind == LightKind::Directional { 1 } else { 0 }, "{name}");
        }
        let back = relic_mdx::read_model(&relic_mdx::write(&out.value).unwrap()).unwrap();
        assert_eq!(back.lights.len(), on_bones, "{name}");
    }
}

/// Blender's glTF exporter leaves lights and cameras out unless "Punctual Lights" and "Cameras"
/// are ticked: a model that comes back with none of either, its kept file otherwise its own, is
/// still that file's model and is written back byte for byte (File00001202 and blob.mdx were
/// rebuilt without their LITE, CORN and BPOS through Blender with Custom Properties). A model that
/// lost one light of two, or anything else, is an edit.
#[test]
fn a_model_without_any_light_or_camera_is_still_the_files() {
    let mut seen = 0;
    for path in files() {
        let bytes = std::fs::read(&path).unwrap();
        let mut model = relic_mdx::read_model(&bytes).unwrap();
        if model.lights.is_empty() && model.cameras.is_empty() {
            continue;
        }
        seen += 1;
        model.lights.clear();
        model.cameras.clear();
        let out = relic_mdx::from_ir(&model, &WriteOptions::default()).unwrap();
        assert_eq!(relic_mdx::write(&out.value).unwrap(), bytes, "{}: {:?}", path.display(), out.losses);
        // Without its collision shapes too, it is an edit: built from the model.
        if !model.collision_shapes.is_empty() {
            model.collision_shapes.clear();
            let out = relic_mdx::from_ir(&model, &WriteOptions::default()).unwrap();
            assert!(out.losses.iter().any(|l| l.what.contains("no longer the one read")), "{:?}", out.losses);
        }
    }
    assert!(seen >= 5, "{seen}");
}
