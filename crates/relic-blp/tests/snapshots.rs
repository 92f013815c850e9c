//! YAML summaries of every fixture and every corpus BLP: the header as read, the levels, and the
//! FNV-1a hash of mip 0 decoded to RGBA8 (no image is written into the repository).

// Test code: a failed unwrap or index is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use relic_core::texture::TextureOptions;

mod common;

fn summary(bytes: &[u8]) -> serde_json::Value {
    let file = match relic_blp::read(bytes) {
        Ok(f) => f,
        Err(e) => return serde_json::json!({ "bytes": bytes.len(), "error": e.to_string() }),
    };
    let levels = relic_blp::validate::levels(&file).unwrap();
    let pixels = relic_blp::validate::pixels(&file).unwrap();
    let mip0 = match relic_blp::decode(&file, 0, &TextureOptions::default()) {
        Ok(image) => serde_json::json!({
            "rgba_fnv": format!("{:016x}", relic_core::hash::fnv1a(&image.rgba)),
            "opaque": image.is_opaque(),
            "first_pixel": image.rgba.get(..4),
        }),
        Err(e) => serde_json::json!(e.to_string()),
    };
    let header = match &file {
        relic_blp::BlpFile::Blp2(f) => serde_json::json!({
            "content": f.header.content, "compression": f.header.compression, "alpha_depth": f.header.alpha_depth,
            "alpha_type": f.header.alpha_type, "has_mips": f.header.has_mips, "palette_zero": f.palette.as_ref().is_none_or(|p| p.is_zero()),
        }),
        relic_blp::BlpFile::Blp1(f) => serde_json::json!({
            "content": f.header.content, "alpha_bits": f.header.alpha_bits, "extra": f.header.extra,
            "has_mips": f.header.has_mips, "jpeg_header": f.jpeg.as_ref().map(|j| j.bytes.len()),
        }),
    };
    serde_json::json!({
        "bytes": bytes.len(),
        "version": file.version(),
        "size": format!("{}×{}", file.width(), file.height()),
        "pixels": pixels.name(),
        "header": header,
        "levels": levels
            .iter()
            .map(|l| {
                let short = if l.is_short(&pixels) { " (short: fewer blocks than it covers)" } else { "" };
                format!("{}×{} @{:#x} +{}{short}", l.width, l.height, l.offset, l.size)
            })
            .collect::<Vec<_>>(),
        "mip0": mip0,
    })
}

#[test]
fn fixture_summaries() {
    insta::glob!("../../../fixtures/blp", "*.blp", |path| {
        insta::assert_yaml_snapshot!(summary(&std::fs::read(path).unwrap()));
    });
}

#[test]
fn corpus_summaries() {
    let Some(dir) = relic_testkit::corpus_dir("corpus_summaries") else { return };
    for rel in common::CORPUS_BLPS {
        let name = rel.rsplit('/').next().unwrap();
        insta::assert_yaml_snapshot!(format!("corpus_{name}"), summary(&std::fs::read(dir.join(rel)).unwrap()));
    }
}
