//! `relic.Mesh` and `relic.MorphTarget`.

use pyo3::prelude::*;
use pyo3::types::PyList;
use relic_core::model as ir;

use crate::buffer::{Array, Code};
use crate::model::{items, to_list, try_list_of};

/// A triangle mesh with one material: one piece, submesh or geoset at one level of detail.
///
/// Its arrays are flat ``array.array`` objects of 32-bit floats (``'f'``) or integers (``'i'``),
/// read without a copy by NumPy, ``memoryview`` and Blender's ``foreach_set``, changed in place or
/// assigned (any buffer or sequence of the right numbers):
///
/// * ``positions``: 3 floats a vertex, bind pose, model space (right-handed, +Y up);
/// * ``normals``: 3 floats a vertex, or empty;
/// * ``uv_sets``: a list of 0 to 2 buffers of 2 floats a vertex (top-left image origin);
/// * ``indices``: 3 vertex indices a triangle, counter-clockwise front faces;
/// * ``skin_offsets``, ``joints``, ``weights``: bone influences — vertex ``v`` has the
///   influences ``skin_offsets[v]`` to ``skin_offsets[v + 1]`` (exclusive) of ``joints`` (bone
///   indices) and ``weights``; all three empty for a mesh no bone moves.
#[pyclass(module = "relic")]
#[derive(Debug)]
pub(crate) struct Mesh {
    /// The name (ABC piece, NOD mesh, ``geoset <id>`` for M2).
    #[pyo3(get, set)]
    name: String,
    /// Index into ``Model.materials``, or ``None``.
    #[pyo3(get, set)]
    material: Option<usize>,
    positions: Array,
    normals: Array,
    uv_sets: Py<PyList>,
    indices: Array,
    skin_offsets: Array,
    joints: Array,
    weights: Array,
    /// Level of detail: 0 is full detail.
    #[pyo3(get, set)]
    lod: u32,
    /// Camera distance from which this level is drawn (0 for level 0), in model units.
    #[pyo3(get, set)]
    lod_distance: f32,
    /// Part id (M2 geoset id: 0 body, 1xx hair, 5xx boots …), or ``None``.
    #[pyo3(get, set)]
    part_id: Option<u32>,
    morph_targets: Py<PyList>,
}

impl Mesh {
    pub(crate) fn from_ir(py: Python<'_>, m: &ir::Mesh) -> PyResult<Self> {
        let uv_sets: Vec<Bound<'_, PyAny>> =
            m.uv_sets.iter().map(|uv| Array::new(py, uv, Code::F32)?.view(py)).collect::<PyResult<_>>()?;
        let joints: Vec<u32> = m.skin.influences.iter().map(|i| i.bone).collect();
        let weights: Vec<f32> = m.skin.influences.iter().map(|i| i.weight).collect();
        let morphs = m.morph_targets.iter().map(|t| MorphTarget::from_ir(py, t));
        Ok(Self {
            name: m.name.clone(),
            material: m.material,
            positions: Array::new(py, &m.positions, Code::F32)?,
            normals: Array::new(py, &m.normals, Code::F32)?,
            uv_sets: PyList::new(py, uv_sets)?.unbind(),
            indices: Array::new(py, &m.triangles, Code::Index)?,
            skin_offsets: Array::new(py, &m.skin.offsets, Code::Index)?,
            joints: Array::new(py, &joints, Code::Index)?,
            weights: Array::new(py, &weights, Code::F32)?,
            lod: m.lod.level,
            lod_distance: m.lod.distance,
            part_id: m.part_id,
            morph_targets: try_list_of(py, morphs)?,
        })
    }

    /// The mesh for the common model; `field` names it in errors (`meshes[2]`).
    pub(crate) fn to_ir(&self, py: Python<'_>, field: &str) -> PyResult<ir::Mesh> {
        let uv_sets = self.uv_sets.bind(py).iter().enumerate().map(|(i, uv)| {
            let what = format!("{field}.uv_sets[{i}]");
            Array::from_py(&uv, Code::F32, 2, &what)?.elements::<f32, 2>(py, &what)
        });
        let joints: Vec<u32> = self.joints.values(py)?;
        let weights: Vec<f32> = self.weights.values(py)?;
        if joints.len() != weights.len() {
            return Err(crate::errors::invalid_model(
                py,
                &format!("{field}.joints"),
                format!("{} joints but {} weights: one weight a joint", joints.len(), weights.len()),
            ));
        }
        let influences = joints.into_iter().zip(weights).map(|(bone, weight)| ir::Influence { bone, weight }).collect();
        let morph_targets = items::<MorphTarget>(py, &self.morph_targets, &format!("{field}.morph_targets"))?;
        Ok(ir::Mesh {
            name: self.name.clone(),
            material: self.material,
            positions: self.positions.elements(py, &format!("{field}.positions"))?,
            normals: self.normals.elements(py, &format!("{field}.normals"))?,
            uv_sets: uv_sets.collect::<PyResult<_>>()?,
            skin: ir::Skin { offsets: self.skin_offsets.values(py)?, influences },
            triangles: self.indices.elements(py, &format!("{field}.indices"))?,
            lod: ir::Lod { level: self.lod, distance: self.lod_distance },
            part_id: self.part_id,
            morph_targets: morph_targets
                .iter()
                .enumerate()
                .map(|(i, t)| t.to_ir(py, &format!("{field}.morph_targets[{i}]")))
                .collect::<PyResult<_>>()?,
        })
    }

