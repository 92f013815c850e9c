//! Common model → NOD, enforcing the format's limits.
//!
//! | limit | what the writer does |
//! |---|---|
//! | at most 64 bones | bones that move no vertex and hold no attachment are dropped (reported); an error if still too many |
//! | one root, bone 0 | a model with several roots gets an added root at the origin (reported) |
//! | two influences, the second on the first's parent | re-weighted to the bone + parent pair that keeps the most weight (reported with the largest posed position error) |
//! | u16 group-local indices | meshes over 65535 vertices or faces are split into groups (reported) |
//! | one UV set, normals, one name per material | extra sets dropped, missing normals computed, names cut to 31 characters (reported) |
//! | no discrete LODs, morphs, attachments, animations | dropped (reported; animations go to NADs via [`crate::write_animation`]) |
//!
//! The NOD's own data in [`NodExtras`] is used while it still fits (see [`crate::extras`]).

use relic_core::binary::FixedString;
use relic_core::math::{IDENTITY, Mat4, max_abs_diff};
use relic_core::model::{BlendMode, Influence, Mesh, Model};
use relic_core::{Converted, Loss, WriteError};

use crate::decide::{NOD_FRAME, NodChoices};
use crate::extras::{NodExtras, NodSource, bits6, fnv1a_u16, vertex_box};
use crate::geometry::mat4_to_matrix34;
use crate::nod::{Name, NodBone, NodFile, NodGroup, NodVertex};
use crate::options::{
    Choice, Decided, GROUP_NOSKINNING, GROUP_NOWEIGHTS, GroupTail, MAX_BONES, MODEL_HASLOD, NOD_VERSION, NodOptions,
    RestTranslateSpace, UvOrigin, Winding,
};
use crate::pose::{sample_poses, skin_point};
use crate::skin::{Binding, legal_binding};

/// Most vertices (and faces) in one group: its counts and indices are u16.
pub const MAX_GROUP_ITEMS: usize = 65_535;

/// Which model bone each NOD bone is, and back.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BoneMap {
    /// NOD bone number of each model bone (`None`: dropped).
    pub to_nod: Vec<Option<u8>>,
    /// Model bone of each NOD bone (`None`: the root added for a model with several roots).
    pub from_nod: Vec<Option<usize>>,
}

impl BoneMap {
    /// Fits the model's skeleton to the NOD's: at most 64 bones, one root first.
    pub fn new(model: &Model, losses: &mut Vec<Loss>) -> Result<BoneMap, WriteError> {
        let n = model.bones.len();
        if n == 0 {
            return Ok(BoneMap::default());
        }
        let roots = |keep: &[bool]| model.bones.iter().zip(keep).filter(|(b, k)| **k && b.parent.is_none()).count();
        let mut keep = vec![true; n];
        let extra_root = |keep: &[bool]| usize::from(roots(keep) > 1);
        if n + extra_root(&keep) > MAX_BONES {
            keep = used_bones(model);
            let needed = keep.iter().filter(|k| **k).count() + extra_root(&keep);
            if needed > MAX_BONES {
                return Err(WriteError::Unsupported(format!(
                    "bones: the model has {n} bones and {needed} of them move vertices or hold attachments (with \
                     their ancestors); a NOD holds at most {MAX_BONES}"
                )));
            }
            let dropped: Vec<&str> =
                model.bones.iter().zip(&keep).filter(|(_, k)| !**k).map(|(b, _)| b.name.as_str()).collect();
            losses.push(Loss::new(
                "bones",
                format!(
                    "{} of {n} bones move no vertex and hold no attachment; dropped to fit the NOD's {MAX_BONES} ({}{})",
                    dropped.len(),
                    dropped.iter().take(8).copied().collect::<Vec<_>>().join(", "),
                    if dropped.len() > 8 { ", …" } else { "" }
                ),
            ));
        }
        let mut map = BoneMap { to_nod: vec![None; n], from_nod: Vec::new() };
        if roots(&keep) > 1 {
            map.from_nod.push(None);
            losses.push(Loss::new(
                "bones",
                format!("the model has {} root bones; a NOD has one: added a root bone at the origin", roots(&keep)),
            ));
        }
        for (i, k) in keep.iter().enumerate() {
            if *k {
                if let Some(slot) = map.to_nod.get_mut(i) {
                    *slot = u8::try_from(map.from_nod.len()).ok();
                }
                map.from_nod.push(Some(i));
            }
        }
        Ok(map)
    }

