//! The model's arrays for Python: each is an `array.array` of its element type (`'f'` 32-bit
//! floats; `'i'` 32-bit integers for indices, which no real model holds 2³¹ of), the object
//! Python code holds and changes in place, and which `numpy.frombuffer`, `struct`, `memoryview`
//! and Blender's `foreach_set` read as they are, without a copy (Blender 3.4's `foreach_set`
//! takes `array.array` buffers, not a `memoryview`). Assigning replaces the array: any buffer of
//! the element type (an `array.array`, a NumPy array, a `memoryview`), raw little-endian `bytes`,
//! `bytearray` or a `memoryview` of bytes, a buffer of another numeric type (converted value by
//! value), or a sequence of numbers or of tuples of numbers.
//!
//! (A stable-ABI module cannot export a buffer of Rust memory before Python 3.11, so the arrays
//! are copied once into Python's arrays when a model is opened, and once back when it is saved.)

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyMemoryView};

/// The element type of an array.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Code {
    /// 32-bit float (`'f'`).
    F32,
    /// An index: a 32-bit integer (`'i'`; relic holds it as an unsigned one, and no index of a
    /// real model reaches 2³¹, so both read alike).
    Index,
}

impl Code {
    fn char(self) -> &'static str {
        match self {
            Code::F32 => "f",
            Code::Index => "i",
        }
    }

    fn name(self) -> &'static str {
        match self {
            Code::F32 => "32-bit floats",
            Code::Index => "32-bit integers",
        }
    }

    /// Whether a buffer of `format` and `itemsize` holds these elements as they are (native
    /// order, which is little-endian on every platform the wheel is built for).
    fn matches(self, format: &str, itemsize: usize) -> bool {
        let format = format.trim_start_matches(['@', '=', '<']);
        itemsize == 4
            && match self {
                Code::F32 => format == "f",
                Code::Index => matches!(format, "i" | "l" | "I" | "L"),
            }
    }
}

/// An array of a model: an `array.array` of `code`'s element type.
#[derive(Debug)]
pub(crate) struct Array {
    array: Py<PyAny>,
}

impl Array {
    /// An array holding `values` (plain old data of 4-byte elements).
    pub(crate) fn new<T: bytemuck::NoUninit>(py: Python<'_>, values: &[T], code: Code) -> PyResult<Array> {
        Self::of_bytes(py, bytemuck::cast_slice(values), code)
    }

    fn of_bytes(py: Python<'_>, bytes: &[u8], code: Code) -> PyResult<Array> {
        let array = py.import("array")?.getattr("array")?.call1((code.char(), PyBytes::new(py, bytes)))?;
        Ok(Array { array: array.unbind() })
    }

    /// The array Python reads and writes (the object itself: changes to it are the model's).
    pub(crate) fn view<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(self.array.bind(py).clone())
    }

    /// The values, for saving.
    pub(crate) fn values<T: bytemuck::Pod>(&self, py: Python<'_>) -> PyResult<Vec<T>> {
        let bytes: Vec<u8> = self.array.bind(py).call_method0("tobytes")?.extract()?;
        Ok(bytes.chunks_exact(std::mem::size_of::<T>()).map(bytemuck::pod_read_unaligned).collect())
    }

    /// The values in elements of `N` (a vertex's 3 coordinates, a triangle's 3 corners); an
    /// array that was given a partial element since (by `append`) is an error naming `field`.
    pub(crate) fn elements<T: bytemuck::Pod, const N: usize>(
        &self,
        py: Python<'_>,
        field: &str,
    ) -> PyResult<Vec<[T; N]>> {
        let values: Vec<T> = self.values(py)?;
        if !values.len().is_multiple_of(N) {
            return Err(crate::errors::invalid_model(
                py,
                field,
                format!("{} values is not a whole number of {N}-value elements", values.len()),
            ));
        }
        Ok(values.chunks_exact(N).filter_map(|c| c.try_into().ok()).collect())
    }

    /// Number of scalar values held.
    pub(crate) fn len(&self, py: Python<'_>) -> usize {
        self.array.bind(py).len().unwrap_or(0)
    }

    /// The array that `value` (any buffer or sequence, see the module's docs) gives, whole
    /// elements of `width` values; `what` names it in errors.
    pub(crate) fn from_py(value: &Bound<'_, PyAny>, code: Code, width: usize, what: &str) -> PyResult<Array> {
        let bytes = raw_bytes(value, code, what)?;
        let count = bytes.len() / 4;
        if !bytes.len().is_multiple_of(4) || !count.is_multiple_of(width) {
            return Err(PyValueError::new_err(format!(
                "{what}: {} bytes is not a whole number of {width}-value elements of {}",
                bytes.len(),
                code.name()
            )));
        }
        Self::of_bytes(value.py(), &bytes, code)
    }
}

