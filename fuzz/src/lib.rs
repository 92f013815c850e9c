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
//!   given that accepts it writes a file its own reader reads back into a valid model. Writers are
//!   formats of the registry (`relic::Registry`) at a version: [`writers`] of one format, or
//!   [`all_writers`], every version of every game format.

use std::fmt::Debug;

use relic::FormatEntry;
use relic_core::format::{Input, ModelCodec, Output, SiblingBytes, Written};
use relic_core::model::ChannelValues;
use relic_core::{Converted, Model, ReadError, WriteError, WriteOptions};
use relic_testkit::peak_allocation;

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

/// Panics unless `a` and `b` are equal (NaN-carrying values: equal Debug text, without what
/// their `PartialEq` leaves out: an M2 file's `AsRead`, the layout it was read with, whose size
/// a rewrite changes).
pub fn same<T: PartialEq + Debug>(what: &str, a: &T, b: &T) {
    if a != b {
        let (x, y) = (format!("{a:?}"), format!("{b:?}"));
        assert!(uncompared(&x) == uncompared(&y), "{what}: the re-parse differs\nfirst: {x}\nagain: {y}");
    }
}

/// Debug text without the parts `PartialEq` does not compare (`AsRead(…)`).
fn uncompared(debug: &str) -> String {
    let mut out = String::with_capacity(debug.len());
    let mut rest = debug;
    while let Some(at) = rest.find("AsRead(") {
        out.push_str(&rest[..at]);
        rest = rest[at..].find(')').map_or("", |end| &rest[at + end + 1..]);
    }
    out.push_str(rest);
    out
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

/// A registered format written at one version (`None`: the version it chooses), and read back by
/// the same format, as [`model_checks`] calls it.
#[derive(Clone, Copy)]
pub struct Writer {
    /// The format, from the registry.
    pub entry: &'static FormatEntry,
    /// The version asked for.
    pub version: Option<u32>,
}

impl Writer {
    /// Name in messages (`abc v6`, `m2`).
    pub fn name(&self) -> String {
        match self.version {
            Some(v) => format!("{} v{v}", self.entry.name),
            None => self.entry.name.to_string(),
        }
    }

    fn codec(&self) -> ModelCodec {
        self.entry.model.unwrap_or_else(|| panic!("{} writes no models", self.entry.name))
    }

    /// The model written (with the files beside it).
    pub fn write(&self, model: &Model) -> Result<Converted<Written>, WriteError> {
        (self.codec().write)(model, &WriteOptions { version: self.version }, &Output::named("fuzz"))
    }

    /// A written file read back, the files beside it as its siblings.
    pub fn read(&self, written: &Written) -> Result<Model, ReadError> {
        let siblings = written.siblings.iter().map(|s| (format!("fuzz{}", s.suffix), s.bytes.clone()));
        let siblings = SiblingBytes(siblings.collect());
        let name = format!("fuzz.{}", self.entry.name);
        (self.codec().read)(&Input { bytes: &written.bytes, name: &name, siblings: &siblings }).map(|c| c.value)
    }
}

/// The writers of the format registered as `name` (a per-format target names its own), at each of
/// `versions`.
pub fn writers(name: &str, versions: &[Option<u32>]) -> Vec<Writer> {
    let entry = relic::Registry::builtin().by_name(name).unwrap_or_else(|| panic!("no format {name} is registered"));
    versions.iter().map(|&version| Writer { entry, version }).collect()
}

/// Every version every game format of the registry writes (NAD is checked by the nod target on
/// its own).
pub fn all_writers() -> Vec<Writer> {
    let registry = relic::Registry::builtin();
    let games = registry.models().filter(|f| f.model.is_some_and(|m| m.records_original));
    games
        .flat_map(|entry| {
            let versions = entry.versions.write.iter().flat_map(|r| r.clone());
            versions.map(move |v| Writer { entry, version: Some(v) })
        })
        .collect()
}

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
        match w.write(model) {
            Ok(out) => {
                assert!(valid, "{}: wrote an invalid model ({:?})", w.name(), model.validate());
                let back =
                    w.read(&out.value).unwrap_or_else(|e| panic!("{}: the written file does not read: {e}", w.name()));
                // A re-read model must be valid too, except where the model's own matrices are
                // degenerate: finite but near-singular or beyond 1e18 (valid by `validate()`,
                // which checks finiteness only), whose derived rest transforms overflow on
                // re-reading. Every further writer refuses such a model (see fuzz/README.md).
                if let Err(e) = back.validate()
                    && !degenerate(model)
                {
                    panic!("{}: the written file reads as an invalid model: {e}", w.name());
                }
            }
            Err(WriteError::InvalidModel(_)) => {}
            Err(e) => assert!(valid, "{}: an invalid model was refused with {e}, not InvalidModel", w.name()),
        }
    }
}
