//! Common model → Wrath or later (264, 272): the 256–263 form (at 263), then
//! [`from_classic`](crate::wrath::convert::from_classic). A model read from a Wrath file and not
//! changed since gets that file back (with its `.skin` and `.anim` files, byte for byte); the
//! 256–263 file is built once either way.

use relic_core::{Converted, Model, WriteOptions};

use super::builder::Result;
use crate::extras::{EmitterRecord, M2Extras, digest_matches};
use crate::file::wrath::{WrathParticle, WrathRibbon};
use crate::file::{M2File, Particle, Ribbon};
use crate::wrath::Wrath;
use crate::wrath::convert::Timeline;

/// `model` as a Wrath-or-later model of `version`, with its extras decoded once by the caller,
/// for a file written `chunked` (`MD21`) or plain ([`super::from_ir_into`]).
pub(crate) fn to_wrath(
    model: &Model,
    extras: Option<&M2Extras>,
    version: u32,
    chunked: bool,
) -> Result<Converted<Wrath>> {
    let Converted { value: mut classic, mut losses } =
        super::from_ir_into(model, extras, &WriteOptions { version: Some(263) }, chunked)?;
    // The model is unchanged when the 256–263 form it builds is the extras' (vertices aside: the
    // extras keep their digest).
    let vertices = std::mem::take(&mut classic.vertices);
    let stored = extras.and_then(|e| {
        let wrath = e.wrath.as_deref()?;
        let unchanged = wrath.file.version == version
            && e.vertex_digest.as_deref().is_some_and(|d| digest_matches(d, &vertices))
            && classic == e.file;
        unchanged.then_some(wrath)
    });
    if let Some(stored) = stored {
        // Written back whole: what its 256–263 form could not hold is not lost; only the `.skin`
        // files never read are.
        let classic_only = extras.map_or(&[][..], |e| &e.classic_losses[..]);
        losses.retain(|l| !classic_only.iter().any(|(element, what)| *element == l.element && *what == l.what));
        losses.extend(crate::wrath::convert::unread_skins(stored));
        let mut wrath = stored.clone();
        wrath.file.vertices = vertices;
        return Ok(Converted { value: wrath, losses });
    }
    classic.vertices = vertices;
    let (mut wrath, more) = crate::wrath::convert::from_classic(&classic, version);
    if let Err(e) = crate::wrath::convert::timeline_fits(&wrath.file) {
        let why = match e.kind {
            relic_core::ReadErrorKind::Invalid(why) => why,
            other => other.to_string(),
        };
        return Err(relic_core::WriteError::Unsupported(format!(
            "M2 {version} cannot hold these sequences ({why}; Wrath starts each on the next 3,333 ms mark \
             after the last): write 256–263, whose sequences keep the model's timeline"
        )));
    }
    losses.extend(more);
    keep_unread_skins(extras, &classic, &mut wrath);
    losses.extend(shadow_batches_dropped(extras, &wrath));
    settle_classic_losses(extras, &wrath, &mut losses);
    let restored = wrath_emitters(model, &classic, &mut wrath, &mut losses);
    settle_emitter_losses(extras, &wrath, restored, &mut losses);
    Ok(Converted { value: wrath, losses })
}

/// Keeps counting the `.skin` files a model was read without (m2-incomplete/, creature.m2's
/// second LOD) while the views written are the file's own: the game's own files still fit the
/// vertex array written, so the header says what the game has, as the file read did (and reading
/// it says again that they are not beside it).
fn keep_unread_skins(extras: Option<&M2Extras>, classic: &M2File, wrath: &mut Wrath) {
    let Some(e) = extras else { return };
    let Some(stored) = e.wrath.as_deref() else { return };
    let unread = stored.file.skin_profiles as usize > stored.skins.len();
    if unread && classic.views == e.file.views && wrath.skins.len() == stored.skins.len() {
        wrath.file.skin_profiles = stored.file.skin_profiles;
    }
}

