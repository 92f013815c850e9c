//! `relic.Model`: the common model as Python objects, made from a file's model exactly and made
//! back into one exactly, so that an unedited model saves as the bytes it was read from and an
//! edited one carries its edits.
//!
//! Collections are Python lists kept on their owner (``model.meshes.append(…)``,
//! ``del model.clips[2]``); arrays are buffers ([`crate::buffer`]); what Python does not edit (a
//! format's own records, an emitter's record, the counts of the game file a glTF came from)
//! travels inside the objects unchanged.

mod clip;
mod material;
mod mesh;
mod parts;
mod skeleton;

use std::path::PathBuf;
use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::PyList;
use relic_core::model as ir;
use relic_core::texture::TextureSource;

pub(crate) use clip::{Channel, Clip, Event, MorphChannel};
pub(crate) use material::{Image, Material, Texture};
pub(crate) use mesh::{Mesh, MorphTarget};
pub(crate) use parts::{Attachment, Emitter, Records};

use crate::images::Assigned;
use crate::report::{Note, Saved};
pub(crate) use skeleton::{Bone, Transform};

/// A Python list of new objects of a class.
pub(crate) fn list_of<T, I>(py: Python<'_>, items: I) -> PyResult<Py<PyList>>
where
    T: pyo3::PyClass + Into<pyo3::PyClassInitializer<T>>,
    I: IntoIterator<Item = T>,
{
    let objects = items.into_iter().map(|item| Py::new(py, item)).collect::<PyResult<Vec<_>>>()?;
    Ok(PyList::new(py, objects)?.unbind())
}

/// [`list_of`] for constructors that can fail.
pub(crate) fn try_list_of<T, I>(py: Python<'_>, items: I) -> PyResult<Py<PyList>>
where
    T: pyo3::PyClass + Into<pyo3::PyClassInitializer<T>>,
    I: IntoIterator<Item = PyResult<T>>,
{
    list_of(py, items.into_iter().collect::<PyResult<Vec<T>>>()?)
}

/// A new list of the items of any iterable (what an assignment to a collection keeps).
pub(crate) fn to_list(value: &Bound<'_, PyAny>) -> PyResult<Py<PyList>> {
    Ok(value.py().import("builtins")?.getattr("list")?.call1((value,))?.cast_into::<PyList>()?.unbind())
}

/// The items of a collection, each of which must be a `T`; `field` names the collection.
pub(crate) fn items<'py, T: pyo3::PyClass>(
    py: Python<'py>,
    list: &Py<PyList>,
    field: &str,
) -> PyResult<Vec<PyRef<'py, T>>> {
    let list = list.bind(py).clone();
    list.iter()
        .enumerate()
        .map(|(i, item)| {
            item.extract::<PyRef<'py, T>>().map_err(|_| {
                let got = item.get_type().name().map(|n| n.to_string()).unwrap_or_default();
                pyo3::exceptions::PyTypeError::new_err(format!(
                    "{field}[{i}]: expected a relic.{} object, got {got}",
                    T::NAME
                ))
            })
        })
        .collect()
}

/// A skeletal model: bones, meshes, materials, clips, attachments and emitters, in the common
/// model's frame (right-handed, +Y up, metres as the game's units, seconds).
///
/// ``relic.open`` reads one from a file; ``Model()`` starts an empty one to build. ``save`` writes
/// it in any format relic writes: an unedited model back into its own format gives the bytes it
/// was read from; changes made here (positions, bones, keys, images, meshes added or removed)
/// are saved, and what the target format cannot hold is returned as notes.
#[pyclass(module = "relic")]
pub(crate) struct Model {
    /// The model's name (an M2's stored name, else the file's stem).
    #[pyo3(get, set)]
    name: String,
    bones: Py<PyList>,
    meshes: Py<PyList>,
    materials: Py<PyList>,
    clips: Py<PyList>,
    attachments: Py<PyList>,
    emitters: Py<PyList>,
    /// Durations in seconds of the independent looping clocks channels may run on (M2 global
    /// sequences).
    #[pyo3(get, set)]
    global_sequences: Vec<f32>,
    records: Option<Records>,
    /// The tints and UV animations, carried as read (not yet exposed to Python); those whose
    /// mesh or layer Python removed are dropped on the way back.
    surfaces: (Vec<ir::Tint>, Vec<ir::UvAnimation>),
    /// The lights, cameras and collision shapes, carried as read (not yet exposed to Python);
    /// those whose bone Python removed are dropped on the way back.
    scene: (Vec<ir::Light>, Vec<ir::Camera>, Vec<ir::CollisionShape>),
    source: Option<ir::SourceInfo>,
    original: Option<ir::Original>,
    notes: Vec<Note>,
    files: Vec<PathBuf>,
    textures: Option<Arc<dyn TextureSource>>,
    data_root: Option<PathBuf>,
}

