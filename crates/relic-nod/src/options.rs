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

use nalgebra::{Matrix3, Quaternion, UnitQuaternion};
use relic_core::math::{IDENTITY, Mat4};
use serde::{Deserialize, Serialize};

/// NOD version of Vampire: The Masquerade – Redemption 1.1, the only one documented.
pub const NOD_VERSION: u32 = 7;
/// NAD version, the only one documented.
pub const NAD_VERSION: u32 = 3;
/// Most bones a NOD may have (spec §2.1; vertex bone numbers are bytes, indices 0..63).
pub const MAX_BONES: usize = 64;
/// The engine's animation rate: NAD frame 30.0 is one second (spec §4.1).
pub const FRAMES_PER_SECOND: f32 = 30.0;
/// Frame → seconds (in f64, rounded once).
pub(crate) fn seconds(frame: f64) -> f32 {
    (frame / f64::from(FRAMES_PER_SECOND)) as f32
}

/// Seconds → frame (in f64, rounded once).
pub(crate) fn frame_of(time: f32) -> f32 {
    (f64::from(time) * f64::from(FRAMES_PER_SECOND)) as f32
}

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

impl MatrixLayout {
    /// Every layout.
    pub const ALL: [MatrixLayout; 3] = [MatrixLayout::H1, MatrixLayout::H2, MatrixLayout::H3];

    /// `(row, column)` of each of the 12 stored floats; column 3 is the translation.
    fn slots(self) -> [(usize, usize); 12] {
        match self {
            MatrixLayout::H1 => {
                [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2), (0, 3), (1, 3), (2, 3)]
            }
            MatrixLayout::H2 => {
                [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1), (0, 2), (1, 2), (2, 2), (0, 3), (1, 3), (2, 3)]
            }
            MatrixLayout::H3 => {
                [(0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, 1), (1, 2), (1, 3), (2, 0), (2, 1), (2, 2), (2, 3)]
            }
        }
    }

    /// The affine matrix (model → bone space, column-major) that 12 stored floats mean under this
    /// layout. Exact: a permutation of the floats.
    pub fn matrix(self, floats: &[f32; 12]) -> Mat4 {
        let mut m = IDENTITY;
        for (value, (r, c)) in floats.iter().zip(self.slots()) {
            if let Some(slot) = m.get_mut(c * 4 + r) {
                *slot = *value;
            }
        }
        m
    }

    /// The 12 floats that store `m` under this layout (the inverse of [`MatrixLayout::matrix`];
    /// the fourth row of `m` is not stored).
    pub fn floats(self, m: &Mat4) -> [f32; 12] {
        let slots = self.slots();
        // i < 12 = the slots' count and every slot is inside the 4 × 4 matrix: never taken.
        std::array::from_fn(|i| slots.get(i).and_then(|(r, c)| m.get(c * 4 + r)).copied().unwrap_or(0.0))
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

/// Group flags, bone number and mesh number as one reading of a group's tail gives them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TailFields {
    /// GroupFlags as stored (may be 0xCD fill, see [`TailFields::effective_flags`]).
    pub flags: u16,
    /// BoneNum: the bone a NOSKINNING group is rigid on.
    pub bone: u8,
    /// MeshNum: index into the mesh names.
    pub mesh: u8,
}

impl TailFields {
    /// The flags the mapping uses: the stored ones when plausible (≤ 0x000F), else none.
    pub fn effective_flags(&self) -> u16 {
        if self.flags <= MAX_PLAUSIBLE_GROUP_FLAGS { self.flags } else { 0 }
    }
}

impl GroupTail {
    /// Reads a group's bytes 22–27 under this layout.
    pub fn decode(self, tail: [u8; 6]) -> TailFields {
        let [t0, t1, t2, t3, t4, t5] = tail;
        match self {
            GroupTail::A => TailFields { flags: u16::from_le_bytes([t0, t1]), bone: t2, mesh: t3 },
            GroupTail::B => TailFields { flags: u16::from_le_bytes([t2, t3]), bone: t4, mesh: t5 },
        }
    }

