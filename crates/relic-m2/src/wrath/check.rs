//! Read-time checks of a Wrath-or-later model that need more than one record: sequence links,
//! bone parents, vertex bones, and each `.skin` against the model (every index within the table it
//! points into). The references shared with 256–263 (lookups, materials, effects, bone cycles)
//! are then checked on the model's 256–263 form by `validate` ([`super::read`]).

use relic_core::ReadError;

use crate::file::wrath::{Skin, WrathFile};

fn index_error(offset: u64, path: String, what: &str, value: i64, count: usize) -> ReadError {
    ReadError::invalid(offset, path, format!("{what} {value} is out of range ({count} exist)"))
}

/// Checks the `.m2`'s own cross-references.
pub(crate) fn file(f: &WrathFile) -> Result<(), ReadError> {
    let n = f.sequences.len();
    for (i, s) in f.sequences.iter().enumerate() {
        let at = u64::from(f.sequences.offset) + 64 * i as u64;
        if s.next_variation != -1 && (s.next_variation < 0 || s.next_variation as usize >= n) {
            let path = format!("WrathFile.sequences[{i}].next_variation");
            return Err(index_error(at + 0x3C, path, "sequence", i64::from(s.next_variation), n));
        }
        if usize::from(s.alias_next) >= n {
            let path = format!("WrathFile.sequences[{i}].alias_next");
            return Err(index_error(at + 0x3E, path, "sequence", i64::from(s.alias_next), n));
        }
        if s.is_alias() && f.resolve_alias(i).is_none() {
            let path = format!("WrathFile.sequences[{i}].alias_next");
            return Err(ReadError::invalid(at + 0x3E, path, "the alias chain never reaches a sequence with keys"));
        }
    }
    let bones = f.bones.len();
    for (i, b) in f.bones.iter().enumerate() {
        // Parents precede children in every real file (§5.1), but not necessarily in another
        // tool's: cycles are found on the 256–263 form (`validate`).
        if b.parent != -1 && (b.parent < 0 || b.parent as usize >= bones) {
            let at = u64::from(f.bones.offset) + 88 * i as u64 + 8;
            return Err(index_error(at, format!("WrathFile.bones[{i}].parent"), "parent bone", b.parent.into(), bones));
        }
    }
    for (i, v) in f.vertices.iter().enumerate() {
        if let Some(&bone) = v.bone_indices.iter().find(|&&b| usize::from(b) >= bones.max(1)) {
            let at = u64::from(f.vertices.offset) + 48 * i as u64 + 16;
            return Err(index_error(at, format!("WrathFile.vertices[{i}].bone_indices"), "bone", bone.into(), bones));
        }
    }
    Ok(())
}

/// Checks a `.skin` against its model.
pub(crate) fn skin(s: &Skin, f: &WrathFile) -> Result<(), ReadError> {
    let vertices = f.vertices.len();
    if let Some((i, &v)) = s.view.indices.iter().enumerate().find(|(_, v)| usize::from(**v) >= vertices) {
        let at = u64::from(s.view.indices.offset) + 2 * i as u64;
        return Err(index_error(at, format!("Skin.indices[{i}]"), "model vertex", v.into(), vertices));
    }
    let local = s.view.indices.len();
    if let Some((i, &v)) = s.view.triangles.iter().enumerate().find(|(_, v)| usize::from(**v) >= local) {
        let at = u64::from(s.view.triangles.offset) + 2 * i as u64;
        return Err(index_error(at, format!("Skin.triangles[{i}]"), "skin vertex", v.into(), local));
    }
    if s.view.properties.len() != local {
        let message = format!("{} vertex properties for {local} skin vertices", s.view.properties.len());
        return Err(ReadError::invalid(u64::from(s.view.properties.offset), "Skin.properties", message));
    }
    for (i, m) in s.view.submeshes.iter().enumerate() {
        let at = u64::from(s.view.submeshes.offset) + 48 * i as u64;
        let (vs, vc) = m.vertices();
        let (is, ic) = m.indices();
        if vs + vc > local || is + ic > s.view.triangles.len() {
            let message = format!(
                "vertices {vs}+{vc} of {local}, triangle entries {is}+{ic} of {}: outside the skin",
                s.view.triangles.len()
            );
            return Err(ReadError::invalid(at, format!("Skin.submeshes[{i}]"), message));
        }
        let palette = usize::from(m.bone_combo_index) + usize::from(m.bone_count);
        if palette > f.bone_lookup.len() {
            let message = format!("bone palette {palette} past the bone lookup's {} entries", f.bone_lookup.len());
            return Err(ReadError::invalid(at + 14, format!("Skin.submeshes[{i}].bone_combo_index"), message));
        }
    }
    let submeshes = s.view.submeshes.len();
    for (i, u) in s.view.texture_units.iter().enumerate() {
        if usize::from(u.submesh_index) >= submeshes {
            let at = u64::from(s.view.texture_units.offset) + 24 * i as u64 + 4;
            let path = format!("Skin.texture_units[{i}].submesh_index");
            return Err(index_error(at, path, "submesh", u.submesh_index.into(), submeshes));
        }
    }
    Ok(())
}
