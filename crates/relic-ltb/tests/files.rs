//! Every real file parses and writes back byte for byte (the LZMA wrapper kept).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

#[test]
fn corpus_files_rewrite_byte_for_byte() {
    let Some(dir) = relic_testkit::corpus_dir("corpus_files_rewrite_byte_for_byte") else { return };
    let files = relic_testkit::files_in(&dir.join("ltb"));
    assert_eq!(files.len(), 12, "the corpus has 12 LTB files");
    for (name, bytes) in files {
        let file = relic_ltb::read(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        let out = relic_ltb::write(&file).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(out == bytes, "{name}: {} bytes written for {}", out.len(), bytes.len());
        let mut payload = file.clone();
        payload.wrapper = None;
        let plain = relic_ltb::write(&payload).unwrap();
        assert_eq!(relic_ltb::read(&plain).unwrap(), payload, "{name}");
        assert_eq!(file.recounted(), file.header.counts, "{name}");
    }
}

#[test]
fn corpus_models_pass_the_rest_pose_proof() {
    let Some(dir) = relic_testkit::corpus_dir("corpus_models_pass_the_rest_pose_proof") else { return };
    for (name, bytes) in relic_testkit::files_in(&dir.join("ltb")) {
        let model = relic_ltb::read_model(&bytes).unwrap();
        model.validate().unwrap_or_else(|e| panic!("{name}: {e}"));
        let proof = relic_anim::proofs::rest_pose(&model, 1e-3).unwrap_or_else(|e| panic!("{name}: {e}"));
        let fast = relic_anim::proofs::fast_matches_reference(&model, 1e-5).unwrap_or_else(|e| panic!("{name}: {e}"));
        println!(
            "{name}: {} bones, {} meshes, {} clips; {proof}; {fast}",
            model.bones.len(),
            model.meshes.len(),
            model.animations.len()
        );
    }
}

#[test]
fn corpus_files_pass_the_format_checks() {
    use relic_core::check::Status;
    let Some(dir) = relic_testkit::corpus_dir("corpus_files_pass_the_format_checks") else { return };
    let (mut files, mut passes) = (0, 0);
    for (name, bytes) in relic_testkit::files_in(&dir.join("ltb")) {
        let checks = relic_ltb::verify::corpus_checks(&bytes);
        let line: Vec<String> = checks.0.iter().map(ToString::to_string).collect();
        println!("{name}: {}", line.join("; "));
        assert!(checks.passed(), "{name}");
        // All seven checks ran; `rewrap` is a skip for an unwrapped file only, `animation-decode`
        // for a file without animations only.
        let names: Vec<&str> = checks.0.iter().map(|c| c.name.as_str()).collect();
        let all = ["parse", "rewrite", "rewrap", "header-counts", "ir-round-trip", "bind-pose", "animation-decode"];
        assert_eq!(names, all, "{name}");
        let file = relic_ltb::read(&bytes).unwrap();
        let (wrapped, animated) = (file.wrapper.is_some(), !file.animations.is_empty());
        let passed = checks.0.iter().filter(|c| c.status == Status::Pass).count();
        assert_eq!(passed, 5 + usize::from(wrapped) + usize::from(animated), "{name}: {line:?}");
        (files, passes) = (files + 1, passes + passed);
    }
    // MANIFEST.md: 12 LTB files, 9 of them LZMA-wrapped, 6 with animations: 12 × 5 + 9 + 6.
    assert_eq!((files, passes), (12, 75), "LTB files checked, checks passed");
}