impl Model {
    /// The Python model of `model`; its textures are found through `textures`.
    pub(crate) fn from_ir(
        py: Python<'_>,
        model: &ir::Model,
        textures: Option<Arc<dyn TextureSource>>,
        data_root: Option<PathBuf>,
    ) -> PyResult<Self> {
        let materials = model.materials.iter().enumerate().map(|(i, m)| Material::from_ir(py, m, i, textures.as_ref()));
        Ok(Self {
            name: model.name.clone(),
            bones: try_list_of(py, model.bones.iter().map(|b| Bone::from_ir(py, b)))?,
            meshes: try_list_of(py, model.meshes.iter().map(|m| Mesh::from_ir(py, m)))?,
            materials: try_list_of(py, materials)?,
            clips: try_list_of(py, model.animations.iter().map(|a| Clip::from_ir(py, a)))?,
            attachments: try_list_of(py, model.attachments.iter().map(|a| Attachment::from_ir(py, a)))?,
            emitters: try_list_of(py, model.emitters.iter().map(|e| Emitter::from_ir(py, e)))?,
            global_sequences: model.global_sequences.clone(),
            records: model.extras.clone().map(|extras| Records { extras }),
            surfaces: (model.tints.clone(), model.uv_animations.clone()),
            scene: (model.lights.clone(), model.cameras.clone(), model.collision_shapes.clone()),
            source: model.source,
            original: model.original.clone(),
            notes: Vec::new(),
            files: Vec::new(),
            textures,
            data_root,
        })
    }

    /// The common model these objects describe.
    pub(crate) fn to_ir(&self, py: Python<'_>) -> PyResult<ir::Model> {
        let bones = items::<Bone>(py, &self.bones, "bones")?;
        // A bone moved (or made here), or one it descends from, has its bind matrices derived
        // from the rest poses.
        let mut moved: Vec<bool> = Vec::with_capacity(bones.len());
        let mut globals: Vec<relic_core::math::Mat4> = Vec::with_capacity(bones.len());
        let mut ir_bones = Vec::with_capacity(bones.len());
        for bone in &bones {
            let parent = bone.parent().filter(|&p| p < moved.len());
            let local = bone.rest_ir(py).to_matrix();
            let global = match parent.and_then(|p| globals.get(p)) {
                Some(g) => relic_core::math::mul(g, &local),
                None => local,
            };
            let is_moved = bone.moved(py) || parent.and_then(|p| moved.get(p).copied()).unwrap_or(false);
            ir_bones.push(bone.to_ir(py, is_moved, global));
            moved.push(is_moved);
            globals.push(global);
        }
        let meshes = items::<Mesh>(py, &self.meshes, "meshes")?;
        let meshes =
            meshes.iter().enumerate().map(|(i, m)| m.to_ir(py, &format!("meshes[{i}]"))).collect::<PyResult<_>>()?;
        let materials = items::<Material>(py, &self.materials, "materials")?;
        let materials = materials
            .iter()
            .enumerate()
            .map(|(i, m)| m.to_ir(py, &format!("materials[{i}]")))
            .collect::<PyResult<_>>()?;
        let clips = items::<Clip>(py, &self.clips, "clips")?;
        let animations =
            clips.iter().enumerate().map(|(i, c)| c.to_ir(py, &format!("clips[{i}]"))).collect::<PyResult<_>>()?;
        let attachments = items::<Attachment>(py, &self.attachments, "attachments")?;
        let emitters = items::<Emitter>(py, &self.emitters, "emitters")?;
        let mut model = ir::Model {
            name: self.name.clone(),
            source: self.source,
            bones: ir_bones,
            meshes,
            materials,
            animations,
            global_sequences: self.global_sequences.clone(),
            attachments: attachments.iter().map(|a| a.to_ir(py)).collect(),
            emitters: emitters.iter().map(|e| e.to_ir(py)).collect(),
            tints: self.surfaces.0.clone(),
            uv_animations: self.surfaces.1.clone(),
            lights: self.scene.0.clone(),
            cameras: self.scene.1.clone(),
            collision_shapes: self.scene.2.clone(),
            extras: self.records.as_ref().map(|r| r.extras.clone()),
            original: self.original.clone(),
        };
        model.keep_surfaces_that_fit();
        model.keep_scene_that_fits();
        Ok(model)
    }