    /// True if a root bone was added.
    pub fn added_root(&self) -> bool {
        self.from_nod.first() == Some(&None)
    }

    /// NOD bone of model bone `b`.
    pub fn nod(&self, b: usize) -> Option<u8> {
        self.to_nod.get(b).copied().flatten()
    }
}

/// Bones that carry skin weight or attachments, with all their ancestors.
fn used_bones(model: &Model) -> Vec<bool> {
    let mut keep = vec![false; model.bones.len()];
    let mark = |keep: &mut Vec<bool>, b: usize| {
        if let Some(k) = keep.get_mut(b) {
            *k = true;
        }
    };
    for mesh in model.meshes.iter().filter(|m| m.lod.level == 0) {
        for inf in mesh.skin.influences.iter().filter(|i| i.weight > 0.0) {
            mark(&mut keep, inf.bone as usize);
        }
    }
    for a in &model.attachments {
        mark(&mut keep, a.bone);
    }
    // Parents come before children: one backwards pass marks every ancestor.
    for b in (0..model.bones.len()).rev() {
        if keep.get(b).copied().unwrap_or(false)
            && let Some(p) = model.bones.get(b).and_then(|x| x.parent)
        {
            mark(&mut keep, p);
        }
    }
    keep
}

/// The readings a writer uses: fixed options, else those the model was read with, else defaults.
pub fn resolve_choices(options: &NodOptions, extras: Option<&NodExtras>) -> NodChoices {
    let base = extras.map(|e| e.choices.clone()).unwrap_or_else(NodChoices::defaults);
    fn pick<T: Copy>(choice: Choice<T>, base: Decided<T>) -> Decided<T> {
        match choice {
            Choice::Fixed(v) => Decided::fixed(v, "set by the caller"),
            Choice::Auto => base,
        }
    }
    NodChoices {
        matrix_layout: pick(options.matrix_layout, base.matrix_layout),
        group_tail: pick(options.group_tail, base.group_tail),
        rest_translate: pick(options.rest_translate, base.rest_translate),
        winding: pick(options.winding, base.winding),
        uv_origin: if extras.is_some() && options.uv_origin == UvOrigin::default() {
            base.uv_origin
        } else {
            options.uv_origin
        },
    }
}

/// One group to be written.
#[derive(Debug, Clone)]
struct Planned {
    /// Model mesh.
    mesh: usize,
    /// Model vertex of each group vertex.
    vertices: Vec<u32>,
    /// Group-local triangles in file winding.
    faces: Vec<[u16; 3]>,
}

