//! Scene extras too large to stay readable JSON, stored deflated and base64-encoded in one string
//! (`deflate+base64:…`): a model's format extras run to megabytes of numbers, which deflate to a
//! quarter. Inflating is bounded, as every decode of the import is.

/// Scene extras longer than this (bytes of JSON) are stored deflated; smaller ones stay readable.
/// (4 KiB: the extras of a model with a few bones already deflate to a fifth.)
pub(crate) const DEFLATE_ABOVE: usize = 4 * 1024;

/// miniz_oxide's level. On the scene extras of every corpus model (7.3 MB of JSON) level 9 made
/// 1.94 MB in 445 ms, level 2 2.04 MB (+5 %) in 51 ms, level 1 2.31 MB in 30 ms; but level 1 is
/// up to 38 % larger on the small, repetitive extras of UI models, whose glb it grew by 11 %
/// (issue 29 allows 10 %). Level 2 grows no corpus glb by more than 3.5 % (docs/PERFORMANCE.md).
const LEVEL: u32 = 2;

/// What starts a deflated string; base64 of raw deflate data follows.
const DEFLATED: &str = "deflate+base64:";

/// `text` as extras keep it: itself up to [`DEFLATE_ABOVE`] bytes, else deflated, as a [`DEFLATED`]
/// string.
pub(crate) fn pack(text: &str) -> String {
    use std::io::Write as _;
    let mut packer = Packer::default();
    // Writing to memory does not fail.
    let _ = packer.write_all(text.as_bytes());
    packer.finish().unwrap_or_default()
}

/// Scene extras written as they are serialized: the text while it is at most [`DEFLATE_ABOVE`]
/// bytes, else a [`DEFLATED`] string deflated and base64-encoded as the bytes arrive — the whole
/// JSON text (megabytes for a model's format extras) is never held.
#[derive(Default)]
pub(crate) struct Packer {
    plain: Vec<u8>,
    packed: Option<flate2::write::DeflateEncoder<relic_core::base64::Encoder>>,
}

impl Packer {
    /// The text, or the [`DEFLATED`] string.
    pub(crate) fn finish(self) -> std::io::Result<String> {
        match self.packed {
            Some(encoder) => Ok(encoder.finish()?.finish()),
            None => String::from_utf8(self.plain).map_err(std::io::Error::other),
        }
    }
}

