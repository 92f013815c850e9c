//! Exact re-encoding: the DXT block that decodes (with this crate's decoder, `bcdec_rs`) to
//! exactly the given pixels, when there is one. A texture decoded from DXT and encoded again
//! unedited finds every block's own end points here, so it comes back pixel for pixel; a cluster
//! fit that starts from the pixels instead lands next to them (up to 31 levels off on real files).
//!
//! Colours: a block holds at most four colours (three and transparent black in BC1's 3-colour
//! mode). Each distinct colour of the block is given a palette index (the ramp's own order
//! first), and each channel is solved on its own: the decoder computes channel `c` of every
//! palette entry from the two end points' 5- or 6-bit values of that channel alone. A table per
//! channel lists, for every index and 8-bit value, the end-point pairs whose palette has that
//! value there (on average 4 of the 1,024 red or blue pairs, 16 of the 4,096 green ones); the
//! pairs of the rarest wanted value are checked against the others. The end points' order then
//! picks BC1's mode (`c0 > c1`: four colours).
//!
//! Alpha (BC3): at most eight values; the end points are tried as the extremes of the block's
//! values in both of BC3's modes, then solved from the extremes placed anywhere on the ramp.

use super::Bc;

/// A 4 × 4 block of RGBA pixels, row after row.
pub(crate) type Block = [[u8; 4]; 16];

/// The decoder's palette for one channel of `bits` (5 or 6) from end points `a` and `b`:
/// entries 0–3 as `bcdec_rs` computes them (4-colour mode if `four`, else 3-colour mode with
/// entry 3 black). The same integer formulas as the decoder, so a match here is a match there.
fn channel_palette(bits: u32, a: u32, b: u32, four: bool) -> [u8; 4] {
    let expand = |v: u32| if bits == 5 { (v * 527 + 23) >> 6 } else { (v * 259 + 33) >> 6 };
    let (third, add, shift) = if bits == 5 { (351, 61, 7) } else { (2763, 1039, 11) };
    let middle = if four {
        [((2 * a + b) * third + add) >> shift, ((a + 2 * b) * third + add) >> shift]
    } else if bits == 5 {
        [((a + b) * 1053 + 125) >> 8, 0]
    } else {
        [((a + b) * 4145 + 1019) >> 11, 0]
    };
    [expand(a) as u8, expand(b) as u8, middle[0] as u8, middle[1] as u8]
}

/// One channel's palettes (5 or 6 bits, one mode) for every end-point pair, and the reverse:
/// for each palette index and value, the pairs whose palette has that value there.
struct Channel {
    bits: u32,
    /// Palette of the pair `a << bits | b`.
    palettes: Vec<[u8; 4]>,
    /// `pairs[start[i·256 + v]..start[i·256 + v + 1]]`: the pairs with value `v` at index `i`.
    start: Vec<usize>,
    pairs: Vec<u16>,
}

impl Channel {
    fn new(bits: u32, four: bool) -> Channel {
        let palettes: Vec<[u8; 4]> =
            (0..1u32 << (2 * bits)).map(|k| channel_palette(bits, k >> bits, k & ((1 << bits) - 1), four)).collect();
        let slot = |i: usize, v: u8| i * 256 + usize::from(v);
        let mut count = vec![0usize; 4 * 256];
        for palette in &palettes {
            for (i, v) in palette.iter().enumerate() {
                if let Some(c) = count.get_mut(slot(i, *v)) {
                    *c += 1;
                }
            }
        }
        let mut total = 0;
        let start: Vec<usize> = std::iter::once(0)
            .chain(count.iter().map(|c| {
                total += c;
                total
            }))
            .collect();
        let mut next = start.clone();
        let mut pairs = vec![0u16; palettes.len() * 4];
        for (k, palette) in palettes.iter().enumerate() {
            for (i, v) in palette.iter().enumerate() {
                if let Some(at) = next.get_mut(slot(i, *v)) {
                    if let Some(p) = pairs.get_mut(*at) {
                        *p = k as u16;
                    }
                    *at += 1;
                }
            }
        }
        Channel { bits, palettes, start, pairs }
    }

