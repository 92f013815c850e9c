//! The skeleton: bones, their rest transforms, flags and billboarding.

use super::*;

/// Translation, rotation and scale, applied as `T · R · S`.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Transform {
    /// Translation.
    pub translation: [f32; 3],
    /// Unit quaternion `[x, y, z, w]`.
    pub rotation: [f32; 4],
    /// Per-axis scale.
    pub scale: [f32; 3],
}

impl Transform {
    /// No translation, no rotation, unit scale.
    pub const IDENTITY: Transform =
        Transform { translation: [0.0; 3], rotation: [0.0, 0.0, 0.0, 1.0], scale: [1.0; 3] };

    /// The transform as a matrix.
    pub fn to_matrix(&self) -> Mat4 {
        crate::math::from_trs(self.translation, self.rotation, self.scale)
    }
}

impl Default for Transform {
    fn default() -> Self {
        Self::IDENTITY
    }
}

/// One bone (LithTech node, WoW bone, Nod bone).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Bone {
    /// Name (generated as `bone_<i>` for formats without bone names).
    pub name: String,
    /// Index of the parent bone, always lower than this bone's index; `None` for a root.
    pub parent: Option<usize>,
    /// Rest (bind) pose relative to the parent.
    pub rest: Transform,
    /// Model-space bind transform (the global rest pose). Kept as the format stores or derives it,
    /// so that formats storing this matrix write it back exactly.
    pub bind_matrix: Mat4,
    /// Inverse of [`Bone::bind_matrix`], kept separately for formats that store the inverse (NOD).
    pub inverse_bind_matrix: Mat4,
    /// How the bone combines with its parent.
    pub flags: BoneFlags,
}

impl Default for Bone {
    fn default() -> Self {
        Self {
            name: String::new(),
            parent: None,
            rest: Transform::IDENTITY,
            bind_matrix: IDENTITY,
            inverse_bind_matrix: IDENTITY,
            flags: BoneFlags::default(),
        }
    }
}

/// How a bone's pose combines with its parent's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct BoneFlags {
    /// Inherit the parent's translation (M2 flag 0x1 clear).
    pub inherit_translation: bool,
    /// Inherit the parent's rotation (M2 flag 0x4 clear).
    pub inherit_rotation: bool,
    /// Inherit the parent's scale (M2 flag 0x2 clear).
    pub inherit_scale: bool,
    /// Take only rotation from animations; translation stays the rest translation (ABC node flag 0x2).
    pub rotation_only: bool,
    /// Turn to face the camera (M2 billboard flags).
    pub billboard: Billboard,
}

impl Default for BoneFlags {
    fn default() -> Self {
        Self {
            inherit_translation: true,
            inherit_rotation: true,
            inherit_scale: true,
            rotation_only: false,
            billboard: Billboard::None,
        }
    }
}

/// Camera-facing behaviour of a bone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Billboard {
    /// An ordinary bone.
    #[default]
    None,
    /// Always faces the camera.
    Spherical,
    /// Turns about its local X axis to face the camera.
    CylindricalX,
    /// Turns about its local Y axis.
    CylindricalY,
    /// Turns about its local Z axis.
    CylindricalZ,
}
