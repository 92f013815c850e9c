//! relic for Python: the module `relic._relic`, which the package `relic`
//! (`crates/relic-py/python/relic`) re-exports. A thin tool over the `relic` facade and the
//! command's library (`relic_cli`), as the `relic` command is: the same formats, options, notes,
//! messages and safe writes.
//!
//! | module | what |
//! |---|---|
//! | this file | `formats`, `detect`, `info`, `open`, `convert` |
//! | `model` | `Model` and the classes it holds, made from the common model and back exactly |
//! | `buffer` | arrays as `array.array` objects |
//! | `save` | `Model.save` and `relic.convert` |
//! | `images` | images assigned from Python, as a save writes or embeds them |
//! | `report` | `Note` and `Saved`: what they report |
//! | `options` | texture search options in Python's habits |
//! | `errors` | relic's errors as the exceptions of `relic/_errors.py` |
//! | `names` | the model's enumerations as strings |
//!
//! The GIL is released while files are read, converted and written: several Python threads
//! convert in parallel.

use std::path::PathBuf;
use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use relic_core::Fact;
use relic_core::format::Content;

mod buffer;
mod errors;
mod images;
mod model;
mod names;
mod options;
mod report;
mod save;

use model::Model;
use options::Search;
use report::Note;

/// A format relic reads: what :func:`formats` lists.
#[pyclass(module = "relic", frozen, get_all)]
#[derive(Debug, Clone)]
struct Format {
    /// The name (``abc``, ``m2``, ``glb``): also the extension written.
    name: String,
    /// The games and tools that use it.
    title: String,
    /// Its family, as an editor's menu names it (``LithTech model``: ABC and LTB).
    family: String,
    /// File extensions it goes by (files are recognised by content, not by these).
    extensions: Vec<String>,
    /// What its files hold: ``model``, ``animation``, ``texture``.
    holds: Vec<String>,
    /// Versions read, as ``(first, last)`` ranges.
    reads: Vec<(u32, u32)>,
    /// Versions written, as ``(first, last)`` ranges (empty: not written).
    writes: Vec<(u32, u32)>,
    /// The version written when none is asked for and the model came from another format.
    default_version: u32,
    /// Why the versions written differ from those read, if they do.
    note: String,
}

#[pymethods]
impl Format {
    fn __repr__(&self) -> String {
        format!("Format({:?}, {:?})", self.name, self.title)
    }
}

impl Format {
    fn of(entry: &relic::FormatEntry) -> Format {
        let ranges = |r: &[std::ops::RangeInclusive<u32>]| r.iter().map(|r| (*r.start(), *r.end())).collect();
        let holds = [
            (entry.model.is_some(), "model"),
            (entry.animation.is_some(), "animation"),
            (entry.texture.is_some(), "texture"),
        ];
        Format {
            name: entry.name.to_string(),
            title: entry.title.to_string(),
            family: entry.family.to_string(),
            extensions: entry.extensions.iter().map(|e| e.to_string()).collect(),
            holds: holds.iter().filter(|(has, _)| *has).map(|(_, what)| what.to_string()).collect(),
            reads: ranges(entry.versions.read),
            writes: ranges(entry.versions.write),
            default_version: entry.versions.default_write,
            note: entry.versions.note.to_string(),
        }
    }
}

/// What a file is, judged by its bytes: what :func:`detect` answers.
#[pyclass(module = "relic", frozen, get_all)]
#[derive(Debug, Clone)]
struct Kind {
    /// The format (``abc``, ``m2``, ``skin``, ``blp``, …).
    format: String,
    /// The format's own version number.
    version: u32,
    /// What the file holds: ``model``, ``animation``, ``part`` (a piece of a model kept in
    /// another file: an M2's ``.skin``) or ``texture``.
    content: &'static str,
    /// Whether relic reads this version (others are refused with the reason).
    readable: bool,
}

#[pymethods]
impl Kind {
    fn __repr__(&self) -> String {
        format!("Kind({:?}, version={}, content={:?})", self.format, self.version, self.content)
    }
}

/// Every format relic reads and writes, in the order files are recognised.
#[pyfunction]
fn formats() -> Vec<Format> {
    relic::Registry::builtin().formats().iter().map(|e| Format::of(e)).collect()
}

