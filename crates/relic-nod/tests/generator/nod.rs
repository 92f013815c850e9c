//! Random valid NOD v7 files within the ranges of the spec (`../shared/specs/nod.md` §2): 0, 1 or
//! up to 64 bones (parents first, links derived or any in-range value, rigid inverse rest
//! matrices in layout H1, H2 or H3, `RestTranslate` in parent or model space), 0, 1 or several
//! materials, mesh names and groups, empty and junk-filled names, every ModelFlags bit, an
//! optional LOD table, group tails in layout A or B with plausible or 0xCD-junk flags, vertex
//! weights on both sides of the single-influence threshold, padding bytes.

use relic_testkit::Rng;
use relic_testkit::models::rotation;

use super::bytes::Le;

type M3 = [[f64; 3]; 3];

/// One generated NOD and a line saying what it holds.
pub(crate) struct NodCase {
    pub(crate) bytes: Vec<u8>,
    pub(crate) what: String,
    pub(crate) bones: usize,
}

struct Bone {
    parent: i16,
    origin: [f64; 3],
    rotation: M3,
}

struct Vertex {
    pos: [f32; 3],
    norm: [f32; 3],
    uv: [f32; 2],
    weight: f32,
    bone: u8,
    pad: [u8; 3],
}

struct Group {
    material: i32,
    reserved: [u8; 12],
    min_vertices: u16,
    tail: [u8; 6],
    vertices: Vec<Vertex>,
    faces: Vec<[u16; 3]>,
    lod: Vec<u16>,
}

/// 0, 1 or up to `max` (each about a third of the time; the maximum itself now and then).
pub(crate) fn count(rng: &mut Rng, max: usize) -> usize {
    match rng.below(6) {
        0 | 1 => 0,
        2 => 1,
        3 => max,
        _ => rng.between(2, max),
    }
}

/// A `char[32]` name: empty, short or 31 characters, NUL-padded or with junk after the NUL, now
/// and then 32 characters with no NUL at all; Windows-1252 letters beyond ASCII too.
pub(crate) fn name(rng: &mut Rng) -> [u8; 32] {
    const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_- .\xe9\xfc\xdf";
    let len = match rng.below(8) {
        0 => 0,
        1 => 31,
        2 => 32,
        _ => rng.between(1, 12),
    };
    let fill = match rng.below(4) {
        0 => 0xCD,
        1 => rng.next_u64() as u8,
        _ => 0,
    };
    let mut out = [fill; 32];
    for slot in out.iter_mut().take(len) {
        *slot = LETTERS[rng.below(LETTERS.len())];
    }
    if len < 32 {
        out[len] = 0;
    }
    out
}

fn rot(q: [f32; 4]) -> M3 {
    let [x, y, z, w] = q.map(f64::from);
    [
        [1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - w * z), 2.0 * (x * z + w * y)],
        [2.0 * (x * y + w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - w * x)],
        [2.0 * (x * z - w * y), 2.0 * (y * z + w * x), 1.0 - 2.0 * (x * x + y * y)],
    ]
}

fn transpose(a: &M3) -> M3 {
    std::array::from_fn(|i| std::array::from_fn(|j| a[j][i]))
}

fn apply(a: &M3, v: [f64; 3]) -> [f64; 3] {
    std::array::from_fn(|i| a[i][0] * v[0] + a[i][1] * v[1] + a[i][2] * v[2])
}

fn f32s<const N: usize>(v: [f64; N]) -> [f32; N] {
    v.map(|x| x as f32)
}

fn skeleton(rng: &mut Rng, n: usize) -> Vec<Bone> {
    let identity = rng.chance(0.1);
    (0..n)
        .map(|i| Bone {
            parent: if i == 0 { -1 } else { rng.below(i) as i16 },
            origin: if identity { [0.0; 3] } else { [0, 1, 2].map(|_| f64::from(rng.range(-20.0, 20.0))) },
            rotation: if identity { rot([0.0, 0.0, 0.0, 1.0]) } else { rot(rotation(rng)) },
        })
        .collect()
}

