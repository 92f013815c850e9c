//! YAML summaries of every fixture (hostile ones: the error) and every corpus LTB: the file as read
//! (counts, layouts, first values, checksums of large arrays) and the model made from it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use relic_ltb::file::{PositionKeys, RenderObject, RotationKeys, Track};

fn object(o: &RenderObject) -> serde_json::Value {
    let streams = o.streams().map(|(streams, flags, rule)| {
        serde_json::json!({
            "flags": flags.iter().map(|f| format!("{f:#x}")).collect::<Vec<_>>(),
            "rule": format!("{rule:?}"),
            "columns": streams.iter().map(|s| serde_json::json!({
                "positions": s.positions.len(),
                "first_position": s.positions.first(),
                "blend_weights": s.blend_weights.len(),
                "bone_indices": s.bone_indices.len(),
                "normals": s.normals.len(),
                "colors": s.colors.len(),
                "uv_sets": s.uv_sets.len(),
                "basis": s.basis.len(),
                "fnv": format!("{:016x}", relic_core::hash::fnv1a(bytemuck::cast_slice(&s.positions))),
            })).collect::<Vec<_>>(),
        })
    });
    let detail = match o {
        RenderObject::Rigid(m) => serde_json::json!({ "bone": m.bone }),
        RenderObject::Skeletal(m) => serde_json::json!({
            "max_bones_per_tri": m.max_bones_per_tri,
            "max_bones_per_vert": m.max_bones_per_vert,
            "matrix_palette": m.matrix_palette,
            "palette": m.palette.as_ref().map(|p| (p.min_bone, p.max_bone, p.reindex.clone())),
            "bone_sets": m.bone_sets.iter().map(|s| format!("{}+{} {:?} ..{}", s.first_vertex, s.vertex_count, s.bones, s.index_end)).collect::<Vec<_>>(),
        }),
        RenderObject::VertexAnimated(m) => serde_json::json!({
            "undup": m.undup_vertex_count, "anim_node": m.anim_node, "effector": m.bone_effector, "dups": m.dups,
        }),
        RenderObject::Null => serde_json::json!("null"),
        RenderObject::Opaque { kind, body } => serde_json::json!({ "opaque_kind": kind, "bytes": body.len() }),
    };
    serde_json::json!({ "kind": o.kind(), "vertices": o.vertex_count(), "triangles": o.triangle_count(), "streams": streams, "detail": detail })
}

fn track(t: &Track) -> String {
    match t {
        Track::Transform { positions, .. } => format!("transform × {}", positions.len()),
        Track::Vertex { counts, .. } => format!("vertex frames {counts:?}"),
        Track::Compressed { positions, rotations } => {
            let p = match positions {
                PositionKeys::Full(v) => format!("{} full", v.len()),
                PositionKeys::Short(v) => format!("{} short {:?}", v.len(), v.first()),
            };
            let r = match rotations {
                RotationKeys::Full(v) => format!("{} full", v.len()),
                RotationKeys::Short(v) => format!("{} short {:?}", v.len(), v.first()),
            };
            format!("positions {p}, rotations {r}")
        }
    }
}

fn summary(bytes: &[u8]) -> serde_json::Value {
    let file = match relic_ltb::read(bytes) {
        Ok(f) => f,
        Err(e) => return serde_json::json!({ "bytes": bytes.len(), "error": e.to_string() }),
    };
    let model = relic_ltb::to_ir(&file).unwrap();
    serde_json::json!({
        "bytes": bytes.len(),
        "wrapper": file.wrapper.as_ref().map(|w| format!("props {:#04x}, dict {}, {} → {} bytes", w.props, w.dict_size, w.original.len(), w.size)),
        "version": file.version(),
        "counts": file.header.counts.named().iter().map(|(n, c)| format!("{n} {c}")).collect::<Vec<_>>(),
        "command": file.header.command_string.to_text(),
        "radius": file.header.radius,
        "obbs": file.header.obbs.iter().map(|o| (o.node, o.radius)).collect::<Vec<_>>(),
        "pieces": file.pieces.iter().map(|p| serde_json::json!({
            "name": p.name.to_text(),
            "lod_distances": p.lod_distances,
            "lods": p.lods.iter().map(|l| serde_json::json!({
                "textures": (l.texture_count, l.textures),
                "object": object(&l.object),
                "used_nodes": l.used_nodes,
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "nodes": file.nodes.iter().map(|n| format!("{} flags {} children {}", n.name.to_text(), n.flags, n.child_count)).collect::<Vec<_>>(),
        "weight_sets": file.weight_sets.iter().map(|w| (w.name.to_text(), w.weights.clone())).collect::<Vec<_>>(),
        "child_models": file.child_models.iter().map(|c| c.to_text()).collect::<Vec<_>>(),
        "animations": file.animations.iter().map(|a| serde_json::json!({
            "name": a.name.to_text(),
            "mode": a.compression,
            "interpolation_ms": a.interpolation_ms,
            "keys": a.keyframes.iter().map(|k| format!("{} {}", k.time, k.command.to_text())).collect::<Vec<_>>(),
            "tracks": a.tracks.iter().map(track).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "sockets": file.sockets.iter().map(|s| format!("{} on {} scale {:?}", s.name.to_text(), s.node, s.scale)).collect::<Vec<_>>(),
        "binding_groups": file.anim_bindings.iter().map(|g| g.bindings.len()).collect::<Vec<_>>(),
        "trailing": file.trailing.len(),
        "model": {
            "bones": model.bones.len(),
            "meshes": model.meshes.iter().map(|m| format!("{} LOD {} ({}): {} vertices, {} triangles, {} UV sets, {} morph targets", m.name, m.lod.level, m.lod.distance, m.positions.len(), m.triangles.len(), m.uv_sets.len(), m.morph_targets.len())).collect::<Vec<_>>(),
            "materials": model.materials.iter().map(|m| m.name.clone()).collect::<Vec<_>>(),
            "animations": model.animations.iter().map(|a| format!("{} {} s, {} channels, {} morph channels, {} events", a.name, a.duration, a.channels.len(), a.morph_channels.len(), a.events.len())).collect::<Vec<_>>(),
            "attachments": model.attachments.len(),
        },
    })
}

#[test]
fn fixture_summaries() {
    insta::glob!("../../../fixtures/ltb", "*.ltb", |path| {
        insta::assert_yaml_snapshot!(summary(&std::fs::read(path).unwrap()));
    });
}

#[test]
fn hostile_fixture_errors() {
    insta::glob!("../../../fixtures/ltb/hostile", "*.ltb", |path| {
        insta::assert_yaml_snapshot!(summary(&std::fs::read(path).unwrap()));
    });
}

#[test]
fn corpus_summaries() {
    let Some(dir) = relic_testkit::corpus_dir("corpus_summaries") else { return };
    for (name, bytes) in relic_testkit::files_in(&dir.join("ltb")) {
        insta::assert_yaml_snapshot!(format!("corpus_{name}"), summary(&bytes));
    }
}
