//! What a conversion between the common model and a format could not keep.

use std::fmt;

/// Something the target format cannot hold, or had to change, when a model was converted.
/// Writers return these instead of dropping data silently.
#[derive(Debug, Clone, PartialEq)]
pub struct Loss {
    /// The element concerned (`meshes[3]`, `animations[2] "walk"`, `bones`).
    pub element: String,
    /// What was dropped or changed, and by how much.
    pub what: String,
}

impl fmt::Display for Loss {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.element, self.what)
    }
}

impl Loss {
    /// A loss on `element`.
    pub fn new(element: impl Into<String>, what: impl Into<String>) -> Self {
        Self { element: element.into(), what: what.into() }
    }

    /// The note of a model writer whose format keeps clips in files of their own (a NOD's clips
    /// are NAD files): `count` clips not in the file written. A caller that writes them beside
    /// it (the `relic` facade, through the format's [`crate::format::AnimationCodec::write`])
    /// drops this note ([`Loss::is_clips_apart`]).
    pub fn clips_apart(count: usize, format: &str, animation_format: &str) -> Self {
        Self::new(
            CLIPS_APART,
            format!("{count} clips are not part of a {format}: each is a {animation_format} file of its own"),
        )
    }

    /// Whether this is the note of [`Loss::clips_apart`].
    pub fn is_clips_apart(&self) -> bool {
        self.element == CLIPS_APART
    }
}

/// The element of [`Loss::clips_apart`].
const CLIPS_APART: &str = "animation files";

/// A converted value with the losses the conversion reported.
#[derive(Debug, Clone, PartialEq)]
pub struct Converted<T> {
    /// The result.
    pub value: T,
    /// What could not be kept.
    pub losses: Vec<Loss>,
}

impl<T> Converted<T> {
    /// A lossless conversion.
    pub fn lossless(value: T) -> Self {
        Self { value, losses: Vec::new() }
    }

    /// The same conversion with its value turned by `f` (a writer's bytes into a
    /// [`crate::format::Written`], say), its losses kept.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Converted<U> {
        Converted { value: f(self.value), losses: self.losses }
    }
}

/// Choices a format writer takes from the caller when it builds a file from the common model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct WriteOptions {
    /// Version of the format to write; `None` for the format's default (the version the model was
    /// read from when it came from the same format, else the format's most widely supported one).
    pub version: Option<u32>,
}