    /// The level of detail.
    pub(crate) fn lod(&self) -> u32 {
        self.lod
    }

    /// Number of vertices (positions).
    pub(crate) fn vertices(&self, py: Python<'_>) -> usize {
        self.positions.len(py) / 3
    }
}

#[pymethods]
impl Mesh {
    #[new]
    #[pyo3(signature = (name = String::new(), *, positions = None, indices = None, normals = None, uv_sets = None, material = None))]
    fn new(
        py: Python<'_>,
        name: String,
        positions: Option<&Bound<'_, PyAny>>,
        indices: Option<&Bound<'_, PyAny>>,
        normals: Option<&Bound<'_, PyAny>>,
        uv_sets: Option<&Bound<'_, PyAny>>,
        material: Option<usize>,
    ) -> PyResult<Self> {
        let mut mesh = Self::from_ir(py, &ir::Mesh { name, material, ..ir::Mesh::default() })?;
        if let Some(p) = positions {
            mesh.positions = Array::from_py(p, Code::F32, 3, "positions")?;
        }
        if let Some(i) = indices {
            mesh.indices = Array::from_py(i, Code::Index, 3, "indices")?;
        }
        if let Some(n) = normals {
            mesh.normals = Array::from_py(n, Code::F32, 3, "normals")?;
        }
        if let Some(uv) = uv_sets {
            mesh.set_uv_sets(uv)?;
        }
        Ok(mesh)
    }

    /// Positions: 3 floats a vertex.
    #[getter]
    fn positions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.positions.view(py)
    }

    #[setter]
    fn set_positions(&mut self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        self.positions = Array::from_py(value, Code::F32, 3, "positions")?;
        Ok(())
    }

    /// Unit normals: 3 floats a vertex, or empty.
    #[getter]
    fn normals<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.normals.view(py)
    }

    #[setter]
    fn set_normals(&mut self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        self.normals = Array::from_py(value, Code::F32, 3, "normals")?;
        Ok(())
    }

    /// Texture coordinates: a list of buffers, 2 floats a vertex each.
    #[getter]
    fn uv_sets(&self, py: Python<'_>) -> Py<PyList> {
        self.uv_sets.clone_ref(py)
    }

    #[setter]
    fn set_uv_sets(&mut self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let py = value.py();
        let views = to_list(value)?
            .bind(py)
            .iter()
            .enumerate()
            .map(|(i, uv)| Array::from_py(&uv, Code::F32, 2, &format!("uv_sets[{i}]"))?.view(py))
            .collect::<PyResult<Vec<_>>>()?;
        self.uv_sets = PyList::new(py, views)?.unbind();
        Ok(())
    }

    /// Triangles: 3 vertex indices each, counter-clockwise front faces.
    #[getter]
    fn indices<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.indices.view(py)
    }

    #[setter]
    fn set_indices(&mut self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        self.indices = Array::from_py(value, Code::Index, 3, "indices")?;
        Ok(())
    }

    /// Where each vertex's influences start in ``joints`` and ``weights``: vertex count + 1
    /// ascending offsets, or empty for a mesh no bone moves.
    #[getter]
    fn skin_offsets<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.skin_offsets.view(py)
    }

    #[setter]
    fn set_skin_offsets(&mut self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        self.skin_offsets = Array::from_py(value, Code::Index, 1, "skin_offsets")?;
        Ok(())
    }

    /// The bone (index into ``Model.bones``) of each influence.
    #[getter]
    fn joints<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.joints.view(py)
    }

    #[setter]
    fn set_joints(&mut self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        self.joints = Array::from_py(value, Code::Index, 1, "joints")?;
        Ok(())
    }

    /// The weight of each influence; a vertex's weights sum to 1.
    #[getter]
    fn weights<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.weights.view(py)
    }

    #[setter]
    fn set_weights(&mut self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        self.weights = Array::from_py(value, Code::F32, 1, "weights")?;
        Ok(())
    }

    /// Shape keys: a list of :class:`MorphTarget`.
    #[getter]
    fn morph_targets(&self, py: Python<'_>) -> Py<PyList> {
        self.morph_targets.clone_ref(py)
    }

    #[setter]
    fn set_morph_targets(&mut self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        self.morph_targets = to_list(value)?;
        Ok(())
    }

    /// Number of vertices.
    #[getter]
    fn vertex_count(&self, py: Python<'_>) -> usize {
        self.vertices(py)
    }

    /// Number of triangles.
    #[getter]
    fn triangle_count(&self, py: Python<'_>) -> usize {
        self.indices.len(py) / 3
    }

    /// Sets every vertex's influences from ``joints`` and ``weights`` with the same number of
    /// influences per vertex (``per_vertex``; glTF's 4, Blender's own lists): ``skin_offsets``
    /// becomes ``0, per_vertex, 2 × per_vertex, …``. Influences of weight 0 are dropped.
    #[pyo3(signature = (joints, weights, per_vertex = 4))]
    fn set_skin(
        &mut self,
        py: Python<'_>,
        joints: &Bound<'_, PyAny>,
        weights: &Bound<'_, PyAny>,
        per_vertex: usize,
    ) -> PyResult<()> {
        let joints: Vec<u32> = Array::from_py(joints, Code::Index, per_vertex.max(1), "joints")?.values(py)?;
        let weights: Vec<f32> = Array::from_py(weights, Code::F32, per_vertex.max(1), "weights")?.values(py)?;
        if joints.len() != weights.len() {
            return Err(crate::errors::usage(py, format!("{} joints but {} weights", joints.len(), weights.len())));
        }
        let vertices = joints.chunks(per_vertex.max(1)).zip(weights.chunks(per_vertex.max(1))).map(|(j, w)| {
            j.iter()
                .zip(w)
                .filter(|(_, w)| **w != 0.0)
                .map(|(&bone, &weight)| ir::Influence { bone, weight })
                .collect::<Vec<_>>()
        });
        let skin = ir::Skin::from_vertices(vertices);
        let (bones, weights): (Vec<u32>, Vec<f32>) = skin.influences.iter().map(|i| (i.bone, i.weight)).unzip();
        self.skin_offsets = Array::new(py, &skin.offsets, Code::Index)?;
        self.joints = Array::new(py, &bones, Code::Index)?;
        self.weights = Array::new(py, &weights, Code::F32)?;
        Ok(())
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "Mesh({:?}, {} vertices, {} triangles, lod={})",
            self.name,
            self.vertices(py),
            self.indices.len(py) / 3,
            self.lod
        )
    }
}

