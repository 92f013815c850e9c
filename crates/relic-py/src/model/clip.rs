//! `relic.Clip`, `relic.Channel`, `relic.MorphChannel` and `relic.Event`.

use pyo3::prelude::*;
use pyo3::types::PyList;
use relic_core::model as ir;

use crate::buffer::{Array, Code};
use crate::model::{items, list_of, to_list, try_list_of};
use crate::names;

/// One animation clip (an ABC animation, an M2 sequence ``<id>.<variation>``, a NAD file).
#[pyclass(module = "relic")]
#[derive(Debug)]
pub(crate) struct Clip {
    /// The name.
    #[pyo3(get, set)]
    name: String,
    /// Length in seconds.
    #[pyo3(get, set)]
    duration: f32,
    /// Plays in a loop.
    #[pyo3(get, set)]
    looping: bool,
    /// Seconds over which the game blends into the clip.
    #[pyo3(get, set)]
    blend_in: f32,
    channels: Py<PyList>,
    morph_channels: Py<PyList>,
    events: Py<PyList>,
    /// The clip's bounding box as the file states it, ``((min x, y, z), (max x, y, z))``, or
    /// ``None``.
    #[pyo3(get, set)]
    bounds: Option<Box3>,
    /// Boxes the file states for moments of the clip (ABC v6: one a keyframe):
    /// ``[(time, (min…), (max…)), …]``, kept for writing back.
    #[pyo3(get, set)]
    key_bounds: Vec<TimedBox>,
}

/// A box: (min, max) corners.
type Box3 = ((f32, f32, f32), (f32, f32, f32));
/// A box at a moment: (time, min, max).
type TimedBox = (f32, (f32, f32, f32), (f32, f32, f32));

fn box3(b: &ir::Aabb) -> Box3 {
    (b.min.into(), b.max.into())
}

fn aabb((min, max): Box3) -> ir::Aabb {
    ir::Aabb { min: min.into(), max: max.into() }
}

impl Clip {
    pub(crate) fn from_ir(py: Python<'_>, a: &ir::Animation) -> PyResult<Self> {
        let channels = a.channels.iter().map(|c| Channel::from_ir(py, c));
        let morphs = a.morph_channels.iter().map(|c| MorphChannel::from_ir(py, c));
        let events = a.events.iter().map(Event::from_ir);
        Ok(Self {
            name: a.name.clone(),
            duration: a.duration,
            looping: a.looping,
            blend_in: a.blend_in,
            channels: try_list_of(py, channels)?,
            morph_channels: try_list_of(py, morphs)?,
            events: list_of(py, events)?,
            bounds: a.bounds.as_ref().map(box3),
            key_bounds: a
                .key_bounds
                .iter()
                .map(|k| {
                    let (min, max) = box3(&k.bounds);
                    (k.time, min, max)
                })
                .collect(),
        })
    }

    pub(crate) fn to_ir(&self, py: Python<'_>, field: &str) -> PyResult<ir::Animation> {
        let channels = items::<Channel>(py, &self.channels, &format!("{field}.channels"))?;
        let channels = channels
            .iter()
            .enumerate()
            .map(|(i, c)| c.to_ir(py, &format!("{field}.channels[{i}]")))
            .collect::<PyResult<_>>()?;
        let morphs = items::<MorphChannel>(py, &self.morph_channels, &format!("{field}.morph_channels"))?;
        let events = items::<Event>(py, &self.events, &format!("{field}.events"))?;
        Ok(ir::Animation {
            name: self.name.clone(),
            duration: self.duration,
            looping: self.looping,
            blend_in: self.blend_in,
            channels,
            morph_channels: morphs.iter().map(|m| m.to_ir(py)).collect::<PyResult<_>>()?,
            events: events.iter().map(|e| e.to_ir()).collect(),
            bounds: self.bounds.map(aabb),
            key_bounds: self
                .key_bounds
                .iter()
                .map(|&(time, min, max)| ir::KeyBounds { time, bounds: aabb((min, max)) })
                .collect(),
        })
    }
}

#[pymethods]
impl Clip {
    #[new]
    #[pyo3(signature = (name = String::new(), duration = 0.0, *, looping = true, channels = None))]
    fn new(
        py: Python<'_>,
        name: String,
        duration: f32,
        looping: bool,
        channels: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let mut clip = Self::from_ir(py, &ir::Animation { name, duration, looping, ..ir::Animation::default() })?;
        if let Some(c) = channels {
            clip.channels = to_list(c)?;
        }
        Ok(clip)
    }

    /// The bone channels: a list of :class:`Channel`.
    #[getter]
    fn channels(&self, py: Python<'_>) -> Py<PyList> {
        self.channels.clone_ref(py)
    }

    #[setter]
    fn set_channels(&mut self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        self.channels = to_list(value)?;
        Ok(())
    }

