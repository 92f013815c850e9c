//! Bones as nodes (spec §4.4): one node per bone, object id = bone index, pivot = the bind
//! translation; attachment points and event objects the bones do not already are added after
//! them.

use std::collections::HashMap;

use relic_core::Loss;
use relic_core::math::{Mat4, decompose, quat_conjugate, quat_mul, quat_rotate, transform_point};
use relic_core::model::{Billboard, BoneFlags, Model, Transform};

use super::names::{Names, fixed};
use crate::file::{Attachment, Bone, EventObject, EventTrack, Helper, Node, Track, node_flags};
use crate::to_ir::WARCRAFT;

/// The record a node is written as.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Kind {
    /// BONE: a node meshes are skinned to.
    Bone,
    /// HELP: any other bone of the model.
    Helper,
    /// ATCH, with its attachment id and its place among the model's attachment points (the
    /// order of the ATCH records).
    Attachment(u32, usize),
    /// EVTS: an event object (its frames in [`PlannedNode::frames`]).
    Event,
    /// PREM, PRE2 or RIBB: the model's emitter of this index (`emitters`).
    Emitter(usize),
}

/// One node to write; its object id is its index.
pub(super) struct PlannedNode {
    /// The name.
    pub(super) name: String,
    /// The parent node.
    pub(super) parent: Option<usize>,
    /// The record.
    pub(super) kind: Kind,
    /// The pivot, Warcraft's frame.
    pub(super) pivot: [f32; 3],
    /// Inheritance and billboard bits (the type bit is added from `kind`).
    pub(super) flags: u32,
    /// KEVT frames of an event object.
    pub(super) frames: Vec<u32>,
}

/// A bone's bind pose (common frame): translation and rotation.
#[derive(Debug, Clone, Copy)]
pub(super) struct Bind {
    /// Translation.
    pub(super) t: [f32; 3],
    /// Rotation; exactly `[0, 0, 0, 1]` for a pure translation.
    pub(super) q: [f32; 4],
}

const NO_TURN: [f32; 4] = [0.0, 0.0, 0.0, 1.0];

/// BONE, HELP, ATCH and EVTS records, PIVT, and the emitters' nodes (`(emitter, node)`).
pub(super) type NodeRecords =
    (Vec<Bone>, Vec<Helper>, Vec<Attachment>, Vec<EventObject>, Vec<[f32; 3]>, Vec<(usize, Node)>);

/// The nodes to write and what maps the model's bones onto them.
pub(super) struct Skeleton {
    /// Every node: the model's bones first (node = bone), then added ones.
    pub(super) nodes: Vec<PlannedNode>,
    /// Each bone's bind pose.
    pub(super) binds: Vec<Bind>,
    /// The model's parents.
    parents: Vec<Option<usize>>,
    /// `(event name, bone)` → the node the event is written on.
    pub(super) events: HashMap<(String, Option<usize>), usize>,
    /// A static node for meshes without skin, once added.
    pub(super) static_root: Option<usize>,
}

fn bind_of(m: &Mat4) -> (Bind, bool) {
    let pure = (0..3).all(|c| (0..3).all(|r| m.get(c * 4 + r).copied() == Some(if r == c { 1.0 } else { 0.0 })));
    let (t, q, s) = decompose(m);
    let scaled = s.iter().any(|c| (c - 1.0).abs() > 1e-3);
    (Bind { t, q: if pure { NO_TURN } else { q } }, scaled)
}

fn flags(f: &BoneFlags) -> u32 {
    let mut x = 0;
    if !f.inherit_translation {
        x |= node_flags::DONT_INHERIT_TRANSLATION;
    }
    if !f.inherit_scale {
        x |= node_flags::DONT_INHERIT_0X2;
    }
    if !f.inherit_rotation {
        x |= node_flags::DONT_INHERIT_0X4;
    }
    let cylindrical = |ir_axis: usize| 0x10u32 << WARCRAFT.axis_from_ir(ir_axis).min(2);
    x | match f.billboard {
        Billboard::None => 0,
        Billboard::Spherical => node_flags::BILLBOARDED,
        Billboard::CylindricalX => cylindrical(0),
        Billboard::CylindricalY => cylindrical(1),
        Billboard::CylindricalZ => cylindrical(2),
    }
}

fn is_identity(t: &Transform) -> bool {
    *t == Transform::IDENTITY
}