/// The shadow batches of the skins read (272 on) that the skins written do not hold: the
/// views are rebuilt from the model, whose submeshes they do not describe, and 264 has none.
fn shadow_batches_dropped(extras: Option<&M2Extras>, wrath: &Wrath) -> Option<relic_core::Loss> {
    let stored = extras?.wrath.as_deref()?;
    let count = |w: &Wrath| w.skins.iter().filter_map(|s| s.shadow_batches.as_ref()).map(|b| b.len()).sum::<usize>();
    let (read, written) = (count(stored), count(wrath));
    (read > written).then(|| {
        let what = format!(
            "{} of {read} shadow batches dropped: the views were rebuilt for version {}",
            read - written,
            wrath.file.version
        );
        relic_core::Loss::new("skins", what)
    })
}

/// Takes back the losses of the 256–263 form the rebuilt Wrath file does not have: the playable
/// animation lookup (built for 256–263; Wrath has none), and the aliases once the rebuilt file
/// marks as many again (`from_classic`: a sequence sharing an earlier one's window and keys).
fn settle_classic_losses(extras: Option<&M2Extras>, wrath: &Wrath, losses: &mut Vec<relic_core::Loss>) {
    let Some(e) = extras else { return };
    let Some(stored) = e.wrath.as_deref() else { return };
    let aliases = |w: &Wrath| w.file.sequences.iter().filter(|s| s.is_alias()).count();
    let aliases_back = aliases(wrath) >= aliases(stored);
    let classic = |l: &relic_core::Loss| e.classic_losses.iter().any(|(el, what)| *el == l.element && *what == l.what);
    losses.retain(|l| {
        use crate::wrath::convert::{ALIASES_LOSS, PLAYABLE_LOOKUP_LOSS};
        let gone = l.element == PLAYABLE_LOOKUP_LOSS || (l.element == ALIASES_LOSS && aliases_back);
        !(gone && classic(l))
    });
}

