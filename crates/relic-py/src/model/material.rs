//! `relic.Material`, `relic.Texture` and `relic.Image`.

use std::sync::{Arc, OnceLock};

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};
use relic_core::model as ir;
use relic_core::texture::{DEFAULT_MAX_PIXELS, ImageData, Lookup, TextureSource};

use crate::model::{items, to_list};
use crate::names;

/// How a surface looks: its textures (base layer first), blending and sidedness.
#[pyclass(module = "relic")]
#[derive(Debug)]
pub(crate) struct Material {
    /// The name (M2: the texture's file stem; ABC ``material <i>``; NOD the material's name).
    #[pyo3(get, set)]
    name: String,
    textures: Py<PyList>,
    blend: ir::BlendMode,
    /// Draws back faces too.
    #[pyo3(get, set)]
    double_sided: bool,
    /// Not affected by lights.
    #[pyo3(get, set)]
    unlit: bool,
    /// Not affected by fog.
    #[pyo3(get, set)]
    unfogged: bool,
    /// Writes depth.
    #[pyo3(get, set)]
    depth_write: bool,
    /// For ``alpha_key``: the alpha below which a texel is not drawn (0–1), or ``None`` where
    /// the format does not say.
    #[pyo3(get, set)]
    alpha_cutoff: Option<f32>,
    /// ``(power, scale)`` of a specular highlight, or ``None``.
    #[pyo3(get, set)]
    specular: Option<(f32, f32)>,
}

/// A fixed texture-coordinate transform: (offset, rotation, scale).
type UvTransform = ((f32, f32), f32, (f32, f32));

/// Where a texture's pixels are found: the model's texture search (its folder, ``data``,
/// ``textures``, ``skins``) and the texture's place in the model.
#[derive(Clone)]
pub(crate) struct Found {
    pub(crate) source: Arc<dyn TextureSource>,
    pub(crate) material: usize,
    pub(crate) layer: usize,
}

impl std::fmt::Debug for Found {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Found(material {}, layer {})", self.material, self.layer)
    }
}

impl Material {
    pub(crate) fn from_ir(
        py: Python<'_>,
        m: &ir::Material,
        index: usize,
        source: Option<&Arc<dyn TextureSource>>,
    ) -> PyResult<Self> {
        let textures = m.textures.iter().enumerate().map(|(layer, t)| {
            let found = source.map(|s| Found { source: s.clone(), material: index, layer });
            Texture::from_ir(t, found)
        });
        Ok(Self {
            name: m.name.clone(),
            textures: crate::model::list_of(py, textures)?,
            blend: m.blend,
            double_sided: m.double_sided,
            unlit: m.unlit,
            unfogged: m.unfogged,
            depth_write: m.depth_write,
            alpha_cutoff: m.alpha_cutoff,
            specular: m.specular.map(|s| (s.power, s.scale)),
        })
    }

    pub(crate) fn to_ir(&self, py: Python<'_>, field: &str) -> PyResult<ir::Material> {
        let textures = items::<Texture>(py, &self.textures, &format!("{field}.textures"))?;
        Ok(ir::Material {
            name: self.name.clone(),
            textures: textures.iter().map(|t| t.to_ir()).collect(),
            blend: self.blend,
            double_sided: self.double_sided,
            unlit: self.unlit,
            unfogged: self.unfogged,
            depth_write: self.depth_write,
            alpha_cutoff: self.alpha_cutoff,
            specular: self.specular.map(|(power, scale)| ir::Specular { power, scale }),
        })
    }

    /// The images assigned from Python, by layer.
    pub(crate) fn assigned_images(&self, py: Python<'_>) -> Vec<(usize, relic_core::texture::Image, String)> {
        let mut out = Vec::new();
        for (layer, texture) in self.textures.bind(py).iter().enumerate() {
            let Ok(texture) = texture.extract::<PyRef<'_, Texture>>() else { continue };
            if let (true, Some(image)) = (texture.assigned, &texture.image) {
                let image = image.borrow(py);
                if let Ok(pixels) = image.pixels() {
                    out.push((layer, pixels.clone(), image.name.clone()));
                }
            }
        }
        out
    }
}

