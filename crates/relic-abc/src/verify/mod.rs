//! The checks `cargo xtask corpus` runs on each ABC file (cargo feature `verify`).
//!
//! | check | what it proves |
//! |---|---|
//! | `parse` | the file reads (or, for versions relic does not read, is refused with the reason) |
//! | `rewrite` | writing the parsed file gives the same bytes |
//! | `header-counts` | v9–v13: every header count recomputed from the data equals the stored one |
//! | `ir-round-trip` | ABC → model → ABC re-parses equal (and whether it is byte-identical); a file that differs fails whatever the losses say |
//! | `v12-weights` | abc.md §4.7: LOD-0 positions rebuilt from weights and node matrices match the stored ones |
//! | `v6-key-boxes` | abc.md §3.4: relic-anim posing the model at each keyframe gives the stored keyframe box (≤ 0.01); empty boxes and boxes stored from a neighbouring key's pose are skipped and counted ([`relic_anim::proofs::key_boxes`], the one rule) |

mod proofs;

use relic_core::WriteOptions;
use relic_core::check::Checks;

use crate::file::AbcFile;

/// Tolerance of the LOD-0 weight reconstruction (game units).
pub const WEIGHT_TOLERANCE: f32 = 1e-3;
/// Tolerance of the keyframe-box comparison (game units).
pub const KEY_BOX_TOLERANCE: f32 = 0.01;

/// Runs every format-level check on one file.
pub fn corpus_checks(bytes: &[u8]) -> Checks {
    let mut checks = Checks::new();
    let Some(file) = checks.parsed(crate::read(bytes), describe) else { return checks };
    checks.run("rewrite", || rewrite(&file, bytes));
    match &file {
        AbcFile::V12(f) => {
            checks.run("header-counts", || {
                let pairs = proofs::header_count_pairs(f);
                let bad: Vec<String> = pairs
                    .iter()
                    .filter(|(_, s, r)| s != r)
                    .map(|(n, s, r)| format!("{n} stored {s}, recomputed {r}"))
                    .collect();
                // LODDistanceCount is LODCount − 1 in every game file; io_scene_abc writes 0.
                let (distances, lods) = (f.header.lod_distances.len(), f.header.counts.lod_count as usize);
                let note = match distances + 1 == lods || (distances == 0 && lods == 0) {
                    true => String::new(),
                    false => format!("; LODDistanceCount {distances} is not LODCount − 1 (as io_scene_abc writes)"),
                };
                if bad.is_empty() { Ok(format!("{} counts equal{note}", pairs.len())) } else { Err(bad.join(", ")) }
            });
        }
        AbcFile::V6(_) => {
            checks.skip("header-counts", "v6 has no header counts (its array counts are rewritten exactly)")
        }
    }
    checks.run("ir-round-trip", || ir_round_trip(&file, bytes));
    match &file {
        AbcFile::V12(f) => {
            checks.run("v12-weights", || {
                let p = proofs::weights(f);
                let detail = format!(
                    "{} LOD-0 vertices, worst error {:.2e}; lower LODs {} vertices, worst {:.2e}",
                    p.lod0_vertices, p.lod0_worst, p.lower_vertices, p.lower_worst
                );
                if p.lod0_worst <= WEIGHT_TOLERANCE {
                    Ok(detail)
                } else {
                    Err(format!("{detail} > {WEIGHT_TOLERANCE}"))
                }
            });
        }
        AbcFile::V6(_) => {
            checks.run("v6-key-boxes", || {
                let model = crate::to_ir(&file).map_err(|e| format!("to_ir: {e}"))?;
                let boxes = relic_anim::proofs::stored_key_boxes(&model);
                relic_anim::proofs::key_boxes(&model, &boxes, KEY_BOX_TOLERANCE)
            });
        }
    }
    checks
}

fn describe(file: &AbcFile) -> String {
    match file {
        AbcFile::V6(f) => format!(
            "v6, {} nodes, {} vertices, {} animations",
            f.nodes.nodes.len(),
            f.geometry.vertices.len(),
            f.animations.animations.len()
        ),
        AbcFile::V12(f) => format!(
            "v{}, {} nodes, {} pieces × {} LODs, {} animations",
            f.header.version,
            f.header.counts.node_count,
            f.header.counts.piece_count,
            f.header.counts.lod_count,
            f.header.counts.animation_count
        ),
    }
}

fn rewrite(file: &AbcFile, bytes: &[u8]) -> Result<String, String> {
    let out = crate::write(file).map_err(|e| e.to_string())?;
    if out == bytes {
        return Ok(format!("{} bytes identical", out.len()));
    }
    let at = out.iter().zip(bytes).position(|(a, b)| a != b).unwrap_or(out.len().min(bytes.len()));
    Err(format!("{} bytes written for {}, first difference at {at:#x}", out.len(), bytes.len()))
}

fn ir_round_trip(file: &AbcFile, bytes: &[u8]) -> Result<String, String> {
    let model = crate::to_ir(file).map_err(|e| format!("to_ir: {e}"))?;
    let converted = crate::from_ir(&model, &WriteOptions::default()).map_err(|e| format!("from_ir: {e}"))?;
    let out = crate::write(&converted.value).map_err(|e| format!("write: {e}"))?;
    let back = crate::read(&out).map_err(|e| format!("re-parse: {e}"))?;
    if &back != file {
        return Err(format!("re-parsed file differs ({} losses reported)", converted.losses.len()));
    }
    let identical = if out == bytes { "byte-identical" } else { "equal, not byte-identical" };
    Ok(format!("{identical}, {} losses", converted.losses.len()))
}
