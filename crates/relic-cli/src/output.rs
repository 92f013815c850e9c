//! Writing outputs without ever losing data: each file is written to a temporary file in the
//! target folder and renamed into place (so a crash or a full disk leaves no half-written output),
//! an existing output is kept unless the user passed `--force`, and an input is never written.

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Why an output was not written.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// The output exists and `--force` was not given.
    #[error("{0} exists (pass --force to overwrite it)")]
    Exists(PathBuf),
    /// The output is one of the inputs.
    #[error("{0} is an input file; refusing to overwrite it")]
    IsInput(PathBuf),
    /// A folder the output goes into is an existing file.
    #[error("{}: exists and is not a folder, so {} cannot be written into it", folder.display(), output.display())]
    NotAFolder {
        /// The file in the way.
        folder: PathBuf,
        /// The output that was to be written.
        output: PathBuf,
    },
    /// The file system refused.
    #[error("{}: cannot write: {source}", path.display())]
    Io {
        /// The file or folder concerned.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> OutputError + '_ {
    move |source| OutputError::Io { path: path.to_path_buf(), source }
}

/// Where outputs may go and what must be protected.
#[derive(Debug, Clone, Default)]
pub struct OutputPolicy {
    /// Overwrite existing outputs.
    pub force: bool,
    /// Files that must never be written (the inputs), canonicalised: see [`OutputPolicy::protect`].
    pub protected: HashSet<PathBuf>,
}

impl OutputPolicy {
    /// Adds an input that must never be written (however it is spelled).
    pub fn protect(&mut self, input: &Path) {
        self.protected.insert(input.canonicalize().unwrap_or_else(|_| input.to_path_buf()));
    }

    /// Checks that `path` may be written: not an input, and new unless `force`.
    pub fn check(&self, path: &Path) -> Result<(), OutputError> {
        self.check_sparing(path, &HashSet::new())
    }

    /// [`OutputPolicy::check`], also refusing the canonical paths `inputs`.
    fn check_sparing(&self, path: &Path, inputs: &HashSet<PathBuf>) -> Result<(), OutputError> {
        if let Ok(canonical) = path.canonicalize()
            && (self.protected.contains(&canonical) || inputs.contains(&canonical))
        {
            return Err(OutputError::IsInput(path.to_path_buf()));
        }
        if !self.force && path.exists() {
            return Err(OutputError::Exists(path.to_path_buf()));
        }
        Ok(())
    }

    /// Writes all `files` (path, bytes) atomically, each through a temporary file in its folder.
    /// Every path is checked before anything is written, so either all are checked or none written.
    /// Without `force` a file is published without replacing anything ([`write_new`]): if another
    /// writer created one of the paths since the check, that file is kept, the error says it
    /// exists, and the files this call already published are removed again.
    pub fn write_all(&self, files: &[(PathBuf, Vec<u8>)]) -> Result<u64, OutputError> {
        self.write_all_sparing(files, &[])
    }

    /// [`OutputPolicy::write_all`], also never writing `inputs`: files of one particular input
    /// (a `.gltf`'s `.bin`), where the policy is shared by many.
    pub fn write_all_sparing(&self, files: &[(PathBuf, Vec<u8>)], inputs: &[PathBuf]) -> Result<u64, OutputError> {
        let inputs: HashSet<PathBuf> = inputs.iter().filter_map(|p| p.canonicalize().ok()).collect();
        for (path, _) in files {
            self.check_sparing(path, &inputs)?;
        }
        let mut total = 0;
        let mut published: Vec<&Path> = Vec::new();
        for (path, bytes) in files {
            let written = if self.force { write_atomic(path, bytes) } else { write_new(path, bytes) };
            if let Err(e) = written {
                for done in published {
                    let _ = std::fs::remove_file(done);
                }
                return Err(e);
            }
            published.push(path);
            total += bytes.len() as u64;
        }
        Ok(total)
    }
}

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// Creates the folder `dir` that `output` goes into (and its parents), naming the user's paths
/// when it cannot: a file in the way, or what the system said about the output.
fn create_folder(dir: &Path, output: &Path) -> Result<(), OutputError> {
    if let Err(source) = std::fs::create_dir_all(dir) {
        // The nearest existing ancestor that is not a folder is what is in the way.
        let in_way = dir.ancestors().find(|a| a.exists() && !a.is_dir());
        return Err(match in_way {
            Some(folder) => OutputError::NotAFolder { folder: folder.to_path_buf(), output: output.to_path_buf() },
            None => OutputError::Io { path: output.to_path_buf(), source },
        });
    }
    Ok(())
}