    /// Shape-key weight channels: a list of :class:`MorphChannel`.
    #[getter]
    fn morph_channels(&self, py: Python<'_>) -> Py<PyList> {
        self.morph_channels.clone_ref(py)
    }

    #[setter]
    fn set_morph_channels(&mut self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        self.morph_channels = to_list(value)?;
        Ok(())
    }

    /// Timed events (ABC key strings, NAD tags, M2 events): a list of :class:`Event`.
    #[getter]
    fn events(&self, py: Python<'_>) -> Py<PyList> {
        self.events.clone_ref(py)
    }

    #[setter]
    fn set_events(&mut self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        self.events = to_list(value)?;
        Ok(())
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!("Clip({:?}, {} s, {} channels)", self.name, self.duration, self.channels.bind(py).len())
    }
}

/// The keys of one bone property: ``times`` (seconds, ascending) and ``values`` (flat floats: 3 a
/// key for ``translation`` and ``scale``, 4 — a quaternion ``x, y, z, w`` — for ``rotation``; for
/// ``cubicspline``, three entries a key: in-tangent, value, out-tangent, as glTF orders them).
///
/// ``clock`` is ``None`` for the clip's own time, or the index of a global sequence
/// (``Model.global_sequences``) whose looping clock drives the channel (M2).
#[pyclass(module = "relic")]
#[derive(Debug)]
pub(crate) struct Channel {
    /// Index into ``Model.bones``.
    #[pyo3(get, set)]
    bone: usize,
    property: &'static str,
    interpolation: ir::Interpolation,
    /// ``None``: the clip's time; an index: that global sequence's clock.
    #[pyo3(get, set)]
    clock: Option<usize>,
    times: Array,
    values: Array,
}

impl Channel {
    fn from_ir(py: Python<'_>, c: &ir::Channel) -> PyResult<Self> {
        let values = match &c.values {
            ir::ChannelValues::Translation(v) | ir::ChannelValues::Scale(v) => Array::new(py, v, Code::F32)?,
            ir::ChannelValues::Rotation(v) => Array::new(py, v, Code::F32)?,
        };
        Ok(Self {
            bone: c.bone,
            property: c.values.property(),
            interpolation: c.interpolation,
            clock: match c.clock {
                ir::Clock::Animation => None,
                ir::Clock::Global(g) => Some(g),
            },
            times: Array::new(py, &c.times, Code::F32)?,
            values,
        })
    }

    fn to_ir(&self, py: Python<'_>, field: &str) -> PyResult<ir::Channel> {
        let flat: Vec<f32> = self.values.values(py)?;
        let width = names::property_width(self.property, field)?;
        if !flat.len().is_multiple_of(width) {
            return Err(crate::errors::invalid_model(
                py,
                &format!("{field}.values"),
                format!("{} floats is not a whole number of {width}-float {} keys", flat.len(), self.property),
            ));
        }
        Ok(ir::Channel {
            bone: self.bone,
            clock: self.clock.map_or(ir::Clock::Animation, ir::Clock::Global),
            interpolation: self.interpolation,
            times: self.times.values(py)?,
            values: names::channel_values(self.property, flat, field)?,
        })
    }
}

#[pymethods]
impl Channel {
    #[new]
    #[pyo3(signature = (bone, property, times, values, interpolation = "linear", clock = None))]
    fn new(
        bone: usize,
        property: &str,
        times: &Bound<'_, PyAny>,
        values: &Bound<'_, PyAny>,
        interpolation: &str,
        clock: Option<usize>,
    ) -> PyResult<Self> {
        let width = names::property_width(property, "property")?;
        Ok(Self {
            bone,
            property: match width {
                4 => "rotation",
                _ if property == "scale" => "scale",
                _ => "translation",
            },
            interpolation: names::parse_interpolation(interpolation, "interpolation")?,
            clock,
            times: Array::from_py(times, Code::F32, 1, "times")?,
            values: Array::from_py(values, Code::F32, width, "values")?,
        })
    }

    /// ``translation``, ``rotation`` or ``scale``.
    #[getter]
    fn property(&self) -> &'static str {
        self.property
    }

    /// ``step``, ``linear`` (rotations: spherical) or ``cubicspline``.
    #[getter]
    fn interpolation(&self) -> &'static str {
        names::interpolation(self.interpolation)
    }

    #[setter]
    fn set_interpolation(&mut self, value: &str) -> PyResult<()> {
        self.interpolation = names::parse_interpolation(value, "interpolation")?;
        Ok(())
    }

    /// Key times in seconds, ascending.
    #[getter]
    fn times<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.times.view(py)
    }

    #[setter]
    fn set_times(&mut self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        self.times = Array::from_py(value, Code::F32, 1, "times")?;
        Ok(())
    }

    /// The keyed values, flat (3 or 4 floats a key; three entries a key for ``cubicspline``).
    #[getter]
    fn values<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.values.view(py)
    }

    #[setter]
    fn set_values(&mut self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let width = names::property_width(self.property, "values")?;
        self.values = Array::from_py(value, Code::F32, width, "values")?;
        Ok(())
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "Channel(bone={}, {:?}, {:?}, {} keys)",
            self.bone,
            self.property,
            names::interpolation(self.interpolation),
            self.times.len(py)
        )
    }
}

