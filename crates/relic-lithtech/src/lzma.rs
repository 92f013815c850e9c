//! CrossFire's LZMA-alone wrapper around LithTech files (ltb.md §2, §13.5): a 13-byte header
//! (properties byte, `u32` dictionary size, `u64` uncompressed size) and an LZMA1 stream without
//! end marker whose payload is a complete LTB model or DTX texture.
//!
//! * **Detection** ([`is_wrapped`]): byte 0 > 20, as both CrossFire converters test it (a LithTech
//!   file starts with a small type or version number; an LZMA properties byte is normally 0x5D).
//! * **Unwrapping** ([`unwrap`]): the stated size is checked against [`Limits`] (an absolute cap
//!   and a ratio to the compressed bytes) and the properties against [`MAX_LC_PLUS_LP`] *before*
//!   anything is allocated, so a decompression bomb, or a literal table of megabytes, is refused
//!   by its header. The dictionary size is not a cost: the decoder's window grows with the
//!   payload decoded (bounded by the stated size), not with the size the header names. The stream is decoded to exactly that size; no end marker is needed.
//! * **Writing back** ([`wrap`]): an unchanged payload gets the original bytes (the encoder that
//!   made CrossFire's files is not reproducible, §2), a changed one a new stream with the
//!   properties every CrossFire file has: lc 3, lp 0, pb 2 (0x5D), a 16 MiB dictionary, the size in
//!   the header and no end marker.
//!
//! ```
//! use relic_lithtech::lzma;
//! let payload = b"\x01\x00\x09\x00 a LithTech file".repeat(20);
//! let wrapped = lzma::wrap(&payload, None).unwrap();
//! assert!(lzma::is_wrapped(&wrapped) && wrapped[0] == 0x5D);
//! let (back, wrapper) = lzma::unwrap(&wrapped, &lzma::Limits::default()).unwrap();
//! assert_eq!(back, payload);
//! // The same payload writes the same bytes again; another payload a new stream.
//! assert_eq!(lzma::wrap(&back, Some(&wrapper)).unwrap(), wrapped);
//! ```

use std::io::Read;

use lzma_rust2::{LzmaOptions, LzmaReader, LzmaWriter};
use relic_core::hash::fnv1a;
use relic_core::{ReadError, ReadErrorKind, WriteError};

/// Bytes of the header: properties, dictionary size, uncompressed size.
pub const HEADER_LEN: usize = 13;
/// The properties byte of every CrossFire file: `lc + 9·(lp + 5·pb)` with lc 3, lp 0, pb 2.
pub const PROPS: u8 = 0x5D;
/// The dictionary size of every CrossFire file, even of 2-KiB payloads: 16 MiB.
pub const DICT_SIZE: u32 = 1 << 24;

/// The largest `lc + lp` decoded (LZMA2's limit, and every encoder preset's): the decoder's
/// literal table is `0x300 · 2^(lc+lp)` 16-bit probabilities, 24 KiB at most here, a fixed cost
/// within a reader's 1 MiB. LZMA1 allows up to lc 8, lp 4: 6 MiB of table before the first byte
/// of payload, whatever the file's size. CrossFire writes lc 3, lp 0 ([`PROPS`]).
pub const MAX_LC_PLUS_LP: u8 = 4;

/// Bytes of the LZMA decoder's literal probability table for `lc`, `lp`.
pub fn literal_table_bytes(lc: u8, lp: u8) -> u64 {
    (2 * 0x300u64) << (u32::from(lc) + u32::from(lp)).min(32)
}

/// How large a payload a header may announce, checked before anything is allocated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The largest payload accepted, in bytes.
    pub max_size: u64,
    /// The largest payload accepted per compressed byte (plus [`Limits::SLACK`]): a valid stream
    /// of `n` bytes can decode to thousands of times `n`; CrossFire's files decode to at most
    /// 6 ×, relic's own streams of real models about as much.
    pub max_ratio: u64,
}

impl Limits {
    /// Payload bytes always allowed beside the ratio (tiny files compress little).
    pub const SLACK: u64 = 1 << 16;