#[pymethods]
impl Material {
    #[new]
    #[pyo3(signature = (name = String::new(), textures = None))]
    fn new(py: Python<'_>, name: String, textures: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let mut material = Self::from_ir(py, &ir::Material { name, ..ir::Material::default() }, 0, None)?;
        if let Some(t) = textures {
            material.textures = to_list(t)?;
        }
        Ok(material)
    }

    /// The textures, base layer first: a list of :class:`Texture`.
    #[getter]
    fn textures(&self, py: Python<'_>) -> Py<PyList> {
        self.textures.clone_ref(py)
    }

    #[setter]
    fn set_textures(&mut self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        self.textures = to_list(value)?;
        Ok(())
    }

    /// How the surface combines with what is behind it: ``opaque``, ``alpha_key``, ``alpha``,
    /// ``add``, ``add_alpha``, ``modulate`` or ``modulate2x``.
    #[getter]
    fn blend(&self) -> &'static str {
        names::blend(self.blend)
    }

    #[setter]
    fn set_blend(&mut self, value: &str) -> PyResult<()> {
        self.blend = names::parse_blend(value, "blend")?;
        Ok(())
    }

    fn __repr__(&self) -> String {
        format!("Material({:?}, blend={:?})", self.name, names::blend(self.blend))
    }
}

/// A texture the game loads: its file as the model names it, and its image.
///
/// ``image`` is the :class:`Image` found the way the ``relic`` command finds it (beside the
/// model, under ``data`` folders, ``skins`` for LithTech models), read when first asked for;
/// ``None`` when no file was found (``image_note`` says where relic looked). Assigning an image
/// changes the texture: saving writes it as the game's texture file beside the model (BLP for an
/// M2, DTX for LithTech models) or embeds it in a glTF.
#[pyclass(module = "relic")]
#[derive(Debug)]
pub(crate) struct Texture {
    /// The game's path as stored (``CREATURE\GNOME\GNOMESKIN.BLP``); empty for a texture the
    /// game chooses at run time.
    #[pyo3(get, set)]
    path: String,
    /// M2 replaceable texture type (1 body, 2 cape, 11–13 creature skins …), or ``None``.
    #[pyo3(get, set)]
    replaceable: Option<u32>,
    /// The UV set used, ``None`` for environment mapping.
    #[pyo3(get, set)]
    uv_set: Option<u32>,
    /// Repeats horizontally.
    #[pyo3(get, set)]
    wrap_u: bool,
    /// Repeats vertically.
    #[pyo3(get, set)]
    wrap_v: bool,
    /// The LithTech skin slot the game fills at run time, or ``None``.
    #[pyo3(get, set)]
    slot: Option<u32>,
    /// A fixed transform of the coordinates ``((offset_u, offset_v), rotation, (scale_u,
    /// scale_v))``, or ``None``.
    #[pyo3(get, set)]
    transform: Option<UvTransform>,
    found: Option<Found>,
    image: Option<Py<Image>>,
    looked: bool,
    note: Option<String>,
    assigned: bool,
}

impl Texture {
    fn from_ir(t: &ir::TextureRef, found: Option<Found>) -> Self {
        Self {
            path: t.path.clone(),
            replaceable: t.replaceable,
            uv_set: t.uv_set,
            wrap_u: t.wrap_u,
            wrap_v: t.wrap_v,
            slot: t.slot,
            transform: t.transform.map(|x| ((x.offset[0], x.offset[1]), x.rotation, (x.scale[0], x.scale[1]))),
            found,
            image: None,
            looked: false,
            note: None,
            assigned: false,
        }
    }

    fn to_ir(&self) -> ir::TextureRef {
        ir::TextureRef {
            path: self.path.clone(),
            replaceable: self.replaceable,
            uv_set: self.uv_set,
            wrap_u: self.wrap_u,
            wrap_v: self.wrap_v,
            slot: self.slot,
            transform: self.transform.map(|((u, v), rotation, (su, sv))| ir::UvTransform {
                offset: [u, v],
                rotation,
                scale: [su, sv],
            }),
        }
    }

