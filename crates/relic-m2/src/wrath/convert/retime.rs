//! The one conversion of a record between the track kinds: every record holding tracks is the
//! same type for both kinds, so moving it from one to the other keeps every other field and moves
//! each track with a [`Retime`] — [`Flatten`](super::tracks::Flatten) (264 on → 256–263) or
//! [`Split`](super::tracks::Split) (256–263 → 264 on). What differs between the kinds besides the
//! tracks follows the target's version: the bone's 0x0C field (260 on), the camera's field of view
//! (a track from 272), the ribbon's priority plane (264 on).

use crate::file::*;

/// Moves tracks from kind `A` to kind `B`, and says the version written.
pub(crate) trait Retime<A: TrackKind, B: TrackKind> {
    /// An animated value.
    fn track<T: Value>(&self, t: &A::Track<T>) -> B::Track<T>;
    /// A camera spline.
    fn spline<T: Value>(&self, t: &A::Spline<T>) -> B::Spline<T>;
    /// An event's firing times.
    fn events(&self, t: &A::Events) -> B::Events;
    /// A bone's rotation.
    fn rotation(&self, t: &A::Rotation) -> B::Rotation;
    /// A camera's field of view: the float (up to 271) and the track (272 on) of the target.
    fn field_of_view(&self, c: &Camera<A>) -> (Option<f32>, Option<B::Spline<f32>>);
    /// What a particle emitter holds differently besides its tracks, as the target holds it:
    /// its flags, its blend bytes and its values over a particle's life (`particles`).
    fn particle(&self, p: &Particle<A>) -> (u32, B::Blend, B::Life);
    /// The version of the file the records go into.
    fn version(&self) -> u32;

    /// A field the target's version has from `since` on: the value (absent: 0, as the writer
    /// writes it), else nothing.
    fn since<T: Copy + Default>(&self, since: u32, value: Option<T>) -> Option<T> {
        (self.version() >= since).then(|| value.unwrap_or_default())
    }
}

impl<A: TrackKind> Bone<A> {
    /// The bone with its tracks moved to kind `B` (the 0x0A field as it is: a caller that knows
    /// the distance to the parent sets it).
    pub(crate) fn retime<B: TrackKind>(&self, r: &impl Retime<A, B>) -> Bone<B> {
        Bone {
            key_bone_id: self.key_bone_id,
            flags: self.flags,
            parent: self.parent,
            submesh_id: self.submesh_id,
            unknown: r.since(260, self.unknown),
            translation: r.track(&self.translation),
            rotation: r.rotation(&self.rotation),
            scale: r.track(&self.scale),
            pivot: self.pivot,
        }
    }
}

impl<A: TrackKind> Color<A> {
    /// The colour animation with its tracks moved to kind `B`.
    pub(crate) fn retime<B: TrackKind>(&self, r: &impl Retime<A, B>) -> Color<B> {
        Color { color: r.track(&self.color), alpha: r.track(&self.alpha) }
    }
}

impl<A: TrackKind> TextureWeight<A> {
    /// The texture weight with its track moved to kind `B`.
    pub(crate) fn retime<B: TrackKind>(&self, r: &impl Retime<A, B>) -> TextureWeight<B> {
        TextureWeight { weight: r.track(&self.weight) }
    }
}

impl<A: TrackKind> TextureTransform<A> {
    /// The texture transform with its tracks moved to kind `B`.
    pub(crate) fn retime<B: TrackKind>(&self, r: &impl Retime<A, B>) -> TextureTransform<B> {
        TextureTransform {
            translation: r.track(&self.translation),
            rotation: r.track(&self.rotation),
            scaling: r.track(&self.scaling),
        }
    }
}

impl<A: TrackKind> Attachment<A> {
    /// The attachment with its visibility moved to kind `B`.
    pub(crate) fn retime<B: TrackKind>(&self, r: &impl Retime<A, B>) -> Attachment<B> {
        Attachment {
            id: self.id,
            bone: self.bone,
            unknown: self.unknown,
            position: self.position,
            visibility: r.track(&self.visibility),
        }
    }
}

