//! Mip levels: each level is half the one above (rounded down, at least 1 pixel), made with a
//! 2 × 2 box filter.

use relic_core::texture::Image;

/// Size of level `level` of a `width × height` image: `max(1, side >> level)` (BLP's rule,
/// specs/textures.md §2.2; DTX's `side >> level` where that is not 0).
pub fn level_size(width: u32, height: u32, level: u32) -> (u32, u32) {
    // Every level keeps at least one pixel, however far it is shifted.
    let shrink = |side: u32| if level >= u32::BITS { 1 } else { (side >> level).max(1) };
    (shrink(width), shrink(height))
}

/// Number of levels from `width × height` down to 1 × 1 (`⌊log2(max side)⌋ + 1`).
pub fn full_chain(width: u32, height: u32) -> u32 {
    u32::BITS - width.max(height).max(1).leading_zeros()
}

/// The next level of `image`: `⌊w/2⌋ × ⌊h/2⌋` (at least 1), each pixel the rounded mean of the
/// 2 × 2 (or, along a side of 1, 1 × 2) source pixels it covers. An odd last row or column of the
/// source is dropped, as BLP's halving rounds down.
pub fn half(image: &Image) -> Image {
    let (w, h) = (image.width as usize, image.height as usize);
    let (nw, nh) = ((w / 2).max(1), (h / 2).max(1));
    let mut rgba = Vec::with_capacity(nw * nh * 4);
    let px = |x: usize, y: usize| -> [u16; 4] {
        let at = (y * w + x) * 4;
        image.rgba.get(at..at + 4).and_then(|p| <[u8; 4]>::try_from(p).ok()).map_or([0; 4], |p| p.map(u16::from))
    };
    for y in 0..nh {
        let ys = if h > 1 { [2 * y, 2 * y + 1] } else { [0, 0] };
        for x in 0..nw {
            let xs = if w > 1 { [2 * x, 2 * x + 1] } else { [0, 0] };
            let mut sum = [0u16; 4];
            for &sy in &ys {
                for &sx in &xs {
                    for (s, p) in sum.iter_mut().zip(px(sx, sy)) {
                        *s += p;
                    }
                }
            }
            rgba.extend(sum.map(|s| ((s + 2) / 4) as u8));
        }
    }
    Image { width: nw as u32, height: nh as u32, rgba }
}

/// `levels` images: `image` itself, then each [`half`] of the one before.
pub fn chain(image: &Image, levels: u32) -> Vec<Image> {
    let mut out: Vec<Image> = Vec::with_capacity(levels as usize);
    for _ in 0..levels {
        let next = match out.last() {
            None => image.clone(),
            Some(prev) => half(prev),
        };
        out.push(next);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_follow_the_clamped_halving() {
        assert_eq!(level_size(256, 128, 7), (2, 1));
        assert_eq!(level_size(256, 128, 8), (1, 1));
        assert_eq!(level_size(24, 17, 2), (6, 4));
        assert_eq!(level_size(5, 5, 40), (1, 1));
        assert_eq!(full_chain(256, 128), 9);
        assert_eq!(full_chain(16, 16), 5);
        assert_eq!(full_chain(1, 1), 1);
    }

    #[test]
    fn box_filter_averages() {
        let image = Image { width: 3, height: 1, rgba: vec![0, 10, 20, 255, 100, 30, 40, 0, 7, 7, 7, 7] };
        let h = half(&image);
        assert_eq!((h.width, h.height), (1, 1));
        assert_eq!(h.rgba, [50, 20, 30, 128]);
        let levels = chain(&Image { width: 4, height: 2, rgba: vec![200; 32] }, 3);
        let sizes: Vec<(u32, u32)> = levels.iter().map(|l| (l.width, l.height)).collect();
        assert_eq!(sizes, [(4, 2), (2, 1), (1, 1)]);
        assert!(levels.iter().all(|l| l.rgba.iter().all(|&b| b == 200)));
    }
}
