//! [`ByteWriter`]: the output buffer with back-patched offsets and alignment.

use std::io::{self, Seek, SeekFrom, Write};

use binrw::{BinResult, BinWrite, Endian};

/// A growable little-endian output buffer that can reserve a field and fill it in later.
#[derive(Debug, Default, Clone)]
pub struct ByteWriter {
    bytes: Vec<u8>,
    pos: usize,
}

/// A reserved `u32` slot in a [`ByteWriter`], to be filled by [`ByteWriter::patch_u32`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[must_use = "a reserved slot must be patched"]
pub struct Slot(usize);

impl ByteWriter {
    /// An empty buffer.
    pub fn new() -> Self {
        Self::default()
    }
    /// An empty buffer with room for `capacity` bytes.
    pub fn with_capacity(capacity: usize) -> Self {
        Self { bytes: Vec::with_capacity(capacity), pos: 0 }
    }
    /// Bytes written so far.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }
    /// True if nothing was written.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }
    /// The buffer.
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }
    /// The buffer so far.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }
    /// Writes a zero `u32` at the end and returns its slot.
    pub fn reserve_u32(&mut self) -> Slot {
        self.pos = self.bytes.len();
        let slot = Slot(self.pos);
        self.append(&[0; 4]);
        slot
    }
    /// Fills a reserved slot.
    pub fn patch_u32(&mut self, slot: Slot, value: u32) {
        if let Some(dst) = self.bytes.get_mut(slot.0..slot.0 + 4) {
            dst.copy_from_slice(&value.to_le_bytes());
        }
    }
    /// Appends bytes at the end.
    pub fn append(&mut self, data: &[u8]) {
        self.pos = self.bytes.len();
        self.bytes.extend_from_slice(data);
        self.pos = self.bytes.len();
    }
    /// Pads with zeros up to a multiple of `alignment`.
    pub fn align(&mut self, alignment: usize) {
        let rem = self.bytes.len() % alignment.max(1);
        if rem != 0 {
            self.bytes.resize(self.bytes.len() + alignment - rem, 0);
        }
        self.pos = self.bytes.len();
    }
    /// Writes a value with its binrw writer at the end.
    pub fn write<T>(&mut self, value: &T) -> BinResult<()>
    where
        T: for<'a> BinWrite<Args<'a> = ()>,
    {
        self.pos = self.bytes.len();
        value.write_options(self, Endian::Little, ())
    }
}

impl Write for ByteWriter {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        let end = self.pos + data.len();
        if self.pos == self.bytes.len() {
            self.bytes.extend_from_slice(data);
        } else {
            if end > self.bytes.len() {
                self.bytes.resize(end, 0);
            }
            if let Some(dst) = self.bytes.get_mut(self.pos..end) {
                dst.copy_from_slice(data);
            }
        }
        self.pos = end;
        Ok(data.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Seek for ByteWriter {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let len = self.bytes.len() as i128;
        let target = match to {
            SeekFrom::Start(p) => i128::from(p),
            SeekFrom::End(d) => len + i128::from(d),
            SeekFrom::Current(d) => self.pos as i128 + i128::from(d),
        };
        self.pos = usize::try_from(target)
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "seek before the start of the buffer"))?;
        Ok(self.pos as u64)
    }
}
