//! What the test files share.

/// The corpus DTXs (`specs/textures.md` §1.8, MANIFEST.md).
pub(crate) const CORPUS_DTXS: [&str; 5] = [
    "dtx/JUGGERNAUT_PROJECTILE_A.dtx",
    "dtx/PARTNER_DANCIN.DTX",
    "dtx/PARTNER_DANCIN_HEAD.DTX",
    "dtx/Sreddr1.dtx",
    "dtx/hero_thief.dtx",
];
