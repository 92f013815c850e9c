//! Exports relic-gltf's sample models to a folder as `.glb` files with their Blender expectation
//! sidecars: `cargo run -p relic-gltf --example export_samples -- OUT_DIR`.

use std::path::PathBuf;

fn main() -> Result<(), String> {
    let out = PathBuf::from(std::env::args().nth(1).ok_or("usage: export_samples OUT_DIR")?);
    std::fs::create_dir_all(&out).map_err(|e| e.to_string())?;
    let options = relic_gltf::ExportOptions::default();
    for (name, model) in relic_gltf::samples::all() {
        let glb = relic_gltf::export_glb(&model, &options).map_err(|e| format!("{name}: {e}"))?;
        let path = out.join(format!("{name}.glb"));
        std::fs::write(&path, &glb.value).map_err(|e| e.to_string())?;
        let expect = relic_gltf::summary::expectation(&model, &options);
        let sidecar = out.join(format!("{name}.glb.expect.json"));
        std::fs::write(&sidecar, serde_json::to_string_pretty(&expect).map_err(|e| e.to_string())?)
            .map_err(|e| e.to_string())?;
        println!("{}: {} bytes, {} losses", path.display(), glb.value.len(), glb.losses.len());
        for loss in &glb.losses {
            println!("  {loss}");
        }
    }
    Ok(())
}
