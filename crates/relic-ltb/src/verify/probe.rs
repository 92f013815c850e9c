//! The independent walker `shared/tools/ltb_probe.py` (written from the notes by another hand):
//! its header counts for a file against `relic info`'s. Running it (python3) is the caller's; this
//! compares its `--json` line.

use relic_core::info::{Fact, Info};

/// The probe's header keys and the `relic info` facts they are.
pub const PROBE_KEYS: [(&str, &str); 15] = [
    ("keyframes", "keyframes"),
    ("anims", "animations"),
    ("nodes", "nodes"),
    ("pieces", "pieces"),
    ("child_models", "child_models"),
    ("tris", "triangles"),
    ("verts", "source_vertices"),
    ("vertex_weights", "source_weights"),
    ("lods", "lods"),
    ("sockets", "sockets"),
    ("weight_sets", "weight_sets"),
    ("strings", "strings"),
    ("string_lengths", "string_bytes"),
    ("vert_anim_data", "vertex_animation_bytes"),
    ("anim_data", "animation_bytes"),
];

/// Compares the probe's `--json` line for a file with `relic info`'s facts for it: every header
/// count, the wrapper, and the probe's own checks (none may have failed).
pub fn compare(probe_json: &str, info: &Info) -> Result<String, String> {
    let v: serde_json::Value =
        serde_json::from_str(probe_json).map_err(|e| format!("the probe printed {probe_json:?}: {e}"))?;
    let failed = v.get("checks_failed").and_then(serde_json::Value::as_array).map_or(0, Vec::len);
    if failed > 0 {
        return Err(format!(
            "the probe's own checks failed: {}",
            // Present: `failed` counted its entries.
            v.get("checks_failed").map(ToString::to_string).unwrap_or_default()
        ));
    }
    let header = v.get("header").ok_or("the probe printed no header")?;
    let mut bad = Vec::new();
    for (probe, ours) in PROBE_KEYS {
        let theirs = header.get(probe).and_then(serde_json::Value::as_u64);
        let mine = match info.get(ours) {
            Some(Fact::Count(n)) => Some(*n),
            _ => None,
        };
        if theirs != mine || theirs.is_none() {
            bad.push(format!("{probe} {theirs:?} vs {ours} {mine:?}"));
        }
    }
    let wrapped = !v.get("wrapper").is_none_or(serde_json::Value::is_null);
    if info.get("lzma_wrapped") != Some(&Fact::Count(u64::from(wrapped))) {
        bad.push(format!("probe wrapper {wrapped} vs lzma_wrapped {:?}", info.get("lzma_wrapped")));
    }
    match bad.is_empty() {
        true => Ok(format!(
            "{} header counts equal, walked {}",
            PROBE_KEYS.len(),
            v.get("walked").and_then(|w| w.as_str()).unwrap_or("?")
        )),
        false => Err(bad.join(", ")),
    }
}