    /// The pairs with `value` at palette index `index`.
    fn with(&self, index: usize, value: u8) -> &[u16] {
        let slot = index * 256 + usize::from(value);
        match (self.start.get(slot), self.start.get(slot + 1)) {
            // `start` is built with `pairs`: its ranges lie inside it.
            (Some(&a), Some(&b)) => self.pairs.get(a..b).unwrap_or_default(),
            _ => &[],
        }
    }
}

/// The four channel tables: red and blue (5 bits) and green (6 bits), in 4- and 3-colour mode.
fn channels() -> &'static [Channel; 4] {
    static TABLES: std::sync::OnceLock<[Channel; 4]> = std::sync::OnceLock::new();
    TABLES
        .get_or_init(|| [Channel::new(5, true), Channel::new(5, false), Channel::new(6, true), Channel::new(6, false)])
}

/// End-point pairs `(a, b)` of one channel (`bits` 5 or 6) under which every `(index, value)`
/// holds: the pairs that have the rarest of the wanted values, checked against the others.
fn channel_pairs(bits: u32, four: bool, wanted: &[(usize, u8)], out: &mut Vec<(u32, u32)>) {
    out.clear();
    let [rb4, rb3, g4, g3] = channels();
    let table = match (bits, four) {
        (5, true) => rb4,
        (5, false) => rb3,
        (_, true) => g4,
        (_, false) => g3,
    };
    let Some(rarest) = wanted.iter().map(|(i, v)| table.with(*i, *v)).min_by_key(|p| p.len()) else { return };
    for &k in rarest {
        let Some(palette) = table.palettes.get(usize::from(k)) else { continue };
        if wanted.iter().all(|(i, v)| palette.get(*i) == Some(v)) {
            let k = u32::from(k);
            out.push((k >> table.bits, k & ((1 << table.bits) - 1)));
        }
    }
}

/// Distinct values of `items` (at most `limit`; `None` if there are more).
fn distinct<T: PartialEq + Copy>(items: impl Iterator<Item = T>, limit: usize) -> Option<Vec<T>> {
    let mut seen: Vec<T> = Vec::with_capacity(limit);
    for item in items {
        if !seen.contains(&item) {
            if seen.len() == limit {
                return None;
            }
            seen.push(item);
        }
    }
    Some(seen)
}

/// Every way to give `count` (1–4) distinct colours distinct palette indices, the colours sorted
/// brightest first: the ramp's order first (4-colour mode: end point 0, ⅔, ⅓, end point 1;
/// 3-colour mode: end point 1, ½, end point 0), and those naming both end points before the
/// others (they are solved directly).
fn assignments(count: usize, four: bool) -> &'static [Vec<u8>] {
    static TABLES: std::sync::OnceLock<Vec<Vec<Vec<u8>>>> = std::sync::OnceLock::new();
    let tables = TABLES.get_or_init(|| {
        let mut tables = Vec::new();
        for four in [false, true] {
            let ramp: &[u8] = if four { &[0, 2, 3, 1] } else { &[1, 2, 0] };
            for count in 0..=4usize {
                let mut out: Vec<Vec<u8>> = vec![Vec::new()];
                for _ in 0..count {
                    let mut next = Vec::new();
                    for prefix in &out {
                        for s in ramp.iter().filter(|s| !prefix.contains(s)) {
                            next.push([prefix.as_slice(), &[*s]].concat());
                        }
                    }
                    out = next;
                }
                out.sort_by_key(|a| 2 - usize::from(a.contains(&0)) - usize::from(a.contains(&1)));
                tables.push(out);
            }
        }
        tables
    });
    tables.get(usize::from(four) * 5 + count).map_or(&[], Vec::as_slice)
}

