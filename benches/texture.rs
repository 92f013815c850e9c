//! Texture decode benchmarks: a 2048 × 2048 image (16 MiB of RGBA output) as DXT1, DXT5 and
//! palettized BLP, decoded to RGBA8, beside a memcpy of the same 16 MiB (the physical limit).
//! Throughput is the RGBA output; megapixels/s is that ÷ 4. Target: ≥ 1 GB/s of RGBA per core.
//!
//! * `bc1`/`bc3` (relic-core): texpresso's block decoder, our row placement.
//! * `texpresso whole image`: texpresso's own `Format::decompress` loop, for comparison.
//! * `blp decode_bytes`: parse + level checks + decode of a whole BLP2 file.

// Benchmark set-up: a failure must stop the run loudly.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use relic_benches::bench_memcpy;
use relic_blp::file::blp2::{Blp2File, Blp2Header};
use relic_blp::file::{BlpFile, Palette};
use relic_core::texture::TextureOptions;
use relic_texture::bc::{self, Bc};

const SIDE: u32 = 2048;

/// Deterministic bytes (any bytes are valid DXT blocks and palette indices).
fn noise(len: usize, seed: u64) -> Vec<u8> {
    let mut rng = relic_testkit::Rng::new(seed);
    (0..len).map(|_| rng.next_u64() as u8).collect()
}

/// A one-level BLP2 of `data` (compression, alpha depth, alpha type).
fn blp(kind: [u8; 3], data: Vec<u8>) -> Vec<u8> {
    let mut mip_offsets = [0; 16];
    let mut mip_sizes = [0; 16];
    mip_offsets[0] = 1172;
    mip_sizes[0] = data.len() as u32;
    let header = Blp2Header {
        content: 1,
        compression: kind[0],
        alpha_depth: kind[1],
        alpha_type: kind[2],
        has_mips: 0,
        width: SIDE,
        height: SIDE,
        mip_offsets,
        mip_sizes,
    };
    let palette = Palette::from_rgb(&(0..=255u8).map(|i| [i, 255 - i, i / 2]).collect::<Vec<_>>());
    relic_blp::write(&BlpFile::Blp2(Blp2File { header, palette, data })).unwrap()
}

fn texture_benches(c: &mut Criterion) {
    let side = SIDE as usize;
    let out_bytes = side * side * 4;
    let dxt1 = noise(Bc::Bc1.image_bytes(SIDE.into(), SIDE.into()) as usize, 1);
    let dxt5 = noise(Bc::Bc3.image_bytes(SIDE.into(), SIDE.into()) as usize, 2);
    let palettized = noise(side * side * 2, 3);
    let blp_dxt1 = blp([2, 0, 0], dxt1.clone());
    let blp_dxt5 = blp([2, 8, 7], dxt5.clone());
    let blp_pal = blp([1, 8, 8], palettized);
    let options = TextureOptions::default();
    let label = "2048x2048 (16 MiB RGBA)";

    let mut g = c.benchmark_group("texture decode");
    g.throughput(Throughput::Bytes(out_bytes as u64));
    g.sample_size(20);
    bench_memcpy(&mut g, label, &vec![7u8; out_bytes]);
    let mut out = vec![0u8; out_bytes];
    g.bench_function(format!("bc1 (DXT1) into a buffer/{label}"), |b| {
        b.iter(|| bc::decode_into(Bc::Bc1, black_box(&dxt1), side, side, &mut out))
    });
    g.bench_function(format!("bc3 (DXT5) into a buffer/{label}"), |b| {
        b.iter(|| bc::decode_into(Bc::Bc3, black_box(&dxt5), side, side, &mut out))
    });
    g.bench_function(format!("texpresso whole image DXT1/{label}"), |b| {
        b.iter(|| texpresso::Format::Bc1.decompress(black_box(&dxt1), side, side, &mut out))
    });
    g.bench_function(format!("texpresso whole image DXT5/{label}"), |b| {
        b.iter(|| texpresso::Format::Bc3.decompress(black_box(&dxt5), side, side, &mut out))
    });
    for (name, bytes) in [("DXT1", &blp_dxt1), ("DXT5", &blp_dxt5), ("palettized a8", &blp_pal)] {
        g.bench_function(format!("blp decode_bytes {name}/{label}"), |b| {
            b.iter(|| black_box(relic_blp::decode_bytes(black_box(bytes), 0, &options).unwrap()))
        });
    }
    g.finish();
}

criterion_group!(benches, texture_benches);
criterion_main!(benches);