    /// Offsets within the tail of the bone and mesh numbers.
    pub(crate) fn bone_mesh_offsets(self) -> (u64, u64) {
        match self {
            GroupTail::A => (2, 3),
            GroupTail::B => (4, 5),
        }
    }

    /// A tail that reads the same under both layouts for an ordinary skinned group (spec §2.7):
    /// A sees flags 0, bone 0, mesh `mesh`; B sees flags `mesh << 8` (implausible, so none),
    /// bone 0, mesh `mesh`.
    pub(crate) fn neutral(mesh: u8) -> [u8; 6] {
        [0, 0, 0, mesh, 0, mesh]
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

    /// The rotation of Euler angles `(about X, about Y, about Z)` in radians, applied in this
    /// order: later rotations act after earlier ones (`q ← r · q`).
    pub fn rotation(self, angles: [f64; 3]) -> UnitQuaternion<f64> {
        let mut q = UnitQuaternion::identity();
        for axis in self.axes() {
            let (sin, cos) = angles.get(axis).map_or((0.0, 1.0), |a| (a * 0.5).sin_cos());
            let part = |i: usize| if i == axis { sin } else { 0.0 };
            q = UnitQuaternion::new_unchecked(Quaternion::new(cos, part(0), part(1), part(2))) * q;
        }
        q
    }

    /// Euler angles `(about X, about Y, about Z)` in radians of a rotation for this order; the
    /// middle angle lies in [−π/2, π/2]. At gimbal lock the last angle is 0.
    pub fn angles(self, q: &UnitQuaternion<f64>) -> [f64; 3] {
        let m = rotation_block(q);
        let [i, j, k] = self.axes();
        // r, c are axes (< 3) of the 3 × 3 rotation block: never taken.
        let at = |r: usize, c: usize| m.get((r, c)).copied().unwrap_or(0.0);
        // +1 for the cyclic orders (xyz, yzx, zxy), −1 for the others.
        let s = if (j + 3 - i) % 3 == 1 { 1.0 } else { -1.0 };
        let sb = (-s * at(k, i)).clamp(-1.0, 1.0);
        let b = sb.asin();
        let (a, c) = if sb.abs() < 1.0 - 1e-12 {
            ((s * at(k, j)).atan2(at(k, k)), (s * at(j, i)).atan2(at(i, i)))
        } else {
            ((-s * at(j, k)).atan2(at(j, j)), 0.0)
        };
        self.place(a, b, c)
    }

    /// Of the two Euler triples that give the same rotation, each shifted by whole turns, the one
    /// closest to `previous` (keeps curves continuous from key to key).
    pub(crate) fn nearest(self, angles: [f64; 3], previous: [f64; 3]) -> [f64; 3] {
        use std::f64::consts::{PI, TAU};
        let [i, j, k] = self.axes();
        // axis < 3 (the layout's axes): never taken.
        let get = |axis: usize| angles.get(axis).copied().unwrap_or(0.0);
        let flipped = self.place(get(i) + PI, PI - get(j), get(k) + PI);
        let shift = |mut e: [f64; 3]| {
            for (x, p) in e.iter_mut().zip(previous) {
                *x += TAU * ((p - *x) / TAU).round();
            }
            e
        };
        let (a, b) = (shift(angles), shift(flipped));
        let dist = |e: &[f64; 3]| e.iter().zip(previous).map(|(x, p)| (x - p).abs()).sum::<f64>();
        if dist(&b) < dist(&a) { b } else { a }
    }

    /// `(about X, about Y, about Z)` from the angles of the first, second and third axis applied.
    fn place(self, first: f64, second: f64, third: f64) -> [f64; 3] {
        let [i, j, _] = self.axes();
        std::array::from_fn(|axis| {
            if axis == i {
                first
            } else if axis == j {
                second
            } else {
                third
            }
        })
    }
}

/// The rotation matrix of a quaternion, written out (`1 − s(y² + z²)`, … with `s = 2 / |q|²`) so
/// that Euler angles come out the same on every platform and version of nalgebra. Dividing by
/// `|q|²` keeps a quaternion that is unit only to f32 precision (every model rotation) from
/// skewing the matrix: near gimbal lock, where the middle angle is an arcsine close to ±1, a
/// skew of 10⁻⁷ would move the angles by hundredths of a degree.
fn rotation_block(q: &UnitQuaternion<f64>) -> Matrix3<f64> {
    let (x, y, z, w) = (q.i, q.j, q.k, q.w);
    let s = 2.0 / (x * x + y * y + z * z + w * w);
    Matrix3::new(
        1.0 - s * (y * y + z * z),
        s * (x * y - w * z),
        s * (x * z + w * y),
        s * (x * y + w * z),
        1.0 - s * (x * x + z * z),
        s * (y * z - w * x),
        s * (x * z - w * y),
        s * (y * z + w * x),
        1.0 - s * (x * x + y * y),
    )
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

    fn random_angles(rng: &mut relic_testkit::Rng) -> [f64; 3] {
        std::array::from_fn(|_| (rng.next_u64() % 100_000) as f64 / 100_000.0 * 6.0 - 3.0)
    }

    fn max_diff3(a: [f64; 3], b: [f64; 3]) -> f64 {
        a.iter().zip(&b).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max)
    }