/// Builds a NOD from the model.
pub fn nod_from_model(model: &Model, options: &NodOptions) -> Result<Converted<NodFile>, WriteError> {
    model.validate()?;
    let (extras, mut losses) = NodExtras::of(model);
    let choices = resolve_choices(options, extras.as_deref());
    let source = extras.as_ref().and_then(|e| e.nod.as_ref());
    let map = BoneMap::new(model, &mut losses)?;
    let bones = write_bones(model, &map, &choices, source, &mut losses);
    let materials = write_materials(model, source, &mut losses);
    let parents: Vec<i16> = bones.iter().map(|b| b.parent).collect();
    let bindings = model_bindings(model, &map, &parents, &mut losses);
    let planned = plan_groups(model, &choices, &mut losses)?;

    let fits = source.filter(|s| groups_fit(s, &planned, model, &choices));
    if source.is_some() && fits.is_none() {
        losses.push(Loss::new(
            "groups",
            "the NOD data kept with the model no longer fits its meshes: group bytes, unused mesh names, the LOD \
             table and raw vertex bytes are rebuilt from the model",
        ));
    }
    let (mesh_names, mesh_index) = match fits {
        Some(s) => (s.mesh_names.iter().map(|raw| FixedString(*raw)).collect(), Vec::new()),
        None => fresh_mesh_names(model, &planned, &mut losses)?,
    };
    let mut groups = Vec::with_capacity(planned.len());
    let mut vertices = Vec::with_capacity(planned.iter().map(|p| p.vertices.len()).sum());
    let mut faces = Vec::with_capacity(planned.iter().map(|p| p.faces.len()).sum());
    let mut computed_normals: Vec<Option<Vec<[f32; 3]>>> = vec![None; model.meshes.len()];
    for (j, plan) in planned.iter().enumerate() {
        let Some(mesh) = model.meshes.get(plan.mesh) else { continue };
        let mesh_bindings = bindings.get(plan.mesh).map(Vec::as_slice).unwrap_or_default();
        let group_bindings: Vec<Binding> =
            plan.vertices.iter().map(|&v| mesh_bindings.get(v as usize).copied().unwrap_or(Binding::Unbound)).collect();
        let index = mesh_index.get(j).copied().unwrap_or(0);
        let (group, flags_bone) = write_group(j, plan, mesh, &group_bindings, fits, index, &choices, &mut losses)?;
        let overrides = fits.map(|s| &s.vertex_overrides);
        let first = vertices.len();
        let normals = mesh_normals(mesh, plan.mesh, &mut computed_normals, &mut losses);
        for (k, &v) in plan.vertices.iter().enumerate() {
            let v = v as usize;
            let pos = mesh.positions.get(v).copied().unwrap_or_default();
            let norm = normals.get(v).copied().unwrap_or_default();
            let uv = mesh.uv_sets.first().and_then(|set| set.get(v)).copied().unwrap_or_default();
            let uv = match choices.uv_origin {
                UvOrigin::TopLeft => uv,
                UvOrigin::BottomLeft => [uv[0], 1.0 - uv[1]],
            };
            let binding = group_bindings.get(k).copied().unwrap_or(Binding::Unbound);
            let (weight, bone_num) = binding.canonical();
            let mut vertex = NodVertex {
                pos: NOD_FRAME.vector_from_ir(pos),
                norm: NOD_FRAME.vector_from_ir(norm),
                uv,
                weight,
                bone_num,
                pad: [0; 3],
            };
            if let Some(o) = overrides.and_then(|o| find_override(o, first + k)) {
                let (flags, group_bone) = flags_bone;
                let raw = Binding::decode(f32::from_bits(o.weight), o.bone_num, flags, group_bone, &parents);
                if raw == binding {
                    vertex.weight = f32::from_bits(o.weight);
                    vertex.bone_num = o.bone_num;
                    vertex.pad = o.pad;
                }
            }
            vertices.push(vertex);
        }
        faces.extend_from_slice(&plan.faces);
        groups.push(group);
    }
    uv_losses(model, &mut losses);

    let lod = fits.filter(|s| s.lod.is_some()).and_then(|s| {
        // Only a kept LOD table needs the faces unchanged (the hash is a serial pass over them).
        let same_faces =
            s.groups.iter().zip(&planned).all(|(g, p)| g.faces_hash == fnv1a_u16(p.faces.iter().flatten().copied()));
        if !same_faces {
            losses.push(Loss::new("lod", "the faces changed: the LOD collapse table no longer applies and is dropped"));
        }
        s.lod.clone().filter(|_| same_faces)
    });
    if source.is_some_and(|s| s.lod.is_some()) && fits.is_none() {
        losses.push(Loss::new("lod", "the LOD collapse table no longer fits the meshes and is dropped"));
    }
    let computed_box = vertex_box(vertices.iter().map(|v| &v.pos));
    let bounds = match source {
        Some(s) if s.vertex_box == bits6(computed_box) => s.bounds.map(f32::from_bits),
        Some(s) => {
            if s.bounds != bits6(computed_box) {
                losses.push(Loss::new(
                    "bounds",
                    "the vertices moved: the stored box is replaced by the box of the vertices",
                ));
            }
            computed_box
        }
        None => computed_box,
    };
    let model_flags =
        source.map_or(0, |s| s.model_flags & !MODEL_HASLOD) | if lod.is_some() { MODEL_HASLOD } else { 0 };
    other_losses(model, &mut losses);
    let file = NodFile {
        version: NOD_VERSION,
        materials,
        model_flags,
        bounds,
        bones,
        mesh_names,
        vertices,
        lod,
        faces,
        groups,
    };
    Ok(Converted { value: file, losses })
}

fn find_override(overrides: &[crate::extras::VertexOverride], index: usize) -> Option<&crate::extras::VertexOverride> {
    let index = u32::try_from(index).ok()?;
    overrides.binary_search_by_key(&index, |o| o.index).ok().and_then(|i| overrides.get(i))
}

