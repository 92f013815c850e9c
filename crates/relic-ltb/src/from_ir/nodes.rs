//! Bones → the node tree (depth first under one root) and the weight sets.

use relic_core::binary::LenString;
use relic_core::{Loss, WriteError};
use relic_lithtech::frame::LITHTECH;

use super::Ctx;
use crate::file::{Node, WeightSet};
use crate::to_ir::column_major;

/// How far (per element, relative to the matrix's largest) a bind may be from the stored node
/// matrix and still be it (a tool such as Blender moves every value a little).
pub(crate) const BIND_TOLERANCE: f32 = 1e-4;

/// A name as stored (Windows-1252); characters it cannot hold become `?` and are reported.
pub(crate) fn stored_name(element: impl FnOnce() -> String, name: &str, losses: &mut Vec<Loss>) -> LenString {
    LenString::from_text(name).unwrap_or_else(|| {
        losses.push(Loss::new(element(), format!("{name:?}: characters outside Windows-1252 became '?'")));
        LenString::from(name)
    })
}

/// The nodes and the weight sets.
pub(super) fn build(ctx: &Ctx<'_>, losses: &mut Vec<Loss>) -> Result<(Vec<Node>, Vec<WeightSet>), WriteError> {
    let order = &ctx.order;
    let mut nodes = Vec::with_capacity(order.nodes.len());
    // A bind matrix and a child count per node (`DepthFirst`).
    for (i, (bind, &child_count)) in order.binds.iter().zip(&order.child_counts).enumerate() {
        let name = order.name(ctx.model, i);
        let stored = ctx.stored.and_then(|s| s.nodes.get(i)).filter(|n| n.name.to_text() == name);
        let mut matrix = column_major(&LITHTECH.matrix_from_ir(bind));
        if let Some(s) = stored {
            let scale = s.matrix.iter().fold(1.0f32, |m, v| m.max(v.abs()));
            if relic_core::math::max_abs_diff(&matrix, &s.matrix) <= BIND_TOLERANCE * scale {
                matrix = s.matrix;
            }
        }
        let rotation_only = order.bone(ctx.model, i).is_some_and(|b| b.flags.rotation_only);
        let flags = stored.filter(|_| ctx.same_nodes).map_or(0, |s| s.flags & !2) | if rotation_only { 2 } else { 0 };
        nodes.push(Node {
            name: stored_name(|| format!("bones {name:?}"), &name, losses),
            index: relic_core::error::fit("nodes: index", i, "u16")?,
            flags,
            matrix,
            child_count,
        });
    }
    let weight_sets = match ctx.stored {
        Some(s) if ctx.same_nodes => s.weight_sets.clone(),
        Some(s) if !s.weight_sets.is_empty() => {
            losses.push(Loss::new(
                "weight sets",
                format!(
                    "{} weight sets dropped: the nodes changed (a weight set has one weight per node)",
                    s.weight_sets.len()
                ),
            ));
            Vec::new()
        }
        _ => Vec::new(),
    };
    Ok((nodes, weight_sets))
}
