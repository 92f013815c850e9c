//! Read-time checks that need more than one record: every index into another table, the bone
//! hierarchy (parents in range, no cycle) and the submesh ranges. Blocks that overlap are not
//! refused (a converter's layout the game reads block by block, issue 39 class 1): [`overlaps`]
//! finds them for `tolerated`'s note.
//! Each failure names the field and the byte offset of the offending value. Inconsistencies the
//! game loads are not refused here: `tolerated` names them as notes (docs/FORMAT-NOTES.md).

use bytemuck::Pod;
use relic_core::ReadError;

use crate::file::record::{Field, Record, Visitor};
use crate::file::*;

/// Offset of record `i` of `size` bytes in `array`, plus `field`.
fn at<T>(array: &M2Array<T>, i: usize, size: u64, field: u64) -> u64 {
    u64::from(array.offset) + i as u64 * size + field
}

/// `index` must be below `count` (or −1 where `allow_none`).
fn check_index(
    value: i64,
    count: usize,
    allow_none: bool,
    offset: u64,
    path: impl FnOnce() -> String,
    what: &str,
) -> Result<(), ReadError> {
    if (allow_none && value == -1) || (value >= 0 && (value as u64) < count as u64) {
        return Ok(());
    }
    Err(ReadError::invalid(offset, path(), format!("{what} {value} is out of range ({count} exist)")))
}

/// How many times a file's size its blocks may add up to when they share bytes: real
/// converter-written files stay within a few percent of 1; past this, blocks read the same bytes
/// over and over, and what the reader holds is no longer bounded by the file (the budget of 16 ×
/// input).
const SHARED_BYTES_LIMIT: u64 = 4;

pub(crate) fn validate(file: &M2File, file_bytes: u64) -> Result<(), ReadError> {
    references(file)?;
    let total = Spans::walk(file, false).total;
    if total > file_bytes.saturating_mul(SHARED_BYTES_LIMIT) {
        let (n, _) = overlaps(file);
        return Err(ReadError::invalid(
            0,
            "M2File",
            format!(
                "blocks overlap: {n} pairs share bytes, and the blocks add up to {total} bytes, more than {SHARED_BYTES_LIMIT} × the file's {file_bytes}"
            ),
        ));
    }
    Ok(())
}

/// Every check (a file converted from Wrath's layout has no offsets of its own: its references
/// are checked here too).
pub(crate) fn references(file: &M2File) -> Result<(), ReadError> {
    references_with(file, true)
}

/// [`references`]; without `texture_lookup`, the texture lookup's entries and the texture combos
/// of the texture units are not checked (a lookup a converter damaged:
/// [`crate::wrath::texture_lookup_damaged`]).
pub(crate) fn references_with(file: &M2File, texture_lookup: bool) -> Result<(), ReadError> {
    sequences(file)?;
    bones(file)?;
    vertices(file)?;
    views(file, texture_lookup)?;
    lookups(file, texture_lookup)?;
    others(file)
}

fn sequences(f: &M2File) -> Result<(), ReadError> {
    let n = f.sequences.len();
    for (i, s) in f.sequences.iter().enumerate() {
        if s.end < s.start {
            return Err(ReadError::invalid(
                at(&f.sequences, i, 68, 8),
                format!("M2File.sequences[{i}].end"),
                format!("sequence ends at {} ms before it starts at {} ms", s.end, s.start),
            ));
        }
        check_index(
            i64::from(s.next_variation),
            n,
            true,
            at(&f.sequences, i, 68, 64),
            || format!("M2File.sequences[{i}].next_variation"),
            "sequence",
        )?;
    }
    Ok(())
}