/// The bytes of `value` as elements of `code`: a buffer of that element type as it is, raw
/// `bytes`/`bytearray`, a buffer of another numeric type or a sequence converted by `array.array`
/// (which refuses values out of range).
fn raw_bytes(value: &Bound<'_, PyAny>, code: Code, what: &str) -> PyResult<Vec<u8>> {
    let py = value.py();
    if let Ok(bytes) = value.cast::<PyBytes>() {
        return Ok(bytes.as_bytes().to_vec());
    }
    if let Ok(bytes) = value.cast::<PyByteArray>() {
        return Ok(bytes.to_vec());
    }
    let array = py.import("array")?.getattr("array")?;
    let view = match PyMemoryView::from(value) {
        Ok(view) => view,
        Err(_) => {
            // A sequence of numbers, or of tuples of numbers (vertices as (x, y, z)).
            let flat = flattened(value).map_err(|e| {
                PyTypeError::new_err(format!("{what}: expected a buffer or a sequence of numbers ({e})"))
            })?;
            let converted = array
                .call1((code.char(), flat))
                .map_err(|e| PyTypeError::new_err(format!("{what}: cannot be held as {}: {e}", code.name())))?;
            return converted.call_method0("tobytes")?.extract();
        }
    };
    let format: String = view.getattr("format")?.extract()?;
    let itemsize: usize = view.getattr("itemsize")?.extract()?;
    // A memoryview of bytes is raw bytes, as `bytes` is; another object's buffer of bytes (an
    // `array('B')`, a NumPy uint8 array) holds small numbers, converted below.
    let raw = value.is_instance_of::<PyMemoryView>() && matches!(format.as_str(), "B" | "c");
    if code.matches(&format, itemsize) || raw {
        return view.call_method0("tobytes")?.extract();
    }
    // Another numeric type (NumPy float64, int64): converted value by value.
    let values = view.call_method0("tolist")?;
    let flat = flattened(&values)?;
    let converted = array.call1((code.char(), flat)).map_err(|e| {
        PyTypeError::new_err(format!("{what}: {format:?} values cannot be held as {}: {e}", code.name()))
    })?;
    converted.call_method0("tobytes")?.extract()
}

/// `value` with nested sequences (tuples, lists) flattened into one list: at most two levels deep
/// (a list of vertices, a list of keys); text is a value, not a sequence, and is refused by the
/// conversion that follows.
fn flattened<'py>(value: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let py = value.py();
    let mut list = py.import("builtins")?.getattr("list")?.call1((value,))?;
    let chain = py.import("itertools")?.getattr("chain")?.getattr("from_iterable")?;
    for _ in 0..2 {
        let nested = list.get_item(0).ok().is_some_and(|first| {
            first.hasattr("__len__").unwrap_or(false)
                && !first.is_instance_of::<PyBytes>()
                && !first.is_instance_of::<pyo3::types::PyString>()
        });
        if !nested {
            break;
        }
        list = py.import("builtins")?.getattr("list")?.call1((chain.call1((list,))?,))?;
    }
    Ok(list)
}
