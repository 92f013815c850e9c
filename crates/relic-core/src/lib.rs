//! relic-core: what the relic format crates share.
//!
//! * [`binary`]: the in-memory [`binary::Source`], bounded array readers that check every count
//!   against the bytes left before allocating, bulk readers for large arrays, strings, and a
//!   back-patching [`binary::ByteWriter`].
//! * [`error`]: typed read and write errors that name the byte offset and the field path.
//! * [`model`]: the common skeletal-mesh model ("IR") every format maps into and out of, and
//!   [`validate`]: the rules a model must satisfy before any writer accepts it.
//! * [`frame`]: the only place where game coordinate frames are converted to the model's.
//! * [`sample`]: the one implementation of keyframe interpolation (step, linear/slerp, cubic).
//! * [`rekey`]: a clip a tool baked, keyed again at a game file's stored key times (a fit).
//! * [`still`]: whether a model is still the one a game file maps to, but for an editor's noise
//!   (the file is then written back as it was).
//! * [`format`](mod@format): the registry entry every format crate provides ([`FormatEntry`]) and the
//!   [`FormatId`] that names a format without this crate knowing which formats exist.
//! * [`texture`]: decoded images and texture-codec options.
//! * [`info`]: the facts `relic info` shows for a file.
//! * [`math`], [`text`], [`check`], [`convert`]: small helpers (matrices, Windows-1252, corpus
//!   check results, conversion losses).
//!
//! # Design
//! Format crates (`relic-abc`, `relic-ltb`, `relic-m2`, `relic-nod`) declare their file layouts with binrw
//! derives on top of these primitives, parse from a byte slice, and convert to and from
//! [`model::Model`]. Nothing here knows any format.
//!
//! ```
//! use relic_core::binary::{parse, counted};
//! use binrw::BinRead;
//!
//! #[derive(BinRead)]
//! #[br(little)]
//! struct Table {
//!     count: u32,
//!     #[br(parse_with = counted, args(u64::from(count), 4))]
//!     values: Vec<u32>,
//! }
//!
//! // A hostile count is refused before anything is allocated for it:
//! let bytes = [0xFF, 0xFF, 0xFF, 0x7F, 1, 0, 0, 0];
//! let err = parse(&bytes, |s| Table::read(s)).err().unwrap();
//! assert_eq!(err.path, "values");
//! assert!(err.to_string().starts_with("values: count 2147483647 of 4-byte records"));
//! ```

pub mod base64;
pub mod binary;
pub mod check;
pub mod convert;
pub mod error;
pub mod format;
pub mod frame;
pub mod hash;
pub mod info;
pub mod math;
pub mod model;
#[cfg(feature = "serde")]
pub mod packed;
pub mod rekey;
pub mod sample;
pub mod still;
pub mod text;
pub mod texture;
pub mod validate;

pub use convert::{Converted, Loss, WriteOptions};
pub use error::{ReadError, ReadErrorKind, WriteError};
pub use format::{FormatEntry, FormatId};
pub use frame::Frame;
pub use info::{Fact, Info};
pub use model::Model;
pub use validate::ValidationError;

/// The README's example, compiled and run as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctest;
