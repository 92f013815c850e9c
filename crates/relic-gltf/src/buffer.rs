//! The binary buffer of an export: one buffer; one 4-byte-aligned view per vertex or index
//! accessor, and one view shared by the accessors of the animations (a *pool*: thousands of
//! channels would otherwise cost a view each). Every accessor starts on 4 bytes, so every accessor
//! and view offset is aligned and no view needs a byte stride. An accessor of the pool that holds
//! the values of one written before is that one: the channels of a bone held still in every clip,
//! the key times several channels share, are written once.

use std::collections::HashMap;
use std::hash::BuildHasher;
use std::ops::Range;

use gltf_json as json;
use json::accessor::{ComponentType, GenericComponentType, Type};
use json::buffer::Target;
use json::validation::{Checked::Valid, USize64};
use json::{Index, Root};

use crate::read::decode;

/// Builds the binary chunk and the buffer views and accessors that describe it.
#[derive(Debug, Default)]
pub(crate) struct BinBuilder {
    /// The bytes of the one buffer.
    pub(crate) bin: Vec<u8>,
    /// A pool is open ([`Self::open_pool`]).
    pooling: bool,
    /// The open pool's view, once made, and where it starts in `bin`.
    pool: Option<(Index<json::buffer::View>, usize)>,
    /// The pool's accessors by a hash of what they hold.
    held: HashMap<u64, Vec<Pooled>>,
    /// The hash of [`Self::held`] (seeded per export: a file cannot choose collisions).
    hasher: std::hash::RandomState,
}

/// An accessor of the pool: what it holds, where its bytes are in the buffer, and its index.
#[derive(Debug)]
struct Pooled {
    held: Held,
    bytes: Range<usize>,
    index: Index<json::Accessor>,
}

/// What a pooled accessor holds but for its bytes: two accessors with these and the same bytes
/// are the same accessor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Held {
    component: u32,
    components: usize,
    normalized: bool,
    bounds: bool,
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
    /// The shortest decimal that reads back as this value, through a double as JSON readers read
    /// it (glTF takes the `min` and `max` of float components as single precision): `2.5018842`,
    /// not the widened double's `2.5018842220306396`.
    fn json(self) -> json::Value {
        let shortest = self.to_string().parse::<f64>().ok().filter(|d| (*d as f32).to_bits() == self.to_bits());
        json::Value::from(shortest.unwrap_or(f64::from(self)))
    }
}
impl Component for u8 {
    const TYPE: ComponentType = ComponentType::U8;
    fn json(self) -> json::Value {
        json::Value::from(self)
    }
}
impl Component for i16 {
    const TYPE: ComponentType = ComponentType::I16;
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
        self.align();
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

    /// Pads `bin` to 4 bytes.
    fn align(&mut self) {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
    }

    /// Opens a pool: from here, accessors without a target are appended to one view (made with
    /// the first of them) until [`Self::close_pool`].
    pub(crate) fn open_pool(&mut self) {
        self.pooling = true;
    }

    /// Closes the pool: its view covers what was appended since it was made.
    pub(crate) fn close_pool(&mut self, root: &mut Root) {
        self.pooling = false;
        if let Some((view, start)) = self.pool.take()
            && let Some(v) = root.buffer_views.get_mut(view.value())
        {
            v.byte_length = USize64::from(self.bin.len() - start);
        }
    }

    /// Appends an accessor of `data` in its own view, or in the open pool when it has no
    /// `target`; `with_bounds` writes `min`/`max` (required for positions and animation inputs),
    /// computed from the very values written.
    pub(crate) fn accessor<C: Component + PartialOrd, const N: usize>(
        &mut self,
        root: &mut Root,
        data: &[[C; N]],
        target: Option<Target>,
        with_bounds: bool,
        normalized: bool,
    ) -> Index<json::Accessor> {
        let bytes = to_le_bytes(data);
        let pooled = self.pooling && target.is_none();
        let held = Held { component: C::TYPE.as_gl_enum(), components: N, normalized, bounds: with_bounds };
        let hash = pooled.then(|| self.hasher.hash_one((held, &bytes)));
        if let Some(index) = hash.and_then(|h| self.written(h, held, &bytes)) {
            return index;
        }
        let (view, byte_offset) = match self.pool {
            _ if !self.pooling || target.is_some() => (self.view(root, &bytes, target), None),
            Some((view, start)) => {
                self.align();
                let offset = self.bin.len() - start;
                self.bin.extend_from_slice(&bytes);
                (view, (offset > 0).then(|| USize64::from(offset)))
            }
            None => {
                let view = self.view(root, &bytes, None);
                self.pool = Some((view, self.bin.len() - bytes.len()));
                (view, None)
            }
        };
        let (min, max) =
            if with_bounds { bounds(data).map_or((None, None), |(a, b)| (Some(a), Some(b))) } else { (None, None) };
        let index = root.push(json::Accessor {
            buffer_view: Some(view),
            byte_offset,
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
        });
        if let Some(hash) = hash {
            let end = self.bin.len();
            self.held.entry(hash).or_default().push(Pooled { held, bytes: end - bytes.len()..end, index });
        }
        index
    }

    /// The pooled accessor that holds `bytes` as `held` says, if one was written.
    fn written(&self, hash: u64, held: Held, bytes: &[u8]) -> Option<Index<json::Accessor>> {
        let same = |p: &&Pooled| p.held == held && self.bin.get(p.bytes.clone()) == Some(bytes);
        self.held.get(&hash)?.iter().find(same).map(|p| p.index)
    }