/// Bone records: `RestTranslate` in parent space (or model space), `RestMatrixInverse` (model →
/// bone: `Rᵀ`, `−Rᵀ·origin`) in `layout` 1, 2 or 3, links derived from the parents or any
/// in-range value.
fn write_bones(b: &mut Le, bones: &[Bone], layout: u8, model_space: bool, random_links: bool, rng: &mut Rng) {
    let n = bones.len() as i16;
    for (i, bone) in bones.iter().enumerate() {
        let rest_translate = match usize::try_from(bone.parent) {
            Ok(p) if !model_space => {
                let d: [f64; 3] = std::array::from_fn(|k| bone.origin[k] - bones[p].origin[k]);
                apply(&transpose(&bones[p].rotation), d)
            }
            _ => bone.origin,
        };
        b.f32s(&f32s(rest_translate));
        let r = transpose(&bone.rotation);
        let t = apply(&r, bone.origin).map(|x| -x);
        let floats: [f64; 12] = match layout {
            1 => [r[0][0], r[0][1], r[0][2], r[1][0], r[1][1], r[1][2], r[2][0], r[2][1], r[2][2], t[0], t[1], t[2]],
            2 => [r[0][0], r[1][0], r[2][0], r[0][1], r[1][1], r[2][1], r[0][2], r[1][2], r[2][2], t[0], t[1], t[2]],
            _ => [r[0][0], r[0][1], r[0][2], t[0], r[1][0], r[1][1], r[1][2], t[1], r[2][0], r[2][1], r[2][2], t[2]],
        };
        b.f32s(&f32s(floats));
        let (sibling, child) = if random_links {
            (rng.below(n as usize + 1) as i16 - 1, rng.below(n as usize + 1) as i16 - 1)
        } else {
            let child = bones.iter().position(|c| c.parent == i as i16).map_or(-1, |c| c as i16);
            let sibling = if bone.parent < 0 {
                -1
            } else {
                bones
                    .iter()
                    .enumerate()
                    .skip(i + 1)
                    .find(|(_, s)| s.parent == bone.parent)
                    .map_or(-1, |(s, _)| s as i16)
            };
            (sibling, child)
        };
        b.i16(sibling).i16(child).i16(bone.parent);
    }
}

fn weight(rng: &mut Rng) -> f32 {
    match rng.below(10) {
        0..=2 => 1.0,
        3 => 0.0,
        4 => 0.999_999_5,
        5 => 1.5,
        6 => -0.25,
        _ => rng.unit(),
    }
}

fn vertex(rng: &mut Rng, bones: usize) -> Vertex {
    let v3 = |rng: &mut Rng, r: f32| [rng.range(-r, r), rng.range(-r, r), rng.range(-r, r)];
    Vertex {
        pos: v3(rng, 30.0),
        norm: v3(rng, 1.0),
        uv: [rng.range(-1.0, 2.0), rng.range(-1.0, 2.0)],
        weight: weight(rng),
        bone: if bones == 0 { rng.next_u64() as u8 } else { rng.below(bones) as u8 },
        pad: if rng.chance(0.1) { [rng.next_u64() as u8, 0xCD, 0] } else { [0; 3] },
    }
}

/// Bytes 22–27 in `layout` (`b'A'`, `b'B'`, or neutral: the same numbers under both).
fn tail(rng: &mut Rng, layout: u8, mesh: u8, bone: u8) -> [u8; 6] {
    let flags: u16 = if rng.chance(0.6) { rng.below(16) as u16 } else { 0xCD00 | rng.below(256) as u16 };
    let [f0, f1] = flags.to_le_bytes();
    let junk = if rng.chance(0.5) { 0xCD } else { 0 };
    match layout {
        b'A' => [f0, f1, bone, mesh, junk, junk],
        b'B' => [junk, junk, f0, f1, bone, mesh],
        _ => [0, 0, 0, mesh, 0, mesh],
    }
}

fn group(rng: &mut Rng, materials: usize, meshes: usize, bones: usize, has_lod: bool, layout: u8) -> Group {
    let nv = if rng.chance(0.05) { 0 } else { rng.between(1, 24) };
    let nf = if nv == 0 { 0 } else { rng.below(31) };
    let vertices = (0..nv).map(|_| vertex(rng, bones)).collect();
    let faces = (0..nf).map(|_| [0; 3].map(|_: u16| rng.below(nv) as u16)).collect();
    let min_vertices = match (has_lod, rng.below(3)) {
        (true, _) => rng.below(nv + 1) as u16,
        (false, 0) => 0xCDCD,
        (false, 1) => rng.next_u64() as u16,
        (false, _) => nv as u16,
    };
    let lod = if has_lod {
        (0..nv)
            .map(|i| if i >= usize::from(min_vertices) && i > 0 { rng.below(i) } else { rng.below(nv) } as u16)
            .collect()
    } else {
        Vec::new()
    };
    let material = if materials == 0 || rng.chance(0.2) { -1 } else { rng.below(materials) as i32 };
    let reserved = match rng.below(3) {
        0 => [0xCD; 12],
        1 => std::array::from_fn(|_| rng.next_u64() as u8),
        _ => [0; 12],
    };
    let bone = if bones == 0 { rng.next_u64() as u8 } else { rng.below(bones) as u8 };
    let layout = if rng.chance(0.2) { b'N' } else { layout };
    let mesh = rng.below(meshes) as u8;
    let tail = tail(rng, layout, mesh, bone);
    Group { material, reserved, min_vertices, tail, vertices, faces, lod }
}

