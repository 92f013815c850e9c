//! Random valid v9–v13 files (abc.md §4): LODWeight (v ≥ 10), InterpolationTime (v ≥ 12, marker
//! −1), markers −1 or the key count, v13's header word, track prefixes and key extras; 0, 1 or
//! many pieces, LODs, nodes, weight sets, child models, sockets and animations with 0, 1 or many
//! keys; empty strings; LOD distance lists of LODCount − 1 values or not (io_scene_abc writes
//! none); unknown sections.

use std::collections::BTreeSet;

use super::{Bytes, Gen, matrix, sections};

/// One random v9–v13 file and a line saying what it holds.
pub(crate) fn file(g: &mut Gen) -> (Vec<u8>, String) {
    let version = g.between(9, 13) as u32;
    let pieces = [0, 1, 1, 2, 3][g.between(0, 4)];
    let nodes = if pieces == 0 && g.chance(0.2) { 0 } else { g.between(1, 5) };
    let lods = if pieces == 0 { g.between(0, 3) } else { g.between(1, 3) };
    let anims = g.between(0, 3);
    let children = if g.chance(0.05) { None } else { Some(g.between(0, 2)) };
    let child_model_count = children.map_or(0, |c| c + 1);
    // Which sections the file leaves out (abc.md §2: "handle both" for Pieces; the others are
    // kept optional by the reader): Pieces without pieces, Nodes without nodes, ChildModels (the
    // header's count then sizes AnimBindings), Sockets, AnimBindings.
    let without_pieces = pieces == 0 && g.chance(0.3);
    let with_nodes = nodes > 0 || g.chance(0.7);
    let with_children = g.chance(0.95);
    // The string rule (abc.md §4.1) counts what the file holds.
    let mut strings: BTreeSet<Vec<u8>> = BTreeSet::new();
    let mut keep = |s: Vec<u8>, counted: bool| {
        if counted && !s.is_empty() {
            strings.insert(s.clone());
        }
        s
    };
    let command = keep(g.name(), true);

    // Pieces.
    let (mut faces, mut vertices, mut weights) = (0u32, 0u32, 0u32);
    let mut body = Bytes::default();
    for _ in 0..pieces {
        body.u16(g.between(0, 3) as u16).f32s(&[g.f32(10.0), g.f32(2.0)]);
        if version >= 10 {
            body.f32s(&[g.f32(4.0)]);
        }
        body.u16(if g.chance(0.9) { 0 } else { g.u16() }).len_string(&g.name());
        for _ in 0..lods {
            let n = if g.chance(0.1) { 0 } else { g.between(1, 8) };
            let f = if n == 0 { 0 } else { g.between(0, 6) };
            body.u32(f as u32);
            for _ in 0..3 * f {
                body.f32s(&[g.f32(1.0), g.f32(1.0)]).u16(g.between(0, n - 1) as u16);
            }
            body.u32(n as u32);
            for _ in 0..n {
                let w = if nodes == 0 || g.chance(0.05) { 0 } else { g.between(1, 6) };
                body.u16(w as u16).u16(g.u16());
                for _ in 0..w {
                    body.u32(g.between(0, nodes - 1) as u32).f32s(&g.v3(5.0)).f32s(&[g.f32(1.2)]);
                }
                body.f32s(&g.v3(50.0)).f32s(&g.v3(1.0));
                weights += w as u32;
            }
            faces += f as u32;
            vertices += n as u32;
        }
    }
    let mut pieces_section = Bytes::default();
    pieces_section.u32(weights).u32(pieces as u32).raw(&body.0);

    // Nodes and weight sets.
    let mut b = Bytes::default();
    for (n, count) in g.tree(nodes).into_iter().enumerate() {
        b.len_string(&keep(g.name(), with_nodes));
        b.u16(if g.chance(0.9) { n as u16 } else { g.u16() }).u8([0, 1, 2, 3][g.between(0, 3)]);
        b.f32s(&matrix(g.quat(), g.v3(50.0))).u32(count);
    }
    let weight_sets = g.between(0, 3);
    b.u32(weight_sets as u32);
    for _ in 0..weight_sets {
        let count = if g.chance(0.9) { nodes } else { g.between(0, 4) };
        b.len_string(&g.name()).u32(count as u32);
        (0..count).for_each(|_| {
            b.f32s(&[g.f32(1.0)]);
        });
    }
    let nodes_section = b;

    // Child models.
    let relations = |g: &mut Gen, b: &mut Bytes| {
        for _ in 0..nodes {
            let (t, q) = if g.chance(0.8) { ([0.0; 3], [0.0, 0.0, 0.0, 1.0]) } else { (g.v3(5.0), g.quat()) };
            b.f32s(&t).f32s(&q);
        }
    };
    let mut b = Bytes::default();
    b.u32(child_model_count as u32);
    if child_model_count > 0 {
        b.u32(g.u32() % 100);
        relations(g, &mut b);
    }
    for _ in 0..children.unwrap_or(0) {
        b.len_string(&keep(g.name(), with_children)).u32(g.u32() % 1000);
        relations(g, &mut b);
    }
    let child_section = b;

    // Animations.
    let mut b = Bytes::default();
    let mut own: Vec<(Vec<u8>, [f32; 3])> = Vec::new();
    let mut keyframes = 0u32;
    let mut forms = Vec::new();
    b.u32(anims as u32);
    for _ in 0..anims {
        let keys = [0, 1, 1, 2, 3, 4][g.between(0, 5)];
        let (dims, name) = (g.v3(60.0), keep(g.name(), true));
        own.push((name.clone(), dims));
        b.f32s(&dims).len_string(&name);
        let in_marker = g.chance(0.3);
        forms.push(if in_marker { "count" } else { "-1" });
        if in_marker {
            b.i32(keys as i32);
        } else {
            b.i32(-1);
            if version >= 12 {
                b.u32(g.between(0, 1000) as u32);
            }
            b.u32(keys as u32);
        }
        for t in g.times(keys) {
            b.u32(t).len_string(&keep(g.name(), true));
        }
        for _ in 0..nodes {
            if version >= 13 {
                b.i32(if g.chance(0.9) { -1 } else { g.u32() as i32 });
            }
            for k in 0..keys {
                b.f32s(&g.v3(20.0)).f32s(&g.quat());
                if version >= 13 {
                    b.u32(if g.chance(0.8) { k as u32 } else { g.u32() }).u32(0);
                }
            }
        }
        keyframes += keys as u32;
    }
    let anim_section = b;

    // Sockets.
    let sockets = if nodes == 0 { 0 } else { g.between(0, 3) };
    let mut b = Bytes::default();
    b.u32(sockets as u32);
    for _ in 0..sockets {
        b.u32(g.between(0, nodes - 1) as u32).len_string(&g.name()).f32s(&g.quat()).f32s(&g.v3(5.0));
    }
    let socket_section = b;

    // AnimBindings: group 0 lists the own animations (a hand-edited file may not), then one
    // group per child model.
    let mut b = Bytes::default();
    for group in 0..child_model_count {
        let list: Vec<(Vec<u8>, [f32; 3])> = if group == 0 && g.chance(0.9) {
            own.clone()
        } else {
            (0..g.between(0, 3)).map(|_| (g.name(), g.v3(60.0))).collect()
        };
        b.u32(list.len() as u32);
        for (name, dims) in list {
            b.len_string(&name).f32s(&dims).f32s(&if g.chance(0.7) { [0.0; 3] } else { g.v3(50.0) });
        }
    }
    let bindings_section = b;

    // Header, with the counts the data gives.
    let distances = match g.between(0, 9) {
        0 => 0,
        1 => lods,
        _ => lods.saturating_sub(1),
    };
    let mut h = Bytes::default();
    h.u32(version).u32(keyframes).u32(anims as u32).u32(nodes as u32).u32(pieces as u32);
    h.u32(child_model_count as u32).u32(faces).u32(vertices).u32(weights).u32(lods as u32);
    h.u32(sockets as u32).u32(weight_sets as u32);
    if version >= 13 {
        h.u32(g.u32());
    }
    h.u32(strings.len() as u32).u32(strings.iter().map(|s| s.len() as u32).sum());
    h.len_string(&command).f32s(&[g.f32(100.0).abs()]).u32(distances as u32);
    let padding: Vec<u8> = (0..60).map(|_| if g.chance(0.95) { 0 } else { g.u16() as u8 }).collect();
    h.raw(&padding);
    (0..distances).for_each(|_| {
        h.f32s(&[g.f32(1000.0).abs()]);
    });

    let mut list = vec![];
    if !without_pieces {
        list.push((b"Pieces".to_vec(), pieces_section.0));
    }
    if with_nodes {
        list.push((b"Nodes".to_vec(), nodes_section.0));
    }
    if with_children {
        list.push((b"ChildModels".to_vec(), child_section.0));
    }
    list.push((b"Animation".to_vec(), anim_section.0));
    if sockets > 0 || g.chance(0.8) {
        list.push((b"Sockets".to_vec(), socket_section.0));
    }
    if g.chance(0.95) {
        list.push((b"AnimBindings".to_vec(), bindings_section.0));
    }
    if g.chance(0.1) {
        let at = g.between(0, list.len());
        list.insert(at, (b"HitGroups".to_vec(), (0..g.between(0, 9)).map(|i| i as u8).collect()));
    }
    if g.chance(0.05) {
        // Another order than the usual one (the reader dispatches on names).
        let (a, b) = (g.between(0, list.len() - 1), g.between(0, list.len() - 1));
        list.swap(a, b);
    }
    list.insert(0, (b"Header".to_vec(), h.0));
    let what = format!(
        "v{version}: {pieces} pieces{} × {lods} LODs ({distances} distances), {nodes} nodes, {weight_sets} weight sets, \
         {child_model_count} child models, {anims} animations (markers {forms:?}), {sockets} sockets",
        if without_pieces { " (no section)" } else { "" }
    );
    (sections(&list), what)
}
