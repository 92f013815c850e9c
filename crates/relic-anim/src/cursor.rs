//! Key cursors for sequential playback.
//!
//! Playing a clip forward, the key a channel sits in changes rarely and only to the next one, so a
//! cursor remembers it and moves forward from there: no binary search per key per frame. A jump
//! backwards or far ahead falls back to a binary search, so any order of times is correct.

use relic_core::sample::{Segment, find_segment, segment_at};

/// How many keys a cursor steps forward before it gives up and binary-searches.
const MAX_FORWARD_STEPS: usize = 4;

/// The remembered segment of one channel: its first key and its start and end times, so the
/// common case (still inside it) is two comparisons and the same division the one-shot sampler
/// does (results are bit-identical to [`find_segment`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Cursor {
    key: usize,
    start: f32,
    end: f32,
}

impl Default for Cursor {
    fn default() -> Self {
        // An empty segment: the first call always searches.
        Self { key: 0, start: f32::INFINITY, end: f32::NEG_INFINITY }
    }
}

impl Cursor {
    /// The segment of `times` holding `t` (clamped outside), starting the search at the last key.
    #[inline(always)]
    pub(crate) fn segment(&mut self, times: &[f32], t: f32) -> Segment {
        // Fast path: still inside the segment of the last call (the common case when playing).
        if self.start <= t && t < self.end {
            let span = self.end - self.start;
            return Segment { key: self.key, fraction: ((t - self.start) / span).clamp(0.0, 1.0), span };
        }
        let seg = self.seek(times, t);
        self.remember(times, seg);
        seg
    }

    /// Caches the segment for the fast path (only a real segment with a positive span).
    #[inline]
    fn remember(&mut self, times: &[f32], seg: Segment) {
        (self.start, self.end) = match (times.get(seg.key), times.get(seg.key + 1)) {
            (Some(&a), Some(&b)) if seg.span > 0.0 && b > a => (a, b),
            _ => (f32::INFINITY, f32::NEG_INFINITY),
        };
    }

    /// The slow path of [`Cursor::segment`]: clamping, stepping forward, or a binary search.
    #[inline(never)]
    fn seek(&mut self, times: &[f32], t: f32) -> Segment {
        let n = times.len();
        let (Some(&first), Some(&last)) = (times.first(), times.last()) else {
            return Segment { key: 0, fraction: 0.0, span: 0.0 };
        };
        // Clamped (and NaN) times: the edge keys, as the one-shot sampler does.
        if n < 2 || t.is_nan() || t <= first || t >= last {
            let seg = find_segment(times, t);
            self.key = seg.key;
            return seg;
        }
        // Here times[0] < t < times[n-1], so a segment k with k + 1 < n exists.
        let mut k = self.key.min(n - 2);
        if times.get(k).is_some_and(|&tk| tk <= t) {
            let mut steps = 0;
            while times.get(k + 1).is_some_and(|&next| next <= t) {
                k += 1;
                steps += 1;
                if steps > MAX_FORWARD_STEPS {
                    k = times.partition_point(|&x| x <= t) - 1;
                    break;
                }
            }
        } else {
            k = times.partition_point(|&x| x <= t).saturating_sub(1);
        }
        self.key = k;
        segment_at(times, k, t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursor_agrees_with_binary_search_in_any_order() {
        let times: Vec<f32> = (0..50).map(|k| k as f32 * 0.1 + (k % 3) as f32 * 0.01).collect();
        let mut c = Cursor::default();
        let mut probes: Vec<f32> = (0..400).map(|i| i as f32 * 0.0137 - 0.2).collect();
        // forward, then backward, then scattered
        let mut backwards = probes.clone();
        backwards.reverse();
        probes.extend(backwards);
        probes.extend((0..200).map(|i| ((i * 7919) % 600) as f32 * 0.01 - 0.5));
        for t in probes {
            assert_eq!(c.segment(&times, t), find_segment(&times, t), "t = {t}");
        }
    }
}
