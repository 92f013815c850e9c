//! The choices the spec leaves open, as explicit options.
//!
//! No real NOD or NAD file was available when this crate was written (spec §8), so every layout or
//! meaning that the public sources do not settle is a named option here, with the spec's working
//! assumption as the `#[default]` variant. Where the file itself can tell, [`Choice::Auto`] (the
//! default) runs a plausibility check per file and records which reading it took and why
//! ([`Decided`]); `relic info` prints that. The first real file settles each question by moving one
//! `#[default]` attribute (or by passing [`Choice::Fixed`]).
//!
//! | option | spec | default | decided per file by |
//! |---|---|---|---|
//! | [`MatrixLayout`] | §2.8 H1/H2/H3 | H1 | orthonormal 3×3 blocks (H3 vs H1/H2); origins vs `RestTranslate`, then bound vertices near their bone (H1 vs H2) |
//! | [`GroupTail`] | §2.7 A/B | B | mesh and bone indices in range; group flags ≤ 0xF |
//! | [`RestTranslateSpace`] | §3, §9.2 | parent | which space's bone origins `RestTranslate` matches |
//! | [`Winding`] | §2.6 | counter-clockwise | stored normals vs the faces' geometric normals |
//! | [`UvOrigin`] | §2.4 | top-left | — (no evidence in the file) |
//! | [`Polynomial`] | §4.1, §9.5 | ascending (`V + C·s + B·s² + A·s³`) | slope jumps at keys (smooth curves have none) |
//! | [`EulerOrder`] | §4.1, §9.6 | X then Y then Z | — (needs a known pose) |
//! | [`AngleUnit`] | §4.1 | degrees | — (`relic info` shows the largest angle) |

use std::fmt;

use serde::{Deserialize, Serialize};

/// NOD version of Vampire: The Masquerade – Redemption 1.1, the only one documented.
pub const NOD_VERSION: u32 = 7;
/// NAD version, the only one documented.
pub const NAD_VERSION: u32 = 3;
/// Most bones a NOD may have (spec §2.1; vertex bone numbers are bytes, indices 0..63).
pub const MAX_BONES: usize = 64;
/// The engine's animation rate: NAD frame 30.0 is one second (spec §4.1).
pub const FRAMES_PER_SECOND: f32 = 30.0;
/// A vertex weight at or above this binds the vertex to its bone alone (S4's threshold, spec §3).
pub const SINGLE_INFLUENCE_WEIGHT: f32 = 0.999_999;
/// Group flags above this are taken for the 0xCD fill that real files hold there, not flags
/// (spec §2.7: "never trust GroupFlags blindly").
pub const MAX_PLAUSIBLE_GROUP_FLAGS: u16 = 0x000F;

/// ModelFlags bit: the LOD collapse table is present.
pub const MODEL_HASLOD: u32 = 0x1;
/// ModelFlags bit: made from Embrace level-editor data.
pub const MODEL_INLINE: u32 = 0x2;
/// ModelFlags bit: no skeletal animation (rigid fast path).
pub const MODEL_STATIC: u32 = 0x4;

/// GroupFlags bit: the group has level-of-detail information.
pub const GROUP_HASLOD: u16 = 0x1;
/// GroupFlags bit: no weighted vertices (every weight counts as 1).
pub const GROUP_NOWEIGHTS: u16 = 0x2;
/// GroupFlags bit: per-vertex binding ignored, the whole group is rigid on the group's bone.
pub const GROUP_NOSKINNING: u16 = 0x4;
/// GroupFlags bit: multitexture vertices (unused in 1.1).
pub const GROUP_MULTITEXTURE: u16 = 0x8;

/// An option that the file can decide ([`Choice::Auto`], the default) or the caller fixes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Choice<T> {
    /// Run the plausibility check on each file; when it cannot tell, take `T::default()`.
    #[default]
    Auto,
    /// Always use this reading.
    Fixed(T),
}

/// How a per-file choice was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum How {
    /// The caller fixed it.
    Fixed,
    /// The plausibility check preferred it.
    Auto,
    /// The check could not tell the candidates apart: the working assumption (the default).
    Undecided,
}

/// A reading taken for one file, how it was taken and the figures behind it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Decided<T> {
    /// The reading used.
    pub value: T,
    /// Fixed, picked by the check, or the default because the check could not tell.
    pub how: How,
    /// The figures the check saw, one line.
    pub evidence: String,
}

