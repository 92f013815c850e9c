//! The common model's enumerations as the strings Python code uses (`"linear"`, `"rotation"`,
//! `"alpha_key"`), one table each, read both ways; and small conversions of fixed-size values.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use relic_core::model::{Billboard, BlendMode, ChannelValues, EmitterKind, Interpolation};

/// A table between an enumeration and its names.
macro_rules! named {
    ($fn_name:ident, $fn_parse:ident, $ty:ty, $what:literal, [$($variant:path => $name:literal),+ $(,)?]) => {
        /// The name of the value.
        pub(crate) fn $fn_name(value: $ty) -> &'static str {
            match value {
                $($variant => $name,)+
            }
        }

        /// The value of a name (`what` names the field in the error).
        pub(crate) fn $fn_parse(name: &str, field: &str) -> PyResult<$ty> {
            match name {
                $($name => Ok($variant),)+
                other => Err(PyValueError::new_err(format!(
                    "{field}: {other:?} is not {}; one of {}",
                    $what,
                    [$($name),+].join(", ")
                ))),
            }
        }
    };
}

named!(interpolation, parse_interpolation, Interpolation, "an interpolation", [
    Interpolation::Step => "step",
    Interpolation::Linear => "linear",
    Interpolation::CubicSpline => "cubicspline",
]);

named!(blend, parse_blend, BlendMode, "a blend mode", [
    BlendMode::Opaque => "opaque",
    BlendMode::AlphaKey => "alpha_key",
    BlendMode::Alpha => "alpha",
    BlendMode::Add => "add",
    BlendMode::AddAlpha => "add_alpha",
    BlendMode::Modulate => "modulate",
    BlendMode::Modulate2x => "modulate2x",
]);

named!(billboard, parse_billboard, Billboard, "a billboard mode", [
    Billboard::None => "none",
    Billboard::Spherical => "spherical",
    Billboard::CylindricalX => "cylindrical_x",
    Billboard::CylindricalY => "cylindrical_y",
    Billboard::CylindricalZ => "cylindrical_z",
]);

/// ``particle`` or ``ribbon`` (read-only in Python: an emitter's record decides its kind).
pub(crate) fn emitter_kind(kind: EmitterKind) -> &'static str {
    kind.as_str()
}

/// Values per key of a channel's property: 3 (translation, scale) or 4 (rotation).
pub(crate) fn property_width(property: &str, field: &str) -> PyResult<usize> {
    match property {
        "translation" | "scale" => Ok(3),
        "rotation" => Ok(4),
        other => Err(PyValueError::new_err(format!(
            "{field}: {other:?} is not a channel property; one of translation, rotation, scale"
        ))),
    }
}

/// A channel's values from a property and flat floats (whole keys of [`property_width`]).
pub(crate) fn channel_values(property: &str, flat: Vec<f32>, field: &str) -> PyResult<ChannelValues> {
    let width = property_width(property, field)?;
    Ok(match width {
        4 => ChannelValues::Rotation(grouped(&flat)),
        _ if property == "scale" => ChannelValues::Scale(grouped(&flat)),
        _ => ChannelValues::Translation(grouped(&flat)),
    })
}

/// Flat values as elements of `N` (a trailing partial element, which the arrays never hold, is
/// left out).
pub(crate) fn grouped<const N: usize>(flat: &[f32]) -> Vec<[f32; N]> {
    flat.chunks_exact(N).filter_map(|c| c.try_into().ok()).collect()
}

/// `N` floats from any sequence of numbers (a tuple, a list, a `mathutils.Vector`).
pub(crate) fn floats<const N: usize>(value: &Bound<'_, PyAny>, field: &str) -> PyResult<[f32; N]> {
    let values: Vec<f32> =
        value.extract().map_err(|e| PyValueError::new_err(format!("{field}: expected {N} numbers ({e})")))?;
    values
        .try_into()
        .map_err(|v: Vec<f32>| PyValueError::new_err(format!("{field}: expected {N} numbers, got {}", v.len())))
}

/// [`floats`] of an optional value (`None` stays `None`).
pub(crate) fn optional_floats<const N: usize>(
    value: Option<&Bound<'_, PyAny>>,
    field: &str,
) -> PyResult<Option<[f32; N]>> {
    match value {
        Some(v) if !v.is_none() => floats::<N>(v, field).map(Some),
        _ => Ok(None),
    }
}
