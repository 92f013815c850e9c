//! relic-gltf: glTF 2.0 export and import for the common model. Not implemented yet.