impl<T: Copy> Decided<T> {
    /// A reading without any check (fixed by the caller, or taken from extras).
    pub fn fixed(value: T, evidence: impl Into<String>) -> Self {
        Self { value, how: How::Fixed, evidence: evidence.into() }
    }
}

impl<T: fmt::Display> fmt::Display for Decided<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let how = match self.how {
            How::Fixed => "fixed",
            How::Auto => "auto",
            How::Undecided => "undecided, working assumption",
        };
        if self.evidence.is_empty() {
            write!(f, "{} ({how})", self.value)
        } else {
            write!(f, "{} ({how}: {})", self.value, self.evidence)
        }
    }
}

/// Layout of the 12 floats of `RestMatrixInverse` ("Matrix34", spec §2.8). In every case the
/// matrix maps model space to bone space: `p_bone = R·p + t` (column vectors).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum MatrixLayout {
    /// Rows `(f0 f1 f2)`, `(f3 f4 f5)`, `(f6 f7 f8)`, then `t = (f9 f10 f11)` (S4 Noesis plug-in,
    /// the only reader that uses the rotations; spec's working hypothesis).
    #[default]
    H1,
    /// Columns `(f0 f1 f2)`, `(f3 f4 f5)`, `(f6 f7 f8)` (H1 transposed), `t = (f9 f10 f11)` (S7, S8).
    H2,
    /// Half-Life style `float[3][4]`: rows `(f0 f1 f2 | f3)`, `(f4 f5 f6 | f7)`, `(f8 f9 f10 | f11)` (S9).
    H3,
}

impl fmt::Display for MatrixLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MatrixLayout::H1 => "H1",
            MatrixLayout::H2 => "H2",
            MatrixLayout::H3 => "H3",
        })
    }
}

/// Meaning of the last 6 bytes (22–27) of a mesh-group record (spec §2.7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum GroupTail {
    /// Spec order: GroupFlags u16 at 22, BoneNum u8 at 24, MeshNum u8 at 25, 2 padding bytes.
    A,
    /// Freyja's: an unknown u16 at 22, GroupFlags u16 at 24, BoneNum u8 at 26, MeshNum u8 at 27
    /// (spec: "leaning B").
    #[default]
    B,
}

impl fmt::Display for GroupTail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GroupTail::A => "A",
            GroupTail::B => "B",
        })
    }
}

/// The space `RestTranslate` is given in (spec §3, §9.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum RestTranslateSpace {
    /// The bone's rest offset from its parent, in the parent's frame (S4, S7; the working reading).
    #[default]
    Parent,
    /// The bone's rest position in model space (one reading of the SDK's wording).
    Model,
}

impl fmt::Display for RestTranslateSpace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RestTranslateSpace::Parent => "parent",
            RestTranslateSpace::Model => "model",
        })
    }
}

/// Which winding faces the viewer in the NOD's right-handed frame (spec §2.6: not stated).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Winding {
    /// Counter-clockwise front faces, as the common model (kept as stored).
    #[default]
    CounterClockwise,
    /// Clockwise front faces (Direct3D's default): reversed into the model and back on write.
    Clockwise,
}

impl fmt::Display for Winding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Winding::CounterClockwise => "ccw",
            Winding::Clockwise => "cw",
        })
    }
}

/// Image origin of the stored UVs (spec §2.4, inferred from S4 vs S9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum UvOrigin {
    /// V = 0 is the top row (Direct3D, glTF): copied unchanged.
    #[default]
    TopLeft,
    /// V = 0 is the bottom row (OpenGL): flipped (`1 − v`; not bit-exact on the way back).
    BottomLeft,
}

impl fmt::Display for UvOrigin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            UvOrigin::TopLeft => "top-left",
            UvOrigin::BottomLeft => "bottom-left",
        })
    }
}

/// Which power each stored coefficient of a NAD key multiplies (spec §4.1, §9.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Polynomial {
    /// P1: `Value + CFactor·s + BFactor·s² + AFactor·s³` (storage order, as the later Ghost engine).
    #[default]
    Ascending,
    /// P2: `Value + AFactor·s + BFactor·s² + CFactor·s³` (the letters read as "a s³ + b s² + c s").
    Descending,
}