    /// Looks the image up once.
    fn look(&mut self, py: Python<'_>) -> PyResult<()> {
        if self.looked {
            return Ok(());
        }
        self.looked = true;
        let Some(found) = self.found.clone() else {
            self.note = Some("the model was not opened from a file: no texture search".into());
            return Ok(());
        };
        let reference = self.to_ir();
        let lookup = py.detach(|| found.source.lookup(found.material, found.layer, &reference));
        match lookup {
            Lookup::Found(t) => {
                let image = match t.data {
                    ImageData::Rgba(pixels) => Image::from_pixels(t.name, pixels),
                    ImageData::Png(bytes) => Image::from_encoded(t.name, bytes, "image/png"),
                    ImageData::Jpeg(bytes) => Image::from_encoded(t.name, bytes, "image/jpeg"),
                };
                self.image = Some(Py::new(py, image)?);
            }
            Lookup::Missing(why) | Lookup::Failed(why) => self.note = Some(why),
        }
        Ok(())
    }
}

#[pymethods]
impl Texture {
    #[new]
    #[pyo3(signature = (path = String::new(), *, image = None, uv_set = Some(0), replaceable = None, slot = None))]
    fn new(
        path: String,
        image: Option<Py<Image>>,
        uv_set: Option<u32>,
        replaceable: Option<u32>,
        slot: Option<u32>,
    ) -> Self {
        let reference =
            ir::TextureRef { path, uv_set, replaceable, slot, wrap_u: true, wrap_v: true, ..Default::default() };
        let mut texture = Self::from_ir(&reference, None);
        texture.looked = true;
        texture.assigned = image.is_some();
        texture.image = image;
        texture
    }

    /// The image (:class:`Image`), found and read when first asked for; ``None`` if none was
    /// found (see ``image_note``).
    #[getter]
    fn image(&mut self, py: Python<'_>) -> PyResult<Option<Py<Image>>> {
        self.look(py)?;
        Ok(self.image.as_ref().map(|i| i.clone_ref(py)))
    }

    #[setter]
    fn set_image(&mut self, value: Option<Py<Image>>) {
        self.looked = true;
        self.assigned = value.is_some();
        self.image = value;
        self.note = None;
    }

    /// Why there is no image (where relic looked, or why the file did not decode), else
    /// ``None``.
    #[getter]
    fn image_note(&mut self, py: Python<'_>) -> PyResult<Option<String>> {
        self.look(py)?;
        Ok(self.note.clone())
    }

    /// Whether ``image`` was assigned from Python (saved as a new texture).
    #[getter]
    fn image_changed(&self) -> bool {
        self.assigned
    }

    fn __repr__(&self) -> String {
        format!("Texture({:?}, replaceable={:?}, slot={:?})", self.path, self.replaceable, self.slot)
    }
}

/// An image: its pixels as RGBA bytes (``rgba``, rows top first) and as a PNG file (``png``),
/// each made from the other when first asked for.
#[pyclass(module = "relic", frozen)]
pub(crate) struct Image {
    /// The name (the texture's file name, ``GnomeSkin.blp``).
    #[pyo3(get)]
    name: String,
    pixels: OnceLock<Result<relic_core::texture::Image, String>>,
    encoded: OnceLock<(Vec<u8>, &'static str)>,
}

impl std::fmt::Debug for Image {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Image({:?})", self.name)
    }
}

impl Image {
    pub(crate) fn from_pixels(name: String, pixels: relic_core::texture::Image) -> Self {
        let cell = OnceLock::new();
        let _ = cell.set(Ok(pixels));
        Self { name, pixels: cell, encoded: OnceLock::new() }
    }

    fn from_encoded(name: String, bytes: Vec<u8>, mime: &'static str) -> Self {
        let cell = OnceLock::new();
        let _ = cell.set((bytes, mime));
        Self { name, pixels: OnceLock::new(), encoded: cell }
    }

    /// The decoded pixels, or why they cannot be had.
    pub(crate) fn pixels(&self) -> Result<&relic_core::texture::Image, String> {
        let decoded = self.pixels.get_or_init(|| match self.encoded.get() {
            Some((bytes, "image/png")) => relic_gltf::textures::decode_png(bytes, DEFAULT_MAX_PIXELS),
            Some((_, mime)) => Err(format!("{mime} images are embedded as they are, not decoded")),
            None => Err("no pixels".into()),
        });
        decoded.as_ref().map_err(Clone::clone)
    }

    fn encoded(&self) -> Result<&(Vec<u8>, &'static str), String> {
        if let Some(e) = self.encoded.get() {
            return Ok(e);
        }
        let png = relic_gltf::textures::encode_png(self.pixels()?)?;
        Ok(self.encoded.get_or_init(|| (png, "image/png")))
    }
}

