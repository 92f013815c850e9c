//! Common model → MDX version 800, 900 or 1000 (spec §2–§4, the inverse of `to_ir`).
//!
//! * A model read from an MDX keeps the file ([`crate::extras::MdxExtras`]): while the model is
//!   still the one the file maps to, the file is written back as it is (byte for byte, whatever
//!   its version). Otherwise the file is built from the model, taking only the sequences' move
//!   speed and rarity from the kept file (by name), and what the kept file held beyond the model
//!   (PopcornFX emitters, lights, cameras, …) is listed as lost.
//! * [`skeleton`]: a node per bone (object id = bone index, pivot = bind translation, flags from
//!   the bone's); a bone the meshes are skinned to is a BONE, one an attachment point of its
//!   name and place is an ATCH, one events of its name fire on is an EVTS, any other a HELP;
//!   other attachment points and events get nodes of their own under their bone.
//! * [`mesh`]: a geoset per mesh of level 0, skin weights reduced to matrix groups.
//! * [`material`]: a material per material, a layer per texture.
//! * [`animation`]: clips on one timeline, a track per node property, global sequences.
//! * [`emitters`]: PREM/PRE2/RIBB, each its record when it carries an MDX one, else a PRE2 or
//!   RIBB built from the model.
//! * [`scene`]: lights as LITE, cameras as CAMS, collision shapes as CLID.
//! * [`surface`]: tints as geoset animations and layer alpha, UV animations as texture
//!   animations.
//! * Not written (listed as losses): morph targets, fixed texture transforms.

mod animation;
mod emitters;
mod foreign;
mod material;
mod mesh;
mod names;
mod reforged;
mod scene;
mod skeleton;
mod surface;

use relic_core::model::Model;
use relic_core::{Converted, Loss, WriteError, WriteOptions};

use crate::file::{Chunk, MdxFile, ModelInfo};
use names::{Names, fixed};
use skeleton::{Kind, Skeleton};

/// The version written from the model when none is asked for.
const WRITTEN: u32 = 800;
/// The versions written from the model: 800 and Reforged's 900 and 1000 (whose records add
/// fields the model gives defaults for: `reforged`).
const WRITTEN_VERSIONS: [u32; 3] = [800, 900, 1000];

