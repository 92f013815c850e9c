//! The checks `cargo xtask corpus` runs on each MDX file (feature `verify`): `parse` (with the
//! counts), `rewrite` (byte-identical), `to-ir` (the common model), `ir-round-trip` (MDX → model →
//! MDX gives the same bytes, from the file kept with the model; and the model without it, written
//! as MDX 800 and read again, is the same model: [`rebuild`]).

use relic_core::Model;
use relic_core::model::{Animation, Channel, ChannelValues};

use relic_core::check::Checks;

/// Runs every format-level check on one file.
pub fn corpus_checks(bytes: &[u8]) -> Checks {
    let mut checks = Checks::new();
    let Some(file) = checks.parsed(crate::read(bytes), |file| {
        let info = crate::counts::info(file);
        let count = |k: &str| match info.get(k) {
            Some(relic_core::info::Fact::Count(n)) => n.to_string(),
            _ => String::new(),
        };
        format!(
            "version {}, {} chunks; {} geosets, {} vertices, {} faces, {} bones, {} helpers, {} sequences, {} tracks",
            file.version(),
            file.chunks.len(),
            count("geosets"),
            count("vertices"),
            count("faces"),
            count("bones"),
            count("helpers"),
            count("sequences"),
            count("tracks"),
        )
    }) else {
        return checks;
    };
    checks.run("rewrite", || match crate::write(&file) {
        Ok(out) if out == bytes => Ok(format!("{} bytes, identical", out.len())),
        Ok(out) => {
            let at = out.iter().zip(bytes).position(|(a, b)| a != b).unwrap_or(out.len().min(bytes.len()));
            Err(format!("{} bytes written for {}; first difference at {at:#x}", out.len(), bytes.len()))
        }
        Err(e) => Err(e.to_string()),
    });
    checks.run("to-ir", || {
        let model = crate::to_ir::to_ir(&file).map_err(|e| e.to_string())?;
        let m = &model.value;
        Ok(format!(
            "{} bones, {} meshes, {} materials, {} animations, {} attachments; {} not mapped",
            m.bones.len(),
            m.meshes.len(),
            m.materials.len(),
            m.animations.len(),
            m.attachments.len(),
            model.losses.len()
        ))
    });
    checks.run("ir-round-trip", || {
        let model = crate::read_model(bytes).map_err(|e| e.to_string())?;
        let out = crate::write_model(&model, &Default::default()).map_err(|e| e.to_string())?;
        if out.value != bytes {
            let at = out.value.iter().zip(bytes).position(|(a, b)| a != b).unwrap_or(out.value.len().min(bytes.len()));
            return Err(format!("{} bytes written for {}; first difference at {at:#x}", out.value.len(), bytes.len()));
        }
        let rebuilt = rebuild(&model)?;
        Ok(format!("byte-identical, {} bytes; {rebuilt}", bytes.len()))
    });
    checks
}

/// The corpus checks of an MDL file (the registry's MDL entry): its text parses, the MDX it
/// describes writes and reads back as the same file, maps to the model, and relic's MDL of it
/// reads back as the same file.
pub fn mdl_checks(bytes: &[u8]) -> Checks {
    let mut checks = Checks::new();
    let Some(file) = checks.parsed(crate::mdl::read(bytes), |file| {
        format!("version {}, {} chunks described", file.version(), file.chunks.len())
    }) else {
        return checks;
    };
    checks.run("as-mdx", || {
        let out = crate::write(&file).map_err(|e| e.to_string())?;
        let back = crate::read(&out).map_err(|e| format!("the MDX written does not read: {e}"))?;
        if back != file {
            return Err("the MDX written reads as another file".into());
        }
        Ok(format!("{} bytes, reads back as the file", out.len()))
    });
    checks.run("to-ir", || {
        let model = crate::to_ir::to_ir(&file).map_err(|e| e.to_string())?;
        Ok(format!(
            "{} bones, {} meshes, {} animations",
            model.value.bones.len(),
            model.value.meshes.len(),
            model.value.animations.len()
        ))
    });
    checks.run("mdl-again", || {
        let text = crate::mdl::write(&file).map_err(|e| e.to_string())?;
        let back = crate::mdl::read(&text.value).map_err(|e| format!("relic's MDL does not read: {e}"))?;
        if back != file {
            return Err("relic's MDL of it reads as another file".into());
        }
        Ok(format!("{} bytes of text, the same file ({} notes)", text.value.len(), text.losses.len()))
    });
    checks
}

