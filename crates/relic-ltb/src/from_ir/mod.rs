//! Common model → LTB.
//!
//! A model read from an LTB ([`LtbExtras`]) whose every part still has the digest `to_ir` gave it
//! is the stored file, written back as it was (its LZMA wrapper's original bytes too). Otherwise
//! the file is built from the model, taking from the stored file every part that still fits:
//!
//! | part | from the stored file while | else |
//! |---|---|---|
//! | node matrices | the node has the stored name and its bind is within float noise of the stored matrix | the model's bind |
//! | node flags, weight sets, OBBs | the node count and names are the stored ones | flags from the bones, none (reported) |
//! | a LOD's render object, texture slots, render style, used nodes | the mesh is the one `to_ir` made (digest), or its triangles name vertices within float noise of the stored ones, one for one | built from the mesh ([`render`]) |
//! | an animation's tracks | unchanged (digest) or every value within float noise of the stored one | sampled at the stored key times (or the model's), encoded in the stored compression mode |
//! | command string, radius, child models, binding groups, container header | extras present | empty, computed, none |
//!
//! A model without LTB extras (from glTF, ABC, M2) writes a valid LTB: nodes depth first under
//! one root, rigid meshes for one-bone meshes, render-direct skeletal meshes with bone sets
//! built by the packer's rules (§6.5), animations keyed at the channels' key times in the
//! lossless "relevant" mode (one value for a constant channel);
//! what LTB cannot hold is reported as `Loss`.

mod animation;
mod nodes;
mod pieces;
mod render;
mod tracks;

use relic_core::model::Model;
use relic_core::{Converted, Loss, WriteError, WriteOptions};
use relic_lithtech::frame::LITHTECH;
use relic_lithtech::lzma::{self, Wrapper};
use relic_lithtech::tree::DepthFirst;

use crate::extras::{Digests, LtbExtras};
use crate::file::{ContainerHeader, Header, LtbFile, Socket, VERSIONS};

/// What every builder needs: the model, the stored file (if any), the node order.
pub(crate) struct Ctx<'a> {
    pub model: &'a Model,
    pub stored: Option<&'a LtbFile>,
    pub digests: Option<&'a Digests>,
    pub order: DepthFirst,
    /// The nodes are the stored nodes (count and names): stored per-node data applies.
    pub same_nodes: bool,
    pub version: u32,
}

/// Maps a model to an LTB of the version `options` asks for (default: the version the model came
/// from, else 25).
pub(crate) fn from_ir(model: &Model, options: &WriteOptions) -> Result<Converted<LtbFile>, WriteError> {
    model.validate()?;
    let version = target_version(model, options)?;
    let mut losses = Vec::new();
    let extras = match LtbExtras::of(model) {
        Ok(e) => e,
        Err(why) => {
            losses.push(Loss::new(
                "extras",
                format!("LTB extras could not be read ({why}); written from the model alone"),
            ));
            None
        }
    };
    // A model read from a turned file is turned back first (`crate::turn`): every comparison
    // below is with the file's own frame.
    let unturned;
    let model = match &extras {
        Some(x) if crate::turn::is_turned(&x.file) => {
            let mut m = model.clone();
            crate::turn::apply(&mut m, relic_core::frame::HalfTurn::Undo);
            unturned = m;
            &unturned
        }
        _ => model,
    };
    if let Some(x) = &extras
        && x.file.version() == version
        && Digests::of(model) == x.digests
        && model.global_sequences.is_empty()
    {
        return Ok(Converted { value: (*x.file).clone(), losses });
    }
    if let Some(e) = model.extras.as_ref().filter(|e| e.format() != crate::FORMAT) {
        losses.push(Loss::new(
            "extras",
            format!("{} data the common model does not hold (its extras) is not carried into LTB", e.format()),
        ));
    }
    let stored = extras.as_ref().map(|x| x.file.as_ref());
    let order = DepthFirst::new(model, true, &mut losses);
    let same_nodes = stored.is_some_and(|s| {
        s.nodes.len() == order.nodes.len()
            && s.nodes.iter().enumerate().all(|(i, n)| n.name.to_text() == order.name(model, i))
    });
    let ctx = Ctx { model, stored, digests: extras.as_ref().map(|x| &x.digests), order, same_nodes, version };
    report_unstorable(model, &mut losses);
    let (nodes, weight_sets) = nodes::build(&ctx, &mut losses)?;
    let pieces = pieces::build(&ctx, &mut losses)?;
    let animations = animation::build(&ctx, &pieces, &mut losses)?;
    let sockets = sockets(&ctx, &mut losses);
    let (child_models, anim_bindings) = animation::bindings(&ctx, &animations);
    let header = header(&ctx, &pieces, &mut losses);
    let mut file = LtbFile {
        wrapper: wrapper(&ctx),
        container: stored.map_or(ContainerHeader::D3D_MODEL, |s| s.container),
        header,
        pieces,
        nodes,
        weight_sets,
        child_models,
        animations,
        sockets,
        anim_bindings,
        // Without a stored file: no trailing bytes (the packer writes none).
        trailing: stored.map(|s| s.trailing.clone()).unwrap_or_default(),
    };
    if stored.is_none() && from_plain_gltf(model) {
        without_extras(model, &file, &mut losses);
    }
    pieces::source_counts(&ctx, &mut file, &mut losses);
    file.header.counts = file.recounted();
    Ok(Converted { value: file, losses })
}

