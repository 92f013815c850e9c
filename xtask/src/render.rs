//! `cargo xtask render [MODEL [OUT.png]]`: a picture of a model as a user sees it in Blender —
//! relic's glTF export (textured as `relic convert` finds the textures, plus the corpus's
//! LithTech skins) imported by Blender and rendered headless with Eevee (`xtask/render.py`). The
//! default is the README's picture: PARTNER_DANCIN.ABC (No One Lives Forever) with its two DTX
//! skins, written to `docs/images/partner_dancin.png`. A model with particle or ribbon emitters is
//! framed on their stand-ins, its other meshes see-through (the README's
//! `docs/images/ui_draenei_emitters.png`:
//! `cargo xtask render ../shared/corpus/wow-tbc/Interface/Glues/Models/UI_Draenei/UI_Draenei.m2 docs/images/ui_draenei_emitters.png`).

use std::path::{Path, PathBuf};
use std::process::Command;

use relic::{ConvertOptions, Target};

/// The README's picture: model (under the corpus) and output (under the workspace).
const DEFAULT_MODEL: &str = "abc/PARTNER_DANCIN.ABC";
const DEFAULT_OUT: &str = "docs/images/partner_dancin.png";
/// Pixels: small enough for the repository (about 200 KB as PNG).
const SIZE: (u32, u32) = (400, 600);
/// Pixels of a model with emitters (a glue screen: a scene, wider than tall), framed on the
/// emitters' stand-ins.
const SIZE_EMITTERS: (u32, u32) = (640, 420);

pub fn run(model: Option<&Path>, out: Option<&Path>) -> Result<(), String> {
    crate::blender::available()?;
    let root = crate::workspace_root();
    let model = model.map_or_else(|| root.join(crate::CORPUS).join(DEFAULT_MODEL), Path::to_path_buf);
    let out = out.map_or_else(|| root.join(DEFAULT_OUT), Path::to_path_buf);
    let opened = relic::open(&model).map_err(|e| format!("{}: {e}", model.display()))?;
    let size = if opened.model.emitters.is_empty() { SIZE } else { SIZE_EMITTERS };
    let textures = crate::textured::game_textures(&model);
    let options = ConvertOptions { textures: Some(std::sync::Arc::new(textures)), ..ConvertOptions::default() };
    let work = root.join("target/render");
    std::fs::create_dir_all(&work).map_err(|e| format!("{}: {e}", work.display()))?;
    let glb = work.join("model.glb");
    let exported = relic::convert(&opened.model, Target::from_name("glb").ok_or("no glb target")?, &glb, &options)
        .map_err(|e| e.to_string())?;
    for note in &exported.losses {
        println!("render: note: {note}");
    }
    for (file, bytes) in &exported.value {
        std::fs::write(file, bytes).map_err(|e| format!("{}: {e}", file.display()))?;
    }
    if let Some(parent) = out.parent() {
        std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    }
    let script: PathBuf = root.join("xtask/render.py");
    let output = Command::new("blender")
        .args(["-b", "--factory-startup", "--python-exit-code", "1", "--python"])
        .arg(&script)
        .arg("--")
        .arg(&glb)
        .arg(&out)
        .args([size.0.to_string(), size.1.to_string()])
        .output()
        .map_err(|e| format!("cannot run blender: {e}"))?;
    let text = String::from_utf8_lossy(&output.stdout);
    let line = text.lines().find(|l| l.starts_with("relic-render:"));
    match (output.status.success(), line) {
        (true, Some(line)) => {
            println!("{line}");
            let bytes = std::fs::metadata(&out).map(|m| m.len()).unwrap_or(0);
            println!("render: {} ({bytes} bytes)", out.display());
            Ok(())
        }
        _ => Err(format!(
            "Blender did not render {} ({}): {}",
            model.display(),
            output.status,
            String::from_utf8_lossy(&output.stderr).lines().rev().take(5).collect::<Vec<_>>().join(" | ")
        )),
    }
}
