//! Runs the Khronos glTF-Validator (npm package under tools/) on exported files.
