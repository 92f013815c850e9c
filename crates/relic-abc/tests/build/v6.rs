//! Random valid v6 files (abc.md §3): with and without `AnimDims`, `TransformInfo` (every
//! FlipMat/FixAnimKeyframes value), mesh-deformation vertices, LOD arrays, unknown sections.

use super::{Bytes, Gen, sections};

/// One random v6 file and a line saying what it holds.
pub(crate) fn file(g: &mut Gen) -> (Vec<u8>, String) {
    let nodes = g.between(1, 6);
    let children = g.tree(nodes);
    let vertices = if g.chance(0.1) { 0 } else { g.between(1, 14) };
    let node_of: Vec<u8> = (0..vertices).map(|_| g.between(0, nodes - 1) as u8).collect();
    // Mesh-deformation vertices: some of each node's own vertices, on some nodes.
    let md: Vec<Vec<u16>> = (0..nodes)
        .map(|n| {
            let own: Vec<u16> = (0..vertices).filter(|&v| usize::from(node_of[v]) == n).map(|v| v as u16).collect();
            if own.is_empty() || !g.chance(0.25) {
                Vec::new()
            } else {
                own.into_iter().filter(|_| g.chance(0.6)).collect()
            }
        })
        .collect();
    let anims = g.between(1, 3);
    let keys: Vec<usize> = (0..anims).map(|_| g.between(1, 4)).collect();
    let anim_dims = g.chance(0.6);
    let transform_info = g.chance(0.3).then(|| [g.between(0, 2) as i32, g.between(0, 2) as i32]);
    let lods = if g.chance(0.2) { g.between(1, 2) } else { 0 };
    let what = format!(
        "v6: {nodes} nodes, {vertices} vertices, MD {:?}, {anims} animations of {keys:?} keys, AnimDims {anim_dims}, \
         TransformInfo {transform_info:?}, {lods} LODs",
        md.iter().map(Vec::len).collect::<Vec<_>>()
    );

    let mut list: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
    let mut header = Bytes::default();
    header.len_string(b"MonolithExport Model File v6").len_string(&g.name());
    list.push((b"Header".to_vec(), header.0));

    let mut b = Bytes::default();
    b.f32s(&g.v3(10.0)).f32s(&g.v3(10.0));
    b.u32(lods as u32);
    for _ in 0..=lods {
        b.u16(if lods == 0 { 0 } else { g.between(0, vertices) as u16 });
    }
    let triangles = if vertices == 0 { 0 } else { g.between(0, 10) };
    b.u32(triangles as u32);
    for _ in 0..triangles {
        for _ in 0..3 {
            b.f32s(&[g.f32(1.0), g.f32(1.0)]);
        }
        for _ in 0..3 {
            b.u16(g.between(0, vertices - 1) as u16);
        }
        packed_normal(g, &mut b);
    }
    b.u32(vertices as u32).u32(if lods > 0 { g.between(0, vertices) as u32 } else { vertices as u32 });
    for &node in &node_of {
        b.f32s(&g.v3(5.0));
        packed_normal(g, &mut b);
        b.u8(node).u16(g.u16()).u16(g.u16());
    }
    list.push((b"Geometry".to_vec(), b.0));

    let mut b = Bytes::default();
    for (n, (&count, md)) in children.iter().zip(&md).enumerate() {
        b.f32s(&g.v3(3.0)).f32s(&g.v3(3.0)).len_string(&g.name());
        let index = if g.chance(0.9) { n as u16 } else { g.u16() };
        let flags = match g.between(0, 4) {
            0 => 1,
            1 | 2 => 2 | if md.is_empty() { 0 } else { 4 },
            3 => [4, 8, 16, 32, 64, 6, 10][g.between(0, 6)],
            _ => g.u16() as u8,
        };
        b.u16(index).u8(flags).u32(md.len() as u32);
        md.iter().for_each(|&v| {
            b.u16(v);
        });
        b.u32(count);
    }
    list.push((b"Nodes".to_vec(), b.0));

    let mut b = Bytes::default();
    b.u32(anims as u32);
    for &k in &keys {
        let times = g.times(k);
        b.len_string(&g.name()).u32(if g.chance(0.7) { *times.last().unwrap() } else { g.between(0, 5000) as u32 });
        b.f32s(&g.v3(10.0)).f32s(&g.v3(10.0)).u32(k as u32);
        for &t in &times {
            // Key boxes as exporters store them: any values, sometimes all zero.
            let (lo, hi) = if g.chance(0.15) { ([0.0; 3], [0.0; 3]) } else { (g.v3(10.0), g.v3(10.0)) };
            b.u32(t).f32s(&lo).f32s(&hi).len_string(&g.name());
        }
        for md in &md {
            for _ in 0..k {
                b.f32s(&g.v3(3.0)).f32s(&g.quat());
            }
            for _ in 0..k * md.len() {
                b.raw(&[g.u16() as u8, g.u16() as u8, g.u16() as u8]);
            }
            let (scale, translation) =
                if md.is_empty() && g.chance(0.8) { ([1.0; 3], [0.0; 3]) } else { (g.v3(0.05), g.v3(2.0)) };
            b.f32s(&scale).f32s(&translation);
        }
    }
    list.push((b"Animation".to_vec(), b.0));
    if anim_dims {
        let mut b = Bytes::default();
        (0..anims).for_each(|_| {
            b.f32s(&g.v3(20.0));
        });
        list.push((b"AnimDims".to_vec(), b.0));
    }
    if let Some([flip, fix]) = transform_info {
        let mut b = Bytes::default();
        b.i32(flip).i32(fix);
        list.push((b"TransformInfo".to_vec(), b.0));
    }
    if g.chance(0.1) {
        let at = g.between(1, list.len());
        list.insert(at, (b"TriStrips".to_vec(), (0..g.between(0, 9)).map(|i| i as u8).collect()));
    }
    (sections(&list), what)
}

/// Three signed bytes, a normal scaled to ~127 (sometimes all zero, as in SHOTGUN_PV).
fn packed_normal(g: &mut Gen, b: &mut Bytes) {
    let n = if g.chance(0.1) { [0i8; 3] } else { g.v3(1.0).map(|c| (c * 127.0) as i8) };
    b.raw(&n.map(|c| c as u8));
}