    /// The largest payload a wrapped file of `file_len` bytes may announce.
    pub fn allowed(&self, file_len: usize) -> u64 {
        let stream = (file_len as u64).saturating_sub(HEADER_LEN as u64);
        self.max_size.min(stream.saturating_mul(self.max_ratio).saturating_add(Self::SLACK))
    }
}

impl Default for Limits {
    /// 64 MiB (LTB payloads are at most a few MiB), 64 × the compressed bytes.
    fn default() -> Self {
        Self { max_size: 64 << 20, max_ratio: 64 }
    }
}

/// What a wrapped file was: its header fields and its bytes, so that an unchanged payload is
/// written back byte for byte.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wrapper {
    /// Properties byte as stored (`lc + 9·(lp + 5·pb)`).
    pub props: u8,
    /// Dictionary size as stored.
    pub dict_size: u32,
    /// Uncompressed size as stored (= the payload's length).
    pub size: u64,
    /// FNV-1a 64 of the payload the stream decodes to.
    pub payload_digest: u64,
    /// The whole wrapped file as read: header, stream and anything after the stream.
    pub original: Vec<u8>,
}

impl Wrapper {
    /// `(lc, lp, pb)` of the properties byte.
    pub fn lc_lp_pb(&self) -> (u8, u8, u8) {
        let (lc, rest) = (self.props % 9, self.props / 9);
        (lc, rest % 5, rest / 5)
    }

    /// Whether `payload` is what the original bytes decode to.
    pub fn holds(&self, payload: &[u8]) -> bool {
        payload.len() as u64 == self.size && fnv1a(payload) == self.payload_digest
    }
}

/// Whether `bytes` start like CrossFire's wrapper: byte 0 > 20 (ltb.md §2).
pub fn is_wrapped(bytes: &[u8]) -> bool {
    bytes.first().is_some_and(|&b| b > 20)
}

/// The stored header fields `(props, dict_size, size)`, if `bytes` hold a header.
pub fn header(bytes: &[u8]) -> Option<(u8, u32, u64)> {
    let props = *bytes.first()?;
    let dict = u32::from_le_bytes(bytes.get(1..5)?.try_into().ok()?);
    let size = u64::from_le_bytes(bytes.get(5..HEADER_LEN)?.try_into().ok()?);
    Some((props, dict, size))
}

fn error(offset: u64, path: &str, message: String) -> ReadError {
    ReadError::invalid(offset, path, message)
}

/// Checks the header against `limits` and returns `(props, dict_size, size)`.
fn checked_header(bytes: &[u8], limits: &Limits) -> Result<(u8, u32, u64), ReadError> {
    let (props, dict, size) =
        header(bytes).ok_or_else(|| ReadError::at(bytes.len() as u64, "LzmaHeader", ReadErrorKind::Truncated))?;
    if props >= 9 * 5 * 5 {
        return Err(error(0, "LzmaHeader.props", format!("properties byte {props:#04x} is not lc + 9·(lp + 5·pb)")));
    }
    let (lc, lp) = (props % 9, props / 9 % 5);
    if lc + lp > MAX_LC_PLUS_LP {
        return Err(error(
            0,
            "LzmaHeader.props",
            format!(
                "properties byte {props:#04x} (lc {lc}, lp {lp}) needs a literal table of {} bytes: \
                 relic decodes lc + lp ≤ {MAX_LC_PLUS_LP} (CrossFire writes {PROPS:#04x}, lc 3, lp 0)",
                literal_table_bytes(lc, lp)
            ),
        ));
    }
    if size == u64::MAX {
        return Err(error(
            5,
            "LzmaHeader.size",
            "uncompressed size unknown (all 0xFF): CrossFire's wrapper always states it".into(),
        ));
    }
    let allowed = limits.allowed(bytes.len());
    if size > allowed {
        return Err(error(
            5,
            "LzmaHeader.size",
            format!(
                "uncompressed size {size} exceeds the limit of {allowed} bytes for a {}-byte file \
                 (at most {} bytes, {} per compressed byte): refused before decoding",
                bytes.len(),
                limits.max_size,
                limits.max_ratio
            ),
        ));
    }
    Ok((props, dict, size))
}