/// What ``path_or_bytes`` is (a path, or the file's ``bytes``), judged by its content:
/// a :class:`Kind`, or ``None`` for bytes of no format relic knows.
#[pyfunction]
fn detect(py: Python<'_>, path_or_bytes: &Bound<'_, PyAny>) -> PyResult<Option<Kind>> {
    let bytes: Vec<u8> = match path_or_bytes.cast::<PyBytes>() {
        Ok(b) => b.as_bytes().to_vec(),
        Err(_) => {
            let path: PathBuf = path_or_bytes.extract()?;
            py.detach(|| relic::read_file(&path)).map_err(|e| errors::relic_error(py, e))?
        }
    };
    let kind = py.detach(|| relic::detect(&bytes));
    Ok(kind.map(|k| Kind {
        format: k.name().to_string(),
        version: k.detected.source.version,
        content: match k.detected.content {
            Content::Model => "model",
            Content::Animation => "animation",
            Content::Part => "part",
            Content::Texture => "texture",
        },
        readable: k.entry.versions.reads(k.detected.source.version),
    }))
}

/// A file's format, version and the format's own counts: the object ``relic info --json``
/// prints (``{"file": …, "format": "m2", "version": 264, "bones": 106, …}``).
/// ``listfile``: the community ``id;path`` CSV: each FileDataID a chunked M2 holds is shown with
/// its path (``relic info --listfile``).
#[pyfunction]
#[pyo3(signature = (path, *, listfile = None))]
fn info<'py>(py: Python<'py>, path: PathBuf, listfile: Option<PathBuf>) -> PyResult<Bound<'py, PyDict>> {
    let listed = listed(py, listfile.as_deref(), &[])?;
    let facts = py.detach(|| {
        let bytes = relic::read_file(&path)?;
        relic_cli::info::describe_listed(&path, &bytes, listed.as_ref())
    });
    let facts = facts.map_err(|e| errors::cli_error(py, e))?;
    let out = PyDict::new(py);
    out.set_item("file", path.display().to_string())?;
    out.set_item("format", facts.format.as_str())?;
    out.set_item("version", facts.version)?;
    for (key, fact) in &facts.facts {
        match fact {
            Fact::Count(n) => out.set_item(key, n)?,
            // JSON has no NaN: the command prints null.
            Fact::Number(x) if !x.is_finite() => out.set_item(key, py.None())?,
            Fact::Number(x) => out.set_item(key, x)?,
            Fact::Text(t) => out.set_item(key, t)?,
        }
    }
    Ok(out)
}

/// Opens a model file (recognised by content) with the files beside it that it needs.
///
/// ``anims``: animation files played on it (NAD for a NOD). Where its textures are found, as the
/// ``relic`` command's options: ``data`` (a game data folder, or a list: M2 texture paths),
/// ``replaceable`` (``{type: file}`` for M2 replaceable textures: the command's ``--texture``),
/// ``skins`` (LithTech skin files: a list for slots 0, 1, … or ``{slot: file}``: ``--skin``),
/// ``textures`` (folders of PNG/JPEG versions: ``--textures``). ``listfile``: the community
/// ``id;path`` CSV naming the files a chunked M2 refers to by FileDataID (its ``.skin``,
/// ``.anim`` files and textures), found by the listed file name beside the model, then by the
/// listed path under ``data``; without it by ``<model>00.skin``, ``<model>AAAA-VV.anim`` and
/// ``<id>.blp`` (``--listfile``).
#[pyfunction]
#[pyo3(signature = (path, *, anims = None, data = None, replaceable = None, skins = None, textures = None, listfile = None))]
#[allow(clippy::too_many_arguments)]
fn open(
    py: Python<'_>,
    path: PathBuf,
    anims: Option<&Bound<'_, PyAny>>,
    data: Option<&Bound<'_, PyAny>>,
    replaceable: Option<&Bound<'_, PyAny>>,
    skins: Option<&Bound<'_, PyAny>>,
    textures: Option<&Bound<'_, PyAny>>,
    listfile: Option<PathBuf>,
) -> PyResult<Model> {
    let anims = options::paths(anims, "anims")?;
    let search = Search::from_args(data, replaceable, skins, textures)?;
    let listed = listed(py, listfile.as_deref(), &search.data)?;
    let opened = py.detach(|| {
        let anims: Vec<&std::path::Path> = anims.iter().map(PathBuf::as_path).collect();
        relic::open_listed(&path, &anims, listed.as_ref())
    });
    let opened = opened.map_err(|e| errors::relic_error(py, e))?;
    let notes = opened.notes;
    let source: Arc<dyn relic_core::texture::TextureSource> =
        Arc::new(relic::textures::GameTextures::new(&path, search.texture_search()));
    let mut model = Model::from_ir(py, &opened.model, Some(source), search.data.first().cloned())?;
    model.set_opened(Note::each(&notes), opened.files);
    Ok(model)
}

