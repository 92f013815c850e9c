//! M2 → common model.
//!
//! * Frame: WoW is right-handed Z-up; everything passes through
//!   [`WARCRAFT`](crate::frame::WARCRAFT) once (`(x, y, z) → (y, z, x)`: Z up becomes Y up and the creature's
//!   forward, +X, becomes glTF's front, +Z; a rotation, so winding is unchanged).
//! * Bones (spec §6): the file stores pivots, no bind matrices. The bind matrix is
//!   `translate(pivot)`, the inverse bind `translate(−pivot)`, the rest transform the translation
//!   `pivot − parent pivot`; an animated translation key is `pivot − parent pivot + value`.
//! * Sequences → animations named `<AnimationData name>.<n>` (n counts the sequences of one id in
//!   file order: the stored variation field is 0 everywhere in the real 1.12 file). Key times are
//!   seconds from the sequence start; a range's keys may lie outside the sequence (kept, the
//!   sampler clamps). Tracks without ranges apply to every sequence with their absolute times;
//!   global-sequence tracks go into every animation on [`Clock::Global`] with their own times.
//! * Interpolation 0 → step, 1 → linear, 2 (Hermite) and 3 (Bezier) → glTF cubic spline. M2
//!   tangents are per segment (the parameter runs 0–1 over a segment, as in Warcraft III MDX);
//!   glTF's are per second, so a key's out-tangent is divided by the length of the segment after
//!   it and its in-tangent by the segment before it (the first in- and last out-tangent, which
//!   no segment uses, by the nearest segment). Bezier control points become Hermite tangents:
//!   `out = 3 (C_out − P)`, `in = 3 (P − C_in)`.
//! * Meshes: one per submesh of view 0, vertices through the view's index list, weights
//!   `w / Σw` (= w / 255), part id = geoset id. Materials from the submesh's texture units (base
//!   layer first); equal materials are shared.
//! * Shared keys are copied once per sequence they serve (the model has no shared tracks), so the
//!   channels and events are counted before they are built and a file whose model would exceed
//!   `budget::BUILD_PER_FILE_BYTE` × its data + `budget::BUILD_FIXED` is refused.
//! * Particle and ribbon emitters: one model emitter each, at its place on its bone, with its
//!   texture, base size and tracks, and its record whole (`emitters`).
//! * Everything else, and the file itself for exact writing back, goes into [`M2Extras`]
//!   ([`kept`]), which the verbs attach to the model (`carried::attach`).

mod animation;
mod budget;
mod emitters;
mod material;
mod mesh;
mod scene;
mod skeleton;
mod surface;

use relic_core::model::*;
use relic_core::{Model, ReadError};

use animation::build_animations;
pub(crate) use animation::{
    animation_names, bounds_to_ir, events_match, seconds, spans, track_is_silent, track_matches,
};
use budget::Budget;
use material::build_materials;
pub(crate) use material::materials_to_ir;
use mesh::build_meshes;
pub(crate) use skeleton::{attachments_to_ir, bone_order, bones_to_ir};

use crate::extras::{M2Extras, vertex_digest};
use crate::file::M2File;

/// Maps a Wrath-or-later model through its 256–263 form (`wrath::convert::to_classic`): the
/// model's source is the Wrath version, and its extras (returned beside it) hold both files. The
/// notes of reading the files beside it (a missing LOD skin or `.anim`, its `.skel`, its `.bone`
/// files) come back as losses under "files beside the model".
pub(crate) fn wrath_form_to_ir(
    mut wrath: crate::wrath::Wrath,
    flat: M2File,
    classic_losses: Vec<relic_core::Loss>,
) -> Result<(relic_core::Converted<Model>, M2Extras), ReadError> {
    let mut model = to_ir(&flat)?;
    emitters::attach_wrath(&mut model.emitters, &wrath.file);
    model.source = Some(SourceInfo { format: crate::FORMAT, version: wrath.file.version });
    let losses = wrath.notes.iter().map(|n| relic_core::Loss::new("files beside the model", n.clone())).collect();
    wrath.file.vertices = Default::default();
    let mut extras = kept(flat);
    extras.wrath = Some(Box::new(wrath));
    extras.classic_losses = classic_losses.into_iter().map(|l| (l.element, l.what)).collect();
    Ok((relic_core::Converted { value: model, losses }, extras))
}

/// Maps a file to the common model (see the module docs), without its extras ([`kept`]: the
/// verbs attach them).
pub(crate) fn to_ir(file: &M2File) -> Result<Model, ReadError> {
    let mut budget = Budget::new(file);
    budget.animations(file)?;
    budget.meshes(file)?;
    budget.materials(file)?;
    let (order, rank) = bone_order(file);
    let (materials, of_submesh) = build_materials(file)?;
    let (tints, uv_animations) = surface::surfaces_to_ir(file, &of_submesh);
    Ok(Model {
        name: file.name_text(),
        source: Some(SourceInfo { format: crate::FORMAT, version: file.version }),
        bones: bones_to_ir(file, &order, &rank),
        meshes: build_meshes(file, &rank, &of_submesh)?,
        materials,
        animations: build_animations(file, &order, &rank),
        global_sequences: file.global_sequences.iter().map(|&g| seconds(i64::from(g))).collect(),
        attachments: attachments_to_ir(file, &rank)?,
        emitters: emitters::emitters_to_ir(file, &rank),
        lights: scene::lights_to_ir(file, &rank),
        tints,
        uv_animations,
        ..Model::default()
    })
}

/// The extras of a file: the file less its vertices, and their digest.
pub(crate) fn kept(mut file: M2File) -> M2Extras {
    let vertex_digest = Some(vertex_digest(&file.vertices));
    let mut viewed = vec![false; file.vertices.len()];
    for &i in file.views.iter().flat_map(|v| v.indices.iter()) {
        if let Some(seen) = viewed.get_mut(usize::from(i)) {
            *seen = true;
        }
    }
    let unviewed_vertices = (0u32..)
        .zip(file.vertices.iter().zip(&viewed))
        .filter(|(_, (_, seen))| !**seen)
        .map(|(i, (v, _))| (i, *v))
        .collect();
    file.vertices = Default::default();
    M2Extras { file, vertex_digest, wrath: None, classic_losses: Vec::new(), unviewed_vertices, md21: None }
}
