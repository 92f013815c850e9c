//! Between 256 and 263 only what the spec says differs may change (bone and submesh record sizes,
//! rotation key type, blend overrides): every count `relic info` shows is equal after a
//! conversion to each other pre-Wrath version and back, on every real file.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use relic_core::WriteOptions;
use relic_core::info::Fact;

fn counts(bytes: &[u8]) -> Vec<(&'static str, u64)> {
    let info = relic_m2::info(bytes).unwrap();
    info.facts.iter().filter_map(|(k, f)| if let Fact::Count(n) = f { Some((*k, *n)) } else { None }).collect()
}

#[test]
fn every_count_survives_a_trip_between_pre_wrath_versions() {
    let files = common::corpus_files();
    for (name, bytes) in &files {
        let before = counts(bytes);
        let model = relic_m2::read_model(bytes).unwrap();
        for version in [256, 257, 260, 261, 262, 263] {
            let there = relic_m2::write_model(&model, &WriteOptions { version: Some(version) }).unwrap();
            assert_eq!(counts(&there.value), before, "{name} → {version}: {:?}", there.losses);
            let back_model = relic_m2::read_model(&there.value).unwrap();
            let source = relic_m2::read(bytes).unwrap().version;
            let back = relic_m2::write_model(&back_model, &WriteOptions { version: Some(source) }).unwrap();
            assert_eq!(counts(&back.value), before, "{name} → {version} → {source}: {:?}", back.losses);
            // Only the blend overrides (absent before 260) may be reported lost.
            let unexpected: Vec<_> =
                there.losses.iter().chain(&back.losses).filter(|l| l.element != "blend overrides").collect();
            assert!(unexpected.is_empty(), "{name} → {version}: {unexpected:?}");
        }
    }
}
