//! The checks `cargo xtask corpus` runs on each LTB file (cargo feature `verify`).
//!
//! | check | what it proves |
//! |---|---|
//! | `parse` | the file reads (files named `.ltb` that are not PC models are refused by name) |
//! | `rewrite` | writing the parsed file gives the same bytes (a wrapped file its original LZMA bytes) |
//! | `rewrap` | a wrapped file's payload compressed anew (lc 3, lp 0, pb 2, 16 MiB, no end marker) reads back as the same file |
//! | `header-counts` | every header count the data determines equals the stored one (ltb.md §4.2) |
//! | `ir-round-trip` | LTB → model → LTB gives the same bytes |
//! | `bind-pose` | the stored vertices skinned in the bind pose rebuilt down the tree come back where they are stored (`proofs::bind_pose`) |
//! | `animation-decode` | the reader's key values equal an independent scalar decode of the bytes (`scalar.rs`) |
//!
//! `cargo xtask corpus` adds `ltb-probe`: the independent walker's header counts equal `relic
//! info`'s, for the file and for its payload compressed anew ([`probe`]).

pub mod probe;
mod proofs;
mod scalar;

use relic_core::WriteOptions;
use relic_core::check::Checks;

use crate::file::LtbFile;

/// How far (game units) a vertex skinned in the bind pose may be from its stored position.
pub const BIND_POSE_TOLERANCE: f32 = 1e-3;
/// How far a decoded key value may be from the scalar decoder's (f32 division rounding).
pub const DECODE_TOLERANCE: f32 = 1e-6;

/// Runs every format-level check on one file.
pub fn corpus_checks(bytes: &[u8]) -> Checks {
    let mut checks = Checks::new();
    let Some(file) = checks.parsed(crate::read(bytes), describe) else { return checks };
    checks.run("rewrite", || {
        let out = crate::write(&file).map_err(|e| e.to_string())?;
        match out == bytes {
            true => Ok(format!("{} bytes identical", out.len())),
            false => {
                let at = out.iter().zip(bytes).position(|(a, b)| a != b).unwrap_or(out.len().min(bytes.len()));
                Err(format!("{} bytes written for {}, first difference at {at:#x}", out.len(), bytes.len()))
            }
        }
    });
    let payload = crate::file::write_payload(&file);
    match (&file.wrapper, &payload) {
        (Some(_), Ok(payload)) => {
            checks.run("rewrap", || rewrap(&file, payload));
        }
        (None, _) => checks.skip("rewrap", "not wrapped"),
        (_, Err(e)) => checks.fail("rewrap", e.to_string()),
    }
    checks.run("header-counts", || {
        let (stored, recounted) = (file.header.counts.named(), file.recounted().named());
        let bad: Vec<String> = stored
            .iter()
            .zip(&recounted)
            .filter(|(a, b)| a.1 != b.1)
            .map(|((name, a), (_, b))| format!("{name} stored {a}, recounted {b}"))
            .collect();
        if bad.is_empty() {
            Ok(format!("{} counts equal (2 kept as stored)", stored.len() - 2))
        } else {
            Err(bad.join(", "))
        }
    });
    checks.run("ir-round-trip", || {
        let model = crate::to_ir(&file).map_err(|e| e.to_string())?;
        let back = crate::write_model(&model, &WriteOptions::default()).map_err(|e| e.to_string())?;
        match back.value == bytes {
            true => Ok(format!("byte-identical, {} losses", back.losses.len())),
            false => {
                Err(format!("{} bytes written for {} ({} losses)", back.value.len(), bytes.len(), back.losses.len()))
            }
        }
    });
    checks.run("bind-pose", || {
        let (vertices, worst) = proofs::bind_pose(&file);
        let detail = format!("{vertices} vertices, worst error {worst:.2e}");
        if worst <= BIND_POSE_TOLERANCE { Ok(detail) } else { Err(format!("{detail} > {BIND_POSE_TOLERANCE}")) }
    });
    match payload {
        Ok(payload) if !file.animations.is_empty() => {
            checks.run("animation-decode", || {
                let model = crate::to_ir(&file).map_err(|e| e.to_string())?;
                let (values, worst) = proofs::animation_decode(&file, &payload, &model)?;
                let modes: Vec<String> = file.animations.iter().map(|a| a.compression.to_string()).collect();
                let detail = format!("{values} key values (modes {}), worst difference {worst:.1e}", modes.join(","));
                if worst <= DECODE_TOLERANCE { Ok(detail) } else { Err(detail) }
            });
        }
        _ => checks.skip("animation-decode", "no animations"),
    }
    checks
}

fn describe(file: &LtbFile) -> String {
    let wrapped =
        file.wrapper.as_ref().map_or(String::new(), |w| format!(", LZMA {} → {} bytes", w.original.len(), w.size));
    format!(
        "v{}, {} nodes, {} pieces, {} animations{wrapped}",
        file.version(),
        file.nodes.len(),
        file.pieces.len(),
        file.animations.len()
    )
}

/// The payload compressed anew reads back through relic's reader as the same file.
fn rewrap(file: &LtbFile, payload: &[u8]) -> Result<String, String> {
    let fresh = relic_lithtech::lzma::wrap(payload, None).map_err(|e| e.to_string())?;
    let back = crate::read(&fresh).map_err(|e| format!("the new stream does not read back: {e}"))?;
    let mut same = back.clone();
    same.wrapper = file.wrapper.clone();
    if same != *file {
        return Err("the new stream reads back as another file".into());
    }
    let original = file.wrapper.as_ref().map_or(0, |w| w.original.len());
    Ok(format!("{} → {} bytes (the original stream {original})", payload.len(), fresh.len()))
}