    /// An accessor of rotation keys: normalized 16-bit integers (glTF's own quantized rotations,
    /// half the bytes) when every component reads back as exactly the value given, as a game's
    /// compressed quaternions do (M2 from version 260: `c / 32767`); floats otherwise.
    pub(crate) fn rotations(&mut self, root: &mut Root, data: &[[f32; 4]]) -> Index<json::Accessor> {
        let code = |x: f32| {
            let c = i16::try_from((x * 32767.0).round() as i32).ok()?;
            Some(c).filter(|c| decode(ComponentType::I16, true, &c.to_le_bytes()).to_bits() == x.to_bits())
        };
        match exact_codes(data, code) {
            Some(codes) => self.accessor(root, &codes, None, false, true),
            None => self.accessor(root, data, None, false, false),
        }
    }

    /// A `WEIGHTS_n` accessor: normalized bytes when every weight reads back as exactly the value
    /// given (a game's byte weights `w / 255`, a single bone's 1), floats otherwise.
    pub(crate) fn weights(&mut self, root: &mut Root, data: &[[f32; 4]]) -> Index<json::Accessor> {
        let code = |x: f32| {
            let c = u8::try_from((x * 255.0).round() as i32).ok()?;
            Some(c).filter(|c| decode(ComponentType::U8, true, &[*c]).to_bits() == x.to_bits())
        };
        match exact_codes(data, code) {
            Some(codes) => self.accessor(root, &codes, Some(Target::ArrayBuffer), false, true),
            None => self.accessor(root, data, Some(Target::ArrayBuffer), false, false),
        }
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

/// Every component's integer code, if each has one (`code`).
fn exact_codes<C: Copy + Default>(data: &[[f32; 4]], code: impl Fn(f32) -> Option<C>) -> Option<Vec<[C; 4]>> {
    data.iter()
        .map(|v| {
            let mut out = [C::default(); 4];
            for (o, &x) in out.iter_mut().zip(v) {
                *o = code(x)?;
            }
            Some(out)
        })
        .collect()
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A float bound is written as the shortest decimal that reads back, through a double, as the
    /// very value (the sign of zero too), on values of every magnitude.
    #[test]
    fn float_bounds_are_the_shortest_decimals_that_read_back() {
        assert_eq!(serde_json::to_string(&2.501_884_2_f32.json()).unwrap(), "2.5018842");
        let mut rng = relic_testkit::Rng::new(7);
        let special = [0.0f32, -0.0, 1.0, -1.5, f32::MIN_POSITIVE, f32::MAX, f32::MIN, 1e-45, 0.1, 1.0 / 3.0];
        let random = (0..20_000).map(|_| f32::from_bits(rng.next_u64() as u32)).filter(|x| x.is_finite());
        for x in special.into_iter().chain(random) {
            let text = serde_json::to_string(&x.json()).unwrap();
            let back = text.parse::<f64>().unwrap() as f32;
            assert_eq!(back.to_bits(), x.to_bits(), "{x:e} written as {text}");
            let widened = serde_json::to_string(&json::Value::from(f64::from(x))).unwrap();
            assert!(text.len() <= widened.len(), "{x:e} written as {text}, longer than {widened}");
        }
    }

    /// In the pool, an accessor of values written before is that accessor; values read as
    /// another type, normalized or not, with bounds or without, are not the same; outside the
    /// pool (vertex data) every accessor is its own.
    #[test]
    fn a_pooled_accessor_of_the_same_values_is_written_once() {
        let (mut root, mut bin) = (Root::default(), BinBuilder::default());
        let keys = [[0.5f32, 0.25, 0.0, 1.0], [0.5, 0.25, 0.0, 1.0]];
        let outside = bin.accessor(&mut root, &keys, None, false, false);
        assert_ne!(outside, bin.accessor(&mut root, &keys, None, false, false), "outside the pool");
        bin.open_pool();
        let first = bin.accessor(&mut root, &keys, None, false, false);
        let size = bin.bin.len();
        assert_eq!(bin.accessor(&mut root, &keys, None, false, false), first);
        assert_eq!(bin.bin.len(), size, "no bytes written again");
        assert_ne!(bin.accessor(&mut root, &keys, None, true, false), first, "with bounds");
        assert_ne!(bin.accessor(&mut root, &keys, None, false, true), first, "normalized");
        let as_vec2: Vec<[f32; 2]> = keys.as_flattened().chunks(2).map(|c| [c[0], c[1]]).collect();
        assert_ne!(bin.accessor(&mut root, &as_vec2, None, false, false), first, "other components");
        let as_u32: Vec<[u32; 4]> = keys.iter().map(|k| k.map(f32::to_bits)).collect();
        assert_ne!(bin.accessor(&mut root, &as_u32, None, false, false), first, "other component type");
        let other = bin.accessor(&mut root, &[[0.5f32, 0.25, 0.0, 0.5]], None, false, false);
        assert_ne!(other, first, "other values");
        assert_eq!(bin.accessor(&mut root, &[[0.5f32, 0.25, 0.0, 0.5]], None, false, false), other);
        bin.close_pool(&mut root);
        assert_eq!(root.accessors.len(), 8);
    }
}
