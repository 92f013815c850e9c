//! An independent scalar decoder of the animation section (ltb.md §9), written from the notes
//! apart from `file/animation.rs` and `quantize.rs`: it walks the payload's bytes one value at a
//! time and expands every track to one position and one rotation per key (0 stored values: the
//! identity; 1: the value for every key), so that the reader's decoding (through `to_ir`) can be
//! checked against it value for value.

/// Per animation, per node, per key: `(position, rotation)` in the file's frame.
pub(crate) type Decoded = Vec<Vec<Vec<([f32; 3], [f32; 4])>>>;

struct Bytes<'a> {
    data: &'a [u8],
    at: usize,
}

impl Bytes<'_> {
    fn take<const N: usize>(&mut self) -> Result<[u8; N], String> {
        let out: [u8; N] = self
            .data
            .get(self.at..self.at + N)
            .and_then(|s| s.try_into().ok())
            .ok_or_else(|| format!("ran out of bytes at {:#x}", self.at))?;
        self.at += N;
        Ok(out)
    }
    fn u8(&mut self) -> Result<u8, String> {
        Ok(self.take::<1>()?[0])
    }
    fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.take()?))
    }
    fn f32(&mut self) -> Result<f32, String> {
        Ok(f32::from_le_bytes(self.take()?))
    }
    fn i16(&mut self) -> Result<i16, String> {
        Ok(i16::from_le_bytes(self.take()?))
    }
    fn skip(&mut self, n: usize) -> Result<(), String> {
        if self.data.len() < self.at + n {
            return Err(format!("ran out of bytes at {:#x}", self.at));
        }
        self.at += n;
        Ok(())
    }
    fn string(&mut self) -> Result<(), String> {
        let n = u16::from_le_bytes(self.take()?);
        self.skip(usize::from(n))
    }
}

/// Decodes the animation section that starts (with its count) at `at` in `payload`, for a model
/// of `nodes` nodes.
pub(crate) fn decode(payload: &[u8], at: usize, nodes: usize) -> Result<Decoded, String> {
    let mut b = Bytes { data: payload, at };
    let count = b.u32()?;
    let mut out = Vec::new();
    for _ in 0..count {
        b.skip(12)?;
        b.string()?;
        let mode = b.u32()?;
        b.u32()?;
        let keys = b.u32()? as usize;
        for _ in 0..keys {
            b.u32()?;
            b.string()?;
        }
        let mut tracks = Vec::with_capacity(nodes);
        for _ in 0..nodes {
            let mut positions = Vec::new();
            let mut rotations = Vec::new();
            if mode == 0 {
                if b.u8()? != 0 {
                    // A vertex track: the node's transform is the identity in this animation.
                    for _ in 0..keys {
                        let n = b.u32()? as usize;
                        b.skip(12 * n)?;
                    }
                    tracks.push(vec![([0.0; 3], [0.0, 0.0, 0.0, 1.0]); keys]);
                    continue;
                }
                for _ in 0..keys {
                    positions.push([b.f32()?, b.f32()?, b.f32()?]);
                }
                for _ in 0..keys {
                    rotations.push([b.f32()?, b.f32()?, b.f32()?, b.f32()?]);
                }
            } else {
                let n = b.u32()?;
                for _ in 0..n {
                    positions.push(if mode == 2 {
                        // 1/16 of a unit per step.
                        let (x, y, z) = (b.i16()?, b.i16()?, b.i16()?);
                        [f32::from(x) * 0.0625, f32::from(y) * 0.0625, f32::from(z) * 0.0625]
                    } else {
                        [b.f32()?, b.f32()?, b.f32()?]
                    });
                }
                let n = b.u32()?;
                for _ in 0..n {
                    rotations.push(if mode == 1 {
                        [b.f32()?, b.f32()?, b.f32()?, b.f32()?]
                    } else {
                        let mut q = [0.0f32; 4];
                        for c in &mut q {
                            *c = (f64::from(b.i16()?) / 32767.0) as f32;
                        }
                        q
                    });
                }
            }
            let pick = |i: usize, len: usize| if len == 1 { 0 } else { i };
            let track = (0..keys)
                .map(|k| {
                    let p = positions.get(pick(k, positions.len())).copied().unwrap_or([0.0; 3]);
                    let r = rotations.get(pick(k, rotations.len())).copied().unwrap_or([0.0, 0.0, 0.0, 1.0]);
                    (p, r)
                })
                .collect();
            tracks.push(track);
        }
        out.push(tracks);
    }
    Ok(out)
}
