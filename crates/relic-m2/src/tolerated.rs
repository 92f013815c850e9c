//! Inconsistencies the game loads (issue 27 class 2; docs/FORMAT-NOTES.md, "Which rules the game
//! enforces"): converter-written files hold them. relic reads such a file, keeps its bytes, and
//! names each inconsistency with what relic did about it — a note among the losses of a read, a
//! `note` line of `relic info` — instead of refusing the file.
//!
//! | inconsistency | what relic does |
//! |---|---|
//! | collision triangle naming a collision vertex that does not exist | kept; collision is not converted (extras only) |
//! | texture-transform lookup naming a transform that does not exist | kept; the batch has no UV animation |
//! | texture unit naming a texture-coordinate combo past the lookup (v272: lookup empty) | kept; the texture uses UV set 0 |
//! | event firing twice at one time (equal consecutive timestamps) | kept; both firings are converted |
//! | event range reaching past the track's keys (`[0, 1)` over none) | kept; the sequence fires the keys that exist |
//! | event times going back | kept; each sequence's firings are converted in time order |
//! | particle or ribbon track values that are not finite (NaN) | kept bit for bit in the emitter's record; the model and glTF carry 0 in their place |
//! | blocks that share bytes (a bone's rotation values running on into the texture names) | kept byte for byte; each block read at its offset, as the game does |
//! | `.skin` shadow batches past the end of the file (a model before 272: the Wrath client never reads them) | the pair kept as stored; no records read |

use relic_core::Loss;

use crate::file::{EventTrack, M2File};

/// `n` things, the first at index `first`, as a note.
fn counted(element: &str, n: usize, first: usize, what: &str, done: &str) -> Loss {
    let things = if n == 1 { format!("entry {first}") } else { format!("{n} entries (the first is {first})") };
    Loss::new(element, format!("{things} {what}; the game loads this: {done}"))
}

/// The tolerated inconsistencies of a Wrath-or-later model's `.skin` files: shadow-batch pairs
/// pointing past the end of the file in a model before 272 (ported models), one note.
pub(crate) fn skin_notes(skins: &[crate::file::wrath::Skin]) -> Vec<Loss> {
    let unread: Vec<(usize, _)> =
        skins.iter().enumerate().filter_map(|(i, s)| s.unread_shadow_batches.map(|p| (i, p))).collect();
    let Some(&(first, pair)) = unread.first() else { return Vec::new() };
    let what = format!(
        "holds shadow batches past the end of its file ({} records at byte {}: the .skin has no such bytes)",
        pair.count, pair.offset
    );
    let done = "the pair is kept as stored (the Wrath client never reads shadow batches)";
    vec![counted("skins", unread.len(), first, &what, done)]
}