fn bones(f: &M2File) -> Result<(), ReadError> {
    let n = f.bones.len();
    let size = Bone::size(f.version);
    for (i, b) in f.bones.iter().enumerate() {
        let path = || format!("M2File.bones[{i}].parent");
        check_index(i64::from(b.parent), n, true, at(&f.bones, i, size, 8), path, "parent bone")?;
    }
    // Walk up from each bone until a root or a bone already known to reach one; every bone is
    // walked over once (walking the whole way up from each made a 100 000-bone chain cost 5·10⁹
    // steps). Reaching a bone of the current walk again is a cycle.
    const UNSEEN: u8 = 0;
    const ON_WALK: u8 = 1;
    const ROOTED: u8 = 2;
    let mut state = vec![UNSEEN; n];
    let mut walk = Vec::new();
    for i in 0..n {
        let mut p = i;
        loop {
            match state.get(p).copied() {
                Some(UNSEEN) => {
                    if let Some(s) = state.get_mut(p) {
                        *s = ON_WALK;
                    }
                    walk.push(p);
                    match f.bones.get(p).and_then(|b| usize::try_from(b.parent).ok()) {
                        Some(parent) => p = parent,
                        None => break,
                    }
                }
                Some(ON_WALK) => {
                    let detail = if p == i {
                        format!("bone {i} is its own ancestor (the parents form a cycle)")
                    } else {
                        format!(
                            "bone {i} has bone {p} among its ancestors, which is its own ancestor (the parents form a cycle)"
                        )
                    };
                    return Err(ReadError::invalid(
                        at(&f.bones, i, size, 8),
                        format!("M2File.bones[{i}].parent"),
                        detail,
                    ));
                }
                _ => break,
            }
        }
        for q in walk.drain(..) {
            if let Some(s) = state.get_mut(q) {
                *s = ROOTED;
            }
        }
    }
    Ok(())
}

/// The first of `xs` outside `range`, with its index. The slice's least and greatest entries are
/// found first (a reduction over the whole slice vectorises; a search that stops at the first hit
/// does not, and was a fifth of parsing a model), and searched only when one of them is outside.
fn first_outside(xs: &[u16], range: std::ops::Range<usize>) -> Option<(usize, u16)> {
    let (lo, hi) = xs.iter().fold((u16::MAX, 0u16), |(lo, hi), &x| (lo.min(x), hi.max(x)));
    if xs.is_empty() || (range.contains(&usize::from(lo)) && range.contains(&usize::from(hi))) {
        return None;
    }
    xs.iter().copied().enumerate().find(|&(_, x)| !range.contains(&usize::from(x)))
}

fn vertices(f: &M2File) -> Result<(), ReadError> {
    let n = f.bones.len();
    for (i, v) in f.vertices.iter().enumerate() {
        for (j, (&w, &b)) in v.bone_weights.iter().zip(&v.bone_indices).enumerate() {
            if w > 0 && usize::from(b) >= n {
                return Err(ReadError::invalid(
                    at(&f.vertices, i, 48, 16 + j as u64),
                    format!("M2File.vertices[{i}].bone_indices[{j}]"),
                    format!("bone {b} is out of range ({n} exist)"),
                ));
            }
        }
    }
    Ok(())
}