    /// The images assigned from Python, as the glTF import gives a glTF's images (the layer-0
    /// image of each material), and a texture source that answers with every assigned image
    /// before the model's own search.
    pub(crate) fn assigned_images(&self, py: Python<'_>) -> PyResult<Assigned> {
        let materials = items::<Material>(py, &self.materials, "materials")?;
        let mut assigned = Assigned { images: Vec::new(), fallback: self.textures.clone() };
        for (m, material) in materials.iter().enumerate() {
            for (layer, pixels, name) in material.assigned_images(py) {
                assigned.images.push((m, layer, pixels, name));
            }
        }
        Ok(assigned)
    }

    pub(crate) fn set_opened(&mut self, notes: Vec<Note>, files: Vec<PathBuf>) {
        self.notes = notes;
        self.files = files;
    }
}

#[pymethods]
impl Model {
    #[new]
    #[pyo3(signature = (name = String::new()))]
    fn new(py: Python<'_>, name: String) -> PyResult<Self> {
        Self::from_ir(py, &ir::Model { name, ..ir::Model::default() }, None, None)
    }

    /// The bones, parents first: a list of :class:`Bone`.
    #[getter]
    fn bones(&self, py: Python<'_>) -> Py<PyList> {
        self.bones.clone_ref(py)
    }

    #[setter]
    fn set_bones(&mut self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        self.bones = to_list(value)?;
        Ok(())
    }

    /// The meshes (every level of detail): a list of :class:`Mesh`.
    #[getter]
    fn meshes(&self, py: Python<'_>) -> Py<PyList> {
        self.meshes.clone_ref(py)
    }

    #[setter]
    fn set_meshes(&mut self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        self.meshes = to_list(value)?;
        Ok(())
    }

    /// The materials ``Mesh.material`` indexes: a list of :class:`Material`.
    #[getter]
    fn materials(&self, py: Python<'_>) -> Py<PyList> {
        self.materials.clone_ref(py)
    }

    #[setter]
    fn set_materials(&mut self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        self.materials = to_list(value)?;
        Ok(())
    }

    /// The animation clips: a list of :class:`Clip`.
    #[getter]
    fn clips(&self, py: Python<'_>) -> Py<PyList> {
        self.clips.clone_ref(py)
    }

    #[setter]
    fn set_clips(&mut self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        self.clips = to_list(value)?;
        Ok(())
    }

    /// Named points on bones (sockets, attachments): a list of :class:`Attachment`.
    #[getter]
    fn attachments(&self, py: Python<'_>) -> Py<PyList> {
        self.attachments.clone_ref(py)
    }

    #[setter]
    fn set_attachments(&mut self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        self.attachments = to_list(value)?;
        Ok(())
    }

    /// Particle and ribbon emitters: a list of :class:`Emitter`.
    #[getter]
    fn emitters(&self, py: Python<'_>) -> Py<PyList> {
        self.emitters.clone_ref(py)
    }

    #[setter]
    fn set_emitters(&mut self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        self.emitters = to_list(value)?;
        Ok(())
    }

    /// The format's own records (:class:`Records`), carried for an exact save back; ``None``
    /// for a model built in Python or read from a format without them.
    #[getter]
    fn records(&self) -> Option<Records> {
        self.records.clone()
    }

    #[setter]
    fn set_records(&mut self, value: Option<PyRef<'_, Records>>) {
        self.records = value.map(|r| r.clone());
    }

    /// The format the model was read from (``abc``, ``m2``, …), or ``None``.
    #[getter]
    fn format(&self) -> Option<String> {
        self.source.map(|s| s.format.as_str().to_string())
    }

    /// The version of that format, or ``None``.
    #[getter]
    fn version(&self) -> Option<u32> {
        self.source.map(|s| s.version)
    }