/// Puts back the Wrath records of the model's emitters ([`EmitterRecord`]) in place of the ones
/// converted from 256–263 (the conversion cannot restore what 256–263 does not hold of a Wrath
/// emitter), each where the emitter `classic` holds (at the bone and texture indices the file has
/// now) is its 256–263 form on this file's timeline, or is the record's own 256–263 form while
/// the record's timelines fit this file's sequences (one or one per sequence: the sequences
/// written are laid out anew when an alias did not come back, and the emitter is unchanged).
/// A record from another Wrath-or-later version takes this version's fields: the multi-texture
/// parameters of 272 on are dropped for 264 (a loss when they are not zero) and zero from 264.
/// Returns how many particle and ribbon emitters took their Wrath record back.
fn wrath_emitters(
    model: &Model,
    classic: &M2File,
    wrath: &mut Wrath,
    losses: &mut Vec<relic_core::Loss>,
) -> [usize; 2] {
    let records: Vec<_> = model.emitters.iter().filter_map(|e| EmitterRecord::of(e).ok()).collect();
    let mut used = vec![false; records.len()];
    let mut take = |matches: &dyn Fn(&EmitterRecord) -> bool| {
        let at = records.iter().zip(&used).position(|(r, used)| !used && matches(r))?;
        *used.get_mut(at)? = true;
        records.get(at)
    };
    let file = &mut wrath.file;
    let Some(timeline) = Timeline::of(file) else { return [0, 0] };
    let mut restored = [0, 0];
    let sequences = file.sequences.len();
    let multi_texture = file.version >= 272;
    let mut multi_texture_dropped = 0;
    for (c, w) in classic.particle_emitters.iter().zip(file.particle_emitters.iter_mut()) {
        let placed = |r: &EmitterRecord| {
            let mut p = r.wrath_particle.clone()?;
            let kept = r.particle.as_ref()?;
            (p.bone, p.texture) = (
                if kept.bone == c.bone { p.bone } else { c.bone },
                if kept.texture == c.texture { p.texture } else { c.texture },
            );
            p.multi_texture = multi_texture.then(|| p.multi_texture.unwrap_or_default());
            Some(p)
        };
        let unchanged = |r: &EmitterRecord, p: &WrathParticle| {
            r.particle.as_ref().is_some_and(|k| Particle { bone: c.bone, texture: c.texture, ..k.clone() } == *c)
                && fits(p, sequences)
        };
        let same = |r: &EmitterRecord, p: &WrathParticle| timeline.particle(p) == *c || unchanged(r, p);
        if let Some(r) = take(&|r| placed(r).is_some_and(|p| same(r, &p)))
            && let Some(p) = placed(r)
        {
            let had = r.wrath_particle.as_ref().and_then(|p| p.multi_texture);
            multi_texture_dropped += usize::from(!multi_texture && had.is_some_and(|m| m != [0; 4]));
            restored[0] += 1;
            *w = p;
        }
    }
    for (c, w) in classic.ribbon_emitters.iter().zip(file.ribbon_emitters.iter_mut()) {
        let placed = |r: &EmitterRecord| {
            let mut x = r.wrath_ribbon.clone()?;
            (x.bone, x.textures, x.materials) = (c.bone, c.textures.clone(), c.materials.clone());
            Some(x)
        };
        let unchanged = |r: &EmitterRecord, x: &WrathRibbon| {
            r.ribbon.as_ref().is_some_and(|k| {
                Ribbon { bone: c.bone, textures: c.textures.clone(), materials: c.materials.clone(), ..k.clone() } == *c
            }) && fits(x, sequences)
        };
        let same = |r: &EmitterRecord, x: &WrathRibbon| timeline.ribbon(x) == *c || unchanged(r, x);
        if let Some(x) = take(&|r| placed(r).is_some_and(|x| same(r, &x))).and_then(|r| placed(r)) {
            restored[1] += 1;
            *w = x;
        }
    }
    if multi_texture_dropped > 0 {
        let what =
            format!("{multi_texture_dropped} emitters' multi-texture parameters dropped: {} has none", file.version);
        losses.push(relic_core::Loss::new("particle emitters", what));
    }
    restored
}

/// Takes back the losses of the 256–263 form on emitters (what it cannot hold of a Wrath one)
/// when every particle (ribbon) emitter written took its Wrath record back ([`wrath_emitters`]).
fn settle_emitter_losses(
    extras: Option<&M2Extras>,
    wrath: &Wrath,
    [particles, ribbons]: [usize; 2],
    losses: &mut Vec<relic_core::Loss>,
) {
    let Some(e) = extras else { return };
    let file = &wrath.file;
    let whole = |element: &str| match element {
        "particle emitters" => particles == file.particle_emitters.len(),
        "ribbon emitters" => ribbons == file.ribbon_emitters.len(),
        _ => false,
    };
    let classic = |l: &relic_core::Loss| e.classic_losses.iter().any(|(el, what)| *el == l.element && *what == l.what);
    losses.retain(|l| !(whole(&l.element) && classic(l)));
}

/// True if every per-sequence track of `record` has no timeline, one (a constant or global
/// sequence) or one per sequence of a file of `sequences` sequences.
fn fits(record: &impl serde::Serialize, sequences: usize) -> bool {
    fn walk(v: &serde_json::Value, sequences: usize) -> bool {
        match v {
            serde_json::Value::Object(map) => map.iter().all(|(k, v)| {
                let timelines = match v.as_array() {
                    Some(list) if k == "timestamps" && list.iter().all(serde_json::Value::is_array) => list.len(),
                    _ => 0,
                };
                timelines <= 1 || timelines == sequences
            } && walk(v, sequences)),
            serde_json::Value::Array(items) => items.iter().all(|v| walk(v, sequences)),
            _ => true,
        }
    }
    serde_json::to_value(record).is_ok_and(|v| walk(&v, sequences))
}