fn write_bones(
    model: &Model,
    map: &BoneMap,
    choices: &NodChoices,
    source: Option<&NodSource>,
    losses: &mut Vec<Loss>,
) -> Vec<NodBone> {
    let layout = choices.matrix_layout.value;
    let parents: Vec<i16> = map
        .from_nod
        .iter()
        .enumerate()
        .map(|(n, src)| match src.and_then(|i| model.bones.get(i)) {
            None if n == 0 => -1,
            None => 0,
            Some(bone) => match bone.parent.and_then(|p| map.nod(p)) {
                Some(p) => i16::from(p),
                None if map.added_root() => 0,
                None => -1,
            },
        })
        .collect();
    let source_bones = source
        .map(|s| &s.bones)
        .filter(|sb| sb.len() == parents.len() && sb.iter().zip(&parents).all(|(s, p)| s.parent == *p));
    // The kept sibling/child links are written as they were only if the reader would accept them:
    // extras edited through glTF may hold anything.
    let in_range = |v: i16| v == -1 || usize::try_from(v).is_ok_and(|v| v < parents.len());
    let source_bones = match source_bones {
        Some(sb) if !sb.iter().all(|s| in_range(s.sibling) && in_range(s.child)) => {
            losses.push(Loss::new("extras", "NOD bone links out of range; derived from the hierarchy instead"));
            None
        }
        other => other,
    };
    let mut out = Vec::with_capacity(parents.len());
    for (n, src) in map.from_nod.iter().enumerate() {
        let parent = parents.get(n).copied().unwrap_or(-1);
        let (rest_translate, inverse) = match src.and_then(|i| model.bones.get(i)) {
            None => ([0.0; 3], IDENTITY),
            Some(bone) => {
                let local_t = bone.rest.translation;
                let t = match choices.rest_translate.value {
                    RestTranslateSpace::Parent => local_t,
                    RestTranslateSpace::Model => match bone.parent.and_then(|p| model.bones.get(p)) {
                        Some(p) => relic_core::math::transform_point(&p.bind_matrix, local_t),
                        None => local_t,
                    },
                };
                (NOD_FRAME.vector_from_ir(t), NOD_FRAME.matrix_from_ir(&bone.inverse_bind_matrix))
            }
        };
        let rest_translate = match source_bones.and_then(|sb| sb.get(n)) {
            Some(s) => {
                let raw = s.rest_translate.map(f32::from_bits);
                let close = raw.iter().zip(&rest_translate).all(|(a, b)| (a - b).abs() <= 1e-5 * (1.0 + a.abs()));
                if close { raw } else { rest_translate }
            }
            None => rest_translate,
        };
        let (sibling, child) = match source_bones.and_then(|sb| sb.get(n)) {
            Some(s) => (s.sibling, s.child),
            None => derived_links(&parents, n),
        };
        out.push(NodBone {
            rest_translate,
            rest_matrix_inverse: mat4_to_matrix34(&inverse, layout),
            sibling,
            child,
            parent,
        });
    }
    rest_pose_loss(model, losses);
    out
}

/// Child = first bone whose parent is `n`; sibling = next bone with the same parent.
pub fn derived_links(parents: &[i16], n: usize) -> (i16, i16) {
    let me = i16::try_from(n).unwrap_or(-1);
    let parent = parents.get(n).copied().unwrap_or(-1);
    let child = parents.iter().position(|&p| p == me).and_then(|c| i16::try_from(c).ok()).unwrap_or(-1);
    let sibling = if parent < 0 {
        -1
    } else {
        parents
            .iter()
            .enumerate()
            .skip(n + 1)
            .find(|(_, p)| **p == parent)
            .and_then(|(s, _)| i16::try_from(s).ok())
            .unwrap_or(-1)
    };
    (sibling, child)
}

/// A NOD has no rest rotations of its own: its rest pose is its bind pose.
fn rest_pose_loss(model: &Model, losses: &mut Vec<Loss>) {
    let globals = model.rest_globals();
    let extent = model
        .bones
        .iter()
        .flat_map(|b| [b.bind_matrix[12], b.bind_matrix[13], b.bind_matrix[14]])
        .fold(0.0f32, |m, c| m.max(c.abs()));
    let worst = globals.iter().zip(&model.bones).map(|(g, b)| max_abs_diff(g, &b.bind_matrix)).fold(0.0f32, f32::max);
    if worst > 1e-3 * (1.0 + extent) {
        losses.push(Loss::new(
            "bones",
            format!(
                "the model's rest pose differs from its bind pose (largest matrix difference {worst:.3}); a NOD \
                 stores only the inverse bind matrices, so its rest pose is the bind pose"
            ),
        ));
    }
}

