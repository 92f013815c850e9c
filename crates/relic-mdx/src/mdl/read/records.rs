//! The blocks of MDL that become geosets, lights, emitters, ribbons, cameras and collision
//! shapes.

use super::super::names::*;
use super::super::tree::Block;
use super::*;

pub(super) fn geoset(g: &Block) -> R<Geoset> {
    let table = |kw: &str| -> R<Vec<[f32; 3]>> {
        match g.block(kw) {
            Some(b) => rows(b).into_iter().map(floats::<3>).collect(),
            None => Ok(Vec::new()),
        }
    };
    let mut face_types = Vec::new();
    let mut face_counts = Vec::new();
    let mut indices = Vec::new();
    for t in g.blocks("Faces").flat_map(|f| f.blocks("Triangles")) {
        let words = t.words();
        face_types.push(4);
        face_counts.push(words.len() as u32);
        for w in words {
            indices.push(number(t, w)?);
        }
    }
    let mut matrix_group_sizes = Vec::new();
    let mut matrix_indices = Vec::new();
    for m in g.blocks("Groups").flat_map(|f| f.blocks("Matrices")) {
        let words = m.words();
        matrix_group_sizes.push(words.len() as u32);
        for w in words {
            matrix_indices.push(number(m, w)?);
        }
    }
    let mut uv_sets = Vec::new();
    for t in g.blocks("TVertices") {
        uv_sets.push(UvSet { uvs: rows(t).into_iter().map(floats::<2>).collect::<R<Vec<_>>>()? });
    }
    let vertex_groups = match g.block("VertexGroup") {
        Some(v) => v.words().into_iter().map(|w| number(v, w)).collect::<R<Vec<u8>>>()?,
        None => Vec::new(),
    };
    Ok(Geoset {
        vertices: table("Vertices")?,
        normals: table("Normals")?,
        face_types,
        face_counts,
        indices,
        vertex_groups,
        matrix_group_sizes,
        matrix_indices,
        material_id: get(g, "MaterialID", 0)?,
        selection_group: get(g, "SelectionGroup", 0)?,
        selection_flags: if g.flag("Unselectable") { 4 } else { 0 },
        lod: None,
        extent: extent(g)?,
        sequence_extents: g.blocks("Anim").map(extent).collect::<R<Vec<_>>>()?,
        hd: Vec::new(),
        uv_sets,
    })
}

pub(super) fn light(l: &Block) -> R<Light> {
    let own = tracks(l, Owner::Light)?;
    let light_type = LIGHT_TYPES.iter().position(|t| l.flag(t)).unwrap_or(0) as u32;
    Ok(Light {
        node: node(l, 0x200, &[])?,
        light_type,
        attenuation_start: static_f32(l, "AttenuationStart", *b"KLAS", &own, 0.0)?,
        attenuation_end: static_f32(l, "AttenuationEnd", *b"KLAE", &own, 0.0)?,
        color: static_color(l, "Color", *b"KLAC", &own)?,
        intensity: static_f32(l, "Intensity", *b"KLAI", &own, 0.0)?,
        ambient_color: static_color(l, "AmbColor", *b"KLBC", &own)?,
        ambient_intensity: static_f32(l, "AmbIntensity", *b"KLBI", &own, 0.0)?,
        shadow_intensity: None,
        tracks: own,
    })
}

pub(super) fn emitter1(e: &Block) -> R<ParticleEmitter> {
    let mut own = tracks(e, Owner::Emitter1)?;
    let particle = e.block("Particle").cloned().unwrap_or_default();
    let particle_tracks = tracks(&particle, Owner::Particle)?;
    let life_span = static_f32(&particle, "LifeSpan", *b"KPEL", &particle_tracks, 0.0)?;
    let init_velocity = static_f32(&particle, "InitVelocity", *b"KPES", &particle_tracks, 0.0)?;
    let path = text_stmt(&particle, "Path")?;
    let emission_rate = static_f32(e, "EmissionRate", *b"KPEE", &own, 0.0)?;
    let gravity = static_f32(e, "Gravity", *b"KPEG", &own, 0.0)?;
    let longitude = static_f32(e, "Longitude", *b"KPLN", &own, 0.0)?;
    let latitude = static_f32(e, "Latitude", *b"KPLT", &own, 0.0)?;
    own.extend(particle_tracks);
    Ok(ParticleEmitter {
        node: node(e, 0x1000, EMITTER1_FLAGS)?,
        emission_rate,
        gravity,
        longitude,
        latitude,
        path,
        life_span,
        init_velocity,
        tracks: own,
    })
}

