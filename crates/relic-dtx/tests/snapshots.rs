//! YAML summaries of every fixture and every corpus DTX: the header as read, the mips, and the
//! FNV-1a hash of mip 0 decoded to RGBA8 (no image is written into the repository).

// Test code: a failed unwrap or index is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use relic_core::texture::TextureOptions;

mod common;

fn summary(bytes: &[u8]) -> serde_json::Value {
    let file = match relic_dtx::read(bytes) {
        Ok(f) => f,
        Err(e) => return serde_json::json!({ "bytes": bytes.len(), "error": e.to_string() }),
    };
    let h = &file.header;
    let mip0 = match relic_dtx::decode(&file, 0, &TextureOptions::default()) {
        Ok(image) => serde_json::json!({
            "rgba_fnv": format!("{:016x}", relic_core::hash::fnv1a(&image.rgba)),
            "opaque": image.is_opaque(),
            "constant_alpha": image.constant_alpha(),
            "first_pixel": image.rgba.get(..4),
        }),
        Err(e) => serde_json::json!(e.to_string()),
    };
    serde_json::json!({
        "bytes": bytes.len(),
        "version": h.version,
        "size": format!("{}×{}", h.width, h.height),
        "pixels": file.bpp().map(relic_dtx::Bpp::name),
        "flags": format!("{:#x}", h.flags),
        "user_flags": h.user_flags,
        "extra_lt1": h.extra_lt1.as_ref().map(|e| (e.group, e.mips_used, e.alpha_cutoff, e.alpha_average, e.unknown)),
        "extra_lt2": h.extra_lt2.as_ref().map(|e| {
            (e.texture_group, e.mips_to_use, e.bpp, e.non_s3tc_mip_offset, e.ui_mip_offset, e.priority, e.detail_scale, e.detail_angle)
        }),
        "command": h.command.map(|c| c.to_text()),
        "palette_header": file.palette.as_ref().map(|p| p.header),
        "mips": (0..file.mips.len()).map(|i| {
            let (w, ht) = file.mip_size(i);
            format!("{w}×{ht} {} bytes", file.mips[i].len())
        }).collect::<Vec<_>>(),
        "alpha_masks": file.alpha_masks.as_ref().map(|m| m.iter().map(Vec::len).collect::<Vec<_>>()),
        "sections": file.sections.iter().map(|s| format!("{} {} {} bytes", s.kind.to_text(), s.name.to_text(), s.data.len())).collect::<Vec<_>>(),
        "trailing": file.trailing.len(),
        "mip0": mip0,
    })
}

#[test]
fn fixture_summaries() {
    insta::glob!("../../../fixtures/dtx", "*.dtx", |path| {
        insta::assert_yaml_snapshot!(summary(&std::fs::read(path).unwrap()));
    });
}

#[test]
fn corpus_summaries() {
    let Some(dir) = relic_testkit::corpus_dir("corpus_summaries") else { return };
    for rel in common::CORPUS_DTXS {
        let name = rel.rsplit('/').next().unwrap();
        insta::assert_yaml_snapshot!(format!("corpus_{name}"), summary(&std::fs::read(dir.join(rel)).unwrap()));
    }
}
