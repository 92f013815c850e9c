//! [`FormatExtras`]: the source format's own typed data for what the common model does not hold.

use super::*;

/// Data of one source format that the common model does not describe (M2 particles, ABC child
/// models, …), kept so that the same format can be written back without loss.
///
/// The format crate that created it reads it back with [`FormatExtras::get`]. When the model went
/// through a text carrier (glTF extras), the data arrives as JSON instead ([`FormatExtras::json`])
/// and the format crate decodes it itself.
#[derive(Clone)]
pub struct FormatExtras {
    format: FormatId,
    payload: Payload,
}

#[derive(Clone)]
enum Payload {
    Typed { data: Arc<dyn Any + Send + Sync>, ops: &'static ExtrasOps },
    Json(String),
}

/// What a format crate tells the model about its extras type.
#[derive(Debug)]
pub struct ExtrasOps {
    /// Compares two values of the type (both given as `&dyn Any` of that type).
    pub eq: fn(&dyn Any, &dyn Any) -> bool,
    /// Debug-prints a value.
    pub debug: fn(&dyn Any, &mut fmt::Formatter<'_>) -> fmt::Result,
    /// Serializes a value as JSON (for glTF extras), if the format supports it. The text must be
    /// valid JSON (the glTF export embeds it without parsing it again): serde_json's output.
    pub to_json: Option<fn(&dyn Any) -> String>,
    /// Serializes a value as JSON to be carried beside `model` (glTF extras): what the format
    /// rebuilds exactly from the model may be left out, and is rebuilt from the model the JSON
    /// arrives with. `None` (or a `None` result): [`ExtrasOps::to_json`]. Valid JSON, as there.
    pub to_json_beside: Option<JsonBeside>,
}

/// Serializes a format's extras (given as `&dyn Any` of its type) as JSON carried beside the
/// model: see [`ExtrasOps::to_json_beside`].
pub type JsonBeside = fn(&dyn Any, &Model) -> Option<String>;

impl FormatExtras {
    /// Wraps a format's typed data. `ops` is a `static` the format crate defines once for `T`.
    pub fn new<T: Any + Send + Sync>(format: FormatId, data: T, ops: &'static ExtrasOps) -> Self {
        Self { format, payload: Payload::Typed { data: Arc::new(data), ops } }
    }

    /// The data as a `T`: borrowed when it is held typed, decoded by `decode` from its JSON text
    /// when it arrived as JSON (from glTF). `None` when it is neither a `T` nor JSON. Writers use
    /// this so that writing a model does not copy its extras.
    pub fn typed_or_decoded<T: Any + Clone, E>(
        &self,
        decode: impl FnOnce(&str) -> Result<T, E>,
    ) -> Option<Result<std::borrow::Cow<'_, T>, E>> {
        match &self.payload {
            Payload::Typed { data, .. } => data.downcast_ref::<T>().map(|t| Ok(std::borrow::Cow::Borrowed(t))),
            Payload::Json(text) => Some(decode(text).map(std::borrow::Cow::Owned)),
        }
    }

    /// Extras that arrived as JSON text (from glTF `extras`).
    pub fn from_json(format: FormatId, json: String) -> Self {
        Self { format, payload: Payload::Json(json) }
    }

    /// Whether the data is held typed by the format crate that made it, not as JSON text that
    /// arrived from outside ([`FormatExtras::from_json`]): its JSON is then that crate's own
    /// serialization ([`ExtrasOps::to_json`]), valid by construction.
    pub fn is_typed(&self) -> bool {
        matches!(self.payload, Payload::Typed { .. })
    }

    /// The format the data belongs to.
    pub fn format(&self) -> FormatId {
        self.format
    }

    /// The typed data, if it is a `T`.
    pub fn get<T: Any>(&self) -> Option<&T> {
        match &self.payload {
            Payload::Typed { data, .. } => data.downcast_ref::<T>(),
            Payload::Json(_) => None,
        }
    }