pub(super) fn emitter2(e: &Block) -> R<ParticleEmitter2> {
    let own = tracks(e, Owner::Emitter2)?;
    let st = |kw: &str, tag: &[u8; 4]| static_f32(e, kw, *tag, &own, 0.0);
    let triple = |kw: &str| -> R<[u32; 3]> {
        match e.block(kw) {
            Some(v) => {
                let w = v.words();
                match w[..] {
                    [a, b, c] => Ok([number(v, a)?, number(v, b)?, number(v, c)?]),
                    _ => Err(err(v, "three numbers belong here")),
                }
            }
            None => Ok([0, 0, 1]),
        }
    };
    let mut segment_color = [[1.0f32; 3]; 3];
    if let Some(s) = e.block("SegmentColor") {
        for (slot, c) in segment_color.iter_mut().zip(s.blocks("Color")) {
            *slot = color(c)?;
        }
    }
    let segment_alpha = match e.block("Alpha") {
        Some(v) => {
            let w = v.words();
            match w[..] {
                [a, b, c] => [number(v, a)?, number(v, b)?, number(v, c)?],
                _ => return Err(err(v, "three alphas belong here")),
            }
        }
        None => [255; 3],
    };
    let filter_mode = EMITTER2_FILTER_MODES.iter().position(|m| e.flag(m)).unwrap_or(0) as u32;
    let head_or_tail = HEAD_OR_TAIL.iter().position(|m| e.flag(m)).unwrap_or(0) as u32;
    Ok(ParticleEmitter2 {
        node: node(e, 0x1000, EMITTER2_FLAGS)?,
        speed: st("Speed", b"KP2S")?,
        variation: st("Variation", b"KP2R")?,
        latitude: st("Latitude", b"KP2L")?,
        gravity: st("Gravity", b"KP2G")?,
        life_span: get(e, "LifeSpan", 0.0)?,
        emission_rate: st("EmissionRate", b"KP2E")?,
        width: st("Width", b"KP2N")?,
        length: st("Length", b"KP2W")?,
        filter_mode,
        rows: get(e, "Rows", 1)?,
        columns: get(e, "Columns", 1)?,
        head_or_tail,
        tail_length: get(e, "TailLength", 0.0)?,
        time: get(e, "Time", 0.5)?,
        segment_color,
        segment_alpha,
        segment_scaling: if e.block("ParticleScaling").is_some() { vector(e, "ParticleScaling")? } else { [1.0; 3] },
        head_intervals: [triple("LifeSpanUVAnim")?, triple("DecayUVAnim")?],
        tail_intervals: [triple("TailUVAnim")?, triple("TailDecayUVAnim")?],
        texture_id: get(e, "TextureID", -1)?,
        squirt: if e.flag("Squirt") { 1 } else { get(e, "Squirt", 0)? },
        priority_plane: get(e, "PriorityPlane", 0)?,
        replaceable_id: get(e, "ReplaceableId", 0)?,
        tracks: own,
    })
}

pub(super) fn ribbon(r: &Block) -> R<RibbonEmitter> {
    let own = tracks(r, Owner::Ribbon)?;
    let texture_slot = if own.iter().any(|t| t.tag.0 == *b"KRTX") { 0 } else { get(r, "TextureSlot", 0)? };
    Ok(RibbonEmitter {
        node: node(r, 0x4000, &[])?,
        height_above: static_f32(r, "HeightAbove", *b"KRHA", &own, 0.0)?,
        height_below: static_f32(r, "HeightBelow", *b"KRHB", &own, 0.0)?,
        alpha: static_f32(r, "Alpha", *b"KRAL", &own, 0.0)?,
        color: static_color(r, "Color", *b"KRCO", &own)?,
        life_span: get(r, "LifeSpan", 0.0)?,
        texture_slot,
        emission_rate: get(r, "EmissionRate", 0)?,
        rows: get(r, "Rows", 1)?,
        columns: get(r, "Columns", 1)?,
        material_id: get(r, "MaterialID", 0)?,
        gravity: get(r, "Gravity", 0.0)?,
        tracks: own,
    })
}

pub(super) fn camera(c: &Block) -> R<Camera> {
    let target = c.block("Target").cloned().unwrap_or_default();
    let mut own = tracks(c, Owner::Camera)?;
    own.extend(tracks(&target, Owner::Target)?);
    Ok(Camera {
        name: name(c)?,
        position: if c.block("Position").is_some() { vector(c, "Position")? } else { [0.0; 3] },
        field_of_view: get(c, "FieldOfView", 0.0)?,
        far_clip: get(c, "FarClip", 0.0)?,
        near_clip: get(c, "NearClip", 0.0)?,
        target_position: if target.block("Position").is_some() { vector(&target, "Position")? } else { [0.0; 3] },
        tracks: own,
    })
}

pub(super) fn shape(s: &Block) -> R<CollisionShape> {
    let kind =
        SHAPES.iter().position(|k| s.flag(k)).ok_or_else(|| err(s, "no shape (Box, Plane, Sphere, Cylinder)"))?;
    let corners = match s.block("Vertices") {
        Some(v) => rows(v).into_iter().map(floats::<3>).collect::<R<Vec<_>>>()?,
        None => Vec::new(),
    };
    let radius = get(s, "BoundsRadius", 0.0)?;
    let corner =
        |i: usize| corners.get(i).copied().ok_or_else(|| err(s, format!("vertex {i} of the shape is missing")));
    let shape = match kind {
        0 => Shape::Box([corner(0)?, corner(1)?]),
        1 => Shape::Plane([corner(0)?, corner(1)?]),
        2 => Shape::Sphere(corner(0)?, radius),
        _ => Shape::Cylinder([corner(0)?, corner(1)?], radius),
    };
    Ok(CollisionShape { node: node(s, 0x2000, &[])?, shape })
}