fn pack565(r: u32, g: u32, b: u32) -> u16 {
    ((r << 11) | (g << 5) | b) as u16
}

/// The two end points as RGB565 from per-channel solutions, such that the first is greater than
/// the second (`Some(true)`: BC1's 4-colour mode), not greater (`Some(false)`: 3-colour mode), or
/// either (`None`). RGB565 compares red first, then green, then blue, so one channel decides.
fn pick_order(rs: &[(u32, u32)], gs: &[(u32, u32)], bs: &[(u32, u32)], order: Option<bool>) -> Option<(u16, u16)> {
    let pack = |r: &(u32, u32), g: &(u32, u32), b: &(u32, u32)| (pack565(r.0, g.0, b.0), pack565(r.1, g.1, b.1));
    let fits = |(c0, c1): (u16, u16)| order.is_none_or(|greater| (c0 > c1) == greater);
    // The channel that decides: the first where a pair has the wanted order, equal before it.
    let split = |pairs: &[(u32, u32)]| {
        let strict = pairs.iter().find(|(a, b)| order.is_none_or(|greater| if greater { a > b } else { a < b }));
        (strict.copied(), pairs.iter().find(|(a, b)| a == b).copied())
    };
    let (r_strict, r_equal) = split(rs);
    let (g_strict, g_equal) = split(gs);
    let (b_strict, b_equal) = split(bs);
    let (r_any, g_any, b_any) = (rs.first()?, gs.first()?, bs.first()?);
    let tries = [
        r_strict.map(|r| pack(&r, g_any, b_any)),
        r_equal.zip(g_strict).map(|(r, g)| pack(&r, &g, b_any)),
        r_equal.zip(g_equal).zip(b_strict).map(|((r, g), b)| pack(&r, &g, &b)),
        r_equal.zip(g_equal).zip(b_equal).map(|((r, g), b)| pack(&r, &g, &b)),
        Some(pack(r_any, g_any, b_any)),
    ];
    tries.into_iter().flatten().find(|c| fits(*c))
}

/// The 8-byte colour block that decodes to `pixels` exactly (the pixels `mask` selects), if one
/// exists. `bc1`: BC1's rules (3-colour mode when the first end point is not greater, its
/// index 3 transparent black, alpha 0 or 255 only; with `opaque`, for a reader that forces
/// alpha to 255, index 3 may also stand for opaque black); otherwise the colour block of
/// BC2/BC3 (always four colours, alpha ignored).
pub(crate) fn colour_block(pixels: &Block, mask: u32, bc1: bool, opaque: bool) -> Option<[u8; 8]> {
    solve_colours(pixels, mask, bc1, [0, 0, 0, 0])
        .or_else(|| (bc1 && opaque).then(|| solve_colours(pixels, mask, true, [0, 0, 0, 255])).flatten())
}

