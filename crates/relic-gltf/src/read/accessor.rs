//! Accessors decoded under a running budget of decoded bytes.

use std::borrow::Cow;

use gltf_json as json;
use json::accessor::{ComponentType, Type};
use json::validation::Checked;
use json::{Index, Root};

use crate::GltfError;

/// Decoded accessor data, with a running budget of decoded bytes.
pub(crate) struct Reader<'a> {
    root: &'a Root,
    buffers: &'a [Cow<'a, [u8]>],
    /// Bytes of decoded output still allowed.
    budget: u64,
}

fn component_size(c: ComponentType) -> u64 {
    match c {
        ComponentType::I8 | ComponentType::U8 => 1,
        ComponentType::I16 | ComponentType::U16 => 2,
        ComponentType::U32 | ComponentType::F32 => 4,
    }
}

fn component_count(t: Type) -> usize {
    match t {
        Type::Scalar => 1,
        Type::Vec2 => 2,
        Type::Vec3 => 3,
        Type::Vec4 => 4,
        Type::Mat2 => 4,
        Type::Mat3 => 9,
        Type::Mat4 => 16,
    }
}

/// One component as f32 (normalized integers mapped to [0, 1] or [-1, 1]).
#[inline]
pub(crate) fn decode(c: ComponentType, normalized: bool, b: &[u8]) -> f32 {
    // `b` runs from the component to the end of a whole element (`Span::elements`), so it holds
    // the component's bytes: the zero byte is never taken.
    let byte = |i: usize| b.get(i).copied().unwrap_or(0);
    match (c, normalized) {
        (ComponentType::F32, _) => f32::from_le_bytes([byte(0), byte(1), byte(2), byte(3)]),
        (ComponentType::U32, _) => u32::from_le_bytes([byte(0), byte(1), byte(2), byte(3)]) as f32,
        (ComponentType::U8, false) => f32::from(byte(0)),
        (ComponentType::U8, true) => f32::from(byte(0)) / 255.0,
        (ComponentType::I8, false) => f32::from(byte(0) as i8),
        (ComponentType::I8, true) => (f32::from(byte(0) as i8) / 127.0).max(-1.0),
        (ComponentType::U16, false) => f32::from(u16::from_le_bytes([byte(0), byte(1)])),
        (ComponentType::U16, true) => f32::from(u16::from_le_bytes([byte(0), byte(1)])) / 65535.0,
        (ComponentType::I16, false) => f32::from(i16::from_le_bytes([byte(0), byte(1)])),
        (ComponentType::I16, true) => (f32::from(i16::from_le_bytes([byte(0), byte(1)])) / 32767.0).max(-1.0),
    }
}

#[inline]
fn decode_int(c: ComponentType, b: &[u8]) -> Option<u32> {
    // As in `decode`: `b` is a whole element (a sparse index) or what follows a component in one.
    let byte = |i: usize| b.get(i).copied().unwrap_or(0);
    match c {
        ComponentType::U8 => Some(u32::from(byte(0))),
        ComponentType::U16 => Some(u32::from(u16::from_le_bytes([byte(0), byte(1)]))),
        ComponentType::U32 => Some(u32::from_le_bytes([byte(0), byte(1), byte(2), byte(3)])),
        _ => None,
    }
}

/// Where an accessor's (or sparse part's) elements are: bytes of the view from the first element,
/// the stride and the element size.
struct Span<'b> {
    bytes: &'b [u8],
    stride: usize,
    element: usize,
    count: usize,
}

impl<'b> Span<'b> {
    fn get(&self, i: usize) -> Option<&'b [u8]> {
        let start = i.checked_mul(self.stride)?;
        self.bytes.get(start..start.checked_add(self.element)?)
    }

    /// The `count` elements in order. [`Reader::span`] checked that they all lie in `bytes`, so
    /// the empty element is never taken.
    fn elements(&self) -> impl Iterator<Item = &'b [u8]> + '_ {
        (0..self.count).map(|i| self.get(i).unwrap_or_default())
    }
}

