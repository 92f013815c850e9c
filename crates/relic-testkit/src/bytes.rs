//! [`LeBytes`]: a little-endian byte builder for the generator tests, which lay files out field
//! by field from the specs — never with the crate's own writer, so a reader bug and a writer bug
//! cannot cancel.

/// The little-endian scalar appends (`u8` … `f32`, `f32s`) of a byte builder, written once for
/// every builder of the crate: each defines only `raw(&mut self, &[u8]) -> &mut Self`.
macro_rules! le_appends {
    () => {
        /// Appends a u8.
        pub fn u8(&mut self, v: u8) -> &mut Self {
            self.raw(&[v])
        }
        /// Appends an i8.
        pub fn i8(&mut self, v: i8) -> &mut Self {
            self.raw(&v.to_le_bytes())
        }
        /// Appends a u16.
        pub fn u16(&mut self, v: u16) -> &mut Self {
            self.raw(&v.to_le_bytes())
        }
        /// Appends an i16.
        pub fn i16(&mut self, v: i16) -> &mut Self {
            self.raw(&v.to_le_bytes())
        }
        /// Appends a u32.
        pub fn u32(&mut self, v: u32) -> &mut Self {
            self.raw(&v.to_le_bytes())
        }
        /// Appends an i32.
        pub fn i32(&mut self, v: i32) -> &mut Self {
            self.raw(&v.to_le_bytes())
        }
        /// Appends an f32.
        pub fn f32(&mut self, v: f32) -> &mut Self {
            self.raw(&v.to_le_bytes())
        }
        /// Appends f32s.
        pub fn f32s(&mut self, vs: &[f32]) -> &mut Self {
            for v in vs {
                self.f32(*v);
            }
            self
        }
    };
}
pub(crate) use le_appends;

/// A growing little-endian byte buffer.
#[derive(Debug, Default, Clone)]
pub struct LeBytes(pub Vec<u8>);

impl LeBytes {
    le_appends!();

    /// Appends bytes as they are.
    pub fn raw(&mut self, bytes: &[u8]) -> &mut Self {
        self.0.extend_from_slice(bytes);
        self
    }
    /// Appends a LithTech string: `u16 length` + the bytes (truncated to 65,535).
    pub fn len_string(&mut self, s: &[u8]) -> &mut Self {
        let s = s.get(..usize::from(u16::MAX)).unwrap_or(s);
        self.u16(s.len() as u16).raw(s)
    }
}