    #[test]
    fn euler_round_trips_in_every_order() {
        let mut rng = relic_testkit::Rng::new(5);
        for order in EulerOrder::ALL {
            for n in 0..500 {
                let mut e = random_angles(&mut rng);
                if n % 50 == 0 {
                    // Gimbal lock.
                    let middle = order.axes()[1];
                    e[middle] = std::f64::consts::FRAC_PI_2 * if n % 100 == 0 { 1.0 } else { -1.0 };
                }
                let q = order.rotation(e);
                let back = order.rotation(order.angles(&q));
                assert!(q.angle_to(&back) < 1e-6, "{order:?} {e:?}: {}", q.angle_to(&back));
                let near = order.nearest(order.angles(&q), e);
                if n % 50 != 0 {
                    assert!(max_diff3(near, e) < 1e-6, "{order:?} {e:?} → {near:?}");
                }
            }
        }
    }

    #[test]
    fn euler_order_means_first_axis_first() {
        // xyz: rotate (1,0,0) by 90° about X (no change) then 90° about Z → (0,1,0).
        let h = std::f64::consts::FRAC_PI_2;
        let x = nalgebra::Vector3::x();
        let v = EulerOrder::Xyz.rotation([h, 0.0, h]) * x;
        assert!((v - nalgebra::Vector3::y()).norm() < 1e-12, "{v:?}");
        // zyx: 90° about Z first ((1,0,0) → (0,1,0)) then about X → (0,0,1).
        let v = EulerOrder::Zyx.rotation([h, 0.0, h]) * x;
        assert!((v - nalgebra::Vector3::z()).norm() < 1e-12, "{v:?}");
    }

    #[test]
    fn rotation_block_is_the_quaternion_rotation() {
        let q = EulerOrder::Yzx.rotation([0.3, -1.2, 2.0]);
        let diff = rotation_block(&q) - q.to_rotation_matrix().into_inner();
        assert!(diff.iter().all(|x| x.abs() < 1e-12), "{diff}");
    }

    /// Found by the generator: a model rotation (unit only to f32 precision) 0.0005° from gimbal
    /// lock came back from its Euler angles 0.16° off.
    #[test]
    fn euler_angles_of_a_nearly_unit_quaternion_near_gimbal_lock() {
        let q = [0.639_382_06_f32, 0.301_982_8, 0.639_38, -0.301_977_13].map(f64::from);
        let q = UnitQuaternion::new_unchecked(nalgebra::Quaternion::new(q[3], q[0], q[1], q[2]));
        assert!((q.norm() - 1.0).abs() > 1e-8, "the test needs a quaternion that is not quite unit");
        let back = EulerOrder::Xyz.rotation(EulerOrder::Xyz.angles(&q));
        let exact = UnitQuaternion::new_normalize(q.into_inner());
        assert!(exact.angle_to(&back) < 1e-6, "{}", exact.angle_to(&back));
    }
}
