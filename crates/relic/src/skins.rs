//! The images of a glTF written as the game's textures beside a converted model: BLP for M2 and
//! MDX (the texture record pointing at it), DTX for ABC (LithTech models name no file: the skins are
//! `NAME.DTX`, `NAME_HEAD.DTX`, as the games' SKINS folders name them).
//!
//! | target | texture written | the model's record |
//! |---|---|---|
//! | M2 | the record's own file name (`GNOMESKIN.BLP` for `CREATURE\GNOME\GNOMESKIN.BLP`), else `<stem>_<n>.blp` | kept when it names a game path (place the file there under the data folder); else the new file's path relative to `--data`, or its name |
//! | ABC | slot 0 `<stem>.dtx`, slot 1 `<stem>_head.dtx`, slot n `<stem>_skin<n>.dtx` | — (the game's attribute files name skins) |
//! | M2, MDX: a replaceable texture that names no file (team colour, a creature's skin) | the image's own name (`RabbitSkin.blp`), else `<stem>_<n>.blp`, with a note: the game picks the file | kept |

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use relic_core::Loss;
use relic_core::format::{FormatEntry, Textures};
use relic_core::model::Model;
use relic_core::texture::TextureOptions;
use relic_gltf::MaterialImage;

use crate::registry::Registry;

/// Where a model's textures are written and what they are called.
#[derive(Debug, Clone, Default)]
pub struct SkinOptions {
    /// The images of the glTF the model came from (see [`relic_gltf::material_images`]).
    pub images: Vec<MaterialImage>,
    /// The game's data folder: an M2 texture written inside it gets its path relative to it.
    pub data_root: Option<PathBuf>,
}

/// The texture of material `m` an image stands for: the one whose game path the image is named
/// after (relic names the images of a glb so), else the first.
fn texture_index(model: &Model, image: &MaterialImage) -> usize {
    let name = image.name.strip_suffix(".png").unwrap_or(&image.name);
    let named = |t: &relic_core::model::TextureRef| !t.path.is_empty() && t.path.eq_ignore_ascii_case(name);
    model.materials.get(image.material).and_then(|m| m.textures.iter().position(named)).unwrap_or(0)
}

/// An image's own file name as a texture of `format` (`RabbitSkin.blp` for `RabbitSkin.png` or
/// `Creature\Rabbit\RabbitSkin.blp`); `None` for a name without one.
fn own_name(name: &str, format: &str) -> Option<String> {
    let file = name.rsplit(['\\', '/']).next()?;
    let stem = file.rsplit_once('.').map_or(file, |(s, _)| s);
    (!stem.is_empty()).then(|| format!("{stem}.{format}"))
}

/// The file name (and, for M2 and MDX, the record path) of material `m`'s texture `t`.
fn names(
    model: &Model,
    (m, t): (usize, usize),
    format: &str,
    stem: &str,
    out_dir: &Path,
    data_root: Option<&Path>,
) -> (String, Option<String>) {
    let texture = model.materials.get(m).and_then(|x| x.textures.get(t));
    if format == "abc" {
        let slot = texture.and_then(|t| t.slot).unwrap_or(m as u32);
        let name = match slot {
            0 => format!("{stem}.dtx"),
            1 => format!("{stem}_head.dtx"),
            n => format!("{stem}_skin{n}.dtx"),
        };
        return (name, None);
    }
    let game_path = texture.map(|t| t.path.clone()).filter(|p| !p.is_empty());
    if let Some(path) = game_path {
        let file = path.rsplit(['\\', '/']).next().unwrap_or(&path).to_string();
        return (file, Some(path));
    }
    let file = format!("{stem}_{m}.blp");
    let record = data_root
        .and_then(|root| out_dir.join(&file).strip_prefix(root).ok().map(Path::to_path_buf))
        .map(|rel| rel.to_string_lossy().replace('/', "\\"))
        .unwrap_or_else(|| file.clone());
    (file, Some(record))
}

/// The model to write (its texture records pointing at the textures; the model given, not a copy,
/// when no record changes), the texture files (whole paths and bytes) and notes.
pub type Skins<'m> = (Cow<'m, Model>, Vec<(PathBuf, Vec<u8>)>, Vec<Loss>);

