//! Bones, vertices, views and the material tables of a generated file.

use relic_testkit::m2::{Block, Rec, records};

use super::{Gen, rotation, short, vec3, vec4};

/// The bones (parents before children) and the key-bone lookup.
pub(super) fn bones(g: &mut Gen) -> (Block, Block) {
    let mut recs = Vec::new();
    let mut key_bones: Vec<i16> = Vec::new();
    // Parents come before their children in Blizzard's files; spec §6 says not to rely on it.
    let mut order: Vec<usize> = (0..g.bones).collect();
    if g.rng.chance(0.2) {
        for i in (1..g.bones).rev() {
            order.swap(i, g.rng.below(i + 1));
        }
    }
    let mut parents = vec![-1i16; g.bones];
    for k in 1..g.bones {
        if g.rng.chance(0.8) {
            parents[order[k]] = order[g.rng.below(k)] as i16;
        }
    }
    if order.iter().enumerate().any(|(k, &i)| k != i) {
        g.what.push(format!("bone parents {parents:?}"));
    }
    for (i, &parent) in parents.iter().enumerate() {
        let mut r = Rec::new();
        let key = if g.rng.chance(0.3) { g.rng.below(27) as i32 } else { -1 };
        let key = if key >= 0 && key_bones.get(key as usize).is_some_and(|&b| b >= 0) { -1 } else { key };
        if key >= 0 {
            if key_bones.len() <= key as usize {
                key_bones.resize(key as usize + 1, -1);
            }
            key_bones[key as usize] = i as i16;
        }
        let flags = [0u32, 0, 0x200, 0x1, 0x2, 0x4, 0x8, 0x10, 0x20, 0x40, 0x208][g.rng.below(11)];
        r.i32(key).u32(flags).i16(parent).u16(g.rng.below(3) as u16);
        if g.tbc() {
            r.u32(g.rng.next_u64() as u32);
        }
        let translation = g.track(vec3);
        let rotation = g.track(rotation);
        let scale = g.track(vec3);
        r.track(&translation).track(&rotation).track(&scale);
        let pivot = g.vec(3, 3.0);
        r.raw(&pivot);
        recs.push(r);
    }
    if g.rng.chance(0.3) {
        key_bones.push(-1); // a lookup longer than its last key bone
    }
    (records(recs), Block::i16s(&key_bones))
}

/// The blocks of the geometry and materials, in the header's order.
pub(super) struct Geometry {
    pub(super) vertices: Block,
    pub(super) views: Block,
    pub(super) colors: Block,
    pub(super) textures: Block,
    pub(super) transparency: Block,
    pub(super) texture_transforms: Block,
    pub(super) replaceable_lookup: Block,
    pub(super) render_flags: Block,
    pub(super) bone_lookup: Block,
    pub(super) texture_lookup: Block,
    pub(super) texture_unit_lookup: Block,
    pub(super) transparency_lookup: Block,
    pub(super) texture_transform_lookup: Block,
}

/// One vertex: weights summing to 255 in the leading slots (0 and index 0 in unused ones; all
/// zero without bones).
struct Vertex {
    weights: [u8; 4],
    bones: [u8; 4],
}

fn vertex(g: &mut Gen) -> Vertex {
    let mut weights = [0u8; 4];
    let mut bones = [0u8; 4];
    if g.bones > 0 {
        let n = g.rng.between(1, 4.min(g.bones));
        let mut left = 255u32;
        for j in 0..n {
            let w = if j + 1 == n {
                left
            } else {
                g.rng.between(1, (left as usize).saturating_sub(n - j - 1).max(1)) as u32
            };
            weights[j] = w as u8;
            left -= w;
            bones[j] = g.rng.below(g.bones) as u8;
        }
    }
    Vertex { weights, bones }
}