    /// The levels of detail the meshes have, ascending (``[0]`` for most models).
    #[getter]
    fn lods(&self, py: Python<'_>) -> PyResult<Vec<u32>> {
        let meshes = items::<Mesh>(py, &self.meshes, "meshes")?;
        let mut levels: Vec<u32> = meshes.iter().map(|m| m.lod()).collect();
        levels.sort_unstable();
        levels.dedup();
        Ok(levels)
    }

    /// What could not be read (a missing optional part), as :class:`Note` objects.
    #[getter]
    fn notes(&self) -> Vec<Note> {
        self.notes.clone()
    }

    /// The files the model was read from: its own, those beside it that its format read (an
    /// M2's ``.skin`` and ``.anim`` files) and the animation files played on it.
    #[getter]
    fn files(&self) -> Vec<String> {
        self.files.iter().map(|p| p.display().to_string()).collect()
    }

    /// The counts of the game file a glTF was exported from, as relic recorded them (``{"format":
    /// "m2", "version": 264, "counts": {...}}``), or ``None``: a save into that format is
    /// compared with them.
    #[getter]
    fn original<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, pyo3::types::PyDict>>> {
        let Some(o) = &self.original else { return Ok(None) };
        let d = pyo3::types::PyDict::new(py);
        d.set_item("format", &o.format)?;
        d.set_item("version", o.version)?;
        let counts = pyo3::types::PyDict::new(py);
        for (k, v) in &o.counts {
            counts.set_item(k, v)?;
        }
        d.set_item("counts", counts)?;
        Ok(Some(d))
    }

    /// A copy that shares nothing with this model.
    fn copy(&self, py: Python<'_>) -> PyResult<Model> {
        let model = self.to_ir(py)?;
        let mut copy = Model::from_ir(py, &model, self.textures.clone(), self.data_root.clone())?;
        copy.notes = self.notes.clone();
        copy.files = self.files.clone();
        Ok(copy)
    }

    /// Checks the model against the common model's rules (indices in range, weights summing
    /// to 1, key times ascending …) and raises :class:`relic.Invalid` naming the first problem.
    fn validate(&self, py: Python<'_>) -> PyResult<()> {
        let model = self.to_ir(py)?;
        model.validate().map_err(|e| crate::errors::invalid_model(py, &e.element, e.problem.to_string()))
    }

    /// Saves the model to ``path`` in ``format`` (default: from the path's extension), ``version``
    /// (default: the version it was read in, else the format's usual one). Files beside the
    /// output (an M2's ``.skin`` files, a glTF's ``.bin``, textures whose images were changed)
    /// are written too, each atomically; the files the model was read from are never written
    /// over. With ``strict``, nothing is written if the target cannot hold everything
    /// (:class:`relic.Unsupported`, whose ``notes`` say what). Returns a :class:`Saved`.
    #[pyo3(signature = (path, *, format = None, version = None, strict = false))]
    fn save(
        &self,
        py: Python<'_>,
        path: PathBuf,
        format: Option<&str>,
        version: Option<u32>,
        strict: bool,
    ) -> PyResult<Saved> {
        let request = crate::save::SaveRequest {
            model: self.to_ir(py)?,
            assigned: self.assigned_images(py)?,
            protected: self.files.clone(),
            data_root: self.data_root.clone(),
        };
        crate::save::save(py, request, &path, format, version, strict)
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "Model({:?}, {} bones, {} meshes, {} clips)",
            self.name,
            self.bones.bind(py).len(),
            self.meshes.bind(py).len(),
            self.clips.bind(py).len()
        )
    }
}

/// Every class of the model, for the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Model>()?;
    m.add_class::<Bone>()?;
    m.add_class::<Transform>()?;
    m.add_class::<Mesh>()?;
    m.add_class::<MorphTarget>()?;
    m.add_class::<Material>()?;
    m.add_class::<Texture>()?;
    m.add_class::<Image>()?;
    m.add_class::<Clip>()?;
    m.add_class::<Channel>()?;
    m.add_class::<MorphChannel>()?;
    m.add_class::<Event>()?;
    m.add_class::<Attachment>()?;
    m.add_class::<Emitter>()?;
    m.add_class::<Records>()?;
    Ok(())
}
