//! What LithTech's file formats share, for the format crates that read them (`relic-ltb`,
//! `relic-dtx`; `relic-abc` can take the frame and the node-tree walk from here too):
//!
//! * [`lzma`]: the LZMA-alone wrapper CrossFire puts around its LTB models and DTX textures.
//! * [`frame`]: LithTech's model-space frame as a `relic_core::frame::Frame` constant.
//! * [`tree`]: node trees stored depth first as child counts (ABC v9–v13, LTB), both ways.

pub mod frame;
pub mod lzma;
pub mod tree;