/// A decoder of the stream after the header, for `size` payload bytes.
fn decoder(bytes: &[u8], props: u8, dict: u32, size: u64) -> Result<LzmaReader<&[u8]>, ReadError> {
    // `checked_header` read the whole header first: never the default.
    let stream = bytes.get(HEADER_LEN..).unwrap_or_default();
    LzmaReader::new_with_props(stream, size, props, dict, None)
        .map_err(|e| error(HEADER_LEN as u64, "LzmaStream", format!("cannot start the LZMA stream: {e}")))
}

/// Decodes a wrapped file: the payload and what the wrapper was. The stated size is checked
/// against `limits` before anything is allocated; the stream must decode to exactly that size.
pub fn unwrap(bytes: &[u8], limits: &Limits) -> Result<(Vec<u8>, Wrapper), ReadError> {
    let (props, dict_size, size) = checked_header(bytes, limits)?;
    let mut reader = decoder(bytes, props, dict_size, size)?;
    // Room for what real files decode to at once; a larger claim grows only with decoded data.
    let first = size.min((bytes.len() as u64).saturating_mul(8).saturating_add(Limits::SLACK));
    let mut payload = Vec::with_capacity(first as usize);
    (&mut reader).take(size).read_to_end(&mut payload).map_err(|e| {
        error(HEADER_LEN as u64, "LzmaStream", format!("LZMA stream broken after {} payload bytes: {e}", payload.len()))
    })?;
    if payload.len() as u64 != size {
        return Err(error(
            HEADER_LEN as u64,
            "LzmaStream",
            format!("LZMA stream ends after {} of the {size} payload bytes the header states", payload.len()),
        ));
    }
    let wrapper = Wrapper { props, dict_size, size, payload_digest: fnv1a(&payload), original: bytes.to_vec() };
    Ok((payload, wrapper))
}

/// The first `n` payload bytes of a wrapped file (fewer if the payload is shorter) and the stated
/// payload size, without decoding the rest: for recognising what is inside.
pub fn peek(bytes: &[u8], n: usize, limits: &Limits) -> Option<(Vec<u8>, u64)> {
    let (props, dict, size) = checked_header(bytes, limits).ok()?;
    let mut reader = decoder(bytes, props, dict, size).ok()?;
    let mut out = Vec::with_capacity(n.min(size as usize));
    (&mut reader).take((n as u64).min(size)).read_to_end(&mut out).ok()?;
    Some((out, size))
}

