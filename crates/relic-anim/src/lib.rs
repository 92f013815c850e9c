//! relic-anim: makes the common model move.
//!
//! * [`sample`](relic_core::sample) (in relic-core) is the one interpolation implementation: step,
//!   linear with shortest-path **slerp** for rotations (glTF's LINEAR, and what the games do, so an
//!   export moves exactly like the original), glTF cubic Hermite; clamped, never extrapolated.
//! * [`affine`]: the 4×4 column layout shared by poses and the skinning loop.
//! * `lanes` (internal): four rotations slerped at once in SIMD lanes.
//! * `cursor` (internal): per-channel key cursors for sequential playback (no binary search per frame).
//! * [`pose`]: local transforms → model-space matrices (parents first, one pass) → skin matrices;
//!   clip and global-sequence clocks; the bones' flags (rotation-only, ignore parent
//!   translation/rotation/scale).
//! * [`skin`]: linear blend skinning of positions and normals with any number of influences, morph
//!   targets first, into caller buffers; a reference and a fast implementation.
//! * [`bounds`]: posed boxes and per-clip boxes; a whole-model skinner with reusable buffers.
//! * [`proofs`]: the real-data checks run by `cargo xtask corpus`.
//! * [`stated_boxes`]: a clip's stored box judged by the rule its exporter followed.
//!
//! ```
//! use relic_anim::pose::{ClipTime, Evaluator};
//! use relic_anim::bounds::ModelSkinner;
//! # let model = relic_core::Model::default();
//! # let animation = relic_core::model::Animation::default();
//! let mut evaluator = Evaluator::new(&model, &animation);
//! let mut skinner = ModelSkinner::new(&model);
//! for frame in 0..30 {
//!     let time = ClipTime::playing(&animation, frame as f32 / 30.0);
//!     let pose = evaluator.evaluate(time);
//!     skinner.skin(&model, pose, Some(&animation), time).unwrap();
//!     // skinner.positions[mesh] now holds the posed vertices
//! }
//! ```

pub mod affine;
pub mod bounds;
mod cursor;
mod lanes;
pub mod pose;
pub mod proofs;
pub mod skin;
pub mod stated_boxes;

pub use bounds::ModelSkinner;
pub use pose::{ClipTime, Evaluator, Pose};

/// The README's example, compiled and run as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctest;