impl<A: TrackKind> Event<A> {
    /// The event with its firing times moved to kind `B`.
    pub(crate) fn retime<B: TrackKind>(&self, r: &impl Retime<A, B>) -> Event<B> {
        Event {
            identifier: self.identifier,
            data: self.data,
            bone: self.bone,
            position: self.position,
            times: r.events(&self.times),
        }
    }
}

impl<A: TrackKind> Light<A> {
    /// The light with its tracks moved to kind `B`.
    pub(crate) fn retime<B: TrackKind>(&self, r: &impl Retime<A, B>) -> Light<B> {
        Light {
            kind: self.kind,
            bone: self.bone,
            position: self.position,
            ambient_color: r.track(&self.ambient_color),
            ambient_intensity: r.track(&self.ambient_intensity),
            diffuse_color: r.track(&self.diffuse_color),
            diffuse_intensity: r.track(&self.diffuse_intensity),
            attenuation_start: r.track(&self.attenuation_start),
            attenuation_end: r.track(&self.attenuation_end),
            visibility: r.track(&self.visibility),
        }
    }
}

impl<A: TrackKind> Camera<A> {
    /// The camera with its splines moved to kind `B` and its field of view as the target's
    /// version keeps it.
    pub(crate) fn retime<B: TrackKind>(&self, r: &impl Retime<A, B>) -> Camera<B> {
        let (field_of_view, field_of_view_track) = r.field_of_view(self);
        Camera {
            kind: self.kind,
            field_of_view,
            far_clip: self.far_clip,
            near_clip: self.near_clip,
            positions: r.spline(&self.positions),
            position_base: self.position_base,
            target_positions: r.spline(&self.target_positions),
            target_position_base: self.target_position_base,
            roll: r.spline(&self.roll),
            field_of_view_track,
        }
    }
}

impl<A: TrackKind> Ribbon<A> {
    /// The ribbon with its tracks moved to kind `B` (the priority plane and the padding after it
    /// exist from 264 on).
    pub(crate) fn retime<B: TrackKind>(&self, r: &impl Retime<A, B>) -> Ribbon<B> {
        Ribbon {
            id: self.id,
            bone: self.bone,
            position: self.position,
            textures: self.textures.clone(),
            materials: self.materials.clone(),
            color: self.color.retime(r),
            height_above: r.track(&self.height_above),
            height_below: r.track(&self.height_below),
            edges_per_second: self.edges_per_second,
            edge_lifetime: self.edge_lifetime,
            gravity: self.gravity,
            texture_rows: self.texture_rows,
            texture_cols: self.texture_cols,
            texture_slot: r.track(&self.texture_slot),
            visibility: r.track(&self.visibility),
            priority_plane: r.since(264, self.priority_plane),
            padding: r.since(264, self.padding),
        }
    }
}

impl<A: TrackKind> Particle<A> {
    /// The particle emitter with its tracks moved to kind `B`, what it holds besides them as `B`
    /// holds it, and the variations (264 on) and multi-texture parameters (272 on) as the
    /// target's version keeps them.
    pub(crate) fn retime<B: TrackKind>(&self, r: &impl Retime<A, B>) -> Particle<B> {
        let (flags, blend, life) = r.particle(self);
        Particle {
            id: self.id,
            flags,
            position: self.position,
            bone: self.bone,
            texture: self.texture,
            geometry_model: self.geometry_model.clone(),
            recursion_model: self.recursion_model.clone(),
            blend,
            particle_type: self.particle_type,
            head_or_tail: self.head_or_tail,
            texture_tile_rotation: self.texture_tile_rotation,
            texture_rows: self.texture_rows,
            texture_cols: self.texture_cols,
            emission_speed: r.track(&self.emission_speed),
            speed_variation: r.track(&self.speed_variation),
            vertical_range: r.track(&self.vertical_range),
            horizontal_range: r.track(&self.horizontal_range),
            gravity: r.track(&self.gravity),
            lifespan: r.track(&self.lifespan),
            lifespan_variation: r.since(264, self.lifespan_variation),
            emission_rate: r.track(&self.emission_rate),
            emission_rate_variation: r.since(264, self.emission_rate_variation),
            emission_area_length: r.track(&self.emission_area_length),
            emission_area_width: r.track(&self.emission_area_width),
            z_source: r.track(&self.z_source),
            life,
            tail_length: self.tail_length,
            twinkle_speed: self.twinkle_speed,
            twinkle_percent: self.twinkle_percent,
            twinkle_scale: self.twinkle_scale,
            burst_multiplier: self.burst_multiplier,
            drag: self.drag,
            base_spin: r.since(264, self.base_spin),
            base_spin_variation: r.since(264, self.base_spin_variation),
            spin: self.spin,
            spin_variation: r.since(264, self.spin_variation),
            tumble: self.tumble,
            wind_vector: self.wind_vector,
            wind_time: self.wind_time,
            follow: self.follow,
            spline_points: self.spline_points.clone(),
            enabled_in: r.track(&self.enabled_in),
            multi_texture: r.since(272, self.multi_texture),
        }
    }
}