fn views(f: &M2File, texture_lookup: bool) -> Result<(), ReadError> {
    let nv = f.vertices.len();
    let sub_size = Submesh::size(f.version);
    for (vi, view) in f.views.iter().enumerate() {
        let p = |field: &str| format!("M2File.views[{vi}].{field}");
        if let Some((k, v)) = first_outside(&view.indices, 0..nv) {
            return Err(ReadError::invalid(
                at(&view.indices, k, 2, 0),
                p(&format!("indices[{k}]")),
                format!("vertex {v} is out of range ({nv} exist)"),
            ));
        }
        let ni = view.indices.len();
        if let Some((k, v)) = first_outside(&view.triangles, 0..ni) {
            return Err(ReadError::invalid(
                at(&view.triangles, k, 2, 0),
                p(&format!("triangles[{k}]")),
                format!("view vertex {v} is out of range ({ni} exist)"),
            ));
        }
        if view.properties.len() != ni {
            return Err(ReadError::invalid(
                at(&f.views, vi, 44, 16),
                p("properties"),
                format!("{} vertex properties for {ni} view vertices", view.properties.len()),
            ));
        }
        for (si, s) in view.submeshes.iter().enumerate() {
            let off = |field: u64| at(&view.submeshes, si, sub_size, field);
            let sp = |field: &str| p(&format!("submeshes[{si}].{field}"));
            let (vs, vc) = s.vertices();
            if vs + vc > ni {
                return Err(ReadError::invalid(
                    off(4),
                    sp("vertex_count"),
                    format!("vertices {vs}..{} run past the {ni} view vertices", vs + vc),
                ));
            }
            let (is, ic) = s.indices();
            let Some(tris) = view.triangles.get(is..is + ic).filter(|_| ic % 3 == 0) else {
                return Err(ReadError::invalid(
                    off(8),
                    sp("index_count"),
                    format!("triangle entries {is}..{} do not fit the {} entries", is + ic, view.triangles.len()),
                ));
            };
            if let Some((k, v)) = first_outside(tris, vs..vs + vc) {
                return Err(ReadError::invalid(
                    at(&view.triangles, is + k, 2, 0),
                    p(&format!("triangles[{}]", is + k)),
                    format!("a triangle of submesh {si} uses view vertex {v} outside the submesh's {vs}..{}", vs + vc),
                ));
            }
            let palette_end = usize::from(s.bone_combo_index) + usize::from(s.bone_count);
            if palette_end > f.bone_lookup.len() {
                return Err(ReadError::invalid(
                    off(14),
                    sp("bone_combo_index"),
                    format!(
                        "palette {}..{palette_end} runs past the {} bone-lookup entries",
                        s.bone_combo_index,
                        f.bone_lookup.len()
                    ),
                ));
            }
        }
        for (ui, u) in view.texture_units.iter().enumerate() {
            let off = |field: u64| at(&view.texture_units, ui, 24, field);
            let up = |field: &str| p(&format!("texture_units[{ui}].{field}"));
            check_index(
                i64::from(u.submesh_index),
                view.submeshes.len(),
                false,
                off(4),
                || up("submesh_index"),
                "submesh",
            )?;
            check_index(i64::from(u.color_index), f.colors.len(), true, off(8), || up("color_index"), "colour")?;
            check_index(
                i64::from(u.render_flag_index),
                f.render_flags.len(),
                false,
                off(10),
                || up("render_flag_index"),
                "render flag",
            )?;
            let count = usize::from(u.texture_count.max(1));
            let tex_end = usize::from(u.texture_combo_index) + count;
            if texture_lookup && tex_end > f.texture_lookup.len() {
                return Err(ReadError::invalid(
                    off(16),
                    up("texture_combo_index"),
                    format!(
                        "texture combo ends at {tex_end} past the {} texture-lookup entries",
                        f.texture_lookup.len()
                    ),
                ));
            }
            // texture_coord_combo_index: a note, not a refusal (`tolerated`).
            check_index(
                i64::from(u.transparency_combo_index),
                f.transparency_lookup.len(),
                false,
                off(20),
                || up("transparency_combo_index"),
                "transparency combo",
            )?;
            if u.texture_transform_combo_index != u16::MAX {
                check_index(
                    i64::from(u.texture_transform_combo_index),
                    f.texture_transform_lookup.len(),
                    false,
                    off(22),
                    || up("texture_transform_combo_index"),
                    "texture-transform combo",
                )?;
            }
        }
    }
    Ok(())
}

fn lookup(table: &M2Array<i16>, count: usize, name: &str, what: &str) -> Result<(), ReadError> {
    for (i, &v) in table.iter().enumerate() {
        check_index(i64::from(v), count, true, at(table, i, 2, 0), || format!("M2File.{name}[{i}]"), what)?;
    }
    Ok(())
}