/// Encodes the images of `options` as textures of the format `entry`'s games load (its
/// [`Textures::Files`], found in `registry`) beside the output `out`, pointing the model's texture
/// records at them (M2). Returns the model to write, the texture files (whole paths) and notes.
pub fn skins<'m>(
    model: &'m Model,
    entry: &FormatEntry,
    registry: &Registry,
    out: &Path,
    options: &SkinOptions,
) -> Skins<'m> {
    let model_format = entry.name;
    let mut model = Cow::Borrowed(model);
    let mut files = Vec::new();
    let mut notes = Vec::new();
    if options.images.is_empty() {
        return (model, files, notes);
    }
    let Some(Textures::Files(format)) = entry.model.map(|m| m.textures) else {
        notes.push(Loss::new(
            "textures",
            format!(
                "{} images not written: {model_format} models name no texture files relic writes",
                options.images.len()
            ),
        ));
        return (model, files, notes);
    };
    let Some(codec) = registry.by_name(format).and_then(|e| e.texture) else {
        let what = format!("{} images not written: {format} textures are not in this build", options.images.len());
        notes.push(Loss::new("textures", what));
        return (model, files, notes);
    };
    // An output without a file name gives the textures no stem (`_head.dtx`): the output itself cannot be
    // written either, with its own error.
    let stem = out.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    // An output without a folder: the current one (the empty path), where the output goes too.
    let dir = out.parent().map(Path::to_path_buf).unwrap_or_default();
    for image in &options.images {
        let element = format!("materials[{}]", image.material);
        let pixels = match &image.image {
            Ok(p) => p,
            Err(why) => {
                notes.push(Loss::new(element, format!("image {:?} not written as a texture: {why}", image.name)));
                continue;
            }
        };
        // A replaceable texture that names no file (team colour, a creature's skin) is the game's
        // to pick: its record stays as it is; the image (the file found for it, edited or not)
        // is written under its own name, for the game's tables to name.
        let t = texture_index(&model, image);
        let texture = model.materials.get(image.material).and_then(|m| m.textures.get(t));
        let replaceable = texture.filter(|t| t.path.is_empty()).and_then(|t| t.replaceable);
        let (file, record) = match replaceable {
            Some(kind) => {
                // Its own name, unless a texture the model names has it (evilakama's team glow
                // holds the skin's image): then one of the model's own.
                let named = |f: &str| {
                    model
                        .materials
                        .iter()
                        .flat_map(|m| &m.textures)
                        .any(|t| own_name(&t.path, format).is_some_and(|o| o.eq_ignore_ascii_case(f)))
                        || files.iter().any(|(p, _): &(PathBuf, Vec<u8>)| *p == dir.join(f))
                };
                let file = own_name(&image.name, format)
                    .filter(|f| !named(f))
                    .unwrap_or_else(|| format!("{stem}_{}.{format}", image.material));
                let what = format!(
                    "image {:?} written as {file}; the texture stays replaceable type {kind}, whose file the game picks",
                    image.name
                );
                notes.push(Loss::new(element.clone(), what));
                (file, None)
            }
            None => names(&model, (image.material, t), model_format, &stem, &dir, options.data_root.as_deref()),
        };
        match (codec.encode)(pixels, &TextureOptions::default()) {
            Ok(encoded) => {
                notes
                    .extend(encoded.losses.into_iter().map(|l| Loss::new(format!("{element} texture {file}"), l.what)));
                // The model is copied only for a record that changes (an ABC has none).
                let current = model.materials.get(image.material).and_then(|m| m.textures.get(t)).map(|t| &t.path);
                let record = record.filter(|r| current != Some(r));
                let material = record.as_ref().and_then(|_| model.to_mut().materials.get_mut(image.material));
                if let (Some(record), Some(material)) = (record, material) {
                    match material.textures.get_mut(t) {
                        Some(t) => t.path = record,
                        None => material.textures.push(relic_core::model::TextureRef {
                            path: record,
                            uv_set: Some(0),
                            wrap_u: true,
                            wrap_v: true,
                            ..Default::default()
                        }),
                    }
                }
                // Two materials sharing one texture file (evilakama's skin under two layers)
                // write it once; another image for a file written already is left out, said.
                let path = dir.join(&file);
                match files.iter().find(|(p, _)| *p == path) {
                    None => files.push((path, encoded.value)),
                    Some((_, bytes)) if *bytes == encoded.value => {}
                    Some(_) => notes.push(Loss::new(
                        element,
                        format!("image {:?} not written: another image is written as {file} already", image.name),
                    )),
                }
            }
            Err(e) => notes.push(Loss::new(element, format!("image {:?} not written as {file}: {e}", image.name))),
        }
    }
    (model, files, notes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use relic_core::model::{Material, TextureRef};
    use relic_core::texture::Image;

    /// The model is copied only when a texture record changes: never for an ABC (LithTech models
    /// name no file), for an M2 record pointed at a new file, not for one that names it already.
    #[test]
    fn the_model_is_copied_only_for_a_record_that_changes() {
        let registry = Registry::builtin();
        let texture = |path: &str| TextureRef { path: path.into(), ..Default::default() };
        let model = Model {
            materials: vec![Material { textures: vec![texture("CREATURE\\GNOME\\GNOME.BLP")], ..Default::default() }],
            ..Default::default()
        };
        let image = Image { width: 4, height: 4, rgba: vec![255; 64] };
        let images = vec![MaterialImage { material: 0, name: "skin".into(), image: Ok(image) }];
        let options = SkinOptions { images, data_root: None };
        let out = Path::new("out/model.abc");
        let copied = |format: &str, model: &Model| {
            let entry = registry.by_name(format).unwrap();
            let (written, files, _) = skins(model, entry, &registry, out, &options);
            assert_eq!(files.len(), 1, "{format}: one texture written");
            matches!(written, Cow::Owned(_))
        };
        assert!(!copied("abc", &model), "an ABC names no texture file");
        assert!(!copied("m2", &model), "the record names the file written already");
        let unnamed = Model { materials: vec![Material::default()], ..model.clone() };
        assert!(copied("m2", &unnamed), "the record is made");
    }

    /// A material whose layers are team colour (replaceable, no file) and a skin: the image named
    /// after the skin is written as the skin; an image of a material that has only the team
    /// colour is written under its own name, the record staying replaceable, with a note.
    #[test]
    fn a_replaceable_texture_keeps_its_record() {
        let registry = Registry::builtin();
        let team = TextureRef { replaceable: Some(1), ..Default::default() };
        let skin = TextureRef { path: "units\\Akama\\Akama.blp".into(), ..Default::default() };
        let model = Model {
            materials: vec![
                Material { textures: vec![team.clone(), skin.clone()], ..Default::default() },
                Material { textures: vec![team.clone()], ..Default::default() },
                Material {
                    textures: vec![TextureRef { replaceable: Some(2), ..Default::default() }],
                    ..Default::default()
                },
                Material { textures: vec![skin.clone()], ..Default::default() },
            ],
            ..Default::default()
        };
        let image = || Ok(Image { width: 4, height: 4, rgba: vec![255; 64] });
        let images = vec![
            MaterialImage { material: 0, name: "units\\Akama\\Akama.blp".into(), image: image() },
            MaterialImage { material: 1, name: "TeamColor00.png".into(), image: image() },
            // The skin again, under another material: written once.
            MaterialImage { material: 3, name: "units\\Akama\\Akama.blp".into(), image: image() },
            // A team glow holding the skin's image (evilakama.mdx): not written over the skin.
            MaterialImage { material: 2, name: "units\\Akama\\Akama.blp".into(), image: image() },
        ];
        let options = SkinOptions { images, data_root: None };
        let entry = registry.by_name("mdx").unwrap();
        let (written, files, notes) = skins(&model, entry, &registry, Path::new("out/model.mdx"), &options);
        let names: Vec<_> = files.iter().map(|(p, _)| p.display().to_string()).collect();
        assert_eq!(names, ["out/Akama.blp", "out/TeamColor00.blp", "out/model_2.blp"]);
        assert_eq!(written.materials, model.materials, "no record changes");
        let team_note = notes.iter().find(|n| n.element == "materials[1]").map(|n| n.what.as_str());
        assert!(team_note.is_some_and(|w| w.contains("stays replaceable type 1")), "{notes:?}");
    }
}
