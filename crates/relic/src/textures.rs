//! Finding a model's textures the way a game folder is laid out, and decoding them through the
//! format registry (BLP, DTX) for glTF export.
//!
//! | texture | where it is looked for |
//! |---|---|
//! | a game path (M2 `CREATURE\GNOME\GNOME.BLP`) | under each `--data` folder, else under every folder above the model (the game's data root is one of them), case-insensitively; then PNG/JPEG under `--textures`; then the file name anywhere under the model's folder |
//! | an M2 replaceable texture (types 1, 2, 6, 8, 11–13: chosen by the game's tables) | `--texture TYPE=FILE`; else a `.blp` in the model's folder named after the model (`RabbitSkin.blp` for `Rabbit.m2`), as extracted folders keep them |
//! | a LithTech skin slot (ABC names no texture) | `--skin FILE` (one per slot, in order); else `SKINS/NAME.DTX` (slot 0) and `SKINS/NAME_HEAD.DTX` (slot 1) beside the `MODELS` folder above the model, without a trailing `_MULTI` too |
//!
//! A texture that is not found is a note naming where relic looked; the export stays valid.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use relic_core::format::{Content, Input};
use relic_core::model::TextureRef;
use relic_core::texture::TextureOptions;
use relic_gltf::textures::{FoundTexture, ImageData, Lookup, TextureSource, mime_type};

use crate::input::FolderSiblings;

/// Where the user said textures are.
#[derive(Debug, Clone, Default)]
pub struct TextureSearch {
    /// Game data roots (`--data DIR`): game paths are resolved under them. Empty: every folder
    /// above the model is tried.
    pub data: Vec<PathBuf>,
    /// Files for M2 replaceable texture types (`--texture 11=FILE`).
    pub replaceable: Vec<(u32, PathBuf)>,
    /// Files for LithTech skin slots, slot 0 first (`--skin FILE`).
    pub skins: Vec<PathBuf>,
    /// Folders of PNG/JPEG versions of the textures (`--textures DIR`).
    pub image_dirs: Vec<PathBuf>,
}

/// The textures of one model file: its location and the user's [`TextureSearch`].
#[derive(Debug)]
pub struct GameTextures {
    model: PathBuf,
    search: TextureSearch,
    images: Vec<relic_gltf::textures::DirTextures>,
    /// Folder listings, lower-case name → path (game paths are matched without regard to case).
    listings: Mutex<HashMap<PathBuf, Vec<(String, PathBuf)>>>,
}

/// How deep the file-name search under the model's folder goes, and how many folders it reads.
const NAME_SEARCH_FOLDERS: usize = 2_000;

impl GameTextures {
    /// The textures of the model read from `model` (its path), found as `search` says.
    pub fn new(model: &Path, search: TextureSearch) -> Self {
        let images = search.image_dirs.iter().map(|d| relic_gltf::textures::DirTextures::new(d)).collect();
        Self { model: model.to_path_buf(), search, images, listings: Mutex::new(HashMap::new()) }
    }

    fn model_dir(&self) -> PathBuf {
        FolderSiblings::of(&self.model).dir().to_path_buf()
    }

    fn stem(&self) -> String {
        crate::input::stem(&self.model)
    }

    /// The files and folders in `dir`, with their lower-case names.
    fn listing(&self, dir: &Path) -> Vec<(String, PathBuf)> {
        if let Ok(cache) = self.listings.lock()
            && let Some(l) = cache.get(dir)
        {
            return l.clone();
        }
        let entries: Vec<(String, PathBuf)> = std::fs::read_dir(dir)
            .map(|rd| rd.flatten().map(|e| (e.file_name().to_string_lossy().to_lowercase(), e.path())).collect())
            // A folder that cannot be read lists nothing: the search goes on and, if nothing is found, says
            // where it looked.
            .unwrap_or_default();
        if let Ok(mut cache) = self.listings.lock() {
            cache.insert(dir.to_path_buf(), entries.clone());
        }
        entries
    }

    /// `rel` (`\` or `/` separated) under `root`, each component matched without regard to case.
    fn resolve(&self, root: &Path, rel: &str) -> Option<PathBuf> {
        let mut at = root.to_path_buf();
        for part in rel.split(['\\', '/']).filter(|p| !p.is_empty() && *p != ".") {
            if part == ".." {
                return None;
            }
            let want = part.to_lowercase();
            at = self.listing(&at).into_iter().find(|(name, _)| *name == want)?.1;
        }
        at.is_file().then_some(at)
    }

    /// The data roots to resolve game paths under.
    fn roots(&self) -> Vec<PathBuf> {
        if !self.search.data.is_empty() {
            return self.search.data.clone();
        }
        self.model_dir().ancestors().map(Path::to_path_buf).collect()
    }

    /// A file called `name` (any case) under the model's folder, breadth first, bounded.
    fn by_name(&self, name: &str) -> Option<PathBuf> {
        let want = name.to_lowercase();
        let mut queue = std::collections::VecDeque::from([self.model_dir()]);
        let mut read = 0;
        while let Some(dir) = queue.pop_front() {
            read += 1;
            if read > NAME_SEARCH_FOLDERS {
                return None;
            }
            for (lower, path) in self.listing(&dir) {
                if path.is_dir() {
                    queue.push_back(path);
                } else if lower == want {
                    return Some(path);
                }
            }
        }
        None
    }

