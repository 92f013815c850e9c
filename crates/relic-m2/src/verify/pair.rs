//! The pair check: a model Blizzard exported for Wrath (264+) and for Classic (256) — the same
//! creature, two exports (m2-wrath.md §9) — compared after converting the Wrath file to 256 with
//! relic, on what §9 shows both exports share. What legitimately differs is listed, not judged.
//!
//! | shared (checked) | how |
//! |---|---|
//! | vertices | same count and order; positions within 1e-4 for ≥ 95 % (§9: 3 837 of 3 902 equal to 1e-6), all within 0.5 |
//! | sequences | same count, ids, durations in order |
//! | textures, render flags, lookups | texture kinds and flags, render flags, texture / coord / weight / transform / replaceable lookups equal |
//! | attachments | same ids and lookup; positions and bone pivots within 1e-4 |
//! | cameras | kind, field of view, clips, bases, lookup |
//! | particle emitters | count; flags, blend and emitter type, tiles, colours, sizes, cells and mid point after the repacking, twinkle, drag, spin, wind, follow |
//!
//! A Classic file not in Blizzard's layout is a converter's (GnomePounder-converted.m2): where it
//! makes one of the choices [`CONVERTER_CHOICES`] lists, the difference is named and counted in a
//! `pair-converter` line, never skipped; any other difference fails as for Blizzard's export.

use relic_core::WriteOptions;
use relic_core::check::Checks;
use relic_core::format::Input;

use crate::file::{M2File, ParticleBlend};

/// Legitimate differences between the two exports (§9), printed with the check.
pub const DIFFERENCES: &[&str] = &[
    "bone count and order (Blizzard's Classic export merged bones: attachments are matched by pivot)",
    "events ($CSL, $CSR exist only in the Wrath export)",
    "global sequences (the Classic export has one of length 0) and global flags (Wrath 0x10)",
    "re-keyed tracks (independent keyframe reduction) and sequence windows (relic lays them on 10 000/3 ms marks)",
    "normals (recomputed), some UVs and vertex positions (re-export), bounding boxes",
    "views (Classic has a 256-bone view 0 the Wrath skins lack) and the playable lookup (needs the client's AnimationData)",
    "one texture file name",
];

fn equal<T: PartialEq + std::fmt::Debug>(what: &str, a: &T, b: &T) -> Result<(), String> {
    if a == b { Ok(()) } else { Err(format!("{what}: relic {a:?} vs Classic {b:?}")) }
}

/// Farthest a re-exported vertex may lie from the other export's (yards; GnomePounder: 0.28).
const MOVED: f32 = 0.5;
/// How far two exports' stored positions may differ (float noise of the two exporters).
const NOISE: f32 = 1e-4;

fn near(a: [f32; 3], b: [f32; 3]) -> bool {
    a.iter().zip(&b).all(|(x, y)| (x - y).abs() <= NOISE)
}

fn vertices(c: &M2File, v: &M2File) -> Result<String, String> {
    equal("vertex count", &c.vertices.len(), &v.vertices.len())?;
    let dist = |a: [f32; 3], b: [f32; 3]| a.iter().zip(&b).map(|(x, y)| (x - y).abs()).fold(0.0f32, f32::max);
    let d: Vec<f32> = c.vertices.iter().zip(v.vertices.iter()).map(|(a, b)| dist(a.position, b.position)).collect();
    let close = d.iter().filter(|&&x| x <= 1e-4).count();
    let worst = d.iter().copied().fold(0.0, f32::max);
    if close * 100 < d.len() * 95 || worst > MOVED {
        return Err(format!("{close} of {} vertex positions within 1e-4, worst {worst:.3}", d.len()));
    }
    Ok(format!("{close}/{} positions within 1e-4 (worst {worst:.1e})", d.len()))
}

fn sequences(c: &M2File, v: &M2File) -> Result<String, String> {
    let ids = |f: &M2File| f.sequences.iter().map(|s| (s.id, s.end - s.start)).collect::<Vec<_>>();
    equal("sequence ids and durations", &ids(c), &ids(v))?;
    let windows = c.sequences.iter().zip(v.sequences.iter()).filter(|(a, b)| a.start == b.start).count();
    Ok(format!("{} sequences with equal ids and durations ({windows} windows on the same start)", c.sequences.len()))
}

/// True if the Classic file is laid out as Blizzard's exporter lays files out: every block on a
/// 16-byte boundary (m2.md §1). A file that is not was written by a converter, whose own choices
/// are named, not judged (`CONVERTER_CHOICES`).
fn blizzard_layout(f: &M2File) -> bool {
    let offsets = [
        (f.name.len(), f.name.offset),
        (f.sequences.len(), f.sequences.offset),
        (f.bones.len(), f.bones.offset),
        (f.vertices.len(), f.vertices.offset),
        (f.views.len(), f.views.offset),
        (f.textures.len(), f.textures.offset),
        (f.particle_emitters.len(), f.particle_emitters.offset),
    ];
    offsets.iter().all(|&(n, at)| n == 0 || at % 16 == 0)
}