/// Vertices, 1–4 views over them (view 0 reaches every vertex), and the material tables the
/// views' texture units name.
pub(super) fn geometry(g: &mut Gen) -> Geometry {
    let n = g.rng.between(3, 12);
    let verts: Vec<Vertex> = (0..n).map(|_| vertex(g)).collect();
    let mut vbytes = Rec::new();
    for v in &verts {
        let position = g.vec(3, 2.0);
        let normal = relic_testkit::models::rotation(&mut g.rng);
        let length = (normal[0] * normal[0] + normal[1] * normal[1] + normal[2] * normal[2]).sqrt().max(1e-3);
        vbytes.raw(&position).raw(&v.weights).raw(&v.bones);
        vbytes.f32s(&[normal[0] / length, normal[1] / length, normal[2] / length]);
        vbytes.f32s(&[g.rng.unit(), g.rng.unit()]);
        let uv2 = if g.rng.chance(0.2) { [g.rng.unit(), g.rng.unit()] } else { [0.0; 2] };
        vbytes.f32s(&uv2);
    }
    let materials = materials(g);
    // View 0's vertex list: every vertex once, in file order or another order.
    let mut order: Vec<u16> = (0..n as u16).collect();
    if g.rng.chance(0.3) {
        for i in (1..n).rev() {
            order.swap(i, g.rng.below(i + 1));
        }
    }
    // Submeshes: runs of the list, each with at least 3 vertices.
    let pieces = g.rng.between(1, (n / 3).min(3));
    let mut cuts: Vec<usize> = (1..pieces).map(|k| k * n / pieces).collect();
    cuts.insert(0, 0);
    cuts.push(n);
    let mut lookup: Vec<u16> = Vec::new();
    let views_n = g.rng.between(1, 4);
    g.what.push(format!("{n} vertices, {views_n} views, {pieces} submeshes"));
    let mut views = Vec::new();
    for max in [256u32, 75, 53, 21].into_iter().take(views_n) {
        let mut triangles: Vec<u16> = Vec::new();
        let mut properties: Vec<u8> = Vec::new();
        let mut subs = Rec::new();
        let mut units = Rec::new();
        for (s, w) in cuts.windows(2).enumerate() {
            let (start, end) = (w[0], w[1]);
            // The palette: the bones of the submesh's vertices, first come first.
            let mut palette: Vec<u8> = Vec::new();
            for &k in &order[start..end] {
                let vx = &verts[k as usize];
                for j in 0..4 {
                    if vx.weights[j] > 0 && !palette.contains(&vx.bones[j]) {
                        palette.push(vx.bones[j]);
                    }
                }
            }
            let palette16: Vec<u16> = palette.iter().map(|&b| u16::from(b)).collect();
            let combo = lookup.windows(palette16.len().max(1)).position(|x| x == palette16.as_slice());
            let combo = match combo {
                Some(at) if !palette16.is_empty() => at,
                _ => {
                    lookup.extend(&palette16);
                    lookup.len() - palette16.len()
                }
            };
            for &k in &order[start..end] {
                let vx = &verts[k as usize];
                for j in 0..4 {
                    let slot = palette.iter().position(|&b| b == vx.bones[j]).filter(|_| vx.weights[j] > 0);
                    properties.push(slot.unwrap_or(0) as u8);
                }
            }
            let index_start = triangles.len();
            for _ in 0..g.rng.between(1, 4) {
                for _ in 0..3 {
                    triangles.push((start + g.rng.below(end - start)) as u16);
                }
            }
            let influences = order[start..end]
                .iter()
                .map(|&k| verts[k as usize].weights.iter().filter(|&&x| x > 0).count())
                .max()
                .unwrap_or(0);
            subs.u16([0u16, 1, 101, 501, 1301][s % 5]).u16(0).u16(start as u16).u16((end - start) as u16);
            subs.u16(index_start as u16).u16((triangles.len() - index_start) as u16);
            subs.u16(palette.len() as u16).u16(combo as u16).u16(influences as u16);
            subs.u16(g.rng.below(g.bones.max(1)) as u16);
            let center = g.vec(3, 2.0);
            subs.raw(&center);
            if g.tbc() {
                let sort = g.vec(3, 2.0);
                subs.raw(&sort).f32(g.rng.range(0.0, 3.0));
            }
            for layer in 0..g.rng.between(1, 2) {
                unit(g, &mut units, s, layer, &materials);
            }
        }
        let mut r = Rec::new();
        r.arr(Block::u16s(&order));
        r.arr(Block::u16s(&triangles));
        r.arr(Block::of(n, properties));
        r.arr(Block::of(pieces, subs.into_bytes()));
        let units_n = units.len() / 24;
        r.arr(Block::of(units_n, units.into_bytes()));
        r.u32(max);
        views.push(r);
    }
    Geometry {
        vertices: Block::of(n, vbytes.into_bytes()),
        views: records(views),
        colors: materials.colors,
        textures: materials.textures,
        transparency: materials.transparency,
        texture_transforms: materials.texture_transforms,
        replaceable_lookup: materials.replaceable_lookup,
        render_flags: materials.render_flags,
        bone_lookup: Block::u16s(&lookup),
        texture_lookup: Block::i16s(&materials.texture_lookup),
        texture_unit_lookup: Block::i16s(&materials.texture_unit_lookup),
        transparency_lookup: Block::i16s(&materials.transparency_lookup),
        texture_transform_lookup: Block::i16s(&materials.texture_transform_lookup),
    }
}

