//! `relic.Transform` and `relic.Bone`.

use pyo3::prelude::*;
use relic_core::math::Mat4;
use relic_core::model as ir;

use crate::names::{self, floats};

/// Translation, rotation (a unit quaternion ``(x, y, z, w)``) and scale, applied as
/// translation × rotation × scale. In the common model's frame: right-handed, +Y up (glTF's).
#[pyclass(module = "relic")]
#[derive(Debug)]
pub(crate) struct Transform {
    /// ``(x, y, z)``.
    translation: [f32; 3],
    /// ``(x, y, z, w)``.
    rotation: [f32; 4],
    /// ``(x, y, z)``.
    scale: [f32; 3],
}

impl Transform {
    pub(crate) fn from_ir(t: &ir::Transform) -> Self {
        Self { translation: t.translation, rotation: t.rotation, scale: t.scale }
    }

    pub(crate) fn to_ir(&self) -> ir::Transform {
        ir::Transform { translation: self.translation, rotation: self.rotation, scale: self.scale }
    }

    /// A new Python object holding `t`.
    pub(crate) fn py(py: Python<'_>, t: &ir::Transform) -> PyResult<Py<Transform>> {
        Py::new(py, Self::from_ir(t))
    }
}

#[pymethods]
impl Transform {
    #[new]
    #[pyo3(signature = (translation = None, rotation = None, scale = None))]
    fn new(
        translation: Option<&Bound<'_, PyAny>>,
        rotation: Option<&Bound<'_, PyAny>>,
        scale: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let id = ir::Transform::IDENTITY;
        Ok(Self {
            translation: names::optional_floats(translation, "translation")?.unwrap_or(id.translation),
            rotation: names::optional_floats(rotation, "rotation")?.unwrap_or(id.rotation),
            scale: names::optional_floats(scale, "scale")?.unwrap_or(id.scale),
        })
    }

    /// ``(x, y, z)``.
    #[getter]
    fn translation(&self) -> (f32, f32, f32) {
        self.translation.into()
    }

    #[setter]
    fn set_translation(&mut self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        self.translation = floats(value, "translation")?;
        Ok(())
    }

    /// A unit quaternion ``(x, y, z, w)``.
    #[getter]
    fn rotation(&self) -> (f32, f32, f32, f32) {
        self.rotation.into()
    }

    #[setter]
    fn set_rotation(&mut self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        self.rotation = floats(value, "rotation")?;
        Ok(())
    }

    /// ``(x, y, z)``.
    #[getter]
    fn scale(&self) -> (f32, f32, f32) {
        self.scale.into()
    }

    #[setter]
    fn set_scale(&mut self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        self.scale = floats(value, "scale")?;
        Ok(())
    }

    /// The transform as a 4×4 matrix, 16 floats column after column.
    fn matrix(&self) -> Vec<f32> {
        self.to_ir().to_matrix().to_vec()
    }

    fn __eq__(&self, other: &Self) -> bool {
        self.to_ir() == other.to_ir()
    }

    fn __repr__(&self) -> String {
        format!("Transform(translation={:?}, rotation={:?}, scale={:?})", self.translation, self.rotation, self.scale)
    }
}

/// One bone of the skeleton (a LithTech node, a WoW bone, a Nod bone).
///
/// ``parent`` is the index of the parent bone in ``Model.bones`` (always lower than the bone's
/// own), ``None`` for a root. ``rest`` is the bind pose relative to the parent. ``bind_matrix``
/// is the model-space bind pose as the file stores or derives it (16 floats, column after column),
/// ``inverse_bind_matrix`` its inverse as stored: when a bone's rest pose or parent (or an
/// ancestor's) is changed and these are not assigned, saving derives them from the rest poses.
/// A bone made in Python has them derived.
#[pyclass(module = "relic")]
#[derive(Debug)]
pub(crate) struct Bone {
    /// The bone's name.
    #[pyo3(get, set)]
    name: String,
    /// Index of the parent bone, ``None`` for a root.
    #[pyo3(get, set)]
    parent: Option<usize>,
    rest: Py<Transform>,
    bind_matrix: Option<Mat4>,
    inverse_bind_matrix: Option<Mat4>,
    /// Inherits the parent's translation (M2 flag 0x1 clear).
    #[pyo3(get, set)]
    inherit_translation: bool,
    /// Inherits the parent's rotation (M2 flag 0x4 clear).
    #[pyo3(get, set)]
    inherit_rotation: bool,
    /// Inherits the parent's scale (M2 flag 0x2 clear).
    #[pyo3(get, set)]
    inherit_scale: bool,
    /// Takes only rotation from animations (ABC node flag 0x2).
    #[pyo3(get, set)]
    rotation_only: bool,
    billboard: ir::Billboard,
    /// The rest pose and parent as read, and whether the bind matrices were assigned since.
    opened: Option<(ir::Transform, Option<usize>)>,
    bind_assigned: bool,
}

impl Bone {
    pub(crate) fn from_ir(py: Python<'_>, b: &ir::Bone) -> PyResult<Self> {
        Ok(Self {
            name: b.name.clone(),
            parent: b.parent,
            rest: Transform::py(py, &b.rest)?,
            bind_matrix: Some(b.bind_matrix),
            inverse_bind_matrix: Some(b.inverse_bind_matrix),
            inherit_translation: b.flags.inherit_translation,
            inherit_rotation: b.flags.inherit_rotation,
            inherit_scale: b.flags.inherit_scale,
            rotation_only: b.flags.rotation_only,
            billboard: b.flags.billboard,
            opened: Some((b.rest, b.parent)),
            bind_assigned: false,
        })
    }

