//! Snapshot (insta, YAML) of a summary of every fixture and real file: the file as parsed
//! (sections, header, nodes, pieces, animations, …, first values and checksums of the large
//! arrays) and the model it maps to. Parsed floats are printed exactly; nothing is rounded.

// Test helpers may fail loudly: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use std::fmt::Write;

use relic_abc::AbcFile;
use relic_abc::file::{V6File, V12File};
use relic_core::Model;
use serde::Serialize;

/// FNV-1a over the bits of a float slice, as hex.
fn checksum<'a>(values: impl IntoIterator<Item = &'a f32>) -> String {
    let mut h = relic_core::hash::Fnv1a::new();
    for v in values {
        h.update(&v.to_bits().to_le_bytes());
    }
    format!("{:016x}", h.value())
}

fn flat3(v: &[[f32; 3]]) -> impl Iterator<Item = &f32> {
    v.iter().flatten()
}

#[derive(Serialize)]
struct Summary {
    version: u32,
    sections: Vec<String>,
    file: Vec<String>,
    model: Vec<String>,
}

fn v12_lines(f: &V12File) -> Vec<String> {
    let h = &f.header;
    let mut out = vec![
        format!("command {:?}", h.command_string),
        format!(
            "radius {:?} lod_distances {:?} padding zero {}",
            h.internal_radius,
            h.lod_distances,
            h.padding.iter().all(|b| *b == 0)
        ),
        format!(
            "counts keys {} anims {} nodes {} pieces {} child_models {} faces {} vertices {} weights {} lods {} sockets {} weight_sets {} strings {} ({} bytes){}",
            h.counts.keyframe_count,
            h.counts.animation_count,
            h.counts.node_count,
            h.counts.piece_count,
            h.counts.child_model_count,
            h.counts.face_count,
            h.counts.vertex_count,
            h.counts.weight_count,
            h.counts.lod_count,
            h.counts.socket_count,
            h.counts.weight_set_count,
            h.string_count,
            h.string_length_total,
            h.v13_unknown.map(|u| format!(" v13 word {u:#x}")).unwrap_or_default()
        ),
    ];
    for p in f.pieces.iter().flat_map(|p| &p.pieces) {
        out.push(format!(
            "piece {:?} material {} specular {:?}/{:?} lod_weight {:?} unknown {}",
            p.name, p.material_index, p.specular_power, p.specular_scale, p.lod_weight, p.unknown
        ));
        for (l, lod) in p.lods.iter().enumerate() {
            let positions: Vec<[f32; 3]> = lod.vertices.iter().map(|v| v.position).collect();
            let offsets: Vec<f32> = lod.weights.iter().flat_map(|w| w.offset.into_iter().chain([w.bias])).collect();
            let max_weights = lod.vertices.iter().map(|v| v.weight_count).max().unwrap_or(0);
            out.push(format!(
                "  lod {l}: faces {} vertices {} weights {} (≤ {max_weights} per vertex) first vertex {:?} sub-LOD {:?} positions {} weights {}",
                lod.faces.len(),
                lod.vertices.len(),
                lod.weights.len(),
                lod.vertices.first().map(|v| v.position),
                lod.vertices.iter().take(4).map(|v| v.sub_lod_vertex).collect::<Vec<_>>(),
                checksum(flat3(&positions)),
                checksum(&offsets)
            ));
        }
    }
    if let Some(n) = &f.nodes {
        let nodes = &n.nodes;
        out.push(format!("nodes {}", nodes.len()));
        for node in nodes.iter().take(4).chain(nodes.iter().skip(4).last()) {
            out.push(format!(
                "  {:?} index {} flags {} children {} translation {:?}",
                node.name,
                node.index,
                node.flags,
                node.child_count,
                [node.matrix[3], node.matrix[7], node.matrix[11]]
            ));
        }
        out.push(format!(
            "weight sets {} first {:?}",
            n.weight_sets.len(),
            n.weight_sets.iter().take(3).map(|w| (w.name.to_text(), w.weights.len())).collect::<Vec<_>>()
        ));
    }
    if let Some(c) = &f.child_models {
        out.push(format!(
            "child models: self save {:?}, {:?}",
            c.self_entry.as_ref().map(|s| s.save_index),
            c.children.iter().map(|c| (c.file_name.to_text(), c.save_index)).collect::<Vec<_>>()
        ));
    }
    for a in f.animations.iter().flat_map(|a| &a.animations) {
        let transforms: Vec<f32> = a
            .tracks
            .transforms
            .iter()
            .chain(a.tracks.v13.iter().flat_map(|t| t.keys.iter().map(|k| &k.transform)))
            .flat_map(|k| k.translation.into_iter().chain(k.rotation))
            .collect();
        out.push(format!(
            "animation {:?} dims {:?} marker {} interpolation {:?} keys {} ({:?}..{:?}) strings {:?} transforms {}",
            a.name,
            a.dims,
            a.marker(),
            a.interpolation_time,
            a.keyframes.len(),
            a.keyframes.first().map(|k| k.time),
            a.keyframes.last().map(|k| k.time),
            a.keyframes
                .iter()
                .filter(|k| !k.command.0.is_empty())
                .map(|k| (k.time, k.command.to_text()))
                .take(3)
                .collect::<Vec<_>>(),
            checksum(&transforms)
        ));
    }
    for s in f.sockets.iter().flat_map(|s| &s.sockets) {
        out.push(format!(
            "socket {:?} node {} rotation {:?} position {:?}",
            s.name, s.node_index, s.rotation, s.position
        ));
    }
    if let Some(b) = &f.anim_bindings {
        let mut line = String::from("anim bindings groups");
        for g in &b.groups {
            let first = g
                .bindings
                .first()
                .map(|b| format!("{:?} {:?} {:?}", b.name, b.dims, b.translation))
                .unwrap_or_default();
            let _ = write!(line, " [{} first {first}]", g.bindings.len());
        }
        out.push(line);
    }
    for u in &f.unknown {
        out.push(format!("unknown section {:?} {:?}", String::from_utf8_lossy(&u.name), u.body));
    }
    out
}