fn write_materials(model: &Model, source: Option<&NodSource>, losses: &mut Vec<Loss>) -> Vec<Name> {
    let mut out = Vec::with_capacity(model.materials.len());
    for (i, m) in model.materials.iter().enumerate() {
        let element = format!("materials[{i}] {:?}", m.name);
        let name = if !m.name.is_empty() {
            m.name.clone()
        } else if let Some(t) = m.textures.first() {
            file_stem(&t.path).to_string()
        } else {
            format!("material_{i}")
        };
        let raw = source.and_then(|s| s.materials.get(i)).map(|r| FixedString(*r)).filter(|r| r.to_text() == name);
        out.push(match raw {
            Some(raw) => raw,
            None => encode_name(&name, &element, losses),
        });
        if let Some(t) = m.textures.first()
            && t.path != name
            && file_stem(&t.path) != name
        {
            losses.push(Loss::new(
                &element,
                format!(
                    "texture {:?} is not kept: a NOD names the material only (the game loads {name}.nam or {name}.tga)",
                    t.path
                ),
            ));
        }
        let mut dropped = Vec::new();
        if m.textures.len() > 1 {
            dropped.push(format!("{} more textures", m.textures.len() - 1));
        }
        if m.blend != BlendMode::Opaque {
            dropped.push(format!("blend {:?}", m.blend));
        }
        for (set, what) in [(m.double_sided, "double-sided"), (m.unlit, "unlit"), (m.unfogged, "unfogged")] {
            if set {
                dropped.push(what.to_string());
            }
        }
        if m.specular.is_some() {
            dropped.push("specular".into());
        }
        if !dropped.is_empty() {
            losses.push(Loss::new(
                &element,
                format!("{} not kept (set them in the material's .nam file)", dropped.join(", ")),
            ));
        }
    }
    out
}

/// The part of a path after the last separator and before the last dot.
fn file_stem(path: &str) -> &str {
    let base = path.rsplit(['/', '\\']).next().unwrap_or(path);
    match base.rfind('.') {
        Some(dot) if dot > 0 => base.get(..dot).unwrap_or(base),
        _ => base,
    }
}

/// A `char[32]` holding `name` (Windows-1252, at most 31 bytes so a NUL follows).
fn encode_name(name: &str, element: &str, losses: &mut Vec<Loss>) -> Name {
    if let Some(n) = FixedString::from_text(name) {
        return n;
    }
    let mut bytes = Vec::new();
    for c in name.chars() {
        if bytes.len() == 31 {
            break;
        }
        bytes.push(relic_core::text::encode_cp1252_char(c).unwrap_or(b'?'));
    }
    let mut raw = [0u8; 32];
    for (d, s) in raw.iter_mut().zip(&bytes) {
        *d = *s;
    }
    let kept = FixedString::<32>(raw);
    losses.push(Loss::new(
        element,
        format!("name {name:?} stored as {:?} (31 Windows-1252 characters at most)", kept.to_text()),
    ));
    kept
}