/// Writes `bytes` to a new temporary file next to `path`; returns its path. Errors name `path`
/// (the output the user asked for), never the temporary name.
///
/// The file is not `fsync`ed: publishing it by rename (or link) already means that a reader, a
/// failed run or a killed one never sees a partial output, and waiting for the disk cost a
/// conversion more than its parsing (2.3 ms of GnomePounder's 27 ms, issue 29). After a power cut
/// an output written in the last seconds may be empty or missing; that durability is left to the
/// system, as `cp` and `rsync` leave it (ext4's default `auto_da_alloc` starts writing a file
/// renamed over an existing one at the rename, which protects the older output a rerun
/// replaces). Outputs are regenerated from the game files, which relic never writes.
fn write_temporary(path: &Path, bytes: &[u8]) -> Result<PathBuf, OutputError> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    create_folder(&dir, path)?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "output".into());
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let tmp = dir.join(format!(".{name}.relic-tmp-{}-{n}", std::process::id()));
    let result = (|| {
        let mut file = std::fs::OpenOptions::new().write(true).create_new(true).open(&tmp).map_err(io(path))?;
        file.write_all(bytes).map_err(io(path))
    })();
    match result {
        Ok(()) => Ok(tmp),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

/// Writes `bytes` to a temporary file next to `path` and renames it to `path`
/// (replacing a file already there).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    let tmp = write_temporary(path, bytes)?;
    let result = std::fs::rename(&tmp, path).map_err(io(path));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Writes `bytes` to a temporary file next to `path` and publishes it at `path` only
/// if nothing is there: as a hard link, which the system refuses atomically when the name
/// exists ([`OutputError::Exists`]). Where hard links are not supported (FAT, some network file
/// systems) the name is first reserved with an exclusive create, then the complete file is
/// renamed over the reservation.
pub fn write_new(path: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    let tmp = write_temporary(path, bytes)?;
    let result = publish_new(&tmp, path);
    // After a link the temporary name is a second name of the output; after a rename it is gone.
    let _ = std::fs::remove_file(&tmp);
    result
}

fn publish_new(tmp: &Path, path: &Path) -> Result<(), OutputError> {
    let exists = |e: &std::io::Error| e.kind() == std::io::ErrorKind::AlreadyExists;
    match std::fs::hard_link(tmp, path) {
        Ok(()) => return Ok(()),
        Err(e) if exists(&e) => return Err(OutputError::Exists(path.to_path_buf())),
        // Not supported here (or refused for another reason the exclusive create will meet).
        Err(_) => {}
    }
    match std::fs::OpenOptions::new().write(true).create_new(true).open(path) {
        Err(e) if exists(&e) => Err(OutputError::Exists(path.to_path_buf())),
        Err(e) => Err(io(path)(e)),
        Ok(reservation) => {
            drop(reservation);
            std::fs::rename(tmp, path).map_err(|e| {
                // The empty reservation is ours: do not leave it behind.
                let _ = std::fs::remove_file(path);
                io(path)(e)
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_atomically_and_refuses_to_overwrite() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("sub/model.glb");
        let policy = OutputPolicy::default();
        policy.write_all(&[(out.clone(), b"one".to_vec())]).unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), b"one");
        let err = policy.write_all(&[(out.clone(), b"two".to_vec())]).unwrap_err();
        assert!(matches!(err, OutputError::Exists(_)), "{err}");
        assert_eq!(std::fs::read(&out).unwrap(), b"one");
        OutputPolicy { force: true, ..OutputPolicy::default() }.write_all(&[(out.clone(), b"two".to_vec())]).unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), b"two");
        // No temporary files are left behind.
        let names: Vec<_> = std::fs::read_dir(out.parent().unwrap()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, vec![std::ffi::OsString::from("model.glb")]);
    }

    #[test]
    fn never_writes_an_input_even_with_force() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in.abc");
        std::fs::write(&input, b"original").unwrap();
        let mut policy = OutputPolicy { force: true, ..OutputPolicy::default() };
        policy.protect(&input);
        let same_file_other_spelling = dir.path().join("./in.abc");
        let err = policy.write_all(&[(same_file_other_spelling, b"x".to_vec())]).unwrap_err();
        assert!(matches!(err, OutputError::IsInput(_)));
        assert_eq!(std::fs::read(&input).unwrap(), b"original");
    }

    #[test]
    fn publishing_a_new_file_never_replaces_one_that_appeared_meanwhile() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("walk.glb");
        // As if another writer created it between the check and the publication.
        std::fs::write(&out, b"theirs").unwrap();
        let err = write_new(&out, b"ours").unwrap_err();
        assert!(matches!(err, OutputError::Exists(_)), "{err}");
        assert_eq!(std::fs::read(&out).unwrap(), b"theirs");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, vec![std::ffi::OsString::from("walk.glb")], "no temporary file is left");
        // A new name is published whole.
        let fresh = dir.path().join("run.glb");
        write_new(&fresh, b"ours").unwrap();
        assert_eq!(std::fs::read(&fresh).unwrap(), b"ours");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
    }

    #[test]
    fn writers_racing_for_one_name_leave_exactly_one_whole_file() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("walk.glb");
        let policy = OutputPolicy::default();
        let barrier = std::sync::Barrier::new(8);
        let wins: Vec<bool> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..8u8)
                .map(|i| {
                    let (policy, out, barrier) = (&policy, &out, &barrier);
                    s.spawn(move || {
                        barrier.wait();
                        policy.write_all(&[(out.clone(), vec![i; 100_000])]).is_ok()
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert_eq!(wins.iter().filter(|w| **w).count(), 1, "{wins:?}");
        let winner = wins.iter().position(|w| *w).unwrap() as u8;
        assert_eq!(std::fs::read(&out).unwrap(), vec![winner; 100_000]);
    }

    #[test]
    fn a_failed_second_file_takes_back_the_first() {
        let dir = tempfile::tempdir().unwrap();
        let gltf = dir.path().join("a.gltf");
        // Passes the check, but its folder cannot be made: a file has that name.
        std::fs::write(dir.path().join("blocker"), b"keep").unwrap();
        let bin = dir.path().join("blocker/a.bin");
        let err = OutputPolicy::default().write_all(&[(gltf.clone(), b"{}".to_vec()), (bin, b"new".to_vec())]);
        assert!(matches!(&err, Err(OutputError::NotAFolder { folder, .. }) if folder.ends_with("blocker")), "{err:?}");
        let text = err.unwrap_err().to_string();
        assert!(text.contains("blocker: exists and is not a folder") && text.contains("a.bin"), "{text}");
        assert!(!gltf.exists(), "a .gltf without its .bin is left behind");
        assert_eq!(std::fs::read(dir.path().join("blocker")).unwrap(), b"keep");
    }

    /// An unwritable folder is reported with the output the user named, never the temporary file.
    #[test]
    fn errors_name_the_output_not_the_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let locked = dir.path().join("locked");
        std::fs::create_dir(&locked).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o555)).unwrap();
        let out = locked.join("x.glb");
        let err = OutputPolicy::default().write_all(&[(out.clone(), b"glTF".to_vec())]);
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
        // Root may write anywhere: then it simply succeeded.
        if let Err(e) = err {
            let text = e.to_string();
            assert!(text.starts_with(&format!("{}: cannot write:", out.display())), "{text}");
            assert!(!text.contains("relic-tmp"), "{text}");
        }
    }

    #[test]
    fn all_outputs_are_checked_before_any_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.gltf");
        let b = dir.path().join("a.bin");
        std::fs::write(&b, b"keep").unwrap();
        let err = OutputPolicy::default().write_all(&[(a.clone(), b"{}".to_vec()), (b.clone(), b"new".to_vec())]);
        assert!(err.is_err());
        assert!(!a.exists(), "nothing may be written when one output is refused");
    }
}
