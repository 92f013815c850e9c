//! The built-in formats: every format crate's entry, in detection order, as the cargo features
//! enabled them. This list is the only list of formats in the workspace: the `relic` command,
//! `cargo xtask`, the benches and the fuzz targets find every format through it (or through a
//! [`crate::Registry`] built from it).

use relic_core::format::{Detected, FormatEntry};

/// Every format relic reads, in detection order: strong signatures first (ABC, MDX's `MDLX`, M2, BLP); LTB, whose container
/// header or LZMA wrapper must decode to one; DTX, whose signature is
/// weak but whose detection requires the sizes to add up to the file; NOD/NAD (weak, strict
/// sizes); then glTF, binary (a magic) and JSON (an object with an `asset` member); then MDL text
/// (its first word `Version` or `Model`).
pub static FORMATS: &[&FormatEntry] = &[
    #[cfg(feature = "abc")]
    &relic_abc::ENTRY,
    // Before M2, whose detect also claims `MDLX` (to refuse it by name when this feature is off).
    #[cfg(feature = "mdx")]
    &relic_mdx::ENTRY,
    #[cfg(feature = "m2")]
    &relic_m2::ENTRY,
    #[cfg(feature = "blp")]
    &relic_blp::ENTRY,
    #[cfg(feature = "ltb")]
    &relic_ltb::ENTRY,
    #[cfg(feature = "dtx")]
    &relic_dtx::ENTRY,
    #[cfg(feature = "nod")]
    &relic_nod::ENTRY,
    #[cfg(feature = "gltf")]
    &relic_gltf::GLB_ENTRY,
    #[cfg(feature = "gltf")]
    &relic_gltf::GLTF_ENTRY,
    #[cfg(feature = "mdx")]
    &relic_mdx::MDL_ENTRY,
];

/// The format of a file, judged by its bytes only.
pub fn detect(bytes: &[u8]) -> Option<(&'static FormatEntry, Detected)> {
    FORMATS.iter().find_map(|f| (f.detect)(bytes).map(|d| (*f, d)))
}

/// The format registered as `name` (`abc`, `m2`, …), or whose extensions include `name`
/// (case-insensitive).
pub fn by_name(name: &str) -> Option<&'static FormatEntry> {
    let exact = FORMATS.iter().find(|f| f.name.eq_ignore_ascii_case(name));
    exact.or_else(|| FORMATS.iter().find(|f| f.has_extension(name))).copied()
}

#[cfg(test)]
#[cfg(all(
    feature = "abc",
    feature = "m2",
    feature = "mdx",
    feature = "nod",
    feature = "blp",
    feature = "dtx",
    feature = "gltf"
))]
mod tests {
    use super::*;

    /// Every texture of the corpus and the fixtures is recognised as a texture of its own format,
    /// and no other file is taken for a texture (DTX's signature is weak).
    #[test]
    fn textures_are_recognised_and_nothing_else_is() {
        let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures");
        let mut dirs = vec![fixtures];
        dirs.extend(relic_testkit::corpus_dir("textures_are_recognised_and_nothing_else_is"));
        let mut textures = 0;
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                    continue;
                }
                // A file without an extension is no texture by name.
                let ext = path.extension().map(|e| e.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
                let hostile = path.components().any(|c| c.as_os_str() == "hostile");
                let found = detect(&std::fs::read(&path).unwrap());
                let texture = found.filter(|(_, d)| d.content == relic_core::format::Content::Texture);
                match texture {
                    Some((entry, _)) => {
                        assert_eq!(entry.name, ext, "{}", path.display());
                        textures += 1;
                    }
                    None => {
                        assert!(hostile || !matches!(ext.as_str(), "blp" | "dtx"), "{} not recognised", path.display())
                    }
                }
            }
        }
        assert!(textures >= 20, "only {textures} textures seen");
    }

    #[test]
    fn names_and_extensions_find_their_entry() {
        assert_eq!(by_name("ABC").map(|f| f.name), Some("abc"));
        assert_eq!(by_name("nad").map(|f| f.name), Some("nod"));
        assert!(by_name("obj").is_none());
        let names: Vec<&str> = FORMATS.iter().map(|f| f.name).collect();
        assert_eq!(names, ["abc", "mdx", "m2", "blp", "ltb", "dtx", "nod", "glb", "gltf", "mdl"]);
        assert_eq!(by_name("BLP").map(|f| f.name), Some("blp"));
        assert!(by_name("dtx").is_some_and(|f| f.texture.is_some() && f.model.is_none()));
    }
}
