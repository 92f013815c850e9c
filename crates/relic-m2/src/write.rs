//! The layout pass: writes an [`M2File`] in Blizzard's order (spec §1, measured on the real 1.12
//! file): the header, then every header block in header order, each record array immediately
//! followed by the blocks its records point to (record by record, field by field), every block
//! on a 16-byte boundary with zero padding, empty blocks as `(0, 0)`, the file padded to 16.

use crate::array::{Out, Put, next, put_records};
use crate::file::*;

impl M2File {
    /// Writes the file with the layout pass. A file read from Blizzard's layout comes back byte
    /// for byte; any other layout comes back normalised.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Out::with_capacity(self.size_hint());
        let v = self.version;
        out.bytes(b"MD20");
        out.u32(v);
        let name = out.pair();
        out.u32(self.flags);
        let pairs: Vec<usize> = (0..20).map(|_| out.pair()).collect();
        let p = |i: usize| pairs.get(i).copied().unwrap_or(usize::MAX);
        out.f32s(&self.bounding_box.min);
        out.f32s(&self.bounding_box.max);
        out.f32(self.bounding_radius);
        out.f32s(&self.collision_box.min);
        out.f32s(&self.collision_box.max);
        out.f32(self.collision_radius);
        let tail: Vec<usize> = (0..11).map(|_| out.pair()).collect();
        let t = |i: usize| tail.get(i).copied().unwrap_or(usize::MAX);
        let overrides = self.blend_overrides.as_ref().map(|_| out.pair());

        out.pod_block(name, self.name.len(), &self.name);
        out.pod_block(p(0), self.global_sequences.len(), &self.global_sequences);
        out.pod_block(p(1), self.sequences.len(), &self.sequences);
        out.pod_block(p(2), self.sequence_lookup.len(), &self.sequence_lookup);
        out.pod_block(p(3), self.playable_lookup.len(), &self.playable_lookup);
        put_records(&mut out, p(4), &self.bones, v);
        out.pod_block(p(5), self.key_bone_lookup.len(), &self.key_bone_lookup);
        out.pod_block(p(6), self.vertices.len(), &self.vertices);
        put_records(&mut out, p(7), &self.views, v);
        put_records(&mut out, p(8), &self.colors, v);
        put_records(&mut out, p(9), &self.textures, v);
        put_records(&mut out, p(10), &self.transparency, v);
        // p(11): texture flipbooks, always (0, 0).
        put_records(&mut out, p(12), &self.texture_transforms, v);
        out.pod_block(p(13), self.replaceable_texture_lookup.len(), &self.replaceable_texture_lookup);
        out.pod_block(p(14), self.render_flags.len(), &self.render_flags);
        out.pod_block(p(15), self.bone_lookup.len(), &self.bone_lookup);
        out.pod_block(p(16), self.texture_lookup.len(), &self.texture_lookup);
        out.pod_block(p(17), self.texture_unit_lookup.len(), &self.texture_unit_lookup);
        out.pod_block(p(18), self.transparency_lookup.len(), &self.transparency_lookup);
        out.pod_block(p(19), self.texture_transform_lookup.len(), &self.texture_transform_lookup);
        out.pod_block(t(0), self.collision_triangles.len(), &self.collision_triangles);
        out.pod_block(t(1), self.collision_vertices.len(), &self.collision_vertices);
        out.pod_block(t(2), self.collision_normals.len(), &self.collision_normals);
        put_records(&mut out, t(3), &self.attachments, v);
        out.pod_block(t(4), self.attachment_lookup.len(), &self.attachment_lookup);
        put_records(&mut out, t(5), &self.events, v);
        put_records(&mut out, t(6), &self.lights, v);
        put_records(&mut out, t(7), &self.cameras, v);
        out.pod_block(t(8), self.camera_lookup.len(), &self.camera_lookup);
        put_records(&mut out, t(9), &self.ribbon_emitters, v);
        put_records(&mut out, t(10), &self.particle_emitters, v);
        if let (Some(at), Some(o)) = (overrides, &self.blend_overrides) {
            out.pod_block(at, o.len(), o);
        }
        out.align();
        out.buf
    }

    /// A close upper estimate of the written size (so the buffer is allocated once).
    fn size_hint(&self) -> usize {
        let views: usize = self
            .views
            .iter()
            .map(|v| {
                v.indices.len() * 2
                    + v.triangles.len() * 2
                    + v.properties.len() * 4
                    + v.submeshes.len() * 48
                    + v.texture_units.len() * 24
                    + 5 * 16
                    + 44
            })
            .sum();
        let track = |keys: usize, size: usize| keys * (4 + size) + 3 * 16;
        let bones: usize = self
            .bones
            .iter()
            .map(|b| {
                112 + track(b.translation.values.len(), 12)
                    + track(b.scale.values.len(), 12)
                    + track(b.rotation.head().3.len(), 16)
                    + 3 * (b.translation.ranges.len() + b.scale.ranges.len()) * 8
                    + b.rotation.head().2.len() * 8
            })
            .sum();
        HEADER_SIZE + 64 + self.vertices.len() * 48 + views + bones + self.sequences.len() * 68 + 4096
    }
}