impl Skeleton {
    /// Plans a node per bone, then the attachment points and event objects no bone already is.
    pub(super) fn plan(model: &Model, losses: &mut Vec<Loss>) -> Self {
        let mut scaled = 0usize;
        let mut rotation_only = 0usize;
        let mut binds = Vec::with_capacity(model.bones.len());
        let mut nodes = Vec::with_capacity(model.bones.len());
        for b in &model.bones {
            let (bind, s) = bind_of(&b.bind_matrix);
            scaled += usize::from(s);
            rotation_only += usize::from(b.flags.rotation_only);
            nodes.push(PlannedNode {
                name: b.name.clone(),
                parent: b.parent,
                kind: Kind::Helper,
                pivot: WARCRAFT.vector_from_ir(bind.t),
                flags: flags(&b.flags),
                frames: Vec::new(),
            });
            binds.push(bind);
        }
        if scaled > 0 {
            losses.push(Loss::new(
                "bones",
                format!("{scaled} bind poses with scale: a node has a pivot only; the scale is dropped"),
            ));
        }
        if rotation_only > 0 {
            losses.push(Loss::new(
                "bones",
                format!(
                    "{rotation_only} bones marked rotation-only: MDX has no such flag; written as plain nodes whose \
                     translation is the rest one (their translation channels are left out)"
                ),
            ));
        }
        let parents = model.bones.iter().map(|b| b.parent).collect();
        let mut sk = Skeleton { nodes, binds, parents, events: HashMap::new(), static_root: None };
        sk.plan_attachments(model, losses);
        sk.plan_emitters(model, losses);
        sk.plan_events(model, losses);
        sk
    }

    fn plan_attachments(&mut self, model: &Model, losses: &mut Vec<Loss>) {
        let (mut added, mut turned) = (0usize, 0usize);
        for (k, a) in model.attachments.iter().enumerate() {
            let id = a.id.unwrap_or(k as u32);
            let own = model.bones.get(a.bone).is_some_and(|b| b.name == a.name) && is_identity(&a.transform);
            match self.nodes.get_mut(a.bone) {
                Some(n) if own && n.kind == Kind::Helper => n.kind = Kind::Attachment(id, k),
                _ => {
                    turned +=
                        usize::from(self.add_under_bone(model, a.bone, &a.transform, &a.name, Kind::Attachment(id, k)));
                    added += 1;
                }
            }
        }
        if added > 0 {
            losses.push(Loss::new(
                "attachments",
                format!(
                    "{added} attachment points are not a bone of their own: each is written as an ATCH node under its \
                     bone at its position (the model read back has a bone more for each)"
                ),
            ));
        }
        if turned > 0 {
            losses.push(Loss::new(
                "attachments",
                format!("{turned} attachment points with a rotation or scale: an ATCH node has a position only"),
            ));
        }
    }

    /// Adds a node `name` of `kind` under `bone` at `t`'s place on it; whether `t` also turns or
    /// scales (which a node cannot: it has a position only).
    pub(super) fn add_under_bone(&mut self, model: &Model, bone: usize, t: &Transform, name: &str, kind: Kind) -> bool {
        let bind = model.bones.get(bone).map_or(relic_core::math::IDENTITY, |b| b.bind_matrix);
        let at = transform_point(&bind, t.translation);
        self.nodes.push(PlannedNode {
            name: name.to_string(),
            parent: model.bones.get(bone).map(|_| bone),
            kind,
            pivot: WARCRAFT.vector_from_ir(at),
            flags: 0,
            frames: Vec::new(),
        });
        t.rotation != NO_TURN || t.scale != [1.0; 3]
    }

    fn plan_events(&mut self, model: &Model, losses: &mut Vec<Loss>) {
        let (mut added, mut parameters, mut positioned) = (0usize, 0usize, 0usize);
        for e in model.animations.iter().flat_map(|a| &a.events) {
            parameters += usize::from(e.parameter.is_some());
            let key = (e.name.clone(), e.bone);
            if self.events.contains_key(&key) {
                continue;
            }
            let own = e.bone.filter(|&b| model.bones.get(b).is_some_and(|bone| bone.name == e.name));
            let node = match own.and_then(|b| self.nodes.get_mut(b).map(|n| (b, n))) {
                Some((b, n)) if n.kind == Kind::Helper && e.position.is_none() => {
                    n.kind = Kind::Event;
                    b
                }
                _ => {
                    let bind =
                        e.bone.and_then(|b| model.bones.get(b)).map_or(relic_core::math::IDENTITY, |b| b.bind_matrix);
                    positioned += usize::from(e.position.is_some());
                    let at = transform_point(&bind, e.position.unwrap_or([0.0; 3]));
                    added += 1;
                    self.nodes.push(PlannedNode {
                        name: e.name.clone(),
                        parent: e.bone.filter(|&b| b < model.bones.len()),
                        kind: Kind::Event,
                        pivot: WARCRAFT.vector_from_ir(at),
                        flags: 0,
                        frames: Vec::new(),
                    });
                    self.nodes.len() - 1
                }
            };
            self.events.insert(key, node);
        }
        if added > 0 {
            losses.push(Loss::new(
                "events",
                format!(
                    "{added} events are not on a node of their name: each name is written as an EVTS object under its \
                     bone ({positioned} at the event's position; Warcraft names event objects by type and id, \
                     SNDX…, FPT…: the model's names are kept as they are)"
                ),
            ));
        }
        if parameters > 0 {
            losses.push(Loss::new("events", format!("{parameters} event parameters dropped (KEVT holds frames only)")));
        }
    }