/// [`colour_block`], with `hole` the pixel value BC1's index 3 of a 3-colour block stands for:
/// transparent black, or opaque black when the reader forces alpha to 255.
fn solve_colours(pixels: &Block, mask: u32, bc1: bool, hole: [u8; 4]) -> Option<[u8; 8]> {
    let selected = || pixels.iter().enumerate().filter(move |(i, _)| mask >> i & 1 == 1).map(|(_, p)| *p);
    let transparent = bc1 && selected().any(|p| p == hole);
    if bc1 && selected().any(|p| p[3] != 255 && p != hole) {
        return None;
    }
    let mut colours = distinct(selected().filter(|p| !(transparent && *p == hole)).map(|p| [p[0], p[1], p[2]]), 4)?;
    colours.sort_by_key(|c| std::cmp::Reverse((c.iter().map(|&v| u32::from(v)).sum::<u32>(), *c)));
    // (four-colour mode, order rule): BC1 picks the mode by end-point order; BC2/BC3 do not.
    let modes: &[(bool, Option<bool>)] = match (bc1, transparent) {
        (false, _) => &[(true, None)],
        (true, true) => &[(false, Some(false))],
        (true, false) => &[(true, Some(true)), (false, Some(false))],
    };
    let mut pairs: [Vec<(u32, u32)>; 3] = Default::default();
    for &(four, order) in modes {
        let slots = if four { 4 } else { 3 };
        if colours.len() > slots {
            continue;
        }
        for assignment in assignments(colours.len(), four) {
            let solved = pairs.iter_mut().enumerate().all(|(c, out)| {
                let bits = if c == 1 { 6 } else { 5 };
                let mut wanted = [(0usize, 0u8); 4];
                for ((w, &i), [r, g, b]) in wanted.iter_mut().zip(assignment).zip(&colours) {
                    *w = (
                        usize::from(i),
                        match c {
                            0 => *r,
                            1 => *g,
                            _ => *b,
                        },
                    );
                }
                channel_pairs(bits, four, wanted.split_at(colours.len().min(4)).0, out);
                !out.is_empty()
            });
            if !solved {
                continue;
            }
            let [rs, gs, bs] = &pairs;
            let pick = pick_order(rs, gs, bs, order);
            let Some((c0, c1)) = pick else { continue };
            let mut block = [0u8; 8];
            block[..2].copy_from_slice(&c0.to_le_bytes());
            block[2..4].copy_from_slice(&c1.to_le_bytes());
            let mut indices = 0u32;
            for (i, p) in pixels.iter().enumerate() {
                let index = if transparent && *p == hole {
                    3
                } else {
                    let rgb = [p[0], p[1], p[2]];
                    // Every selected pixel's colour is listed; pixels outside the image take 0.
                    colours.iter().position(|c| *c == rgb).and_then(|k| assignment.get(k).copied()).unwrap_or(0)
                };
                indices |= u32::from(index) << (2 * i);
            }
            block[4..].copy_from_slice(&indices.to_le_bytes());
            return Some(block);
        }
    }
    None
}

/// The decoder's eight alpha values for end points `a0`, `a1` (BC3, as `bcdec_rs` computes them).
fn alpha_palette(a0: u32, a1: u32) -> [u8; 8] {
    let mut p = [a0 as u8, a1 as u8, 0, 0, 0, 0, 0, 255];
    if a0 > a1 {
        for (i, v) in p.iter_mut().enumerate().skip(2) {
            let i = i as u32;
            *v = (((8 - i) * a0 + (i - 1) * a1 + 1) / 7) as u8;
        }
    } else {
        for (i, v) in p.iter_mut().enumerate().skip(2).take(4) {
            let i = i as u32;
            *v = (((6 - i) * a0 + (i - 1) * a1 + 1) / 5) as u8;
        }
        if let Some(v) = p.get_mut(6) {
            *v = 0;
        }
    }
    p
}

