//! Materials as MTLS materials of one layer a texture, and their textures as TEXS (spec §4.5,
//! §4.6): the inverse of `to_ir`'s reading, which takes blending, sidedness, lighting and fog
//! from the first layer.

use std::collections::HashMap;

use relic_core::Loss;
use relic_core::model::{BlendMode, Material as IrMaterial, Model, TextureRef};

use super::names::{Names, fixed};
use crate::file::{Layer, Material, Texture};

/// The texture a material without one is drawn with (every game install has it).
const WHITE: &str = "Textures\\white.blp";
/// The replaceable ids the game knows (as `to_ir` reads them).
const REPLACEABLE_IDS: [u32; 11] = [1, 2, 11, 21, 31, 32, 33, 34, 35, 36, 37];

/// Counts of what the materials could not keep.
#[derive(Default)]
struct Counts {
    untextured: usize,
    nameless: usize,
    foreign_replaceable: usize,
    uv_transforms: usize,
    slots: usize,
    specular: usize,
    cutoff: usize,
    layered: usize,
}

fn filter_mode(b: BlendMode) -> u32 {
    b.blizzard_code().into()
}

fn shading(m: &IrMaterial) -> u32 {
    let mut f = 0;
    if m.unlit {
        f |= 0x1;
    }
    if m.double_sided {
        f |= 0x10;
    }
    if m.unfogged {
        f |= 0x20;
    }
    if !m.depth_write {
        f |= 0x80;
    }
    f
}

/// MTLS and TEXS for the model's materials, plus a plain material after them when `extra` (for
/// meshes without one). `from_mdx`: the replaceable ids are Warcraft's own.
pub(super) fn materials(
    model: &Model,
    extra: bool,
    from_mdx: bool,
    names: &mut Names,
    losses: &mut Vec<Loss>,
) -> (Vec<Material>, Vec<Texture>) {
    let mut counts = Counts::default();
    let mut textures: Vec<Texture> = Vec::new();
    let mut known: HashMap<(String, u32, u32), i32> = HashMap::new();
    let mut texture = |path: &str, replaceable: u32, flags: u32, names: &mut Names| -> i32 {
        *known.entry((path.to_string(), replaceable, flags)).or_insert_with(|| {
            textures.push(Texture { replaceable_id: replaceable, path: fixed(path, names), flags });
            textures.len() as i32 - 1
        })
    };
    let plain = IrMaterial { depth_write: true, ..IrMaterial::default() };
    let mut out = Vec::new();
    for m in model.materials.iter().chain(extra.then_some(&plain)) {
        counts.specular += usize::from(m.specular.is_some());
        counts.cutoff += usize::from(m.alpha_cutoff.is_some_and(|c| c != 0.75));
        let white = [TextureRef { path: WHITE.into(), uv_set: Some(0), ..TextureRef::default() }];
        let refs: &[TextureRef] = if m.textures.is_empty() {
            counts.untextured += 1;
            &white
        } else {
            &m.textures
        };
        counts.layered += usize::from(refs.len() > 1 && m.blend == BlendMode::Opaque);
        let mut layers = Vec::new();
        for (k, t) in refs.iter().enumerate() {
            counts.uv_transforms += usize::from(t.transform.is_some());
            counts.slots += usize::from(t.slot.is_some());
            let replaceable = match t.replaceable {
                Some(id) if from_mdx && REPLACEABLE_IDS.contains(&id) => id,
                Some(_) => {
                    counts.foreign_replaceable += 1;
                    0
                }
                None => 0,
            };
            let flags = u32::from(t.wrap_u) | (u32::from(t.wrap_v) << 1);
            // A texture that names no file and is no Warcraft replaceable one (another game's
            // replaceable skin, a slot its tables fill): drawn white.
            let nameless = t.path.is_empty() && replaceable == 0;
            counts.nameless += usize::from(nameless);
            let path = if nameless { WHITE } else { &t.path };
            let texture_id = texture(path, replaceable, flags, names);
            // Layers over an opaque first one are drawn alpha-keyed, so that it shows through.
            let blend = if k > 0 && m.blend == BlendMode::Opaque { BlendMode::AlphaKey } else { m.blend };
            layers.push(Layer {
                filter_mode: filter_mode(blend),
                shading_flags: shading(m) | if t.uv_set.is_none() { 0x2 } else { 0 },
                texture_id,
                texture_animation_id: -1,
                coord_id: t.uv_set.unwrap_or(0),
                alpha: 1.0,
                emissive_gain: None,
                fresnel: None,
                slots: None,
                tracks: Vec::new(),
            });
        }
        out.push(Material { priority_plane: 0, flags: 0, shader: None, layers });
    }
    counts.losses(losses);
    (out, textures)
}

impl Counts {
    fn losses(&self, losses: &mut Vec<Loss>) {
        let mut note = |n: usize, what: &str| {
            if n > 0 {
                losses.push(Loss::new("materials", format!("{n} {what}")));
            }
        };
        note(self.untextured, &format!("materials without a texture: drawn with {WHITE}"));
        note(
            self.foreign_replaceable,
            "replaceable textures of another game's kind (M2 skins, capes): not a Warcraft replaceable id; written \
             as the path they name",
        );
        note(self.nameless, &format!("textures that name no file: drawn with {WHITE}"));
        note(self.uv_transforms, "texture transforms dropped (texture animations, TXAN, are not written)");
        note(self.slots, "texture slots dropped (the game's tables fill them)");
        note(self.specular, "specular settings dropped (MDX 800 has none)");
        note(self.cutoff, "alpha cutoffs other than the game's 0.75 dropped");
        note(
            self.layered,
            "opaque materials of several textures: the layers after the first are drawn alpha-keyed (Transparent), \
             so that the ones under them show through",
        );
    }
}
