//! What the test files share.

/// The corpus BLPs summarised in snapshots (`specs/textures.md` §2.7, MANIFEST.md; the tests of
/// `corpus.rs` take every BLP under the corpus).
pub(crate) const CORPUS_BLPS: [&str; 14] = [
    "blp1/colorJpg75Mip8Blp1.blp",
    "blp1/map101.blp",
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