/// Each model mesh's vertex bindings under the NOD rule, with re-weightings reported.
fn model_bindings(model: &Model, map: &BoneMap, parents: &[i16], losses: &mut Vec<Loss>) -> Vec<Vec<Binding>> {
    let parent_of = |b: u8| parents.get(usize::from(b)).and_then(|p| u8::try_from(*p).ok());
    let mut poses: Option<(Vec<Vec<Mat4>>, usize)> = None;
    let mut out = Vec::with_capacity(model.meshes.len());
    for (m, mesh) in model.meshes.iter().enumerate() {
        let n = mesh.positions.len();
        if parents.is_empty() {
            out.push(vec![Binding::Unbound; n]);
            continue;
        }
        if mesh.skin.is_empty() {
            if mesh.lod.level == 0 {
                losses.push(Loss::new(
                    format!("meshes[{m}] {:?}", mesh.name),
                    "has no skin: every vertex is bound to bone 0 (the root)",
                ));
            }
            out.push(vec![Binding::Rigid(0); n]);
            continue;
        }
        let mut bindings = Vec::with_capacity(n);
        let (mut refitted, mut moved, mut rest_error, mut posed_error) = (0usize, 0.0f32, 0.0f32, 0.0f32);
        let mut scratch: Vec<(u8, f32)> = Vec::with_capacity(4);
        for v in 0..n {
            let influences = mesh.skin.vertex(v);
            scratch.clear();
            scratch.extend(influences.iter().filter_map(|i| map.nod(i.bone as usize).map(|b| (b, i.weight))));
            let fitted = legal_binding(&scratch, parent_of);
            if fitted.moved > 1e-6 && mesh.lod.level == 0 {
                refitted += 1;
                moved = moved.max(fitted.moved);
                let (all, _) = poses.get_or_insert_with(|| (sample_poses(model, 8, 64), 0));
                let p = mesh.positions.get(v).copied().unwrap_or_default();
                let new: Vec<Influence> = fitted
                    .binding
                    .influences()
                    .into_iter()
                    .filter_map(|i| {
                        let model_bone = map.from_nod.get(i.bone as usize).copied().flatten()?;
                        Some(Influence { bone: model_bone as u32, weight: i.weight })
                    })
                    .collect();
                for (k, skin) in all.iter().enumerate() {
                    let before = skin_point(skin, influences, p);
                    // An added root never moves: its share stays at the rest position.
                    let kept: f32 = new.iter().map(|i| i.weight).sum();
                    let mut after = skin_point(skin, &new, p);
                    for (a, c) in after.iter_mut().zip(p) {
                        *a += (1.0 - kept) * c;
                    }
                    let e = max_abs_diff(&before, &after);
                    if k == 0 {
                        rest_error = rest_error.max(e);
                    } else {
                        posed_error = posed_error.max(e);
                    }
                }
            }
            bindings.push(fitted.binding);
        }
        if refitted > 0 {
            let poses_n = poses.as_ref().map_or(0, |(p, _)| p.len().saturating_sub(1));
            let posed = if poses_n == 0 {
                "no animation to pose it with".to_string()
            } else {
                format!("largest {posed_error:.4} over {poses_n} sampled animation poses")
            };
            losses.push(Loss::new(
                format!("meshes[{m}] {:?}", mesh.name),
                format!(
                    "{refitted} vertices have more than two influences or a second one that is not the first's parent: \
                     re-weighted to the bone + parent pair keeping the most weight (largest weight moved {moved:.3}; \
                     position error {rest_error:.2e} at the rest pose, {posed})"
                ),
            ));
        }
        out.push(bindings);
    }
    out
}

/// Splits meshes into groups whose vertex and face counts fit u16, in file winding.
fn plan_groups(model: &Model, choices: &NodChoices, losses: &mut Vec<Loss>) -> Result<Vec<Planned>, WriteError> {
    let mut out = Vec::new();
    for (m, mesh) in model.meshes.iter().enumerate() {
        let element = format!("meshes[{m}] {:?}", mesh.name);
        if mesh.lod.level > 0 {
            losses.push(Loss::new(
                &element,
                format!("level-of-detail {} mesh dropped: a NOD has progressive LOD only", mesh.lod.level),
            ));
            continue;
        }
        let wind = |[a, b, c]: [u32; 3]| match choices.winding.value {
            Winding::CounterClockwise => [a, b, c],
            Winding::Clockwise => [a, c, b],
        };
        let n = mesh.positions.len();
        if n <= MAX_GROUP_ITEMS && mesh.triangles.len() <= MAX_GROUP_ITEMS {
            let faces = mesh.triangles.iter().map(|t| wind(*t).map(|i| i as u16)).collect();
            out.push(Planned { mesh: m, vertices: (0..n as u32).collect(), faces });
            continue;
        }
        let chunks = split(n, mesh.triangles.iter().map(|t| wind(*t)));
        let written: usize = chunks.iter().map(|c| c.vertices.len()).sum();
        losses.push(Loss::new(
            &element,
            format!(
                "{n} vertices and {} triangles split into {} groups of at most {MAX_GROUP_ITEMS} ({} vertices duplicated)",
                mesh.triangles.len(),
                chunks.len(),
                written.saturating_sub(n)
            ),
        ));
        out.extend(chunks.into_iter().map(|c| Planned { mesh: m, ..c }));
    }
    if out.len() > usize::from(u16::MAX) {
        return Err(WriteError::DoesNotFit { field: "groups".into(), value: out.len() as u64, ty: "u16" });
    }
    Ok(out)
}