/// A shape key: per-vertex offsets from the mesh's bind pose (``position_deltas``, and
/// ``normal_deltas`` or empty: 3 floats a vertex each).
#[pyclass(module = "relic")]
#[derive(Debug)]
pub(crate) struct MorphTarget {
    /// The name.
    #[pyo3(get, set)]
    name: String,
    position_deltas: Array,
    normal_deltas: Array,
}

impl MorphTarget {
    fn from_ir(py: Python<'_>, t: &ir::MorphTarget) -> PyResult<Self> {
        Ok(Self {
            name: t.name.clone(),
            position_deltas: Array::new(py, &t.position_deltas, Code::F32)?,
            normal_deltas: Array::new(py, &t.normal_deltas, Code::F32)?,
        })
    }

    fn to_ir(&self, py: Python<'_>, field: &str) -> PyResult<ir::MorphTarget> {
        Ok(ir::MorphTarget {
            name: self.name.clone(),
            position_deltas: self.position_deltas.elements(py, &format!("{field}.position_deltas"))?,
            normal_deltas: self.normal_deltas.elements(py, &format!("{field}.normal_deltas"))?,
        })
    }
}

#[pymethods]
impl MorphTarget {
    #[new]
    #[pyo3(signature = (name = String::new(), position_deltas = None))]
    fn new(py: Python<'_>, name: String, position_deltas: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let mut target = Self::from_ir(py, &ir::MorphTarget { name, ..ir::MorphTarget::default() })?;
        if let Some(d) = position_deltas {
            target.position_deltas = Array::from_py(d, Code::F32, 3, "position_deltas")?;
        }
        Ok(target)
    }

    /// Position offsets: 3 floats a vertex.
    #[getter]
    fn position_deltas<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.position_deltas.view(py)
    }

    #[setter]
    fn set_position_deltas(&mut self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        self.position_deltas = Array::from_py(value, Code::F32, 3, "position_deltas")?;
        Ok(())
    }

    /// Normal offsets: 3 floats a vertex, or empty.
    #[getter]
    fn normal_deltas<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.normal_deltas.view(py)
    }

    #[setter]
    fn set_normal_deltas(&mut self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        self.normal_deltas = Array::from_py(value, Code::F32, 3, "normal_deltas")?;
        Ok(())
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!("MorphTarget({:?}, {} vertices)", self.name, self.position_deltas.len(py) / 3)
    }
}