/// A texture unit of submesh `s` (24 bytes) naming entries of the material tables.
fn unit(g: &mut Gen, out: &mut Rec, s: usize, layer: usize, m: &Materials) {
    let color = if g.colors > 0 && g.rng.chance(0.5) { g.rng.below(g.colors) as i16 } else { -1 };
    let transform = if m.texture_transform_lookup.is_empty() {
        0xFFFF
    } else {
        g.rng.below(m.texture_transform_lookup.len()) as u16
    };
    out.u8(0x10).i8(g.rng.below(3) as i8).u16(0).u16(s as u16).u16(s as u16).i16(color);
    // Usually one texture; 0 counts as 1, and 2 takes two texture (and coordinate) combos.
    let textures = [1u16, 1, 1, 0, 2][g.rng.below(5)].min(m.texture_lookup.len() as u16);
    let texture = g.rng.below(m.texture_lookup.len() + 1 - usize::from(textures.max(1)));
    out.u16(g.rng.below(g.render_flags) as u16).u16(layer as u16).u16(textures);
    out.u16(texture as u16).u16(g.rng.below(m.texture_unit_lookup.len()) as u16);
    out.u16(g.rng.below(m.transparency_lookup.len()) as u16).u16(transform);
}

struct Materials {
    colors: Block,
    textures: Block,
    transparency: Block,
    texture_transforms: Block,
    replaceable_lookup: Block,
    render_flags: Block,
    texture_lookup: Vec<i16>,
    texture_unit_lookup: Vec<i16>,
    transparency_lookup: Vec<i16>,
    texture_transform_lookup: Vec<i16>,
}

/// Textures (named, and replaceable ones pointing to `"\0"`), render flags, colours, texture
/// weights, texture transforms and the lookups between them.
fn materials(g: &mut Gen) -> Materials {
    g.textures = g.rng.between(1, 3);
    let mut recs = Vec::new();
    let mut replaceable: Vec<i16> = Vec::new();
    for t in 0..g.textures {
        let kind = [0u32, 0, 1, 2, 6, 8, 11, 12, 13][g.rng.below(9)];
        let mut r = Rec::new();
        r.u32(kind).u32(g.rng.below(4) as u32);
        r.arr(if kind == 0 { Block::text(&format!("CREATURE\\GEN\\SKIN{t}.BLP")) } else { Block::text("") });
        if kind != 0 {
            if replaceable.len() <= kind as usize {
                replaceable.resize(kind as usize + 1, -1);
            }
            replaceable[kind as usize] = t as i16;
        }
        recs.push(r);
    }
    g.render_flags = g.rng.between(1, 3);
    let flags: Vec<u16> = (0..g.render_flags)
        .flat_map(|_| [[0u16, 0x1, 0x2, 0x4, 0x8, 0x10, 0x15, 0x18, 0x20][g.rng.below(9)], g.rng.below(7) as u16])
        .collect();
    g.colors = g.rng.below(2);
    let colors: Vec<Rec> = (0..g.colors)
        .map(|_| {
            let mut r = Rec::new();
            let (color, alpha) = (g.track(vec3), g.track(short));
            r.track(&color).track(&alpha);
            r
        })
        .collect();
    let weights = g.rng.between(1, 2);
    let transparency: Vec<Rec> = (0..weights)
        .map(|_| {
            let mut r = Rec::new();
            let weight = g.track(short);
            r.track(&weight);
            r
        })
        .collect();
    let transforms = g.rng.below(2);
    let texture_transforms: Vec<Rec> = (0..transforms)
        .map(|_| {
            let mut r = Rec::new();
            let (t, q, s) = (g.track(vec3), g.track(vec4), g.track(vec3));
            r.track(&t).track(&q).track(&s);
            r
        })
        .collect();
    let textures_n = g.textures;
    Materials {
        colors: records(colors),
        textures: records(recs),
        transparency: records(transparency),
        texture_transforms: records(texture_transforms),
        replaceable_lookup: Block::i16s(&replaceable),
        render_flags: Block::of(g.render_flags, flags.iter().flat_map(|x| x.to_le_bytes()).collect()),
        texture_lookup: (0..g.rng.between(1, 3)).map(|_| g.rng.below(textures_n) as i16).collect(),
        texture_unit_lookup: (0..g.rng.between(1, 2)).map(|_| [0i16, 1, -1][g.rng.below(3)]).collect(),
        transparency_lookup: (0..g.rng.between(1, 2)).map(|_| g.rng.below(weights) as i16).collect(),
        texture_transform_lookup: match transforms {
            0 if g.rng.chance(0.5) => Vec::new(),
            0 => vec![-1],
            _ => vec![if g.rng.chance(0.5) { 0 } else { -1 }],
        },
    }
}
