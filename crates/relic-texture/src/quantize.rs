//! Reduction of an image's colours to a palette of at most 256 (alpha is not part of the
//! palette: both BLP and DTX v−2 keep it in a plane of its own).
//!
//! An image with at most 256 distinct colours gets exactly those (lossless). Otherwise the
//! palette comes from median cut: the colour box with the widest channel range (weighted by how
//! many pixels it holds) is split at its pixel median until there are 256 boxes, and each entry
//! is the mean of its box. Deterministic, and on a smooth gradient within a few levels of a
//! uniform grid (NeuQuant, tried first, was three times worse at its worst pixel there). Pixels
//! map to the nearest entry (squared RGB distance), also for the texture's other mip levels,
//! whose averaged colours need not be in the palette.

use std::collections::HashMap;

use relic_core::texture::Image;

/// A palette of at most 256 RGB colours made for one image.
#[derive(Debug, Clone)]
pub struct Palette {
    /// The entries, at most 256.
    pub colours: Vec<[u8; 3]>,
    /// Distinct colours in the source image (more than 256: the palette is approximate).
    pub source_colours: usize,
    /// Entry of each colour of the source image, when the palette holds them all.
    exact: HashMap<[u8; 3], u8>,
}

fn rgb(pixel: &[u8]) -> [u8; 3] {
    match pixel {
        [r, g, b, ..] => [*r, *g, *b],
        _ => [0; 3],
    }
}

/// Distinct colours with their pixel counts.
type Histogram = Vec<([u8; 3], u64)>;

/// The channel with the widest range in `colours`, and that range weighted by the pixels.
fn widest(colours: &[([u8; 3], u64)]) -> (usize, u64) {
    let (mut lo, mut hi) = ([u8::MAX; 3], [0u8; 3]);
    for (c, _) in colours {
        lo.iter_mut().zip(c).for_each(|(l, v)| *l = (*l).min(*v));
        hi.iter_mut().zip(c).for_each(|(h, v)| *h = (*h).max(*v));
    }
    let mut best = (0, 0);
    for (channel, (l, h)) in lo.into_iter().zip(hi).enumerate() {
        let range = u64::from(h.saturating_sub(l));
        if range > best.1 {
            best = (channel, range);
        }
    }
    let pixels: u64 = colours.iter().map(|(_, n)| n).sum();
    (best.0, best.1 * pixels)
}

fn median_cut(histogram: Histogram) -> Vec<[u8; 3]> {
    let mut boxes: Vec<Histogram> = vec![histogram];
    while boxes.len() < 256 {
        let pick = boxes
            .iter()
            .enumerate()
            .filter(|(_, b)| b.len() > 1)
            .map(|(i, b)| (i, widest(b)))
            .max_by_key(|(i, (_, score))| (*score, std::cmp::Reverse(*i)));
        let Some((i, (channel, _))) = pick else { break };
        let mut colours = boxes.swap_remove(i);
        colours.sort_unstable_by_key(|(c, _)| (c.get(channel).copied(), *c));
        let total: u64 = colours.iter().map(|(_, n)| n).sum();
        let mut seen = 0;
        let mut cut = colours.len() / 2;
        for (k, (_, n)) in colours.iter().enumerate() {
            seen += n;
            if seen * 2 >= total {
                cut = k + 1;
                break;
            }
        }
        let cut = cut.clamp(1, colours.len() - 1);
        let upper = colours.split_off(cut);
        boxes.push(colours);
        boxes.push(upper);
    }
    boxes
        .iter()
        .map(|b| {
            let total: u64 = b.iter().map(|(_, n)| n).sum::<u64>().max(1);
            let mut sums = [0u64; 3];
            for (c, n) in b {
                sums.iter_mut().zip(c).for_each(|(s, v)| *s += u64::from(*v) * n);
            }
            sums.map(|sum| ((sum + total / 2) / total) as u8)
        })
        .collect()
}

impl Palette {
    /// The palette of `image`'s colours (exact if there are at most 256).
    pub fn of(image: &Image) -> Palette {
        let mut counts: HashMap<[u8; 3], u64> = HashMap::new();
        for pixel in image.rgba.chunks_exact(4) {
            *counts.entry(rgb(pixel)).or_insert(0) += 1;
        }
        let source_colours = counts.len();
        let mut histogram: Histogram = counts.into_iter().collect();
        histogram.sort_unstable();
        if source_colours <= 256 {
            let colours: Vec<[u8; 3]> = histogram.iter().map(|(c, _)| *c).collect();
            let exact = colours.iter().enumerate().map(|(i, c)| (*c, i as u8)).collect();
            return Palette { colours, source_colours, exact };
        }
        Palette { colours: median_cut(histogram), source_colours, exact: HashMap::new() }
    }

    /// True if every colour of the source image is in the palette.
    pub fn is_exact(&self) -> bool {
        !self.exact.is_empty() || self.source_colours == 0
    }

    /// The entry for `colour`: its own, or the nearest (squared RGB distance).
    pub fn index(&self, colour: [u8; 3]) -> u8 {
        if let Some(&i) = self.exact.get(&colour) {
            return i;
        }
        let distance =
            |c: &[u8; 3]| -> u32 { c.iter().zip(colour).map(|(&a, b)| u32::from(a.abs_diff(b)).pow(2)).sum() };
        let best = self.colours.iter().enumerate().min_by_key(|(_, c)| distance(c));
        best.map_or(0, |(i, _)| i as u8)
    }

    /// The palette index of every pixel of `image` (colour only; alpha is ignored).
    pub fn indices(&self, image: &Image) -> Vec<u8> {
        let mut cache: HashMap<[u8; 3], u8> = HashMap::new();
        image
            .rgba
            .chunks_exact(4)
            .map(|p| {
                let c = rgb(p);
                *cache.entry(c).or_insert_with(|| self.index(c))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn few_colours_are_kept_exactly() {
        let image = Image { width: 3, height: 1, rgba: vec![1, 2, 3, 255, 9, 9, 9, 0, 1, 2, 3, 7] };
        let palette = Palette::of(&image);
        assert!(palette.is_exact());
        assert_eq!(palette.colours, [[1, 2, 3], [9, 9, 9]]);
        assert_eq!(palette.source_colours, 2);
        assert_eq!(palette.indices(&image), [0, 1, 0]);
        // A colour not in it maps to the nearest.
        assert_eq!(palette.index([8, 8, 10]), 1);
    }

    #[test]
    fn many_colours_are_approximated() {
        let (w, h) = (64u32, 64u32);
        let rgba: Vec<u8> = (0..w * h).flat_map(|i| [(i % 64 * 4) as u8, (i / 64 * 4) as u8, 100, 255]).collect();
        let image = Image { width: w, height: h, rgba };
        let palette = Palette::of(&image);
        assert!(!palette.is_exact());
        assert_eq!(palette.source_colours, 4096);
        assert_eq!(palette.colours.len(), 256);
        let indices = palette.indices(&image);
        let errors: Vec<u8> = image
            .rgba
            .chunks(4)
            .zip(&indices)
            .map(|(p, &i)| {
                let c = palette.colours[usize::from(i)];
                (0..3).map(|k| p[k].abs_diff(c[k])).max().unwrap()
            })
            .collect();
        let worst = *errors.iter().max().unwrap();
        let mean = errors.iter().map(|&e| f64::from(e)).sum::<f64>() / errors.len() as f64;
        // A 16 × 16 grid would be 8 at worst and 4 on average.
        assert!(worst <= 10 && mean <= 5.0, "worst channel error {worst}, mean {mean}");
    }
}
