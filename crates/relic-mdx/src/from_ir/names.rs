//! Names into the file's fixed `char[N]` fields.

use relic_core::Loss;
use relic_core::binary::FixedString;

/// Counts the names that did not fit their field as they were.
#[derive(Debug, Default)]
pub(super) struct Names {
    /// Names cut to the field's length.
    cut: usize,
    /// Names with characters outside Windows-1252, written as `?`.
    replaced: usize,
}

/// `text` as a NUL-padded `char[N]`: characters outside Windows-1252 become `?`, and the text is
/// cut to `N − 1` bytes (counted in `names`).
pub(super) fn fixed<const N: usize>(text: &str, names: &mut Names) -> FixedString<N> {
    if let Some(f) = FixedString::<N>::from_text(text) {
        return f;
    }
    let mut out = String::new();
    let mut replaced = false;
    for c in text.chars() {
        let c = if relic_core::text::encode_cp1252_char(c).is_some() {
            c
        } else {
            replaced = true;
            '?'
        };
        let mut longer = out.clone();
        longer.push(c);
        if FixedString::<N>::from_text(&longer).is_none() {
            names.cut += 1;
            break;
        }
        out = longer;
    }
    names.replaced += usize::from(replaced);
    FixedString::<N>::from_text(&out).unwrap_or_default()
}

impl Names {
    /// The losses, if any name changed.
    pub(super) fn losses(&self, losses: &mut Vec<Loss>) {
        if self.cut > 0 {
            losses.push(Loss::new("names", format!("{} names cut to their field (79 or 259 bytes)", self.cut)));
        }
        if self.replaced > 0 {
            losses.push(Loss::new(
                "names",
                format!("{} names with characters outside Windows-1252: those written as `?`", self.replaced),
            ));
        }
    }
}