impl fmt::Display for Polynomial {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Polynomial::Ascending => "P1 v+Cs+Bs²+As³",
            Polynomial::Descending => "P2 v+As+Bs²+Cs³",
        })
    }
}

/// Order in which a NAD rotation key's three angles (about X, Y and Z, spec §4.1) are applied.
/// The stored vector is always `(about X, about Y, about Z)`; the order only says which rotation
/// acts first on a vector. `Xyz` means X first, then Y, then Z: `R = Rz·Ry·Rx` (column vectors),
/// Maya's default rotate order, the spec's guess.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum EulerOrder {
    /// `R = Rz·Ry·Rx`.
    #[default]
    Xyz,
    /// `R = Ry·Rz·Rx`.
    Xzy,
    /// `R = Rz·Rx·Ry`.
    Yxz,
    /// `R = Rx·Rz·Ry`.
    Yzx,
    /// `R = Ry·Rx·Rz`.
    Zxy,
    /// `R = Rx·Ry·Rz`.
    Zyx,
}

impl EulerOrder {
    /// Every order.
    pub const ALL: [EulerOrder; 6] =
        [EulerOrder::Xyz, EulerOrder::Xzy, EulerOrder::Yxz, EulerOrder::Yzx, EulerOrder::Zxy, EulerOrder::Zyx];

    /// Axes in application order (0 = X, 1 = Y, 2 = Z).
    pub fn axes(self) -> [usize; 3] {
        match self {
            EulerOrder::Xyz => [0, 1, 2],
            EulerOrder::Xzy => [0, 2, 1],
            EulerOrder::Yxz => [1, 0, 2],
            EulerOrder::Yzx => [1, 2, 0],
            EulerOrder::Zxy => [2, 0, 1],
            EulerOrder::Zyx => [2, 1, 0],
        }
    }
}

impl fmt::Display for EulerOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EulerOrder::Xyz => "xyz",
            EulerOrder::Xzy => "xzy",
            EulerOrder::Yxz => "yxz",
            EulerOrder::Yzx => "yzx",
            EulerOrder::Zxy => "zxy",
            EulerOrder::Zyx => "zyx",
        })
    }
}

/// Unit of NAD rotation angles (spec §4.1: degrees, from S4's working import).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum AngleUnit {
    /// Degrees.
    #[default]
    Degrees,
    /// Radians.
    Radians,
}

impl AngleUnit {
    /// Radians per stored unit.
    pub fn to_radians(self) -> f64 {
        match self {
            AngleUnit::Degrees => std::f64::consts::PI / 180.0,
            AngleUnit::Radians => 1.0,
        }
    }
}

impl fmt::Display for AngleUnit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            AngleUnit::Degrees => "degrees",
            AngleUnit::Radians => "radians",
        })
    }
}

/// How to read (and write back) a NOD where the spec is open.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct NodOptions {
    /// `RestMatrixInverse` layout (§2.8).
    pub matrix_layout: Choice<MatrixLayout>,
    /// Mesh-group bytes 22–27 (§2.7).
    pub group_tail: Choice<GroupTail>,
    /// Space of `RestTranslate` (§9.2).
    pub rest_translate: Choice<RestTranslateSpace>,
    /// Front-face winding (§2.6).
    pub winding: Choice<Winding>,
    /// UV origin (§2.4); not decidable from a file.
    pub uv_origin: UvOrigin,
}

/// How to read and write a NAD where the spec is open.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct NadOptions {
    /// Coefficient order (§9.5).
    pub polynomial: Choice<Polynomial>,
    /// Euler composition order (§9.6); not decidable from a file.
    pub euler_order: EulerOrder,
    /// Angle unit (§4.1).
    pub angle_unit: AngleUnit,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_working_assumptions() {
        assert_eq!(MatrixLayout::default(), MatrixLayout::H1);
        assert_eq!(GroupTail::default(), GroupTail::B);
        assert_eq!(Polynomial::default(), Polynomial::Ascending);
        assert_eq!(EulerOrder::default().axes(), [0, 1, 2]);
        assert_eq!(NodOptions::default().matrix_layout, Choice::Auto);
        let d = Decided { value: MatrixLayout::H2, how: How::Auto, evidence: "x".into() };
        assert_eq!(d.to_string(), "H2 (auto: x)");
    }
}
