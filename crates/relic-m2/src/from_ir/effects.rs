//! The sections the model does not describe (collision, lights, cameras, ribbons, particles,
//! flags), taken from the extras while their references hold, and the model box.

use super::builder::Builder;
use crate::file::*;

impl Builder<'_> {
    /// Sections the model does not describe, taken from the extras while their references hold.
    pub(super) fn others(&mut self, skeleton_fit: bool, bounds_fit: bool) {
        let nb = self.file.bones.len();
        let nt = self.file.textures.len();
        let nr = self.file.render_flags.len();
        let Some(b) = self.base else {
            self.fresh_bounds();
            return;
        };
        let f = &mut self.file;
        // The flags as read (a Classic file may carry 0x8 too; moving a file to Classic clears it
        // with its overrides, see `retarget`).
        f.flags = b.flags;
        f.blend_overrides =
            // The flag with no array read: an empty one, as the header reads it.
            if f.has_blend_overrides() { Some(b.blend_overrides.clone().unwrap_or_default()) } else { None };
        f.collision_box = b.collision_box;
        f.collision_radius = b.collision_radius;
        f.collision_triangles = b.collision_triangles.clone();
        f.collision_vertices = b.collision_vertices.clone();
        f.collision_normals = b.collision_normals.clone();
        let mut dropped = Vec::new();
        let bone_ok = |bone: i64| skeleton_fit || (bone >= -1 && bone < nb as i64);
        let lights: Vec<Light> = b.lights.iter().filter(|l| bone_ok(i64::from(l.bone))).cloned().collect();
        if lights.len() < b.lights.len() {
            dropped.push("lights");
        }
        let ribbons: Vec<Ribbon> = b
            .ribbon_emitters
            .iter()
            .filter(|r| {
                bone_ok(i64::from(r.bone))
                    && r.textures.iter().all(|&t| usize::from(t) < nt)
                    && r.materials.iter().all(|&x| usize::from(x) < nr)
            })
            .cloned()
            .collect();
        if ribbons.len() < b.ribbon_emitters.len() {
            dropped.push("ribbon emitters");
        }
        let particles: Vec<Particle> = b
            .particle_emitters
            .iter()
            .filter(|p| bone_ok(i64::from(p.bone)) && usize::from(p.texture) < nt.max(1))
            .cloned()
            .collect();
        if particles.len() < b.particle_emitters.len() {
            dropped.push("particle emitters");
        }
        f.lights = lights.into();
        f.cameras = b.cameras.clone();
        f.camera_lookup = b.camera_lookup.clone();
        f.ribbon_emitters = ribbons.into();
        f.particle_emitters = particles.into();
        for d in dropped {
            self.loss(d, "some refer to bones or textures the model no longer has: dropped");
        }
        if bounds_fit {
            self.file.bounding_box = b.bounding_box;
            self.file.bounding_radius = b.bounding_radius;
        } else {
            self.fresh_bounds();
        }
    }

    /// The model box: the union of the sequence boxes, else the vertices' box; radius half its diagonal.
    pub(super) fn fresh_bounds(&mut self) {
        let f = &mut self.file;
        let mut b: Option<Bounds> = None;
        let mut grow = |p: [f32; 3]| {
            let x = b.get_or_insert(Bounds { min: p, max: p });
            for c in 0..3 {
                if let (Some(lo), Some(hi), Some(v)) = (x.min.get_mut(c), x.max.get_mut(c), p.get(c)) {
                    *lo = lo.min(*v);
                    *hi = hi.max(*v);
                }
            }
        };
        if f.sequences.is_empty() {
            f.vertices.iter().for_each(|v| grow(v.position));
        } else {
            for s in f.sequences.iter() {
                grow(s.bounds.min);
                grow(s.bounds.max);
            }
        }
        // A model without sequences or vertices: the empty box at the origin.
        let b = b.unwrap_or_default();
        f.bounding_box = b;
        let d: f32 = b.min.iter().zip(&b.max).map(|(a, c)| (c - a) * (c - a)).sum();
        f.bounding_radius = d.sqrt() / 2.0;
    }
}
