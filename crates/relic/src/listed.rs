//! Files named by number (a chunked M2's FileDataIDs): the listfile that names them and the game
//! data folder their paths start in (`--listfile`, `--data`; m2-md21.md §9).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use relic_core::format::{Listfile, file_name_of};

use crate::error::Error;

/// The extensions of the files a model may name by number (models, views, animations, skeletons,
/// bones, physics, textures): the only paths a listfile read by [`read_listfile`] keeps.
const KEPT: [&str; 7] = [".m2", ".skin", ".anim", ".skel", ".bone", ".phys", ".blp"];

/// Reads the community listfile at `path` (`id;path` lines), keeping the paths of the files
/// models name (`KEPT`). Malformed lines are skipped and counted ([`Listfile::summary`]); a
/// file that cannot be read is an error naming `path`.
pub fn read_listfile(path: &Path) -> Result<Listfile, Error> {
    let cannot = |e: std::io::Error| Error::Usage(format!("listfile {}: cannot read: {e}", path.display()));
    let file = std::io::BufReader::with_capacity(1 << 20, std::fs::File::open(path).map_err(cannot)?);
    let keep = |p: &str| {
        let p = p.as_bytes();
        KEPT.iter().any(|ext| {
            p.get(p.len().saturating_sub(ext.len())..).is_some_and(|t| t.eq_ignore_ascii_case(ext.as_bytes()))
        })
    };
    Listfile::read_where(file, keep).map_err(cannot)
}

/// Where files named by number are found: the listfile and the game data folders (`--data`).
#[derive(Debug, Clone)]
pub struct Listed {
    /// The listfile.
    pub listfile: Arc<Listfile>,
    /// The game data folders its paths start in (more may be derived from the model's own path,
    /// see [`Listed::roots_for`]).
    pub data: Vec<PathBuf>,
}

impl Listed {
    /// The listfile `listfile` with the data folders `data`.
    pub fn new(listfile: Listfile, data: Vec<PathBuf>) -> Self {
        Self { listfile: Arc::new(listfile), data }
    }

    /// The folders a game path is looked for under, for the model at `model`: the data folders,
    /// then the folder the model's own listfile path starts in (`…/x/creature/foo/foo.m2` listed as
    /// `creature/foo/foo.m2` → `…/x`).
    pub fn roots_for(&self, model: &Path) -> Vec<PathBuf> {
        let mut roots = self.data.clone();
        roots.extend(data_root(&self.listfile, model));
        roots
    }
}

/// The folder `model` lies in as the listfile's tree has it: `model`'s path without the
/// longest listfile path it ends with (whole components, any case, `\` or `/`).
fn data_root(listfile: &Listfile, model: &Path) -> Option<PathBuf> {
    let full = std::path::absolute(model).unwrap_or_else(|_| model.to_path_buf());
    let text = full.to_string_lossy().replace('\\', "/");
    let lower = text.to_ascii_lowercase();
    let name = crate::names::file_name(model).to_ascii_lowercase();
    let mut longest = 0;
    for (_, path) in listfile.iter() {
        if path.len() <= longest || !file_name_of(path).eq_ignore_ascii_case(&name) {
            continue;
        }
        let p = path.replace('\\', "/").to_ascii_lowercase();
        let whole =
            lower.len() == p.len() || lower.as_bytes().get(lower.len().wrapping_sub(p.len() + 1)) == Some(&b'/');
        if lower.ends_with(&p) && whole {
            longest = p.len();
        }
    }
    (longest > 0).then(|| {
        let root = text.get(..text.len() - longest).unwrap_or_default();
        if root.is_empty() { PathBuf::from(".") } else { PathBuf::from(root) }
    })
}

/// The file at `rel` (`\` or `/` separated) under `root`, each component matched without regard
/// to letter case (exact first); `None` for `..` or a component found nowhere.
pub(crate) fn find_under(root: &Path, rel: &str) -> Option<PathBuf> {
    let mut at = root.to_path_buf();
    for part in rel.split(['\\', '/']).filter(|p| !p.is_empty() && *p != ".") {
        if part == ".." {
            return None;
        }
        let exact = at.join(part);
        at = if exact.exists() {
            exact
        } else {
            std::fs::read_dir(&at)
                .ok()?
                .filter_map(Result::ok)
                .find(|e| e.file_name().to_string_lossy().eq_ignore_ascii_case(part))?
                .path()
        };
    }
    at.is_file().then_some(at)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_root_is_where_the_models_listed_path_starts() {
        let listfile = Listfile::parse(b"1;Creature/Foo/Foo.m2\n2;foo.m2\n3;creature/foo/foo00.skin");
        let dir = tempfile::tempdir().unwrap();
        let model = dir.path().join("x/CREATURE/foo/foo.m2");
        let root = data_root(&listfile, &model).unwrap();
        assert_eq!(root, std::path::absolute(dir.path().join("x/")).unwrap());
        assert_eq!(data_root(&listfile, &dir.path().join("elsewhere/bar.m2")), None);
        // Not a whole component: `xfoo.m2` does not end with `foo.m2`.
        assert_eq!(data_root(&listfile, &dir.path().join("a/xfoo.m2")), None);
    }

    #[test]
    fn game_paths_are_found_in_any_case() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("Creature/Foo")).unwrap();
        std::fs::write(dir.path().join("Creature/Foo/Foo00.SKIN"), b"SKIN").unwrap();
        assert!(find_under(dir.path(), "creature/foo/foo00.skin").is_some());
        assert!(find_under(dir.path(), "creature\\FOO\\foo00.skin").is_some());
        assert!(find_under(dir.path(), "creature/foo/../foo/foo00.skin").is_none());
        assert!(find_under(dir.path(), "creature/foo").is_none());
    }

    #[test]
    fn an_unreadable_listfile_is_named() {
        let e = read_listfile(Path::new("/nonexistent/listfile.csv")).unwrap_err().to_string();
        assert!(e.starts_with("listfile /nonexistent/listfile.csv: cannot read"), "{e}");
    }
}
