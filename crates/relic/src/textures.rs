//! Finding a model's textures the way a game folder is laid out, and decoding them through the
//! format registry (BLP, DTX) for glTF export.
//!
//! | texture | where it is looked for |
//! |---|---|
//! | a game path (M2 `CREATURE\GNOME\GNOME.BLP`) | under each `--data` folder, else under every folder above the model (the game's data root is one of them), case-insensitively; then PNG/JPEG under `--textures`; then the file name anywhere under the model's folder |
//! | an M2 replaceable texture (types 1, 2, 6, 8, 11–13: chosen by the game's tables) | `--texture TYPE=FILE`; else a `.blp` in the model's folder named after the model (`RabbitSkin.blp` for `Rabbit.m2`), as extracted folders keep them |
//! | a LithTech skin slot (ABC names no texture: a piece's material index is a slot the game fills from its own tables) | `--skin FILE` (slot 0 first, then 1, …) or `--skin SLOT=FILE`; else, as the games lay out their files, `SKINS/NAME.DTX` (slot 0, the body) and `SKINS/NAME_HEAD.DTX` (slot 1, the head) in the `SKINS` folder beside the `MODELS` folder above the model (NOLF `CHARS/MODELS/MULTI/X.ABC` → `CHARS/SKINS/`), then beside the model itself; `NAME` is the model's file name without extension, tried again without a trailing `_MULTI` (`hero_thief_multi` → `hero_thief`); names match without regard to case, and any texture format relic reads counts (DTX in the LithTech games); other slots have no conventional name and need `--skin SLOT=FILE` |
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
    /// Files for LithTech skin slots (`--skin FILE`, `--skin SLOT=FILE`): (slot, file). They
    /// win over the default search.
    pub skins: Vec<(u32, PathBuf)>,
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
        if let Some((_, file)) = self.search.skins.iter().find(|(s, _)| *s == slot) {
            return Ok(file.clone());
        }
        let Some(wanted) = skin_names(&self.stem(), slot) else {
            return Err(format!(
                "LithTech models name no skin file and slot {slot} has no conventional name: give it with --skin {slot}=FILE"
            ));
        };
        let models = self
            .model_dir()
            .ancestors()
            .find(|a| a.file_name().is_some_and(|n| n.eq_ignore_ascii_case("models")))
            .map(Path::to_path_buf);
        let skins = models.as_ref().and_then(|m| m.parent()).and_then(|p| self.resolve_dir(p, "skins"));
        let extensions: Vec<&str> = crate::formats::FORMATS
            .iter()
            .filter(|f| f.texture.is_some())
            .flat_map(|f| f.extensions.iter().copied())
            .collect();
        for dir in skins.iter().chain([&self.model_dir()]) {
            let listing = self.listing(dir);
            for name in &wanted {
                let found = listing.iter().find(|(file, path)| {
                    file.rsplit_once('.').is_some_and(|(stem, ext)| stem == name && extensions.contains(&ext))
                        && path.is_file()
                });
                if let Some((_, path)) = found {
                    return Ok(path.clone());
                }
            }
        }
        let names = wanted.iter().map(|n| format!("{}.DTX", n.to_uppercase())).collect::<Vec<_>>().join(" or ");
        let skins_dir = match (&skins, &models) {
            (Some(dir), _) => dir.display().to_string(),
            (None, Some(m)) => format!("SKINS beside {} (absent)", m.display()),
            (None, None) => "SKINS beside a MODELS folder (none above the model)".into(),
        };
        Err(format!(
            "looked for {names} in {skins_dir} and in {}; LithTech models name no skin file: give it with --skin {slot}=FILE",
            self.model_dir().display()
        ))
    }

    fn resolve_dir(&self, root: &Path, name: &str) -> Option<PathBuf> {
        self.listing(root).into_iter().find(|(n, p)| n == name && p.is_dir()).map(|(_, p)| p)
    }
}

/// The conventional file names (lower case, no extension) of skin slot `slot` of the model
/// `stem`: slot 0 the body `NAME`, slot 1 the head `NAME_HEAD` (NOLF's `Skin0`/`Head0` in
/// MODELBUTES.TXT, textures.md §4.2), each again without a trailing `_MULTI`; `None` for other
/// slots, which no convention names.
fn skin_names(stem: &str, slot: u32) -> Option<Vec<String>> {
    let suffix = match slot {
        0 => "",
        1 => "_head",
        _ => return None,
    };
    let stem = stem.to_lowercase();
    let mut names = vec![format!("{stem}{suffix}")];
    if let Some(base) = stem.strip_suffix("_multi") {
        names.push(format!("{base}{suffix}"));
    }
    Some(names)
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
    /// Skins given (`--skin`) for slots no material of the model uses.
    fn unused(&self, model: &relic_core::Model) -> Vec<String> {
        let used = |slot: u32| model.materials.iter().flat_map(|m| &m.textures).any(|t| t.slot == Some(slot));
        let given = self.search.skins.iter().filter(|(slot, _)| !used(*slot));
        given
            .map(|(slot, file)| {
                format!("--skin {slot}={}: the model has no skin slot {slot}; not used", file.display())
            })
            .collect()
    }

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
