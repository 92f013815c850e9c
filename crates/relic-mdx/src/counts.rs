//! What `relic info` reports about an MDX, and the check that a file about to be written reads
//! back as itself (its version-dependent fields agree with its `VERS`).

use relic_core::{Info, WriteError};

use crate::file::{Chunk, Geoset, Layer, MdxFile, Track, value_kind};

/// Every track of the file, in file order (node tracks, record tracks, 1100 slot tracks).
pub(crate) fn tracks(file: &MdxFile) -> Vec<&Track> {
    let mut out: Vec<&Track> = Vec::new();
    for chunk in &file.chunks {
        match chunk {
            Chunk::Materials(v) => {
                for layer in v.iter().flat_map(|m| &m.layers) {
                    if let Some(slots) = &layer.slots {
                        out.extend(slots.slots.iter().filter_map(|s| s.track.as_ref()));
                    }
                    out.extend(&layer.tracks);
                }
            }
            Chunk::TextureAnims(v) => out.extend(v.iter().flat_map(|t| &t.tracks)),
            Chunk::GeosetAnims(v) => out.extend(v.iter().flat_map(|g| &g.tracks)),
            Chunk::Bones(v) => out.extend(v.iter().flat_map(|b| &b.node.tracks)),
            Chunk::Lights(v) => out.extend(v.iter().flat_map(|l| l.node.tracks.iter().chain(&l.tracks))),
            Chunk::Helpers(v) => out.extend(v.iter().flat_map(|h| &h.node.tracks)),
            Chunk::Attachments(v) => out.extend(v.iter().flat_map(|a| a.node.tracks.iter().chain(&a.tracks))),
            Chunk::ParticleEmitters(v) => out.extend(v.iter().flat_map(|e| e.node.tracks.iter().chain(&e.tracks))),
            Chunk::ParticleEmitters2(v) => out.extend(v.iter().flat_map(|e| e.node.tracks.iter().chain(&e.tracks))),
            Chunk::PopcornEmitters(v) => out.extend(v.iter().flat_map(|e| e.node.tracks.iter().chain(&e.tracks))),
            Chunk::RibbonEmitters(v) => out.extend(v.iter().flat_map(|e| e.node.tracks.iter().chain(&e.tracks))),
            Chunk::Cameras(v) => out.extend(v.iter().flat_map(|c| &c.tracks)),
            Chunk::Events(v) => out.extend(v.iter().flat_map(|e| &e.node.tracks)),
            Chunk::CollisionShapes(v) => out.extend(v.iter().flat_map(|c| &c.node.tracks)),
            _ => {}
        }
    }
    out
}

/// The faces of a geoset as its face groups state them (triangles, strips, fans, quads).
pub(crate) fn faces(geoset: &Geoset) -> u64 {
    geoset
        .face_types
        .iter()
        .zip(&geoset.face_counts)
        .map(|(&kind, &count)| {
            let count = u64::from(count);
            match kind {
                4 => count / 3,
                5 | 6 | 8 => count.saturating_sub(2),
                7 => count / 4 * 2,
                _ => 0,
            }
        })
        .sum()
}