/// The model without its kept file, written as MDX 800 and read again: the same model, but for
/// what the writer lists as losses that the file cannot hold (meshes of a level of detail past 0
/// are not written; float noise within 1e-4 of the values' size is allowed in the keys, whose
/// offsets and tangents are computed back and forth). The message says what differs first.
pub fn rebuild(model: &Model) -> Result<String, String> {
    let mut model = model.clone();
    model.extras = None;
    let out = crate::write_model(&model, &Default::default()).map_err(|e| format!("rebuild: {e}"))?;
    let back =
        crate::to_ir::to_ir(&crate::read(&out.value).map_err(|e| format!("the rebuilt file does not read: {e}"))?)
            .map_err(|e| format!("the rebuilt file does not map: {e}"))?
            .value;
    model.meshes.retain(|m| m.lod.level == 0);
    for m in &mut model.meshes {
        m.skin = equal_shares(&m.skin);
    }
    same_model(&model, &back).map_err(|e| format!("rebuilt from the model: {e}"))?;
    Ok(format!("rebuilt from the model as {} bytes, the same model ({} notes)", out.value.len(), out.losses.len()))
}

/// A skin as MDX 800 holds it: each vertex's bones of weight above 0 (the strongest 8), in equal
/// shares.
fn equal_shares(skin: &relic_core::model::Skin) -> relic_core::model::Skin {
    if skin.is_empty() {
        return skin.clone();
    }
    relic_core::model::Skin::from_vertices((0..skin.vertex_count()).map(|v| {
        let mut list: Vec<_> = skin.vertex(v).iter().filter(|i| i.weight > 0.0).copied().collect();
        if list.len() > 8 {
            list = skin.strongest(v, 8);
        }
        if list.is_empty() {
            list.push(relic_core::model::Influence { bone: 0, weight: 1.0 });
        }
        let n = list.len() as f32;
        for i in &mut list {
            i.weight = 1.0 / n;
        }
        list
    }))
}

