//! Finding PNG or JPEG versions of the game's textures (`CREATURE\GNOME\GNOMEPOUNDER.BLP` →
//! `<dir>/creature/gnome/gnomepounder.png` or `<dir>/GnomePounder.png`), case-insensitively.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// How many files of the texture folder are indexed at most (a guard against pointing it at `/`).
const MAX_FILES: usize = 200_000;

/// PNG and JPEG files under a folder, by lower-case relative path without extension and by
/// lower-case file stem.
#[derive(Debug, Default)]
pub(crate) struct TextureIndex {
    by_path: HashMap<String, PathBuf>,
    by_stem: HashMap<String, PathBuf>,
}

/// `image/png` or `image/jpeg` from the first bytes; `None` for anything else.
pub(crate) fn mime_type(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(&[0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A]) {
        Some("image/png")
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some("image/jpeg")
    } else {
        None
    }
}

fn is_image(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| matches!(e.to_ascii_lowercase().as_str(), "png" | "jpg" | "jpeg"))
}

/// Lower-case path components of a game path without its extension, joined by `/`.
fn key(path: &str) -> String {
    let normal = path.replace('\\', "/").to_ascii_lowercase();
    let trimmed = normal.trim_start_matches('/');
    match trimmed.rsplit_once('.') {
        Some((stem, ext)) if !ext.contains('/') => stem.to_string(),
        _ => trimmed.to_string(),
    }
}

impl TextureIndex {
    /// Indexes `dir` (recursively); an unreadable folder gives an empty index.
    pub(crate) fn new(dir: &Path) -> Self {
        let mut index = Self::default();
        let mut stack = vec![dir.to_path_buf()];
        let mut seen = 0usize;
        while let Some(d) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&d) else { continue };
            for entry in entries.flatten() {
                seen += 1;
                if seen > MAX_FILES {
                    return index;
                }
                let path = entry.path();
                if path.is_dir() {
                    stack.push(path);
                } else if is_image(&path) {
                    let rel = path.strip_prefix(dir).unwrap_or(&path).to_string_lossy().to_string();
                    let k = key(&rel);
                    let stem = k.rsplit('/').next().unwrap_or(&k).to_string();
                    index.by_stem.entry(stem).or_insert_with(|| path.clone());
                    index.by_path.entry(k).or_insert(path);
                }
            }
        }
        index
    }

    /// The image file for a game texture path, if one exists.
    pub(crate) fn find(&self, game_path: &str) -> Option<&Path> {
        if game_path.is_empty() {
            return None;
        }
        let k = key(game_path);
        let stem = k.rsplit('/').next().unwrap_or(&k);
        self.by_path.get(&k).or_else(|| self.by_stem.get(stem)).map(PathBuf::as_path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_ignore_case_separators_and_extension() {
        assert_eq!(key("CREATURE\\Gnome\\GnomePounder.BLP"), "creature/gnome/gnomepounder");
        assert_eq!(key("christof"), "christof");
        assert_eq!(key("dir.v2/tex"), "dir.v2/tex");
    }
}
