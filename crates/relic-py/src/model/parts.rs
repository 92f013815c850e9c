//! `relic.Attachment`, `relic.Emitter` and `relic.Records`.

use pyo3::prelude::*;
use relic_core::model as ir;

use crate::model::skeleton::Transform;
use crate::names;

/// A named point on a bone: an ABC socket, an M2 attachment (``id``: its slot).
#[pyclass(module = "relic")]
#[derive(Debug)]
pub(crate) struct Attachment {
    /// The name.
    #[pyo3(get, set)]
    name: String,
    /// The M2 attachment slot, or ``None``.
    #[pyo3(get, set)]
    id: Option<u32>,
    /// Index into ``Model.bones``.
    #[pyo3(get, set)]
    bone: usize,
    transform: Py<Transform>,
}

impl Attachment {
    pub(crate) fn from_ir(py: Python<'_>, a: &ir::Attachment) -> PyResult<Self> {
        Ok(Self { name: a.name.clone(), id: a.id, bone: a.bone, transform: Transform::py(py, &a.transform)? })
    }

    pub(crate) fn to_ir(&self, py: Python<'_>) -> ir::Attachment {
        ir::Attachment {
            name: self.name.clone(),
            id: self.id,
            bone: self.bone,
            transform: self.transform.borrow(py).to_ir(),
        }
    }
}

#[pymethods]
impl Attachment {
    #[new]
    #[pyo3(signature = (name, bone, transform = None, id = None))]
    fn new(
        py: Python<'_>,
        name: String,
        bone: usize,
        transform: Option<Py<Transform>>,
        id: Option<u32>,
    ) -> PyResult<Self> {
        let transform = match transform {
            Some(t) => t,
            None => Transform::py(py, &ir::Transform::IDENTITY)?,
        };
        Ok(Self { name, id, bone, transform })
    }

    /// The placement relative to the bone, a :class:`Transform`.
    #[getter]
    fn transform(&self, py: Python<'_>) -> Py<Transform> {
        self.transform.clone_ref(py)
    }

    #[setter]
    fn set_transform(&mut self, value: Py<Transform>) {
        self.transform = value;
    }

    fn __repr__(&self) -> String {
        format!("Attachment({:?}, bone={}, id={:?})", self.name, self.bone, self.id)
    }
}

/// A particle or ribbon emitter on a bone. ``name``, ``bone``, ``transform`` and ``size`` can be
/// changed; its animated parameters (``tracks``) are read-only views for viewers, and the
/// format's own record of it travels with it unchanged (``has_record``).
#[pyclass(module = "relic")]
#[derive(Debug)]
pub(crate) struct Emitter {
    /// The name.
    #[pyo3(get, set)]
    name: String,
    /// Index into ``Model.bones``.
    #[pyo3(get, set)]
    bone: usize,
    transform: Py<Transform>,
    /// Its base size in model units (a particle's largest size, a ribbon's height).
    #[pyo3(get, set)]
    size: f32,
    rest: ir::Emitter,
}

impl Emitter {
    pub(crate) fn from_ir(py: Python<'_>, e: &ir::Emitter) -> PyResult<Self> {
        Ok(Self {
            name: e.name.clone(),
            bone: e.bone,
            transform: Transform::py(py, &e.transform)?,
            size: e.size,
            rest: e.clone(),
        })
    }

    pub(crate) fn to_ir(&self, py: Python<'_>) -> ir::Emitter {
        ir::Emitter {
            name: self.name.clone(),
            bone: self.bone,
            transform: self.transform.borrow(py).to_ir(),
            size: self.size,
            ..self.rest.clone()
        }
    }
}

#[pymethods]
impl Emitter {
    /// ``particle`` or ``ribbon``.
    #[getter]
    fn kind(&self) -> &'static str {
        names::emitter_kind(self.rest.kind)
    }

    /// The placement relative to the bone in the rest pose, a :class:`Transform`.
    #[getter]
    fn transform(&self, py: Python<'_>) -> Py<Transform> {
        self.transform.clone_ref(py)
    }

    #[setter]
    fn set_transform(&mut self, value: Py<Transform>) {
        self.transform = value;
    }

    /// The game path of the texture it draws, or ``None``.
    #[getter]
    fn texture(&self) -> Option<String> {
        self.rest.texture.as_ref().map(|t| t.path.clone())
    }

    /// The animated parameters: a list of dicts with ``property``, ``clip`` (index into
    /// ``Model.clips`` or ``None``), ``clock``, ``interpolation``, ``times``, ``components`` and
    /// ``values`` (lists of floats).
    #[getter]
    fn tracks<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyList>> {
        let tracks = self.rest.tracks.iter().map(|t| {
            let d = pyo3::types::PyDict::new(py);
            d.set_item("property", &t.property)?;
            d.set_item("clip", t.animation)?;
            d.set_item(
                "clock",
                match t.clock {
                    ir::Clock::Animation => None,
                    ir::Clock::Global(g) => Some(g),
                },
            )?;
            d.set_item("interpolation", names::interpolation(t.interpolation))?;
            d.set_item("times", &t.times)?;
            d.set_item("components", t.components)?;
            d.set_item("values", &t.values)?;
            Ok(d)
        });
        pyo3::types::PyList::new(py, tracks.collect::<PyResult<Vec<_>>>()?)
    }

    /// Whether the source format's own record of the emitter travels with it.
    #[getter]
    fn has_record(&self) -> bool {
        self.rest.record.is_some()
    }

    fn __repr__(&self) -> String {
        format!("Emitter({:?}, {}, bone={})", self.name, names::emitter_kind(self.rest.kind), self.bone)
    }
}

/// The format's own records of what the common model does not describe (M2 lights, cameras and
/// layout; ABC child models; an LTB's file), carried unchanged so that saving back into the
/// format loses nothing. Opaque; ``to_json()`` gives them as the glTF export carries them, and
/// ``Records.from_json`` takes them back (a Blender add-on keeps them that way).
#[pyclass(module = "relic", frozen)]
#[derive(Debug, Clone)]
pub(crate) struct Records {
    pub(crate) extras: ir::FormatExtras,
}

#[pymethods]
impl Records {
    /// The format they belong to (``m2``, ``abc``, …).
    #[getter]
    fn format(&self) -> String {
        self.extras.format().as_str().to_string()
    }

    /// The records as JSON text, or ``None`` where the format has no JSON form.
    fn to_json(&self, py: Python<'_>) -> Option<String> {
        py.detach(|| self.extras.json())
    }

    /// Records of ``format`` from the JSON text ``to_json`` gave.
    #[staticmethod]
    fn from_json(py: Python<'_>, format: &str, text: String) -> PyResult<Self> {
        let id = relic_core::FormatId::parse(format).ok_or_else(|| {
            crate::errors::usage(py, format!("Records.from_json: {format:?} is not a format relic knows"))
        })?;
        Ok(Self { extras: ir::FormatExtras::from_json(id, text) })
    }

    fn __repr__(&self) -> String {
        format!("Records({:?})", self.extras.format().as_str())
    }
}
