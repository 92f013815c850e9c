//! Posing in M2 space.