impl Put for Bone {
    fn fixed(&self, out: &mut Out, pairs: &mut Vec<usize>, version: u32) {
        out.i32(self.key_bone_id);
        out.u32(self.flags);
        out.i16(self.parent);
        out.u16(self.submesh_id);
        if version >= 260 {
            out.u32(self.unknown.unwrap_or(0));
        }
        self.translation.put_fixed(out, pairs);
        self.rotation.put_fixed(out, pairs);
        self.scale.put_fixed(out, pairs);
        out.f32s(&self.pivot);
    }
    fn children(&self, out: &mut Out, pairs: &mut dyn Iterator<Item = usize>, _: u32) {
        self.translation.put_children(out, pairs);
        self.rotation.put_children(out, pairs);
        self.scale.put_children(out, pairs);
    }
}

impl Put for View {
    fn fixed(&self, out: &mut Out, pairs: &mut Vec<usize>, _: u32) {
        for _ in 0..5 {
            pairs.push(out.pair());
        }
        out.u32(self.bone_count_max);
    }
    fn children(&self, out: &mut Out, pairs: &mut dyn Iterator<Item = usize>, version: u32) {
        out.pod_block(next(pairs), self.indices.len(), &self.indices);
        out.pod_block(next(pairs), self.triangles.len(), &self.triangles);
        out.pod_block(next(pairs), self.properties.len(), &self.properties);
        put_records(out, next(pairs), &self.submeshes, version);
        out.pod_block(next(pairs), self.texture_units.len(), &self.texture_units);
    }
}

impl Put for Submesh {
    fn fixed(&self, out: &mut Out, _: &mut Vec<usize>, version: u32) {
        for v in [
            self.id,
            self.level,
            self.vertex_start,
            self.vertex_count,
            self.index_start,
            self.index_count,
            self.bone_count,
            self.bone_combo_index,
            self.bone_influences,
            self.center_bone_index,
        ] {
            out.u16(v);
        }
        out.f32s(&self.center_position);
        if version >= 260 {
            out.f32s(&self.sort_center.unwrap_or_default());
            out.f32(self.sort_radius.unwrap_or_default());
        }
    }
    fn children(&self, _: &mut Out, _: &mut dyn Iterator<Item = usize>, _: u32) {}
}

impl Put for Color {
    fn fixed(&self, out: &mut Out, pairs: &mut Vec<usize>, _: u32) {
        self.color.put_fixed(out, pairs);
        self.alpha.put_fixed(out, pairs);
    }
    fn children(&self, out: &mut Out, pairs: &mut dyn Iterator<Item = usize>, _: u32) {
        self.color.put_children(out, pairs);
        self.alpha.put_children(out, pairs);
    }
}

