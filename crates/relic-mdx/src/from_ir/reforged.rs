//! The fields Reforged's versions add to the records a file built from the model has (spec §4):
//! the model holds none of them, so each gets the value that changes nothing.
//!
//! | version | record | field | written |
//! |---|---|---|---|
//! | 900, 1000 | material | shader name | empty (the SD shader) |
//! | 900 on | layer | emissive gain | 1 |
//! | 1000 on | layer | Fresnel colour, opacity, team colour | white, 0, 0 (no Fresnel) |
//! | 900 on | geoset | level of detail, LOD name | the mesh's level, empty |

use relic_core::binary::FixedString;

use crate::file::{Chunk, Fresnel, GeosetLod};

/// Sets `VERS` to `version` and gives each record the fields `version` adds (800: none).
pub(super) fn fields(chunks: &mut [Chunk], version: u32) {
    for chunk in chunks {
        match chunk {
            Chunk::Version(v) => *v = version,
            Chunk::Materials(materials) => {
                for m in materials {
                    m.shader = (900..=1000).contains(&version).then(FixedString::default);
                    for layer in &mut m.layers {
                        layer.emissive_gain = (version >= 900).then_some(1.0);
                        let none = Fresnel { color: [1.0; 3], opacity: 0.0, team_color: 0.0 };
                        layer.fresnel = (version >= 1000).then_some(none);
                    }
                }
            }
            Chunk::Geosets(geosets) => {
                for g in geosets {
                    let level = g.lod.as_ref().map_or(0, |l| l.lod);
                    g.lod = (version >= 900).then(|| GeosetLod { lod: level, name: FixedString::default() });
                }
            }
            _ => {}
        }
    }
}