fn lookups(f: &M2File, texture_lookup: bool) -> Result<(), ReadError> {
    lookup(&f.sequence_lookup, f.sequences.len(), "sequence_lookup", "sequence")?;
    lookup(&f.key_bone_lookup, f.bones.len(), "key_bone_lookup", "bone")?;
    lookup(&f.replaceable_texture_lookup, f.textures.len(), "replaceable_texture_lookup", "texture")?;
    if texture_lookup {
        lookup(&f.texture_lookup, f.textures.len(), "texture_lookup", "texture")?;
    }
    lookup(&f.transparency_lookup, f.transparency.len(), "transparency_lookup", "texture weight")?;
    // texture_transform_lookup and collision_triangles: notes, not refusals (`tolerated`).
    lookup(&f.attachment_lookup, f.attachments.len(), "attachment_lookup", "attachment")?;
    lookup(&f.camera_lookup, f.cameras.len(), "camera_lookup", "camera")?;
    for (i, &b) in f.bone_lookup.iter().enumerate() {
        check_index(
            i64::from(b),
            f.bones.len(),
            false,
            at(&f.bone_lookup, i, 2, 0),
            || format!("M2File.bone_lookup[{i}]"),
            "bone",
        )?;
    }
    Ok(())
}

fn others(f: &M2File) -> Result<(), ReadError> {
    let nb = f.bones.len();
    for (i, a) in f.attachments.iter().enumerate() {
        check_index(
            i64::from(a.bone),
            nb,
            false,
            at(&f.attachments, i, 48, 4),
            || format!("M2File.attachments[{i}].bone"),
            "bone",
        )?;
    }
    for (i, e) in f.events.iter().enumerate() {
        check_index(
            i64::from(e.bone),
            nb,
            false,
            at(&f.events, i, 44, 8),
            || format!("M2File.events[{i}].bone"),
            "bone",
        )?;
    }
    for (i, l) in f.lights.iter().enumerate() {
        check_index(
            i64::from(l.bone),
            nb,
            true,
            at(&f.lights, i, 212, 2),
            || format!("M2File.lights[{i}].bone"),
            "bone",
        )?;
    }
    for (i, r) in f.ribbon_emitters.iter().enumerate() {
        check_index(
            i64::from(r.bone),
            nb,
            false,
            at(&f.ribbon_emitters, i, 220, 4),
            || format!("M2File.ribbon_emitters[{i}].bone"),
            "bone",
        )?;
        for (k, &t) in r.textures.iter().enumerate() {
            check_index(
                i64::from(t),
                f.textures.len(),
                false,
                at(&r.textures, k, 2, 0),
                || format!("M2File.ribbon_emitters[{i}].textures[{k}]"),
                "texture",
            )?;
        }
        for (k, &m) in r.materials.iter().enumerate() {
            check_index(
                i64::from(m),
                f.render_flags.len(),
                false,
                at(&r.materials, k, 2, 0),
                || format!("M2File.ribbon_emitters[{i}].materials[{k}]"),
                "render flag",
            )?;
        }
    }
    for (i, p) in f.particle_emitters.iter().enumerate() {
        check_index(
            i64::from(p.bone),
            nb,
            false,
            at(&f.particle_emitters, i, 504, 20),
            || format!("M2File.particle_emitters[{i}].bone"),
            "bone",
        )?;
    }
    Ok(())
}

/// A block of the file: where, how long, and its number in the walk (named only for a message).
#[derive(Debug, Clone, Copy)]
struct Span {
    start: u64,
    len: u64,
    id: usize,
}

/// Walks every non-empty block of a file at the offsets it was read from: sums their bytes and,
/// if `keep`, lists them (the header is block 0).
struct Spans {
    version: u32,
    list: Vec<Span>,
    keep: bool,
    total: u64,
}

impl Spans {
    fn walk(f: &M2File, keep: bool) -> Self {
        let mut s = Spans { version: f.version, list: Vec::new(), keep, total: 0 };
        s.push(0, f.header_size());
        f.visit(&mut s);
        s
    }

    #[inline]
    fn push(&mut self, start: u64, len: u64) {
        if len == 0 {
            return;
        }
        self.total = self.total.saturating_add(len);
        if self.keep {
            self.list.push(Span { start, len, id: self.list.len() });
        }
    }
}

impl Visitor<'_> for Spans {
    fn pod<T: Pod>(&mut self, _: Field, array: &M2Array<T>) {
        self.push(u64::from(array.offset), (array.len() * size_of::<T>()) as u64);
    }

    fn records<R: Record>(&mut self, _: Field, array: &M2Array<R>) {
        self.push(u64::from(array.offset), array.len() as u64 * R::size(self.version));
        for record in array.iter() {
            record.walk("", self);
        }
    }
}