impl Put for Texture {
    fn fixed(&self, out: &mut Out, pairs: &mut Vec<usize>, _: u32) {
        out.u32(self.kind);
        out.u32(self.flags);
        pairs.push(out.pair());
    }
    fn children(&self, out: &mut Out, pairs: &mut dyn Iterator<Item = usize>, _: u32) {
        out.pod_block(next(pairs), self.filename.len(), &self.filename);
    }
}

impl Put for TextureWeight {
    fn fixed(&self, out: &mut Out, pairs: &mut Vec<usize>, _: u32) {
        self.weight.put_fixed(out, pairs);
    }
    fn children(&self, out: &mut Out, pairs: &mut dyn Iterator<Item = usize>, _: u32) {
        self.weight.put_children(out, pairs);
    }
}

impl Put for TextureTransform {
    fn fixed(&self, out: &mut Out, pairs: &mut Vec<usize>, _: u32) {
        self.translation.put_fixed(out, pairs);
        self.rotation.put_fixed(out, pairs);
        self.scaling.put_fixed(out, pairs);
    }
    fn children(&self, out: &mut Out, pairs: &mut dyn Iterator<Item = usize>, _: u32) {
        self.translation.put_children(out, pairs);
        self.rotation.put_children(out, pairs);
        self.scaling.put_children(out, pairs);
    }
}

impl Put for Attachment {
    fn fixed(&self, out: &mut Out, pairs: &mut Vec<usize>, _: u32) {
        out.u32(self.id);
        out.u16(self.bone);
        out.u16(self.unknown);
        out.f32s(&self.position);
        self.visibility.put_fixed(out, pairs);
    }
    fn children(&self, out: &mut Out, pairs: &mut dyn Iterator<Item = usize>, _: u32) {
        self.visibility.put_children(out, pairs);
    }
}

impl Put for Event {
    fn fixed(&self, out: &mut Out, pairs: &mut Vec<usize>, _: u32) {
        out.bytes(&self.identifier);
        out.u32(self.data);
        out.u32(self.bone);
        out.f32s(&self.position);
        self.times.put_fixed(out, pairs);
    }
    fn children(&self, out: &mut Out, pairs: &mut dyn Iterator<Item = usize>, _: u32) {
        self.times.put_children(out, pairs);
    }
}

impl Put for Light {
    fn fixed(&self, out: &mut Out, pairs: &mut Vec<usize>, _: u32) {
        out.u16(self.kind);
        out.i16(self.bone);
        out.f32s(&self.position);
        self.ambient_color.put_fixed(out, pairs);
        self.ambient_intensity.put_fixed(out, pairs);
        self.diffuse_color.put_fixed(out, pairs);
        self.diffuse_intensity.put_fixed(out, pairs);
        self.attenuation_start.put_fixed(out, pairs);
        self.attenuation_end.put_fixed(out, pairs);
        self.visibility.put_fixed(out, pairs);
    }
    fn children(&self, out: &mut Out, pairs: &mut dyn Iterator<Item = usize>, _: u32) {
        self.ambient_color.put_children(out, pairs);
        self.ambient_intensity.put_children(out, pairs);
        self.diffuse_color.put_children(out, pairs);
        self.diffuse_intensity.put_children(out, pairs);
        self.attenuation_start.put_children(out, pairs);
        self.attenuation_end.put_children(out, pairs);
        self.visibility.put_children(out, pairs);
    }
}

impl Put for Camera {
    fn fixed(&self, out: &mut Out, pairs: &mut Vec<usize>, _: u32) {
        out.i32(self.kind);
        out.f32(self.field_of_view);
        out.f32(self.far_clip);
        out.f32(self.near_clip);
        self.positions.put_fixed(out, pairs);
        out.f32s(&self.position_base);
        self.target_positions.put_fixed(out, pairs);
        out.f32s(&self.target_position_base);
        self.roll.put_fixed(out, pairs);
    }
    fn children(&self, out: &mut Out, pairs: &mut dyn Iterator<Item = usize>, _: u32) {
        self.positions.put_children(out, pairs);
        self.target_positions.put_children(out, pairs);
        self.roll.put_children(out, pairs);
    }
}