/// The listfile at `path` (if any) with the data folders `data`, read without the GIL (as the
/// command reads `--listfile`: a file that cannot be read is a usage error naming it).
fn listed(py: Python<'_>, path: Option<&std::path::Path>, data: &[PathBuf]) -> PyResult<Option<relic::Listed>> {
    py.detach(|| relic_cli::cli::read_listed(path, data)).map_err(|e| errors::cli_error(py, e))
}

/// Converts the model (or texture) ``src`` into ``dst``, in the format of ``dst``'s extension:
/// ``relic convert`` with every option it has. ``version``: of the output format; ``lod``:
/// ``"all"`` or ``0`` (full detail only); ``anims``, ``data``, ``replaceable``, ``skins``,
/// ``textures`` as for :func:`open`; ``no_textures``: from a glTF to a game format, do not write
/// the glTF's images as the game's textures; ``force``: replace an existing output;
/// ``strict``: write nothing if the output cannot hold everything (raises
/// :class:`relic.Unsupported`); for a texture output, ``encoding`` (``auto``, ``dxt1``,
/// ``dxt3``, ``dxt5``, ``palettized``, ``raw``) and ``mips``; ``listfile`` as for :func:`open`.
/// Returns a :class:`Saved`.
#[pyfunction]
#[pyo3(signature = (
    src, dst, *, anims = None, version = None, lod = None, data = None, replaceable = None,
    skins = None, textures = None, no_textures = false, force = false, strict = false,
    encoding = "auto", mips = None, listfile = None
))]
#[allow(clippy::too_many_arguments)]
fn convert(
    py: Python<'_>,
    src: PathBuf,
    dst: PathBuf,
    anims: Option<&Bound<'_, PyAny>>,
    version: Option<u32>,
    lod: Option<&Bound<'_, PyAny>>,
    data: Option<&Bound<'_, PyAny>>,
    replaceable: Option<&Bound<'_, PyAny>>,
    skins: Option<&Bound<'_, PyAny>>,
    textures: Option<&Bound<'_, PyAny>>,
    no_textures: bool,
    force: bool,
    strict: bool,
    encoding: &str,
    mips: Option<u32>,
    listfile: Option<PathBuf>,
) -> PyResult<report::Saved> {
    use clap::ValueEnum;
    let lod0 = match lod {
        None => false,
        Some(l) if l.is_none() => false,
        Some(l) => match l.extract::<u32>().ok().map(|n| n.to_string()).or_else(|| l.extract::<String>().ok()) {
            Some(s) if s == "0" => true,
            Some(s) if s == "all" => false,
            _ => return Err(errors::usage(py, format!("lod={l}: expected \"all\" or 0"))),
        },
    };
    let encoding = relic_cli::cli::Encoding::from_str(encoding, true).map_err(|_| {
        errors::usage(py, format!("encoding={encoding:?}: one of auto, dxt1, dxt3, dxt5, palettized, raw"))
    })?;
    if mips.is_some_and(|m| !(1..=16).contains(&m)) {
        return Err(errors::usage(py, "mips: 1 to 16 levels"));
    }
    let search = Search::from_args(data, replaceable, skins, textures)?;
    let listed = listed(py, listfile.as_deref(), &search.data)?;
    let request = save::ConvertRequest {
        src,
        dst,
        anims: options::paths(anims, "anims")?,
        version,
        lod0,
        search,
        listed,
        no_textures,
        force,
        strict,
        encoding,
        mips,
    };
    save::convert(py, request)
}

/// The module `relic._relic`.
#[pymodule]
fn _relic(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::set_package(&m.name()?.to_string());
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(formats, m)?)?;
    m.add_function(wrap_pyfunction!(detect, m)?)?;
    m.add_function(wrap_pyfunction!(info, m)?)?;
    m.add_function(wrap_pyfunction!(open, m)?)?;
    m.add_function(wrap_pyfunction!(convert, m)?)?;
    m.add_class::<Format>()?;
    m.add_class::<Kind>()?;
    m.add_class::<report::Saved>()?;
    m.add_class::<report::Note>()?;
    model::register(m)?;
    Ok(())
}