/// Greedy split: triangles in order, a new group when the next one would not fit; vertices no
/// triangle uses go last.
fn split(n: usize, triangles: impl Iterator<Item = [u32; 3]>) -> Vec<Planned> {
    let mut local = vec![u32::MAX; n]; // local index in the current chunk
    let mut stamp = vec![usize::MAX; n]; // chunk that set `local`
    let mut placed = vec![false; n];
    let mut chunks: Vec<Planned> = vec![Planned { mesh: 0, vertices: Vec::new(), faces: Vec::new() }];
    for tri in triangles {
        let Some(current) = chunks.len().checked_sub(1) else { break };
        let fresh = tri
            .iter()
            .enumerate()
            .filter(|(k, v)| {
                stamp.get(**v as usize) != Some(&current) && !tri.get(..*k).unwrap_or_default().contains(v)
            })
            .count();
        let full = chunks
            .last()
            .is_some_and(|c| c.vertices.len() + fresh > MAX_GROUP_ITEMS || c.faces.len() >= MAX_GROUP_ITEMS);
        if full {
            chunks.push(Planned { mesh: 0, vertices: Vec::new(), faces: Vec::new() });
        }
        let current = chunks.len() - 1;
        let Some(chunk) = chunks.last_mut() else { break };
        let mut face = [0u16; 3];
        for (corner, v) in face.iter_mut().zip(tri) {
            let vi = v as usize;
            if stamp.get(vi) != Some(&current) {
                if let (Some(s), Some(l)) = (stamp.get_mut(vi), local.get_mut(vi)) {
                    *s = current;
                    *l = chunk.vertices.len() as u32;
                }
                chunk.vertices.push(v);
                if let Some(p) = placed.get_mut(vi) {
                    *p = true;
                }
            }
            *corner = local.get(vi).copied().unwrap_or(0) as u16;
        }
        chunk.faces.push(face);
    }
    for v in (0..n).filter(|v| !placed.get(*v).copied().unwrap_or(true)) {
        if chunks.last().is_none_or(|c| c.vertices.len() >= MAX_GROUP_ITEMS) {
            chunks.push(Planned { mesh: 0, vertices: Vec::new(), faces: Vec::new() });
        }
        if let Some(c) = chunks.last_mut() {
            c.vertices.push(v as u32);
        }
    }
    chunks.retain(|c| !c.vertices.is_empty());
    chunks
}

/// True if the kept group data still describes the planned groups.
fn groups_fit(source: &NodSource, planned: &[Planned], model: &Model, choices: &NodChoices) -> bool {
    source.groups.len() == planned.len()
        && source.groups.iter().zip(planned).all(|(g, p)| {
            let mesh = model.meshes.get(p.mesh);
            let tail = choices.group_tail.value.decode(g.tail);
            let name = source.mesh_names.get(usize::from(tail.mesh)).map(|raw| FixedString(*raw).to_text());
            usize::from(g.num_vertices) == p.vertices.len()
                && usize::from(g.num_faces) == p.faces.len()
                && mesh.map(|m| m.positions.len()) == Some(p.vertices.len())
                && name.as_deref() == mesh.map(|m| m.name.as_str())
        })
}

/// Mesh names in order of first use, and each planned group's index into them.
fn fresh_mesh_names(
    model: &Model,
    planned: &[Planned],
    losses: &mut Vec<Loss>,
) -> Result<(Vec<Name>, Vec<u8>), WriteError> {
    let mut names: Vec<&str> = Vec::new();
    let mut index = Vec::with_capacity(planned.len());
    for p in planned {
        let name = model.meshes.get(p.mesh).map(|m| m.name.as_str()).unwrap_or_default();
        let i = match names.iter().position(|n| *n == name) {
            Some(i) => i,
            None => {
                names.push(name);
                names.len() - 1
            }
        };
        index.push(u8::try_from(i).map_err(|_| {
            WriteError::Unsupported(format!(
                "meshes: more than 256 distinct mesh names; a group refers to its mesh with one byte (group {})",
                index.len()
            ))
        })?);
    }
    let encoded = names.iter().enumerate().map(|(i, n)| encode_name(n, &format!("mesh names[{i}]"), losses)).collect();
    Ok((encoded, index))
}