    /// The data as JSON: the original text for extras that came from JSON, or the format's own
    /// serialization of typed data (if it has one).
    pub fn json(&self) -> Option<String> {
        match &self.payload {
            Payload::Typed { data, ops } => ops.to_json.map(|f| f(data.as_ref())),
            Payload::Json(text) => Some(text.clone()),
        }
    }

    /// Whether `self` and `other` hold the same data, typed or as JSON (a record read from a
    /// file beside the same record carried through glTF).
    pub fn same_data(&self, other: &Self) -> bool {
        self == other || (self.format == other.format && self.json().is_some_and(|a| other.json() == Some(a)))
    }

    /// The data as JSON to carry beside `model`, the model these extras belong to (glTF export):
    /// as [`FormatExtras::json`], less what the format rebuilds exactly from the model when the
    /// JSON comes back with it ([`ExtrasOps::to_json_beside`]).
    pub fn json_beside(&self, model: &Model) -> Option<String> {
        match &self.payload {
            Payload::Typed { data, ops } => {
                ops.to_json_beside.and_then(|f| f(data.as_ref(), model)).or_else(|| self.json())
            }
            Payload::Json(text) => Some(text.clone()),
        }
    }
}

impl PartialEq for FormatExtras {
    fn eq(&self, other: &Self) -> bool {
        if self.format != other.format {
            return false;
        }
        match (&self.payload, &other.payload) {
            (Payload::Typed { data: a, ops }, Payload::Typed { data: b, .. }) => (ops.eq)(a.as_ref(), b.as_ref()),
            (Payload::Json(a), Payload::Json(b)) => a == b,
            _ => false,
        }
    }
}

impl fmt::Debug for FormatExtras {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.payload {
            Payload::Typed { data, ops } => {
                write!(f, "FormatExtras({}, ", self.format)?;
                (ops.debug)(data.as_ref(), f)?;
                f.write_str(")")
            }
            Payload::Json(text) => write!(f, "FormatExtras({}, json {} bytes)", self.format, text.len()),
        }
    }
}

/// Defines the [`ExtrasOps`] for a type that is `PartialEq + Debug` (and, with a second argument
/// `json`, `serde::Serialize` through `serde_json`).
///
/// ```
/// #[derive(Debug, PartialEq)]
/// struct MyExtras { kept: Vec<u8> }
/// static OPS: relic_core::model::ExtrasOps = relic_core::extras_ops!(MyExtras);
/// let e = relic_core::model::FormatExtras::new(relic_core::FormatId::new("toy"), MyExtras { kept: vec![1] }, &OPS);
/// assert_eq!(e.get::<MyExtras>().unwrap().kept, vec![1]);
/// ```
#[macro_export]
macro_rules! extras_ops {
    ($ty:ty) => {
        $crate::model::ExtrasOps {
            eq: |a, b| matches!((a.downcast_ref::<$ty>(), b.downcast_ref::<$ty>()), (Some(a), Some(b)) if a == b),
            debug: |a, f| match a.downcast_ref::<$ty>() {
                Some(a) => ::std::fmt::Debug::fmt(a, f),
                None => f.write_str("?"),
            },
            to_json: None,
            to_json_beside: None,
        }
    };
    ($ty:ty, $to_json:expr) => {
        $crate::model::ExtrasOps {
            eq: |a, b| matches!((a.downcast_ref::<$ty>(), b.downcast_ref::<$ty>()), (Some(a), Some(b)) if a == b),
            debug: |a, f| match a.downcast_ref::<$ty>() {
                Some(a) => ::std::fmt::Debug::fmt(a, f),
                None => f.write_str("?"),
            },
            to_json: Some(|a| match a.downcast_ref::<$ty>() {
                Some(a) => ($to_json)(a),
                None => String::new(),
            }),
            to_json_beside: None,
        }
    };
}
