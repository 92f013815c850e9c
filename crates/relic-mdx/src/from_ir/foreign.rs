//! What an M2 emitter's record says that PRE2 and RIBB say too (read from its JSON form by field
//! name: relic-mdx does not depend on relic-m2): colours, alpha and scale over a particle's life
//! in three segments, blending, texture rows and columns; a ribbon's emission rate, life span,
//! gravity, rows and columns. What has no MDX field (UV-cell ranges, twinkle, spin, wind, …) is not
//! carried, and the writer's note says so.

use relic_core::model::Emitter;
use serde_json::Value;

use crate::file::{ParticleEmitter2, RibbonEmitter};

/// The M2 record's particle or ribbon as JSON, if the emitter carries one.
fn m2_record(e: &Emitter, part: &str) -> Option<Value> {
    let r = e.record.as_ref().filter(|r| r.format().as_str() == "m2")?;
    let mut json: Value = serde_json::from_str(&r.json()?).ok()?;
    Some(json.get_mut(part)?.take())
}

/// The first value of `key` anywhere in `v` (flattened and nested fields alike).
fn find<'a>(v: &'a Value, key: &str) -> Option<&'a Value> {
    match v {
        Value::Object(map) => map.get(key).or_else(|| map.values().find_map(|x| find(x, key))),
        Value::Array(items) => items.iter().find_map(|x| find(x, key)),
        _ => None,
    }
}

fn number(v: &Value, key: &str) -> Option<f64> {
    find(v, key)?.as_f64().filter(|x| x.is_finite())
}

fn numbers<const N: usize>(v: Option<&Value>) -> Option<[f64; N]> {
    let list = v?.as_array()?;
    let mut out = [0.0; N];
    for (o, x) in out.iter_mut().zip(list) {
        *o = x.as_f64().filter(|x| x.is_finite())?;
    }
    (list.len() == N).then_some(out)
}

/// PRE2's filter mode for an M2 particle blend mode (0 opaque, 1 alpha key, 2 alpha, 3 and 4
/// additive, 5 modulate, 6 modulate 2×).
fn filter_mode(m2: f64) -> u32 {
    match m2 as i64 {
        1 => 4,
        3 | 4 => 1,
        5 => 2,
        6 => 3,
        _ => 0,
    }
}

/// Sets what `e`'s M2 particle record says of the PRE2; whether it had one.
pub(super) fn particle(e: &Emitter, p: &mut ParticleEmitter2) -> bool {
    let Some(m2) = m2_record(e, "particle") else { return false };
    if let Some(colors) = find(&m2, "colors").and_then(Value::as_array) {
        for (k, c) in colors.iter().take(3).enumerate() {
            // M2 stores B, G, R, A (0–255); MDX blue first too (§8.6), 0–1, alpha 0–255.
            if let (Some([b, g, r, a]), Some(color), Some(alpha)) =
                (numbers::<4>(Some(c)), p.segment_color.get_mut(k), p.segment_alpha.get_mut(k))
            {
                *color = [b, g, r].map(|x| (x / 255.0) as f32);
                *alpha = a.clamp(0.0, 255.0) as u8;
            }
        }
    }
    if let Some(sizes) = numbers::<3>(find(&m2, "sizes")) {
        // An M2 particle reaches its size each way from its centre: twice it across.
        p.segment_scaling = sizes.map(|s| (2.0 * s.abs()) as f32);
    }
    if let Some(mid) = number(&m2, "mid_point") {
        p.time = mid as f32;
    }
    if let Some(mode) = number(&m2, "blend_mode") {
        p.filter_mode = filter_mode(mode);
    }
    p.rows = number(&m2, "texture_rows").map_or(p.rows, |x| x.max(1.0) as u32);
    p.columns = number(&m2, "texture_cols").map_or(p.columns, |x| x.max(1.0) as u32);
    true
}

/// Sets what `e`'s M2 ribbon record says of the RIBB; whether it had one.
pub(super) fn ribbon(e: &Emitter, r: &mut RibbonEmitter) -> bool {
    let Some(m2) = m2_record(e, "ribbon") else { return false };
    r.emission_rate = number(&m2, "edges_per_second").map_or(r.emission_rate, |x| x.max(0.0) as u32);
    r.life_span = number(&m2, "edge_lifetime").map_or(r.life_span, |x| x as f32);
    r.gravity = number(&m2, "gravity").map_or(r.gravity, |x| x as f32);
    r.rows = number(&m2, "texture_rows").map_or(r.rows, |x| x.max(1.0) as u32);
    r.columns = number(&m2, "texture_cols").map_or(r.columns, |x| x.max(1.0) as u32);
    true
}
