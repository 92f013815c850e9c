//! The node records as MDL blocks: `Kind "name" { ObjectId, Parent, flags, fields, tracks }`,
//! and cameras (not nodes, written among them as MDL orders them).

use super::super::names::*;
use super::{W, quoted};
use crate::file::*;

impl W {
    pub(super) fn id_or(&mut self, depth: usize, keyword: &str, id: i32, none: &str) {
        if id == -1 {
            self.line(depth, &format!("{keyword} {none},"));
        } else {
            self.line(depth, &format!("{keyword} {id},"));
        }
    }

    /// `Kind "name" { ObjectId, Parent, flags, body, node tracks }`.
    pub(super) fn node_block(&mut self, kind: &str, n: &Node, type_bit: u32, body: impl FnOnce(&mut Self)) {
        self.node_block_with(kind, n, type_bit, &[], body);
    }

    pub(super) fn node_block_with(
        &mut self,
        kind: &str,
        n: &Node,
        type_bit: u32,
        own: &[(u32, &str)],
        body: impl FnOnce(&mut Self),
    ) {
        let name = quoted(n.name.text_bytes());
        let at = format!("{kind} {name}");
        if n.name.0.get(n.name.text_bytes().len()..).is_some_and(|r| r.iter().any(|&b| b != 0)) {
            self.lose(at.clone(), "bytes after the NUL of the name: MDL keeps the text only");
        }
        if n.name.text_bytes().contains(&b'"') {
            self.lose(at.clone(), "a \" in the name: MDL has no escapes; written as '");
        }
        self.block(0, &format!("{kind} {name}"), |w| {
            w.line(1, &format!("ObjectId {},", n.object_id));
            if n.parent_id != -1 {
                w.line(1, &format!("Parent {},", n.parent_id));
            }
            let inherit: Vec<&str> = DONT_INHERIT.iter().filter(|(b, _)| n.flags & b != 0).map(|(_, s)| *s).collect();
            if !inherit.is_empty() {
                w.line(1, &format!("DontInherit {{ {} }},", inherit.join(", ")));
            }
            let used = w.flags(1, n.flags, NODE_FLAGS) | w.flags(1, n.flags, own) | 0x7 | type_bit;
            if n.flags & type_bit != type_bit {
                w.lose(format!("{at}.flags"), format!("the type bit {type_bit:#x} is clear: the reader sets it"));
            }
            if n.flags & !used != 0 {
                w.lose(format!("{at}.flags"), format!("bits {:#x} have no MDL keyword", n.flags & !used));
            }
            body(w);
            w.tracks(1, Owner::Node, &n.tracks, &at);
        });
    }

    pub(super) fn light(&mut self, l: &Light) {
        self.node_block("Light", &l.node, 0x200, |w| {
            let kind = LIGHT_TYPES.get(l.light_type as usize).copied().unwrap_or("Omnidirectional");
            if LIGHT_TYPES.get(l.light_type as usize).is_none() {
                w.lose("LITE.light_type", format!("type {} has no MDL keyword", l.light_type));
            }
            w.line(1, &format!("{kind},"));
            for (tag, value) in [(*b"KLAS", l.attenuation_start), (*b"KLAE", l.attenuation_end)] {
                let v = w.f(value);
                w.animated(1, Owner::Light, tag, &l.tracks, &v, &[value], "LITE");
            }
            let color = w.color(&l.color);
            w.animated(1, Owner::Light, *b"KLAC", &l.tracks, &color, &l.color, "LITE");
            let v = w.f(l.intensity);
            w.animated(1, Owner::Light, *b"KLAI", &l.tracks, &v, &[l.intensity], "LITE");
            let color = w.color(&l.ambient_color);
            w.animated(1, Owner::Light, *b"KLBC", &l.tracks, &color, &l.ambient_color, "LITE");
            let v = w.f(l.ambient_intensity);
            w.animated(1, Owner::Light, *b"KLBI", &l.tracks, &v, &[l.ambient_intensity], "LITE");
            let done = [*b"KLAS", *b"KLAE", *b"KLAC", *b"KLAI", *b"KLBC", *b"KLBI"];
            w.other_tracks(1, Owner::Light, &l.tracks, &done, "LITE");
        });
    }