/// The 8-byte BC3 alpha block that decodes to the alpha of `pixels` exactly (the pixels `mask`
/// selects), if one is found. End points tried, in order: the block's extremes (8-value mode);
/// the extremes of its values other than 0 and 255 (6-value mode); then, in each mode, the
/// pairs that put the largest and the smallest value at any two places of the mode's ramp
/// (solved for the end points, and their neighbours, as the decoder rounds).
pub(crate) fn alpha_block(pixels: &Block, mask: u32) -> Option<[u8; 8]> {
    let alphas = distinct(pixels.iter().enumerate().filter(|(i, _)| mask >> i & 1 == 1).map(|(_, p)| p[3]), 8)?;
    let encode = |a0: u8, a1: u8| -> Option<[u8; 8]> {
        let palette = alpha_palette(a0.into(), a1.into());
        if !alphas.iter().all(|a| palette.contains(a)) {
            return None;
        }
        let mut bits = 0u64;
        for (i, p) in pixels.iter().enumerate() {
            // Every selected pixel's alpha is in the palette; pixels outside the image take 0.
            let index = palette.iter().position(|v| *v == p[3]).unwrap_or(0) as u64;
            bits |= index << (3 * i);
        }
        let b = bits.to_le_bytes();
        Some([a0, a1, b[0], b[1], b[2], b[3], b[4], b[5]])
    };
    // Extremes as folds: with no pixel selected (an empty mask) any block does, and the first
    // pair tried fits.
    let max = alphas.iter().copied().fold(0, u8::max);
    let min = alphas.iter().copied().fold(u8::MAX, u8::min);
    let inner = || alphas.iter().copied().filter(|a| !matches!(a, 0 | 255));
    let (inner_min, inner_max) = (inner().min().unwrap_or(min), inner().max().unwrap_or(max));
    if let Some(block) = encode(max, min).or_else(|| encode(inner_min, inner_max)) {
        return Some(block);
    }
    // Ramp place t of a value: t / steps of the way from a0 to a1. 8-value mode: 7 steps, a0 > a1,
    // the largest value nearer a0; 6-value mode: 5 steps, a0 ≤ a1, the smallest nearer a0.
    for (steps, near, far, eight) in [(7i32, max, min, true), (5, inner_min, inner_max, false)] {
        let (near, far) = (i32::from(near), i32::from(far));
        for p in 0..steps {
            for q in p + 1..=steps {
                // near = a0 + p/steps·(a1 − a0) and far = a0 + q/steps·(a1 − a0).
                let diff = ((far - near) * steps) as f32 / (q - p) as f32;
                let a0 = (near as f32 - p as f32 * diff / steps as f32).round() as i32;
                let a1 = (a0 as f32 + diff).round() as i32;
                for (x, y) in (-1..=1).flat_map(|d0| (-1..=1).map(move |d1| (a0 + d0, a1 + d1))) {
                    let (Ok(x), Ok(y)) = (u8::try_from(x), u8::try_from(y)) else { continue };
                    if (x > y) == eight
                        && let Some(block) = encode(x, y)
                    {
                        return Some(block);
                    }
                }
            }
        }
    }
    None
}