impl<A: TrackKind> M2File<A> {
    /// The file of kind `B` made from this one: the fields both families share copied, every
    /// record moved with `r` (bones, emitters and all), the flag 0x8 array kept (an empty one
    /// where the flag is set without it). What the families do not share is left to the caller:
    /// the sequences and their lookup, the playable lookup, the views or `.skin` count.
    pub(crate) fn retime<B: TrackKind>(&self, r: &impl Retime<A, B>) -> M2File<B> {
        let overrides = self.blend_overrides.clone();
        M2File {
            version: r.version(),
            // Another layout: nothing of where the blocks were read applies.
            as_read: Default::default(),
            name: self.name.clone(),
            flags: self.flags,
            global_sequences: self.global_sequences.clone(),
            sequences: M2Array::default(),
            sequence_lookup: M2Array::default(),
            playable_lookup: Default::default(),
            bones: all(&self.bones, |x| x.retime(r)),
            key_bone_lookup: self.key_bone_lookup.clone(),
            vertices: self.vertices.clone(),
            views: Default::default(),
            skin_profiles: Default::default(),
            colors: all(&self.colors, |x| x.retime(r)),
            textures: self.textures.clone(),
            transparency: all(&self.transparency, |x| x.retime(r)),
            texture_flipbooks: Default::default(),
            texture_transforms: all(&self.texture_transforms, |x| x.retime(r)),
            replaceable_texture_lookup: self.replaceable_texture_lookup.clone(),
            render_flags: self.render_flags.clone(),
            bone_lookup: self.bone_lookup.clone(),
            texture_lookup: self.texture_lookup.clone(),
            texture_unit_lookup: self.texture_unit_lookup.clone(),
            transparency_lookup: self.transparency_lookup.clone(),
            texture_transform_lookup: self.texture_transform_lookup.clone(),
            bounding_box: self.bounding_box,
            bounding_radius: self.bounding_radius,
            collision_box: self.collision_box,
            collision_radius: self.collision_radius,
            collision_triangles: self.collision_triangles.clone(),
            collision_vertices: self.collision_vertices.clone(),
            collision_normals: self.collision_normals.clone(),
            attachments: all(&self.attachments, |x| x.retime(r)),
            attachment_lookup: self.attachment_lookup.clone(),
            events: all(&self.events, |x| x.retime(r)),
            lights: all(&self.lights, |x| x.retime(r)),
            cameras: all(&self.cameras, |x| x.retime(r)),
            camera_lookup: self.camera_lookup.clone(),
            ribbon_emitters: all(&self.ribbon_emitters, |x| x.retime(r)),
            particle_emitters: all(&self.particle_emitters, |x| x.retime(r)),
            blend_overrides: overrides.or_else(|| (self.flags & FLAG_BLEND_OVERRIDES != 0).then(M2Array::default)),
        }
    }
}

/// Every record of `records` moved to kind `B`.
pub(crate) fn all<R, S>(records: &M2Array<R>, retime: impl Fn(&R) -> S) -> M2Array<S> {
    M2Array::new(records.iter().map(retime).collect())
}
