//! relic: the crate to depend on for "any model relic reads".
//!
//! Each format crate (`relic-abc`, `relic-m2`, `relic-nod`) exposes one
//! [`FormatEntry`]; this crate assembles them into the default registry
//! ([`FORMATS`]), recognises files by their bytes ([`detect`]), opens them with the files next to
//! them that they need ([`open`]) and converts common models to any format or to glTF 2.0
//! ([`convert`]). The `relic` command, `cargo xtask` and the benches use it; so can you.
//!
//! ```
//! use std::path::Path;
//! use relic::{ConvertOptions, Target};
//!
//! // Any model: recognised by content, read into the common model.
//! let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/abc/v12_full.abc");
//! let opened = relic::open(&fixture)?;
//! assert_eq!(opened.kind.name(), "abc");
//! println!("{} bones, {} meshes", opened.model.bones.len(), opened.model.meshes.len());
//!
//! // To glTF, and to another game's format; what a target cannot hold comes back as losses.
//! let glb = relic::convert(&opened.model, Target::Glb, Path::new("hero.glb"), &ConvertOptions::default())?;
//! assert!(glb.value[0].1.starts_with(b"glTF"));
//! let m2 = relic::convert(&opened.model, Target::from_name("m2").unwrap(), Path::new("hero.m2"), &ConvertOptions::default())?;
//! for loss in &m2.losses {
//!     println!("not kept in M2: {loss}");
//! }
//! # Ok::<(), relic::Error>(())
//! ```

/// The README's library example, compiled and run as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeExample;

mod convert;
mod error;
mod formats;
mod input;
pub mod original;
pub mod skins;
mod texture_convert;
pub mod textures;

pub use convert::{ConvertOptions, Outputs, Target, convert, keep_lod0};
pub use error::Error;
pub use formats::{FORMATS, by_name, detect as detect_format};
pub use input::{FolderSiblings, Kind, Opened, detect, load_model, open, read_file, referenced_files, stem};
pub use texture_convert::{TextureTarget, convert_texture, is_png, is_texture, read_image, write_image};

pub use relic_core::format::{Content, Detected, FormatEntry, FormatId};
pub use relic_core::{Converted, Loss, Model};

/// The model formats relic reads, for messages: `ABC, M2, LTB, NOD/NAD or glTF` (textures are not
/// models and are not listed).
pub fn known_formats() -> String {
    let models = FORMATS.iter().filter(|f| f.model.is_some());
    let mut names: Vec<String> = models.map(|f| f.extensions.join("/").to_uppercase()).collect();
    names.push("glTF".into());
    let last = names.pop().unwrap_or_default();
    format!("{} or {last}", names.join(", "))
}

#[cfg(test)]
mod tests {
    #[test]
    fn known_formats_lists_every_entry_and_gltf() {
        assert_eq!(super::known_formats(), "ABC, M2, LTB, NOD/NAD or glTF");
    }
}

/// The README's example, compiled and run as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctest;
