//! The model's materials → NOD material names (the game loads `X.nam`, else `X.tga`), and the
//! `char[32]` names of materials and meshes.

use relic_core::Loss;
use relic_core::binary::FixedString;
use relic_core::model::{BlendMode, Model};

use crate::extras::NodSource;
use crate::file::Name;

/// The material names, with what a NOD cannot hold reported.
pub(crate) fn write_materials(model: &Model, source: Option<&NodSource>, losses: &mut Vec<Loss>) -> Vec<Name> {
    let mut out = Vec::with_capacity(model.materials.len());
    for (i, m) in model.materials.iter().enumerate() {
        let element = format!("materials[{i}] {:?}", m.name);
        // A NOD names a material by its texture's base name: an unnamed material with a texture
        // takes the texture's name; one without stays unnamed (a NOD may hold an empty name).
        let name = match m.textures.first() {
            Some(t) if m.name.is_empty() => file_stem(&t.path).to_string(),
            _ => m.name.clone(),
        };
        let raw = source.and_then(|s| s.materials.get(i)).map(|r| FixedString(*r)).filter(|r| r.to_text() == name);
        out.push(match raw {
            Some(raw) => raw,
            None => encode_name(&name, &element, losses),
        });
        if let Some(t) = m.textures.first()
            && t.path != name
            && file_stem(&t.path) != name
        {
            losses.push(Loss::new(
                &element,
                format!(
                    "texture {:?} is not kept: a NOD names the material only (the game loads {name}.nam or {name}.tga)",
                    t.path
                ),
            ));
        }
        let mut dropped = Vec::new();
        if m.textures.len() > 1 {
            dropped.push(format!("{} more textures", m.textures.len() - 1));
        }
        if m.blend != BlendMode::Opaque {
            dropped.push(format!("blend {:?}", m.blend));
        }
        for (set, what) in [(m.double_sided, "double-sided"), (m.unlit, "unlit"), (m.unfogged, "unfogged")] {
            if set {
                dropped.push(what.to_string());
            }
        }
        if m.specular.is_some() {
            dropped.push("specular".into());
        }
        if !dropped.is_empty() {
            losses.push(Loss::new(
                &element,
                format!("{} not kept (set them in the material's .nam file)", dropped.join(", ")),
            ));
        }
    }
    out
}

/// The part of a path after the last separator and before the last dot.
fn file_stem(path: &str) -> &str {
    let base = path.rsplit(['/', '\\']).next().unwrap_or(path);
    match base.rfind('.') {
        Some(dot) if dot > 0 => base.get(..dot).unwrap_or(base),
        _ => base,
    }
}

/// A `char[32]` holding `name` in Windows-1252: NUL-terminated, or all 32 bytes without a NUL
/// (spec §2.1: readers tolerate that, and a file read with such a name writes it back); longer
/// names are cut to 31 characters and reported.
pub(crate) fn encode_name(name: &str, element: &str, losses: &mut Vec<Loss>) -> Name {
    if let Some(n) = FixedString::from_text(name) {
        return n;
    }
    if let Some(full) = relic_core::text::encode_cp1252(name).and_then(|b| <[u8; 32]>::try_from(b).ok())
        && !full.contains(&0)
    {
        return FixedString(full);
    }
    let mut bytes = Vec::new();
    for c in name.chars() {
        if bytes.len() == 31 {
            break;
        }
        bytes.push(relic_core::text::encode_cp1252_char(c).unwrap_or(b'?'));
    }
    let mut raw = [0u8; 32];
    for (d, s) in raw.iter_mut().zip(&bytes) {
        *d = *s;
    }
    let kept = FixedString::<32>(raw);
    losses.push(Loss::new(
        element,
        format!("name {name:?} stored as {:?} (31 Windows-1252 characters at most)", kept.to_text()),
    ));
    kept
}
