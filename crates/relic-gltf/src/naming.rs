//! Names that carry structure through tools that keep only names (Blender without "Custom
//! Properties"): what relic writes and what it reads back.
//!
//! | element | name written | read back as |
//! |---|---|---|
//! | LOD ≥ 1 mesh | `torso LOD2 (600)`: the piece's name, the level, the switch distance | level 2, distance 600, piece `torso` |
//! | attachment with an id (M2) | `attachment 11: Head` | id 11, name `Head` |
//! | attachment without one (ABC socket) | `socket: Chin` | name `Chin` |
//! | emitter's stand-in mesh and material | `particle 3 (stand-in)` | not model geometry: dropped |
//! | image of a game texture | `CREATURE\GNOME\GNOME.BLP.png` | texture path `CREATURE\GNOME\GNOME.BLP` |
//! | skin (Blender's armature) | the model's name | the model's name |
//! | the game file's counts ([`relic_core::model::Original`]) | an empty `relic original: m2 v256` with one child per count, `relic original: particles = 12` | the record the file written back is compared with |
//!
//! Blender makes names unique by appending `.001`, `.002`, …; [`strip_duplicate_suffix`] takes
//! that off again (only for files another tool wrote).

use relic_core::model::{Attachment, Lod, Mesh, Original};

/// The node and mesh name of a model mesh: its own name at LOD 0, with the level and distance
/// after it otherwise.
pub(crate) fn mesh_name(mesh: &Mesh) -> String {
    if mesh.lod.level == 0 {
        return mesh.name.clone();
    }
    format!("{} LOD{} ({})", mesh.name, mesh.lod.level, number(mesh.lod.distance))
}

/// A distance as short text: `600`, `12.5`.
fn number(x: f32) -> String {
    let text = format!("{x}");
    if x.is_finite() { text } else { "0".into() }
}

/// The piece name and LOD of a mesh name written by [`mesh_name`]; `None` for a name without
/// a LOD part.
pub(crate) fn parse_mesh_name(name: &str) -> Option<(String, Lod)> {
    let open = name.rfind(" (")?;
    let distance: f32 = name.get(open + 2..)?.strip_suffix(')')?.parse().ok()?;
    let head = name.get(..open)?;
    let lod_at = head.rfind(" LOD")?;
    let level: u32 = head.get(lod_at + 4..)?.parse().ok()?;
    if level == 0 || !distance.is_finite() || distance < 0.0 {
        return None;
    }
    Some((head.get(..lod_at)?.to_string(), Lod { level, distance }))
}

/// The node name of an attachment.
pub(crate) fn attachment_name(a: &Attachment) -> String {
    match a.id {
        Some(id) => format!("attachment {id}: {}", a.name),
        None => format!("socket: {}", a.name),
    }
}

/// The id and name of an attachment node name written by [`attachment_name`].
pub(crate) fn parse_attachment_name(name: &str) -> Option<(Option<u32>, String)> {
    if let Some(rest) = name.strip_prefix("socket: ") {
        return Some((None, rest.to_string()));
    }
    let rest = name.strip_prefix("attachment ")?;
    let (id, name) = rest.split_once(": ")?;
    Some((Some(id.parse().ok()?), name.to_string()))
}

/// The name of the image of a game texture: its path, with the extension of what is embedded.
pub(crate) fn image_name(game_path: &str, found_name: &str, png: bool) -> String {
    let base = if game_path.is_empty() { found_name } else { game_path };
    format!("{base}.{}", if png { "png" } else { "jpg" })
}

/// The game path an image name written by [`image_name`] stands for: without the image
/// extension when what remains still has one (`X.BLP.png` → `X.BLP`); as it is otherwise.
pub(crate) fn texture_path(image_name: &str) -> String {
    let lower = image_name.to_ascii_lowercase();
    for ext in [".png", ".jpg", ".jpeg"] {
        if let Some(stem) = lower.strip_suffix(ext) {
            let kept = image_name.get(..stem.len()).unwrap_or(image_name);
            let has_extension = kept.rsplit(['\\', '/']).next().is_some_and(|f| f.contains('.'));
            if has_extension {
                return kept.to_string();
            }
        }
    }
    image_name.to_string()
}

/// What ends the name of an emitter's stand-in mesh and material.
const STAND_IN: &str = " (stand-in)";

/// The name of the stand-in mesh and material of an emitter named `emitter`.
pub(crate) fn stand_in_name(emitter: &str) -> String {
    format!("{emitter}{STAND_IN}")
}

