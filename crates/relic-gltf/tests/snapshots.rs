//! Snapshots of the export of every sample model: the document's shape (nodes, skins, meshes,
//! materials, channels), the losses reported, and a checksum of the binary buffer.

// Test helpers: a failure must stop the test loudly.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use relic_gltf::{ExportOptions, export, samples, summary};

#[derive(serde::Serialize)]
struct Snapshot {
    losses: Vec<String>,
    expectation: summary::Expectation,
    document: summary::Summary,
}

#[test]
fn export_summaries() {
    for (name, model) in samples::all() {
        let options = ExportOptions::default();
        let built = export::build(&model, &options, None).unwrap();
        let snapshot = Snapshot {
            losses: built.losses.iter().map(ToString::to_string).collect(),
            expectation: summary::expectation(&model, &options),
            document: summary::summarize(&built.value.root, &built.value.bin),
        };
        insta::assert_yaml_snapshot!(name, snapshot);
    }
}