    /// The bone for the common model. `moved`: whether a bone before it that it descends from
    /// was moved (see [`Bone::moved`]); `global`: its model-space rest matrix from the rest poses.
    pub(crate) fn to_ir(&self, py: Python<'_>, moved: bool, global: Mat4) -> ir::Bone {
        let rest = self.rest.borrow(py).to_ir();
        let derive = moved && !self.bind_assigned;
        let bind_matrix = match self.bind_matrix {
            Some(m) if !derive => m,
            _ => global,
        };
        let inverse_bind_matrix = match self.inverse_bind_matrix {
            Some(m) if !derive => m,
            // A singular bind pose (a zero scale) has no inverse: the identity stands in, as the
            // glTF import makes it.
            _ => relic_core::math::inverse(&bind_matrix).unwrap_or(relic_core::math::IDENTITY),
        };
        ir::Bone {
            name: self.name.clone(),
            parent: self.parent,
            rest,
            bind_matrix,
            inverse_bind_matrix,
            flags: ir::BoneFlags {
                inherit_translation: self.inherit_translation,
                inherit_rotation: self.inherit_rotation,
                inherit_scale: self.inherit_scale,
                rotation_only: self.rotation_only,
                billboard: self.billboard,
            },
        }
    }

    /// Whether this bone's rest pose or parent differs from what was read (or it was made in
    /// Python and has no stored bind matrices).
    pub(crate) fn moved(&self, py: Python<'_>) -> bool {
        match (&self.opened, &self.bind_matrix) {
            (Some((rest, parent)), Some(_)) => *rest != self.rest.borrow(py).to_ir() || *parent != self.parent,
            _ => true,
        }
    }

    pub(crate) fn rest_ir(&self, py: Python<'_>) -> ir::Transform {
        self.rest.borrow(py).to_ir()
    }

    pub(crate) fn parent(&self) -> Option<usize> {
        self.parent
    }
}

/// 16 floats of a matrix, or `None`.
fn matrix(value: Option<&Bound<'_, PyAny>>, field: &str) -> PyResult<Option<Mat4>> {
    names::optional_floats::<16>(value, field)
}

#[pymethods]
impl Bone {
    #[new]
    #[pyo3(signature = (name = String::new(), parent = None, rest = None))]
    fn new(py: Python<'_>, name: String, parent: Option<usize>, rest: Option<Py<Transform>>) -> PyResult<Self> {
        let rest = match rest {
            Some(r) => r,
            None => Transform::py(py, &ir::Transform::IDENTITY)?,
        };
        let flags = ir::BoneFlags::default();
        Ok(Self {
            name,
            parent,
            rest,
            bind_matrix: None,
            inverse_bind_matrix: None,
            inherit_translation: flags.inherit_translation,
            inherit_rotation: flags.inherit_rotation,
            inherit_scale: flags.inherit_scale,
            rotation_only: flags.rotation_only,
            billboard: flags.billboard,
            opened: None,
            bind_assigned: false,
        })
    }

    /// The rest (bind) pose relative to the parent, a :class:`Transform` (changed in place or
    /// assigned).
    #[getter]
    fn rest(&self, py: Python<'_>) -> Py<Transform> {
        self.rest.clone_ref(py)
    }

    #[setter]
    fn set_rest(&mut self, value: Py<Transform>) {
        self.rest = value;
    }

    /// The model-space bind pose, 16 floats column after column; ``None`` where saving derives
    /// it from the rest poses.
    #[getter]
    fn bind_matrix(&self) -> Option<Vec<f32>> {
        self.bind_matrix.map(|m| m.to_vec())
    }

    #[setter]
    fn set_bind_matrix(&mut self, value: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        self.bind_matrix = matrix(value, "bind_matrix")?;
        self.bind_assigned = self.bind_matrix.is_some();
        Ok(())
    }

    /// The inverse of the bind pose as stored (16 floats), ``None`` where saving derives it.
    #[getter]
    fn inverse_bind_matrix(&self) -> Option<Vec<f32>> {
        self.inverse_bind_matrix.map(|m| m.to_vec())
    }

    #[setter]
    fn set_inverse_bind_matrix(&mut self, value: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        self.inverse_bind_matrix = matrix(value, "inverse_bind_matrix")?;
        self.bind_assigned = self.inverse_bind_matrix.is_some();
        Ok(())
    }

    /// Camera-facing behaviour: ``none``, ``spherical``, ``cylindrical_x``, ``cylindrical_y`` or
    /// ``cylindrical_z`` (M2 billboard flags).
    #[getter]
    fn billboard(&self) -> &'static str {
        names::billboard(self.billboard)
    }

    #[setter]
    fn set_billboard(&mut self, value: &str) -> PyResult<()> {
        self.billboard = names::parse_billboard(value, "billboard")?;
        Ok(())
    }

    fn __repr__(&self) -> String {
        format!("Bone({:?}, parent={:?})", self.name, self.parent)
    }
}
