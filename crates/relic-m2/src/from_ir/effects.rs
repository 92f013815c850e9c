//! The sections the model does not describe (collision, lights, cameras, ribbons, particles,
//! flags), taken from the extras while their references hold, and the model box.

use super::builder::Builder;
use crate::extras::EmitterRecord;
use crate::file::*;

impl Builder<'_> {
    /// Sections the model does not describe, taken from the extras while their references hold;
    /// the emitters from the model's (`emitters`), or from the extras for a model that has none
    /// (made before the model held emitters).
    pub(super) fn others(&mut self, skeleton_fit: bool, bounds_fit: bool) {
        let from_model = !self.model.emitters.is_empty();
        if from_model {
            self.emitters();
        }
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
        if !from_model {
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
            f.ribbon_emitters = ribbons.into();
            f.particle_emitters = particles.into();
        }
        f.lights = lights.into();
        f.cameras = b.cameras.clone();
        f.camera_lookup = b.camera_lookup.clone();
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

    /// The model's emitters, each from its M2 record ([`EmitterRecord`]) with its bone the file's
    /// for the emitter's bone, and its texture and render-flag indices pointing at the records it
    /// names (the file's own where they are still at their place, else found or added). An emitter
    /// without an M2 record is dropped, with a loss.
    fn emitters(&mut self) {
        let model = self.model;
        let mut particles = Vec::new();
        let mut ribbons = Vec::new();
        for (i, e) in model.emitters.iter().enumerate() {
            let element = format!("emitters[{i}] {:?}", e.name);
            let record = match EmitterRecord::of(e) {
                Ok(r) => r,
                Err(why) => {
                    self.loss(element, format!("{why}: dropped"));
                    continue;
                }
            };
            let Some(&bone) = self.to_file.get(e.bone) else {
                self.loss(element, format!("bone {} is not in the file: dropped", e.bone));
                continue;
            };
            let placed = match (&record.particle, &record.ribbon) {
                (Some(p), None) => self.particle(p, bone, &record).map(|p| particles.push(p)),
                (None, Some(r)) => self.ribbon(r, bone, &record).map(|r| ribbons.push(r)),
                _ => None,
            };
            if placed.is_none() {
                self.loss(
                    element,
                    "its M2 record holds no particle or ribbon emitter whose indices fit the file: dropped",
                );
            }
        }
        if self.version < 260 {
            let lost = super::classic_blends(&mut particles);
            if lost > 0 {
                let what = format!("{lost} particle colour indices dropped: versions 256–259 have none");
                self.loss("particle emitters", what);
            }
        }
        self.file.particle_emitters = particles.into();
        self.file.ribbon_emitters = ribbons.into();
    }

    /// A particle emitter of `record` on file bone `bone` (`None` if an index outgrows its field).
    fn particle(&mut self, p: &Particle, bone: usize, record: &EmitterRecord) -> Option<Particle> {
        let mut p = p.clone();
        p.bone = u16::try_from(bone).ok()?;
        if let Some(t) = record.textures.first() {
            p.texture = u16::try_from(self.texture_index(usize::from(p.texture), t)).ok()?;
        }
        Some(p)
    }

    /// A ribbon emitter of `record` on file bone `bone` (`None` if an index outgrows its field).
    fn ribbon(&mut self, r: &Ribbon, bone: usize, record: &EmitterRecord) -> Option<Ribbon> {
        let mut r = r.clone();
        r.bone = u32::try_from(bone).ok()?;
        for (slot, t) in r.textures.iter_mut().zip(&record.textures) {
            *slot = u16::try_from(self.texture_index(usize::from(*slot), t)).ok()?;
        }
        for (slot, m) in r.materials.iter_mut().zip(&record.render_flags) {
            *slot = u16::try_from(self.render_flag_index(usize::from(*slot), m)).ok()?;
        }
        // Indices the record names no record for must still hold in this file (the reader checks them).
        let (nt, nr) = (self.file.textures.len(), self.file.render_flags.len());
        let fits = r.textures.iter().all(|&t| usize::from(t) < nt) && r.materials.iter().all(|&m| usize::from(m) < nr);
        fits.then_some(r)
    }

    /// The index of texture record `t` in the file: `at` where it still is, else the first equal
    /// one, else a new one at the end of the table.
    fn texture_index(&mut self, at: usize, t: &Texture) -> usize {
        let textures = &mut self.file.textures;
        if textures.get(at) == Some(t) {
            return at;
        }
        textures.iter().position(|x| x == t).unwrap_or_else(|| {
            textures.push(t.clone());
            textures.len() - 1
        })
    }

    /// As [`Self::texture_index`], for a render-flag record.
    fn render_flag_index(&mut self, at: usize, m: &RenderFlag) -> usize {
        let flags = &mut self.file.render_flags;
        if flags.get(at) == Some(m) {
            return at;
        }
        flags.iter().position(|x| x == m).unwrap_or_else(|| {
            flags.push(*m);
            flags.len() - 1
        })
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