/// A random valid NOD v7, laid out field by field (spec §2).
pub(crate) fn nod(rng: &mut Rng) -> NodCase {
    let n_bones = count(rng, 64);
    let bones = skeleton(rng, n_bones);
    let materials: Vec<[u8; 32]> = (0..count(rng, 6)).map(|_| name(rng)).collect();
    let n_groups = count(rng, 6);
    let n_meshes = if n_groups > 0 { count(rng, 6).max(1) } else { count(rng, 3) };
    let meshes: Vec<[u8; 32]> = (0..n_meshes).map(|_| name(rng)).collect();
    let mut flags = 0u32;
    for (bit, p) in [(0x1, 0.3), (0x2, 0.2), (0x4, if n_bones == 0 { 0.6 } else { 0.1 }), (0x8, 0.05), (0x10, 0.05)] {
        if rng.chance(p) {
            flags |= bit;
        }
    }
    let has_lod = flags & 1 != 0;
    let tail_layout = if rng.chance(0.5) { b'A' } else { b'B' };
    let groups: Vec<Group> =
        (0..n_groups).map(|_| group(rng, materials.len(), n_meshes, n_bones, has_lod, tail_layout)).collect();
    let matrix_layout = rng.between(1, 3) as u8;
    let model_space = rng.chance(0.2);
    let random_links = rng.chance(0.2);

    let mut b = Le::default();
    b.u32(7).u32(materials.len() as u32);
    materials.iter().for_each(|m| {
        b.raw(m);
    });
    let n_vertices: usize = groups.iter().map(|g| g.vertices.len()).sum();
    let n_faces: usize = groups.iter().map(|g| g.faces.len()).sum();
    b.u16(n_bones as u16).u16(n_meshes as u16).u32(n_vertices as u32).u32(n_faces as u32);
    b.u16(n_groups as u16).u32(flags);
    let all: Vec<[f32; 3]> = groups.iter().flat_map(|g| g.vertices.iter().map(|v| v.pos)).collect();
    let bounds: [f32; 6] = if all.is_empty() || rng.chance(0.3) {
        std::array::from_fn(|_| rng.range(-50.0, 50.0))
    } else {
        std::array::from_fn(|i| {
            let c = all.iter().map(|p| p[i % 3]);
            if i < 3 { c.fold(f32::INFINITY, f32::min) } else { c.fold(f32::NEG_INFINITY, f32::max) }
        })
    };
    b.f32s(&bounds);
    write_bones(&mut b, &bones, matrix_layout, model_space, random_links, rng);
    meshes.iter().for_each(|m| {
        b.raw(m);
    });
    for v in groups.iter().flat_map(|g| &g.vertices) {
        b.f32s(&v.pos).f32s(&v.norm).f32s(&v.uv).f32(v.weight).u8(v.bone).raw(&v.pad);
    }
    if has_lod {
        groups.iter().flat_map(|g| &g.lod).for_each(|e| {
            b.u16(*e);
        });
    }
    for f in groups.iter().flat_map(|g| &g.faces) {
        b.u16(f[0]).u16(f[1]).u16(f[2]);
    }
    for g in &groups {
        b.i32(g.material).raw(&g.reserved);
        b.u16(g.faces.len() as u16).u16(g.vertices.len() as u16).u16(g.min_vertices).raw(&g.tail);
    }
    let lod = if has_lod { 2 * n_vertices } else { 0 };
    let size = 8
        + 32 * materials.len()
        + 42
        + 66 * n_bones
        + 32 * n_meshes
        + 40 * n_vertices
        + lod
        + 6 * n_faces
        + 28 * n_groups;
    assert_eq!(b.0.len(), size, "the generator breaks the size rule (§2.9)");
    let what = format!(
        "{n_bones} bones (H{matrix_layout}, RestTranslate in {} space{}), {} materials, {n_meshes} meshes, \
         {n_groups} groups ({} tails), {n_vertices} vertices, {n_faces} faces, flags {flags:#x}",
        if model_space { "model" } else { "parent" },
        if random_links { ", random links" } else { "" },
        materials.len(),
        tail_layout as char,
    );
    NodCase { bytes: b.0, what, bones: n_bones }
}
