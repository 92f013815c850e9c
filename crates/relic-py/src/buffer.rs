//! The model's arrays as Python buffers: each is kept in a `bytearray` and handed out as a flat
//! `memoryview` of its element type (`'f'` 32-bit floats, `'I'` 32-bit unsigned integers), which
//! `array`, `numpy.frombuffer`, `struct` and Blender's `foreach_set` read without copying, and
//! through which values are changed in place. Assigning replaces the array: any buffer of the
//! element type (an `array.array`, a NumPy array, a `memoryview`), raw little-endian `bytes`,
//! `bytearray` or a `memoryview` of bytes, a buffer of another numeric type (converted value by
//! value), or a sequence of numbers or of tuples of numbers.
//!
//! (A stable-ABI module cannot export a buffer of Rust memory before Python 3.11, so the arrays
//! are copied once into Python's `bytearray` when a model is opened, and once back when it is
//! saved.)

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyMemoryView};

/// The element type of an array.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Code {
    /// 32-bit float (`'f'`).
    F32,
    /// 32-bit unsigned integer (`'I'`).
    U32,
}

impl Code {
    fn char(self) -> &'static str {
        match self {
            Code::F32 => "f",
            Code::U32 => "I",
        }
    }

    fn name(self) -> &'static str {
        match self {
            Code::F32 => "32-bit floats",
            Code::U32 => "32-bit unsigned integers",
        }
    }

    /// Whether a buffer of `format` and `itemsize` holds these elements as they are (native
    /// order, which is little-endian on every platform the wheel is built for).
    fn matches(self, format: &str, itemsize: usize) -> bool {
        let format = format.trim_start_matches(['@', '=', '<']);
        itemsize == 4
            && match self {
                Code::F32 => format == "f",
                Code::U32 => matches!(format, "I" | "L"),
            }
    }
}

/// An array of a model: its bytes in a `bytearray`, whole elements of `width` values each.
#[derive(Debug)]
pub(crate) struct Array {
    bytes: Py<PyByteArray>,
    code: Code,
}

impl Array {
    /// An array holding `values` (plain old data of 4-byte elements).
    pub(crate) fn new<T: bytemuck::NoUninit>(py: Python<'_>, values: &[T], code: Code) -> Array {
        Array { bytes: PyByteArray::new(py, bytemuck::cast_slice(values)).unbind(), code }
    }

    /// The flat view Python reads and writes.
    pub(crate) fn view<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let view = PyMemoryView::from(self.bytes.bind(py))?;
        view.call_method1("cast", (self.code.char(),))
    }

    /// The values, `width` to an element (a vertex's 3 coordinates), for saving. `what` names the
    /// array in errors (`meshes[2].positions`).
    pub(crate) fn values<T: bytemuck::Pod>(&self, py: Python<'_>) -> Vec<T> {
        let bytes = self.bytes.bind(py).to_vec();
        // The length was checked to be whole elements when the array was made or assigned.
        bytes.chunks_exact(std::mem::size_of::<T>()).map(bytemuck::pod_read_unaligned).collect()
    }

    /// Number of scalar values held.
    pub(crate) fn len(&self, py: Python<'_>) -> usize {
        self.bytes.bind(py).len() / 4
    }

    /// The array that `value` (any buffer or sequence, see the module's docs) gives, whole
    /// elements of `width` values; `what` names it in errors.
    pub(crate) fn from_py(value: &Bound<'_, PyAny>, code: Code, width: usize, what: &str) -> PyResult<Array> {
        let bytes = raw_bytes(value, code, what)?;
        let count = bytes.len() / 4;
        if bytes.len() % 4 != 0 || count % width != 0 {
            return Err(PyValueError::new_err(format!(
                "{what}: {} bytes is not a whole number of {width}-value elements of {}",
                bytes.len(),
                code.name()
            )));
        }
        Ok(Array { bytes: PyByteArray::new(value.py(), &bytes).unbind(), code })
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