/// `relic info` of a parsed file.
pub(crate) fn info(file: &MdxFile) -> Info {
    #[derive(Default)]
    struct N {
        sequences: usize,
        global_sequences: usize,
        materials: usize,
        layers: usize,
        textures: usize,
        texture_animations: usize,
        geosets: usize,
        vertices: usize,
        faces: u64,
        face_indices: usize,
        geoset_animations: usize,
        bones: usize,
        lights: usize,
        helpers: usize,
        attachments: usize,
        pivot_points: usize,
        particle_emitters: usize,
        particle_emitters2: usize,
        popcorn_emitters: usize,
        ribbons: usize,
        cameras: usize,
        events: usize,
        collision_shapes: usize,
        face_fx: usize,
        bind_pose_matrices: usize,
        uv_sets: usize,
        event_keys: usize,
    }
    let mut n = N::default();
    let mut unknown: Vec<String> = Vec::new();
    for chunk in &file.chunks {
        match chunk {
            Chunk::Version(_) | Chunk::Model(_) => {}
            Chunk::Sequences(v) => n.sequences += v.len(),
            Chunk::GlobalSequences(v) => n.global_sequences += v.len(),
            Chunk::Materials(v) => {
                n.materials += v.len();
                n.layers += v.iter().map(|m| m.layers.len()).sum::<usize>();
            }
            Chunk::Textures(v) => n.textures += v.len(),
            Chunk::TextureAnims(v) => n.texture_animations += v.len(),
            Chunk::Geosets(v) => {
                n.geosets += v.len();
                for g in v {
                    n.vertices += g.vertices.len();
                    n.faces += faces(g);
                    n.face_indices += g.indices.len();
                    n.uv_sets += g.uv_sets.len();
                }
            }
            Chunk::GeosetAnims(v) => n.geoset_animations += v.len(),
            Chunk::Bones(v) => n.bones += v.len(),
            Chunk::Lights(v) => n.lights += v.len(),
            Chunk::Helpers(v) => n.helpers += v.len(),
            Chunk::Attachments(v) => n.attachments += v.len(),
            Chunk::PivotPoints(v) => n.pivot_points += v.len(),
            Chunk::ParticleEmitters(v) => n.particle_emitters += v.len(),
            Chunk::ParticleEmitters2(v) => n.particle_emitters2 += v.len(),
            Chunk::PopcornEmitters(v) => n.popcorn_emitters += v.len(),
            Chunk::RibbonEmitters(v) => n.ribbons += v.len(),
            Chunk::Cameras(v) => n.cameras += v.len(),
            Chunk::Events(v) => {
                n.events += v.len();
                n.event_keys += v.iter().filter_map(|e| e.track.as_ref()).map(|t| t.frames.len()).sum::<usize>();
            }
            Chunk::CollisionShapes(v) => n.collision_shapes += v.len(),
            Chunk::FaceFx(v) => n.face_fx += v.len(),
            Chunk::BindPose(b) => n.bind_pose_matrices += b.matrices.len(),
            Chunk::Unknown { tag, data } => unknown.push(format!("{tag} ({} bytes)", data.len())),
        }
    }
    let order: Vec<String> = file.chunks.iter().map(|c| c.tag().text()).collect();
    let mut info = Info::new(crate::FORMAT, file.version());
    info.count("sequences", n.sequences)
        .count("global_sequences", n.global_sequences)
        .count("materials", n.materials)
        .count("layers", n.layers)
        .count("textures", n.textures)
        .count("texture_animations", n.texture_animations)
        .count("geosets", n.geosets)
        .count("vertices", n.vertices)
        .count("faces", n.faces)
        .count("face_indices", n.face_indices)
        .count("geoset_animations", n.geoset_animations)
        .count("bones", n.bones)
        .count("lights", n.lights)
        .count("helpers", n.helpers)
        .count("attachments", n.attachments)
        .count("pivot_points", n.pivot_points)
        .count("particle_emitters", n.particle_emitters)
        .count("particle_emitters2", n.particle_emitters2)
        .count("popcorn_emitters", n.popcorn_emitters)
        .count("ribbons", n.ribbons)
        .count("cameras", n.cameras)
        .count("events", n.events)
        .count("collision_shapes", n.collision_shapes)
        .count("face_fx", n.face_fx)
        .count("bind_pose_matrices", n.bind_pose_matrices)
        .count("uv_sets", n.uv_sets)
        .count("tracks", tracks(file).len())
        .count("event_keys", n.event_keys)
        .text("chunks", order.join(" "))
        .text("unknown_chunks", if unknown.is_empty() { "none".to_string() } else { unknown.join(", ") });
    info
}

fn refuse(what: String) -> WriteError {
    WriteError::Unsupported(what)
}