/// The wrapped form of `payload`: `original`'s bytes when it holds this payload, else a new
/// stream (lc 3, lp 0, pb 2, 16 MiB dictionary, size in the header, no end marker), which is
/// refused if [`unwrap`] with the default [`Limits`] would refuse it.
pub fn wrap(payload: &[u8], original: Option<&Wrapper>) -> Result<Vec<u8>, WriteError> {
    if let Some(w) = original.filter(|w| w.holds(payload)) {
        return Ok(w.original.clone());
    }
    let mut options = LzmaOptions::with_preset(6);
    (options.lc, options.lp, options.pb, options.dict_size) = (3, 0, 2, DICT_SIZE);
    let io = |e: std::io::Error| WriteError::Io { path: "LzmaStream".into(), message: e.to_string() };
    let out = Vec::with_capacity(payload.len() / 2 + HEADER_LEN);
    let mut writer = LzmaWriter::new(out, &options, true, false, Some(payload.len() as u64)).map_err(io)?;
    std::io::Write::write_all(&mut writer, payload).map_err(io)?;
    let bytes = writer.finish().map_err(io)?;
    let allowed = Limits::default().allowed(bytes.len());
    if payload.len() as u64 > allowed {
        return Err(WriteError::Unsupported(format!(
            "the payload of {} bytes compresses to {} bytes, past the {}:1 ratio relic's reader accepts \
             as no decompression bomb: write it without the LZMA wrapper",
            payload.len(),
            bytes.len(),
            Limits::default().max_ratio
        )));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<u8> {
        (0..5000u32).flat_map(|i| (i.wrapping_mul(2_654_435_761) >> 7).to_le_bytes()).collect()
    }

    #[test]
    fn new_streams_have_crossfires_header_and_no_end_marker() {
        let payload = sample();
        let wrapped = wrap(&payload, None).unwrap();
        assert_eq!(header(&wrapped), Some((PROPS, DICT_SIZE, payload.len() as u64)));
        // Without an end marker the stream stops at the stated size: with the size replaced by
        // "unknown" a decoder that needs a marker runs out of input instead of finding one.
        let mut unknown = wrapped.clone();
        unknown[5..13].copy_from_slice(&u64::MAX.to_le_bytes());
        let mut out = Vec::new();
        let marker = LzmaReader::new_mem_limit(unknown.as_slice(), u32::MAX, None).unwrap().read_to_end(&mut out);
        assert!(marker.is_err(), "an end marker was found");
        let (back, w) = unwrap(&wrapped, &Limits::default()).unwrap();
        assert_eq!(back, payload);
        assert_eq!(w.lc_lp_pb(), (3, 0, 2));
        assert!(w.holds(&payload) && !w.holds(&payload[1..]));
    }

    #[test]
    fn bombs_and_broken_headers_are_refused_before_decoding() {
        let wrapped = wrap(&sample(), None).unwrap();
        for (size, why) in [(u64::MAX, "unknown"), (1 << 40, "exceeds"), (wrapped.len() as u64 * 100, "exceeds")] {
            let mut b = wrapped.clone();
            b[5..13].copy_from_slice(&size.to_le_bytes());
            let e = unwrap(&b, &Limits::default()).unwrap_err();
            assert!(e.to_string().contains(why), "{e}");
            assert_eq!(e.path, "LzmaHeader.size");
        }
        assert!(matches!(unwrap(&wrapped[..9], &Limits::default()).unwrap_err().kind, ReadErrorKind::Truncated));
        let mut props = wrapped.clone();
        props[0] = 225;
        assert_eq!(unwrap(&props, &Limits::default()).unwrap_err().path, "LzmaHeader.props");
        // Literal tables of megabytes (the fuzz findings 0xE0: lc 8, lp 4, 6 MiB; 0x2A: lc 6,
        // lp 4, 1.5 MiB) are refused by the header; lc + lp = 4 (24 KiB) is decoded.
        for (byte, refused) in [(0xE0, true), (0x2A, true), (0x2B, true), (0x5D + 1, false), (0x5D, false)] {
            props[0] = byte;
            let e = unwrap(&props, &Limits::default()).err().map(|e| e.path);
            assert_eq!(e.as_deref() == Some("LzmaHeader.props"), refused, "{byte:#04x}: {e:?}");
            assert!(!refused || peek(&props, 8, &Limits::default()).is_none(), "{byte:#04x}");
        }
        // A stream cut short ends before the stated size.
        let cut = &wrapped[..wrapped.len() / 2];
        assert_eq!(unwrap(cut, &Limits::default()).unwrap_err().path, "LzmaStream");
    }

    #[test]
    fn a_highly_compressible_payload_past_the_ratio_is_not_wrapped() {
        let zeros = vec![0u8; 1 << 20];
        let e = wrap(&zeros, None).unwrap_err();
        assert!(e.to_string().contains("without the LZMA wrapper"), "{e}");
    }

    #[test]
    fn peek_decodes_only_the_start() {
        let payload = sample();
        let wrapped = wrap(&payload, None).unwrap();
        let (start, size) = peek(&wrapped, 24, &Limits::default()).unwrap();
        assert_eq!((start.as_slice(), size), (&payload[..24], payload.len() as u64));
        assert!(is_wrapped(&wrapped) && !is_wrapped(&[1, 0, 9, 0]) && !is_wrapped(&[]));
    }
}
