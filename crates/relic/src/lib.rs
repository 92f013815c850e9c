//! relic: the crate to depend on for "any model relic reads".
//!
//! Each format crate (`relic-abc`, `relic-m2`, `relic-nod`, `relic-blp`, `relic-dtx`, and
//! `relic-gltf` with two: `.glb` and `.gltf`) exposes its [`FormatEntry`]; this crate assembles
//! them into the built-in registry ([`FORMATS`], one cargo feature per format crate, all on by
//! default), recognises files by their bytes ([`detect`]), opens them with the files next to them
//! that they need ([`open`]) and converts common models to any format that writes them
//! ([`convert`]). A [`Registry`] holds a list of formats: [`Registry::builtin`] is [`FORMATS`], and
//! [`Registry::with`] adds a format of your own (see its example). The `relic` command,
//! `cargo xtask`, the benches and the fuzz targets find every format through it.
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
//! let glb = relic::convert(&opened.model, Target::for_path(Path::new("hero.glb"))?, Path::new("hero.glb"), &ConvertOptions::default())?;
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
pub mod foreign;
mod formats;
mod input;
mod kept;
mod listed;
mod names;
pub mod original;
mod registry;
#[cfg(feature = "gltf")]
pub mod skins;
#[cfg(feature = "gltf")]
mod texture_convert;
#[cfg(feature = "gltf")]
pub mod textures;

pub use convert::{ConvertOptions, Outputs, Target, convert, keep_lod0};
pub use error::Error;
pub use formats::{FORMATS, by_name, detect as detect_format};
pub use input::{
    FolderSiblings, Opened, detect, load_model, open, open_listed, open_with, read_file, referenced_files,
};
pub use listed::{Listed, read_listfile};
pub use names::{file_name, stem};
pub use registry::{Kind, Registry};
#[cfg(feature = "gltf")]
pub use texture_convert::{TextureTarget, convert_texture, is_png, is_texture, read_image, write_image};

pub use relic_core::format::{Content, Detected, FormatEntry, FormatId, Listfile};
pub use relic_core::{Converted, Loss, Model};

/// The README's example, compiled and run as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctest;