/// The group record for `plan`, and the (flags, bone) its tail gives under the chosen layout.
#[allow(clippy::too_many_arguments)]
fn write_group(
    j: usize,
    plan: &Planned,
    mesh: &Mesh,
    bindings: &[Binding],
    fits: Option<&NodSource>,
    mesh_index: u8,
    choices: &NodChoices,
    losses: &mut Vec<Loss>,
) -> Result<(NodGroup, (u16, u8)), WriteError> {
    let material_id = match mesh.material {
        Some(m) => i32::try_from(m).map_err(|_| WriteError::DoesNotFit {
            field: format!("groups[{j}].material_id"),
            value: m as u64,
            ty: "i32",
        })?,
        None => -1,
    };
    let num_vertices = plan.vertices.len() as u16;
    let num_faces = plan.faces.len() as u16;
    let layout: GroupTail = choices.group_tail.value;
    if let Some(g) = fits.and_then(|s| s.groups.get(j)) {
        let t = layout.decode(g.tail);
        let flags = t.effective_flags();
        let rigid_on_group_bone = bindings.iter().all(|b| *b == Binding::Rigid(t.bone));
        let all_rigid = bindings.iter().all(|b| matches!(b, Binding::Rigid(_)));
        let tail_ok =
            (flags & GROUP_NOSKINNING == 0 || rigid_on_group_bone) && (flags & GROUP_NOWEIGHTS == 0 || all_rigid);
        let tail = if tail_ok {
            g.tail
        } else {
            losses.push(Loss::new(
                format!("groups[{j}]"),
                "the vertex bindings changed: the group's NOSKINNING/NOWEIGHTS flags are dropped",
            ));
            GroupTail::neutral(t.mesh)
        };
        let decoded = layout.decode(tail);
        let group =
            NodGroup { material_id, reserved: g.reserved, num_faces, num_vertices, min_vertices: g.min_vertices, tail };
        return Ok((group, (decoded.effective_flags(), decoded.bone)));
    }
    let tail = GroupTail::neutral(mesh_index);
    let decoded = layout.decode(tail);
    let group = NodGroup { material_id, reserved: [0; 12], num_faces, num_vertices, min_vertices: num_vertices, tail };
    Ok((group, (decoded.effective_flags(), decoded.bone)))
}

/// The mesh's normals, or area-weighted ones computed from its triangles (reported once).
fn mesh_normals<'a>(
    mesh: &'a Mesh,
    m: usize,
    computed: &'a mut [Option<Vec<[f32; 3]>>],
    losses: &mut Vec<Loss>,
) -> &'a [[f32; 3]] {
    if mesh.normals.len() == mesh.positions.len() {
        return &mesh.normals;
    }
    let Some(slot) = computed.get_mut(m) else { return &[] };
    if slot.is_none() {
        losses.push(Loss::new(format!("meshes[{m}] {:?}", mesh.name), "has no normals: computed from the triangles"));
        *slot = Some(face_normals(mesh));
    }
    slot.as_deref().unwrap_or_default()
}

fn face_normals(mesh: &Mesh) -> Vec<[f32; 3]> {
    relic_core::math::vertex_normals(&mesh.positions, &mesh.triangles)
}

fn uv_losses(model: &Model, losses: &mut Vec<Loss>) {
    for (m, mesh) in model.meshes.iter().enumerate().filter(|(_, m)| m.lod.level == 0) {
        let element = format!("meshes[{m}] {:?}", mesh.name);
        match mesh.uv_sets.len() {
            0 => losses.push(Loss::new(&element, "has no UVs: written as (0, 0)")),
            1 => {}
            n => losses.push(Loss::new(&element, format!("{} UV sets beyond the first dropped", n - 1))),
        }
    }
}

fn other_losses(model: &Model, losses: &mut Vec<Loss>) {
    if !model.animations.is_empty() {
        losses.push(Loss::new(
            "animations",
            format!("{} clips are not part of a NOD: write each as a NAD (write_animation)", model.animations.len()),
        ));
    }
    if !model.attachments.is_empty() {
        losses.push(Loss::new(
            "attachments",
            format!("{} attachment points dropped (a NOD has none)", model.attachments.len()),
        ));
    }
    for (m, mesh) in model.meshes.iter().enumerate() {
        let element = format!("meshes[{m}] {:?}", mesh.name);
        if !mesh.morph_targets.is_empty() {
            losses.push(Loss::new(&element, format!("{} morph targets dropped", mesh.morph_targets.len())));
        }
        if let Some(id) = mesh.part_id {
            losses.push(Loss::new(&element, format!("part id {id} dropped")));
        }
    }
}