    fn game_path(&self, path: &str) -> Result<PathBuf, String> {
        let roots = self.roots();
        if let Some(found) = roots.iter().find_map(|r| self.resolve(r, path)) {
            return Ok(found);
        }
        if let Some(found) = self.images.iter().find_map(|d| d.find(path)) {
            return Ok(found.to_path_buf());
        }
        let name = path.rsplit(['\\', '/']).next().unwrap_or(path);
        if let Some(found) = self.by_name(name) {
            return Ok(found);
        }
        let under = if self.search.data.is_empty() {
            format!("the folders above {}", self.model.display())
        } else {
            self.search.data.iter().map(|d| d.display().to_string()).collect::<Vec<_>>().join(", ")
        };
        Err(format!(
            "looked for {} under {under} and {name} under {}",
            path.replace('\\', "/"),
            self.model_dir().display()
        ))
    }

    fn replaceable(&self, kind: u32) -> Result<PathBuf, String> {
        if let Some((_, file)) = self.search.replaceable.iter().find(|(k, _)| *k == kind) {
            return Ok(file.clone());
        }
        let stem = self.stem().to_lowercase();
        let blps: Vec<PathBuf> = self
            .listing(&self.model_dir())
            .into_iter()
            .filter(|(name, p)| name.ends_with(".blp") && p.is_file() && name.starts_with(&stem))
            .map(|(_, p)| p)
            .collect();
        match blps.as_slice() {
            [one] => Ok(one.clone()),
            _ => Err(format!(
                "replaceable texture type {kind} is chosen by the game's tables; give it with --texture {kind}=FILE ({} BLP files named after {} in {})",
                blps.len(),
                self.stem(),
                self.model_dir().display()
            )),
        }
    }

    fn skin(&self, slot: u32) -> Result<PathBuf, String> {
        if let Some(file) = self.search.skins.get(slot as usize) {
            return Ok(file.clone());
        }
        let stem = self.stem();
        let names = |s: &str| if slot == 0 { format!("{s}.dtx") } else { format!("{s}_head.dtx") };
        let mut wanted = vec![names(&stem)];
        if let Some(base) = stem.to_lowercase().strip_suffix("_multi") {
            wanted.push(names(base));
        }
        let models = self
            .model_dir()
            .ancestors()
            .find(|a| a.file_name().is_some_and(|n| n.eq_ignore_ascii_case("models")))
            .map(Path::to_path_buf);
        if let Some(skins) = models.as_ref().and_then(|m| m.parent()).and_then(|p| self.resolve_dir(p, "skins")) {
            for name in &wanted {
                if let Some(found) = self.resolve(&skins, name) {
                    return Ok(found);
                }
            }
        }
        Err(format!(
            "LithTech models name no texture: give skin slot {slot} with --skin FILE (looked for SKINS/{} beside the MODELS folder above {})",
            wanted.join(" or SKINS/").to_uppercase(),
            self.model.display()
        ))
    }

    fn resolve_dir(&self, root: &Path, name: &str) -> Option<PathBuf> {
        self.listing(root).into_iter().find(|(n, p)| n == name && p.is_dir()).map(|(_, p)| p)
    }
}

/// Reads and decodes a texture file: PNG/JPEG as they are, a format of the registry (BLP, DTX)
/// decoded to RGBA.
pub fn load_texture(path: &Path) -> Lookup {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => return Lookup::Failed(format!("cannot read {}: {e}", path.display())),
    };
    // A path without a file name: the image gets the empty name (glTF names are optional).
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let key = path.display().to_string();
    let data = match mime_type(&bytes) {
        Some("image/png") => ImageData::Png(bytes),
        Some(_) => ImageData::Jpeg(bytes),
        None => {
            let codec = crate::formats::detect(&bytes)
                .filter(|(_, d)| d.content == Content::Texture)
                .and_then(|(entry, _)| entry.texture);
            let Some(codec) = codec else {
                return Lookup::Failed(format!("{} is not a texture relic reads", path.display()));
            };
            let siblings = FolderSiblings::of(path);
            let input = Input { bytes: &bytes, name: &name, siblings: &siblings };
            match (codec.decode)(&input, 0, &TextureOptions::default()) {
                Ok(image) => ImageData::Rgba(image),
                Err(e) => return Lookup::Failed(format!("{}: {e}", path.display())),
            }
        }
    };
    let opaque = matches!(&data, ImageData::Rgba(i) if i.is_opaque());
    Lookup::Found(FoundTexture { key, name, data, opaque })
}

impl TextureSource for GameTextures {
    fn lookup(&self, _material: usize, _layer: usize, texture: &TextureRef) -> Lookup {
        let file = match (texture.path.is_empty(), texture.replaceable, texture.slot) {
            (false, _, _) => self.game_path(&texture.path),
            (true, Some(kind), _) => self.replaceable(kind),
            (true, None, Some(slot)) => self.skin(slot),
            (true, None, None) => Err("the texture names no file".into()),
        };
        match file {
            Ok(path) => load_texture(&path),
            Err(looked) => Lookup::Missing(looked),
        }
    }
}