/// The same walk as [`Spans`], naming block `wanted`: the record array and record it hangs from,
/// and its field (`bones[3].translation.ranges`).
struct Name {
    version: u32,
    next: usize,
    wanted: usize,
    /// The record array and record the current blocks hang from (`None` for the header's).
    owner: Option<(Field, usize)>,
    name: String,
}

impl Name {
    fn of(f: &M2File, wanted: usize) -> String {
        let mut n = Name { version: f.version, next: 1, wanted, owner: None, name: "header".into() };
        f.visit(&mut n);
        n.name
    }

    fn push(&mut self, len: u64, field: Field) {
        if len == 0 {
            return;
        }
        if self.next == self.wanted {
            self.name = match self.owner {
                Some((array, i)) => format!("{array}[{i}].{field}"),
                None => field.to_string(),
            };
        }
        self.next += 1;
    }
}

impl Visitor<'_> for Name {
    fn pod<T: Pod>(&mut self, field: Field, array: &M2Array<T>) {
        self.push((array.len() * size_of::<T>()) as u64, field);
    }

    fn records<R: Record>(&mut self, field: Field, array: &M2Array<R>) {
        self.push(array.len() as u64 * R::size(self.version), field);
        let outer = self.owner;
        for (i, record) in array.iter().enumerate() {
            self.owner = Some((field, i));
            record.walk("", self);
        }
        self.owner = outer;
    }
}

/// Bytes the file's data occupies: the header and every block, padding left out. Blocks that
/// share bytes count each time (a file converted from Wrath's layout has no offsets of its own),
/// but a file read from bytes never counts more than its size.
pub(crate) fn data_bytes(f: &M2File) -> u64 {
    let total = Spans::walk(f, false).total;
    f.as_read.recorded().map_or(total, |r| total.min(r.size))
}

/// Two blocks that share bytes: the one that starts first runs on into the other.
pub(crate) struct Overlap {
    /// The first block's field path (`bones[6].rotation.values`), its offset and length.
    pub(crate) first: (String, u64, u64),
    /// The second block's field path and offset.
    pub(crate) second: (String, u64),
}

/// Every pair of neighbouring blocks (in file order) that share bytes, counted, and the first
/// such pair named: a converter's layout (issue 39 class 1). The game reads each block at its
/// offset and never notices; the writer keeps the layout while the blocks agree on the bytes
/// they share (`file::kept`).
pub(crate) fn overlaps(f: &M2File) -> (usize, Option<Overlap>) {
    let mut spans = Spans::walk(f, true).list;
    spans.sort_unstable_by_key(|s| (s.start, s.len));
    let mut count = 0;
    let mut first = None;
    // The block reaching furthest so far: a short block inside a long one still overlaps it.
    let mut reach: Option<&Span> = None;
    for b in &spans {
        if let Some(a) = reach
            && b.start < a.start + a.len
        {
            count += 1;
            first.get_or_insert_with(|| Overlap {
                first: (Name::of(f, a.id), a.start, a.len),
                second: (Name::of(f, b.id), b.start),
            });
        }
        if reach.is_none_or(|a| b.start + b.len > a.start + a.len) {
            reach = Some(b);
        }
    }
    (count, first)
}

#[cfg(test)]
mod tests {
    use super::first_outside;

    #[test]
    fn first_outside_finds_the_first_entry_out_of_range() {
        assert_eq!(first_outside(&[], 0..0), None);
        assert_eq!(first_outside(&[3, 4, 5], 3..6), None);
        assert_eq!(first_outside(&[3, 6, 2], 3..6), Some((1, 6)));
        assert_eq!(first_outside(&[3, 2, 6], 3..6), Some((1, 2)));
        assert_eq!(first_outside(&[0, 0, u16::MAX], 0..65535), Some((2, u16::MAX)));
        assert_eq!(first_outside(&[1], 0..0), Some((0, 1)));
    }
}
