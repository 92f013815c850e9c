//! Every real BLP of the shared corpus: parsed, written back byte for byte, every level decoded,
//! and the corpus checks of `src/verify/` passed.

use relic_testkit::corpus_dir;

/// The corpus BLPs (`specs/textures.md` §2.7, MANIFEST.md).
pub const CORPUS_BLPS: [&str; 12] = [
    "blp/dxt1a.blp",
    "blp/dxt5.blp",
    "blp/pala8.blp",
    "blp/raw.blp",
    "m2-wrath/RabbitSkin.blp",
    "wow-data/Interface/Buttons/WHITE8X8.blp",
    "wow-data/Interface/Buttons/YELLOWORANGE64.blp",
    "wow-data/Interface/Glues/Models/UI_RS_Orc/HelmPlate03_OrM.blp",
    "wow-data/Interface/Glues/Models/UI_RS_Orc/OrcMaleSkinArmor.blp",
    "wow-data/Interface/Glues/Models/UI_RS_Orc/ShoulderPlate03_OrM.blp",
    "wow-data/Interface/Glues/Models/UI_RS_Orc/axe.blp",
    "wow-data/Interface/Glues/Models/UI_RS_Orc/spike.blp",
];

#[test]
fn every_corpus_blp_passes_the_checks() {
    let Some(dir) = corpus_dir("every_corpus_blp_passes_the_checks") else { return };
    for rel in CORPUS_BLPS {
        let bytes = std::fs::read(dir.join(rel)).unwrap();
        let input = relic_core::format::Input::bytes_only(&bytes);
        let checks = relic_blp::verify::corpus_checks(&input);
        let line: Vec<String> = checks.0.iter().map(ToString::to_string).collect();
        println!("{rel}: {}", line.join("; "));
        assert!(checks.passed(), "{rel}: {line:?}");
        assert_eq!(checks.0.len(), 4, "{rel}: {line:?}");
    }
}
