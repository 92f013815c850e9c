//! Where a model's companion files are found (m2-md21.md §9): a chunked file names its `.skin`,
//! `.anim` and `.skel` files and its textures by FileDataID. With a listfile
//! ([`Siblings::listfile`](relic_core::format::Siblings::listfile)) an id is its game path: the
//! file is looked for by that path's file name beside the model, then by the path under the
//! game's data folder; else (and for files without an id) by the name wow.export and CASC
//! extractors give it (`<stem>00.skin`, `<stem>0060-00.anim`; a texture `<id>.blp`).

use relic_core::format::{Input, file_name_of};
use relic_core::{ReadError, ReadErrorKind};

/// The FileDataIDs of a chunked model's companions (none for a plain file).
#[derive(Debug, Clone, Default)]
pub(crate) struct FileIds {
    /// `SFID`: the `.skin` of each profile.
    pub skins: Vec<u32>,
    /// `AFID`: the `.anim` of each (animation id, variation): (id, variation, FileDataID).
    pub anims: Vec<(u16, u16, u32)>,
    /// `SKID`: the `.skel` (0: none).
    pub skeleton: u32,
}

impl FileIds {
    /// The id of the `.skin` of profile `i` (0: none).
    pub(crate) fn skin(&self, i: u32) -> u32 {
        self.skins.get(i as usize).copied().unwrap_or(0)
    }

    /// The id of the `.anim` of a sequence (0: none).
    pub(crate) fn anim(&self, id: u16, variation: u16) -> u32 {
        self.anims.iter().find(|a| (a.0, a.1) == (id, variation)).map_or(0, |a| a.2)
    }
}

/// A companion found: the name it was found by (a file name beside the model, or a game path
/// under the data folder) and its bytes.
pub(crate) struct Found {
    /// The name it was found by.
    pub name: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

fn io_error(name: &str, e: std::io::Error) -> ReadError {
    ReadError::new(0, ReadErrorKind::Io(format!("{name}: {e}")))
}

/// The companion with FileDataID `id` (0: none) whose conventional name is `conventional`: by
/// the listfile's path (its file name beside the model, then the path under the data folder),
/// then by `conventional` beside the model. `Ok(None)` if it is nowhere.
pub(crate) fn read(input: &Input<'_>, id: u32, conventional: &str) -> Result<Option<Found>, ReadError> {
    let siblings = input.siblings;
    if let Some(path) = listed(input, id) {
        let name = file_name_of(path);
        if let Some(bytes) = siblings.read_as(name, conventional).map_err(|e| io_error(name, e))? {
            return Ok(Some(Found { name: name.to_string(), bytes }));
        }
        if let Some(bytes) = siblings.read_game_path(path, conventional).map_err(|e| io_error(path, e))? {
            return Ok(Some(Found { name: path.to_string(), bytes }));
        }
    }
    let bytes = siblings.read(conventional).map_err(|e| io_error(conventional, e))?;
    Ok(bytes.map(|bytes| Found { name: conventional.to_string(), bytes }))
}

/// The listfile's path of `id`, `None` for 0, without a listfile or for an id it does not name.
fn listed<'a>(input: &Input<'a>, id: u32) -> Option<&'a str> {
    input.siblings.listfile().filter(|_| id != 0).and_then(|l| l.path(id))
}

/// What was looked for, for a companion found nowhere: its conventional name, and its id with
/// the listfile's path or why there is none (`foo00.skin (FileDataID 123, not in the listfile)`).
pub(crate) fn wanted(input: &Input<'_>, id: u32, conventional: &str) -> String {
    if id == 0 {
        return conventional.to_string();
    }
    match (input.siblings.listfile(), listed(input, id)) {
        (_, Some(path)) => format!("{conventional} (FileDataID {id}: {path})"),
        (Some(_), None) => format!("{conventional} (FileDataID {id}, not in the listfile)"),
        (None, None) => format!("{conventional} (FileDataID {id}, no listfile given)"),
    }
}

/// The name a texture with FileDataID `id` (not 0) is given: the listfile's path, else `<id>.blp`
/// (as wow.export names the files it cannot name) and `false`.
pub(crate) fn texture_name(input: &Input<'_>, id: u32) -> (String, bool) {
    match listed(input, id) {
        Some(path) => (path.to_string(), true),
        None => (format!("{id}.blp"), false),
    }
}