/// The version to write.
fn target_version(model: &Model, options: &WriteOptions) -> Result<u32, WriteError> {
    match options.version {
        Some(v) if VERSIONS.contains(&v) => Ok(v),
        Some(v) => {
            Err(WriteError::Unsupported(format!("LTB model version {v} cannot be written; choose 23, 24 or 25")))
        }
        None => {
            Ok(model.recorded_version(crate::FORMAT).filter(|v| VERSIONS.contains(v)).unwrap_or(crate::DEFAULT_VERSION))
        }
    }
}

/// The wrapper to write: the stored one (its bytes reused while the payload is unchanged); a new
/// one where the game file the model came from was wrapped (`relic info`'s `lzma_wrapped`, kept
/// by glTF without the extras); none otherwise (NOLF2 and Tron 2.0 load plain files only).
fn wrapper(ctx: &Ctx<'_>) -> Option<Wrapper> {
    if let Some(s) = ctx.stored {
        return s.wrapper.clone();
    }
    let recorded = ctx.model.original.as_ref().filter(|o| o.format == crate::FORMAT.as_str());
    recorded.filter(|o| o.count("lzma_wrapped") > 0).map(|_| Wrapper {
        props: lzma::PROPS,
        dict_size: lzma::DICT_SIZE,
        size: 0,
        payload_digest: 0,
        original: Vec::new(),
    })
}

/// Whether the model was read from a glTF without relic's extras (Blender's default export).
fn from_plain_gltf(model: &Model) -> bool {
    model.source.is_some_and(|s| s.format.as_str() == "gltf")
}

/// The header: version, counts (recounted by the caller), command string, radius, OBBs.
fn header(ctx: &Ctx<'_>, pieces: &[crate::file::Piece], losses: &mut Vec<Loss>) -> Header {
    let stored = ctx.stored.map(|s| &s.header);
    let obbs = match stored {
        Some(h) if ctx.same_nodes => h
            .obbs
            .iter()
            .map(|o| crate::file::Obb {
                radius: (ctx.version >= 24).then(|| o.radius.unwrap_or(half_length(o.size))),
                ..*o
            })
            .collect(),
        Some(h) if !h.obbs.is_empty() => {
            losses.push(Loss::new("OBBs", format!("{} oriented boxes dropped: the nodes changed", h.obbs.len())));
            Vec::new()
        }
        _ => Vec::new(),
    };
    Header {
        version: ctx.version,
        // Without a stored header: counts 0 (recounted before writing) and no command string.
        counts: stored.map(|h| h.counts).unwrap_or_default(),
        command_string: stored.map(|h| h.command_string.clone()).unwrap_or_default(),
        radius: stored.map_or_else(|| computed_radius(pieces), |h| h.radius),
        obbs,
    }
}

/// The packer's OBB radius: half the length of the size.
fn half_length(size: [f32; 3]) -> f32 {
    0.5 * size.iter().map(|c| c * c).sum::<f32>().sqrt()
}

/// Largest distance of a full-detail vertex from the origin.
fn computed_radius(pieces: &[crate::file::Piece]) -> f32 {
    let lod0 = pieces.iter().filter_map(|p| p.lods.first());
    lod0.filter_map(|l| l.object.stream_with(crate::file::streams::flag::POSITION))
        .flat_map(|s| &s.positions)
        .map(|[x, y, z]| (x * x + y * y + z * z).sqrt())
        .fold(0.0, f32::max)
}

/// Attachments → sockets (the stored socket's values where the attachment is within float noise
/// of it).
fn sockets(ctx: &Ctx<'_>, losses: &mut Vec<Loss>) -> Vec<Socket> {
    // Without a stored file: no stored sockets.
    let stored = ctx.stored.map(|s| s.sockets.as_slice()).unwrap_or_default();
    ctx.model
        .attachments
        .iter()
        .enumerate()
        .map(|(i, a)| {
            if a.id.is_some() {
                losses.push(Loss::new(format!("attachments[{i}] {:?}", a.name), "numeric id dropped"));
            }
            let socket = Socket {
                node: ctx.order.node(a.bone),
                name: nodes::stored_name(|| format!("attachments[{i}]"), &a.name, losses),
                rotation: LITHTECH.quat_from_ir(a.transform.rotation),
                position: LITHTECH.vector_from_ir(a.transform.translation),
                scale: LITHTECH.scale_from_ir(a.transform.scale),
            };
            let same = |s: &&Socket| {
                s.name == socket.name
                    && s.node == socket.node
                    && close(&s.position, &socket.position, 1e-3)
                    && same_rotation(crate::to_ir::unit(s.rotation), socket.rotation, 1e-4)
                    && close(&s.scale, &socket.scale, 1e-4)
            };
            stored.get(i).filter(same).or_else(|| stored.iter().find(same)).cloned().unwrap_or(socket)
        })
        .collect()
}

