//! Collision, attachments, events, lights, cameras, ribbons and particles of a generated file.

use relic_testkit::m2::{Block, Rec, floats, records};

use super::{Gen, float, short, slot, sorted_box, vec3, visibility};

/// Collision triangles, vertices and one normal per triangle (or none at all).
pub(super) fn collision(g: &mut Gen, h: &mut Rec) {
    if g.rng.chance(0.5) {
        h.arr(Block::default()).arr(Block::default()).arr(Block::default());
        return;
    }
    let vertices = g.rng.between(3, 6);
    let triangles = g.rng.between(1, 3);
    let indices: Vec<u16> = (0..triangles * 3).map(|_| g.rng.below(vertices) as u16).collect();
    let positions = g.vec(vertices * 3, 2.0);
    let normals = g.vec(triangles * 3, 1.0);
    h.arr(Block::u16s(&indices));
    h.arr(Block::of(vertices, positions));
    h.arr(Block::of(triangles, normals));
}

/// Attachments with their lookup, and events (both need a bone).
pub(super) fn points(g: &mut Gen, h: &mut Rec) {
    let attachments = if g.bones > 0 { g.rng.below(3) } else { 0 };
    let mut lookup: Vec<i16> = Vec::new();
    let mut recs = Vec::new();
    for a in 0..attachments {
        let id = g.rng.below(35) as u32;
        if lookup.len() <= id as usize {
            lookup.resize(id as usize + 1, -1);
        }
        lookup[id as usize] = a as i16;
        let mut r = Rec::new();
        let position = g.vec(3, 2.0);
        let unknown = if g.rng.chance(0.3) { g.rng.below(0x1_0000) as u16 } else { 0 };
        r.u32(id).u16(g.rng.below(g.bones) as u16).u16(unknown).raw(&position);
        let visibility = g.track(visibility);
        r.track(&visibility);
        recs.push(r);
    }
    h.arr(records(recs));
    h.arr(Block::i16s(&lookup));
    let events = if g.bones > 0 { g.rng.below(3) } else { 0 };
    let recs: Vec<Rec> = (0..events)
        .map(|_| {
            let mut r = Rec::new();
            let id = [b"$CSS", b"$DTH", b"$BTH", b"$FSD"][g.rng.below(4)];
            let position = g.vec(3, 2.0);
            r.raw(id).u32(g.rng.below(1000) as u32).u32(g.rng.below(g.bones) as u32).raw(&position);
            let times = g.event_track();
            r.event_track(&times);
            r
        })
        .collect();
    h.arr(records(recs));
}

/// Lights, cameras with their lookup, ribbons and particles.
pub(super) fn scene(g: &mut Gen, h: &mut Rec) {
    let lights: Vec<Rec> = (0..g.rng.below(2))
        .map(|_| {
            let mut r = Rec::new();
            let bone = if g.bones > 0 && g.rng.chance(0.7) { g.rng.below(g.bones) as i16 } else { -1 };
            let position = g.vec(3, 2.0);
            r.u16(g.rng.below(2) as u16).i16(bone).raw(&position);
            for value in [vec3, float, vec3, float, float, float, visibility] {
                let t = g.track(value);
                r.track(&t);
            }
            r
        })
        .collect();
    h.arr(records(lights));
    let cameras = g.rng.below(2);
    let recs: Vec<Rec> = (0..cameras)
        .map(|_| {
            let mut r = Rec::new();
            r.i32(if g.rng.chance(0.7) { 0 } else { -1 }).f32(g.rng.range(0.5, 1.5));
            r.f32(g.rng.range(10.0, 50.0)).f32(g.rng.range(0.1, 1.0));
            let positions = g.spline(vec3);
            let base = g.vec(3, 3.0);
            r.track(&positions).raw(&base);
            let target = g.spline(vec3);
            let target_base = g.vec(3, 3.0);
            r.track(&target).raw(&target_base);
            let roll = g.spline(float);
            r.track(&roll);
            r
        })
        .collect();
    h.arr(records(recs));
    h.arr(Block::i16s(&(0..cameras).map(|c| c as i16).collect::<Vec<_>>()));
    h.arr(if g.bones > 0 && g.rng.chance(0.4) { records(vec![ribbon(g)]) } else { Block::default() });
    h.arr(if g.bones > 0 && g.rng.chance(0.4) { records(vec![particle(g)]) } else { Block::default() });
}

fn ribbon(g: &mut Gen) -> Rec {
    g.what.push("a ribbon".into());
    let mut r = Rec::new();
    let position = g.vec(3, 2.0);
    r.i32(-1).u32(g.rng.below(g.bones) as u32).raw(&position);
    r.arr(Block::u16s(&[g.rng.below(g.textures) as u16]));
    r.arr(Block::u16s(&[g.rng.below(g.render_flags) as u16]));
    for value in [vec3, short, float, float] {
        let t = g.track(value);
        r.track(&t);
    }
    r.f32(g.rng.range(1.0, 60.0)).f32(g.rng.range(0.1, 2.0)).f32(g.rng.range(-1.0, 1.0));
    r.u16(g.rng.between(1, 4) as u16).u16(g.rng.between(1, 4) as u16);
    let (texture_slot, visible) = (g.track(slot), g.track(visibility));
    r.track(&texture_slot).track(&visible);
    r
}

fn particle(g: &mut Gen) -> Rec {
    g.what.push("a particle emitter".into());
    let mut r = Rec::new();
    let position = g.vec(3, 2.0);
    r.i32(-1).u32([0u32, 0x29, 0x1000][g.rng.below(3)]).raw(&position);
    r.u16(g.rng.below(g.bones) as u16).u16(g.rng.below(g.textures) as u16);
    r.arr(if g.rng.chance(0.8) { Block::text("") } else { Block::text("SPELLS\\GEN.MDX") });
    r.arr(Block::text(""));
    // Bytes 0x28–0x2B: u16 blend + u16 emitter (Classic), u8 + u8 + u16 colour index (TBC).
    let (blend, emitter) = (g.rng.below(8), g.rng.between(1, 3));
    if g.tbc() {
        r.u8(blend as u8).u8(emitter as u8).u16(g.rng.below(3) as u16);
    } else {
        r.u16(blend as u16).u16(emitter as u16);
    }
    r.u8(g.rng.below(3) as u8).u8(g.rng.below(3) as u8).i16(g.rng.below(3) as i16 - 1);
    r.u16(g.rng.between(1, 8) as u16).u16(g.rng.between(1, 8) as u16);
    for _ in 0..10 {
        let t = g.track(float);
        r.track(&t);
    }
    r.f32(g.rng.unit()).raw(&(0..12).map(|_| g.rng.below(256) as u8).collect::<Vec<_>>());
    let sizes = g.vec(3, 1.0);
    r.raw(&sizes);
    for _ in 0..10 {
        r.u16(g.rng.below(64) as u16);
    }
    let rest = g.vec(7, 10.0);
    r.raw(&rest).f32(g.rng.range(-3.0, 3.0));
    let tumble = g.vec(6, 1.0);
    r.raw(&sorted_box(&tumble));
    let wind = g.vec(8, 3.0);
    r.raw(&wind);
    r.arr(if g.rng.chance(0.3) { Block::of(2, floats(&[0.0, 0.0, 0.0, 1.0, 1.0, 1.0])) } else { Block::default() });
    let enabled = g.track(visibility);
    r.track(&enabled);
    r
}