impl std::io::Write for Packer {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if let Some(encoder) = &mut self.packed {
            return encoder.write(buf);
        }
        self.plain.extend_from_slice(buf);
        if self.plain.len() > DEFLATE_ABOVE {
            let base64 = relic_core::base64::Encoder::new(DEFLATED.to_string());
            let mut encoder = flate2::write::DeflateEncoder::new(base64, flate2::Compression::new(LEVEL));
            encoder.write_all(&std::mem::take(&mut self.plain))?;
            self.packed = Some(encoder);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Scene extras as [`Packer`] stores them, from `write`, which writes their JSON text: the text is
/// deflated on a second thread while it is still being written (on GnomePounder the two took
/// about the same time), in 64 KiB pieces.
pub(crate) fn pack_written(
    write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
) -> std::io::Result<String> {
    use std::io::Write as _;
    std::thread::scope(|scope| {
        let (send, receive) = std::sync::mpsc::sync_channel::<Vec<u8>>(4);
        let worker = scope.spawn(move || {
            let mut packer = Packer::default();
            for piece in receive {
                packer.write_all(&piece)?;
            }
            packer.finish()
        });
        let mut pieces = Pieces { send, piece: Vec::with_capacity(PIECE) };
        let written = write(&mut pieces).and_then(|()| pieces.flush());
        // Dropping the sender ends the worker's loop.
        drop(pieces);
        let packed = worker.join().map_err(|_| std::io::Error::other("the deflating thread stopped"))?;
        written.and(packed)
    })
}

/// How many bytes of JSON [`pack_written`] hands over at a time.
const PIECE: usize = 64 << 10;

/// A writer that hands its bytes to another thread in [`PIECE`]-byte pieces.
struct Pieces {
    send: std::sync::mpsc::SyncSender<Vec<u8>>,
    piece: Vec<u8>,
}

impl std::io::Write for Pieces {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.piece.extend_from_slice(buf);
        if self.piece.len() >= PIECE {
            self.flush()?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if self.piece.is_empty() {
            return Ok(());
        }
        let piece = std::mem::replace(&mut self.piece, Vec::with_capacity(PIECE));
        // The receiver is gone only when the deflating thread failed; its error is the one told.
        self.send.send(piece).map_err(|_| std::io::Error::other("the deflating thread stopped"))
    }
}

/// `None` when `text` is not a [`DEFLATED`] string; else its bytes, or `Some(None)` when they
/// cannot be had: not base64, not deflate, or more than 32 × the text's size + 1 MiB (the
/// import's decode budget) — extras that would inflate further are treated as absent, and what
/// they held is then reported missing like any other.
pub(crate) fn unpack(text: &str) -> Option<Option<Vec<u8>>> {
    let packed = text.strip_prefix(DEFLATED)?;
    Some(inflate(packed))
}

fn inflate(packed: &str) -> Option<Vec<u8>> {
    let bytes = relic_core::base64::decode(packed.trim().as_bytes())?;
    let limit = packed.len().saturating_mul(32).saturating_add(1 << 20);
    miniz_oxide::inflate::decompress_to_vec_with_limit(&bytes, limit).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extras::{RootExtras, unwrap_root, wrap_root};

    #[test]
    fn extras_deflated_on_a_second_thread_are_the_ones_deflated_on_one_and_errors_come_back() {
        let large: String = (0..40_000).map(|i| format!("{},", i % 977)).collect();
        for text in ["{\"small\":1}", large.as_str()] {
            let packed = pack_written(|w| text.as_bytes().chunks(1000).try_for_each(|c| w.write_all(c))).unwrap();
            assert_eq!(packed, pack(text));
        }
        let failed = pack_written(|w| {
            w.write_all(large.as_bytes())?;
            Err(std::io::Error::other("the serializer failed"))
        });
        assert_eq!(failed.unwrap_err().to_string(), "the serializer failed");
    }

    #[test]
    fn large_scene_extras_are_deflated_and_read_back_and_bombs_are_refused() {
        let small = RootExtras { name: "small".into(), ..RootExtras::default() };
        let wrapped = wrap_root(&small).unwrap();
        assert!(!wrapped.as_ref().unwrap().get().contains(DEFLATED));
        assert_eq!(unwrap_root(&wrapped).unwrap().name, "small");

        let large = RootExtras { name: "large".into(), global_sequences: vec![0.25; 40_000], ..RootExtras::default() };
        let wrapped = wrap_root(&large).unwrap();
        let text = wrapped.as_ref().unwrap().get();
        assert!(text.contains(DEFLATED));
        assert!(text.len() < serde_json::to_string(&large).unwrap().len() / 4, "{} bytes", text.len());
        assert_eq!(
            text,
            format!("{{\"relic\":{}}}", serde_json::to_string(&pack(&serde_json::to_string(&large).unwrap())).unwrap())
        );
        let back = unwrap_root(&wrapped).unwrap();
        assert_eq!((back.name.as_str(), back.global_sequences.len()), ("large", 40_000));

        // 64 MiB of spaces deflates to ~64 KiB: past 32 × its size + 1 MiB, so not inflated.
        let bomb = miniz_oxide::deflate::compress_to_vec(&vec![b' '; 64 << 20], 9);
        let text = format!("{DEFLATED}{}", relic_core::base64::encode(&bomb));
        assert_eq!(unpack(&text), Some(None));
        assert_eq!(unpack("not deflated"), None);
    }
}
