//! What every relic fuzz target checks, shared so that the four targets stay four lines each.
//!
//! A target reads one input with one format's readers; a panic, an allocation over the budget,
//! or a broken round trip is a crash (libFuzzer saves the input under `fuzz/artifacts/<target>/`),
//! and libFuzzer's `-timeout` turns a hang into one.
//!
//! * [`bounded`]: a reader runs under the counting allocator of `relic_testkit` and may hold
//!   at most [`budget`] bytes at once (16 × input + 1 MiB, the bar of the hostile tests).
//! * [`same`]: a re-parse must equal the first parse (format structs are `PartialEq`; NaN, which
//!   is unequal to itself, is compared through its Debug text).
//! * [`fixed_point`]: writing the re-parse gives the first write's bytes again.
//! * [`model_checks`]: a model that was read exports to glTF without panicking, and every writer
//!   given that accepts it writes a file its own reader reads back into a valid model.

use std::fmt::Debug;

use relic_core::model::ChannelValues;
use relic_testkit::peak_allocation;
use relic_core::{Converted, Model, ReadError, WriteError, WriteOptions};

/// The allocator every target installs (see the crate docs).
pub use relic_testkit::CountingAllocator;

/// Peak heap bytes a reader may hold for an input of `len` bytes.
pub fn budget(len: usize) -> usize {
    len.saturating_mul(16).saturating_add(1 << 20)
}

/// Runs `read` on `input` and panics if it held more than [`budget`] bytes at once.
pub fn bounded<T>(what: &str, input: &[u8], read: impl FnOnce(&[u8]) -> T) -> T {
    let (out, peak) = peak_allocation(|| read(input));
    let limit = budget(input.len());
    assert!(peak <= limit, "{what}: {peak} bytes at peak for a {}-byte input (budget {limit})", input.len());
    out
}

/// Panics unless `a` and `b` are equal (NaN-carrying values: equal Debug text).
pub fn same<T: PartialEq + Debug>(what: &str, a: &T, b: &T) {
    if a != b {
        let (x, y) = (format!("{a:?}"), format!("{b:?}"));
        assert!(x == y, "{what}: the re-parse differs\nfirst: {x}\nagain: {y}");
    }
}

/// Panics unless writing the re-parsed value (`second`) gave the same bytes as the first write:
/// after one round a writer must be a fixed point. This sees what [`same`] cannot, such as bytes
/// after a fixed-size name's NUL, which the Debug text of a name leaves out.
pub fn fixed_point<E: std::fmt::Display>(what: &str, first: &[u8], second: Result<Vec<u8>, E>) {
    match second {
        Ok(bytes) => assert!(bytes == first, "{what}: the second write differs from the first"),
        Err(e) => panic!("{what}: the re-parsed value does not write: {e}"),
    }
}

/// A format writer and its reader, as [`model_checks`] calls them.
#[derive(Clone, Copy)]
pub struct Writer {
    /// Name in messages (`abc v6`).
    pub name: &'static str,
    /// `write_model` of the format with fixed options.
    pub write: fn(&Model) -> Result<Converted<Vec<u8>>, WriteError>,
    /// `read_model` of the format.
    pub read: fn(&[u8]) -> Result<Model, ReadError>,
}

/// ABC version 6 (Shogo, Blood 2).
pub const ABC_V6: Writer = Writer {
    name: "abc v6",
    write: |m| relic_abc::write_model(m, &WriteOptions { version: Some(6) }),
    read: relic_abc::read_model,
};
/// ABC version 12 (NOLF, AvP2).
pub const ABC_V12: Writer = Writer {
    name: "abc v12",
    write: |m| relic_abc::write_model(m, &WriteOptions { version: Some(12) }),
    read: relic_abc::read_model,
};
/// ABC in the version the model came from (12 for foreign models).
pub const ABC_SAME: Writer =
    Writer { name: "abc", write: |m| relic_abc::write_model(m, &WriteOptions::default()), read: relic_abc::read_model };
