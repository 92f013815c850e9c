//! Bone palettes of the four views.
