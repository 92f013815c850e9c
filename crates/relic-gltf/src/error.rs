//! Errors of glTF export and import.

use relic_core::ValidationError;

/// Why a model could not be exported, or a glTF file could not be imported.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum GltfError {
    /// Export refuses a model that breaks a rule of [`relic_core::validate`].
    #[error("invalid model: {0}")]
    InvalidModel(#[from] ValidationError),
    /// A count does not fit what glTF (or this exporter) can store.
    #[error("{what}: {count} does not fit glTF ({limit} at most)")]
    TooLarge {
        /// What was counted (`bones`, `meshes[3] "head" vertices`).
        what: String,
        /// The count.
        count: usize,
        /// The largest count that fits.
        limit: usize,
    },
    /// The bytes are not a readable glTF 2.0 document (JSON or GLB container, schema, references).
    #[error("not a valid glTF 2.0 file: {0}")]
    Document(String),
    /// A part of the document cannot be read: a bad accessor, buffer, skin or node hierarchy.
    #[error("{element}: {problem}")]
    Invalid {
        /// Path of the offending element (`accessors[12]`, `meshes[0].primitives[1]`, `nodes[4]`).
        element: String,
        /// What is wrong with it.
        problem: String,
    },
    /// An external resource (a `.bin` next to a `.gltf`, a data URI) cannot be loaded.
    #[error("buffer {uri:?}: {problem}")]
    Resource {
        /// The URI as the document states it.
        uri: String,
        /// What went wrong.
        problem: String,
    },
    /// The imported document does not make a valid common model (see [`relic_core::validate`]).
    #[error("imported model is not valid: {0}")]
    ImportedInvalid(ValidationError),
    /// JSON could not be written (should not happen for models that validate).
    #[error("cannot serialize glTF JSON: {0}")]
    Json(String),
}

impl GltfError {
    /// An [`GltfError::Invalid`] for `element`.
    pub(crate) fn invalid(element: impl Into<String>, problem: impl Into<String>) -> Self {
        Self::Invalid { element: element.into(), problem: problem.into() }
    }
}
