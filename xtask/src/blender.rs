//! `cargo xtask blender-check DIR`: imports every glTF export under DIR into Blender (headless)
//! and checks bone, vertex, triangle and animation counts against relic's own model.

use std::path::Path;

pub fn run(_dir: &Path) -> Result<(), String> {
    Err("blender-check is not implemented yet".into())
}