    pub(super) fn emitter1(&mut self, e: &ParticleEmitter) {
        self.node_block_with("ParticleEmitter", &e.node, 0x1000, EMITTER1_FLAGS, |w| {
            for (tag, value) in
                [(*b"KPEE", e.emission_rate), (*b"KPEG", e.gravity), (*b"KPLN", e.longitude), (*b"KPLT", e.latitude)]
            {
                let v = w.f(value);
                w.animated(1, Owner::Emitter1, tag, &e.tracks, &v, &[value], "PREM");
            }
            w.other_tracks(
                1,
                Owner::Emitter1,
                &e.tracks,
                &[*b"KPEE", *b"KPEG", *b"KPLN", *b"KPLT", *b"KPEL", *b"KPES"],
                "PREM",
            );
            w.block(1, "Particle", |w| {
                for (tag, value) in [(*b"KPEL", e.life_span), (*b"KPES", e.init_velocity)] {
                    let v = w.f(value);
                    w.animated(2, Owner::Particle, tag, &e.tracks, &v, &[value], "PREM");
                }
                w.string(2, "Path", &e.path.0, "PREM.path");
            });
        });
    }

    pub(super) fn emitter2(&mut self, e: &ParticleEmitter2) {
        self.node_block_with("ParticleEmitter2", &e.node, 0x1000, EMITTER2_FLAGS, |w| {
            let own = [
                (*b"KP2S", e.speed),
                (*b"KP2R", e.variation),
                (*b"KP2L", e.latitude),
                (*b"KP2G", e.gravity),
                (*b"KP2E", e.emission_rate),
                (*b"KP2N", e.width),
                (*b"KP2W", e.length),
            ];
            for (tag, value) in own {
                let v = w.f(value);
                w.animated(1, Owner::Emitter2, tag, &e.tracks, &v, &[value], "PRE2");
            }
            w.other_tracks(1, Owner::Emitter2, &e.tracks, &own.map(|(t, _)| t), "PRE2");
            let mode = EMITTER2_FILTER_MODES.get(e.filter_mode as usize).copied().unwrap_or("Blend");
            w.line(1, &format!("{mode},"));
            let head = HEAD_OR_TAIL.get(e.head_or_tail as usize).copied().unwrap_or("Head");
            w.line(1, &format!("{head},"));
            if EMITTER2_FILTER_MODES.get(e.filter_mode as usize).is_none()
                || HEAD_OR_TAIL.get(e.head_or_tail as usize).is_none()
            {
                w.lose("PRE2", "a filter mode or head/tail value without an MDL keyword");
            }
            w.line(1, &format!("Squirt {},", e.squirt));
            let (life, tail, time) = (w.f(e.life_span), w.f(e.tail_length), w.f(e.time));
            w.line(1, &format!("LifeSpan {life},"));
            w.line(1, &format!("Rows {},", e.rows));
            w.line(1, &format!("Columns {},", e.columns));
            w.line(1, &format!("TailLength {tail},"));
            w.line(1, &format!("Time {time},"));
            w.block(1, "SegmentColor", |w| {
                for c in &e.segment_color {
                    let c = w.color(c);
                    w.line(2, &format!("Color {c},"));
                }
            });
            let [a, b, c] = e.segment_alpha;
            w.line(1, &format!("Alpha {{ {a}, {b}, {c} }},"));
            let s = w.vector(&e.segment_scaling);
            w.line(1, &format!("ParticleScaling {s},"));
            for (name, v) in [
                ("LifeSpanUVAnim", e.head_intervals[0]),
                ("DecayUVAnim", e.head_intervals[1]),
                ("TailUVAnim", e.tail_intervals[0]),
                ("TailDecayUVAnim", e.tail_intervals[1]),
            ] {
                w.line(1, &format!("{name} {{ {}, {}, {} }},", v[0], v[1], v[2]));
            }
            w.line(1, &format!("TextureID {},", e.texture_id));
            w.line(1, &format!("ReplaceableId {},", e.replaceable_id));
            w.line(1, &format!("PriorityPlane {},", e.priority_plane));
        });
    }