/// M2 version 256 (Classic).
pub const M2_256: Writer = Writer {
    name: "m2 v256",
    write: |m| relic_m2::write_model(m, &WriteOptions { version: Some(256) }),
    read: relic_m2::read_model,
};
/// M2 version 263 (The Burning Crusade).
pub const M2_263: Writer = Writer {
    name: "m2 v263",
    write: |m| relic_m2::write_model(m, &WriteOptions { version: Some(263) }),
    read: relic_m2::read_model,
};
/// M2 in the version the model came from (256 for foreign models).
pub const M2_SAME: Writer =
    Writer { name: "m2", write: |m| relic_m2::write_model(m, &WriteOptions::default()), read: relic_m2::read_model };
/// NOD version 7.
pub const NOD: Writer =
    Writer { name: "nod", write: |m| relic_nod::write_model(m, &WriteOptions::default()), read: relic_nod::read_model };

/// LTB in the version the model came from (25 for foreign models).
pub const LTB_SAME: Writer =
    Writer { name: "ltb", write: |m| relic_ltb::write_model(m, &WriteOptions::default()), read: relic_ltb::read_model };
/// LTB model version 23 (64-byte OBBs).
pub const LTB_V23: Writer = Writer {
    name: "ltb v23",
    write: |m| relic_ltb::write_model(m, &WriteOptions { version: Some(23) }),
    read: relic_ltb::read_model,
};

/// Every writer relic has (NAD is checked by the nod target on its own).
pub const ALL_WRITERS: [Writer; 6] = [ABC_V6, ABC_V12, M2_256, M2_263, NOD, LTB_SAME];

/// True if a bone's matrices or rest transform hold values a format's derived math cannot carry:
/// beyond 1e18 in magnitude (matrices, rest transforms, positions, key times and values), or a
/// bind matrix whose stored inverse is not its inverse (to 1e-3).
pub fn degenerate(model: &Model) -> bool {
    const HUGE: f32 = 1e18;
    let huge = |v: &[f32]| v.iter().any(|x| x.abs() > HUGE);
    model.bones.iter().any(|b| {
        let product = relic_core::math::mul(&b.bind_matrix, &b.inverse_bind_matrix);
        let not_inverse = product.iter().zip(relic_core::math::IDENTITY).any(|(p, i)| {
            let off = (p - i).abs();
            off.is_nan() || off > 1e-3
        });
        huge(&b.bind_matrix)
            || huge(&b.inverse_bind_matrix)
            || huge(&b.rest.translation)
            || huge(&b.rest.scale)
            || not_inverse
    }) || model.meshes.iter().any(|m| m.positions.iter().any(|p| huge(p)))
        || model.animations.iter().flat_map(|a| &a.channels).any(|c| {
            huge(&c.times)
                || match &c.values {
                    ChannelValues::Translation(v) | ChannelValues::Scale(v) => v.iter().any(|x| huge(x)),
                    ChannelValues::Rotation(v) => v.iter().any(|x| huge(x)),
                }
        })
}

/// glTF export must not panic; each writer that accepts the model must produce a file its reader
/// reads back into a model that passes `validate()`. A writer must refuse an invalid model.
pub fn model_checks(model: &Model, writers: &[Writer]) {
    let valid = model.validate().is_ok();
    let _ = relic_gltf::export_glb(model, &relic_gltf::ExportOptions::default());
    for w in writers {
        match (w.write)(model) {
            Ok(out) => {
                assert!(valid, "{}: wrote an invalid model ({:?})", w.name, model.validate());
                let back =
                    (w.read)(&out.value).unwrap_or_else(|e| panic!("{}: the written file does not read: {e}", w.name));
                // A re-read model must be valid too, except where the model's own matrices are
                // degenerate: finite but near-singular or beyond 1e18 (valid by `validate()`,
                // which checks finiteness only), whose derived rest transforms overflow on
                // re-reading. Every further writer refuses such a model (see fuzz/README.md).
                if let Err(e) = back.validate()
                    && !degenerate(model)
                {
                    panic!("{}: the written file reads as an invalid model: {e}", w.name);
                }
            }
            Err(WriteError::InvalidModel(_)) => {}
            Err(e) => assert!(valid, "{}: an invalid model was refused with {e}, not InvalidModel", w.name),
        }
    }
}
