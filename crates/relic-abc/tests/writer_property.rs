//! The writer property on generated models (`relic_testkit::models`): a valid model the ABC
//! writer accepts (v6 and v12) re-reads into a valid model; a refusal is a typed error naming a
//! limit of the format, never `InvalidModel`; a model with one NaN or ±∞ is refused as invalid.

#![allow(clippy::unwrap_used, clippy::panic)]

use relic_core::WriteOptions;
use relic_testkit::models::check_writer;

fn property(version: u32, seed: u64) {
    let options = WriteOptions { version: Some(version) };
    let report =
        check_writer(seed, 300, |m| relic_abc::write_model(m, &options).map(|c| c.value), relic_abc::read_model);
    println!("ABC v{version}: {report:?}");
    assert!(report.failures.is_empty(), "{} failures:\n{}", report.failures.len(), report.failures.join("\n"));
    assert_eq!(report.poisoned, 300);
    assert!(report.written >= 200, "only {} of 300 written: {:?}", report.written, report.refusals);
}

#[test]
fn v6_writes_what_it_reads_back() {
    property(6, 0xABC6);
}

#[test]
fn v12_writes_what_it_reads_back() {
    property(12, 0xABC12);
}