    pub(super) fn ribbon(&mut self, r: &RibbonEmitter) {
        self.node_block("RibbonEmitter", &r.node, 0x4000, |w| {
            for (tag, value) in [(*b"KRHA", r.height_above), (*b"KRHB", r.height_below), (*b"KRAL", r.alpha)] {
                let v = w.f(value);
                w.animated(1, Owner::Ribbon, tag, &r.tracks, &v, &[value], "RIBB");
            }
            let color = w.color(&r.color);
            w.animated(1, Owner::Ribbon, *b"KRCO", &r.tracks, &color, &r.color, "RIBB");
            let slot = r.texture_slot.to_string();
            w.animated(1, Owner::Ribbon, *b"KRTX", &r.tracks, &slot, &[r.texture_slot as f32], "RIBB");
            let done = [*b"KRHA", *b"KRHB", *b"KRAL", *b"KRCO", *b"KRTX"];
            w.other_tracks(1, Owner::Ribbon, &r.tracks, &done, "RIBB");
            let (life, gravity) = (w.f(r.life_span), w.f(r.gravity));
            w.line(1, &format!("EmissionRate {},", r.emission_rate));
            w.line(1, &format!("LifeSpan {life},"));
            w.line(1, &format!("Gravity {gravity},"));
            w.line(1, &format!("Rows {},", r.rows));
            w.line(1, &format!("Columns {},", r.columns));
            w.line(1, &format!("MaterialID {},", r.material_id));
        });
    }

    pub(super) fn camera(&mut self, c: &Camera) {
        let name = quoted(c.name.text_bytes());
        self.block(0, &format!("Camera {name}"), |w| {
            let p = w.vector(&c.position);
            w.line(1, &format!("Position {p},"));
            let target: Vec<Track> = c.tracks.iter().filter(|t| t.tag.0 == *b"KTTR").cloned().collect();
            w.other_tracks(1, Owner::Camera, &c.tracks, &[*b"KTTR"], "CAMS");
            let (fov, far, near) = (w.f(c.field_of_view), w.f(c.far_clip), w.f(c.near_clip));
            w.line(1, &format!("FieldOfView {fov},"));
            w.line(1, &format!("FarClip {far},"));
            w.line(1, &format!("NearClip {near},"));
            w.block(1, "Target", |w| {
                let p = w.vector(&c.target_position);
                w.line(2, &format!("Position {p},"));
                w.tracks(2, Owner::Target, &target, "CAMS.target");
            });
        });
    }

    pub(super) fn shape(&mut self, s: &CollisionShape) {
        self.node_block("CollisionShape", &s.node, 0x2000, |w| {
            let (kind, vertices, radius): (usize, Vec<[f32; 3]>, Option<f32>) = match s.shape {
                Shape::Box(v) => (0, v.to_vec(), None),
                Shape::Plane(v) => (1, v.to_vec(), None),
                Shape::Sphere(c, r) => (2, vec![c], Some(r)),
                Shape::Cylinder(v, r) => (3, v.to_vec(), Some(r)),
            };
            w.line(1, &format!("{},", SHAPES.get(kind).copied().unwrap_or("Box")));
            w.rows(1, "Vertices", vertices.iter().map(|v| w.vector(v)).collect());
            if let Some(r) = radius {
                let r = w.f(r);
                w.line(1, &format!("BoundsRadius {r},"));
            }
        });
    }
}