impl<'a> Reader<'a> {
    /// A reader whose decoded output may total `budget` bytes.
    pub(crate) fn new(root: &'a Root, buffers: &'a [Cow<'a, [u8]>], budget: u64) -> Self {
        Self { root, buffers, budget }
    }

    fn charge(&mut self, element: &str, bytes: u64) -> Result<(), GltfError> {
        if bytes > self.budget {
            return Err(GltfError::invalid(
                element,
                format!("decoding {bytes} more bytes exceeds what the input size allows"),
            ));
        }
        self.budget -= bytes;
        Ok(())
    }

    /// The bytes of `count` elements of `element_size` at `offset` (with `stride`, 0 = packed) of
    /// buffer view `view`, checked against the view and the buffer.
    fn span(
        &self,
        element: &str,
        view: Index<json::buffer::View>,
        offset: u64,
        count: u64,
        element_size: u64,
    ) -> Result<Span<'a>, GltfError> {
        let v = self.root.get(view).ok_or_else(|| GltfError::invalid(element, "buffer view out of range"))?;
        let data =
            self.buffers.get(v.buffer.value()).ok_or_else(|| GltfError::invalid(element, "buffer out of range"))?;
        let view_offset = v.byte_offset.map_or(0, |o| o.0);
        let view_len = v.byte_length.0;
        let view_end = view_offset.checked_add(view_len).filter(|&e| e <= data.len() as u64).ok_or_else(|| {
            GltfError::invalid(
                element,
                format!(
                    "buffer view {} ({view_len} bytes at {view_offset}) runs past its buffer ({} bytes)",
                    view.value(),
                    data.len()
                ),
            )
        })?;
        let stride = v.byte_stride.map_or(element_size, |s| s.0 as u64);
        if stride < element_size {
            return Err(GltfError::invalid(
                element,
                format!("byte stride {stride} is smaller than the element ({element_size} bytes)"),
            ));
        }
        let needed = match count {
            0 => 0,
            n => (n - 1).checked_mul(stride).and_then(|x| x.checked_add(element_size)).unwrap_or(u64::MAX),
        };
        let end = offset.saturating_add(needed);
        if end > view_len {
            return Err(GltfError::invalid(
                element,
                format!(
                    "{count} elements of {element_size} bytes (stride {stride}) at offset {offset} need {end} bytes but the view has {view_len}"
                ),
            ));
        }
        let start = (view_offset + offset) as usize;
        // In range: `offset + needed` ≤ the view's length, and the view ends within the buffer.
        let bytes = data.get(start..view_end as usize).unwrap_or_default();
        Ok(Span { bytes, stride: stride as usize, element: element_size as usize, count: count as usize })
    }