/// Builds an MDX from the model.
pub(crate) fn from_ir(model: &Model, options: &WriteOptions) -> Result<Converted<MdxFile>, WriteError> {
    model.validate()?;
    let mut losses = Vec::new();
    let original = match crate::extras::of(model) {
        Ok(file) => file,
        Err(why) => {
            losses.push(Loss::new(
                "extras",
                format!("MDX extras could not be read ({why}); written from the model alone"),
            ));
            None
        }
    };
    if let Some(file) = original.as_deref() {
        let version_ok = options.version.is_none_or(|v| v == file.version());
        let still = if version_ok { still(model, file) } else { Err("another version is asked for".into()) };
        match still {
            Ok(()) => return Ok(Converted { value: file.clone(), losses }),
            Err(why) => losses.push(Loss::new(
                "extras",
                format!(
                    "the model is no longer the one read from its MDX ({why}): the file is built from the model{}",
                    dropped(file)
                ),
            )),
        }
    }
    let version = options.version.unwrap_or(WRITTEN);
    if !WRITTEN_VERSIONS.contains(&version) {
        return Err(WriteError::Unsupported(format!(
            "MDX version {version}: relic writes versions 800, 900 and 1000 from the common model (and a file of \
             another version only back from the model read from it, unedited)"
        )));
    }
    let mut names = Names::default();
    let mut sk = Skeleton::plan(model, &mut losses);
    let placed = scene::plan(model, &mut sk, &mut losses);
    let tl = animation::timeline(model, original.as_deref(), &mut names, &mut losses)?;
    let count = model.materials.len();
    let extra_material = model.meshes.iter().any(|m| m.lod.level == 0 && m.material.is_none_or(|i| i >= count));
    if extra_material {
        losses.push(Loss::new("materials", "meshes without a material: drawn with an added plain material"));
    }
    let from_mdx = crate::from_warcraft(model);
    let (mut materials, mut textures) = material::materials(model, extra_material, from_mdx, &mut names, &mut losses);
    let material_of = |m: Option<usize>| m.filter(|&i| i < count).unwrap_or(count) as u32;
    let extents: Vec<_> = tl.sequences.iter().map(|s| s.extent).collect();
    let geo = mesh::geosets(model, &mut sk, &material_of, &extents, &mut losses)?;
    for (node, used) in sk.nodes.iter_mut().zip(&geo.used) {
        if *used && node.kind == Kind::Helper {
            node.kind = Kind::Bone;
        }
    }
    let (geoas, txan) = surface::surfaces(model, &tl, &geo.of_mesh, &mut materials, &mut losses)?;
    let tracks = animation::node_tracks(model, &mut sk, &tl, &mut losses);
    let (bones, mut helpers, attachments, events, pivots, emitter_nodes) =
        sk.records(tracks, &geo.geoset_of, &mut names);
    let mut tables =
        emitters::Tables { materials: &mut materials, textures: &mut textures, timeline: &tl, names: &mut names };
    let emitters = emitters::chunks(model, emitter_nodes, &mut tables, &mut losses);
    let scene = scene::records(model, &placed, &mut helpers, &tl, &mut names, &mut losses);
    other_losses(model, &mut losses);
    let (min, max) = animation::model_box(model);
    let info = ModelInfo {
        name: fixed(&model.name, &mut names),
        animation_file: Default::default(),
        extent: animation::extent(min, max),
        blend_time: tl.blend_time,
    };
    names.losses(&mut losses);
    let mut chunks = vec![Chunk::Version(WRITTEN), Chunk::Model(Box::new(info))];
    if !tl.sequences.is_empty() {
        chunks.push(Chunk::Sequences(tl.sequences));
    }
    if !tl.globals.is_empty() {
        chunks.push(Chunk::GlobalSequences(tl.globals));
    }
    chunks.push(Chunk::Materials(materials));
    chunks.push(Chunk::Textures(textures));
    if !txan.is_empty() {
        chunks.push(Chunk::TextureAnims(txan));
    }
    chunks.push(Chunk::Geosets(geo.geosets));
    if !geoas.is_empty() {
        chunks.push(Chunk::GeosetAnims(geoas));
    }
    if !bones.is_empty() {
        chunks.push(Chunk::Bones(bones));
    }
    if !helpers.is_empty() {
        chunks.push(Chunk::Helpers(helpers));
    }
    if !attachments.is_empty() {
        chunks.push(Chunk::Attachments(attachments));
    }
    chunks.push(Chunk::PivotPoints(pivots));
    chunks.extend(emitters);
    if !events.is_empty() {
        chunks.push(Chunk::Events(events));
    }
    scene.insert_into(&mut chunks);
    reforged::fields(&mut chunks, version);
    Ok(Converted { value: MdxFile { chunks }, losses })
}

/// `Ok` when `model` is the one `file` maps to, but for a tool's noise
/// ([`relic_core::still::judge`]); else the first difference, in words.
fn still(model: &Model, file: &MdxFile) -> Result<(), String> {
    let read = crate::to_ir::to_ir(file).map_err(|e| format!("the kept file does not map: {e}"))?.value;
    relic_core::still::judge(model, &read)
}

/// What the kept file holds that a file built from the model does not: `; dropped: …` or "".
fn dropped(file: &MdxFile) -> String {
    let mut parts = Vec::new();
    for c in &file.chunks {
        let n = match c {
            Chunk::PopcornEmitters(v) => v.len(),
            Chunk::FaceFx(v) => v.len(),
            Chunk::BindPose(b) => b.matrices.len(),
            Chunk::Unknown { .. } => 1,
            _ => 0,
        };
        if n > 0 {
            parts.push(format!("{n} {}", c.tag()));
        }
    }
    if parts.is_empty() { String::new() } else { format!("; dropped: {}", parts.join(", ")) }
}

fn other_losses(model: &Model, losses: &mut Vec<Loss>) {
    let morphs: usize = model.animations.iter().map(|a| a.morph_channels.len()).sum();
    if morphs > 0 {
        losses.push(Loss::new("animations", format!("{morphs} morph-weight channels dropped (MDX has no morphs)")));
    }
    let parts = model.meshes.iter().filter(|m| m.part_id.is_some()).count();
    if parts > 0 {
        losses.push(Loss::new("meshes", format!("{parts} mesh part ids dropped (MDX has none)")));
    }
    let named = model.materials.iter().enumerate().filter(|(i, m)| m.name != format!("material {i}")).count();
    if named > 0 {
        losses.push(Loss::new("materials", format!("{named} material names dropped (MDX materials have none)")));
    }
    let named = model.meshes.iter().enumerate().filter(|(i, m)| m.name != format!("geoset {i}")).count();
    if named > 0 {
        losses.push(Loss::new("meshes", format!("{named} mesh names dropped (geosets have none)")));
    }
}