/// The first difference between two models, keys compared within float noise.
pub fn same_model(a: &Model, b: &Model) -> Result<(), String> {
    if a.name != b.name {
        return Err(format!("name {:?} → {:?}", a.name, b.name));
    }
    if a.bones != b.bones {
        let at = a.bones.iter().zip(&b.bones).position(|(x, y)| x != y).unwrap_or(a.bones.len().min(b.bones.len()));
        return Err(format!("bones differ ({} → {}), first at {at}", a.bones.len(), b.bones.len()));
    }
    if a.meshes != b.meshes {
        let at = a.meshes.iter().zip(&b.meshes).position(|(x, y)| x != y).unwrap_or(a.meshes.len().min(b.meshes.len()));
        let field = match (a.meshes.get(at), b.meshes.get(at)) {
            (Some(x), Some(y)) => [
                ("name", x.name == y.name),
                ("material", x.material == y.material),
                ("positions", x.positions == y.positions),
                ("normals", x.normals == y.normals),
                ("uv sets", x.uv_sets == y.uv_sets),
                ("skin", x.skin == y.skin),
                ("triangles", x.triangles == y.triangles),
                ("lod", x.lod == y.lod),
            ]
            .iter()
            .find(|(_, same)| !same)
            .map_or("", |(f, _)| f),
            _ => "count",
        };
        return Err(format!("meshes differ ({} → {}), first at {at}: {field}", a.meshes.len(), b.meshes.len()));
    }
    if a.materials != b.materials {
        return Err(format!("materials differ: {:?} → {:?}", a.materials, b.materials));
    }
    if a.global_sequences != b.global_sequences {
        return Err(format!("global sequences {:?} → {:?}", a.global_sequences, b.global_sequences));
    }
    if a.attachments != b.attachments {
        let at = a.attachments.iter().zip(&b.attachments).position(|(x, y)| x != y);
        let pick = |m: &Model| at.and_then(|i| m.attachments.get(i)).cloned();
        return Err(format!(
            "attachments differ ({} → {}): {:?} → {:?}",
            a.attachments.len(),
            b.attachments.len(),
            pick(a),
            pick(b)
        ));
    }
    let emitter =
        |e: &relic_core::model::Emitter| (e.kind, e.name.clone(), e.bone, e.texture.clone(), e.size, e.tracks.clone());
    if let Some(i) = (0..a.emitters.len().max(b.emitters.len()))
        .find(|&i| a.emitters.get(i).map(emitter) != b.emitters.get(i).map(emitter))
    {
        return Err(format!("emitters differ ({} → {}), first at {i}", a.emitters.len(), b.emitters.len()));
    }
    if (&a.lights, &a.cameras, &a.collision_shapes) != (&b.lights, &b.cameras, &b.collision_shapes) {
        return Err(format!("lights, cameras or collision shapes differ: {:?} → {:?}", a.lights, b.lights));
    }
    if a.animations.len() != b.animations.len() {
        return Err(format!("{} animations → {}", a.animations.len(), b.animations.len()));
    }
    for (x, y) in a.animations.iter().zip(&b.animations) {
        same_animation(x, y).map_err(|e| format!("animation {:?}: {e}", x.name))?;
    }
    Ok(())
}

fn same_animation(a: &Animation, b: &Animation) -> Result<(), String> {
    if (&a.name, a.duration, a.looping, a.blend_in, &a.events, a.bounds)
        != (&b.name, b.duration, b.looping, b.blend_in, &b.events, b.bounds)
    {
        return Err("name, duration, looping, blend, events or bounds differ".into());
    }
    let order = |list: &[Channel]| {
        let mut v: Vec<Channel> = list.to_vec();
        v.sort_by_key(|c| (c.bone, c.values.property()));
        v
    };
    let (x, y) = (order(&a.channels), order(&b.channels));
    if x.len() != y.len() {
        return Err(format!("{} channels → {}", x.len(), y.len()));
    }
    for (c, d) in x.iter().zip(&y) {
        let what = format!("bone {} {}", c.bone, c.values.property());
        if (c.bone, c.clock, c.interpolation, &c.times) != (d.bone, d.clock, d.interpolation, &d.times) {
            return Err(format!("{what}: bone, clock, interpolation or times differ"));
        }
        let flat = |v: &ChannelValues| -> Vec<f32> {
            match v {
                ChannelValues::Translation(v) | ChannelValues::Scale(v) => v.iter().flatten().copied().collect(),
                ChannelValues::Rotation(v) => v.iter().flatten().copied().collect(),
            }
        };
        let (p, q) = (flat(&c.values), flat(&d.values));
        if c.values.property() != d.values.property() || p.len() != q.len() {
            return Err(format!("{what}: values differ in kind or count"));
        }
        let size = p.iter().fold(1f32, |m, v| m.max(v.abs()));
        let worst = p.iter().zip(&q).map(|(u, v)| (u - v).abs()).fold(0f32, f32::max);
        let close = worst <= 1e-4 * size;
        if !close && !p.iter().zip(&q).all(|(u, v)| u.to_bits() == v.to_bits()) {
            return Err(format!("{what}: values differ by up to {worst}"));
        }
    }
    Ok(())
}