/// What a converter's Classic file may do differently from Blizzard's export, each named in the
/// check's line when the file does it (GnomePounder-converted.m2, M2Lib's 264 → 256).
pub const CONVERTER_CHOICES: &[&str] = &[
    "replaceable lookup entry 0 (replaceable type 0 means \"named by file\": the game never looks it up)",
    "particle sizes all 0 (the converter drops the Wrath scale track the sizes come from)",
    "particle UV cells (head and tail cell ranges the converter derives its own way from the Wrath cell tracks)",
    "particle spin 0 (the converter drops Wrath's spin)",
];

/// Replaceable lookups equal; for a converter's file (`converter`) entry 0 may differ, and says
/// so (`CONVERTER_CHOICES`).
fn replaceable(c: &M2File, v: &M2File, converter: bool, named: &mut Vec<String>) -> Result<(), String> {
    let (a, b) = (&c.replaceable_texture_lookup.items, &v.replaceable_texture_lookup.items);
    if converter && a.len() == b.len() && a.get(1..) == b.get(1..) && a.first() != b.first() {
        named.push(format!("replaceable lookup entry 0: relic {:?}, the converter {:?}", a.first(), b.first()));
        return Ok(());
    }
    equal("replaceable lookup", a, b)
}

fn materials(c: &M2File, v: &M2File, converter: bool, named: &mut Vec<String>) -> Result<String, String> {
    let kinds = |f: &M2File| f.textures.iter().map(|t| (t.kind, t.flags)).collect::<Vec<_>>();
    equal("texture kinds and flags", &kinds(c), &kinds(v))?;
    equal("render flags", &c.render_flags.items, &v.render_flags.items)?;
    equal("texture lookup", &c.texture_lookup.items, &v.texture_lookup.items)?;
    equal("texture-coordinate lookup", &c.texture_unit_lookup.items, &v.texture_unit_lookup.items)?;
    equal("transparency lookup", &c.transparency_lookup.items, &v.transparency_lookup.items)?;
    equal("texture-transform lookup", &c.texture_transform_lookup.items, &v.texture_transform_lookup.items)?;
    replaceable(c, v, converter, named)?;
    let names = c.textures.iter().zip(v.textures.iter()).filter(|(a, b)| a.filename == b.filename).count();
    Ok(format!("{} textures ({names} with the same file name), lookups equal", c.textures.len()))
}

fn attachments(c: &M2File, v: &M2File) -> Result<String, String> {
    equal("attachment lookup", &c.attachment_lookup.items, &v.attachment_lookup.items)?;
    equal(
        "attachment ids",
        &c.attachments.iter().map(|a| a.id).collect::<Vec<_>>(),
        &v.attachments.iter().map(|a| a.id).collect(),
    )?;
    let pivot = |f: &M2File, bone: u16| f.bones.get(usize::from(bone)).map_or([f32::NAN; 3], |b| b.pivot);
    for (a, b) in c.attachments.iter().zip(v.attachments.iter()) {
        if !near(a.position, b.position) || !near(pivot(c, a.bone), pivot(v, b.bone)) {
            return Err(format!(
                "attachment {}: position {:?} / pivot {:?} vs {:?} / {:?}",
                a.id,
                a.position,
                pivot(c, a.bone),
                b.position,
                pivot(v, b.bone)
            ));
        }
    }
    Ok(format!("{} attachments: ids, lookup equal; positions and bone pivots within {NOISE}", c.attachments.len()))
}

fn cameras(c: &M2File, v: &M2File) -> Result<String, String> {
    equal("camera lookup", &c.camera_lookup.items, &v.camera_lookup.items)?;
    let key = |f: &M2File| {
        f.cameras
            .iter()
            .map(|k| {
                (
                    k.kind,
                    k.field_of_view.map(f32::to_bits),
                    [k.far_clip, k.near_clip].map(f32::to_bits),
                    k.position_base,
                    k.target_position_base,
                )
            })
            .collect::<Vec<_>>()
    };
    equal("cameras", &key(c), &key(v))?;
    Ok(format!("{} cameras equal", c.cameras.len()))
}