fn v6_lines(f: &V6File) -> Vec<String> {
    let g = &f.geometry;
    let positions: Vec<[f32; 3]> = g.vertices.iter().map(|v| v.position).collect();
    let uvs: Vec<f32> = g.triangles.iter().flat_map(|t| t.uvs.into_iter().flatten()).collect();
    let mut out = vec![
        format!("command {:?}", f.header.command_string),
        format!("bounds {:?} {:?}", g.bounds_min, g.bounds_max),
        format!(
            "geometry: vertex_start_num {:?} triangles {} vertices {} normal_verts {} first vertex {:?} node {} replacements {:?}",
            g.vertex_start_num,
            g.triangles.len(),
            g.vertices.len(),
            g.normal_verts,
            g.vertices.first().map(|v| v.position),
            g.vertices.first().map_or(0, |v| v.transformation_index),
            g.vertices.last().map(|v| v.replacements)
        ),
        format!("checksums positions {} uvs {}", checksum(flat3(&positions)), checksum(&uvs)),
        format!("nodes {}", f.nodes.nodes.len()),
    ];
    for n in f.nodes.nodes.iter().take(5).chain(f.nodes.nodes.iter().skip(5).last()) {
        out.push(format!(
            "  {:?} index {} flags {} md {:?} children {} bounds {:?} {:?}",
            n.name, n.transformation_index, n.flags, n.md_vertices, n.num_children, n.bounds_min, n.bounds_max
        ));
    }
    for a in &f.animations.animations {
        let keys: Vec<f32> = a
            .node_anims
            .iter()
            .flat_map(|t| &t.keys)
            .flat_map(|k| k.translation.into_iter().chain(k.rotation))
            .collect();
        let frames: usize = a.node_anims.iter().map(|t| t.vertex_frames.len()).sum();
        out.push(format!(
            "animation {:?} length {} keys {} times {:?} strings {:?} bounds {:?} {:?} tracks {} vertex frames {frames}",
            a.name,
            a.length,
            a.keyframes.len(),
            a.keyframes.iter().map(|k| k.time).take(6).collect::<Vec<_>>(),
            a.keyframes.iter().filter(|k| !k.frame_string.0.is_empty()).map(|k| k.frame_string.to_text()).collect::<Vec<_>>(),
            a.bounds_min,
            a.bounds_max,
            checksum(&keys)
        ));
    }
    if let Some(d) = &f.anim_dims {
        out.push(format!("anim dims {:?}", d.dims));
    }
    if let Some(t) = &f.transform_info {
        out.push(format!("transform info flip {} fix {}", t.flip_mat, t.fix_anim_keyframes));
    }
    out
}

fn model_lines(m: &Model) -> Vec<String> {
    let mut out = vec![format!(
        "bones {} (first {:?}, last {:?} parent {:?}), materials {:?}, attachments {}",
        m.bones.len(),
        m.bones.first().map(|b| &b.name),
        m.bones.last().map(|b| &b.name),
        m.bones.last().and_then(|b| b.parent),
        m.materials.iter().map(|x| &x.name).collect::<Vec<_>>(),
        m.attachments.len()
    )];
    for mesh in &m.meshes {
        out.push(format!(
            "mesh {:?} lod {} at {:?} material {:?} vertices {} triangles {} influences ≤ {} morph targets {} first position {:?}",
            mesh.name,
            mesh.lod.level,
            mesh.lod.distance,
            mesh.material,
            mesh.positions.len(),
            mesh.triangles.len(),
            mesh.skin.max_influences(),
            mesh.morph_targets.len(),
            mesh.positions.first()
        ));
    }
    for a in &m.animations {
        out.push(format!(
            "animation {:?} duration {:?} blend {:?} channels {} morph channels {} events {} key boxes {}",
            a.name,
            a.duration,
            a.blend_in,
            a.channels.len(),
            a.morph_channels.len(),
            a.events.len(),
            a.key_bounds.len()
        ));
    }
    out
}

fn summary(bytes: &[u8]) -> Summary {
    let file = relic_abc::read(bytes).unwrap();
    let model = relic_abc::read_model(bytes).unwrap();
    let (sections, lines) = match &file {
        AbcFile::V12(f) => (f.order.iter().map(|s| s.name().unwrap_or("?").to_string()).collect(), v12_lines(f)),
        AbcFile::V6(f) => (f.order.iter().map(|s| s.name().unwrap_or("?").to_string()).collect(), v6_lines(f)),
    };
    Summary { version: file.version(), sections, file: lines, model: model_lines(&model) }
}

#[test]
fn fixture_summaries() {
    insta::glob!("../../../fixtures", "abc/*.abc", |path| {
        let bytes = std::fs::read(path).unwrap();
        insta::assert_yaml_snapshot!(summary(&bytes));
    });
}

#[test]
fn corpus_summaries() {
    let Some(files) = common::corpus() else { return };
    for (name, bytes) in files {
        insta::with_settings!({ snapshot_suffix => name.clone() }, {
            insta::assert_yaml_snapshot!(summary(&bytes));
        });
    }
}