/// True for a name written by [`stand_in_name`] (Blender's `.001` suffix taken off first).
pub(crate) fn is_stand_in_name(name: &str) -> bool {
    strip_duplicate_suffix(name).ends_with(STAND_IN)
}

/// What every node name of the original's record starts with.
const ORIGINAL: &str = "relic original: ";

/// The name of the empty node that holds the original's record.
pub(crate) fn original_name(o: &Original) -> String {
    format!("{ORIGINAL}{} v{}", o.format, o.version)
}

/// The name of the node that records one count of the original.
pub(crate) fn original_count_name(key: &str, count: u64) -> String {
    format!("{ORIGINAL}{key} = {count}")
}

/// One node name of the original's record, read back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum OriginalName {
    /// `relic original: m2 v256`.
    Head { format: String, version: u32 },
    /// `relic original: particles = 12`.
    Count { key: String, count: u64 },
}

/// Reads a name written by [`original_name`] or [`original_count_name`].
pub(crate) fn parse_original_name(name: &str) -> Option<OriginalName> {
    let rest = name.strip_prefix(ORIGINAL)?;
    if let Some((key, count)) = rest.split_once(" = ") {
        return Some(OriginalName::Count { key: key.to_string(), count: count.parse().ok()? });
    }
    let (format, version) = rest.split_once(" v")?;
    Some(OriginalName::Head { format: format.to_string(), version: version.parse().ok()? })
}

/// A name without the `.001`-style suffix Blender appends to make names unique.
pub(crate) fn strip_duplicate_suffix(name: &str) -> &str {
    match name.rsplit_once('.') {
        Some((base, digits)) if digits.len() == 3 && digits.bytes().all(|b| b.is_ascii_digit()) && !base.is_empty() => {
            base
        }
        _ => name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lod_names_round_trip() {
        let mut mesh = Mesh { name: "torso (upper)".into(), ..Mesh::default() };
        assert_eq!(mesh_name(&mesh), "torso (upper)");
        assert_eq!(parse_mesh_name("torso (upper)"), None);
        mesh.lod = Lod { level: 2, distance: 12.5 };
        let name = mesh_name(&mesh);
        assert_eq!(name, "torso (upper) LOD2 (12.5)");
        assert_eq!(parse_mesh_name(&name), Some(("torso (upper)".into(), mesh.lod)));
        assert_eq!(
            parse_mesh_name(strip_duplicate_suffix("legs LOD1 (300).004")),
            Some(("legs".into(), Lod { level: 1, distance: 300.0 }))
        );
        for bad in ["x LOD0 (3)", "x LODa (3)", "x LOD1 (-3)", "x LOD1 (nan)", "LOD1"] {
            assert_eq!(parse_mesh_name(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_original_record_round_trips_and_nothing_else_parses_as_it() {
        let o = Original { format: "m2".into(), version: 256, ..Default::default() };
        assert_eq!(original_name(&o), "relic original: m2 v256");
        assert_eq!(
            parse_original_name(&original_name(&o)),
            Some(OriginalName::Head { format: "m2".into(), version: 256 })
        );
        assert_eq!(
            parse_original_name(&original_count_name("particles", 12)),
            Some(OriginalName::Count { key: "particles".into(), count: 12 })
        );
        for other in ["particles = 12", "relic original: x = -1", "relic original: m2", "relic original: m2 vX"] {
            assert_eq!(parse_original_name(other), None, "{other}");
        }
    }

    #[test]
    fn attachments_and_images() {
        let a = Attachment { name: "Head".into(), id: Some(11), ..Attachment::default() };
        assert_eq!(parse_attachment_name(&attachment_name(&a)), Some((Some(11), "Head".into())));
        let s = Attachment { name: "Chin".into(), ..Attachment::default() };
        assert_eq!(parse_attachment_name(&attachment_name(&s)), Some((None, "Chin".into())));
        assert_eq!(parse_attachment_name("Chin"), None);
        let image = image_name("Interface\\Buttons\\YellowOrange64.blp", "x", true);
        assert_eq!(texture_path(&image), "Interface\\Buttons\\YellowOrange64.blp");
        // Blender drops the last extension of some image names on export.
        assert_eq!(texture_path("Interface\\Buttons\\YellowOrange64.blp"), "Interface\\Buttons\\YellowOrange64.blp");
        assert_eq!(texture_path("skin.png"), "skin.png");
        assert_eq!(strip_duplicate_suffix("legs.001"), "legs");
        assert_eq!(strip_duplicate_suffix("v1.2"), "v1.2");
        assert_eq!(strip_duplicate_suffix(".001"), ".001");
    }
}