/// Refuses a file whose fields would not read back as written: version-dependent fields that
/// disagree with its `VERS`, tracks whose keys disagree with their interpolation or tag, a
/// 1100 slot's track that the reader would give to another owner, an unknown chunk under a
/// known tag.
pub(crate) fn check_version_fields(file: &MdxFile) -> Result<(), WriteError> {
    let v = file.version();
    if !crate::file::VERSIONS.contains(&v) {
        return Err(refuse(format!("version {v}: relic-mdx writes 800, 900, 1000, 1100 and 1200")));
    }
    for track in tracks(file) {
        check_track(track)?;
    }
    for chunk in &file.chunks {
        match chunk {
            Chunk::Materials(materials) => {
                for (i, m) in materials.iter().enumerate() {
                    if let Some(shader) = &m.shader
                        && (v <= 800 || shader.0.starts_with(b"LAYS"))
                    {
                        return Err(refuse(format!(
                            "MTLS[{i}].shader: a shader name is not read back in version {v} (800 has none; a name \
                             starting with LAYS reads as the layer tag)"
                        )));
                    }
                    for (j, layer) in m.layers.iter().enumerate() {
                        check_layer(layer, v).map_err(|e| refuse(format!("MTLS[{i}].layers[{j}].{e}")))?;
                    }
                }
            }
            Chunk::Geosets(geosets) => {
                for (i, g) in geosets.iter().enumerate() {
                    if g.lod.is_some() != (v > 800) {
                        return Err(refuse(format!("GEOS[{i}].lod: version {v} {}", has(v > 800))));
                    }
                    if v <= 800 && !g.hd.is_empty() {
                        return Err(refuse(format!("GEOS[{i}].hd: version 800 has no TANG or SKIN")));
                    }
                }
            }
            Chunk::Lights(lights) => {
                for (i, l) in lights.iter().enumerate() {
                    if l.shadow_intensity.is_some() != (v >= 1200) {
                        return Err(refuse(format!("LITE[{i}].shadow_intensity: version {v} {}", has(v >= 1200))));
                    }
                }
            }
            Chunk::Unknown { tag, .. } if is_known(tag.0) => {
                return Err(refuse(format!("an unknown chunk tagged {tag} would be read as a {tag} chunk")));
            }
            _ => {}
        }
    }
    Ok(())
}

fn has(present: bool) -> &'static str {
    if present { "has the field: it must be present" } else { "has no such field: it must be absent" }
}

fn is_known(tag: [u8; 4]) -> bool {
    const KNOWN: [&[u8; 4]; 23] = [
        b"VERS", b"MODL", b"SEQS", b"GLBS", b"MTLS", b"TEXS", b"TXAN", b"GEOS", b"GEOA", b"BONE", b"LITE", b"HELP",
        b"ATCH", b"PIVT", b"PREM", b"PRE2", b"CORN", b"RIBB", b"CAMS", b"EVTS", b"CLID", b"FAFX", b"BPOS",
    ];
    KNOWN.contains(&&tag)
}

fn check_track(track: &Track) -> Result<(), WriteError> {
    let tag = track.tag;
    if value_kind(tag.0) != Some(track.keys.kind()) {
        return Err(refuse(format!(
            "track {tag}: its keys are {:?} values, which the tag does not hold",
            track.keys.kind()
        )));
    }
    if track.interpolation > crate::file::BEZIER {
        return Err(refuse(format!("track {tag}: interpolation {} (0–3 are known)", track.interpolation)));
    }
    if !track.keys.tangents_agree(track.interpolation >= crate::file::HERMITE) {
        return Err(refuse(format!(
            "track {tag}: interpolation {} needs tangents on {} key",
            track.interpolation,
            if track.interpolation >= crate::file::HERMITE { "every" } else { "no" }
        )));
    }
    Ok(())
}

const LAYER_TRACKS: [[u8; 4]; 6] = [*b"KMTF", *b"KMTA", *b"KMTE", *b"KFC3", *b"KFCA", *b"KFTC"];

fn check_layer(layer: &Layer, v: u32) -> Result<(), String> {
    if layer.emissive_gain.is_some() != (v >= 900) {
        return Err(format!("emissive_gain: version {v} {}", has(v >= 900)));
    }
    let first_track = layer.tracks.first().map(|t| t.tag.0);
    match (v, &layer.fresnel) {
        (..900, Some(_)) => return Err(format!("fresnel: version {v} {}", has(false))),
        (1000.., None) => return Err(format!("fresnel: version {v} {}", has(true))),
        (900, Some(f)) if LAYER_TRACKS.contains(&f.color[0].to_le_bytes()) => {
            return Err("fresnel: its first float reads as a track tag in version 900".into());
        }
        (900, None) if first_track.is_some_and(|t| !LAYER_TRACKS.contains(&t)) => {
            return Err("fresnel: absent in version 900 before a track the reader takes for it".into());
        }
        _ => {}
    }
    if layer.slots.is_some() != (v >= 1100) {
        return Err(format!("slots: version {v} {}", has(v >= 1100)));
    }
    if let Some(slots) = &layer.slots {
        for (k, slot) in slots.slots.iter().enumerate() {
            if slot.track.as_ref().is_some_and(|t| t.tag.0 != *b"KMTF") {
                return Err(format!("slots[{k}].track: a slot's track is KMTF"));
            }
        }
        if slots.slots.last().is_some_and(|s| s.track.is_none()) && first_track == Some(*b"KMTF") {
            return Err("tracks[0]: a KMTF after a last slot without a track is read as that slot's".into());
        }
    }
    Ok(())
}