    /// The node meshes without a skin are bound to: a helper at the origin that nothing moves,
    /// added once.
    pub(super) fn static_root(&mut self) -> usize {
        if let Some(n) = self.static_root {
            return n;
        }
        self.nodes.push(PlannedNode {
            name: "relic static root".into(),
            parent: None,
            kind: Kind::Bone,
            pivot: [0.0; 3],
            flags: 0,
            frames: Vec::new(),
        });
        let n = self.nodes.len() - 1;
        self.static_root = Some(n);
        n
    }

    fn parent_bind(&self, bone: usize) -> Option<Bind> {
        self.parents.get(bone).copied().flatten().and_then(|p| self.binds.get(p)).copied()
    }

    /// The KGTR value (Warcraft's frame) of a translation the model holds for `bone` (relative
    /// to its parent): `R_parent · t − (pivot − parent pivot)`. `tangent`: a derivative, which the
    /// pivots do not shift.
    pub(super) fn translation(&self, bone: usize, t: [f32; 3], tangent: bool) -> [f32; 3] {
        let own = self.binds.get(bone).map_or([0.0; 3], |b| b.t);
        let parent = self.parent_bind(bone);
        let (pt, pq) = parent.map_or(([0.0; 3], NO_TURN), |p| (p.t, p.q));
        let local = if pq == NO_TURN { t } else { quat_rotate(pq, t) };
        let local = WARCRAFT.vector_from_ir(local);
        if tangent {
            return local;
        }
        let [a, b] = [WARCRAFT.vector_from_ir(own), WARCRAFT.vector_from_ir(pt)];
        let offset = [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
        [local[0] - offset[0], local[1] - offset[1], local[2] - offset[2]]
    }

    /// The KGRT value (Warcraft's frame) of a rotation the model holds for `bone`:
    /// `R_parent · r · R_bind⁻¹` (both turns are the identity for a model read from MDX).
    pub(super) fn rotation(&self, bone: usize, r: [f32; 4]) -> [f32; 4] {
        let own = self.binds.get(bone).map_or(NO_TURN, |b| b.q);
        let pq = self.parent_bind(bone).map_or(NO_TURN, |p| p.q);
        let mut q = r;
        if pq != NO_TURN {
            q = quat_mul(pq, q);
        }
        if own != NO_TURN {
            q = quat_mul(q, quat_conjugate(own));
        }
        WARCRAFT.quat_from_ir(q)
    }

    /// Whether the bone's rest pose differs from its bind pose in each of translation, rotation
    /// and scale (an MDX node without a track rests at its pivot, unturned, unscaled).
    pub(super) fn rest_differs(&self, bone: usize, rest: &Transform) -> [bool; 3] {
        let t = self.translation(bone, rest.translation, false);
        let size = self.binds.get(bone).map_or(0.0, |b| b.t.iter().fold(0f32, |m, c| m.max(c.abs())));
        let tol = 1e-4 * size.max(1.0);
        let q = self.rotation(bone, rest.rotation);
        [t.iter().any(|c| c.abs() > tol), q[3].abs() < 1.0 - 1e-6, rest.scale.iter().any(|c| (c - 1.0).abs() > 1e-5)]
    }

    /// The node records: BONE, HELP, ATCH and EVTS lists, and the pivots.
    pub(super) fn records(
        &self,
        mut tracks: Vec<Vec<Track>>,
        geoset_of: &[Option<u32>],
        names: &mut Names,
    ) -> NodeRecords {
        let (mut bones, mut helpers, mut attachments, mut events) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let mut emitters = Vec::new();
        tracks.resize_with(self.nodes.len(), Vec::new);
        for (id, (n, tracks)) in self.nodes.iter().zip(tracks).enumerate() {
            let type_bit = match n.kind {
                Kind::Bone => node_flags::BONE,
                Kind::Helper | Kind::Emitter(_) => 0,
                Kind::Attachment(..) => node_flags::ATTACHMENT,
                Kind::Event => node_flags::EVENT,
            };
            let node = Node {
                name: fixed(&n.name, names),
                object_id: id as i32,
                parent_id: n.parent.map_or(-1, |p| p as i32),
                flags: n.flags | type_bit,
                tracks,
            };
            match n.kind {
                Kind::Bone => bones.push(Bone {
                    node,
                    geoset_id: geoset_of.get(id).copied().flatten().map_or(-1, |g| g as i32),
                    geoset_animation_id: -1,
                }),
                Kind::Helper => helpers.push(Helper { node }),
                Kind::Attachment(attachment_id, k) => attachments
                    .push((k, Attachment { node, path: Default::default(), attachment_id, tracks: Vec::new() })),
                Kind::Event => events.push(EventObject {
                    node,
                    track: Some(EventTrack { global_sequence_id: -1, frames: n.frames.clone() }),
                }),
                Kind::Emitter(k) => emitters.push((k, node)),
            }
        }
        attachments.sort_by_key(|(k, _)| *k);
        let attachments = attachments.into_iter().map(|(_, a)| a).collect();
        let pivots = self.nodes.iter().map(|n| n.pivot).collect();
        (bones, helpers, attachments, events, pivots, emitters)
    }
}