    /// The whole of buffer view `view` (an embedded image), checked against its buffer.
    pub(crate) fn view_bytes(&self, element: &str, view: Index<json::buffer::View>) -> Result<&'a [u8], GltfError> {
        let v = self.root.get(view).ok_or_else(|| GltfError::invalid(element, "buffer view out of range"))?;
        let span = self.span(element, view, 0, v.byte_length.0, 1)?;
        Ok(span.bytes.get(..v.byte_length.0 as usize).unwrap_or(span.bytes))
    }

    fn accessor(&self, index: Index<json::Accessor>) -> Result<&'a json::Accessor, GltfError> {
        self.root.get(index).ok_or_else(|| GltfError::invalid(format!("accessors[{}]", index.value()), "out of range"))
    }

    /// Reads accessor `index` as `N` floats per element (any component type; normalized integers
    /// mapped to [0, 1] / [-1, 1]). `types` lists the accepted component types.
    pub(crate) fn floats<const N: usize>(
        &mut self,
        index: Index<json::Accessor>,
        types: &[ComponentType],
    ) -> Result<Vec<[f32; N]>, GltfError> {
        self.elements(index, types, false, decode)
    }

    /// Reads accessor `index` as `N` unsigned integers per element (u8, u16, u32; not normalized).
    pub(crate) fn ints<const N: usize>(&mut self, index: Index<json::Accessor>) -> Result<Vec<[u32; N]>, GltfError> {
        let types = [ComponentType::U8, ComponentType::U16, ComponentType::U32];
        // `elements` checked the component type against `types`, all of which `decode_int` reads:
        // the 0 is never taken.
        self.elements(index, &types, true, |component, _, bytes| decode_int(component, bytes).unwrap_or(0))
    }

    /// Reads accessor `index` as `N` components per element, each decoded by `decode` from its
    /// bytes (component type, normalized flag, bytes from the component on): the dense data of
    /// its buffer view (zeros without one), then its sparse substitutions. `integers` refuses
    /// normalized accessors.
    fn elements<E: Copy + Default, const N: usize>(
        &mut self,
        index: Index<json::Accessor>,
        types: &[ComponentType],
        integers: bool,
        decode: impl Fn(ComponentType, bool, &[u8]) -> E,
    ) -> Result<Vec<[E; N]>, GltfError> {
        let element = format!("accessors[{}]", index.value());
        let a = self.accessor(index)?;
        let (component, normalized, count) = self.check_type(&element, a, N, types)?;
        if integers && normalized {
            return Err(GltfError::invalid(element, "integer indices must not be normalized"));
        }
        let size = component_size(component) as usize;
        let span = match a.buffer_view {
            Some(view) => Some(self.span(
                &element,
                view,
                a.byte_offset.map_or(0, |o| o.0),
                count,
                element_size(size as u64, N),
            )?),
            None => None,
        };
        self.charge(&element, count.saturating_mul(4 * N as u64))?;
        // Component `c` < N of an element of N components of `size` bytes: never the empty default.
        let one = |bytes: &[u8]| -> [E; N] {
            std::array::from_fn(|c| decode(component, normalized, bytes.get(c * size..).unwrap_or_default()))
        };
        let mut out: Vec<[E; N]> = Vec::with_capacity(count as usize);
        match span {
            Some(span) => {
                out.extend(span.elements().map(&one));
            }
            None => out.resize(count as usize, [E::default(); N]),
        }
        if let Some(sparse) = &a.sparse {
            let (indices, values) = self.sparse(&element, sparse, count, component, N)?;
            // As many values as indices: both spans hold the sparse count.
            for (&i, value) in indices.iter().zip(values) {
                if let Some(slot) = out.get_mut(i as usize) {
                    *slot = one(value);
                }
            }
        }
        Ok(out)
    }

    /// Component type, normalized flag and count after checking the accessor's type.
    fn check_type(
        &self,
        element: &str,
        a: &json::Accessor,
        n: usize,
        types: &[ComponentType],
    ) -> Result<(ComponentType, bool, u64), GltfError> {
        let (Checked::Valid(t), Checked::Valid(c)) = (&a.type_, &a.component_type) else {
            return Err(GltfError::invalid(element, "unknown accessor type or component type"));
        };
        if component_count(*t) != n || matches!(t, Type::Mat2 | Type::Mat3) {
            return Err(GltfError::invalid(element, format!("type {t:?} where {n} components are expected")));
        }
        if !types.contains(&c.0) {
            return Err(GltfError::invalid(element, format!("component type {:?} is not allowed here", c.0)));
        }
        Ok((c.0, a.normalized, a.count.0))
    }

    /// The sparse indices (checked < `count`, ascending) and the value elements.
    fn sparse(
        &mut self,
        element: &str,
        sparse: &json::accessor::sparse::Sparse,
        count: u64,
        component: ComponentType,
        n: usize,
    ) -> Result<(Vec<u32>, Vec<&'a [u8]>), GltfError> {
        let element = format!("{element}.sparse");
        let k = sparse.count.0;
        if k > count {
            return Err(GltfError::invalid(element, format!("{k} sparse elements for {count} elements")));
        }
        let Checked::Valid(ic) = &sparse.indices.component_type else {
            return Err(GltfError::invalid(element, "unknown index component type"));
        };
        let isize = component_size(ic.0);
        let ispan = self.span(&element, sparse.indices.buffer_view, sparse.indices.byte_offset.0, k, isize)?;
        self.charge(&element, k.saturating_mul(4 + 8))?;
        let mut indices = Vec::with_capacity(k as usize);
        for (i, bytes) in ispan.elements().enumerate() {
            let v = decode_int(ic.0, bytes).unwrap_or(u32::MAX);
            if u64::from(v) >= count || indices.last().is_some_and(|&last| v <= last) {
                return Err(GltfError::invalid(element, format!("index {v} at {i} is out of range or not ascending")));
            }
            indices.push(v);
        }
        let vsize = element_size(component_size(component), n);
        let vspan = self.span(&element, sparse.values.buffer_view, sparse.values.byte_offset.0, k, vsize)?;
        let values = vspan.elements().collect();
        Ok((indices, values))
    }
}

/// Bytes of one element of `n` components (matrices of 1- and 2-byte components have padded
/// columns, which this reader does not accept).
fn element_size(component: u64, n: usize) -> u64 {
    component * n as u64
}
