//! The greedy choice of keys, and the certificate that makes it linear.
//!
//! From an anchor key, a span grows one key at a time while every key inside it [`Motion::fits`]
//! the interpolation between the span's ends; when one does not, the key before the span's end is
//! kept and becomes the next anchor. Checked literally that is one interpolation per inside key per
//! step: up to 63 per key with spans of [`MAX_SPAN`] keys, most of the time of a glTF export.
//!
//! The same decisions are now reached in constant time per key. The interpolation from the anchor
//! is a straight line in a space where it moves at a constant *slope* (per second): the values
//! themselves for translation and scale, the logarithm at the anchor (the tangent space of the
//! unit quaternions, where slerp is a straight line) for rotations. Each inside key bounds, per
//! component, the slopes for which it certainly fits ([`Motion::bounds`]: its tolerance less the
//! worst difference between the f32 test of record and the exact arithmetic of the bound); the
//! bounds of all inside keys intersect in one box per span, updated in O(1) as a key joins. A span
//! whose slope lies in that box certainly passes the test of record. Only when it does not are
//! the inside keys visited: each one still inside its own bounds is certain, the others are put to
//! the test of record. So the keys kept are exactly those of the literal check, on every input;
//! the certificate only decides when it is sure.
//!
//! Two more shortcuts, both exact: a span whose keys all hold the anchor's value bit for bit fits
//! ([`Motion::same`]), and spans of fewer than [`LAZY`] inside keys are checked literally (their
//! bounds would cost more than the few interpolations).

/// Most keys one kept key may stand for (the ones between two kept keys, plus one).
pub(super) const MAX_SPAN: usize = 64;

/// Spans with fewer inside keys than this are checked key by key.
const LAZY: usize = 3;

/// Per component, the slopes (change per second from the anchor) for which a key certainly fits;
/// `None` for a key no slope certifies.
pub(super) type Bounds<const N: usize> = Option<[(f64, f64); N]>;

/// A channel's keys as the greedy choice sees them.
pub(super) trait Motion<const N: usize> {
    /// How many keys the channel has.
    fn len(&self) -> usize;
    /// Whether key `k` lies on the interpolation from key `a` to key `b` within the tolerance:
    /// the test of record.
    fn fits(&self, a: usize, b: usize, k: usize) -> bool;
    /// Whether [`Motion::bounds`], [`Motion::slope`] and [`Motion::same`] may be used at all (times
    /// strictly increasing, values finite, …); if not, every span is checked literally.
    fn certifiable(&self) -> bool;
    /// Makes `anchor` the key the following bounds and slopes are taken from.
    fn start(&mut self, anchor: usize);
    /// The slopes for which key `k` certainly fits a span from the anchor.
    fn bounds(&mut self, k: usize) -> Bounds<N>;
    /// The slope of the span from the anchor to `end`; `None` if no bound may be applied to it.
    fn slope(&mut self, end: usize) -> Option<[f64; N]>;
    /// Whether key `k` holds the anchor's value bit for bit, so that a span of such keys
    /// certainly fits.
    fn same(&self, k: usize) -> bool;
}

/// Times past this many seconds are not certified.
const LATEST: f32 = 1e7;

/// Whether `times` increase strictly, by steps far from underflow, and stay within [`LATEST`]:
/// then every fraction of the test of record lies in [0, 1], a normal f32 within 3 roundings of
/// the exact one.
pub(super) fn increasing(times: &[f32]) -> bool {
    times.iter().all(|t| t.abs() < LATEST) && times.windows(2).all(|w| matches!(w, [a, b] if b - a >= 1e-20))
}

/// `times[k] − times[a]` in f64 (exact: both are f32).
pub(super) fn seconds(times: &[f32], a: usize, k: usize) -> f64 {
    // `a` and `k` are keys of the channel: the 0s are never taken.
    f64::from(times.get(k).copied().unwrap_or(0.0)) - f64::from(times.get(a).copied().unwrap_or(0.0))
}

/// The bounds of the keys inside the span, and their intersection.
struct Cone<const N: usize> {
    all: [(f64, f64); N],
    keys: Vec<Bounds<N>>,
}

impl<const N: usize> Cone<N> {
    fn new() -> Self {
        Self { all: [(f64::NEG_INFINITY, f64::INFINITY); N], keys: Vec::with_capacity(MAX_SPAN) }
    }

    fn clear(&mut self) {
        self.all = [(f64::NEG_INFINITY, f64::INFINITY); N];
        self.keys.clear();
    }

    fn push(&mut self, bounds: Bounds<N>) {
        match bounds {
            Some(b) => {
                for (all, (lo, hi)) in self.all.iter_mut().zip(b) {
                    *all = (all.0.max(lo), all.1.min(hi));
                }
            }
            None => self.all = [(f64::INFINITY, f64::NEG_INFINITY); N],
        }
        self.keys.push(bounds);
    }
}

fn inside<const N: usize>(bounds: &[(f64, f64); N], slope: &[f64; N]) -> bool {
    bounds.iter().zip(slope).all(|((lo, hi), s)| lo <= s && s <= hi)
}

/// The indices of the keys to keep: the first, the last, and every key the span from the last kept
/// key cannot reach past (see the module's documentation).
pub(super) fn keep<const N: usize>(motion: &mut impl Motion<N>) -> Vec<usize> {
    let n = motion.len();
    if n <= 2 {
        return (0..n).collect();
    }
    let certifiable = motion.certifiable();
    let mut kept = vec![0];
    let mut anchor = 0;
    let mut cone = Cone::new();
    let mut held = certifiable;
    motion.start(anchor);
    for end in 2..n {
        held &= motion.same(end - 1);
        let fits = end - anchor <= MAX_SPAN
            && (held && motion.same(end) || span_fits(motion, &mut cone, anchor, end, certifiable));
        if !fits {
            anchor = end - 1;
            kept.push(anchor);
            cone.clear();
            motion.start(anchor);
            held = certifiable;
        }
    }
    kept.push(n - 1);
    kept
}

/// Whether every key inside the span from `anchor` to `end` fits it: certain when the span's slope
/// lies inside the cone of their bounds; otherwise each key not certain by its own bounds is put to
/// the test of record. `cone` holds the bounds of the inside keys taken so far.
fn span_fits<const N: usize>(
    motion: &mut impl Motion<N>,
    cone: &mut Cone<N>,
    anchor: usize,
    end: usize,
    certifiable: bool,
) -> bool {
    let inside_keys = end - anchor - 1;
    let slope = if certifiable && inside_keys >= LAZY {
        while cone.keys.len() < inside_keys {
            let bounds = motion.bounds(anchor + 1 + cone.keys.len());
            cone.push(bounds);
        }
        motion.slope(end)
    } else {
        None
    };
    if slope.as_ref().is_some_and(|s| inside(&cone.all, s)) {
        return true;
    }
    let mut bounds = cone.keys.iter();
    (anchor + 1..end).all(|k| {
        let certain = matches!((bounds.next(), &slope), (Some(Some(b)), Some(s)) if inside(b, s));
        certain || motion.fits(anchor, end, k)
    })
}