/// The keys of a mesh's shape-key weights: ``times`` and ``weights`` (one a shape key a time).
#[pyclass(module = "relic")]
#[derive(Debug)]
pub(crate) struct MorphChannel {
    /// Index into ``Model.meshes``.
    #[pyo3(get, set)]
    mesh: usize,
    interpolation: ir::Interpolation,
    times: Array,
    weights: Array,
}

impl MorphChannel {
    fn from_ir(py: Python<'_>, c: &ir::MorphChannel) -> PyResult<Self> {
        Ok(Self {
            mesh: c.mesh,
            interpolation: c.interpolation,
            times: Array::new(py, &c.times, Code::F32)?,
            weights: Array::new(py, &c.weights, Code::F32)?,
        })
    }

    fn to_ir(&self, py: Python<'_>) -> PyResult<ir::MorphChannel> {
        Ok(ir::MorphChannel {
            mesh: self.mesh,
            interpolation: self.interpolation,
            times: self.times.values(py)?,
            weights: self.weights.values(py)?,
        })
    }
}

#[pymethods]
impl MorphChannel {
    #[new]
    #[pyo3(signature = (mesh, times, weights, interpolation = "linear"))]
    fn new(mesh: usize, times: &Bound<'_, PyAny>, weights: &Bound<'_, PyAny>, interpolation: &str) -> PyResult<Self> {
        Ok(Self {
            mesh,
            interpolation: names::parse_interpolation(interpolation, "interpolation")?,
            times: Array::from_py(times, Code::F32, 1, "times")?,
            weights: Array::from_py(weights, Code::F32, 1, "weights")?,
        })
    }

    /// ``step`` or ``linear``.
    #[getter]
    fn interpolation(&self) -> &'static str {
        names::interpolation(self.interpolation)
    }

    #[setter]
    fn set_interpolation(&mut self, value: &str) -> PyResult<()> {
        self.interpolation = names::parse_interpolation(value, "interpolation")?;
        Ok(())
    }

    /// Key times in seconds, ascending.
    #[getter]
    fn times<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.times.view(py)
    }

    #[setter]
    fn set_times(&mut self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        self.times = Array::from_py(value, Code::F32, 1, "times")?;
        Ok(())
    }

    /// The weights, key after key (one a shape key).
    #[getter]
    fn weights<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.weights.view(py)
    }

    #[setter]
    fn set_weights(&mut self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        self.weights = Array::from_py(value, Code::F32, 1, "weights")?;
        Ok(())
    }
}

/// Something that happens at a moment of a clip: an ABC key string, a NAD tag, an M2 event
/// (``$CSS``: a sound, at a bone).
#[pyclass(module = "relic")]
#[derive(Debug, Clone)]
pub(crate) struct Event {
    /// Seconds from the start of the clip.
    #[pyo3(get, set)]
    time: f32,
    /// What happens.
    #[pyo3(get, set)]
    name: String,
    /// The bone it happens at (M2), or ``None``.
    #[pyo3(get, set)]
    bone: Option<usize>,
    /// The position relative to that bone (M2), or ``None``.
    #[pyo3(get, set)]
    position: Option<(f32, f32, f32)>,
    /// An integer parameter (M2 event data, NAD tag type), or ``None``.
    #[pyo3(get, set)]
    parameter: Option<u32>,
}

impl Event {
    fn from_ir(e: &ir::Event) -> Self {
        Self {
            time: e.time,
            name: e.name.clone(),
            bone: e.bone,
            position: e.position.map(Into::into),
            parameter: e.parameter,
        }
    }

    fn to_ir(&self) -> ir::Event {
        ir::Event {
            time: self.time,
            name: self.name.clone(),
            bone: self.bone,
            position: self.position.map(Into::into),
            parameter: self.parameter,
        }
    }
}

#[pymethods]
impl Event {
    #[new]
    #[pyo3(signature = (name, time, *, bone = None, position = None, parameter = None))]
    fn new(
        name: String,
        time: f32,
        bone: Option<usize>,
        position: Option<(f32, f32, f32)>,
        parameter: Option<u32>,
    ) -> Self {
        Self { time, name, bone, position, parameter }
    }

    fn __repr__(&self) -> String {
        format!("Event({:?}, {})", self.name, self.time)
    }
}
