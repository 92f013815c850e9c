//! What reading and writing report: `relic.Note` (the command's notes) and `relic.Saved`.

use pyo3::prelude::*;

/// What a save or a conversion wrote.
#[pyclass(module = "relic", frozen)]
#[derive(Debug)]
pub(crate) struct Saved {
    /// The files written: the output first, then the files beside it (``.skin``, ``.bin``,
    /// textures).
    #[pyo3(get)]
    pub(crate) files: Vec<String>,
    /// Bytes written in all.
    #[pyo3(get)]
    pub(crate) bytes: u64,
    /// What the target could not hold, grouped as the ``relic`` command prints them
    /// (:class:`Note`, each with the ``count`` of notes it stands for).
    #[pyo3(get)]
    pub(crate) notes: Vec<Note>,
    /// Every note on its own.
    #[pyo3(get)]
    pub(crate) losses: Vec<Note>,
    /// Notes from reading the input (``relic.convert`` only).
    #[pyo3(get)]
    pub(crate) read_notes: Vec<Note>,
    /// How the file written compares with the game file the model was first read from
    /// (``compared with the original (m2 v264): 21 counts equal, 0 differ; …``), or ``None``.
    #[pyo3(get)]
    pub(crate) comparison: Option<String>,
}

#[pymethods]
impl Saved {
    fn __repr__(&self) -> String {
        format!("Saved({:?}, {} bytes, {} notes)", self.files, self.bytes, self.losses.len())
    }
}

/// A note: something a conversion could not carry, or a part of a file that could not be read
/// (the ``relic`` command's ``note:`` lines). ``element`` is what it concerns (``meshes[3]``,
/// ``bones``), ``what`` what happened; ``count`` is how many notes of the same kind this one
/// stands for (the command groups them: ``text`` is its line).
#[pyclass(module = "relic", frozen)]
#[derive(Debug, Clone)]
pub(crate) struct Note {
    /// The element concerned.
    #[pyo3(get)]
    element: String,
    /// What was dropped or changed, and by how much.
    #[pyo3(get)]
    what: String,
    /// How many notes of the same kind this one stands for.
    #[pyo3(get)]
    count: usize,
    /// The line the ``relic`` command prints for it.
    #[pyo3(get)]
    text: String,
}

impl Note {
    /// One note for each of `losses`.
    pub(crate) fn each(losses: &[relic_core::Loss]) -> Vec<Note> {
        losses
            .iter()
            .map(|l| Note { element: l.element.clone(), what: l.what.clone(), count: 1, text: l.to_string() })
            .collect()
    }

    /// The line the command prints.
    pub(crate) fn text(&self) -> &str {
        &self.text
    }

    /// The notes grouped as the command prints them (notes that differ only in their counts are
    /// one, with the counts summed).
    pub(crate) fn grouped(losses: &[relic_core::Loss]) -> Vec<Note> {
        relic_cli::notes::groups(losses)
            .into_iter()
            .filter_map(|g| {
                let first = g.members.first()?;
                Some(Note {
                    element: first.element.clone(),
                    what: first.what.clone(),
                    count: g.members.len(),
                    text: g.line,
                })
            })
            .collect()
    }
}

#[pymethods]
impl Note {
    fn __str__(&self) -> String {
        self.text.clone()
    }

    fn __repr__(&self) -> String {
        format!("Note({:?})", self.text)
    }
}