fn particles(c: &M2File, v: &M2File, converter: bool, named: &mut Vec<String>) -> Result<String, String> {
    let (mut zero_sizes, mut cells, mut spin) = (0, 0, 0);
    equal("particle emitter count", &c.particle_emitters.len(), &v.particle_emitters.len())?;
    let wide = |b: ParticleBlend| match b {
        ParticleBlend::Split { blend_mode, emitter_type, .. } => (u16::from(blend_mode), u16::from(emitter_type)),
        ParticleBlend::Wide { blend_mode, emitter_type } => (blend_mode, emitter_type),
    };
    for (i, (a, b)) in c.particle_emitters.iter().zip(v.particle_emitters.iter()).enumerate() {
        let at = |what: &str| format!("particle emitter {i}: {what}");
        equal(&at("flags"), &a.flags, &b.flags)?;
        equal(&at("blend and emitter type"), &wide(a.blend.blending), &wide(b.blend.blending))?;
        equal(
            &at("tiles"),
            &(a.texture_rows, a.texture_cols, a.texture_tile_rotation),
            &(b.texture_rows, b.texture_cols, b.texture_tile_rotation),
        )?;
        equal(&at("colours"), &a.life.colors, &b.life.colors)?;
        if converter && b.life.sizes == [0.0; 3] && a.life.sizes != b.life.sizes {
            zero_sizes += 1;
        } else {
            equal(&at("sizes"), &a.life.sizes, &b.life.sizes)?;
        }
        if converter && a.life.uv_cells != b.life.uv_cells {
            cells += 1;
        } else {
            equal(&at("UV cells"), &a.life.uv_cells, &b.life.uv_cells)?;
        }
        if (a.life.mid_point - b.life.mid_point).abs() > 1.0 / 32767.0 {
            return Err(at(&format!("mid point {} vs {}", a.life.mid_point, b.life.mid_point)));
        }
        let scalars = |p: &crate::file::Particle| {
            [
                p.tail_length,
                p.twinkle_speed,
                p.twinkle_percent,
                p.twinkle_scale[0],
                p.twinkle_scale[1],
                p.burst_multiplier,
                p.drag,
                p.wind_time,
            ]
            .map(|x| (x + 0.0).to_bits())
        };
        equal(&at("tail, twinkle, burst, drag, wind time"), &scalars(a), &scalars(b))?;
        if converter && b.spin == 0.0 && a.spin != 0.0 {
            spin += 1;
        } else {
            equal(&at("spin"), &(a.spin + 0.0).to_bits(), &(b.spin + 0.0).to_bits())?;
        }
        let vectors = |p: &crate::file::Particle| (p.tumble.min, p.tumble.max, p.wind_vector, p.follow);
        let zero = |x: f32| x + 0.0;
        let norm =
            |t: ([f32; 3], [f32; 3], [f32; 3], [f32; 4])| (t.0.map(zero), t.1.map(zero), t.2.map(zero), t.3.map(zero));
        equal(&at("tumble, wind, follow"), &norm(vectors(a)), &norm(vectors(b)))?;
    }
    if spin > 0 {
        named.push(format!("particle spin 0 in {spin} of {} emitters", c.particle_emitters.len()));
    }
    if cells > 0 {
        named.push(format!("particle UV cells differ in {cells} of {} emitters", c.particle_emitters.len()));
    }
    if zero_sizes > 0 {
        named.push(format!("particle sizes all 0 in {zero_sizes} of {} emitters", c.particle_emitters.len()));
    }
    let but = if converter { " but for the converter's choices (pair-converter)" } else { "" };
    Ok(format!("{} particle emitters equal after the repacking{but}", c.particle_emitters.len()))
}

/// Converts the Wrath model of `wrath` to 256 and compares it with `classic` (a 256 export).
pub fn pair_checks(wrath: &Input<'_>, classic: &[u8]) -> Checks {
    let mut checks = Checks::new();
    let converted = crate::read_input(wrath)
        .map_err(|e| e.to_string())
        .and_then(|m| crate::write_files(&m.value, &WriteOptions { version: Some(256) }).map_err(|e| e.to_string()))
        .and_then(|w| {
            crate::read(&w.value.bytes).map(|f| (f, w.value.bytes.len(), w.losses.len())).map_err(|e| e.to_string())
        });
    let v = crate::read(classic).map_err(|e| e.to_string());
    checks.run("pair-convert", || {
        converted
            .as_ref()
            .map(|(_, bytes, losses)| format!("Wrath → 256: {bytes} bytes, {losses} losses reported"))
            .map_err(Clone::clone)
    });
    let both = || -> Result<(&M2File, &M2File), String> {
        Ok((&converted.as_ref().map_err(Clone::clone)?.0, v.as_ref().map_err(Clone::clone)?))
    };
    checks.run("pair-vertices", || both().and_then(|(c, v)| vertices(c, v)));
    checks.run("pair-sequences", || both().and_then(|(c, v)| sequences(c, v)));
    // A converter's file (not in Blizzard's layout) may differ in the converter's own choices.
    let converter = v.as_ref().is_ok_and(|v| !blizzard_layout(v));
    let mut named = Vec::new();
    checks.run("pair-materials", || both().and_then(|(c, v)| materials(c, v, converter, &mut named)));
    checks.run("pair-attachments", || both().and_then(|(c, v)| attachments(c, v)));
    checks.run("pair-cameras", || both().and_then(|(c, v)| cameras(c, v)));
    checks.run("pair-particles", || both().and_then(|(c, v)| particles(c, v, converter, &mut named)));
    checks.run("pair-differences", || Ok(format!("not compared (§9): {}", DIFFERENCES.join("; "))));
    if converter {
        let found = if named.is_empty() { "none".to_string() } else { named.join("; ") };
        checks.pass(
            "pair-converter",
            format!(
                "the Classic file is a converter's (not in Blizzard's 16-byte layout); its own choices found: {found}"
            ),
        );
    }
    checks
}
