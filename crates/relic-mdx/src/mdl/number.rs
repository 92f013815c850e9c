//! How MDL writers print floats (spec §8.7).

/// The way floats are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FloatStyle {
    /// The shortest text that reads back as the same `f32` (`0.1`, `-0`, `1e-7` as `0.0000001`):
    /// MDL → MDX gives the float bits back. Integral values have no point (`187`), as Magos' and
    /// Retera's writers print them.
    #[default]
    Shortest,
    /// C `%f`, as Blizzard's MdlxConv (2007) printed: six decimals, zeros kept (`12.557400`,
    /// `-0.000000`).
    MdlxConv,
    /// C `%g` as MSVC prints it, as War3 Model Editor (Magos) printed: six significant digits,
    /// trailing zeros dropped, a three-digit exponent below 1e-4 and from 1e6 (`3e-008`).
    Magos,
}

/// `value` as `style` prints it.
pub fn float(value: f32, style: FloatStyle) -> String {
    if !value.is_finite() {
        return if value.is_nan() {
            "NaN".into()
        } else if value > 0.0 {
            "Infinity".into()
        } else {
            "-Infinity".into()
        };
    }
    match style {
        FloatStyle::Shortest => format!("{value}"),
        FloatStyle::MdlxConv => format!("{value:.6}"),
        FloatStyle::Magos => percent_g(f64::from(value)),
    }
}

/// C's `%g` with precision 6 and MSVC's three-digit exponent.
fn percent_g(value: f64) -> String {
    if value == 0.0 {
        return if value.is_sign_negative() { "-0".into() } else { "0".into() };
    }
    // The exponent after rounding to six significant digits decides the form.
    let sci = format!("{value:.5e}");
    let (mantissa, exponent) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    if !(-4..6).contains(&exponent) {
        let mantissa = strip_zeros(mantissa);
        let sign = if exponent < 0 { '-' } else { '+' };
        return format!("{mantissa}e{sign}{:03}", exponent.unsigned_abs());
    }
    let decimals = usize::try_from(5 - exponent).unwrap_or(0);
    strip_zeros(&format!("{value:.decimals$}")).to_string()
}

/// `1.500000` → `1.5`, `2.000` → `2`.
fn strip_zeros(text: &str) -> &str {
    if !text.contains('.') {
        return text;
    }
    text.trim_end_matches('0').trim_end_matches('.')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_writer_prints_as_the_spec_shows() {
        assert_eq!(float(12.5574, FloatStyle::MdlxConv), "12.557400");
        assert_eq!(float(-0.0, FloatStyle::MdlxConv), "-0.000000");
        assert_eq!(float(0.062_790_6, FloatStyle::Magos), "0.0627906");
        assert_eq!(float(-0.998_027, FloatStyle::Magos), "-0.998027");
        assert_eq!(float(8.301, FloatStyle::Magos), "8.301");
        assert_eq!(float(3e-8, FloatStyle::Magos), "3e-008");
        assert_eq!(float(187.0, FloatStyle::Magos), "187");
        assert_eq!(float(187.0, FloatStyle::Shortest), "187");
        assert_eq!(float(0.1, FloatStyle::Shortest), "0.1");
        assert_eq!(float(-0.0, FloatStyle::Shortest), "-0");
        for v in [1e-7f32, 3.4e38, -123.456_79, f32::MIN_POSITIVE] {
            assert_eq!(float(v, FloatStyle::Shortest).parse::<f32>().unwrap().to_bits(), v.to_bits());
        }
    }
}