impl Put for Ribbon {
    fn fixed(&self, out: &mut Out, pairs: &mut Vec<usize>, _: u32) {
        out.i32(self.id);
        out.u32(self.bone);
        out.f32s(&self.position);
        pairs.push(out.pair());
        pairs.push(out.pair());
        self.color.put_fixed(out, pairs);
        self.alpha.put_fixed(out, pairs);
        self.height_above.put_fixed(out, pairs);
        self.height_below.put_fixed(out, pairs);
        out.f32(self.edges_per_second);
        out.f32(self.edge_lifetime);
        out.f32(self.gravity);
        out.u16(self.texture_rows);
        out.u16(self.texture_cols);
        self.texture_slot.put_fixed(out, pairs);
        self.visibility.put_fixed(out, pairs);
    }
    fn children(&self, out: &mut Out, pairs: &mut dyn Iterator<Item = usize>, _: u32) {
        out.pod_block(next(pairs), self.textures.len(), &self.textures);
        out.pod_block(next(pairs), self.materials.len(), &self.materials);
        self.color.put_children(out, pairs);
        self.alpha.put_children(out, pairs);
        self.height_above.put_children(out, pairs);
        self.height_below.put_children(out, pairs);
        self.texture_slot.put_children(out, pairs);
        self.visibility.put_children(out, pairs);
    }
}

impl Particle {
    fn tracks(&self) -> [&crate::track::Track<f32>; 10] {
        [
            &self.emission_speed,
            &self.speed_variation,
            &self.vertical_range,
            &self.horizontal_range,
            &self.gravity,
            &self.lifespan,
            &self.emission_rate,
            &self.emission_area_length,
            &self.emission_area_width,
            &self.z_source,
        ]
    }
}

impl Put for Particle {
    fn fixed(&self, out: &mut Out, pairs: &mut Vec<usize>, _: u32) {
        out.i32(self.id);
        out.u32(self.flags);
        out.f32s(&self.position);
        out.u16(self.bone);
        out.u16(self.texture);
        pairs.push(out.pair());
        pairs.push(out.pair());
        match self.blending {
            ParticleBlend::Wide { blend_mode, emitter_type } => {
                out.u16(blend_mode);
                out.u16(emitter_type);
            }
            ParticleBlend::Split { blend_mode, emitter_type, color_index } => {
                out.u8(blend_mode);
                out.u8(emitter_type);
                out.u16(color_index);
            }
        }
        out.u8(self.particle_type);
        out.u8(self.head_or_tail);
        out.i16(self.texture_tile_rotation);
        out.u16(self.texture_rows);
        out.u16(self.texture_cols);
        for t in self.tracks() {
            t.put_fixed(out, pairs);
        }
        out.f32(self.mid_point);
        for c in &self.colors {
            out.bytes(c);
        }
        out.f32s(&self.sizes);
        for c in self.uv_cells {
            out.u16(c);
        }
        out.f32(self.tail_length);
        out.f32(self.twinkle_speed);
        out.f32(self.twinkle_percent);
        out.f32s(&self.twinkle_scale);
        out.f32(self.burst_multiplier);
        out.f32(self.drag);
        out.f32(self.spin);
        out.f32s(&self.tumble.min);
        out.f32s(&self.tumble.max);
        out.f32s(&self.wind_vector);
        out.f32(self.wind_time);
        out.f32s(&self.follow);
        pairs.push(out.pair());
        self.enabled_in.put_fixed(out, pairs);
    }
    fn children(&self, out: &mut Out, pairs: &mut dyn Iterator<Item = usize>, _: u32) {
        out.pod_block(next(pairs), self.geometry_model.len(), &self.geometry_model);
        out.pod_block(next(pairs), self.recursion_model.len(), &self.recursion_model);
        for t in self.tracks() {
            t.put_children(out, pairs);
        }
        out.pod_block(next(pairs), self.spline_points.len(), &self.spline_points);
        self.enabled_in.put_children(out, pairs);
    }
}
