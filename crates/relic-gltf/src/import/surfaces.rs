//! The model's tints and UV animations from the scene's extras (relic's export keeps them there,
//! [`ex::SurfacesJson`]).

use crate::extras as ex;

use super::Importer;

impl Importer<'_> {
    /// The tints and UV animations relic's export kept, less what is inconsistent and what names
    /// a mesh, layer, clip or clock the file no longer has (an editor removed it).
    pub(super) fn surfaces(&mut self, extras: Option<&ex::RootExtras>) {
        let Some(surfaces) = extras.and_then(|e| e.surfaces.as_ref()) else { return };
        let (tints, uv_animations, _inconsistent) = surfaces.model();
        self.model.tints = tints;
        self.model.uv_animations = uv_animations;
        self.model.keep_surfaces_that_fit();
    }
}