/// Every tolerated inconsistency of a file that [`crate::read`] accepted, one note per kind and
/// table (counted, naming the first).
pub(crate) fn notes(f: &M2File) -> Vec<Loss> {
    let mut out = Vec::new();
    let outside = |xs: &mut dyn Iterator<Item = i64>, count: usize| {
        let bad: Vec<usize> = xs.enumerate().filter(|&(_, v)| v < -1 || v >= count as i64).map(|(i, _)| i).collect();
        // The count says whether there is a first bad entry; 0 is only read when the count is not 0.
        (bad.len(), bad.first().copied().unwrap_or(0))
    };
    let nv = f.collision_vertices.len();
    let (n, first) = outside(&mut f.collision_triangles.iter().map(|&v| i64::from(v)), nv);
    if n > 0 {
        let what = format!("names a collision vertex past the {nv} there are");
        out.push(counted("collision_triangles", n, first, &what, "kept as it is (collision is not converted)"));
    }
    let nt = f.texture_transforms.len();
    let (n, first) = outside(&mut f.texture_transform_lookup.iter().map(|&v| i64::from(v)), nt);
    if n > 0 {
        let what = format!("names a texture transform past the {nt} there are");
        out.push(counted("texture_transform_lookup", n, first, &what, "kept; such a batch has no UV animation"));
    }
    for (vi, view) in f.views.iter().enumerate() {
        let nc = f.texture_unit_lookup.len();
        let bad: Vec<usize> = view
            .texture_units
            .iter()
            .enumerate()
            .filter(|(_, u)| usize::from(u.texture_coord_combo_index) >= nc)
            .map(|(i, _)| i)
            .collect();
        if let Some(&first) = bad.first() {
            let what = format!("names a texture-coordinate combo past the {nc} there are");
            let element = format!("views[{vi}].texture_units");
            out.push(counted(&element, bad.len(), first, &what, "kept; its textures use UV set 0"));
        }
    }
    let twice: Vec<usize> =
        f.events.iter().enumerate().filter(|(_, e)| fires_twice(&e.times)).map(|(i, _)| i).collect();
    if let Some(&first) = twice.first() {
        let what = "fires twice at one time (equal consecutive timestamps)";
        out.push(counted("events", twice.len(), first, what, "kept; both firings are converted"));
    }
    let past: Vec<usize> =
        f.events.iter().enumerate().filter(|(_, e)| range_past_keys(&e.times)).map(|(i, _)| i).collect();
    if let Some(&first) = past.first() {
        let what = "has a sequence range reaching past its keys";
        out.push(counted("events", past.len(), first, what, "kept; the sequence fires the keys that exist"));
    }
    let back: Vec<usize> = f.events.iter().enumerate().filter(|(_, e)| goes_back(&e.times)).map(|(i, _)| i).collect();
    if let Some(&first) = back.first() {
        let what = "has firing times that go back";
        out.push(counted(
            "events",
            back.len(),
            first,
            what,
            "kept; each sequence's firings are converted in time order",
        ));
    }
    for (kind, bad) in [("particle_emitters", non_finite_particles(f)), ("ribbon_emitters", non_finite_ribbons(f))] {
        if let Some(&(first, _)) = bad.first() {
            let values: usize = bad.iter().map(|(_, n)| n).sum();
            let what = format!("has {values} track values that are not finite (NaN or infinite) in all");
            let done = "kept bit for bit in the emitter's record (the file written back); the model and glTF carry 0 in their place";
            out.push(counted(kind, bad.len(), first, &what, done));
        }
    }
    // Only a layout read from bytes can share them: the 256–263 form of a Wrath or chunked file
    // (converted, its keys from `.anim` files) has no offsets of its own.
    let (n, first) = if f.as_read.recorded().is_some() { crate::validate::overlaps(f) } else { (0, None) };
    if let Some(o) = first {
        let ((a, a_at, a_len), (b, b_at)) = (o.first, o.second);
        let pairs = if n == 1 { "1 pair of blocks shares".to_string() } else { format!("{n} pairs of blocks share") };
        let first = if a_at == b_at {
            format!("{a} ({a_len} bytes) and {b} both at {a_at:#x}")
        } else {
            format!("{a} at {a_at:#x}, {a_len} bytes, runs on into {b} at {b_at:#x}")
        };
        out.push(Loss::new(
            "layout",
            format!(
                "{pairs} bytes (the first: {first}); the game loads this, reading each block at its offset: \
                 each block read the same way, the file kept byte for byte"
            ),
        ));
    }
    out
}

/// `(emitter, values)` for each particle emitter with track values that are not finite.
fn non_finite_particles(f: &M2File) -> Vec<(usize, usize)> {
    let bad = |t: &crate::file::Track<f32>| t.values.iter().filter(|v| !v.is_finite()).count();
    let per = f.particle_emitters.iter().map(|p| p.float_tracks().into_iter().map(|(_, t)| bad(t)).sum::<usize>());
    per.enumerate().filter(|(_, n)| *n > 0).collect()
}

/// `(emitter, values)` for each ribbon emitter with track values that are not finite.
fn non_finite_ribbons(f: &M2File) -> Vec<(usize, usize)> {
    let bad = |t: &crate::file::Track<f32>| t.values.iter().filter(|v| !v.is_finite()).count();
    let per = f.ribbon_emitters.iter().map(|r| {
        let colors = r.color.color.values.iter().flatten().filter(|v| !v.is_finite()).count();
        colors + bad(&r.height_above) + bad(&r.height_below)
    });
    per.enumerate().filter(|(_, n)| *n > 0).collect()
}

fn range_past_keys(t: &EventTrack) -> bool {
    let keys = t.timestamps.len() as u64;
    t.ranges.iter().any(|&[a, b]| a < b && u64::from(b) > keys)
}

/// True if a sequence's firing times go back (within its range; all of them for a track on a
/// global sequence or without ranges). Times of different sequences need no order.
fn goes_back(t: &EventTrack) -> bool {
    let back = |times: &[u32]| times.windows(2).any(|w| w.first() > w.get(1));
    if t.global_sequence >= 0 || t.ranges.is_empty() {
        return back(&t.timestamps);
    }
    t.ranges.iter().any(|&[a, b]| t.timestamps.get(a as usize..(b as usize).min(t.timestamps.len())).is_some_and(back))
}

fn fires_twice(t: &EventTrack) -> bool {
    t.timestamps.windows(2).any(|w| w.first() == w.get(1))
}