#[pymethods]
impl Image {
    /// An image of ``width`` × ``height`` pixels from ``rgba`` (4 bytes a pixel, rows top
    /// first).
    #[new]
    #[pyo3(signature = (width, height, rgba, name = String::new()))]
    fn new(py: Python<'_>, width: u32, height: u32, rgba: &Bound<'_, PyAny>, name: String) -> PyResult<Self> {
        let rgba: Vec<u8> = py.import("builtins")?.getattr("bytes")?.call1((rgba,))?.extract()?;
        let pixels = relic_core::texture::Image { width, height, rgba };
        if !pixels.is_well_formed() {
            return Err(crate::errors::usage(
                py,
                format!(
                    "Image: {} bytes of RGBA for {width} × {height} pixels (needs {})",
                    pixels.rgba.len(),
                    u64::from(width) * u64::from(height) * 4
                ),
            ));
        }
        Ok(Self::from_pixels(name, pixels))
    }

    /// An image read from a PNG file's bytes.
    #[staticmethod]
    #[pyo3(signature = (data, name = String::new()))]
    fn from_png(py: Python<'_>, data: &[u8], name: String) -> PyResult<Self> {
        let image = Self::from_encoded(name, data.to_vec(), "image/png");
        image.pixels().map_err(|why| crate::errors::usage(py, format!("Image.from_png: {why}")))?;
        Ok(image)
    }

    /// An image read from a texture file relic reads (BLP, DTX, PNG): level 0 of its mips.
    #[staticmethod]
    fn open(py: Python<'_>, path: std::path::PathBuf) -> PyResult<Self> {
        let read = py.detach(|| {
            let bytes = relic::read_file(&path)?;
            relic::read_image(&path, &bytes, &relic_core::texture::TextureOptions::default())
        });
        let pixels = read.map_err(|e| crate::errors::relic_error(py, e))?;
        Ok(Self::from_pixels(relic::file_name(&path), pixels))
    }

    /// Width in pixels.
    #[getter]
    fn width(&self, py: Python<'_>) -> PyResult<u32> {
        Ok(self.decoded(py)?.width)
    }

    /// Height in pixels.
    #[getter]
    fn height(&self, py: Python<'_>) -> PyResult<u32> {
        Ok(self.decoded(py)?.height)
    }

    /// The pixels: 4 bytes (R, G, B, A) a pixel, rows top first.
    #[getter]
    fn rgba<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        Ok(PyBytes::new(py, &self.decoded(py)?.rgba))
    }

    /// The image as a PNG file (the file's own bytes when it was read from one).
    #[getter]
    fn png<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let encoded = self.encoded().map_err(|why| crate::errors::usage(py, format!("{}: {why}", self.name)))?;
        match encoded {
            (bytes, "image/png") => Ok(PyBytes::new(py, bytes)),
            (_, mime) => {
                Err(crate::errors::usage(py, format!("{}: a {mime} image, not a PNG (see `data`)", self.name)))
            }
        }
    }

    /// The image file's bytes as found (PNG or JPEG), or a PNG made from the pixels.
    #[getter]
    fn data<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let encoded = self.encoded().map_err(|why| crate::errors::usage(py, format!("{}: {why}", self.name)))?;
        Ok(PyBytes::new(py, &encoded.0))
    }

    /// ``image/png`` or ``image/jpeg``: what ``data`` holds.
    #[getter]
    fn mime(&self, py: Python<'_>) -> PyResult<&'static str> {
        let encoded = self.encoded().map_err(|why| crate::errors::usage(py, format!("{}: {why}", self.name)))?;
        Ok(encoded.1)
    }

    /// Whether every pixel is fully opaque.
    #[getter]
    fn opaque(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(self.decoded(py)?.is_opaque())
    }

    fn __repr__(&self) -> String {
        match self.pixels.get() {
            Some(Ok(p)) => format!("Image({:?}, {}×{})", self.name, p.width, p.height),
            _ => format!("Image({:?})", self.name),
        }
    }
}

impl Image {
    fn decoded(&self, py: Python<'_>) -> PyResult<&relic_core::texture::Image> {
        self.pixels().map_err(|why| crate::errors::usage(py, format!("{}: {why}", self.name)))
    }
}
