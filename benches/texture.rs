//! Texture benchmarks.
//!
//! Decode: a 2048 × 2048 image (16 MiB of RGBA output) as DXT1, DXT5 and palettized BLP,
//! decoded to RGBA8, beside a memcpy of the same 16 MiB (the physical limit). Throughput is the
//! RGBA output; megapixels/s is that ÷ 4. Target: ≥ 1 GB/s of RGBA per core.
//!
//! * `bc1`/`bc3` (relic-texture): bcdec's block decoder, our row placement.
//! * `texpresso whole image`: texpresso's own `Format::decompress` loop, for comparison.
//! * `blp decode_bytes`: parse + level checks + decode of a whole BLP2 file.
//! * `blp1 JPEG`: the corpus's `map101.blp` (256 × 256, zune-jpeg), when `../shared/corpus` is
//!   present.
//!
//! Encode: a 512 × 512 image (1 MiB of RGBA input) to DXT1 and DXT5, throughput of the RGBA
//! input. `decoded DXT` is an image decoded from DXT blocks (a texture written back: every block
//! is found again from its own end points); `photo-like` has more than four colours in every
//! block (libsquish's cluster fit on every block, after the exact search gives up).
//! `texpresso whole image` is the crate alone (relic's encoder before the exact search).

// Benchmark set-up: a failure must stop the run loudly.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use relic_benches::{bench_memcpy, corpus_file};
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
    relic_blp::write(&BlpFile::Blp2(Blp2File { header, palette: Some(palette), data })).unwrap()
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

/// A 512 × 512 image with more than four colours in every 4 × 4 block: smooth gradients and a
/// little deterministic noise, alpha varying too.
fn photo_like(side: usize) -> Vec<u8> {
    let mut rng = relic_testkit::Rng::new(7);
    (0..side * side)
        .flat_map(|i| {
            let (x, y) = (i % side, i / side);
            let n = (rng.next_u64() % 9) as usize;
            [(x / 2 + n) as u8, (y / 2 + 2 * n) as u8, ((x + y) / 4 + n) as u8, (255 - x / 3 - n) as u8]
        })
        .collect()
}

fn encode_benches(c: &mut Criterion) {
    const SIDE: usize = 512;
    let label = "512x512 (1 MiB RGBA in)";
    let params = texpresso::Params {
        algorithm: texpresso::Algorithm::IterativeClusterFit,
        weights: texpresso::COLOUR_WEIGHTS_PERCEPTUAL,
        weigh_colour_by_alpha: false,
    };
    let mut g = c.benchmark_group("texture encode");
    g.throughput(Throughput::Bytes((SIDE * SIDE * 4) as u64));
    g.sample_size(10);
    let photo = photo_like(SIDE);
    for (bc, format, name) in [(Bc::Bc1, texpresso::Format::Bc1, "DXT1"), (Bc::Bc3, texpresso::Format::Bc3, "DXT5")] {
        let decoded = bc::decode(bc, &noise(bc.image_bytes(SIDE as u64, SIDE as u64) as usize, 4), SIDE, SIDE);
        for (kind, image) in [("decoded DXT", &decoded), ("photo-like", &photo)] {
            g.bench_function(format!("bc encode {name} {kind}/{label}"), |b| {
                b.iter(|| bc::encode(bc, black_box(image), SIDE, SIDE))
            });
            let mut out = vec![0u8; bc.image_bytes(SIDE as u64, SIDE as u64) as usize];
            g.bench_function(format!("texpresso whole image {name} {kind}/{label}"), |b| {
                b.iter(|| format.compress(black_box(image), SIDE, SIDE, params, &mut out))
            });
        }
    }
    g.finish();
}

fn jpeg_benches(c: &mut Criterion) {
    let Some(bytes) = corpus_file("blp1/map101.blp") else { return };
    let mut g = c.benchmark_group("texture decode");
    g.throughput(Throughput::Bytes(256 * 256 * 4));
    g.bench_function("blp1 JPEG decode_bytes (map101.blp)/256x256 (256 KiB RGBA)", |b| {
        b.iter(|| black_box(relic_blp::decode_bytes(black_box(&bytes), 0, &TextureOptions::default()).unwrap()))
    });
    g.finish();
}

criterion_group!(benches, texture_benches, jpeg_benches, encode_benches);
criterion_main!(benches);