/// The whole block of `bc` that decodes to `pixels` exactly (`opaque`: BC1 read back with alpha
/// forced to 255), written to `out`; false if none is found.
pub(crate) fn block(bc: Bc, pixels: &Block, mask: u32, opaque: bool, out: &mut [u8]) -> bool {
    let selected = || pixels.iter().enumerate().filter(move |(i, _)| mask >> i & 1 == 1).map(|(_, p)| p);
    let found = match bc {
        Bc::Bc1 => colour_block(pixels, mask, true, opaque).map(|c| c.to_vec()),
        Bc::Bc2 if selected().any(|p| p[3] % 17 != 0) => None,
        Bc::Bc2 => colour_block(pixels, mask, false, false).map(|c| {
            let mut alpha = [0u8; 8];
            for (i, p) in pixels.iter().enumerate() {
                if let Some(b) = alpha.get_mut(i / 2) {
                    *b |= (p[3] / 17) << (4 * (i % 2));
                }
            }
            [alpha, c].concat()
        }),
        Bc::Bc3 => {
            alpha_block(pixels, mask).and_then(|a| colour_block(pixels, mask, false, false).map(|c| [a, c].concat()))
        }
    };
    match (found, out.get_mut(..bc.block_bytes())) {
        (Some(bytes), Some(dst)) if bytes.len() == dst.len() => {
            dst.copy_from_slice(&bytes);
            true
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use relic_testkit::Rng;

    fn decoded(bc: Bc, bytes: &[u8]) -> Block {
        let mut flat = [0u8; 64];
        match bc {
            Bc::Bc1 => bcdec_rs::bc1(bytes, &mut flat, 16),
            Bc::Bc2 => bcdec_rs::bc2(bytes, &mut flat, 16),
            Bc::Bc3 => bcdec_rs::bc3(bytes, &mut flat, 16),
        }
        std::array::from_fn(|i| [flat[4 * i], flat[4 * i + 1], flat[4 * i + 2], flat[4 * i + 3]])
    }

    /// Random blocks of every variant and mode (few end-point bits set, so colours and alpha
    /// repeat and end points coincide too): each decodes, is found again, and decodes the same.
    #[test]
    fn every_decoded_block_is_found_again() {
        let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
        for bc in [Bc::Bc1, Bc::Bc2, Bc::Bc3] {
            for round in 0..4000 {
                let mut bytes = rng.next_u64().to_le_bytes().to_vec();
                bytes.extend(rng.next_u64().to_le_bytes());
                bytes.truncate(bc.block_bytes());
                if round % 3 == 0 {
                    // Coarse end points: equal or neighbouring values, 3-colour BC1 blocks.
                    let at = bc.block_bytes() - 8;
                    bytes[at + 1] &= 0x81;
                    bytes[at + 3] &= 0x81;
                    bytes[0] &= 0xE0;
                }
                let pixels = decoded(bc, &bytes);
                let mut out = vec![0u8; bc.block_bytes()];
                assert!(block(bc, &pixels, 0xFFFF, false, &mut out), "{bc:?} {bytes:02x?} not found");
                assert_eq!(decoded(bc, &out), pixels, "{bc:?} {bytes:02x?} → {out:02x?}");
                if bc == Bc::Bc1 {
                    // Read back opaque (BLP DXT1 of alpha depth 0): transparent black is black.
                    let opaque = |p: Block| p.map(|[r, g, b, _]| [r, g, b, 255]);
                    assert!(block(bc, &opaque(pixels), 0xFFFF, true, &mut out), "{bytes:02x?} opaque");
                    assert_eq!(opaque(decoded(bc, &out)), opaque(pixels), "{bytes:02x?} opaque → {out:02x?}");
                }
            }
        }
    }

    /// A 4-colour BC1 block whose four palette entries differ and are all used comes back byte
    /// for byte: its end points and indices are the only ones that decode to its pixels.
    #[test]
    fn an_unambiguous_block_comes_back_byte_for_byte() {
        let mut rng = Rng::new(42);
        let mut checked = 0;
        while checked < 2000 {
            let mut bytes = rng.next_u64().to_le_bytes();
            if u16::from_le_bytes([bytes[0], bytes[1]]) <= u16::from_le_bytes([bytes[2], bytes[3]]) {
                continue;
            }
            bytes[4] = 0b1110_0100;
            let pixels = decoded(Bc::Bc1, &bytes);
            let mut palette: Vec<[u8; 4]> = pixels[..4].to_vec();
            palette.dedup();
            if palette.len() < 4 {
                continue;
            }
            let mut out = [0u8; 8];
            assert!(block(Bc::Bc1, &pixels, 0xFFFF, false, &mut out));
            assert_eq!(out, bytes);
            checked += 1;
        }
    }

    #[test]
    fn blocks_that_no_block_decodes_to_are_not_found() {
        // Five colours (a ramp of four and one more); alpha 128 in BC1; a BC2 alpha that is not
        // a multiple of 17; nine alphas.
        let mut pixels: Block = [[0, 0, 0, 255]; 16];
        for (p, red) in pixels.iter_mut().zip([255, 170, 85, 0, 40]) {
            *p = [red, 0, 0, 255];
        }
        let mut out = [0u8; 16];
        assert!(!block(Bc::Bc1, &pixels, 0xFFFF, false, &mut out));
        assert!(block(Bc::Bc1, &pixels, 0b1111, false, &mut out), "four colours when the fifth is masked out");
        let mut half = [[8, 8, 8, 128]; 16];
        assert!(!block(Bc::Bc1, &half, 0xFFFF, false, &mut out));
        half[0][3] = 17;
        assert!(!block(Bc::Bc2, &half, 0xFFFF, false, &mut out));
        let nine: Block = std::array::from_fn(|i| [0, 0, 0, (i * 30) as u8]);
        assert!(!block(Bc::Bc3, &nine, 0xFFFF, false, &mut out));
    }
}
