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
    /// The file system refused.
    #[error("{path}: {source}")]
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
        if let Ok(canonical) = path.canonicalize()
            && self.protected.contains(&canonical)
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
    pub fn write_all(&self, files: &[(PathBuf, Vec<u8>)]) -> Result<u64, OutputError> {
        for (path, _) in files {
            self.check(path)?;
        }
        let mut total = 0;
        for (path, bytes) in files {
            write_atomic(path, bytes)?;
            total += bytes.len() as u64;
        }
        Ok(total)
    }
}

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// Writes `bytes` to a temporary file next to `path`, syncs it, and renames it to `path`.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&dir).map_err(io(&dir))?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "output".into());
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let tmp = dir.join(format!(".{name}.relic-tmp-{}-{n}", std::process::id()));
    let result = (|| {
        let mut file = std::fs::File::create(&tmp).map_err(io(&tmp))?;
        file.write_all(bytes).map_err(io(&tmp))?;
        file.sync_all().map_err(io(&tmp))?;
        drop(file);
        std::fs::rename(&tmp, path).map_err(io(path))
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
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
