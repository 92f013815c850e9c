//! The binary buffer of an export: one buffer, one 4-byte-aligned view per accessor, so every
//! accessor and view offset is aligned and no view needs a byte stride.

use gltf_json as json;
use json::accessor::{ComponentType, GenericComponentType, Type};
use json::buffer::Target;
use json::validation::{Checked::Valid, USize64};
use json::{Index, Root};

/// Builds the binary chunk and the buffer views and accessors that describe it.
#[derive(Debug, Default)]
pub(crate) struct BinBuilder {
    /// The bytes of the one buffer.
    pub(crate) bin: Vec<u8>,
}

/// Plain little-endian values an accessor may hold.
pub(crate) trait Component: bytemuck::Pod {
    /// glTF component type.
    const TYPE: ComponentType;
    /// The value for `min`/`max`.
    fn json(self) -> json::Value;
}

impl Component for f32 {
    const TYPE: ComponentType = ComponentType::F32;
    fn json(self) -> json::Value {
        json::Value::from(self)
    }
}
impl Component for u8 {
    const TYPE: ComponentType = ComponentType::U8;
    fn json(self) -> json::Value {
        json::Value::from(self)
    }
}
impl Component for u16 {
    const TYPE: ComponentType = ComponentType::U16;
    fn json(self) -> json::Value {
        json::Value::from(self)
    }
}
impl Component for u32 {
    const TYPE: ComponentType = ComponentType::U32;
    fn json(self) -> json::Value {
        json::Value::from(self)
    }
}

/// The glTF accessor type of `N` components.
fn accessor_type(n: usize) -> Type {
    match n {
        1 => Type::Scalar,
        2 => Type::Vec2,
        3 => Type::Vec3,
        4 => Type::Vec4,
        _ => Type::Mat4,
    }
}

/// Per-component minimum and maximum of `data` (NaN never occurs: the model validated).
fn bounds<C: Component + PartialOrd, const N: usize>(data: &[[C; N]]) -> Option<(json::Value, json::Value)> {
    let first = *data.first()?;
    let (mut lo, mut hi) = (first, first);
    for v in data {
        for ((l, h), x) in lo.iter_mut().zip(hi.iter_mut()).zip(v) {
            if *x < *l {
                *l = *x;
            }
            if *x > *h {
                *h = *x;
            }
        }
    }
    let arr = |a: [C; N]| json::Value::Array(a.iter().map(|c| c.json()).collect());
    Some((arr(lo), arr(hi)))
}

impl BinBuilder {
    /// Appends `bytes` (after padding to 4 bytes) as a new buffer view.
    pub(crate) fn view(&mut self, root: &mut Root, bytes: &[u8], target: Option<Target>) -> Index<json::buffer::View> {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        let offset = self.bin.len();
        self.bin.extend_from_slice(bytes);
        root.push(json::buffer::View {
            buffer: Index::new(0),
            byte_length: USize64::from(bytes.len()),
            byte_offset: Some(USize64::from(offset)),
            byte_stride: None,
            name: None,
            target: target.map(Valid),
            extensions: None,
            extras: Default::default(),
        })
    }

    /// Appends an accessor of `data` in its own view; `with_bounds` writes `min`/`max` (required
    /// for positions and animation inputs), computed from the very values written.
    pub(crate) fn accessor<C: Component + PartialOrd, const N: usize>(
        &mut self,
        root: &mut Root,
        data: &[[C; N]],
        target: Option<Target>,
        with_bounds: bool,
        normalized: bool,
    ) -> Index<json::Accessor> {
        let bytes = to_le_bytes(data);
        let view = self.view(root, &bytes, target);
        let (min, max) =
            if with_bounds { bounds(data).map_or((None, None), |(a, b)| (Some(a), Some(b))) } else { (None, None) };
        root.push(json::Accessor {
            buffer_view: Some(view),
            byte_offset: None,
            count: USize64::from(data.len()),
            component_type: Valid(GenericComponentType(C::TYPE)),
            extensions: None,
            extras: Default::default(),
            type_: Valid(accessor_type(N)),
            min,
            max,
            name: None,
            normalized,
            sparse: None,
        })
    }

    /// A scalar accessor.
    pub(crate) fn scalars<C: Component + PartialOrd>(
        &mut self,
        root: &mut Root,
        data: &[C],
        target: Option<Target>,
        with_bounds: bool,
    ) -> Index<json::Accessor> {
        let wrapped: &[[C; 1]] = bytemuck::cast_slice(data);
        self.accessor(root, wrapped, target, with_bounds, false)
    }
}

/// Little-endian bytes of plain values.
fn to_le_bytes<C: Component, const N: usize>(data: &[[C; N]]) -> Vec<u8> {
    #[cfg(target_endian = "little")]
    {
        bytemuck::cast_slice::<C, u8>(data.as_flattened()).to_vec()
    }
    #[cfg(not(target_endian = "little"))]
    {
        let size = std::mem::size_of::<C>();
        let mut out = Vec::with_capacity(data.len() * N * size);
        for v in data {
            for c in v {
                let mut b = bytemuck::bytes_of(c).to_vec();
                b.reverse();
                out.extend_from_slice(&b);
            }
        }
        out
    }
}
