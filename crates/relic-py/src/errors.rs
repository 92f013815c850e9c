//! relic's errors as Python exceptions. Every message is the one the `relic` command prints after
//! `relic: `, naming the user's file.
//!
//! | exception | raised for |
//! |---|---|
//! | `relic.Error` | the base of the ones below |
//! | `relic.NotAModel` (`Error`) | bytes of no format relic reads, or a file of a kind it does not read (an LTA text, a PS2 model) |
//! | `relic.Incomplete` (`Error`) | a model whose companion files (`.skin`, `.anim`) are missing: `.missing` names them |
//! | `relic.Invalid` (`Error`, `ValueError`) | a damaged file (`.offset`, `.field`: where and which field), or a model that breaks the common model's rules when saved (`.field`) |
//! | `relic.Unsupported` (`Error`) | a version relic refuses, a model the target format cannot hold, a save refused by `strict` (`.notes`) |
//! | `relic.UsageError` (`Error`, `ValueError`) | a request that does not make sense (an option of the wrong kind, an input as the output) |
//! | `OSError` and its subclasses | the file system: a missing file (`FileNotFoundError`), an existing output (`FileExistsError`) |

use pyo3::BoundObject;
use pyo3::exceptions::{PyException, PyFileExistsError, PyOSError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use relic_cli::CliError;
use relic_cli::output::OutputError;
use relic_core::{ReadErrorKind, WriteError};

/// The module of the exception classes: `_errors` beside this module in its package (`relic`,
/// or wherever an add-on vendors it), set when the module is imported.
static ERRORS_MODULE: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// Notes the package this module was imported in (`relic._relic` → `relic._errors`).
pub(crate) fn set_package(module_name: &str) {
    let package = module_name.rsplit_once('.').map_or("relic", |(package, _)| package);
    let _ = ERRORS_MODULE.set(format!("{package}._errors"));
}

/// An exception of class `name` (`relic/_errors.py`) with `message` and attributes given to its
/// constructor.
fn raise(py: Python<'_>, name: &str, message: String, attrs: &[(&str, Py<PyAny>)]) -> PyErr {
    let module = ERRORS_MODULE.get().map_or("relic._errors", String::as_str);
    let made = py.import(module).and_then(|module| {
        let kwargs = PyDict::new(py);
        for (key, value) in attrs {
            kwargs.set_item(*key, value.bind(py))?;
        }
        let error = module.getattr(name)?.call((message.clone(),), Some(&kwargs))?;
        Ok(PyErr::from_value(error))
    });
    // The package is there whenever the module is imported through it; used on its own, the
    // message still gets out, with why the exception could not be made.
    made.unwrap_or_else(|why| PyException::new_err(format!("{message} (relic._errors.{name}: {why})")))
}

fn none(py: Python<'_>) -> Py<PyAny> {
    py.None()
}

fn value<'py, T: IntoPyObject<'py>>(py: Python<'py>, v: T) -> Py<PyAny> {
    v.into_pyobject(py).map(|b| b.into_any().unbind()).unwrap_or_else(|_| py.None())
}

/// The exception for an error of the facade.
pub(crate) fn relic_error(py: Python<'_>, error: relic::Error) -> PyErr {
    let message = error.to_string();
    match error {
        relic::Error::Io { source, file } => {
            PyOSError::new_err((source.raw_os_error().unwrap_or(0), message, file.display().to_string()))
        }
        relic::Error::NotModel { .. } => raise(py, "NotAModel", message, &[]),
        relic::Error::Read { source, .. } => read_error(py, message, &source),
        relic::Error::Write { source, .. } => write_error(py, message, &source),
        relic::Error::Usage(_) => raise(py, "UsageError", message, &[]),
        // The facade's errors are non-exhaustive in spirit: anything new is a relic error.
        #[allow(unreachable_patterns)]
        _ => raise(py, "Error", message, &[]),
    }
}

fn read_error(py: Python<'_>, message: String, source: &relic_core::ReadError) -> PyErr {
    let field = if source.path.is_empty() { none(py) } else { value(py, source.path.as_str()) };
    match &source.kind {
        ReadErrorKind::Incomplete { missing, .. } => {
            let missing = PyList::new(py, missing).map(|l| l.into_any().unbind()).unwrap_or_else(|_| py.None());
            raise(py, "Incomplete", message, &[("missing", missing)])
        }
        ReadErrorKind::UnsupportedVersion { version, .. } => {
            raise(py, "Unsupported", message, &[("version", value(py, *version)), ("field", field)])
        }
        ReadErrorKind::Io(_) => PyOSError::new_err(message),
        _ => raise(py, "Invalid", message, &[("offset", value(py, source.offset)), ("field", field)]),
    }
}

fn write_error(py: Python<'_>, message: String, source: &WriteError) -> PyErr {
    match source {
        WriteError::InvalidModel(e) => {
            let field = value(py, e.element.as_str());
            raise(py, "Invalid", message, &[("offset", none(py)), ("field", field)])
        }
        WriteError::Io { .. } => PyOSError::new_err(message),
        _ => raise(py, "Unsupported", message, &[]),
    }
}

/// The exception for an error of the command's library (conversions and writing outputs).
pub(crate) fn cli_error(py: Python<'_>, error: CliError) -> PyErr {
    match error {
        CliError::Relic(e) => relic_error(py, e),
        CliError::Output(e) => output_error(py, e),
        other => raise(py, "UsageError", other.to_string(), &[]),
    }
}

/// The exception for an output that may not be written.
pub(crate) fn output_error(py: Python<'_>, error: OutputError) -> PyErr {
    let message = error.to_string();
    match error {
        OutputError::Exists(path) => PyFileExistsError::new_err((17, message, path.display().to_string())),
        OutputError::IsInput(_) => raise(py, "UsageError", message, &[]),
        OutputError::Io { source, path } => {
            PyOSError::new_err((source.raw_os_error().unwrap_or(0), message, path.display().to_string()))
        }
        other => raise(py, "Error", other.to_string(), &[]),
    }
}

/// `relic.Unsupported` for a save `strict` refused, with the notes that say what would be lost.
pub(crate) fn strict_refusal(py: Python<'_>, message: String, notes: Py<PyAny>) -> PyErr {
    raise(py, "Unsupported", message, &[("notes", notes)])
}

/// `relic.UsageError` with `message`.
pub(crate) fn usage(py: Python<'_>, message: impl Into<String>) -> PyErr {
    raise(py, "UsageError", message.into(), &[])
}

/// `relic.Invalid` for a model built in Python that breaks a rule (`field`: where).
pub(crate) fn invalid_model(py: Python<'_>, field: &str, message: impl Into<String>) -> PyErr {
    let message = format!("{field}: {}", message.into());
    raise(py, "Invalid", message, &[("offset", none(py)), ("field", value(py, field))])
}
