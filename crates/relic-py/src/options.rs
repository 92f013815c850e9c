//! The options `relic.open` and `relic.convert` take, as the command's: where textures are looked
//! for (`data`, `replaceable`, `skins`, `textures`), given in Python's habits (a path or a list of
//! paths; a dict of slots).

use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

/// Where a model's textures are found (the command's `--data`, `--texture`, `--skin` and
/// `--textures`).
#[derive(Debug, Clone, Default)]
pub(crate) struct Search {
    pub(crate) data: Vec<PathBuf>,
    pub(crate) replaceable: Vec<(u32, PathBuf)>,
    pub(crate) skins: Vec<(u32, PathBuf)>,
    pub(crate) image_dirs: Vec<PathBuf>,
}

impl Search {
    pub(crate) fn texture_search(&self) -> relic::textures::TextureSearch {
        relic::textures::TextureSearch {
            data: self.data.clone(),
            replaceable: self.replaceable.clone(),
            skins: self.skins.clone(),
            image_dirs: self.image_dirs.clone(),
        }
    }

    /// The search from the Python arguments.
    pub(crate) fn from_args(
        data: Option<&Bound<'_, PyAny>>,
        replaceable: Option<&Bound<'_, PyAny>>,
        skins: Option<&Bound<'_, PyAny>>,
        textures: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Search> {
        Ok(Search {
            data: paths(data, "data")?,
            replaceable: slots(replaceable, "replaceable")?,
            skins: slots(skins, "skins")?,
            image_dirs: paths(textures, "textures")?,
        })
    }
}

/// A path (`str`, `os.PathLike`) or an iterable of them; `None` is none.
pub(crate) fn paths(value: Option<&Bound<'_, PyAny>>, field: &str) -> PyResult<Vec<PathBuf>> {
    let Some(value) = value.filter(|v| !v.is_none()) else { return Ok(Vec::new()) };
    if value.is_instance_of::<PyString>() || value.hasattr("__fspath__")? {
        return Ok(vec![value.extract()?]);
    }
    let mut out = Vec::new();
    for (i, item) in value.try_iter()?.enumerate() {
        let item = item?;
        out.push(item.extract().map_err(|_| {
            pyo3::exceptions::PyTypeError::new_err(format!("{field}[{i}]: expected a path, got {item}"))
        })?);
    }
    Ok(out)
}

/// Files by slot: a dict `{slot: path}`, or a sequence of paths for slots 0, 1, … (the command's
/// `--skin FILE` repeated).
fn slots(value: Option<&Bound<'_, PyAny>>, field: &str) -> PyResult<Vec<(u32, PathBuf)>> {
    let Some(value) = value.filter(|v| !v.is_none()) else { return Ok(Vec::new()) };
    if let Ok(dict) = value.cast::<PyDict>() {
        let mut out = Vec::new();
        for (slot, path) in dict.iter() {
            let slot: u32 = slot.extract().map_err(|_| {
                pyo3::exceptions::PyTypeError::new_err(format!("{field}: the key {slot} is not a slot number"))
            })?;
            out.push((slot, path.extract()?));
        }
        out.sort_by_key(|(slot, _)| *slot);
        return Ok(out);
    }
    Ok(paths(Some(value), field)?.into_iter().enumerate().map(|(i, p)| (i as u32, p)).collect())
}
