//! Names of AnimationData ids and key bones.
