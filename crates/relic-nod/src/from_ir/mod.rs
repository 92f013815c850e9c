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
//!
//! [`skeleton`] fits the bones, [`skin`] the influences, [`mesh`] the groups and vertices,
//! [`material`] the names, [`animation`] writes NADs.

pub(crate) mod animation;
pub(crate) mod material;
pub(crate) mod mesh;
pub(crate) mod skeleton;
pub(crate) mod skin;

use relic_core::binary::FixedString;
use relic_core::model::Model;
use relic_core::{Converted, Loss, WriteError};

use crate::decide::NodChoices;
use crate::extras::{NodExtras, bits6, fnv1a_u16, vertex_box};
use crate::file::NodFile;
use crate::options::{Choice, Decided, MODEL_HASLOD, NOD_VERSION, NodOptions, UvOrigin};
use material::write_materials;
use mesh::{GroupWriter, Written, fresh_mesh_names, groups_fit, plan_groups, uv_losses, write_groups};
use skeleton::{BoneMap, write_bones};
use skin::model_bindings;

/// The readings a writer uses: fixed options, else those the model was read with, else defaults.
fn resolve_choices(options: &NodOptions, extras: Option<&NodExtras>) -> NodChoices {
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

/// Builds a NOD from the model.
pub(crate) fn nod_from_model(model: &Model, options: &NodOptions) -> Result<Converted<NodFile>, WriteError> {
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
    let writer = GroupWriter { choices: &choices, parents: &parents, fits };
    let Written { groups, vertices, faces } =
        write_groups(&writer, model, &planned, &bindings, &mesh_index, &mut losses)?;
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

fn other_losses(model: &Model, losses: &mut Vec<Loss>) {
    if !model.animations.is_empty() {
        losses.push(Loss::clips_apart(model.animations.len(), "NOD", "NAD (write_animation)"));
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
