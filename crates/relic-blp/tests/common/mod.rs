//! What the test files share.

/// The corpus BLPs (`specs/textures.md` §2.7, MANIFEST.md).
pub(crate) const CORPUS_BLPS: [&str; 12] = [
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
