//! The MDL keywords of tracks, flags and enumerations (spec §8.4), shared by the writer and the
//! reader so that the two cannot disagree.

/// A record kind, for the tracks whose keyword depends on where they are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Owner {
    Node,
    Layer,
    TextureAnim,
    GeosetAnim,
    Light,
    Attachment,
    Emitter1,
    /// PREM's `Particle { }` block.
    Particle,
    Emitter2,
    Ribbon,
    Camera,
    /// A camera's `Target { }` block.
    Target,
}

/// Every (owner, tag, keyword) of the tracks MDL 800 names.
pub(crate) const TRACKS: &[(Owner, [u8; 4], &str)] = &[
    (Owner::Node, *b"KGTR", "Translation"),
    (Owner::Node, *b"KGRT", "Rotation"),
    (Owner::Node, *b"KGSC", "Scaling"),
    (Owner::Layer, *b"KMTF", "TextureID"),
    (Owner::Layer, *b"KMTA", "Alpha"),
    (Owner::TextureAnim, *b"KTAT", "Translation"),
    (Owner::TextureAnim, *b"KTAR", "Rotation"),
    (Owner::TextureAnim, *b"KTAS", "Scaling"),
    (Owner::GeosetAnim, *b"KGAO", "Alpha"),
    (Owner::GeosetAnim, *b"KGAC", "Color"),
    (Owner::Light, *b"KLAS", "AttenuationStart"),
    (Owner::Light, *b"KLAE", "AttenuationEnd"),
    (Owner::Light, *b"KLAC", "Color"),
    (Owner::Light, *b"KLAI", "Intensity"),
    (Owner::Light, *b"KLBI", "AmbIntensity"),
    (Owner::Light, *b"KLBC", "AmbColor"),
    (Owner::Light, *b"KLAV", "Visibility"),
    (Owner::Attachment, *b"KATV", "Visibility"),
    (Owner::Emitter1, *b"KPEE", "EmissionRate"),
    (Owner::Emitter1, *b"KPEG", "Gravity"),
    (Owner::Emitter1, *b"KPLN", "Longitude"),
    (Owner::Emitter1, *b"KPLT", "Latitude"),
    (Owner::Emitter1, *b"KPEV", "Visibility"),
    (Owner::Particle, *b"KPEL", "LifeSpan"),
    (Owner::Particle, *b"KPES", "InitVelocity"),
    (Owner::Emitter2, *b"KP2S", "Speed"),
    (Owner::Emitter2, *b"KP2R", "Variation"),
    (Owner::Emitter2, *b"KP2L", "Latitude"),
    (Owner::Emitter2, *b"KP2G", "Gravity"),
    (Owner::Emitter2, *b"KP2E", "EmissionRate"),
    (Owner::Emitter2, *b"KP2N", "Width"),
    (Owner::Emitter2, *b"KP2W", "Length"),
    (Owner::Emitter2, *b"KP2V", "Visibility"),
    (Owner::Ribbon, *b"KRHA", "HeightAbove"),
    (Owner::Ribbon, *b"KRHB", "HeightBelow"),
    (Owner::Ribbon, *b"KRAL", "Alpha"),
    (Owner::Ribbon, *b"KRCO", "Color"),
    (Owner::Ribbon, *b"KRTX", "TextureSlot"),
    (Owner::Ribbon, *b"KRVS", "Visibility"),
    (Owner::Camera, *b"KCTR", "Translation"),
    (Owner::Camera, *b"KCRL", "Rotation"),
    (Owner::Target, *b"KTTR", "Translation"),
];

/// The keyword of track `tag` in `owner`.
pub(crate) fn track_name(owner: Owner, tag: [u8; 4]) -> Option<&'static str> {
    TRACKS.iter().find(|(o, t, _)| *o == owner && *t == tag).map(|(_, _, n)| *n)
}

/// The tag of the track named `name` in `owner`.
pub(crate) fn track_tag(owner: Owner, name: &str) -> Option<[u8; 4]> {
    TRACKS.iter().find(|(o, _, n)| *o == owner && *n == name).map(|(_, t, _)| *t)
}

/// Interpolation keywords, by value.
pub(crate) const INTERPOLATION: [&str; 4] = ["DontInterp", "Linear", "Hermite", "Bezier"];

/// Node flags MDL names (besides `DontInherit { … }`, bits 0x1, 0x2, 0x4).
pub(crate) const NODE_FLAGS: &[(u32, &str)] = &[
    (0x8, "Billboarded"),
    (0x10, "BillboardedLockX"),
    (0x20, "BillboardedLockY"),
    (0x40, "BillboardedLockZ"),
    (0x80, "CameraAnchored"),
];

/// `DontInherit { … }` members (the MDL mapping every tool writes: Rotation ↔ 0x2, §4.4).
pub(crate) const DONT_INHERIT: &[(u32, &str)] = &[(0x1, "Translation"), (0x2, "Rotation"), (0x4, "Scaling")];

/// PREM flags.
pub(crate) const EMITTER1_FLAGS: &[(u32, &str)] = &[(0x8000, "EmitterUsesMDL"), (0x10000, "EmitterUsesTGA")];

/// PRE2 flags.
pub(crate) const EMITTER2_FLAGS: &[(u32, &str)] = &[
    (0x8000, "Unshaded"),
    (0x10000, "SortPrimsFarZ"),
    (0x20000, "LineEmitter"),
    (0x40000, "Unfogged"),
    (0x80000, "ModelSpace"),
    (0x100000, "XYQuad"),
];

/// Layer shading flags.
pub(crate) const LAYER_FLAGS: &[(u32, &str)] = &[
    (0x1, "Unshaded"),
    (0x2, "SphereEnvMap"),
    (0x10, "TwoSided"),
    (0x20, "Unfogged"),
    (0x40, "NoDepthTest"),
    (0x80, "NoDepthSet"),
];

/// Material flags.
pub(crate) const MATERIAL_FLAGS: &[(u32, &str)] =
    &[(0x1, "ConstantColor"), (0x8, "SortPrimsNearZ"), (0x10, "SortPrimsFarZ"), (0x20, "FullResolution")];

/// Layer filter modes, by value.
pub(crate) const FILTER_MODES: [&str; 7] =
    ["None", "Transparent", "Blend", "Additive", "AddAlpha", "Modulate", "Modulate2x"];

/// PRE2 filter modes, by value.
pub(crate) const EMITTER2_FILTER_MODES: [&str; 5] = ["Blend", "Additive", "Modulate", "Modulate2x", "AlphaKey"];

/// PRE2 head or tail, by value.
pub(crate) const HEAD_OR_TAIL: [&str; 3] = ["Head", "Tail", "Both"];

/// Light types, by value.
pub(crate) const LIGHT_TYPES: [&str; 3] = ["Omnidirectional", "Directional", "Ambient"];

/// Collision shape keywords, by type.
pub(crate) const SHAPES: [&str; 4] = ["Box", "Plane", "Sphere", "Cylinder"];

/// The static value the reader gives a property that MDL animates with a track (MDL holds one or
/// the other): 1 for alphas and the geoset colour, 0 otherwise. The writer reports a loss when
/// the MDX's static value beside a track is not this.
pub(crate) fn static_default(tag: [u8; 4]) -> f32 {
    if matches!(&tag, b"KMTA" | b"KGAO" | b"KGAC") { 1.0 } else { 0.0 }
}