/// Whether every component of `a` is within `tolerance` of `b`'s.
pub(crate) fn close(a: &[f32], b: &[f32], tolerance: f32) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() <= tolerance)
}

/// Whether two rotations are within `tolerance` of each other per component (q and −q are the
/// same rotation).
pub(crate) fn same_rotation(a: [f32; 4], b: [f32; 4], tolerance: f32) -> bool {
    close(&a, &b, tolerance) || close(&a, &b.map(|c| -c), tolerance)
}

/// Model data no LTB stores.
fn report_unstorable(model: &Model, losses: &mut Vec<Loss>) {
    for (i, b) in model.bones.iter().enumerate() {
        let element = || format!("bones[{i}] {:?}", b.name);
        let f = &b.flags;
        if !(f.inherit_translation && f.inherit_rotation && f.inherit_scale) {
            losses.push(Loss::new(element(), "\"ignore parent\" flags not stored (LTB nodes always inherit)"));
        }
        if f.billboard != relic_core::model::Billboard::None {
            losses.push(Loss::new(element(), "billboarding not stored"));
        }
        if b.rest.scale.iter().any(|s| (s - 1.0).abs() > 1e-4) {
            losses.push(Loss::new(element(), "rest scale not stored in animation keys (LTB keys have no scale)"));
        }
    }
    for (i, m) in model.materials.iter().enumerate() {
        let named = m.textures.iter().any(|t| !t.path.is_empty());
        let state = m.blend != relic_core::model::BlendMode::Opaque || m.double_sided || m.unlit || m.unfogged;
        if named || state {
            losses.push(Loss::new(
                format!("materials[{i}] {:?}", m.name),
                "texture names and render flags not stored (an LTB keeps texture slots; the game's render styles and skins set the rest)",
            ));
        }
    }
    for (i, mesh) in model.meshes.iter().enumerate() {
        if let Some(id) = mesh.part_id {
            losses.push(Loss::new(format!("meshes[{i}] {:?}", mesh.name), format!("part id {id} not stored")));
        }
    }
    for (i, anim) in model.animations.iter().enumerate() {
        if anim.looping {
            losses.push(Loss::new(
                format!("animations[{i}] {:?}", anim.name),
                "looping flag not stored (the game decides)",
            ));
        }
        if !anim.key_bounds.is_empty() || anim.bounds.is_some() {
            losses
                .push(Loss::new(format!("animations[{i}] {:?}", anim.name), "stored boxes not kept (LTB stores dims)"));
        }
    }
    if !model.global_sequences.is_empty() {
        losses
            .push(Loss::new("global sequences", format!("{} global clocks not stored", model.global_sequences.len())));
    }
}

/// One note per kind of LTB data a model read from a glTF without relic's extras does not carry.
fn without_extras(model: &Model, file: &LtbFile, losses: &mut Vec<Loss>) {
    let why = "not in the glTF (no relic extras: Blender writes them with \"Custom Properties\" ticked)";
    let recorded = model.original.as_ref().filter(|o| o.format == crate::FORMAT.as_str());
    let was = |key: &str| recorded.map_or(0, |o| o.count(key));
    let mut note = |element: &str, what: String| losses.push(Loss::new(element, what));
    note("command string", format!("the command string {why}: written empty"));
    note("radius", format!("the radius {why}: computed from the LOD-0 vertices ({})", file.header.radius));
    note(
        "source vertices",
        format!(
            "the source model's vertex and weight counts (source vertices, source weights) {why}: counted from the model"
        ),
    );
    let render: usize = file.pieces.iter().flat_map(|p| &p.lods).map(|l| l.object.vertex_count() as usize).sum();
    note(
        "render vertices",
        format!(
            "bone sets and vertex order {why}: render vertices rebuilt ({render}; the original had {})",
            was("render_vertices")
        ),
    );
    note("weight sets", format!("weight sets {why}: none written (the original had {})", was("weight_sets")));
    note("child models", format!("child models and their animation bindings {why}: only the model itself listed"));
    note("OBBs", format!("oriented boxes (OBBs) {why}: none written"));
    note("strings", "string counts (strings, string bytes) recounted from what was written".to_string());
    if !file.animations.is_empty() {
        let keys: usize = file.animations.iter().map(|a| a.keyframes.len()).sum();
        note(
            "keyframes",
            format!(
                "key times, dims and compression modes {why}: {} animations keyed at their channels' key times ({keys} keyframes), compression mode {} (animation bytes {})",
                file.animations.len(),
                file.animations.first().map_or(0, |a| a.compression),
                file.recounted().anim_data_size
            ),
        );
    }
}
