//! Hand-built skeletons.

/// A bone whose rest translation is `(0, rest_y, 0)` from its parent and whose model-space origin
/// is `(0, model_y, 0)` (no rotation or scale): bind matrix and inverse bind matrix to match.
pub fn bone_at(name: impl Into<String>, parent: Option<usize>, rest_y: f32, model_y: f32) -> relic_core::model::Bone {
    use relic_core::model::{Bone, Transform};
    let mut bind = relic_core::math::IDENTITY;
    bind[13] = model_y;
    let mut inverse_bind = relic_core::math::IDENTITY;
    inverse_bind[13] = -model_y;
    Bone {
        name: name.into(),
        parent,
        rest: Transform { translation: [0.0, rest_y, 0.0], ..Transform::IDENTITY },
        bind_matrix: bind,
        inverse_bind_matrix: inverse_bind,
        ..Bone::default()
    }
}

/// A chain of `n` bones named `{prefix}0`, `{prefix}1`, …: bone `i` at height `i`, the child of
/// bone `i − 1`, one unit above it.
pub fn bone_chain(n: usize, prefix: &str) -> Vec<relic_core::model::Bone> {
    (0..n)
        .map(|b| bone_at(format!("{prefix}{b}"), b.checked_sub(1), if b == 0 { 0.0 } else { 1.0 }, b as f32))
        .collect()
}
