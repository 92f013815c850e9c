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

use relic_core::Loss;

use crate::file::{EventTrack, M2File};

/// `n` things, the first at index `first`, as a note.
fn counted(element: &str, n: usize, first: usize, what: &str, done: &str) -> Loss {
    let things = if n == 1 { format!("entry {first}") } else { format!("{n} entries (the first is {first})") };
    Loss::new(element, format!("{things} {what}; the game loads this: {done}"))
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
    out
}

fn fires_twice(t: &EventTrack) -> bool {
    t.timestamps.windows(2).any(|w| w.first() == w.get(1))
}
